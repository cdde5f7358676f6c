import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Dispatcher } from 'undici';
import { undici } from '../undici.js';

/** The largest client metadata document the deck reads: the draft's recommended cap. */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
const TIMEOUT_MS = 5000;

/**
 * Addresses a client metadata document is never fetched from unless the deck itself is a local one: a client id is
 * a URL anyone may name, and without this the deck could be made to reach its own host or network.
 */
const INNER = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.168.0.0', 16], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) INNER.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['::ffff:0:0', 96]] as const) INNER.addSubnet(net, prefix, 'ipv6');

const inner = (address: string): boolean => INNER.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** Why a fetch was refused or failed, in words for the authorization page's error. */
export class ClientMetadataUnavailable extends Error {}

/**
 * Fetches OAuth Client ID Metadata Documents (the client id is the https URL of its own metadata), with undici:
 * no redirects, 5 s, at most 5 KiB, and, unless `local`, never from a loopback, private or link-local address (the
 * address is checked where the connection is made, so a name that changes its answer between look-ups gains nothing).
 */
export class ClientMetadataFetcher {
  private dispatcher: Promise<Dispatcher> | null = null;

  constructor(private readonly local: boolean) {}

  async fetch(url: URL): Promise<unknown> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.local && isIP(host) && inner(host)) throw new ClientMetadataUnavailable(`${url.host} is not a public address`);
    const { request } = await undici();
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        dispatcher: await this.agent(),
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
    } catch (error) {
      throw new ClientMetadataUnavailable(`it could not be fetched: ${(error as Error).message}`);
    }
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new ClientMetadataUnavailable(`it answered HTTP ${res.statusCode}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > CLIENT_METADATA_MAX_BYTES) {
        res.body.destroy();
        throw new ClientMetadataUnavailable(`it is over ${CLIENT_METADATA_MAX_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    } catch {
      throw new ClientMetadataUnavailable('it is not JSON');
    }
  }

  private agent(): Promise<Dispatcher> {
    return (this.dispatcher ??= undici().then(({ Agent }) => new Agent({ connect: this.local ? {} : { lookup: publicOnly } })));
  }
}

/** A DNS look-up that fails for names resolving to an address the deck must not reach. */
const publicOnly: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, found) => {
    if (error) return callback(error, '', 0);
    const addresses = (found as LookupAddress[]).filter((a) => !inner(a.address));
    if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} resolves to no public address`), { code: 'ENOTFOUND' }), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
