import { z } from 'zod';
import { MARKETS } from '../../engine/markets.js';
import { isUsdc, SERIES_LIMITS } from '../../engine/series/index.js';
import type { PlansFile } from '../../config/files.js';
import { priceOf, SELLER_IDS, SELLERS, type Seller } from '../../config/sellers.js';
import { durationWords } from '../../engine/series/index.js';

const { epochs, epoch_s, span_s } = SERIES_LIMITS;

const usdc = z.number().nonnegative().refine(isUsdc, `at most ${SERIES_LIMITS.usdc_decimals} decimals, as USDC carries`);
const positive = z.number().positive();

/**
 * The quote body (input to the quote, and nested as `quote` when a series opens). The venue decides the kind and class
 * (read from the layer's venues); the price of an epoch, which is one job, is held to the range the hired seller's
 * card states.
 */
export const QuoteBody = z
  .object({
    agent: z
      .object({
        chainId: z.number().int().positive().describe('the chain of the ERC-8004 identity registry the agent is registered on'),
        agentId: z
          .union([z.number().int().nonnegative(), z.string().regex(/^\d{1,78}$/, 'a decimal token id')])
          .transform(String)
          .describe('the agent\'s ERC-8004 token id'),
        seller: z.enum(SELLER_IDS as [Seller['id'], ...Seller['id'][]]).describe('the deck seller hired: its /mcp/{seller} endpoint is handshaken each epoch'),
      })
      .strict(),
    venue: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, '1 to 64 of a-z, 0-9, ., _ and -').describe('a venue the layer lists (GET /v1/series/quote)'),
    epochs: z.number().int().min(epochs.min).max(epochs.max).describe(`epoch jobs in the series (${epochs.min} to ${epochs.max})`),
    epoch_s: z
      .number()
      .int()
      .min(epoch_s.min)
      .max(epoch_s.max)
      .default(epoch_s.default)
      .describe(`an epoch's length in seconds (${epoch_s.min} to ${epoch_s.max}; default ${epoch_s.default})`),
    price_usdc: usdc.describe('USDC for one epoch, within the hired seller\'s card price range'),
    caps: z
      .object({
        markets: z
          .array(z.enum(MARKETS))
          .min(1)
          .refine((m) => new Set(m).size === m.length, 'each market once')
          .describe('the markets the seller may trade'),
        max_order_size: positive.describe('the largest size of one order'),
        max_notional: positive.describe('the largest notional of one order'),
        max_position: positive.describe('the largest position, either way'),
        allow_short: z.boolean().default(false).describe('whether the position may go short (default false)'),
      })
      .strict(),
    cover: usdc.describe('cover in USDC; on an external venue at most the seller\'s deposit'),
    vault: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed address').optional().describe('the vault, for a vault-kind venue only'),
  })
  .strict()
  .superRefine((q, issues) => {
    if (q.epochs * q.epoch_s > span_s.max)
      issues.addIssue({ code: 'custom', path: ['epochs'], message: `the series would run ${durationWords(q.epochs * q.epoch_s)}; epochs x epoch_s is at most ${durationWords(span_s.max)}` });
  });
export type QuoteBody = z.output<typeof QuoteBody>;

/** The price range of an epoch for each seller, as the cards state it (a range may be read from the plans file). */
export const pricesBySeller = (plans: PlansFile): Record<string, { min: number; max: number }> =>
  Object.fromEntries(SELLERS.map((s) => {
    const { min, max } = priceOf(s, plans);
    return [s.id, { min, max }];
  }));
