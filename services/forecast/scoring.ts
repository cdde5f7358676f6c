import { HORIZON, scoreEnvelope, type Envelope, type Score } from '../../engine/forecast/index.js';
import { MARKET_SPECS, TIMEFRAME_SECONDS } from '../../engine/markets.js';
import type { ForecastBook } from '../../store/forecasts.js';
import { pairBars } from '../../upstream/forecast/bars.js';
import type { Ctx } from '../context.js';
import { DeckError } from '../../core/errors.js';

/** Envelopes one read of a pair scores at most, and the most bars the one tape read behind them spans. */
export const SCORES_PER_READ = 500;
export const SCORE_SPAN_BARS = 3000;

/** A CME market's 24 bars after an envelope can straddle a weekend (or a holiday's long one): wait for it. */
const HALT_SLACK_S = 3 * 86_400;

/**
 * Scores, lazily and boundedly, the envelopes of a pair whose 24 bars have closed (by the wall clock): the oldest
 * first, at most SCORES_PER_READ from one tape read of at most SCORE_SPAN_BARS bars. The bars come through the
 * tape (the archive, or the venue for what it lacks, kept as it answers). An envelope its bars cannot score yet,
 * or a read that fails, is set aside until the pair's next issue; the scores are appended to the scores ledger.
 */
export async function scoreDue(ctx: Ctx, book: ForecastBook): Promise<number> {
  const { market, tf } = book.pair;
  const len = TIMEFRAME_SECONDS[tf];
  const now = Math.floor(ctx.clock() / 1000);
  const slack = MARKET_SPECS[market].kind === 'cme' ? HALT_SLACK_S : 0;
  const known = (e: Envelope) => e.last_bar_t + (HORIZON + 1) * len + slack;
  const due = book.unscored((e) => known(e) <= now, SCORES_PER_READ);
  if (due.length === 0) return 0;
  const from = due[0]!.last_bar_t;
  const batch = due.filter((e) => known(e) - from <= SCORE_SPAN_BARS * len);
  let bars;
  try {
    bars = await pairBars(ctx.upstreams.tape, book.pair, from, known(batch.at(-1)!), false);
  } catch (error) {
    if (!(error instanceof DeckError)) throw error;
    book.setAside(batch);
    ctx.log.info('forecast_scoring_deferred', { market, tf, envelopes: batch.length, why: error.message });
    return 0;
  }
  const scores: Score[] = [];
  const left: Envelope[] = [];
  for (const e of batch) {
    const s = scoreEnvelope(e, bars);
    if (s) scores.push(s);
    else left.push(e);
  }
  book.setAside(left);
  return book.addScores(scores, ctx.clock());
}
