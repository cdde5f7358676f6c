import { getAddress, Interface } from 'ethers';
import type { Job, UnsignedPlan } from './types.js';

/** ERC-8183's job creation, the one call an epoch's unsigned plan may make. */
const ERC8183 = new Interface(['function createJob(address provider, address evaluator, uint256 expiredAt, string description, address hook) returns (uint256 jobId)']);

/** The text an epoch's job carries as its description: the class and the epoch's paymentRef. */
export const jobDescription = (cls: string, paymentRef: string): string => `${cls} ${paymentRef}`;

/** What the plan must say for this epoch. */
export interface PlanExpected {
  handshake_id: string;
  class: string;
  paymentRef: string;
  /** The evaluator the layer quoted as the judge. */
  evaluator: string;
  /** The end of the epoch's window: the job may not expire before it. */
  window_to: number;
}

const same = (a: string, b: string): boolean => {
  try {
    return getAddress(a) === getAddress(b);
  } catch {
    return false;
  }
};

function decoded(data: string) {
  try {
    const call = ERC8183.parseTransaction({ data });
    return call?.name === 'createJob' ? call : null;
  } catch {
    return null;
  }
}

/**
 * The problems of a settle answer's plan: its calldata must decode to exactly createJob with this epoch's description
 * (class and paymentRef), the job it states must be the one the calldata creates, moving no value, judged by the
 * quoted evaluator and not expiring before the epoch ends. An empty list: the deck may hand the plan on.
 */
export function planProblems(answer: { handshake_id: string; unsigned: Omit<UnsignedPlan, 'value'> & { value: string }; job: Job }, want: PlanExpected): string[] {
  const problems: string[] = [];
  const { unsigned, job } = answer;
  if (answer.handshake_id !== want.handshake_id) problems.push(`handshake_id: the plan is for ${answer.handshake_id}, not ${want.handshake_id}`);
  if (unsigned.value !== '0') problems.push(`unsigned.value: the plan moves ${unsigned.value}; opening an epoch's job moves nothing`);
  const call = decoded(unsigned.data);
  if (!call) return [...problems, 'unsigned.data: not the calldata of ERC-8183 createJob(address,address,uint256,string,address)'];
  const [provider, evaluator, expiredAt, description, hook] = call.args as unknown as [string, string, bigint, string, string];
  const wanted = jobDescription(want.class, want.paymentRef);
  if (description !== wanted) problems.push(`unsigned.data: the job's description is "${description}", not "${wanted}" (this epoch's paymentRef)`);
  if (job.class !== want.class) problems.push(`job.class: ${job.class}, not ${want.class}`);
  if (job.description !== description) problems.push('job.description: not the description the calldata carries');
  if (!same(job.provider, provider)) problems.push('job.provider: not the provider the calldata carries');
  if (!same(job.evaluator, evaluator)) problems.push('job.evaluator: not the evaluator the calldata carries');
  if (!same(job.hook, hook)) problems.push('job.hook: not the hook the calldata carries');
  if (BigInt(job.expiredAt) !== expiredAt) problems.push('job.expiredAt: not the expiry the calldata carries');
  if (!same(evaluator, want.evaluator)) problems.push(`unsigned.data: the evaluator ${evaluator} is not the judge quoted (${want.evaluator})`);
  if (expiredAt < BigInt(want.window_to)) problems.push(`unsigned.data: the job expires at ${expiredAt}, before the epoch's window ends at ${want.window_to}`);
  return problems;
}
