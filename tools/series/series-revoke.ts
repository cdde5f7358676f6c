import { z } from 'zod';
import { revoke, SERIES_LIMITS } from '../../engine/series/index.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { mySeries, nowS, SeriesId, seriesView, writeSeries } from '../../services/series/view.js';
import { RevokeAnswer } from '../../services/series/answers.js';

export const seriesRevoke = defineTool({
  name: 'series_revoke',
  title: 'Revoke a series',
  description:
    'Stops your series: { revoke: true, why }. From MANDATED, EPOCH_OPEN or EPOCH_ENDED it is STOPPED: no new epoch opens; an open epoch still submits and is graded, and reads follow it. ' +
    'Answers { ok, moved, series }; 409 when it is already stopped or ended; 404 when it is not yours.',
  input: z
    .object({
      id: SeriesId,
      revoke: z.literal(true).describe('true: stop the series'),
      why: z.string().trim().min(1).max(SERIES_LIMITS.why_chars).describe(`why, in at most ${SERIES_LIMITS.why_chars} characters (kept on the series and its ledger)`),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  output: RevokeAnswer,
  access: 'session',
  toolset: TOOLSETS.series,
  rest: { method: 'POST', path: '/v1/series/:id', errors: [404, 409, 503] },
  async run(ctx, { id, why }) {
    mySeries(ctx, id);
    const now = nowS(ctx);
    const changed = await writeSeries(
      ctx,
      id,
      (current) => {
        const c = revoke(current, why, now);
        if ('ok' in c) throw new DeckError(409, c.code, c.message, { state: current.state });
        return c;
      },
      'the series could not be written: it is not stopped',
    );
    const move = changed.moves[0]!;
    return { ok: true, moved: { row: move.row, from: move.from, to: move.to }, series: seriesView(ctx, changed.record, now) };
  },
});
