import { describe, expect, it } from 'vitest';
import { readConfig } from '../config/env.js';
import { testDeck, type TestDeck } from './support/deck.js';
import { fromAddress, type Client } from './support/from-address.js';

/** A key no door ever minted. */
const stranger = (n: number) => `deck_live_${String(n).padStart(43, 'x')}`;

/** A deck whose per-client limits are one join a day and two refused keys, and a client on a loopback address. */
async function withDeck(env: Record<string, string>, address: string, run: (deck: TestDeck, client: Client) => Promise<void>) {
  const deck = await testDeck({ DECK_JOIN_PER_CLIENT: '1', DECK_LOGIN_REFUSALS: '2', ...env });
  const client = fromAddress(address);
  try {
    await run(deck, client);
  } finally {
    await client.close();
    await deck.stop();
  }
}

const forwarded = (xff: string, more: Record<string, string> = {}) => ({ 'x-forwarded-for': xff, ...more });

describe('DECK_TRUST_PROXY unset: the socket is the client', () => {
  it('ignores X-Forwarded-For, so a forged one escapes neither the join limit nor the login throttle', async () => {
    await withDeck({}, '127.0.0.31', async (deck, client) => {
      expect((await client.call(`${deck.url}/join`, { name: 'first' }, forwarded('203.0.113.1'))).status).toBe(201);
      const second = await client.call(`${deck.url}/join`, { name: 'second' }, forwarded('203.0.113.2'));
      expect(second.status).toBe(429);
      expect(second.body).toMatchObject({ error: 'join_limit' });
      for (let i = 0; i < 2; i++) expect((await client.call(`${deck.url}/login`, { key: stranger(i) }, forwarded(`198.51.100.${i}`))).status).toBe(401);
      expect((await client.call(`${deck.url}/login`, { key: stranger(5) }, forwarded('198.51.100.9'))).status).toBe(429);
    });
  });

  it('ignores X-Forwarded-Proto: the cookie is Secure only as the deck itself knows', async () => {
    await withDeck({ DECK_JOIN_PER_CLIENT: '5' }, '127.0.0.32', async (deck, client) => {
      const joined = await client.call(`${deck.url}/join`, { name: 'plainer' });
      const login = await client.call(`${deck.url}/login`, { key: (joined.body as { key: string }).key }, { 'x-forwarded-proto': 'https' });
      expect(String(login.headers['set-cookie'])).not.toMatch(/Secure/i);
    });
  });
});

describe('DECK_TRUST_PROXY as a hop count', () => {
  it('counts each forwarded client apart, and reads the address the trusted proxy appended, not one a client forged', async () => {
    await withDeck({ DECK_TRUST_PROXY: '1' }, '127.0.0.33', async (deck, proxy) => {
      // Three people behind the one proxy each join once.
      for (const [i, name] of ['amber', 'basil', 'cedar'].entries()) {
        expect((await proxy.call(`${deck.url}/join`, { name }, forwarded(`203.0.113.${i + 1}`))).status, name).toBe(201);
      }
      // A person forging an address before the one the proxy appended is still the appended one.
      const forged = await proxy.call(`${deck.url}/join`, { name: 'dune' }, forwarded('192.0.2.77, 203.0.113.1'));
      expect(forged.status).toBe(429);
      // One person's refused keys rest that person only.
      for (let i = 0; i < 2; i++) expect((await proxy.call(`${deck.url}/login`, { key: stranger(i) }, forwarded('203.0.113.1'))).status).toBe(401);
      const rested = await proxy.call(`${deck.url}/login`, { key: stranger(3) }, forwarded('192.0.2.8, 203.0.113.1'));
      expect(rested.status).toBe(429);
      expect(rested.headers['retry-after']).toBe(String((rested.body as { retry_after_s: number }).retry_after_s));
      expect((await proxy.call(`${deck.url}/login`, { key: stranger(4) }, forwarded('203.0.113.2'))).status).toBe(401);
    });
  });

  it('takes X-Forwarded-Proto from the trusted proxy: the cookie is Secure when the person came over https', async () => {
    await withDeck({ DECK_TRUST_PROXY: '1' }, '127.0.0.34', async (deck, proxy) => {
      const joined = await proxy.call(`${deck.url}/join`, { name: 'tlsperson' }, forwarded('203.0.113.5'));
      const login = await proxy.call(`${deck.url}/login`, { key: (joined.body as { key: string }).key }, forwarded('203.0.113.5', { 'x-forwarded-proto': 'https' }));
      expect(login.status).toBe(200);
      expect(String(login.headers['set-cookie'])).toMatch(/;\s*Secure/i);
    });
  });
});

describe('DECK_TRUST_PROXY as addresses', () => {
  it('believes X-Forwarded-For from a listed proxy only', async () => {
    await withDeck({ DECK_TRUST_PROXY: '127.0.0.35, 10.0.0.0/8' }, '127.0.0.35', async (deck, proxy) => {
      expect((await proxy.call(`${deck.url}/join`, { name: 'elm' }, forwarded('203.0.113.1'))).status).toBe(201);
      expect((await proxy.call(`${deck.url}/join`, { name: 'fir' }, forwarded('203.0.113.2'))).status).toBe(201);
      // A sender that is not a listed proxy is the client itself, whatever it forwards.
      const direct = fromAddress('127.0.0.36');
      try {
        expect((await direct.call(`${deck.url}/join`, { name: 'gum' }, forwarded('203.0.113.3'))).status).toBe(201);
        expect((await direct.call(`${deck.url}/join`, { name: 'hazel' }, forwarded('203.0.113.4'))).status).toBe(429);
      } finally {
        await direct.close();
      }
    });
  });
});

describe('reading DECK_TRUST_PROXY', () => {
  it('takes off, a hop count, or addresses, subnets and range names; refuses true and anything else, naming the variable', () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({ DECK_TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(readConfig({ DECK_TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(readConfig({ DECK_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(readConfig({ DECK_TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8, 192.0.2.1' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.1']);
    for (const bad of ['true', 'proxy.example', '10.0.0.0/33', '1.2.3.4/x', ',']) {
      expect(() => readConfig({ DECK_TRUST_PROXY: bad }), bad).toThrow(/DECK_TRUST_PROXY/);
    }
  });
});
