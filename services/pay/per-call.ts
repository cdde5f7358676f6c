import { parseUnits } from 'ethers';
import type { PlansFile } from '../../config/files.js';
import type { Locks } from '../plans/locks.js';
import { Facilitator } from '../../upstream/x402/facilitator.js';
import type { PaymentRequirements } from '../../upstream/x402/wire.js';

/** Payment per call as this deck takes it: where it settles, and what each priced tool asks. */
export interface PerCall {
  /** The facilitator payments settle through (DECK_X402_FACILITATOR). */
  facilitator: Facilitator;
  /** The chain it is paid on, CAIP-2. */
  network: string;
  /** Each priced tool's requirements (scheme exact), by tool name. */
  requirements: ReadonlyMap<string, PaymentRequirements>;
  /** Each priced tool's price in USDC, as the plans file writes it. */
  usdc: ReadonlyMap<string, string>;
}

/**
 * The plans file's per_call, held to the registry and the chain it names, once a facilitator is configured (null
 * otherwise: x402 is off, every tool answers as before). A name no tool has, a keyless tool (nothing to sell), a tool a
 * tier locks (a payer stands on the free tier), a tool that does not foresee its refusals (define.ts), a chain without its token's eip712 domain, or no treasury to pay
 * fails start-up naming it.
 */
export function perCallOf(
  plans: PlansFile,
  treasury: string | null,
  facilitator: string | null,
  tools: readonly { name: string; access: string; surface: string; foresees: boolean }[],
  locks: Locks,
): PerCall | null {
  const per = plans.per_call;
  if (!facilitator) return null;
  if (!per) throw new Error('DECK_X402_FACILITATOR is set but the plans file has no per_call: name the chain and the priced tools');
  if (!treasury) throw new Error('DECK_X402_FACILITATOR is set but no treasury is configured (DECK_TREASURY or the plans file\'s treasury): payments need a payTo');
  const chain = plans.chains.find((c) => c.id === per.chain)!;
  if (!chain.eip712) throw new Error(`plans file: chains ${chain.id} has no eip712 { name, version }, which per_call's authorizations are signed under`);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const requirements = new Map<string, PaymentRequirements>();
  for (const [name, price] of Object.entries(per.tools)) {
    const tool = byName.get(name);
    if (!tool) throw new Error(`plans file: per_call.tools names ${name}, which is not a tool`);
    if (tool.access === 'none') throw new Error(`plans file: per_call.tools names ${name}, which needs no key: there is nothing to sell`);
    if (locks.has(name)) throw new Error(`plans file: per_call.tools names ${name}, which tier_tools locks: a payer per call stands on the free tier`);
    if (!tool.foresees) throw new Error(`plans file: per_call.tools names ${name}, which does not foresee its refusals: a payer would be charged for a call it refuses`);
    requirements.set(name, {
      scheme: 'exact',
      network: chain.id,
      amount: parseUnits(price, chain.token_decimals).toString(),
      asset: chain.token_address,
      payTo: treasury,
      maxTimeoutSeconds: per.max_timeout_s,
      extra: { name: chain.eip712.name, version: chain.eip712.version },
    });
  }
  return { facilitator: new Facilitator(facilitator.replace(/\/+$/, '')), network: chain.id, requirements, usdc: new Map(Object.entries(per.tools)) };
}
