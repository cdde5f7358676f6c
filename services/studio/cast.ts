import { DECIDER_VERSION, DeciderRefusal, irOf, seedHash, type DeciderIR, type Script } from '../../engine/decider/index.js';
import type { ScanSource } from '../../engine/forge/index.js';
import type { RuleReading } from '../../engine/reader/index.js';
import type { Forged, ForgeRefusal } from '../../engine/forge/job.js';
import { DeckError } from '../../core/errors.js';
import { workAsk, type SessionCtx } from '../context.js';

/** The field a refusal of a script's part names: the one the caller can change (the words, the script block, ...). */
export type FieldOf = (part: string) => string;
export const fromWords: FieldOf = () => 'intent';
export const fromScript: FieldOf = (part) => `script.${part}`;

/** The engine's failure: a refusal stays typed (the pool's among them), anything else is carried as a 500. */
const engineFailure = (what: string, error: unknown): DeckError =>
  error instanceof DeckError ? error : new DeckError(500, 'engine_failed', `${what} failed: ${(error as Error).message}`, { step: what });

/** Runs one step of the engine: a refusal stays typed, anything else the engine throws is its failure (500, carried). */
export function engineStep<T>(what: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw engineFailure(what, error);
  }
}

/** engineStep for work handed to the pool: the same refusals and failures, once it answers. */
const engineWork = <T>(what: string, work: Promise<T>): Promise<T> => work.catch((error: unknown) => Promise.reject(engineFailure(what, error)));

/** A part of a script the decider cannot run, as the 422 naming the field the caller can change. */
function refusalOf({ part, message, hint }: ForgeRefusal, fieldOf: FieldOf): DeckError {
  const field = fieldOf(part);
  return new DeckError(422, 'bad_input', `${field}: ${message}`, { problems: [{ field, message }], part, ...(hint !== undefined ? { hint } : {}) });
}

/** The decider IR of a script and its seed hash; a script the forge cannot run is 422 naming the part. */
export function deciderOf(script: Script, fieldOf: FieldOf): { ir: DeciderIR; seed_hash: string } {
  const ir = engineStep('the decider IR', () => {
    try {
      return irOf(script);
    } catch (error) {
      if (!(error instanceof DeciderRefusal)) throw error;
      throw refusalOf(error, fieldOf);
    }
  });
  return { ir, seed_hash: engineStep('the seed hash', () => seedHash(ir, DECIDER_VERSION)) };
}

/** The embedded reader's reading of the words, on the work pool (words of up to 256 KB take it some hundreds of ms). */
export const readOnPool = (ctx: SessionCtx, text: string): Promise<RuleReading> =>
  engineWork('the reader', ctx.pool.run('reading', text, workAsk(ctx)));

/**
 * Script -> decider IR -> watermarked code (the watermark read back from the code, so it is what the code carries),
 * with the code's self-review and scan: on the work pool, the caller's turn among every principal's work.
 */
export async function forgeOnPool(ctx: SessionCtx, script: Script, source: ScanSource, fieldOf: FieldOf): Promise<Forged> {
  const outcome = await engineWork('the forge', ctx.pool.run('forging', { script, source }, workAsk(ctx)));
  if (outcome.ok) return outcome.forged;
  if ('refused' in outcome) throw refusalOf(outcome.refused, fieldOf);
  throw new DeckError(500, 'engine_failed', outcome.failed.message, { step: outcome.failed.step });
}
