import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { loopbackAddress } from '../core/addresses.js';
import { PROJECT_ROOT } from './root.js';

// Every knob the deck reads from its environment, parsed once at start. An unset upstream URL means
// "not configured": the routes behind it answer 503 and say which variable to set.
const url = z.string().url();
const list = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean));
const count = z.coerce.number().int().nonnegative();
/** A file under version control: found at the project root unless the variable names another (from the working directory). */
const kept = (path: string) => z.string().default(join(PROJECT_ROOT, path));

/** express's names for address ranges, usable among the proxies' addresses. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, a subnet (address/prefix) or one of express's range names. */
function isProxyAddress(entry: string): boolean {
  if (RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...more] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || more.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies in front of the deck are trusted to say who the client is (X-Forwarded-For, X-Forwarded-Proto), as
 * express's `trust proxy` takes it: off (the default: the socket's address is the client, whatever the headers say),
 * a hop count, or the proxies' addresses and subnets. `true` (trust any sender) is refused: anyone could then pick
 * their own address and escape every per-client limit.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((raw, ctx): false | number | string[] => {
    if (raw === '' || raw === 'off' || raw === 'false') return false;
    if (/^\d+$/.test(raw)) return Number(raw) === 0 ? false : Number(raw);
    if (raw === 'true') {
      ctx.addIssue({ code: 'custom', message: 'true would believe any sender about its own address: give a hop count or the proxies\' addresses' });
      return z.NEVER;
    }
    const entries = raw.split(',').map((x) => x.trim()).filter(Boolean);
    const bad = entries.filter((x) => !isProxyAddress(x));
    if (entries.length === 0 || bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `${bad.length ? `not an address or subnet: ${bad.join(', ')}; ` : ''}give off, a hop count, or the proxies' addresses and subnets (loopback, linklocal and uniquelocal name ranges)`,
      });
      return z.NEVER;
    }
    return entries;
  });

/** DECK_TAPE_URL naming a crypto exchange through ccxt (ccxt:binance); the name is checked against ccxt's list at start. */
const CCXT_TAPE = /^ccxt:(.+)$/;

/** The venue's open tape: an http(s) URL, or ccxt:<exchange>. */
const tapeUrl = z
  .string()
  .refine((s) => CCXT_TAPE.test(s) || url.safeParse(s).success, "the venue's open tape (an http(s) URL) or ccxt:<exchange> (ccxt:binance, ccxt:kraken, ...)");

/** A host only this machine's own programs reach: its loopback address or name. */
const isLoopback = (host: string) => host === 'localhost' || loopbackAddress(host.replace(/^\[(.*)\]$/, '$1'));

