import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';

let deck: TestDeck;
beforeAll(async () => {
  deck = await testDeck();
});
afterAll(() => deck.stop());

describe('the deck starts and answers', () => {
  it('serves the plan catalogue anonymously with mine and principal null', async () => {
    const res = await fetch(`${deck.url}/plans`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.mine).toBeNull();
    expect(body.principal).toBeNull();
  });

  it('fills mine and principal for a signed-in caller', async () => {
    const { bearer } = await signedIn(deck.url, 'smoker');
    const body = await (await fetch(`${deck.url}/plans`, { headers: bearer })).json();
    expect(body.principal.name).toBe('smoker');
    expect(body.mine.plan).toBe('free');
  });
});
