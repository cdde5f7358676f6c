import {
  DEFAULT_OPTIONS,
  DEVICE,
  issuedOf,
  lastClosedBar,
  lookbackBars,
  MODEL,
  MODEL_REV,
  type Envelope,
  type Pair,
} from '../../engine/forecast/index.js';
import { TIMEFRAME_SECONDS } from '../../engine/markets.js';
import type { WorkAsk, WorkPool } from '../../core/pool/pool.js';
import type { Tape } from '../tape/tape.js';
import { lookbackFrom, pairBars } from './bars.js';
import type { Lens, Source } from './source.js';

/**
 * Bars read per issue, as a share of what an envelope reads at the least: the margin covers gaps in the tape, so an
 * envelope issued on demand reads as many bars as the same one issued by a backfill over the whole archive.
 */
const MARGIN = 1.25;

/**
 * The engine's forecaster, run in the deck (the default). It reads the pair's bars through the deck's tape for the
 * look-back window ending at t, and issues at the close of the last bar closed by t: the issued_t (and the bytes)
 * a walk-forward backfill gives that bar. The issue runs on the work pool (8-12 ms of the engine's a few thousand
 * bars), the caller's turn.
 */
export class InProcessForecaster implements Source {
  readonly name = 'in-process forecaster';

  constructor(
    private readonly tape: Tape,
    private readonly pool: WorkPool,
  ) {}

  async envelopeAt(pair: Pair, t: number, fresh: boolean, ask: WorkAsk): Promise<Envelope> {
    const len = TIMEFRAME_SECONDS[pair.tf];
    const from = lookbackFrom(pair, len, t, Math.ceil(lookbackBars() * MARGIN));
    const bars = await pairBars(this.tape, pair, from, t, fresh);
    const i = lastClosedBar(bars, len, t);
    // With no bar closed by t the engine refuses it as warming up.
    return issuedOf(await this.pool.run('forecasting', { bars, pair, t: i >= 0 ? bars.t[i]! + len : t }, ask));
  }

  async lens(): Promise<Lens> {
    return { model: MODEL, model_rev: MODEL_REV, device: DEVICE, samples: DEFAULT_OPTIONS.sample };
  }
}
