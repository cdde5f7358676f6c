import { z } from 'zod';
import { seriesMarkdown } from '../../engine/series/index.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { followSeries } from '../../services/series/follow.js';
import { nowS, SeriesId, seriesView } from '../../services/series/view.js';
import { SeriesReadAnswer } from '../../services/series/answers.js';

export const seriesRead = defineTool({
  name: 'series_read',
  title: 'Read a series',
  description:
    'Your series, brought up to the coordination layer: the open epoch\'s handshake is read from the layer and the series follows it (an epoch the layer ended ends; the last epoch ended or validUntil reached ends the series; ' +
    'a stopped series with no epoch open ends), and a handshake the deck kept for recovery is adopted. Answers { ok, series, hire } where hire is the open epoch\'s handshake as the layer reports it (null when no epoch is open); ' +
    'when the layer could not answer, the series is as kept and `layer` carries why. 404 when the series is not yours.\n\n' +
    seriesMarkdown(),
  // The state table is reference, not how to call: MCP lists where to read it.
  listed: {
    description:
      "Your series, brought up to the coordination layer: the open epoch's handshake is read from the layer and the series follows it (ended epochs, the last epoch or validUntil end the series), and a handshake kept for recovery is adopted. " +
      "Answers { ok, series, hire } (hire: the open epoch's handshake, null when none is open); when the layer could not answer, the series is as kept and `layer` says why. 404 when the series is not yours. " +
      'The series states and their transitions: the OpenAPI description of GET /v1/series/{id}.',
  },
  input: z.object({ id: SeriesId }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: SeriesReadAnswer,
  access: 'session',
  toolset: TOOLSETS.series,
  rest: { method: 'GET', path: '/v1/series/:id', errors: [404, 503] },
  async run(ctx, { id }) {
    const { record, hire, layer } = await followSeries(ctx, id);
    return { ok: true, series: seriesView(ctx, record, nowS(ctx)), hire, ...(layer ? { layer: { status: layer.status, ...layer.body() } } : {}) };
  },
});
