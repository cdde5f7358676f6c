import { DeckError, internalFailure, problemsOf } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import type { Paid } from '../../store/spend.js';
import type { Ctx, PerCallPayment, SessionCtx } from '../context.js';
import { fromHeader, PaymentPayload, X402_VERSION, type PaymentRequired, type PaymentRequirements, type SettleResponse } from '../../upstream/x402/wire.js';
import type { PerCall } from './per-call.js';

/**
 * An authorization must stay valid this long past its check, so the facilitator can still settle it (the exact scheme
 * on EVM allows six seconds for the transfer to be mined).
 */
const SETTLE_MARGIN_S = 6;

/** The payer|nonce pairs being settled now: a nonce sent twice at once is taken once. */
const inFlight = new Set<string>();

/** The answer to a call of a priced tool without a key: x402's PaymentRequired, as a refusal (402) carrying it. */
export function paymentRequired(perCall: PerCall, tool: string, url: string, code: string, message: string, extra: Record<string, unknown> = {}): DeckError {
  const requirements = perCall.requirements.get(tool)!;
  const required: PaymentRequired = {
    x402Version: X402_VERSION,
    error: `${code}: ${message}`,
    resource: { url, description: `${tool}, one call, ${perCall.usdc.get(tool)} USDC`, mimeType: 'application/json' },
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
 * Reads a payment per call (the PAYMENT-SIGNATURE header's base64 JSON, or MCP's _meta x402/payment object) for a priced
 * tool and checks it against what the deck asks, before anyone is asked anything: each way it falls short is a 402
 * naming it (payment_invalid, wrong_scheme, wrong_network, wrong_asset, wrong_recipient, underpaid, overpaid,
 * payment_not_yet_valid, payment_expired, payment_replayed) with the PaymentRequired to pay again. The facilitator
 * checks the signature and the payer's funds when it settles.
 */
export function admitPayment(ctx: Pick<Ctx, 'store' | 'clock'>, perCall: PerCall, tool: string, url: string, sent: unknown): { principal: Principal; payment: PerCallPayment } {
  const refuse = (code: string, message: string, extra?: Record<string, unknown>) => paymentRequired(perCall, tool, url, code, message, extra);
  let raw = sent;
  if (typeof sent === 'string') {
    try {
      raw = fromHeader(sent);
    } catch {
      throw refuse('payment_invalid', 'the payment is not base64 of a JSON PaymentPayload', { field: 'PAYMENT-SIGNATURE' });
    }
  }
  const read = PaymentPayload.safeParse(raw);
  if (!read.success) throw refuse('payment_invalid', 'the payment is not an x402 v2 PaymentPayload of the exact scheme on EVM', { problems: problemsOf(read.error) });
  const paid = read.data;
  const asked = perCall.requirements.get(tool)!;
  const { accepted } = paid;
  const auth = paid.payload.authorization;
  if (accepted.scheme !== asked.scheme) throw refuse('wrong_scheme', `the payment is of scheme ${accepted.scheme}; ${tool} is paid with ${asked.scheme}`);
  if (accepted.network !== asked.network) throw refuse('wrong_network', `the payment is on ${accepted.network}; ${tool} is paid on ${asked.network}`);
  if (!same(accepted.asset, asked.asset)) throw refuse('wrong_asset', `the payment is in ${accepted.asset}; ${tool} is paid in ${asked.asset}`);
  if (!same(accepted.payTo, asked.payTo) || !same(auth.to, asked.payTo)) throw refuse('wrong_recipient', `the payment is not to ${asked.payTo}`);
  const value = BigInt(auth.value);
  const price = BigInt(asked.amount);
  if (value < price || BigInt(accepted.amount) < price) throw refuse('underpaid', `the payment authorizes ${auth.value}; ${tool} costs ${asked.amount}`, { paid: auth.value, price: asked.amount });
  if (value > price) throw refuse('overpaid', `the exact scheme pays exactly ${asked.amount}; the payment authorizes ${auth.value}`, { paid: auth.value, price: asked.amount });
  const nowS = BigInt(Math.floor(ctx.clock() / 1000));
  if (BigInt(auth.validAfter) > nowS) throw refuse('payment_not_yet_valid', `the authorization is valid from ${auth.validAfter} (unix seconds); it is ${nowS}`);
  if (BigInt(auth.validBefore) <= nowS + BigInt(SETTLE_MARGIN_S)) {
    throw refuse('payment_expired', `the authorization expired at ${auth.validBefore} (unix seconds, with ${SETTLE_MARGIN_S} s to settle); it is ${nowS}`);
  }
  const key = `${auth.from.toLowerCase()}|${auth.nonce.toLowerCase()}`;
  if (inFlight.has(key) || ctx.store.spend.paidWith(auth.from, auth.nonce)) throw refuse('payment_replayed', `the authorization's nonce ${auth.nonce} has already paid for a call`);
  const payment: PerCallPayment = {
    settled: null,
    async settle(call: SessionCtx) {
      if (inFlight.has(key)) throw refuse('payment_replayed', `the authorization's nonce ${auth.nonce} is paying for another call`);
      inFlight.add(key);
      try {
        payment.settled = await settled(call, perCall, tool, paid, asked, refuse);
      } finally {
        inFlight.delete(key);
      }
    },
    unserved: (call, error) => unserved(call, tool, payment.settled!, paidOf(payment.settled!, paid, asked), error),
  };
  return { principal: payerPrincipal(auth.from), payment };
}

/**
 * Verifies and settles through the facilitator, then records the act bought on the meter with the settlement's
 * transaction. A payment the facilitator finds invalid, or cannot settle, is 402 with its reason and nothing recorded.
 */
async function settled(
  ctx: SessionCtx,
  perCall: PerCall,
  tool: string,
  paid: PaymentPayload,
  asked: PaymentRequirements,
  refuse: (code: string, message: string, extra?: Record<string, unknown>) => DeckError,
): Promise<SettleResponse> {
  const checked = await perCall.facilitator.verify(paid, asked, ctx.ended());
  if (!checked.isValid) throw refuse('payment_refused', `the facilitator refused the payment: ${checked.invalidReason ?? 'no reason given'}`, { reason: checked.invalidReason ?? null });
  const settlement = await perCall.facilitator.settle(paid, asked);
  if (!settlement.success) {
    throw refuse('settlement_failed', `the payment could not be settled: ${settlement.errorReason ?? 'no reason given'}; nothing was done or recorded`, {
      reason: settlement.errorReason ?? null,
      settlement,
    });
  }
  await ctx.store.spend.record({ principal_id: ctx.principal.id, action: tool, units: 0, paid: paidOf(settlement, paid, asked) }, ctx.clock());
  return settlement;
}

/** A settled payment as the meter keeps it. */
function paidOf(settlement: SettleResponse, paid: PaymentPayload, asked: PaymentRequirements): Paid {
  const auth = paid.payload.authorization;
  return { network: settlement.network, transaction: settlement.transaction, payer: auth.from.toLowerCase(), asset: asked.asset, amount: auth.value, nonce: auth.nonce.toLowerCase() };
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
export function paidAs(ctx: Ctx, perCall: PerCall, tool: string, url: string, sent: unknown): Pick<Ctx, 'principal' | 'payment'> {
  if (sent === undefined || sent === null || sent === '') {
    throw paymentRequired(perCall, tool, url, 'payment_required', `${tool} costs ${perCall.usdc.get(tool)} USDC a call without a key: pay it with x402 (scheme exact) or sign in`);
  }
  const admitted = admitPayment(ctx, perCall, tool, url, sent);
  return { principal: admitted.principal, payment: admitted.payment };
}
