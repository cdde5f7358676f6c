import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config/env.js';
import { answered, callAnswered } from './support/answers.js';
import { signedIn, spawnDeck, testDeck, type TestDeck } from './support/deck.js';
import { modernClient, refusalIn } from './support/mcp.js';

// DECK_PROFILE=local: one person trying the deck on their own machine is held neither by the per-client join limit
// nor by the free tier's daily forges; a standard deck keeps both, and a deck others can reach refuses to start local.

const EMA_CROSS =
  'BTC on the 1 minute chart, long and short, around the clock: go long when the 9 EMA crosses above the 21 EMA, go short when the 9 EMA crosses below the 21 EMA. Stop 2 ATR(14). Target 2R.';

type Principal = Awaited<ReturnType<typeof signedIn>>;
const joinAs = (url: string, name: string) => callAnswered(`${url}/join`, { body: { name } });
const forgeAs = (url: string, who: Principal) => callAnswered(`${url}/forge`, { body: { intent: EMA_CROSS }, headers: who.bearer });

/** A deck allowing one join a client and four for everyone, with a free-tier principal signed in (the first join). */
async function deckWith(env: Record<string, string>): Promise<{ deck: TestDeck; free: Principal }> {
  const deck = await testDeck({ DECK_JOIN_PER_CLIENT: '1', DECK_JOIN_PER_DAY: '4', ...env });
  return { deck, free: await signedIn(deck.url, 'forger') };
}

describe('a local deck (DECK_PROFILE=local, on loopback)', () => {
  let deck: TestDeck;
  let free: Principal;
  beforeAll(async () => void ({ deck, free } = await deckWith({ DECK_PROFILE: 'local' })));
  afterAll(() => deck.stop());

  it('says it has no per-client join limit, and mints principals for one client up to the limit for everyone', async () => {
    const info = await callAnswered(`${deck.url}/join`);
    expect(info.status).toBe(200);
    answered('join_info', info.body);
    expect(info.body.limits).toEqual({ per_client_per_day: null, everyone_per_day: 4 });
    for (const name of ['second', 'third', 'fourth']) expect((await joinAs(deck.url, name)).status, name).toBe(201);
    const fifth = await joinAs(deck.url, 'fifth');
    expect(fifth.status).toBe(429);
    expect(fifth.body).toMatchObject({ error: 'join_limit', message: 'at most 4 principals a day for everyone' });
  });

  it("casts a free-tier principal's forges past the standard three a day, over REST and over MCP", async () => {
    expect((await callAnswered(`${deck.url}/me`, { headers: free.bearer })).body.principal).toMatchObject({ name: 'forger', tier: 'free' });
    for (let i = 0; i < 5; i++) expect((await forgeAs(deck.url, free)).status, `forge ${i + 1}`).toBe(200);
    const client = await modernClient(`${deck.url}/mcp/studio`, { headers: free.bearer });
    try {
      const sixth = await client.callTool({ name: 'forge', arguments: { intent: EMA_CROSS } });
      expect(sixth.isError ?? false).toBe(false);
      answered('forge', sixth.structuredContent);
    } finally {
      await client.close();
    }
  });
});

describe('a standard deck (DECK_PROFILE unset)', () => {
  let deck: TestDeck;
  let free: Principal;
  beforeAll(async () => void ({ deck, free } = await deckWith({})));
  afterAll(() => deck.stop());

  it('holds one client to its joins a day', async () => {
    expect((await callAnswered(`${deck.url}/join`)).body.limits).toEqual({ per_client_per_day: 1, everyone_per_day: 4 });
    const second = await joinAs(deck.url, 'second');
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ error: 'join_limit', message: 'at most 1 principals a day from one client' });
  });

  it("holds the free tier to three forges a day, over REST and over MCP", async () => {
    for (let i = 0; i < 3; i++) expect((await forgeAs(deck.url, free)).status, `forge ${i + 1}`).toBe(200);
    const fourth = await forgeAs(deck.url, free);
    expect(fourth.status).toBe(429);
    expect(fourth.body).toMatchObject({ error: 'forge_limit', tier: 'free', per_day: 3 });
    const client = await modernClient(`${deck.url}/mcp/studio`, { headers: free.bearer });
    try {
      expect(refusalIn(await client.callTool({ name: 'forge', arguments: { intent: EMA_CROSS } }))).toMatchObject({ error: 'forge_limit', per_day: 3 });
    } finally {
      await client.close();
    }
  });
});

describe('where a local deck may run', () => {
  it('does not start on an address others reach, naming DECK_PROFILE and the address', async () => {
    const data = await mkdtemp(join(tmpdir(), 'deck-local-'));
    try {
      const refused = await spawnDeck({ DECK_PROFILE: 'local', HOST: '0.0.0.0', DECK_DATA: data }).then(
        async (started) => {
          await started.stop();
          return 'it started';
        },
        (error: Error) => error.message,
      );
      expect(refused).toMatch(/exited with 1/);
      expect(refused).toContain('the deck could not start: bad configuration:');
      expect(refused).toContain("DECK_PROFILE: local lifts the per-client join limit and the free tier's daily forges, for a deck only its own machine reaches: HOST is 0.0.0.0, not loopback.");
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  });

  it('takes loopback addresses and names only, with no proxy and a loopback public URL', () => {
    for (const HOST of ['127.0.0.1', '127.0.0.53', '::1', 'localhost']) expect(readConfig({ DECK_PROFILE: 'local', HOST }).profile, HOST).toBe('local');
    expect(readConfig({ DECK_PROFILE: 'local', DECK_PUBLIC_URL: 'http://[::1]:8080' }).joinPerClient).toBeNull();
    expect(readConfig({ DECK_PROFILE: 'standard' }).joinPerClient).toBe(3);
    const refusals: [Record<string, string>, string][] = [
      [{ HOST: '192.168.1.20' }, 'HOST is 192.168.1.20, not loopback'],
      [{ HOST: '::' }, 'HOST is ::, not loopback'],
      [{ DECK_TRUST_PROXY: '1' }, 'DECK_TRUST_PROXY says a proxy in front of it passes on other clients'],
      [{ DECK_PUBLIC_URL: 'https://deck.example' }, 'DECK_PUBLIC_URL is https://deck.example, reached from elsewhere'],
    ];
    for (const [env, why] of refusals) expect(() => readConfig({ DECK_PROFILE: 'local', ...env }), why).toThrow(why);
    // A public URL that is no URL is named as such, not thrown over.
    expect(() => readConfig({ DECK_PROFILE: 'local', DECK_PUBLIC_URL: 'nope' })).toThrow(/DECK_PUBLIC_URL: /);
    expect(() => readConfig({ DECK_PROFILE: 'open' })).toThrow(/DECK_PROFILE: Invalid option: expected one of "standard"\|"local"/);
  });
});