const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('127.0.0.1'),
    DECK_DATA: z.string().default('./data'),
    DECK_DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, 'a PostgreSQL URL: postgres://user:password@host:5432/database')
      .optional(),
    DECK_PUBLIC_URL: url.optional(),
    DECK_JOIN_URL: url.optional(),
    DECK_ORIGINS: list.optional(),
    DECK_TRUST_PROXY: trustProxy.default(false),
    DECK_KEY_PREFIX: z.string().regex(/^[a-z0-9_]{3,24}$/, 'lower-case letters, digits and _ (3 to 24)').default('deck_live_'),
    DECK_JOIN_PER_CLIENT: count.default(3),
    DECK_JOIN_PER_DAY: count.default(500),
    DECK_LOGIN_REFUSALS: count.default(10),
    DECK_LOGIN_WINDOW_S: count.default(300),
    DECK_SESSION_HOURS: z.coerce.number().positive().default(12),
    DECK_OAUTH_CLIENTS: z.coerce.number().int().min(1).default(10_000),
    DECK_RESERVED_NAMES: list.optional(),
    DECK_GRANTS: kept('config/grants.json'),
    DECK_PLANS: kept('config/plans.json'),
    DECK_CARDS: kept('config/cards.json'),
    DECK_REGISTER: kept('config/register.json'),
    DECK_TREASURY: z.string().regex(/^0x[0-9a-fA-F]{40}$/).optional(),
    DECK_DOOR_URL: url.optional(),
    DECK_DOOR_TOKEN: z.string().optional(),
    DECK_SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/\S+$/, 'an SMTP URL: smtp://user@host:587 (STARTTLS when offered) or smtps://user@host:465 (TLS)')
      .optional(),
    DECK_SMTP_PASSWORD: z.string().min(1).optional(),
    DECK_EMAIL_FROM: z.string().regex(/^[^\s@<>]+@[^\s@<>]+$|^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/, 'an address, or a name and <address>').optional(),
    DECK_X_CLIENT_ID: z.string().min(1).optional(),
    DECK_X_CLIENT_SECRET: z.string().min(1).optional(),
    DECK_X_AUTHORIZE_URL: url.default('https://x.com/i/oauth2/authorize'),
    DECK_X_TOKEN_URL: url.default('https://api.x.com/2/oauth2/token'),
    DECK_X_API_URL: url.default('https://api.x.com'),
    DECK_TAPE_URL: tapeUrl.optional(),
    DECK_CCXT_API_URL: url.optional(),
    DECK_SAMPLE_TAPE: z.enum(['on', 'off']).default('on'),
    DECK_COORD_URL: url.optional(),
    DECK_COORD_KEY: z.string().optional(),
    DECK_GRADER_URL: url.optional(),
    DECK_GRADER_KEY: z.string().optional(),
    DECK_GRADER_MODEL: z.string().min(1).max(200).default('gpt-4o-mini'),
    DECK_GRADER_TRIAL_PINGS: count.default(3),
    DECK_READER_URL: url.optional(),
    DECK_READER_KEY: z.string().optional(),
    DECK_READER_MODEL: z.string().min(1).max(200).default('gpt-4o-mini'),
    DECK_CHAT_URL: url.optional(),
    DECK_CHAT_KEY: z.string().optional(),
    DECK_CHAT_MODEL: z.string().min(1).max(200).optional(),
    DECK_CHAT_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
    DECK_CHAT_LANE: z.coerce.number().int().min(1).max(1000).default(8),
    DECK_CHAT_TIMEOUT_S: z.coerce.number().int().min(1).max(600).default(60),
    DECK_WORKERS: z.coerce.number().int().min(0).max(256).optional(),
    DECK_WORK_LANE: z.coerce.number().int().min(1).max(1000).default(4),
    DECK_WORK_QUEUE: z.coerce.number().int().min(1).max(100_000).default(64),
    DECK_METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
    DECK_CHAIN_RPC: url.optional(),
    DECK_X402_FACILITATOR: url.optional(),
    DECK_FORECAST_URL: url.optional(),
    DECK_FORECASTER: z.enum(['in-process', 'off']).default('in-process'),
    DECK_ERC8004_CHAIN_ID: z.coerce.number().int().positive().optional(),
    DECK_ERC8004_REGISTRY: z.string().regex(/^0x[0-9a-fA-F]{40}$/).optional(),
    DECK_ERC8004_REPUTATION: z.string().regex(/^0x[0-9a-fA-F]{40}$/).optional(),
    DECK_LOG: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
    DECK_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(1000),
    DECK_HEADERS_TIMEOUT_S: z.coerce.number().positive().max(600).default(20),
    DECK_REQUEST_TIMEOUT_S: z.coerce.number().positive().max(3600).default(60),
    DECK_KEEPALIVE_TIMEOUT_S: z.coerce.number().positive().max(3600).default(65),
    DECK_LOOPBACK_TARGETS: z.enum(['0', '1']).default('0'),
    // Renamed when it came to cover every URL a person names: a deck still given it says so rather than refusing its models.
    DECK_AGENT_LOOPBACK: z.never({ error: 'renamed DECK_LOOPBACK_TARGETS (it now covers every URL a person names)' }).optional(),
    DECK_AGENT_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(2000),
    DECK_CHECK_OUTPUT: z.enum(['0', '1']).default('0'),
    DECK_PROFILE: z.enum(['standard', 'local']).default('standard'),
  })
  .refine((e) => e.DECK_HEADERS_TIMEOUT_S <= e.DECK_REQUEST_TIMEOUT_S, {
    path: ['DECK_HEADERS_TIMEOUT_S'],
    message: 'at most DECK_REQUEST_TIMEOUT_S (the headers are part of the request)',
  })
  .superRefine((e, ctx) => {
    // The local profile lifts limits that keep strangers from minting principals and forges: it stands only for a
    // deck no one else can reach. Asked for anywhere else, the deck does not start.
    if (e.DECK_PROFILE !== 'local') return;
    const reached = [
      !isLoopback(e.HOST) && `HOST is ${e.HOST}, not loopback`,
      e.DECK_TRUST_PROXY !== false && 'DECK_TRUST_PROXY says a proxy in front of it passes on other clients',
      e.DECK_PUBLIC_URL && URL.canParse(e.DECK_PUBLIC_URL) && !isLoopback(new URL(e.DECK_PUBLIC_URL).hostname) && `DECK_PUBLIC_URL is ${e.DECK_PUBLIC_URL}, reached from elsewhere`,
    ].filter((why): why is string => typeof why === 'string');
    if (reached.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['DECK_PROFILE'],
        message: `local lifts the per-client join limit and the free tier's daily forges, for a deck only its own machine reaches: ${reached.join('; ')}. Listen on 127.0.0.1 or ::1 with no proxy, or leave DECK_PROFILE unset`,
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

const HOUSE_NAMES = [
  'house', 'deck', 'admin', 'administrator', 'root', 'system', 'operator', 'support', 'staff', 'official',
  'studio', 'candles', 'copy', 'mcp', 'api', 'join', 'login', 'logout', 'me', 'null', 'undefined',
];

/** How many connections the HTTP server holds, and how long it waits on each (milliseconds). */
export interface HttpLimits {
  /** Connections held at once; one more is closed as it opens. */
  maxConnections: number;
  /** From a connection's start (or the end of its last answer) to the end of its request's headers. */
  headersTimeoutMs: number;
  /** From a request's start to the end of its body. */
  requestTimeoutMs: number;
  /** An idle connection between requests. */
  keepAliveTimeoutMs: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** The PostgreSQL database the store is kept in, shared by every deck given it; null: JSON files under dataDir. */
  databaseUrl: string | null;
  /** Public base URL, as people and agents reach the deck; used in cards, the join step and cookies. */
  publicUrl: string | null;
  joinUrl: string | null;
  origins: string[] | null;
  /** express's `trust proxy`: false (the socket's address is the client), a hop count, or the trusted proxies. */
  trustProxy: false | number | string[];
  keyPrefix: string;
  /** Principals minted per salted client address per UTC day; null: no such limit (the local profile). */
  joinPerClient: number | null;
  joinPerDay: number;
  loginRefusals: number;
  loginWindowS: number;
  sessionHours: number;
  /** OAuth client registrations kept at most (dynamic registration, RFC 7591). */
  oauthClients: number;
  reservedNames: ReadonlySet<string>;
  files: { grants: string; plans: string; cards: string; register: string };
  treasury: string | null;
  door: { url: string; token: string | null } | null;
  /**
   * The email door: sign-in codes and links sent over SMTP (the password, from DECK_SMTP_PASSWORD or the URL, is a
   * secret: never logged). null: not configured, nothing is ever sent.
   */
  email: { smtpUrl: string; password: string | null; from: string } | null;
  /** The X door: OAuth 2.0 with PKCE at X's endpoints (the secret, for a confidential client, is never logged). */
  x: { clientId: string; clientSecret: string | null; authorizeUrl: string; tokenUrl: string; apiUrl: string } | null;
  tapeUrl: string | null;
  /**
   * DECK_TAPE_URL=ccxt:<exchange>: the exchange's keyless public OHLCV through ccxt, and where its API is asked
   * instead of the exchange's own hosts (DECK_CCXT_API_URL: a proxy, or a local server in tests); null otherwise.
   */
  ccxt: { exchange: string; apiUrl: string | null } | null;
  /** With no venue, an empty archive is seeded at start from the sample of real candles shipped in tape/sample/. */
  sampleTape: boolean;
  coord: { url: string; key: string | null } | null;
  /** The grader lane and the model asked there; the key is the house's, used for house, plan and trial funding. */
  grader: { url: string; key: string | null; model: string } | null;
  /** Grader decisions a free-tier principal may spend on the house key, in all. */
  graderTrialPings: number;
  /** The model reader lane and the model asked there; the key, when set, is the house's and sent as the bearer. */
  reader: { url: string; key: string | null; model: string } | null;
  /** The chat lane (OpenAI-compatible): configured when both its URL and its model are; the key is sent as the bearer when set. */
  chat: { url: string; key: string | null; model: string; timeoutS: number } | null;
  /** The chat lane's fair queue: calls at once for everyone, and calls one principal's lane holds. */
  chatQueue: { concurrency: number; lane: number };
  /** The work pool: its threads (0: the event loop), jobs one principal's lane holds, and jobs all lanes hold. */
  work: { threads: number; lane: number; held: number };
  /** A bearer that opens GET /metrics besides the house and loopback; null: none. */
  metricsToken: string | null;
  chainRpc: string | null;
  /** The x402 facilitator (its /verify, /settle and /supported) that per-call payments settle through; null: x402 is off. */
  x402Facilitator: string | null;
  forecastUrl: string | null;
  /** 'off' disables the in-process forecaster (an HTTP sidecar at forecastUrl still serves). */
  forecaster: Env['DECK_FORECASTER'];
  /** The ERC-8004 registries: the identity registry the cards name, and the reputation registry finished epochs' feedback is for. */
  erc8004: { chainId: number | null; registry: string | null; reputation: string | null };
  log: Env['DECK_LOG'];
  /** The HTTP server's bounds on its connections (rest/http-server.ts). */
  http: HttpLimits;
  /**
   * Whether the URLs people name (a model's decide(), an OAuth client's metadata document) may reach this machine's
   * loopback, over plain HTTP too: off unless an operator says so (DECK_LOOPBACK_TARGETS=1). Nothing else inner, ever.
   */
  loopbackTargets: boolean;
  /** The agent rail: how often live runs look for new bars. */
  agent: { pollMs: number };
  /** Every answer is held to its tool's output schema: one that drifts is a 500 and a logged output_drift (tests run so). */
  checkOutput: boolean;
  /**
   * local (DECK_PROFILE=local, a deck listening on loopback only): no per-client join limit and no daily count of the
   * free tier's forges, so one person can try the deck at length on their own machine; standard otherwise.
   */
  profile: Env['DECK_PROFILE'];
}

/** Reads the environment; throws one error naming every bad variable. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`bad configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  // A door half configured would send nothing and say nothing: it fails start-up naming what is missing.
  const half = [
    e.DECK_SMTP_URL && !e.DECK_EMAIL_FROM && 'DECK_EMAIL_FROM: the sender of sign-in mails, needed with DECK_SMTP_URL',
    !e.DECK_SMTP_URL && e.DECK_EMAIL_FROM && 'DECK_SMTP_URL: the SMTP server sign-in mails go through, needed with DECK_EMAIL_FROM',
    !e.DECK_X_CLIENT_ID && e.DECK_X_CLIENT_SECRET && 'DECK_X_CLIENT_ID: the X app\'s client id, needed with DECK_X_CLIENT_SECRET',
  ].filter((x): x is string => typeof x === 'string');
  if (half.length) throw new Error(`bad configuration:\n  ${half.join('\n  ')}`);
  const exchange = CCXT_TAPE.exec(e.DECK_TAPE_URL ?? '')?.[1];
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DECK_DATA,
    databaseUrl: e.DECK_DATABASE_URL ?? null,
    publicUrl: e.DECK_PUBLIC_URL?.replace(/\/$/, '') ?? null,
    joinUrl: e.DECK_JOIN_URL ?? null,
    origins: e.DECK_ORIGINS ?? null,
    trustProxy: e.DECK_TRUST_PROXY,
    keyPrefix: e.DECK_KEY_PREFIX,
    joinPerClient: e.DECK_PROFILE === 'local' ? null : e.DECK_JOIN_PER_CLIENT,
    joinPerDay: e.DECK_JOIN_PER_DAY,
    loginRefusals: e.DECK_LOGIN_REFUSALS,
    loginWindowS: e.DECK_LOGIN_WINDOW_S,
    sessionHours: e.DECK_SESSION_HOURS,
    oauthClients: e.DECK_OAUTH_CLIENTS,
    reservedNames: new Set(e.DECK_RESERVED_NAMES ?? HOUSE_NAMES),
    files: { grants: e.DECK_GRANTS, plans: e.DECK_PLANS, cards: e.DECK_CARDS, register: e.DECK_REGISTER },
    treasury: e.DECK_TREASURY ?? null,
    door: e.DECK_DOOR_URL ? { url: e.DECK_DOOR_URL, token: e.DECK_DOOR_TOKEN ?? null } : null,
    email: e.DECK_SMTP_URL && e.DECK_EMAIL_FROM ? { smtpUrl: e.DECK_SMTP_URL, password: e.DECK_SMTP_PASSWORD ?? null, from: e.DECK_EMAIL_FROM } : null,
    x: e.DECK_X_CLIENT_ID
      ? { clientId: e.DECK_X_CLIENT_ID, clientSecret: e.DECK_X_CLIENT_SECRET ?? null, authorizeUrl: e.DECK_X_AUTHORIZE_URL, tokenUrl: e.DECK_X_TOKEN_URL, apiUrl: e.DECK_X_API_URL }
      : null,
    tapeUrl: e.DECK_TAPE_URL ?? null,
    ccxt: exchange ? { exchange, apiUrl: e.DECK_CCXT_API_URL ?? null } : null,
    sampleTape: e.DECK_SAMPLE_TAPE === 'on',
    coord: e.DECK_COORD_URL ? { url: e.DECK_COORD_URL, key: e.DECK_COORD_KEY ?? null } : null,
    grader: e.DECK_GRADER_URL ? { url: e.DECK_GRADER_URL, key: e.DECK_GRADER_KEY ?? null, model: e.DECK_GRADER_MODEL } : null,
    graderTrialPings: e.DECK_GRADER_TRIAL_PINGS,
    reader: e.DECK_READER_URL ? { url: e.DECK_READER_URL, key: e.DECK_READER_KEY ?? null, model: e.DECK_READER_MODEL } : null,
    chat: e.DECK_CHAT_URL && e.DECK_CHAT_MODEL ? { url: e.DECK_CHAT_URL, key: e.DECK_CHAT_KEY ?? null, model: e.DECK_CHAT_MODEL, timeoutS: e.DECK_CHAT_TIMEOUT_S } : null,
    chatQueue: { concurrency: e.DECK_CHAT_CONCURRENCY, lane: e.DECK_CHAT_LANE },
    // One thread a core; a deck with one core keeps its work on the loop, where a thread would only add hand-offs.
    work: { threads: e.DECK_WORKERS ?? (availableParallelism() > 1 ? availableParallelism() : 0), lane: e.DECK_WORK_LANE, held: e.DECK_WORK_QUEUE },
    metricsToken: e.DECK_METRICS_TOKEN ?? null,
    chainRpc: e.DECK_CHAIN_RPC ?? null,
    x402Facilitator: e.DECK_X402_FACILITATOR ?? null,
    forecastUrl: e.DECK_FORECAST_URL ?? null,
    forecaster: e.DECK_FORECASTER,
    erc8004: { chainId: e.DECK_ERC8004_CHAIN_ID ?? null, registry: e.DECK_ERC8004_REGISTRY ?? null, reputation: e.DECK_ERC8004_REPUTATION ?? null },
    log: e.DECK_LOG,
    http: {
      maxConnections: e.DECK_MAX_CONNECTIONS,
      headersTimeoutMs: e.DECK_HEADERS_TIMEOUT_S * 1000,
      requestTimeoutMs: e.DECK_REQUEST_TIMEOUT_S * 1000,
      keepAliveTimeoutMs: e.DECK_KEEPALIVE_TIMEOUT_S * 1000,
    },
    loopbackTargets: e.DECK_LOOPBACK_TARGETS === '1',
    agent: { pollMs: e.DECK_AGENT_POLL_MS },
    checkOutput: e.DECK_CHECK_OUTPUT === '1',
    profile: e.DECK_PROFILE,
  };
}
