import { z } from 'zod';
import { barsToRows } from '../../engine/bars.js';
import { isOpen } from '../../engine/calendar.js';
import { coverage } from '../../engine/coverage.js';
import { MARKETS, TIMEFRAME_SECONDS, TIMEFRAMES } from '../../engine/markets.js';
import type { TapeWindow } from '../../upstream/tape/tape.js';
import { defineTool, JsonBytes } from '../define.js';
import { badInput } from '../errors.js';
import { int } from '../schemas.js';

/** The most bars one answer carries: seven days of 1m bars fit (10,080), longer windows are asked in parts. */
export const MAX_BARS = 20_000;

export const tape = defineTool({
  name: 'tape',
  title: 'Candles from the tape',
  description:
    `Real OHLCV bars of NQ, ES, YM, BTC, ETH or SOL at 15s, 1m, 5m or 1h for a past window [from, to) (unix seconds), at most ${MAX_BARS} bars, with a coverage object that states what was measured. A past window is sealed when first served: the same request returns the same bytes. A session id bypasses every cache. NQ, ES and YM follow the CME session: no bar falls in a halt, and a halt counts as closed market, not missing data.`,
  input: z
    .object({
      market: z.enum(MARKETS),
      tf: z.enum(TIMEFRAMES),
      from: int.describe('window start, unix seconds'),
      to: int.describe('window end (exclusive), unix seconds, not in the future'),
      session: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, '1 to 64 of A-Z a-z 0-9 _ -').optional().describe('a replay session id: bypasses every cache'),
    })
    .strict(),
  access: 'session',
  rest: { method: 'GET', path: '/timetravel/candles/:market/:tf', errors: [502, 503], tag: 'tape' },
  async run(ctx, { market, tf, from, to, session }) {
    const now = Math.floor(ctx.clock() / 1000);
    const len = TIMEFRAME_SECONDS[tf];
    if (from >= to) throw badInput([{ field: 'from', message: 'must be before to' }]);
    if (to > now) throw badInput([{ field: 'to', message: 'the tape serves past windows only: to must not be in the future' }]);
    if ((to - from) / len > MAX_BARS) throw badInput([{ field: 'to', message: `at most ${MAX_BARS} ${tf} bars per answer` }]);
    const key = `${market}/${tf}/${from}-${to}`;
    if (!session) {
      const sealed = await ctx.store.seals.get(key);
      if (sealed) return new JsonBytes(sealed);
    }
    // The archive answers alone only when no open-market bar of the window is absent from it.
    const complete = (w: TapeWindow) => coverage({ market, tf, from, to, times: w.bars.t, held: [{ from, to }] }).missing.bars === 0;
    const w = await ctx.upstreams.tape.window(market, tf, from, to, session !== undefined, complete);
    // Bars never appear inside a halt: a bar the venue sent there (an older session schedule) is left out and counted.
    const rows = barsToRows(w.bars).filter((r) => isOpen(market, r.t));
    const served = { t: rows.map((r) => r.t) };
    const measured = coverage({ market, tf, from, to, times: served.t, held: w.held, ...(w.built ? { built: w.built } : {}) });
    const answer = {
      ok: true,
      market,
      tf,
      from,
      to,
      candles: rows,
      coverage: { ...measured, source: w.source, sealed: !session, left_out_in_halts: w.bars.length - rows.length },
    };
    const bytes = Buffer.from(JSON.stringify(answer));
    return new JsonBytes(session ? bytes : await ctx.store.seals.seal(key, bytes));
  },
});
