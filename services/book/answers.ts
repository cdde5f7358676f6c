import { z } from 'zod';
import { CapsSchema, LimitsSchema } from '../../engine/book/index.js';
import { MARKETS } from '../../engine/markets.js';
import { answer, keyed } from '../schemas.js';
import { PageOf } from './paging.js';
import { BookView, FillView, OrderView, PositionView } from './views.js';

// The book's answers, each field as the tool answers it.

export const OrderAnswer = answer({ order: OrderView });

export const OrdersAnswer = answer({ book: BookView, orders: PageOf(OrderView) });

export const FillsAnswer = answer({ book: BookView, fills: PageOf(FillView) });

export const PositionsAnswer = answer({ book: BookView, positions: z.array(PositionView).describe('the open positions, one per market') });

export const CapsAnswer = answer({
  caps: CapsSchema.describe('your caps as set (a field left out is the house limit)'),
  house: z.strictObject({
    markets: keyed(MARKETS, z.strictObject({ max_order_size: z.number(), max_position: z.number() })),
    max_notional: z.number().describe('US dollars'),
  }),
  limits: keyed(MARKETS, LimitsSchema).describe('the limits your caps make on each market, inside the house limits'),
});
