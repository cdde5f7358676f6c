import { z } from 'zod';
import { Chain } from '../../config/files.js';
import { TIERS } from '../../core/principal.js';

/** The shapes a principal's standing is answered in (account, plans, meter, claims, grants), written once. */

export const Day = z.iso.date().describe('a UTC day, YYYY-MM-DD');

/** Who a principal is, as the deck shows it (never its id). */
export const PrincipalShown = z.object({
  name: z.string(),
  agent_id: z.string(),
  wallet: z.string().nullable().describe('its wallet (its operator), checksummed: the one named at join, or the last one proven'),
  wallet_status: z.enum(['unproven', 'proven']).nullable().describe('unproven: named, not proven by its own signature, and counting for nothing; null: no wallet'),
  tier: z.enum(TIERS),
});

export const MeterView = z.object({
  day: Day,
  allowance: z.number().describe("the tier's allowance plus what holder standing adds today"),
  holder: z.number().describe('what holder standing adds today'),
  spent: z.number(),
  balance: z.number(),
  tone: z.enum(['ok', 'low', 'spent']).describe('ok while over a fifth is left, low below that, spent at or below zero: the meter reports, never refuses'),
});

/** The plan a principal stands on and the period it runs in (a paid plan's unbroken run, else the UTC day). */
export const PlanStanding = z.object({
  plan: z.string(),
  period: z.object({ unit: z.enum(['paid', 'utc_day']), start: z.iso.datetime(), end: z.iso.datetime() }),
});

/** planOf with the tier and today's meter: the plan a principal stands on now. */
export const Mine = PlanStanding.extend({ tier: z.enum(TIERS), usage: MeterView });

/** A chain plans are paid on, as shown: never its RPC, which may carry a provider's key. */
export const ChainShown = Chain.omit({ rpc: true });

/** Today's holder standing: the wallet linked today, the NFTs it held when linked, the allowance they add, used and left. */
export const HolderStanding = z.object({
  day: Day,
  wallet: z.string().nullable(),
  nfts: z.number().int(),
  allowance: z.number(),
  used: z.number(),
  remaining: z.number(),
});

/** A hash-chained ledger entry's place: its seq and hash. */
export const Chained = { seq: z.number().int(), hash: z.string() };

/** A plan claim as its ledger keeps it (without whose it is): the claim's answer and the history show it so. */
export const PlanClaimEntry = z.strictObject({
  chain: z.string(),
  tx_hash: z.string().describe('lower case'),
  agent_id: z.string(),
  plan: z.string(),
  tier: z.string(),
  price_usdc: z.number(),
  token: z.string(),
  token_address: z.string(),
  amount: z.string().describe('what the payer sent the treasury, in whole tokens, as a decimal string'),
  payer: z.string(),
  proof: z
    .enum(['proven_wallet', 'payer_signature', 'joined_wallet'])
    .describe("how the payer is bound to the principal: its proven wallet, or the payer's signature (joined_wallet: a claim recorded before wallets were proven)"),
  block: z.number().int(),
  block_time: z.iso.datetime(),
  period: z.strictObject({ start: z.iso.datetime(), end: z.iso.datetime() }),
});
