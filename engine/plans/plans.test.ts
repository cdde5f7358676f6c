import { Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { holderAllowance, holderUse } from './holder.js';
import { holderMessage, planClaimMessage, signerOf } from './messages.js';
import { paymentOf, planBought, type Transfer } from './payment.js';
import { periodFor, runningAt } from './period.js';

const TOKEN = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const TREASURY = '0x000000000000000000000000000000000000dEaD';
const PAYER = '0x1111111111111111111111111111111111111111';
const OTHER = '0x2222222222222222222222222222222222222222';
const PLANS = [
  { id: 'free', price_usdc: 0, period_days: null },
  { id: 'plan-29', price_usdc: 29, period_days: 30 },
  { id: 'premium-99', price_usdc: 99, period_days: 30 },
];
const DAY = 86_400_000;
const usdc = (whole: number) => BigInt(Math.round(whole * 1e6));

describe('the messages a wallet signs', () => {
  it('are exactly the texts the contract names, the transaction in lower case', () => {
    expect(planClaimMessage('agent_ab', 'eip155:8453', '0xABCDEF')).toBe('the deck: plan claim\nagent_id: agent_ab\nchain: eip155:8453\ntx: 0xabcdef');
    expect(holderMessage('agent_ab', '2026-01-31')).toBe('the deck: holder standing\nagent_id: agent_ab\nday: 2026-01-31');
  });

  it('recover the signer of a personal signature, and nothing from one that does not parse', async () => {
    const wallet = Wallet.createRandom();
    const message = holderMessage('agent_ab', '2026-01-31');
    expect(signerOf(message, await wallet.signMessage(message))).toBe(wallet.address);
    expect(signerOf(`${message}x`, await wallet.signMessage(message))).not.toBe(wallet.address);
    expect(signerOf(message, `0x${'00'.repeat(65)}`)).toBeNull();
  });
});

describe('what a payment buys', () => {
  const t = (token: string, from: string, to: string, amount: bigint): Transfer => ({ token, from, to, amount });

  it('sums the first payer\'s transfers of the token to the treasury, in any letter case', () => {
    const paid = paymentOf(
      [t(TOKEN, PAYER, OTHER, usdc(5)), t(TOKEN.toLowerCase(), PAYER, TREASURY.toLowerCase(), usdc(20)), t(TOKEN, OTHER, TREASURY, usdc(50)), t(TOKEN, PAYER, TREASURY, usdc(9))],
      TOKEN,
      TREASURY,
    );
    expect(paid).toEqual({ payer: PAYER, amount: usdc(29) });
  });

  it('finds nothing when the token or the recipient is another', () => {
    expect(paymentOf([t(OTHER, PAYER, TREASURY, usdc(99))], TOKEN, TREASURY)).toBeNull();
    expect(paymentOf([t(TOKEN, PAYER, OTHER, usdc(99))], TOKEN, TREASURY)).toBeNull();
    expect(paymentOf([], TOKEN, TREASURY)).toBeNull();
  });

  it.each([
    [usdc(29), 'plan-29'],
    [usdc(98.999999), 'plan-29'],
    [usdc(99), 'premium-99'],
    [usdc(1000), 'premium-99'],
  ])('buys the dearest plan the amount covers (%s units)', (amount, plan) => {
    expect(planBought(PLANS, amount, 6)).toMatchObject({ ok: true, plan: { id: plan } });
  });

  it('is underpaid below the cheapest plan for sale, saying what was paid in whole tokens', () => {
    expect(planBought(PLANS, usdc(28.999999), 6)).toEqual({ ok: false, paid: '28.999999', cheapest: 29 });
    expect(planBought(PLANS, 0n, 6)).toEqual({ ok: false, paid: '0.0', cheapest: 29 });
  });

  it('reads prices in the token\'s own decimals, with no float rounding', () => {
    const plans = [{ id: 'odd', price_usdc: 29.99, period_days: 30 }];
    expect(planBought(plans, 29_990_000_000_000_000_000n, 18)).toMatchObject({ ok: true, plan: { id: 'odd' }, paid: '29.99' });
    expect(planBought(plans, 29_989_999_999_999_999_999n, 18)).toMatchObject({ ok: false });
  });
});

describe('the period a payment buys', () => {
  const T0 = Date.UTC(2026, 0, 1);
  const plan29 = { id: 'plan-29', price_usdc: 29, period_days: 30 };
  const plan99 = { id: 'premium-99', price_usdc: 99, period_days: 30 };

  it('runs period_days from the block time when nothing runs', () => {
    expect(periodFor([], plan29, T0)).toEqual({ start: T0, end: T0 + 30 * DAY });
  });

  it('stacks after a period of the same plan still running', () => {
    const first = { plan: 'plan-29', price_usdc: 29, start: T0, end: T0 + 30 * DAY };
    expect(periodFor([first], plan29, T0 + 10 * DAY)).toEqual({ start: T0 + 30 * DAY, end: T0 + 60 * DAY });
    // A period that ended before the payment does not hold it back.
    expect(periodFor([first], plan29, T0 + 31 * DAY)).toEqual({ start: T0 + 31 * DAY, end: T0 + 61 * DAY });
  });

  it('starts a dearer plan at once, and makes a cheaper one wait for the dearer one', () => {
    const cheap = { plan: 'plan-29', price_usdc: 29, start: T0, end: T0 + 30 * DAY };
    expect(periodFor([cheap], plan99, T0 + DAY)).toEqual({ start: T0 + DAY, end: T0 + 31 * DAY });
    const dear = { plan: 'premium-99', price_usdc: 99, start: T0, end: T0 + 30 * DAY };
    expect(periodFor([dear], plan29, T0 + DAY)).toEqual({ start: T0 + 30 * DAY, end: T0 + 60 * DAY });
  });

  it('reads the dearest plan running now, with the end of its unbroken run', () => {
    const claimed = [
      { plan: 'plan-29', price_usdc: 29, start: T0, end: T0 + 30 * DAY },
      { plan: 'plan-29', price_usdc: 29, start: T0 + 30 * DAY, end: T0 + 60 * DAY },
      { plan: 'premium-99', price_usdc: 99, start: T0 + 5 * DAY, end: T0 + 35 * DAY },
    ];
    expect(runningAt(claimed, T0 + DAY)).toMatchObject({ plan: 'plan-29', until: T0 + 60 * DAY });
    expect(runningAt(claimed, T0 + 6 * DAY)).toMatchObject({ plan: 'premium-99', until: T0 + 35 * DAY });
    expect(runningAt(claimed, T0 + 40 * DAY)).toMatchObject({ plan: 'plan-29', start: T0 + 30 * DAY, until: T0 + 60 * DAY });
    expect(runningAt(claimed, T0 + 60 * DAY)).toBeNull();
    expect(runningAt(claimed, T0 - 1)).toBeNull();
  });
});

describe('holder standing', () => {
  const rule = { allowance_per_nft: 200, max_nfts: 5 };

  it('adds allowance_per_nft for each NFT held, up to max_nfts', () => {
    expect(holderAllowance(0, rule)).toBe(0);
    expect(holderAllowance(2, rule)).toBe(400);
    expect(holderAllowance(5, rule)).toBe(1000);
    expect(holderAllowance(12, rule)).toBe(1000);
  });

  it('is spent first: used is what the day spent, up to the allowance', () => {
    expect(holderUse(400, 0)).toEqual({ used: 0, remaining: 400 });
    expect(holderUse(400, 150)).toEqual({ used: 150, remaining: 250 });
    expect(holderUse(400, 900)).toEqual({ used: 400, remaining: 0 });
    expect(holderUse(0, 900)).toEqual({ used: 0, remaining: 0 });
  });
});
