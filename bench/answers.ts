import { readFileSync } from 'node:fs';

/** What the deck answered, handed to a baseline so it answers the same bytes. */
export interface Answers {
  /** The JSON-RPC answer to tools/call catalogue on POST /mcp/candles. */
  mcpCall: string;
  /** The JSON-RPC answer to an anonymous tools/list on POST /mcp/candles. */
  mcpList: string;
  /** The answer to an anonymous GET /plans. */
  plans: string;
  /** The answer to GET /me with a session bearer. */
  me: string;
  /** The answer to GET /timetravel/candles/BTC/1m for the sealed 7-day window, asked with a session bearer. */
  tape: string;
}

export const ANSWERS_ENV = 'BENCH_ANSWERS';

export function readAnswers(): Answers {
  const file = process.env[ANSWERS_ENV];
  if (!file) throw new Error(`${ANSWERS_ENV} names no file`);
  return JSON.parse(readFileSync(file, 'utf8')) as Answers;
}

/** Where the bare express app answers tools/list: it does not read the body, so each answer has its own path. */
export const BARE_LIST_PATH = '/mcp/candles/tools-list';
