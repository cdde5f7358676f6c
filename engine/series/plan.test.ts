import { Interface } from 'ethers';
import { describe, expect, it } from 'vitest';
import { jobDescription, planProblems, type PlanExpected } from './plan.js';

// The calldata is built here with a separately written ABI, as a layer would build it.
const layerAbi = new Interface([
  'function createJob(address provider, address evaluator, uint256 expiredAt, string description, address hook)',
  'function setProvider(uint256 jobId, address provider, bytes optParams)',
]);
const PROVIDER = `0x${'aa'.repeat(20)}`;
const EVALUATOR = `0x${'bb'.repeat(20)}`;
const HOOK = `0x${'cc'.repeat(20)}`;
const REF = `0x${'12'.repeat(32)}`;
const CLASS = 'trading.mandate.external.v1';
const want: PlanExpected = { handshake_id: 'hs_1', class: CLASS, paymentRef: REF, evaluator: EVALUATOR, window_to: 2_000 };

function settle(o: { description?: string; evaluator?: string; expiredAt?: number; value?: string; data?: string; job?: Record<string, unknown>; handshake_id?: string } = {}) {
  const job = { class: CLASS, provider: PROVIDER, evaluator: o.evaluator ?? EVALUATOR, expiredAt: o.expiredAt ?? 5_600, description: o.description ?? jobDescription(CLASS, REF), hook: HOOK };
  const data = o.data ?? layerAbi.encodeFunctionData('createJob', [job.provider, job.evaluator, job.expiredAt, job.description, job.hook]);
  return { handshake_id: o.handshake_id ?? 'hs_1', unsigned: { chainId: 31337, to: `0x${'dd'.repeat(20)}`, data, value: o.value ?? '0' }, job: { ...job, ...o.job } };
}

describe('the plan check', () => {
  it('passes createJob carrying this epoch\'s paymentRef, moving nothing, judged by the quoted evaluator past the window', () => {
    expect(planProblems(settle(), want)).toEqual([]);
  });

  it('refuses a description with another paymentRef', () => {
    const other = jobDescription(CLASS, `0x${'34'.repeat(32)}`);
    expect(planProblems(settle({ description: other }), want)).toEqual([expect.stringContaining("this epoch's paymentRef")]);
  });

  it('refuses calldata of another call, or no calldata at all', () => {
    expect(planProblems(settle({ data: layerAbi.encodeFunctionData('setProvider', [1n, PROVIDER, '0x']) }), want)).toEqual([expect.stringContaining('not the calldata of ERC-8183 createJob')]);
    expect(planProblems(settle({ data: '0x' }), want)).toEqual([expect.stringContaining('not the calldata')]);
    expect(planProblems(settle({ data: '0x41528812' }), want)).toEqual([expect.stringContaining('not the calldata')]);
  });

  it('refuses a plan moving value, judged by someone else, expiring inside the window, or for another handshake', () => {
    expect(planProblems(settle({ value: '5' }), want)).toEqual([expect.stringContaining('unsigned.value')]);
    expect(planProblems(settle({ evaluator: `0x${'ee'.repeat(20)}` }), want)).toEqual([expect.stringContaining('is not the judge quoted')]);
    expect(planProblems(settle({ expiredAt: 1_999 }), want)).toEqual([expect.stringContaining("before the epoch's window ends")]);
    expect(planProblems(settle({ handshake_id: 'hs_2' }), want)).toEqual([expect.stringContaining('handshake_id')]);
  });

  it('refuses a job stated otherwise than the calldata creates it', () => {
    expect(planProblems(settle({ job: { hook: EVALUATOR } }), want)).toEqual(['job.hook: not the hook the calldata carries']);
    expect(planProblems(settle({ job: { expiredAt: 9_999 } }), want)).toEqual(['job.expiredAt: not the expiry the calldata carries']);
    expect(planProblems(settle({ job: { class: 'other' } }), want)).toEqual([`job.class: other, not ${CLASS}`]);
  });
});
