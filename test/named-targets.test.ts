import { createServer, type Server } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackAddress } from '../core/addresses.js';
import { NamedTargets, publicAddress, TargetRefused, type Resolve } from '../upstream/named-targets.js';
import { undici } from '../upstream/undici.js';
import { closedPort } from './fixtures/rpc.js';

// The one way to every URL a person names: the addresses a host resolves to are judged where the connection is made,
// and the connection goes to the addresses judged. The servers here are real, on loopback; a resolver handed in
// stands for DNS, so a name can answer one address now and another a moment later.

/** A loopback server counting the connections made to it; `redirect` answers 302 to another place. */
async function counting(answer: 'ok' | 'redirect' = 'ok'): Promise<{ url: string; port: number; connections: number; server: Server }> {
  const server = createServer((_req, res) => {
    if (answer === 'redirect') return void res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  const it = { url: '', port: 0, connections: 0, server };
  server.on('connection', () => void it.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  it.port = (server.address() as AddressInfo).port;
  it.url = `http://127.0.0.1:${it.port}`;
  return it;
}

/** A resolver that answers each name from `answers`, in turn (the last one again once they run out), counting the asks. */
function resolver(answers: Record<string, string[][]>): Resolve & { asked: string[] } {
  const asked: string[] = [];
  const resolve = (async (host: string): Promise<LookupAddress[]> => {
    asked.push(host);
    const turns = answers[host];
    if (!turns) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    const seen = asked.filter((h) => h === host).length;
    return turns[Math.min(seen, turns.length) - 1]!.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  }) as Resolve & { asked: string[] };
  resolve.asked = asked;
  return resolve;
}

async function get(targets: NamedTargets, url: string): Promise<{ status: number } | { refused: string }> {
  try {
    const res = await (await undici()).request(url, { dispatcher: await targets.dispatcher() });
    await res.body.dump();
    return { status: res.statusCode };
  } catch (error) {
    return { refused: `${(error as Error).constructor.name}: ${(error as Error).message}` };
  }
}

let open: Awaited<ReturnType<typeof counting>>;
let redirecting: Awaited<ReturnType<typeof counting>>;
const made: NamedTargets[] = [];
const targets = (loopback: boolean, resolve?: Resolve) => {
  const t = new NamedTargets(loopback, resolve);
  made.push(t);
  return t;
};

beforeAll(async () => {
  open = await counting();
  redirecting = await counting('redirect');
});
afterAll(async () => {
  await Promise.all(made.map(async (t) => (await t.dispatcher()).close()));
  for (const s of [open, redirecting]) {
    s.server.closeAllConnections();
    await new Promise((r) => s.server.close(r));
  }
});

describe('which addresses are public', () => {
  const inner = [
    // this network, loopback, broadcast, multicast
    '0.0.0.0', '0.1.2.3', '127.0.0.1', '127.8.0.1', '255.255.255.255', '224.0.0.1',
    // private, CGNAT, link-local (the cloud's metadata service), reserved and documentation
    '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '100.64.0.1', '100.127.255.254', '169.254.169.254', '192.0.2.1', '198.18.0.1', '240.0.0.1',
    // IPv6: loopback, unspecified, unique-local, link-local, site-local, multicast, documentation, Teredo, discard
    '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fec0::1', 'ff02::1', '2001:db8::1', '2001::1', '100::1',
    // IPv4 carried in IPv6: mapped, compatible, translated, NAT64 (well-known and local-use), 6to4
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::7f00:1', '::a00:1',
    '::ffff:0:7f00:1', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::808:808', '2002:7f00:1::1', '2002:a9fe:a9fe::1',
    // not an address at all
    'localhost', '',
  ];
  it.each(inner)('%s is not', (a) => expect(publicAddress(a)).toBe(false));

  const outer = ['8.8.8.8', '93.184.215.14', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:830::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'];
  it.each(outer)('%s is', (a) => expect(publicAddress(a)).toBe(true));

  it('loopback is 127.0.0.0/8, ::1 and 127.0.0.0/8 mapped into IPv6; nothing else', () => {
    for (const a of ['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1']) expect(loopbackAddress(a), a).toBe(true);
    for (const a of ['0.0.0.0', '::', '10.0.0.1', '169.254.169.254', '::7f00:1', 'fe80::1', '8.8.8.8']) expect(loopbackAddress(a), a).toBe(false);
  });
});

describe('a connection to a URL a person named', () => {
  it('is refused before any connection to a loopback address, open port or closed, in the same words', async () => {
    const t = targets(false);
    const closed = await closedPort();
    const before = open.connections;
    const answers = await Promise.all([open.url, closed, `http://localhost:${open.port}`, `http://[::ffff:127.0.0.1]:${open.port}`].map((u) => get(t, u)));
    expect(answers[0]).toEqual({ refused: 'TargetRefused: 127.0.0.1 is not a public address the deck may reach (a name must resolve, and only to public addresses)' });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual({ refused: 'TargetRefused: localhost is not a public address the deck may reach (a name must resolve, and only to public addresses)' });
    expect(answers[3]).toEqual({ refused: 'TargetRefused: [::ffff:7f00:1] is not a public address the deck may reach (a name must resolve, and only to public addresses)' });
    expect(open.connections).toBe(before);
  });

  it('goes to the address it checked, resolving the name once: no second look-up to answer otherwise', async () => {
    const resolve = resolver({ 'decide.test': [['127.0.0.1']] });
    const t = targets(true, resolve);
    expect(await get(t, `http://decide.test:${open.port}/decide`)).toEqual({ status: 200 });
    expect(resolve.asked).toEqual(['decide.test']);
  });

  it('refuses a name that answered a public address when it was registered and a loopback one when called, and connects nowhere', async () => {
    const resolve = resolver({ 'rebind.test': [['93.184.215.14'], ['127.0.0.1']] });
    const t = targets(false, resolve);
    expect(await t.addresses('rebind.test')).toEqual([{ address: '93.184.215.14', family: 4 }]);
    const before = open.connections;
    expect(await get(t, `http://rebind.test:${open.port}/decide`)).toEqual({ refused: expect.stringContaining('TargetRefused: rebind.test is not a public address') });
    expect(open.connections).toBe(before);
  });

  it('refuses a name with one inner address among public ones, and a name that resolves to nothing, in the same words', async () => {
    const t = targets(false, resolver({ 'mixed.test': [['93.184.215.14', '10.0.0.7']] }));
    for (const host of ['mixed.test', 'nothing.test']) {
      await expect(t.addresses(host)).rejects.toThrow(new TargetRefused(host));
    }
  });

  it('with loopback allowed, still refuses every other inner address', async () => {
    const t = targets(true, resolver({ 'inner.test': [['10.1.2.3']], 'both.test': [['127.0.0.1', '192.168.0.9']] }));
    for (const host of ['10.0.0.1', '169.254.169.254', '[fd00::1]', '[::ffff:10.0.0.1]', '0.0.0.0', 'inner.test', 'both.test']) {
      await expect(t.addresses(host), host).rejects.toBeInstanceOf(TargetRefused);
    }
    expect(await t.isLoopback('127.0.0.1')).toBe(true);
  });

  it('never follows a redirect', async () => {
    const t = targets(true);
    expect(await get(t, redirecting.url)).toEqual({ status: 302 });
  });
});
