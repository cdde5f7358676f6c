import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What an app's redirect URI received: the query the deck sent the browser back with. */
export type Returned = URLSearchParams;

/**
 * An app's redirect URI: a local HTTP listener that takes each redirect the browser makes to it, as a native MCP
 * client listens on the loopback address for its code.
 */
export async function callbackServer(): Promise<{ url: string; next(): Promise<Returned>; close(): Promise<void> }> {
  const waiting: ((q: Returned) => void)[] = [];
  const arrived: Returned[] = [];
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    // Only the redirect counts: a browser also asks the page's origin for its icon.
    if (u.pathname !== '/callback') return void res.writeHead(404).end();
    const q = u.searchParams;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You may close this window.');
    const w = waiting.shift();
    if (w) w(q);
    else arrived.push(q);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => {
      const q = arrived.shift();
      return q ? Promise.resolve(q) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An MCP client's OAuth state, in memory: the SDK's client calls these as it discovers, registers and signs in. */
export class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  /** Where the SDK sent the person to consent. */
  authorizationUrl: URL | null = null;

  constructor(
    private readonly redirect: string,
    private readonly name: string,
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [this.redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }

  state = () => 'state-' + randomBytes(6).toString('hex');
  clientInformation = () => this.client;
  saveClientInformation = (c: OAuthClientInformationMixed) => void (this.client = c);
  tokens = () => this.saved;
  saveTokens = (t: OAuthTokens) => void (this.saved = t);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (v: string) => void (this.verifier = v);
  codeVerifier = () => this.verifier;
}

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A form POST, as OAuth's token and revocation endpoints take them: the status and the JSON answer. */
export async function form(url: string, fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
