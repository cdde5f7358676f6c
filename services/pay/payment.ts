import { DeckError, internalFailure, problemsOf } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import type { Paid } from '../../store/spend.js';
import type { Ctx, PerCallPayment, SessionCtx } from '../context.js';
import {
  ExactPayload,
  fromHeader,
  PaymentEnvelope,
  UptoPayload,
  X402_VERSION,
  type PaymentPayload,
  type PaymentRequired,
  type PaymentRequirements,
  type SettleResponse,
} from '../../upstream/x402/wire.js';
import { priceWords, usdcOf, type PerCall, type Price } from './per-call.js';

/**
 * An authorization must stay valid this long past its check, so the facilitator can still settle it (the exact scheme
 * on EVM allows six seconds for the transfer to be mined).
 */
const SETTLE_MARGIN_S = 6;

/** The payer|nonce pairs being settled now: a nonce sent twice at once is taken once. */
const inFlight = new Set<string>();

/** What a priced tool asks a payer: its requirements, upto's with the address of the facilitator that settles them. */
export async function askedOf(perCall: PerCall, tool: string): Promise<PaymentRequirements> {
  const requirements = perCall.requirements.get(tool)!;
  return requirements.scheme === 'upto' ? { ...requirements, extra: { ...requirements.extra, facilitatorAddress: await perCall.settler() } } : requirements;
}

/** The answer to a call of a priced tool without a key: x402's PaymentRequired, as a refusal (402) carrying it. */
export function paymentRequired(
  perCall: PerCall,
  requirements: PaymentRequirements,
  tool: string,
  url: string,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): DeckError {
  const required: PaymentRequired = {
    x402Version: X402_VERSION,
    error: `${code}: ${message}`,
    resource: { url, description: `${tool}, one call, ${priceWords(perCall.prices.get(tool)!)}`, mimeType: 'application/json' },
    accepts: [requirements],
  };
  return new DeckError(402, code, message, { ...extra, x402: required });
}

