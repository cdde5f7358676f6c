import { Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { agentWalletRefusal, agentWalletTypedData, MAX_DEADLINE_S } from './agent-wallet.js';

const REGISTRY = '0x8004A818BFB912233c491871b3d84c89A494BD9e';
const wallet = new Wallet(`0x${'11'.repeat(32)}`);
const other = new Wallet(`0x${'22'.repeat(32)}`);
const owner = new Wallet(`0x${'33'.repeat(32)}`);
const NOW = 1_800_000_000n;
const typed = (deadline: bigint) => agentWalletTypedData(84532, REGISTRY, { agentId: 7n, newWallet: wallet.address, owner: owner.address, deadline });
const sign = (by: Wallet, t: ReturnType<typeof typed>) => by.signTypedData(t.domain, t.types, t.message);

describe('the agentWallet proof', () => {
  it("is the registry's EIP-712 domain and AgentWalletSet, integers as decimal strings", () => {
    const t = typed(NOW + 60n);
    expect(t.domain).toEqual({ name: 'ERC8004IdentityRegistry', version: '1', chainId: 84532, verifyingContract: REGISTRY });
    expect(t.message).toEqual({ agentId: '7', newWallet: wallet.address, owner: owner.address, deadline: String(NOW + 60n) });
  });

  it("passes the wallet's own signature before the deadline", async () => {
    const t = typed(NOW + 60n);
    expect(agentWalletRefusal(t, await sign(wallet, t), NOW)).toBeNull();
    expect(agentWalletRefusal(t, await sign(wallet, t), NOW + 60n)).toBeNull();
  });

  it('refuses by name a passed deadline, one too far ahead, another signer and a signature that is not one', async () => {
    const t = typed(NOW - 1n);
    expect(agentWalletRefusal(t, await sign(wallet, t), NOW)?.code).toBe('deadline_passed');
    const far = typed(NOW + BigInt(MAX_DEADLINE_S) + 1n);
    expect(agentWalletRefusal(far, await sign(wallet, far), NOW)?.code).toBe('deadline_too_far');
    const ok = typed(NOW + 60n);
    const wrong = agentWalletRefusal(ok, await sign(other, ok), NOW);
    expect(wrong).toEqual({ code: 'wrong_signer', message: expect.stringContaining(other.address) });
    expect(agentWalletRefusal(ok, '0x1234', NOW)?.code).toBe('wrong_signer');
  });
});
