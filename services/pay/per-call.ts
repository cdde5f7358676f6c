import { formatUnits, parseUnits } from 'ethers';
import { DeckError } from '../../core/errors.js';
import type { PlansFile } from '../../config/files.js';
import type { Locks } from '../plans/locks.js';
import { Facilitator } from '../../upstream/x402/facilitator.js';
import type { PaymentRequirements } from '../../upstream/x402/wire.js';

/**
 * What a priced tool costs a call: a fixed price (x402's exact scheme), or a price a bar served up to a maximum
 * (its upto scheme: the payer signs for the maximum, the deck settles for the bars the call serves). USDC as the plans
 * file writes it; `perBar` in the token's smallest unit.
 */
export type Price = { scheme: 'exact'; usdc: string } | { scheme: 'upto'; per_bar_usdc: string; max_usdc: string; perBar: bigint };

/** Payment per call as this deck takes it: where it settles, and what each priced tool asks. */
export interface PerCall {
  /** The facilitator payments settle through (DECK_X402_FACILITATOR). */
  facilitator: Facilitator;
  /** The chain it is paid on, CAIP-2. */
  network: string;
  /**
   * Each priced tool's requirements (scheme exact or upto; upto's amount is the maximum), by tool name. Upto's lack the
   * facilitatorAddress its payers' witness names, which only the facilitator knows: see settler.
   */
  requirements: ReadonlyMap<string, PaymentRequirements>;
  /**
   * The address the facilitator settles upto payments from, as its /supported states it for the chain: asked when a
   * call priced by bars is first asked for or paid (as x402's resource servers ask when they start), kept once known.
   * A facilitator that does not answer is 502 and is asked again next time; one that lists no upto on the chain is
   * 502 saying so.
   */
  settler(): Promise<string>;
  /** Each priced tool's price, by tool name. */
  prices: ReadonlyMap<string, Price>;
  /** The token's decimals: a price in its smallest unit is said back in USDC. */
  decimals: number;
}

/** A price as a person reads it, in a refusal or a resource's description. */
export function priceWords(price: Price): string {
  return price.scheme === 'exact' ? `${price.usdc} USDC` : `${price.per_bar_usdc} USDC a bar served, at most ${price.max_usdc} USDC`;
}

/** An amount in the token's smallest unit, in USDC. */
export const usdcOf = (perCall: PerCall, amount: bigint): string => formatUnits(amount, perCall.decimals);

/**
 * The plans file's per_call, held to the registry and the chain it names, once a facilitator is configured (null
 * otherwise: x402 is off, every tool answers as before). A name no tool has, a keyless tool (nothing to sell), a tool a
 * tier locks (a payer stands on the free tier), a tool that does not foresee its refusals (define.ts), a price by
 * bars on a tool whose foresight does not count them, a maximum under one bar's price, a chain without its token's
 * eip712 domain, or no treasury to pay fails start-up naming it. Nothing asks the facilitator anything at start.
 */
export function perCallOf(
  plans: PlansFile,
  treasury: string | null,
  facilitatorUrl: string | null,
  tools: readonly { name: string; access: string; surface: string; foresees: boolean; countsBars: boolean }[],
  locks: Locks,
): PerCall | null {
  const per = plans.per_call;
  if (!facilitatorUrl) return null;
  if (!per) throw new Error('DECK_X402_FACILITATOR is set but the plans file has no per_call: name the chain and the priced tools');
  if (!treasury) throw new Error('DECK_X402_FACILITATOR is set but no treasury is configured (DECK_TREASURY or the plans file\'s treasury): payments need a payTo');
  const chain = plans.chains.find((c) => c.id === per.chain)!;
  if (!chain.eip712) throw new Error(`plans file: chains ${chain.id} has no eip712 { name, version }, which per_call's authorizations are signed under`);
  const facilitator = new Facilitator(facilitatorUrl.replace(/\/+$/, ''));
  const units = (usdc: string) => parseUnits(usdc, chain.token_decimals);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const prices = new Map<string, Price>();
  for (const [name, price] of Object.entries(per.tools)) {
    const tool = byName.get(name);
    if (!tool) throw new Error(`plans file: per_call.tools names ${name}, which is not a tool`);
    if (tool.access === 'none') throw new Error(`plans file: per_call.tools names ${name}, which needs no key: there is nothing to sell`);
    if (locks.has(name)) throw new Error(`plans file: per_call.tools names ${name}, which tier_tools locks: a payer per call stands on the free tier`);
    if (!tool.foresees) throw new Error(`plans file: per_call.tools names ${name}, which does not foresee its refusals: a payer would be charged for a call it refuses`);
    if (typeof price === 'string') {
      prices.set(name, { scheme: 'exact', usdc: price });
      continue;
    }
    if (!tool.countsBars) throw new Error(`plans file: per_call.tools prices ${name} by bars, which its foresight does not count: price it a call`);
    if (units(price.per_bar) === 0n || units(price.max) < units(price.per_bar)) {
      throw new Error(`plans file: per_call.tools.${name}: per_bar must be above 0 and max at least one bar's price`);
    }
    prices.set(name, { scheme: 'upto', per_bar_usdc: price.per_bar, max_usdc: price.max, perBar: units(price.per_bar) });
  }
  const requirements = new Map<string, PaymentRequirements>();
  for (const [name, price] of prices) {
    requirements.set(name, {
      scheme: price.scheme,
      network: chain.id,
      amount: (price.scheme === 'exact' ? units(price.usdc) : units(price.max_usdc)).toString(),
      asset: chain.token_address,
      payTo: treasury,
      maxTimeoutSeconds: per.max_timeout_s,
      extra: { name: chain.eip712.name, version: chain.eip712.version },
    });
  }
  let known: Promise<string> | null = null;
  const settler = () => {
    known ??= uptoSettler(facilitator, chain.id).catch((error: unknown) => {
      known = null;
      throw error;
    });
    return known;
  };
  return { facilitator, network: chain.id, requirements, prices, decimals: chain.token_decimals, settler };
}

/** The address the facilitator settles upto payments from, as its /supported states it for the chain. */
async function uptoSettler(facilitator: Facilitator, network: string): Promise<string> {
  const supported = await facilitator.supported();
  const kind = supported.kinds.find((k) => k.x402Version === 2 && k.scheme === 'upto' && k.network === network);
  const address = kind?.extra?.facilitatorAddress;
  if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
    throw new DeckError(502, 'upstream_refused', `the x402 facilitator lists no upto scheme on ${network} with a facilitatorAddress in /supported: set DECK_X402_FACILITATOR to one that settles upto, or price the tool by the call in the plans file`, {
      upstream: 'x402 facilitator',
    });
  }
  return address;
}
