import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MovingClock } from './fixtures/clock.js';
import { proveWallet, signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient, refusalIn } from './support/mcp.js';

// A wallet is a principal's only once its own signature says so: GET /me/wallet gives a challenge naming the deck's
// host, the agent_id and a fresh nonce; POST /me/wallet takes the wallet's signature of it.
let deck: TestDeck;
const clock = new MovingClock(Date.UTC(2030, 0, 7, 12));
beforeAll(async () => {
  deck = await testDeck({}, clock.now);
});
afterAll(() => deck.stop());

const challengeOf = async (bearer: Record<string, string>) => (await call(`${deck.url}/me/wallet`, { headers: bearer })).body.challenge as { message: string; nonce: string; expires_at: string };
const prove = (bearer: Record<string, string>, body: Record<string, unknown>) => call(`${deck.url}/me/wallet`, { body, headers: bearer });

describe('GET /me/wallet', () => {
  it('says a wallet named at join is unproven, and gives a challenge naming the host, the agent_id, a nonce and its expiry', async () => {
    const named = Wallet.createRandom();
    const who = await signedIn(deck.url, 'named', named.address.toLowerCase());
    const { status, body } = await call(`${deck.url}/me/wallet`, { headers: who.bearer });
    expect(status).toBe(200);
    const { agent_id } = (await call(`${deck.url}/me`, { headers: who.bearer })).body.principal;
    const expires = new Date(clock.now() + 15 * 60_000).toISOString();
    expect(body).toEqual({
      ok: true,
      wallet: named.address,
      wallet_status: 'unproven',
      proven_at: null,
      challenge: {
        message: `the deck: wallet proof\nhost: ${new URL(deck.url).host}\nagent_id: ${agent_id}\nnonce: ${body.challenge.nonce}\nexpires: ${expires}`,
        nonce: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
        expires_at: expires,
      },
    });
    expect((await call(`${deck.url}/me`, { headers: who.bearer })).body.principal).toMatchObject({ wallet: named.address, wallet_status: 'unproven' });
    expect((await call(`${deck.url}/plans`, { headers: who.bearer })).body.principal).toMatchObject({ wallet: named.address, wallet_status: 'unproven' });
  });

  it('answers no wallet as null, and needs a session', async () => {
    const who = await signedIn(deck.url, 'walletless');
    expect((await call(`${deck.url}/me/wallet`, { headers: who.bearer })).body).toMatchObject({ wallet: null, wallet_status: null, proven_at: null });
    expect((await call(`${deck.url}/me/wallet`)).status).toBe(401);
  });
});

