import type { Config } from '../../config/env.js';
import { assertNoDirection, DirectionFieldError, EnvelopeSchema, type Envelope, type Pair } from '../../engine/forecast/index.js';
import { DeckError, notConfigured, problemsOf } from '../../core/errors.js';
import type { WorkAsk, WorkPool } from '../../core/pool/pool.js';
import type { Tape } from '../tape/tape.js';
import { InProcessForecaster } from './in-process.js';
import { LensSchema, type Lens, type Source } from './source.js';
import { SidecarForecaster } from './sidecar.js';

const refused = (source: string, code: string, message: string, details: Record<string, unknown> = {}) =>
  new DeckError(502, code, `${source} ${message}`, { upstream: source, ...details });

/** The guard first (a direction anywhere is refused by name), then envelope.v1 itself. */
function guarded(source: string, answer: unknown): void {
  try {
    assertNoDirection(answer);
  } catch (error) {
    if (!(error instanceof DirectionFieldError)) throw error;
    throw refused(source, 'direction_refused', `answered a direction ('${error.key}' at ${error.path}); an envelope states magnitude, never direction`, {
      key: error.key,
      path: error.path,
    });
  }
}

/**
 * The forecaster the deck trusts: whichever source answers, every answer passes the guard (no side, median, drift
 * or the like, anywhere) and the strict envelope.v1 schema, is for the pair asked and was issued by t. Anything
 * else is 502 naming the source.
 */
export class Forecaster {
  constructor(private readonly source: Source) {}

  async issue(pair: Pair, t: number, fresh: boolean, ask: WorkAsk): Promise<Envelope> {
    const answer = await this.source.envelopeAt(pair, t, fresh, ask);
    guarded(this.source.name, answer);
    const parsed = EnvelopeSchema.safeParse(answer);
    if (!parsed.success) {
      throw refused(this.source.name, 'not_an_envelope', 'answered something that is not an envelope.v1', { problems: problemsOf(parsed.error).slice(0, 10) });
    }
    const e = parsed.data;
    if (e.market !== pair.market || e.tf !== pair.tf) {
      throw refused(this.source.name, 'not_an_envelope', `answered an envelope of ${e.market} ${e.tf} when asked for ${pair.market} ${pair.tf}`);
    }
    if (e.issued_t > t) throw refused(this.source.name, 'not_an_envelope', `answered an envelope issued at ${e.issued_t}, after the ${t} it was asked for`);
    return e;
  }

  async lens(): Promise<Lens> {
    const answer = await this.source.lens();
    guarded(this.source.name, answer);
    const parsed = LensSchema.safeParse(answer);
    if (!parsed.success) throw refused(this.source.name, 'not_a_lens', 'answered a health that is not { model, model_rev, device, samples }', { problems: problemsOf(parsed.error) });
    return parsed.data;
  }
}

/** A sidecar when DECK_FORECAST_URL is set, else the in-process forecaster unless DECK_FORECASTER=off; else none. */
export function openForecaster(config: Config, tape: Tape, pool: WorkPool): Forecaster | null {
  if (config.forecastUrl) return new Forecaster(new SidecarForecaster(config.forecastUrl));
  return config.forecaster === 'off' ? null : new Forecaster(new InProcessForecaster(tape, pool));
}

/** No forecaster at all: 503 naming both ways to configure one. */
export const noForecaster = (): DeckError =>
  notConfigured('the forecaster', 'DECK_FORECAST_URL (an HTTP sidecar) or DECK_FORECASTER=in-process (the in-process one, the default)');
