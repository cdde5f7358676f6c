import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { z } from 'zod';
import { drawPlate, PlateRequest } from '../../services/plates/draw.js';
import { answer } from '../../services/schemas.js';
import { PLATE_SEALS_PER_DAY, sealPlate } from '../../services/plates/seal.js';

export const plateSeal = defineTool({
  name: 'plate_seal',
  title: 'Seal a plate',
  description: `Draws a PNG candle chart of a past window (candles, volume, the indicators asked for, your marks on that market as lines, never their notes) and seals it: the id is the hash of the PNG and the chart_state numbers it was drawn from, so sealing the same thing again returns the same id with fresh false. The plate names no one. ${PLATE_SEALS_PER_DAY} seals a day.`,
  input: PlateRequest,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: 'session',
  output: answer({
    id: z.string().describe('sha256 of the PNG and the chart_state numbers it was drawn from'),
    fresh: z.boolean().describe('false: sealed already, counted nothing'),
    path: z.string(),
    png: z.string().describe("the PNG's URL"),
    json: z.string().describe("the chart_state's URL"),
  }),
  toolset: TOOLSETS.plates,
  rest: { method: 'POST', path: '/plates', errors: [429, 502, 503] },
  async run(ctx, input) {
    const plate = await drawPlate(ctx, input);
    return { ok: true, ...(await sealPlate(ctx, plate.id, plate.png, plate.chartStateJson)) };
  },
});
