import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { buildConnector, Dispatcher } from 'undici';
import { loopbackAddress } from '../core/addresses.js';
import { undici } from './undici.js';

/**
 * The one refusal of a URL a person named (a model's decide(), an OAuth client's metadata document) that the deck may
 * not reach. Every reason (a loopback, private or link-local address, written out or in an IPv6 form, a name resolving
 * to one, a name resolving to nothing) reads the same, and the refusal comes before any connection is tried, so it
 * says nothing of the deck's own machine or network: which names it has, which ports are open.
 */
export class TargetRefused extends Error {
  readonly code = 'ETARGETREFUSED';
  constructor(host: string) {
    // Named as a URL names it, an IPv6 address in brackets, however it was handed in.
    const bare = unbracketed(host);
    super(`${isIP(bare) === 6 ? `[${bare}]` : bare} is not a public address the deck may reach (a name must resolve, and only to public addresses)`);
  }
}

const unbracketed = (host: string): string => host.replace(/^\[|\]$/g, '');

/** Resolves a name to every address it has, as dns.lookup with `all` does. */
export type Resolve = (host: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (error, found) => (error ? reject(error) : resolve(found))));

/** An IPv4 address anyone on the internet may reach: not this network, loopback, private, CGNAT, link-local, reserved, multicast. */
const publicV4 = (a: ipaddr.IPv4): boolean => a.range() === 'unicast';

/** Global unicast, 2000::/3: every other IPv6 address is this machine's, a local network's, or not an address to call. */
const GLOBAL_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * Whether an address is public. IPv6 forms that carry an IPv4 address are judged by it: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d, ::1 and :: among them), the well-known NAT64 prefix (64:ff9b::/96) and 6to4
 * (2002::/16). Any other IPv6 address is public only in global unicast and outside its special ranges (so not
 * loopback, unspecified, unique-local, link-local, site-local, multicast, Teredo, documentation, discard, NAT64's
 * local-use prefix, benchmarking, ORCHID).
 */
export function publicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return publicV4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const bytes = v6.toByteArray();
  const carried = (from: number) => new ipaddr.IPv4(bytes.slice(from, from + 4));
  if (bytes.slice(0, 12).every((b) => b === 0)) return publicV4(carried(12));
  switch (v6.range()) {
    case 'ipv4Mapped':
      return publicV4(carried(12));
    case 'rfc6052':
      // Only the well-known prefix carries a public IPv4 address in its last four bytes; the local-use one is local.
      return v6.parts[1] === 0xff9b && v6.parts.slice(2, 6).every((p) => p === 0) && publicV4(carried(12));
    case '6to4':
      return publicV4(carried(2));
    case 'unicast':
      return v6.match(GLOBAL_V6);
    default:
      return false;
  }
}

/**
 * Every outbound URL a person names goes through here. The host is resolved once, by the connection itself (undici's
 * connector, given this lookup): every address it resolves to must be public, and the connection is made to the
 * addresses that were checked, so a name that answers differently a moment later gains nothing. A host written as an
 * address is checked where the connection is made too. Redirects are never followed (undici's request does not), so
 * an answer cannot send the deck on to another host. `loopbackAllowed` (DECK_LOOPBACK_TARGETS=1, off unless an
 * operator sets it) lets such URLs reach this machine's loopback too, and nothing more: a deck whose models run beside
 * it, and the tests' local fixtures. Private, link-local and every other inner address stay refused.
 */
export class NamedTargets {
  private agent: Promise<Dispatcher> | null = null;

  constructor(
    readonly loopbackAllowed: boolean,
    private readonly resolve: Resolve = systemResolve,
  ) {}

  private allowed(address: string): boolean {
    return publicAddress(address) || (this.loopbackAllowed && loopbackAddress(address));
  }

  /**
   * The addresses a host resolves to (a host written as an address is its own), refused (TargetRefused) unless every
   * one may be reached. A name that does not resolve is refused in the same words.
   */
  async addresses(host: string): Promise<LookupAddress[]> {
    const bare = unbracketed(host);
    const family = isIP(bare);
    let found: LookupAddress[];
    try {
      found = family ? [{ address: bare, family }] : await this.resolve(bare);
    } catch {
      throw new TargetRefused(host);
    }
    if (found.length === 0 || !found.every((a) => this.allowed(a.address))) throw new TargetRefused(host);
    return found;
  }

  /** Whether a host is this machine (every address loopback): only ever when loopback is allowed. TargetRefused else. */
  async isLoopback(host: string): Promise<boolean> {
    return (await this.addresses(host)).every((a) => loopbackAddress(a.address));
  }

  /** The dispatcher every request to a named URL goes through: one pool, kept alive for the decide() calls of a run. */
  dispatcher(): Promise<Dispatcher> {
    return (this.agent ??= undici().then((u) => new u.Agent({ keepAliveTimeout: 10_000, connections: 64, connect: this.connector(u.buildConnector) })));
  }

  /** undici's own connector, its look-up this one, and a host written as an address checked before it connects. */
  private connector(build: typeof buildConnector): buildConnector.connector {
    const lookup: LookupFunction = (hostname, options, callback) => {
      this.addresses(hostname).then(
        (found) => {
          if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, found);
          else callback(null, found[0]!.address, found[0]!.family);
        },
        (error: Error) => callback(error, '', 0),
      );
    };
    const connect = build({ lookup });
    return (options, callback) => {
      // Node calls no look-up for a host that is an address: it is checked here, before any connection.
      const host = unbracketed(options.hostname);
      if (isIP(host) && !this.allowed(host)) return void queueMicrotask(() => callback(new TargetRefused(options.hostname), null));
      return connect(options, callback);
    };
  }
}
