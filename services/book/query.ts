import { ModelName, RunId } from './books.js';

/** Which book a history read names: yours, a model's live book, or a run's. */
export const BookQuery = {
  model: ModelName.optional().describe("one of your models: its live book (without run)"),
  run: RunId.optional().describe("one of your runs: a replay's own book, or what a live run placed"),
};
