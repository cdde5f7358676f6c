import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hexlify, parseUnits, type Contract, type HDNodeWallet } from 'ethers';
import { startFacilitator, type FacilitatorFixture } from '../fixtures/facilitator.js';
import { CAIP2, CHAIN_ID, onlyChain, plansFile, startChain, type LocalChain } from './chain.js';
import { testDeck, type TestDeck } from './deck.js';

/** x402's base64 JSON, as its HTTP transport carries it in PAYMENT-REQUIRED, PAYMENT-SIGNATURE and PAYMENT-RESPONSE. */
export const encoded = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64');
export const decoded = (header: string | null): any => (header ? JSON.parse(Buffer.from(header, 'base64').toString('utf8')) : null);

/** A local chain to pay per call on: the test USDC and another token, a payer holding 10 of each, a treasury. */
export interface PayingChain {
  chain: LocalChain;
  usdc: Contract;
  otherToken: Contract;
  payer: HDNodeWallet;
  treasury: string;
  /** A plans file with the chain as its only one (the token's EIP-712 domain with it) and the treasury. */
  plans: string;
  stop(): Promise<void>;
}

export async function payingChain(): Promise<PayingChain> {
  const chain = await startChain();
  const payer = chain.accounts[1]!;
  const treasury = chain.accounts[9]!.address;
  const usdc = await chain.deploy('TestUSDC');
  const otherToken = await chain.deploy('TestUSDC');
  for (const token of [usdc, otherToken]) await (await token.getFunction('mint')(payer.address, parseUnits('10', 6))).wait();
  const token = await usdc.getAddress();
  const plans = await plansFile((p) => {
    onlyChain(p, { id: CAIP2, name: 'Local', token: 'USDC', token_address: token, token_decimals: 6, rpc: chain.rpc, eip712: { name: 'Test USDC', version: '2' } });
    p.treasury = treasury;
  });
  return {
    chain,
    usdc,
    otherToken,
    payer,
    treasury,
    plans,
    async stop() {
      await chain.stop();
      await rm(dirname(plans), { recursive: true, force: true });
    },
  };
}

/** A deck paid per call: a paying chain, its facilitator double, and a deck serving the sample tape that settles there. */
export interface PayingDeck extends PayingChain {
  facilitator: FacilitatorFixture;
  deck: TestDeck;
}

/** Starts a PayingDeck; `ready` runs on the chain before the deck starts (a payer's one-time approval). */
export async function payingDeck(ready?: (paying: PayingChain, facilitator: FacilitatorFixture) => Promise<unknown>): Promise<PayingDeck> {
  const paying = await payingChain();
  const facilitator = await startFacilitator(paying.chain, paying.chain.accounts[3]!);
  await ready?.(paying, facilitator);
  const deck = await testDeck({ DECK_PLANS: paying.plans, DECK_X402_FACILITATOR: facilitator.url, DECK_SAMPLE_TAPE: 'on' });
  return {
    ...paying,
    facilitator,
    deck,
    async stop() {
      await deck.stop();
      await facilitator.stop();
      await paying.stop();
    },
  };
}

/** How many settlements a facilitator double was asked for. */
export const settlesOf = (f: FacilitatorFixture): number => f.calls.filter((c) => c.path === '/settle').length;

/** One way to pay, as a PaymentRequired's accepts lists it. */
export interface Requirements {
  scheme: string;
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string; facilitatorAddress?: string };
}

/** EIP-3009's typed data: what a payer signs to authorize a transfer (x402's exact scheme on EVM). */
export const TRANSFER_WITH_AUTHORIZATION = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
};

/**
 * A client's x402 PaymentPayload for `asked` (the exact scheme on EVM): an EIP-3009 authorization signed by `payer`
 * under the token's EIP-712 domain. `change` alters what is signed and claimed, to make wrong payments.
 */
export async function paymentFor(
  payer: HDNodeWallet,
  asked: Requirements,
  change: { value?: string; validBefore?: number; network?: string; asset?: string; nonce?: string } = {},
) {
  const accepted = { ...asked, ...(change.network ? { network: change.network } : {}), ...(change.asset ? { asset: change.asset } : {}), ...(change.value ? { amount: change.value } : {}) };
  const now = Math.floor(Date.now() / 1000);
  const authorization = {
    from: payer.address,
    to: asked.payTo,
    value: change.value ?? asked.amount,
    validAfter: String(now - 60),
    validBefore: String(change.validBefore ?? now + asked.maxTimeoutSeconds),
    nonce: change.nonce ?? hexlify(randomBytes(32)),
  };
  const domain = { name: asked.extra.name, version: asked.extra.version, chainId: CHAIN_ID, verifyingContract: accepted.asset };
  const signature = await payer.signTypedData(domain, TRANSFER_WITH_AUTHORIZATION, authorization);
  return { x402Version: 2, accepted, payload: { signature, authorization } };
}

/** Permit2's typed data for a witness transfer with x402's upto witness: what a payer signs in the upto scheme on EVM. */
export const PERMIT_WITNESS_TRANSFER_FROM = {
  PermitWitnessTransferFrom: [
    { name: 'permitted', type: 'TokenPermissions' },
    { name: 'spender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'witness', type: 'Witness' },
  ],
  TokenPermissions: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
  Witness: [
    { name: 'to', type: 'address' },
    { name: 'facilitator', type: 'address' },
    { name: 'validAfter', type: 'uint256' },
  ],
};

export interface Permit2Authorization {
  from: string;
  permitted: { token: string; amount: string };
  spender: string;
  nonce: string;
  deadline: string;
  witness: { to: string; facilitator: string; validAfter: string };
}

/**
 * A client's x402 PaymentPayload for `asked` in the upto scheme on EVM: a Permit2 witness transfer for at most the
 * asked amount, spent by the upto proxy and settled only by the facilitator `asked.extra` names, signed by `payer` under
 * Permit2's domain. `change` alters what is signed and claimed, to make wrong payments.
 */
export async function uptoPaymentFor(
  payer: HDNodeWallet,
  asked: Requirements,
  contracts: { permit2: string; proxy: string },
  change: { maximum?: string; deadline?: number; network?: string; asset?: string; nonce?: string } = {},
) {
  const accepted = { ...asked, ...(change.network ? { network: change.network } : {}), ...(change.asset ? { asset: change.asset } : {}) };
  const now = Math.floor(Date.now() / 1000);
  const permit2Authorization: Permit2Authorization = {
    from: payer.address,
    permitted: { token: accepted.asset, amount: change.maximum ?? asked.amount },
    spender: contracts.proxy,
    nonce: change.nonce ?? BigInt(hexlify(randomBytes(32))).toString(),
    deadline: String(change.deadline ?? now + asked.maxTimeoutSeconds),
    witness: { to: asked.payTo, facilitator: asked.extra.facilitatorAddress!, validAfter: String(now - 60) },
  };
  const domain = { name: 'Permit2', chainId: CHAIN_ID, verifyingContract: contracts.permit2 };
  const { from: _from, ...signed } = permit2Authorization;
  const signature = await payer.signTypedData(domain, PERMIT_WITNESS_TRANSFER_FROM, signed);
  return { x402Version: 2, accepted, payload: { signature, permit2Authorization } };
}
