import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { nowS, seriesView } from '../../services/series/view.js';
import { SeriesListAnswer } from '../../services/series/answers.js';

export const seriesList = defineTool({
  name: 'series_list',
  title: 'Your series',
  description:
    'Your series, newest first, each as last kept with its next move: { ok, count, series }. Read one with series_read (GET /v1/series/{id}) to follow the layer.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: SeriesListAnswer,
  access: 'session',
  toolset: TOOLSETS.series,
  rest: { method: 'GET', path: '/v1/series' },
  async run(ctx) {
    const now = nowS(ctx);
    // Kept in the order they were opened (writes are serialized), so the newest is last.
    const series = [...ctx.store.series.list(ctx.principal.id)].reverse().map((r) => seriesView(ctx, r, now));
    return { ok: true, count: series.length, series };
  },
});
