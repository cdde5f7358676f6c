import { z } from 'zod';
import type { Pair } from '../../engine/forecast/index.js';
import type { WorkAsk } from '../../core/pool/pool.js';

/** What the lens says of the forecaster: its model, revision, device and trailing sample size. */
export const LensSchema = z.strictObject({
  model: z.string().min(1).max(64),
  model_rev: z.string().min(1).max(64),
  device: z.string().min(1).max(32),
  samples: z.number().int().nonnegative(),
});
export type Lens = z.infer<typeof LensSchema>;

/**
 * What answers for envelopes: the in-process forecaster or an HTTP sidecar. envelopeAt(pair, t) is the envelope as
 * of t (a bar close): issued at the close of the last bar closed by t, from bars closed by then. It throws the
 * engine's ForecastError when there is nothing to issue (warming up, flat).
 */
export interface Source {
  readonly name: string;
  /** `ask`: whose turn the work takes where the deck does it (the in-process forecaster's work pool). */
  envelopeAt(pair: Pair, t: number, fresh: boolean, ask: WorkAsk): Promise<unknown>;
  lens(): Promise<unknown>;
}