/** The principal a payment per call acts as: the payer's address, a principal of its own on the free tier. */
export function payerPrincipal(payer: string): Principal {
  const wallet = payer.toLowerCase();
  return { id: `x402:${wallet}`, name: wallet, agent_id: `x402:${wallet}`, wallet, wallet_status: 'proven', tier: 'free', via: 'payment' };
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * What a payment binds, read alike from either scheme's payload: who pays, to whom, in what token, at most how much,
 * from when until when, under which one-use nonce. The exact scheme's most is its whole value; upto's is the Permit2
 * maximum, and its deadline is the end of its validity.
 */
interface Terms {
  payer: string;
  to: string;
  token: string;
  maximum: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: string;
}

function termsOf({ accepted, payload }: PaymentPayload): Terms {
  // EIP-3009's token is the contract the authorization is signed to: the accepted asset.
  if ('authorization' in payload) {
    const a = payload.authorization;
    return { payer: a.from, to: a.to, token: accepted.asset, maximum: BigInt(a.value), validAfter: BigInt(a.validAfter), validBefore: BigInt(a.validBefore), nonce: a.nonce.toLowerCase() };
  }
  const p = payload.permit2Authorization;
  // Permit2's nonce is a number: "007" and "7" are one nonce, kept as its decimal.
  return { payer: p.from, to: p.witness.to, token: p.permitted.token, maximum: BigInt(p.permitted.amount), validAfter: BigInt(p.witness.validAfter), validBefore: BigInt(p.deadline), nonce: BigInt(p.nonce).toString() };
}

/**
 * Reads a payment per call (the PAYMENT-SIGNATURE header's base64 JSON, or MCP's _meta x402/payment object) for a priced
 * tool and checks it against what the deck asks, before anyone is asked anything: each way it falls short is a 402
 * naming it (payment_invalid, wrong_scheme, wrong_network, wrong_asset, wrong_recipient, wrong_facilitator, underpaid,
 * overpaid, payment_not_yet_valid, payment_expired, payment_replayed) with the PaymentRequired to pay again. A price by
 * bars (upto) is held to the call's cost when it settles, once the tool has counted the bars it will serve. The
 * facilitator checks the signature and the payer's funds (and, for upto, its Permit2 approval) when it settles.
 */
export function admitPayment(
  ctx: Pick<Ctx, 'store' | 'clock'>,
  perCall: PerCall,
  asked: PaymentRequirements,
  tool: string,
  url: string,
  sent: unknown,
): { principal: Principal; payment: PerCallPayment } {
  const refuse = (code: string, message: string, extra?: Record<string, unknown>) => paymentRequired(perCall, asked, tool, url, code, message, extra);
  let raw = sent;
  if (typeof sent === 'string') {
    try {
      raw = fromHeader(sent);
    } catch {
      throw refuse('payment_invalid', 'the payment is not base64 of a JSON PaymentPayload', { field: 'PAYMENT-SIGNATURE' });
    }
  }
  const read = PaymentEnvelope.safeParse(raw);
  if (!read.success) throw refuse('payment_invalid', 'the payment is not an x402 v2 PaymentPayload', { problems: problemsOf(read.error) });
  const price = perCall.prices.get(tool)!;
  const { accepted } = read.data;
  if (accepted.scheme !== asked.scheme) throw refuse('wrong_scheme', `the payment is of scheme ${accepted.scheme}; ${tool} is paid with ${asked.scheme}`);
  const body = (asked.scheme === 'upto' ? UptoPayload : ExactPayload).safeParse(read.data.payload);
  if (!body.success) throw refuse('payment_invalid', `the payment's payload is not the ${asked.scheme} scheme's on EVM`, { problems: problemsOf(body.error) });
  const paid: PaymentPayload = { ...read.data, payload: body.data };
  const terms = termsOf(paid);
  if (accepted.network !== asked.network) throw refuse('wrong_network', `the payment is on ${accepted.network}; ${tool} is paid on ${asked.network}`);
  if (!same(accepted.asset, asked.asset) || !same(terms.token, asked.asset)) throw refuse('wrong_asset', `the payment is in ${terms.token}; ${tool} is paid in ${asked.asset}`);
  if (!same(accepted.payTo, asked.payTo) || !same(terms.to, asked.payTo)) throw refuse('wrong_recipient', `the payment is not to ${asked.payTo}`);
  const most = BigInt(asked.amount);
  if (price.scheme === 'exact') {
    if (terms.maximum < most || BigInt(accepted.amount) < most) throw refuse('underpaid', `the payment authorizes ${terms.maximum}; ${tool} costs ${asked.amount}`, { paid: String(terms.maximum), price: asked.amount });
    if (terms.maximum > most) throw refuse('overpaid', `the exact scheme pays exactly ${asked.amount}; the payment authorizes ${terms.maximum}`, { paid: String(terms.maximum), price: asked.amount });
  } else {
    if (terms.maximum > most) throw refuse('overpaid', `the payment authorizes up to ${terms.maximum}; ${tool} costs at most ${asked.amount} a call`, { paid: String(terms.maximum), price: asked.amount });
    const settler = String(asked.extra?.facilitatorAddress);
    const named = 'permit2Authorization' in body.data ? body.data.permit2Authorization.witness.facilitator : '';
    if (!same(named, settler)) throw refuse('wrong_facilitator', `the payment's witness names ${named} to settle it; this deck's facilitator settles from ${settler}`);
  }
  const nowS = BigInt(Math.floor(ctx.clock() / 1000));
  if (terms.validAfter > nowS) throw refuse('payment_not_yet_valid', `the authorization is valid from ${terms.validAfter} (unix seconds); it is ${nowS}`);
  if (terms.validBefore <= nowS + BigInt(SETTLE_MARGIN_S)) {
    throw refuse('payment_expired', `the authorization expired at ${terms.validBefore} (unix seconds, with ${SETTLE_MARGIN_S} s to settle); it is ${nowS}`);
  }
  const key = `${terms.payer.toLowerCase()}|${terms.nonce}`;
  if (inFlight.has(key) || ctx.store.spend.paidWith(terms.payer, terms.nonce)) throw refuse('payment_replayed', `the authorization's nonce ${terms.nonce} has already paid for a call`);
  let charged: Paid | null = null;
  const payment: PerCallPayment = {
    settled: null,
    async settle(call: SessionCtx, bars: number | null) {
      const cost = price.scheme === 'exact' ? most : costOf(price, bars);
      if (cost > terms.maximum) {
        throw refuse('underpaid', `the ${bars} bars ${tool} would serve cost ${usdcOf(perCall, cost)} USDC; the payment authorizes at most ${usdcOf(perCall, terms.maximum)}: sign for more, or ask for fewer bars`, {
          paid: String(terms.maximum),
          price: String(cost),
          bars,
        });
      }
      if (inFlight.has(key)) throw refuse('payment_replayed', `the authorization's nonce ${terms.nonce} is paying for another call`);
      inFlight.add(key);
      try {
        const settlement = await settled(call, perCall, paid, { ...asked, amount: String(terms.maximum) }, { ...asked, amount: String(cost) }, refuse);
        charged = { network: settlement.network, transaction: settlement.transaction, payer: terms.payer.toLowerCase(), asset: asked.asset, amount: settlement.amount ?? String(cost), nonce: terms.nonce };
        await call.store.spend.record({ principal_id: call.principal.id, action: tool, units: 0, paid: charged }, call.clock());
        payment.settled = settlement;
      } finally {
        inFlight.delete(key);
      }
    },
    unserved: (call, error) => unserved(call, tool, payment.settled!, charged!, error),
  };
  return { principal: payerPrincipal(terms.payer), payment };
}

/** What a call priced by bars costs, in the token's smallest unit: the bars it serves at the price of one. */
function costOf(price: Extract<Price, { scheme: 'upto' }>, bars: number | null): bigint {
  if (bars === null) throw internalFailure();
  return price.perBar * BigInt(bars);
}

/**
 * Verifies (for the most the payment authorizes) and settles (for what the call costs) through the facilitator. An
 * upto payment whose call costs nothing moves nothing: no transaction, as the scheme says. A payment the facilitator
 * finds invalid, or cannot settle, is 402 with its reason and nothing recorded. Upto's payment response states the
 * amount charged.
 */
async function settled(
  ctx: SessionCtx,
  perCall: PerCall,
  paid: PaymentPayload,
  verifyFor: PaymentRequirements,
  settleFor: PaymentRequirements,
  refuse: (code: string, message: string, extra?: Record<string, unknown>) => DeckError,
): Promise<SettleResponse> {
  const checked = await perCall.facilitator.verify(paid, verifyFor, ctx.ended());
  if (!checked.isValid) throw refuse('payment_refused', `the facilitator refused the payment: ${checked.invalidReason ?? 'no reason given'}`, { reason: checked.invalidReason ?? null });
  const upto = settleFor.scheme === 'upto';
  if (upto && settleFor.amount === '0') return { success: true, transaction: '', network: settleFor.network, payer: termsOf(paid).payer, amount: '0' };
  const settlement = await perCall.facilitator.settle(paid, settleFor);
  if (!settlement.success) {
    throw refuse('settlement_failed', `the payment could not be settled: ${settlement.errorReason ?? 'no reason given'}; nothing was done or recorded`, {
      reason: settlement.errorReason ?? null,
      settlement,
    });
  }
  return upto ? { ...settlement, amount: settlement.amount ?? settleFor.amount } : settlement;
}

/**
 * A call that failed after its payment settled (what no foresight can see: the work pool full or stopped with its
 * request, the store failing): the payer keeps the refusal it would have had, told that it paid (the settlement, as
 * the answer's PAYMENT-RESPONSE or _meta carries it) and that the amount is due back; the meter records the refund due
 * with the transaction, for the operator to send back.
 */
async function unserved(ctx: SessionCtx, tool: string, settlement: SettleResponse, paid: Paid, error: unknown): Promise<DeckError> {
  const refusal = error instanceof DeckError ? error : internalFailure();
  if (refusal !== error) ctx.log.error('tool_failed', { tool, error: (error as Error).message });
  await ctx.store.spend.record({ principal_id: ctx.principal.id, action: tool, units: 0, refund_due: { ...paid, status: refusal.status, error: refusal.code } }, ctx.clock());
  return new DeckError(refusal.status, refusal.code, `${refusal.message}; the payment settled (transaction ${paid.transaction}) and is due back to ${paid.payer}: the meter records it for the operator to refund`, {
    ...refusal.details,
    settlement,
    refund_due: { network: paid.network, transaction: paid.transaction, payer: paid.payer, asset: paid.asset, amount: paid.amount },
  });
}

/** The prices a call is paid by: those of the deck when the tool needs a key, the caller has none and the tool is priced. */
export function perCallFor(ctx: Ctx, tool: { name: string; access: string }): PerCall | null {
  const perCall = ctx.offer.perCall;
  return tool.access === 'session' && !ctx.principal && perCall?.requirements.has(tool.name) ? perCall : null;
}

/**
 * What makes a keyless call of a priced tool the payer's: the payment sent (REST's PAYMENT-SIGNATURE header, MCP's _meta
 * x402/payment) is admitted on the context, to settle once the input is valid; none sent is 402 asking for one.
 */
export async function paidAs(ctx: Ctx, perCall: PerCall, tool: string, url: string, sent: unknown): Promise<Pick<Ctx, 'principal' | 'payment'>> {
  const asked = await askedOf(perCall, tool);
  if (sent === undefined || sent === null || sent === '') {
    throw paymentRequired(perCall, asked, tool, url, 'payment_required', `${tool} costs ${priceWords(perCall.prices.get(tool)!)} a call without a key: pay it with x402 (scheme ${asked.scheme}) or sign in`);
  }
  const admitted = admitPayment(ctx, perCall, asked, tool, url, sent);
  return { principal: admitted.principal, payment: admitted.payment };
}
