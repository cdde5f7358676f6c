import { CapsSchema } from '../engine/book/index.js';
import { MARKETS, TIMEFRAMES } from '../engine/markets.js';
import type { Doc } from './doc.js';
import { z } from 'zod';

/** A trading model an operator registered: its decide() endpoint and what it trades. */
export const ModelRecordSchema = z.strictObject({
  name: z.string().describe("unique among its principal's models; the copy seller names it owner/name"),
  owner: z.string().describe("the principal's name, for the copy seller's listing"),
  decide_url: z.url().describe('the decide() endpoint the deck POSTs each closed bar'),
  market: z.enum(MARKETS),
  timeframe: z.enum(TIMEFRAMES),
  caps: CapsSchema.describe("the model's caps, inside its principal's"),
  synthetic: z.boolean().describe("one of the house's own example strategies run to fill the book: never listed by the copy seller"),
  created_at: z.number().int().describe('unix milliseconds'),
  refused: z.strictObject({ total: z.number().int(), fields: z.record(z.string(), z.number().int()) }).describe('answers the typed lane refused, in all and by the field each named'),
});
export type ModelRecord = z.infer<typeof ModelRecordSchema>;

export interface ModelsDoc {
  by_principal: Record<string, ModelRecord[]>;
}

/** Every principal's models, by (principal, name): another principal's name reads like none. */
export class Models {
  constructor(private readonly file: Doc<ModelsDoc>) {}

  static empty = (): ModelsDoc => ({ by_principal: {} });

  list(principal: string): readonly ModelRecord[] {
    return this.file.data.by_principal[principal] ?? [];
  }

  get(principal: string, name: string): ModelRecord | null {
    return this.list(principal).find((m) => m.name === name) ?? null;
  }

  /** Every model with the id of the principal that registered it. */
  all(): { principal: string; model: ModelRecord }[] {
    return Object.entries(this.file.data.by_principal).flatMap(([principal, models]) => models.map((model) => ({ principal, model })));
  }

  /** Adds the model unless the principal already has one of that name (answers false then; nothing is written). */
  add(principal: string, model: ModelRecord, most: number): Promise<'added' | 'taken' | 'full'> {
    return this.file.update((d) => {
      const mine = (d.by_principal[principal] ??= []);
      if (mine.some((m) => m.name === model.name)) return 'taken';
      if (mine.length >= most) return 'full';
      mine.push(model);
      return 'added';
    });
  }

  /** Counts one refused answer against the model, under each field it named. */
  refuse(principal: string, name: string, fields: readonly string[]): Promise<void> {
    return this.file.update((d) => {
      const m = d.by_principal[principal]?.find((x) => x.name === name);
      if (!m) return;
      m.refused.total++;
      for (const f of new Set(fields)) m.refused.fields[f] = (m.refused.fields[f] ?? 0) + 1;
    });
  }
}
