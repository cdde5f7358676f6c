import { TypedDataEncoder, Wallet, type Signer } from 'ethers';
import { describe, expect, it } from 'vitest';
import { notHouseMandate } from './house.js';
import { domainChainId, recoverTypedData, undeclared, type SignedTypedData } from './typed-data.js';

const VAULT = '0x3333333333333333333333333333333333333333';
const DOMAIN_TYPE = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
];
const TYPES = {
  Mandate: [
    { name: 'vault', type: 'address' },
    { name: 'caps', type: 'Caps' },
    { name: 'legs', type: 'Leg[]' },
  ],
  Caps: [{ name: 'max_notional', type: 'uint256' }],
  Leg: [{ name: 'market', type: 'string' }],
};
const domain = { name: 'the deck', version: '1', chainId: 8453 };
const message = { vault: VAULT, caps: { max_notional: '1000' }, legs: [{ market: 'BTC' }, { market: 'ETH' }] };

/** The payload as a wallet's eth_signTypedData_v4 takes it, signed by `wallet`. */
async function signed(wallet: Signer & { address: string }, over: Partial<SignedTypedData> = {}): Promise<SignedTypedData> {
  const td = { domain, types: { EIP712Domain: DOMAIN_TYPE, ...TYPES }, primaryType: 'Mandate', message, ...over };
  const { EIP712Domain: _, ...types } = td.types;
  return { ...td, signature: await wallet.signTypedData(td.domain, types, td.message) };
}

describe('EIP-712 payloads as wallets sign them', () => {
  it('recover the signer and the EIP-712 hash, EIP712Domain among the types', async () => {
    const wallet = Wallet.createRandom();
    const td = await signed(wallet);
    expect(undeclared(td)).toEqual([]);
    expect(recoverTypedData(td)).toEqual({ signer: wallet.address, hash: TypedDataEncoder.hash(domain, TYPES, message) });
  });

  it('name every key the types do not declare, in the message, nested structs, arrays and the domain', async () => {
    const td = await signed(Wallet.createRandom(), {
      domain: { ...domain, salt: `0x${'00'.repeat(32)}` },
      message: { ...message, extra: 'x', caps: { max_notional: '1', hidden: true }, legs: [{ market: 'BTC' }, { market: 'ETH', size: 3 }] },
    });
    expect(undeclared(td).map((p) => p.field)).toEqual([
      'typed_data.message.extra',
      'typed_data.message.caps.hidden',
      'typed_data.message.legs.1.size',
      'typed_data.domain.salt',
    ]);
  });

  it('name declared keys that are missing, and a primaryType that names no type', async () => {
    const { caps: _, ...short } = message;
    const td = await signed(Wallet.createRandom());
    expect(undeclared({ ...td, message: short }).map((p) => p.field)).toEqual(['typed_data.message.caps']);
    expect(undeclared({ ...td, primaryType: 'Order' }).map((p) => p.field)).toEqual(['typed_data.primaryType']);
  });

  it('recover another signer when the message is changed after signing', async () => {
    const wallet = Wallet.createRandom();
    const td = await signed(wallet);
    expect(recoverTypedData({ ...td, message: { ...message, vault: '0x4444444444444444444444444444444444444444' } }).signer).not.toBe(wallet.address);
  });

  it('read domain.chainId as a number, a decimal or a hex string', () => {
    expect(domainChainId({ chainId: 8453 })).toBe(8453);
    expect(domainChainId({ chainId: '8453' })).toBe(8453);
    expect(domainChainId({ chainId: '0x2105' })).toBe(8453);
    expect(domainChainId({})).toBeNull();
    expect(domainChainId({ chainId: 'base' })).toBeNull();
    expect(domainChainId({ chainId: 0 })).toBeNull();
  });
});

describe('a house mandate', () => {
  const admin = '0xAbCdEf0000000000000000000000000000000001';
  const spot = { chainId: 8453, administrators: [admin] };

  it('is signed by a spot administrator over the spot chain', () => {
    expect(notHouseMandate(admin.toLowerCase(), 8453, spot)).toBeNull();
  });

  it('is not one when the signer is not an administrator, or the chain is another', () => {
    expect(notHouseMandate(VAULT, 8453, spot)).toMatch(/not a spot administrator/);
    expect(notHouseMandate(admin, 1, spot)).toMatch(/domain.chainId 1 must be the house's spot chain 8453/);
    expect(notHouseMandate(admin, null, spot)).toMatch(/domain.chainId is missing/);
  });
});
