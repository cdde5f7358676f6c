import { z } from 'zod';
import { planClaimMessage, signerOf } from '../../engine/plans/messages.js';
import { paymentOf, planBought } from '../../engine/plans/payment.js';
import { periodFor } from '../../engine/plans/period.js';
import type { PlanClaim } from '../../store/plan-claims.js';
import type { LedgerEntry } from '../../store/ledger.js';
import type { Ctx } from '../../services/context.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError, notConfigured } from '../../core/errors.js';
import { provenWallet, type Principal } from '../../core/principal.js';
import { listedChain, treasuryOf } from '../../services/plans/offered.js';
import { meterOf, planOf, tierOf } from '../../services/plans/standing.js';
import { Chained, Mine, PlanClaimEntry } from '../../services/plans/standing-schema.js';

const refuse = (code: string, message: string, details: Record<string, unknown> = {}) => new DeckError(422, code, message, details);
const same = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

/** The claim as recorded, the same bytes each time it is asked for, with where the principal stands now. */
function answer(ctx: Ctx, p: Principal, e: LedgerEntry<PlanClaim>) {
  const { principal_id: _owner, ...claim } = e.entry;
  const now = { ...p, tier: tierOf(ctx, p) };
  return {
    ok: true as const,
    claim: { ...claim, seq: e.seq, hash: e.hash, claimed_at: new Date(e.at).toISOString() },
    mine: { ...planOf(ctx, now), tier: now.tier, usage: meterOf(ctx, now) },
  };
}

export const planClaim = defineTool({
  name: 'plan_claim',
  title: 'Claim a plan paid on chain',
  description:
    "Claims a plan paid on chain: the transaction's ERC-20 Transfer of the chain's token to the treasury buys the dearest plan its amount covers, for period_days from the block's time (stacked after a period of the plan, or a dearer one, still running). " +
    'The payer is bound to you when it is your proven wallet (wallet_prove); otherwise send payer_signature_hex, the payer\'s personal signature of exactly "the deck: plan claim\\nagent_id: {agent_id}\\nchain: {chain}\\ntx: {tx_hash in lower case}" (a wallet only named at join proves nothing). ' +
    'A transaction claims once, for anyone; asking again answers the same claim. Refusals (422): tx_not_found, tx_failed, not_confirmed, no_transfer, underpaid, payer_unproven, already_claimed.',
  input: z
    .object({
      chain: z.string().describe('a chain id the catalogue lists, e.g. eip155:8453'),
      tx_hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, '0x and 64 hex digits').describe('the payment transaction'),
      payer_signature_hex: z
        .string()
        .regex(/^0x[0-9a-fA-F]{130}$/, 'a 65-byte signature: 0x and 130 hex digits')
        .optional()
        .describe('the payer\'s personal signature of the claim message, when the payer is not your proven wallet'),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: 'session',
  output: z.object({
    ok: z.literal(true),
    claim: PlanClaimEntry
      .extend({
        ...Chained,
        claimed_at: z.iso.datetime(),
      })
      .describe('the claim as recorded, the same each time it is asked for'),
    mine: Mine.describe('where you stand now'),
  }),
  toolset: TOOLSETS.plans,
  rest: { method: 'POST', path: '/plans', errors: [502, 503] },
  async run(ctx, input) {
    const p = ctx.principal;
    const chain = listedChain(ctx, input.chain, 'chain');
    const tx = input.tx_hash.toLowerCase();
    const settle = (e: LedgerEntry<PlanClaim>) => {
      if (e.entry.principal_id !== p.id) throw refuse('already_claimed', `the transaction ${tx} is claimed already, by another principal`);
      return answer(ctx, p, e);
    };
    // A claim already made needs no chain: the same principal gets its record, anyone else is refused.
    const prior = ctx.store.claims.of(chain.id, tx);
    if (prior) return settle(prior);

    const treasury = treasuryOf(ctx);
    if (!treasury) throw notConfigured('the plan treasury', 'DECK_TREASURY (or treasury in the plans file)');
    const reader = ctx.upstreams.chains.reader(chain.id);
    const needed = chain.min_confirmations;
    const receipt = await reader.receipt(tx);
    if (!receipt) {
      if (await reader.knows(tx)) throw refuse('not_confirmed', `the transaction ${tx} is not mined yet`, { seen: 0, needed });
      throw refuse('tx_not_found', `no transaction ${tx} on ${chain.id}`);
    }
    if (receipt.status !== 1) throw refuse('tx_failed', `the transaction ${tx} failed (reverted) in block ${receipt.block}`);
    const seen = (await reader.head()) - receipt.block + 1;
    if (seen < needed) throw refuse('not_confirmed', `the transaction ${tx} has ${seen} of the ${needed} confirmations a claim needs`, { seen, needed });

    const payment = paymentOf(receipt.transfers, chain.token_address, treasury);
    if (!payment) throw refuse('no_transfer', `the transaction ${tx} carries no ${chain.token} (${chain.token_address}) transfer to the treasury ${treasury}`);
    const bought = planBought(ctx.offer.plans.plans, payment.amount, chain.token_decimals);
    if (!bought.ok) {
      throw refuse('underpaid', `the transaction paid ${bought.paid} ${chain.token}; the cheapest plan costs ${bought.cheapest}`, { paid: bought.paid, cheapest: bought.cheapest });
    }

    // Only a wallet proven by its own signature binds a payment by itself: one named at join is anyone's to name.
    let proof: PlanClaim['proof'] = 'proven_wallet';
    if (!same(provenWallet(p), payment.payer)) {
      const message = planClaimMessage(p.agent_id, chain.id, tx);
      if (!input.payer_signature_hex) {
        throw refuse(
          'payer_unproven',
          `the payer ${payment.payer} is not a proven wallet of yours: send payer_signature_hex, its personal signature of the claim message, or prove the wallet first (POST /me/wallet)`,
          { payer: payment.payer, sign: message },
        );
      }
      const signer = signerOf(message, input.payer_signature_hex);
      if (!same(signer, payment.payer)) {
        throw refuse('payer_unproven', `payer_signature_hex was signed by ${signer ?? 'no address (it does not parse)'}, not by the payer ${payment.payer}`, { payer: payment.payer, sign: message });
      }
      proof = 'payer_signature';
    }

    const paidAt = await reader.blockTime(receipt.block);
    const plan = bought.plan;
    const claimed = await ctx.store.claims.claim(
      chain.id,
      tx,
      p.id,
      (mine) => {
        const earlier = mine.map((c) => ({ plan: c.plan, price_usdc: c.price_usdc, start: Date.parse(c.period.start), end: Date.parse(c.period.end) }));
        const period = periodFor(earlier, { id: plan.id, price_usdc: plan.price_usdc, period_days: plan.period_days! }, paidAt);
        return {
          chain: chain.id,
          tx_hash: tx,
          principal_id: p.id,
          agent_id: p.agent_id,
          plan: plan.id,
          tier: plan.tier,
          price_usdc: plan.price_usdc,
          token: chain.token,
          token_address: chain.token_address,
          amount: bought.paid,
          payer: payment.payer,
          proof,
          block: receipt.block,
          block_time: new Date(paidAt).toISOString(),
          period: { start: new Date(period.start).toISOString(), end: new Date(period.end).toISOString() },
        };
      },
      ctx.clock(),
    );
    if (claimed.fresh) ctx.log.info('plan_claimed', { agent_id: p.agent_id, chain: chain.id, tx, plan: plan.id });
    return settle(claimed.entry);
  },
});