describe('POST /me/wallet', () => {
  it('proves the wallet by its signature of the challenge: it becomes the wallet, proven', async () => {
    const w = Wallet.createRandom();
    const who = await signedIn(deck.url, 'prover');
    const proof = await proveWallet(deck.url, who.bearer, w);
    expect(proof).toMatchObject({ ok: true, wallet: w.address, wallet_status: 'proven', proven_at: new Date(clock.now()).toISOString() });
    expect((await call(`${deck.url}/me`, { headers: who.bearer })).body.principal).toMatchObject({ wallet: w.address, wallet_status: 'proven' });

    // Proving another wallet replaces it.
    const next = Wallet.createRandom();
    clock.advance(1);
    await proveWallet(deck.url, who.bearer, next);
    expect((await call(`${deck.url}/me/wallet`, { headers: who.bearer })).body).toMatchObject({ wallet: next.address, wallet_status: 'proven' });
  });

  it('refuses a signature that is not the named wallet\'s (wallet_unproven), naming the text to sign', async () => {
    const victim = Wallet.createRandom();
    const who = await signedIn(deck.url, 'pretender', victim.address);
    const c = await challengeOf(who.bearer);
    const r = await prove(who.bearer, { wallet_hex: victim.address, nonce: c.nonce, signature_hex: await Wallet.createRandom().signMessage(c.message) });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ ok: false, error: 'wallet_unproven', sign: c.message });
    // The victim's signature of another text (another deck's host, another agent) proves nothing either.
    const elsewhere = c.message.replace(`host: ${new URL(deck.url).host}`, 'host: deck.example');
    expect((await prove(who.bearer, { wallet_hex: victim.address, nonce: c.nonce, signature_hex: await victim.signMessage(elsewhere) })).body).toMatchObject({ error: 'wallet_unproven' });
    expect((await call(`${deck.url}/me`, { headers: who.bearer })).body.principal.wallet_status).toBe('unproven');
  });

  it('takes each nonce once, only from the principal it was issued to, and only for 15 minutes (nonce_refused)', async () => {
    const w = Wallet.createRandom();
    const alice = await signedIn(deck.url, 'nonce-alice');
    const bob = await signedIn(deck.url, 'nonce-bob');
    const c = await challengeOf(alice.bearer);
    const signature_hex = await w.signMessage(c.message);
    // Bob holds Alice's nonce and her wallet's signature: the nonce is not his.
    const stolen = await prove(bob.bearer, { wallet_hex: w.address, nonce: c.nonce, signature_hex });
    expect(stolen.status).toBe(422);
    expect(stolen.body).toMatchObject({ error: 'nonce_refused', field: 'nonce' });
    expect(stolen.body.message).toContain('not one the deck issued to you');

    expect((await prove(alice.bearer, { wallet_hex: w.address, nonce: c.nonce, signature_hex })).status).toBe(200);
    const again = await prove(alice.bearer, { wallet_hex: w.address, nonce: c.nonce, signature_hex });
    expect(again.body).toMatchObject({ error: 'nonce_refused' });
    expect(again.body.message).toContain('was used');

    clock.advance(1);
    const late = await challengeOf(alice.bearer);
    clock.advance(15 * 60);
    const expired = await prove(alice.bearer, { wallet_hex: w.address, nonce: late.nonce, signature_hex: await w.signMessage(late.message) });
    expect(expired.body).toMatchObject({ error: 'nonce_refused' });
    expect(expired.body.message).toContain(`expired at ${late.expires_at}`);

    const forged = await prove(alice.bearer, { wallet_hex: w.address, nonce: 'A'.repeat(32), signature_hex });
    expect(forged.body).toMatchObject({ error: 'nonce_refused' });
  });

  it('names each malformed field', async () => {
    const who = await signedIn(deck.url, 'malformed');
    const r = await prove(who.bearer, { wallet_hex: '0x12', nonce: 'short', signature_hex: '0xdead' });
    expect(r.status).toBe(422);
    expect(r.body.problems.map((p: { field: string }) => p.field).sort()).toEqual(['nonce', 'signature_hex', 'wallet_hex']);
  });

  it('is served over MCP as the wallet and wallet_prove tools', async () => {
    const w = Wallet.createRandom();
    const who = await signedIn(deck.url, 'mcp-prover');
    const mcp = await legacyClient(`${deck.url}/mcp`, who.bearer);
    try {
      const got = (await mcp.callTool({ name: 'wallet', arguments: {} })).structuredContent as { challenge: { message: string; nonce: string } };
      const proved = await mcp.callTool({ name: 'wallet_prove', arguments: { wallet_hex: w.address, nonce: got.challenge.nonce, signature_hex: await w.signMessage(got.challenge.message) } });
      expect(proved.structuredContent).toMatchObject({ wallet: w.address, wallet_status: 'proven' });
      const reused = await mcp.callTool({ name: 'wallet_prove', arguments: { wallet_hex: w.address, nonce: got.challenge.nonce, signature_hex: await w.signMessage(got.challenge.message) } });
      expect(reused.isError).toBe(true);
      expect(refusalIn(reused)).toMatchObject({ status: 422, error: 'nonce_refused' });
    } finally {
      await mcp.close();
    }
  });
});

describe('wallets kept before proofs existed', () => {
  it('read as unproven: an account with a wallet and no proof, as every account was written before', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'deck-wallet-'));
    const w = Wallet.createRandom();
    const first = await testDeck({ DECK_DATA: dataDir });
    const who = await signedIn(first.url, 'old-timer');
    await first.stop();
    // The account as a deck before proofs wrote it: a wallet, nothing else about it.
    const file = join(dataDir, 'accounts.json');
    const doc = JSON.parse(await readFile(file, 'utf8')) as { accounts: Record<string, Record<string, unknown>> };
    for (const a of Object.values(doc.accounts)) a.wallet = w.address;
    await writeFile(file, JSON.stringify(doc));
    const again = await testDeck({ DECK_DATA: dataDir });
    try {
      expect((await call(`${again.url}/me`, { headers: who.bearer })).body.principal).toMatchObject({ wallet: w.address, wallet_status: 'unproven' });
    } finally {
      await again.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
