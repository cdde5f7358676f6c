import type { Bars } from '../bars.js';
import type { Envelope, Pair } from './envelope.js';
import { issueEnvelope } from './issue.js';
import { ForecastError, type Unissuable } from './issuer.js';

/** An envelope to issue as data alone, so it can run on another thread: the pair's bars, the pair and the time. */
export interface IssueJob {
  bars: Bars;
  pair: Pair;
  t: number;
}

/** The envelope, or why none could be issued (the engine's ForecastError as data: an error's class does not cross). */
export type IssueOutcome = { ok: true; envelope: Envelope } | { ok: false; reason: Unissuable; message: string };

export function runIssueJob({ bars, pair, t }: IssueJob): IssueOutcome {
  try {
    return { ok: true, envelope: issueEnvelope(bars, pair, t) };
  } catch (error) {
    if (error instanceof ForecastError) return { ok: false, reason: error.reason, message: error.message };
    throw error;
  }
}

/** The outcome as issueEnvelope would have answered it: the envelope, or its ForecastError thrown. */
export function issuedOf(outcome: IssueOutcome): Envelope {
  if (outcome.ok) return outcome.envelope;
  throw new ForecastError(outcome.reason, outcome.message);
}
