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
// app's host is a local https server with a certificate made for this run, which the deck trusts (NODE_EXTRA_CA_CERTS).

let dir: string;
let host: Server;
let hostUrl: string;
let deck: SpawnedDeck;
let app: Awaited<ReturnType<typeof callbackServer>>;
/** The documents the app's host serves, by path. */
const documents = new Map<string, unknown>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'deck-cimd-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  host = createServer({ key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) }, (req, res) => {
    const doc = documents.get(req.url ?? '');
    if (doc === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(typeof doc === 'string' ? doc : JSON.stringify(doc));
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `https://127.0.0.1:${(host.address() as AddressInfo).port}`;
  app = await callbackServer();
  deck = await spawnDeck({ DECK_DATA: join(dir, 'data'), NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem'), DECK_JOIN_PER_CLIENT: '100' });
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

describe('a deck on a public address', () => {
  let pub: TestDeck;
  beforeAll(async () => {
    pub = await testDeck({ DECK_PUBLIC_URL: 'https://deck.example' });
  });
  afterAll(() => pub.stop());

  it('never fetches a client metadata document from a loopback or private address', async () => {
    documents.set('/inner.json', metadata('/inner.json'));
    const local = `http://127.0.0.1:${(pub.server.address() as AddressInfo).port}`;
    const r = await authorize(local, `${hostUrl}/inner.json`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_client' });
    expect(r.body!.error_description).toMatch(/not a public address/);
  });
});
