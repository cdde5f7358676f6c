import { randomBytes } from 'node:crypto';
import { Signature, hexlify, type Contract } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_ID, startChain, type LocalChain } from './support/chain.js';
import { TRANSFER_WITH_AUTHORIZATION as TYPES } from './support/x402.js';

// The local chain's test USDC takes EIP-3009 transferWithAuthorization, as Base's USDC does: the transfer a payment
// per call (x402's exact scheme) is settled with. Signed with ethers' EIP-712, sent by a third party, a real transfer.

let chain: LocalChain;
let usdc: Contract;

beforeAll(async () => {
  chain = await startChain();
  usdc = await chain.deploy('TestUSDC');
  await (await usdc.getFunction('mint')(chain.accounts[1]!.address, 5_000_000n)).wait();
});
afterAll(() => chain?.stop());

async function authorization(value: bigint, validBefore: bigint) {
  const payer = chain.accounts[1]!;
  const message = { from: payer.address, to: chain.accounts[2]!.address, value, validAfter: 0n, validBefore, nonce: hexlify(randomBytes(32)) };
  const domain = { name: 'Test USDC', version: '2', chainId: CHAIN_ID, verifyingContract: await usdc.getAddress() };
  const sig = Signature.from(await payer.signTypedData(domain, TYPES, message));
  return { message, args: [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, sig.v, sig.r, sig.s] as const };
}

const now = async () => BigInt((await chain.provider.getBlock('latest'))!.timestamp);

describe('the test USDC takes EIP-3009 transferWithAuthorization', () => {
  it('moves the signed amount once, sent by anyone, and refuses the same nonce again', async () => {
    const { message, args } = await authorization(100_000n, (await now()) + 600n);
    const relayer = usdc.connect(chain.accounts[3]!) as Contract;
    await (await relayer.getFunction('transferWithAuthorization')(...args)).wait();
    expect(await usdc.getFunction('balanceOf')(message.to)).toBe(100_000n);
    expect(await usdc.getFunction('authorizationState')(message.from, message.nonce)).toBe(true);
    await expect(relayer.getFunction('transferWithAuthorization')(...args)).rejects.toThrow(/authorization is used/);
  });

  it('refuses an expired authorization and one whose amount was changed after signing', async () => {
    const expired = await authorization(1n, (await now()) - 1n);
    await expect(usdc.getFunction('transferWithAuthorization')(...expired.args)).rejects.toThrow(/authorization is expired/);
    const signed = await authorization(1n, (await now()) + 600n);
    const [from, to, , after, before, nonce, v, r, s] = signed.args;
    await expect(usdc.getFunction('transferWithAuthorization')(from, to, 2n, after, before, nonce, v, r, s)).rejects.toThrow(/invalid signature/);
  });
});
