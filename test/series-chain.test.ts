import { createHash } from 'node:crypto';
import { getAddress, type Contract, type HDNodeWallet, type TransactionReceipt } from 'ethers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startChain, type LocalChain } from './support/chain.js';
import { HOUR, seriesRig, type SeriesRig } from './support/series.js';

// The epochs route's unsigned plan, signed and sent for real: the layer double's settle builds createJob against the
// ERC-8183-shaped EpochJobs deployed on a local chain, the test signs what the deck answered with a funded wallet,
// and the chain's JobCreated carries this epoch's paymentRef. The chain's blocks are stamped with the clock the deck
// and the layer read, so the contract judges the job's expiry by the same time.

let chain: LocalChain;
let jobs: Contract;
let buyer: HDNodeWallet;
let chainId: number;
let rig: SeriesRig;
beforeAll(async () => {
  chain = await startChain();
  jobs = await chain.deploy('EpochJobs');
  buyer = chain.accounts[1]!;
  // The chain's own chainId, as it answers it (not the provider's configured network).
  chainId = Number(await chain.provider.send('eth_chainId', []));
  rig = await seriesRig({}, { chainId, contract: await jobs.getAddress() });
}, 60_000);
afterAll(async () => {
  await rig?.stop();
  await chain?.stop();
});
// Each test on a snapshot of the chain, reverted after it.
let snapshot: string;
beforeEach(async () => {
  snapshot = await chain.snapshot();
});
afterEach(() => chain.revert(snapshot));

const CLASS = 'trading.mandate.external.v1';

/** Signs and sends an epoch's unsigned plan from the buyer's wallet, in a block stamped with the test's clock. */
async function signAndSend(unsigned: { chainId: number; to: string; data: string; value: string }): Promise<TransactionReceipt> {
  await chain.provider.send('evm_setNextBlockTimestamp', [rig.clock.seconds()]);
  const tx = await buyer.sendTransaction({ chainId: unsigned.chainId, to: unsigned.to, data: unsigned.data, value: BigInt(unsigned.value) });
  const receipt = await tx.wait();
  expect(receipt?.status).toBe(1);
  return receipt!;
}

/** The JobCreated events the EpochJobs contract emitted in a receipt. */
function jobsCreated(receipt: TransactionReceipt) {
  return receipt.logs
    .filter((l) => getAddress(l.address) === getAddress(jobs.target as string))
    .map((l) => jobs.interface.parseLog(l))
    .filter((e) => e?.name === 'JobCreated')
    .map((e) => e!.args);
}

describe('an epoch\'s unsigned plan, signed and sent on a local chain', () => {
  it('opens one ERC-8183 job per epoch whose JobCreated carries that epoch\'s paymentRef', { timeout: 60_000 }, async () => {
    const series = await rig.open();
    const refs = series.epochs.map((e: { index: number }) => `0x${createHash('sha256').update(`${series.id}:${e.index}`).digest('hex')}`);

    const first = await rig.epochs(series.id);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ epoch: 1, paymentRef: refs[0] });
    expect(first.body.unsigned).toEqual({ chainId, to: await jobs.getAddress(), data: expect.stringMatching(/^0x/), value: '0' });
    const [job1] = jobsCreated(await signAndSend(first.body.unsigned));
    expect(job1).toBeDefined();
    expect(job1!.jobId).toBe(1n);
    expect(job1!.description).toBe(`${CLASS} ${refs[0]}`);
    expect(job1!.client).toBe(buyer.address);
    expect(job1!.evaluator).toBe(rig.layer.evaluator);
    expect(job1!.expiredAt).toBeGreaterThanOrEqual(BigInt(series.epochs[0].window.to));
    // The job the chain holds is the one the deck's answer stated.
    const held = await jobs.getFunction('getJob')(1n);
    expect({ client: held.client, provider: held.provider, evaluator: held.evaluator, hook: held.hook, expiredAt: Number(held.expiredAt), description: held.description }).toEqual({
      client: buyer.address,
      provider: first.body.series.epochs[0].job.provider,
      evaluator: first.body.series.epochs[0].job.evaluator,
      hook: first.body.series.epochs[0].job.hook,
      expiredAt: first.body.series.epochs[0].job.expiredAt,
      description: first.body.series.epochs[0].job.description,
    });

    // The first window passes, the layer ends the epoch; the second epoch is a job of its own with its own paymentRef.
    rig.clock.advance(HOUR);
    expect((await rig.read(series.id)).body.series.state).toBe('EPOCH_ENDED');
    const second = await rig.epochs(series.id);
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body).toMatchObject({ epoch: 2, paymentRef: refs[1] });
    const [job2] = jobsCreated(await signAndSend(second.body.unsigned));
    expect(job2!.jobId).toBe(2n);
    expect(job2!.description).toBe(`${CLASS} ${refs[1]}`);
    expect(refs[1]).not.toBe(refs[0]);
    expect(job2!.expiredAt).toBeGreaterThanOrEqual(BigInt(series.epochs[1].window.to));
    expect(await jobs.getFunction('jobCounter')()).toBe(2n);
  });

  it('is refused by the contract once the job\'s expiry has passed on the chain', { timeout: 60_000 }, async () => {
    const series = await rig.open();
    const opened = await rig.epochs(series.id);
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const expiredAt: number = opened.body.series.epochs[0].job.expiredAt;
    const before = await jobs.getFunction('jobCounter')();
    // A plan kept past its job's expiry opens nothing: the contract reverts it.
    rig.clock.to(expiredAt);
    const refused = await signAndSend(opened.body.unsigned).then(() => null, (e: { code?: string; data?: string }) => e);
    expect(refused?.code).toBe('CALL_EXCEPTION');
    expect(jobs.interface.parseError(refused!.data!)?.name).toBe('ExpiryPassed');
    expect(await jobs.getFunction('jobCounter')()).toBe(before);
  });
});
