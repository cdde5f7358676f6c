import { z } from 'zod';
import { CapsSchema, FollowQuoteSchema, PairedTradeSchema, RecordStatsSchema } from '../../engine/book/index.js';
import { MARKETS, TIMEFRAMES } from '../../engine/markets.js';
import { PageOf } from '../book/paging.js';
import { FillView, PositionView } from '../book/views.js';
import { answer } from '../schemas.js';
import { UnixS } from '../../core/schemas.js';

// The copy seller's answers, each field as the tool answers it.

const ModelNamed = z.strictObject({ id: z.string().describe('owner/name'), market: z.enum(MARKETS), timeframe: z.enum(TIMEFRAMES) });

export const ModelsAnswer = answer({
  models: PageOf(
    ModelNamed.extend({
      since: UnixS.describe('its first live fill'),
      last_fill_t: UnixS,
      fills: z.number().int().describe('live fills'),
      open: z.boolean().describe('whether a position is open'),
      stats: RecordStatsSchema.describe('figures from paired closes of its live fills'),
    }),
  ),
});

export const ModelRecordAnswer = answer({
  model: ModelNamed,
  stats: RecordStatsSchema,
  trades: PageOf(PairedTradeSchema).describe('paired closes, oldest first'),
  fills: PageOf(FillView).describe('live fills, oldest first'),
  open: z.array(PositionView).describe('what is still open'),
});

export const FollowQuoteAnswer = FollowQuoteSchema.extend({
  ok: z.literal(true),
  model: ModelNamed,
  basis: z.union([z.strictObject({ size: z.number() }), z.strictObject({ notional: z.number() })]).describe('your size, or your dollars, for the model\'s largest recent order'),
  caps: CapsSchema.describe('your caps, as sent'),
  since: UnixS.describe("the model's orders are read from here"),
  note: z.string(),
});
