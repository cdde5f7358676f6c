import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, spawnDeck, testDeck, type SpawnedDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { callbackServer, MemoryProvider, pkce } from './support/oauth.js';

// Client ID Metadata Documents: an app's client id is the https URL of its own metadata, which the deck fetches. The
// app's host is a local https server with a certificate made for this run, which the deck trusts (NODE_EXTRA_CA_CERTS);
// it is on loopback, so the deck that fetches from it runs with DECK_LOOPBACK_TARGETS=1, and a deck without it refuses.

let dir: string;
let host: Server;
let hostUrl: string;
let deck: SpawnedDeck;
let app: Awaited<ReturnType<typeof callbackServer>>;
/** The documents the app's host serves, by path. */
const documents = new Map<string, unknown>();
/** When each answer that drips its body (a byte every 2 s) was cut off, by path. */
const dripsEnded = new Map<string, number>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'deck-cimd-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  host = createServer({ key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) }, (req, res) => {
    if (req.url?.startsWith('/drip')) {
      // Headers at once, then one byte of the document every 2 s: a deadline between bytes never comes.
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 2000);
      res.on('close', () => {
        clearInterval(timer);
        dripsEnded.set(req.url!, Date.now());
      });
      return;
    }
    if (req.url === '/redirect.json') return void res.writeHead(302, { location: `${hostUrl}/oauth/client.json` }).end();
    const doc = documents.get(req.url ?? '');
    if (doc === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(typeof doc === 'string' ? doc : JSON.stringify(doc));
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `https://127.0.0.1:${(host.address() as AddressInfo).port}`;
  app = await callbackServer();
  deck = await spawnDeck({ DECK_DATA: join(dir, 'data'), NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem'), DECK_JOIN_PER_CLIENT: '100', DECK_LOOPBACK_TARGETS: '1' });
});
afterAll(async () => {
  await deck?.stop();
  await app?.close();
  host?.closeAllConnections();
  await new Promise((resolve) => host?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const metadata = (path: string, extra: Record<string, unknown> = {}) => ({
  client_id: `${hostUrl}${path}`,
  client_name: 'Metadata app',
  redirect_uris: [app.url],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  ...extra,
});

/** The authorization endpoint's answer for a client id: where it sends the browser, or its refusal. */
async function authorize(base: string, clientId: string) {
  const u = new URL(`${base}/oauth/authorize`);
  const q = { response_type: 'code', client_id: clientId, redirect_uri: app.url, code_challenge: pkce().challenge, code_challenge_method: 'S256', resource: `${base}/mcp` };
  for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
  const res = await fetch(u, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), body: res.status === 302 ? null : ((await res.json()) as Record<string, string>) };
}

describe('a client known by its metadata document', () => {
  it('signs in with the SDK client using its URL as client id; the page names the domain that vouches for it', async () => {
    documents.set('/oauth/client.json', metadata('/oauth/client.json'));
    const provider = new MemoryProvider(app.url, 'ignored: the document names it', `${hostUrl}/oauth/client.json`);
    const transport = new StreamableHTTPClientTransport(new URL(`${deck.url}/mcp/studio`), { authProvider: provider });
    const client = new Client({ name: 'cimd-agent', version: '1.0.0' });
    await client.connect(transport);
    await expect(client.callTool({ name: 'account', arguments: {} })).rejects.toThrow(UnauthorizedError);
    // No registration: the client id is the document's URL.
    expect(provider.client?.client_id).toBe(`${hostUrl}/oauth/client.json`);

    const sent = await fetch(provider.authorizationUrl!, { redirect: 'manual' });
    expect(sent.status).toBe(302);
    const id = new URL(sent.headers.get('location')!).searchParams.get('authorization')!;
    const asked = await call(`${deck.url}/oauth/requests/${id}`);
    expect(asked.body).toMatchObject({ client: { name: 'Metadata app', vouched_by: new URL(hostUrl).host }, resource: { url: `${deck.url}/mcp/studio` } });

    const { session } = await signedIn(deck.url, 'cimd-person');
    const allowed = await call(`${deck.url}/oauth/consent`, { body: { request: id, allow: true }, headers: { cookie: `deck_session=${session}` } });
    await transport.finishAuth(new URL(allowed.body.redirect as string).searchParams.get('code')!);
    const account = await client.callTool({ name: 'account', arguments: {} });
    expect(account.structuredContent).toMatchObject({ principal: { name: 'cimd-person' } });
    await client.close();
  });

  it('refuses a document that names another client id, claims a secret, is not JSON or is not there', async () => {
    documents.set('/other.json', metadata('/other.json', { client_id: `${hostUrl}/elsewhere.json` }));
    documents.set('/secret.json', metadata('/secret.json', { client_secret: 'shh' }));
    documents.set('/text.json', 'not json');
    for (const [path, why] of [['/other.json', /another client_id/], ['/secret.json', /client_secret/], ['/text.json', /not JSON/], ['/missing.json', /HTTP 404/]] as const) {
      const r = await authorize(deck.url, `${hostUrl}${path}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'invalid_client' });
      expect(r.body!.error_description).toMatch(why);
    }
  });
});

describe('what the fetch is held to', () => {
  it('follows no redirect', async () => {
    const r = await authorize(deck.url, `${hostUrl}/redirect.json`);
    expect(r.status).toBe(400);
    expect(r.body!.error_description).toMatch(/answered HTTP 302 \(redirects are not followed\)/);
  });

  it('cuts an answer that drips its body at the deadline for the whole exchange, 5 s', async () => {
    const started = Date.now();
    const r = await authorize(deck.url, `${hostUrl}/drip-slow.json`);
    const took = Date.now() - started;
    expect(r.status).toBe(400);
    expect(r.body!.error_description).toMatch(/did not arrive whole within 5 s/);
    expect(took).toBeGreaterThanOrEqual(4_500);
    expect(took).toBeLessThan(9_000);
  }, 20_000);

  it('cancels the fetch when the request that asked for it ends', async () => {
    const u = new URL(`${deck.url}/oauth/authorize`);
    const q = { response_type: 'code', client_id: `${hostUrl}/drip-left.json`, redirect_uri: app.url, code_challenge: pkce().challenge, code_challenge_method: 'S256', resource: `${deck.url}/mcp` };
    for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
    const leaving = new AbortController();
    const asked = fetch(u, { redirect: 'manual', signal: leaving.signal }).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const left = Date.now();
    leaving.abort();
    await asked;
    for (let i = 0; i < 100 && !dripsEnded.has('/drip-left.json'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    // Cut when the asker left, long before the 5 s deadline would have cut it.
    expect(dripsEnded.get('/drip-left.json')! - left).toBeLessThan(2_000);
  }, 20_000);
});

describe('where a metadata document is never fetched from', () => {
  let pub: TestDeck;
  beforeAll(async () => {
    pub = await testDeck({ NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') });
  });
  afterAll(() => pub.stop());

  const refusal = (id: string) =>
    `the client metadata document at ${id}: it could not be fetched: ${new URL(id).hostname} is not a public address the deck may reach (a name must resolve, and only to public addresses)`;
  const port = () => new URL(hostUrl).port;

  it('a loopback address, in any form, on a deck with the default DECK_LOOPBACK_TARGETS (0): one refusal for all', async () => {
    documents.set('/inner.json', metadata('/inner.json'));
    for (const id of [`${hostUrl}/inner.json`, `https://localhost:${port()}/inner.json`, `https://[::ffff:127.0.0.1]:${port()}/inner.json`, `https://127.1:${port()}/inner.json`, 'https://127.0.0.1:9/closed.json']) {
      const r = await authorize(pub.url, id);
      expect(r.status, id).toBe(400);
      expect(r.body, id).toMatchObject({ error: 'invalid_client' });
      expect(r.body!.error_description, id).toBe(refusal(id));
    }
  });

  it('a private, link-local or unique-local address, even on a deck that may reach loopback', async () => {
    for (const id of ['https://10.0.0.1/client.json', 'https://169.254.169.254/latest/meta-data/client.json', 'https://[fd00::1]/client.json', 'https://[::ffff:192.168.0.1]/client.json', 'https://100.64.0.1/client.json']) {
      for (const on of [pub.url, deck.url]) {
        const r = await authorize(on, id);
        expect(r.status, id).toBe(400);
        expect(r.body!.error_description, id).toBe(refusal(id));
      }
    }
  });
});
