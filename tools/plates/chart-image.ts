import { z } from 'zod';
import { defineTool, WithImage } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { ChartState } from '../../services/plates/chart-state.js';
import { drawPlate, PlateRequest } from '../../services/plates/draw.js';
import { answer } from '../../services/schemas.js';

export const chartImage = defineTool({
  name: 'chart_image',
  title: 'Chart image',
  description:
    'The plate of a past window as an image: candles, volume, the indicators asked for and your marks (as lines and bands, never their notes), drawn as POST /plates draws it, without sealing it. Answers the PNG as image content and its chart_state.',
  input: PlateRequest,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: 'session',
  toolset: TOOLSETS.plates,
  output: answer({ id: z.string().describe("the plate's id: sha256 of the PNG and its chart_state"), chart_state: ChartState }),
  async run(ctx, input) {
    const plate = await drawPlate(ctx, input);
    return new WithImage({ ok: true, id: plate.id, chart_state: plate.chart_state }, plate.png);
  },
});
