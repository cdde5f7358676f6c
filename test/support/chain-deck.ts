import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startChain, type LocalChain } from './chain.js';
import { testDeck, type TestDeck } from './deck.js';

/** What a chain test file shares: its chain, its plans file, and the deck of the test running. */
export interface ChainDeck {
  chain: LocalChain;
  plans: string;
  deck: TestDeck;
}

/**
 * One local chain for a test file, and for each test a deck of its own on a snapshot of the chain, reverted
 * after it (a reverted chain may mine the same transaction hash again, so no deck outlives its snapshot).
 * `setup` deploys what the file needs and answers its plans file (the hooks remove it after).
 */
export function chainDeck(setup: (chain: LocalChain) => Promise<string>): ChainDeck {
  const shared = {} as ChainDeck;
  let snapshot: string;
  beforeAll(async () => {
    shared.chain = await startChain();
    shared.plans = await setup(shared.chain);
  });
  afterAll(async () => {
    await shared.chain?.stop();
    if (shared.plans) await rm(dirname(shared.plans), { recursive: true, force: true });
  });
  beforeEach(async () => {
    snapshot = await shared.chain.snapshot();
    shared.deck = await testDeck({ DECK_PLANS: shared.plans });
  });
  afterEach(async () => {
    await shared.deck.stop();
    await shared.chain.revert(snapshot);
  });
  return shared;
}
