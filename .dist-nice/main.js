import {
  worker_exports
} from "./chunks/chunk-BISE4HFW.js";
import {
  Accounts,
  Authorizations,
  BookStore,
  CandleRowSchema,
  ClientMetadataFetcher,
  DECK_ENDPOINT,
  DEFAULT_TOOLSETS,
  DeckError,
  EventStream,
  FINER,
  FileTapeDays,
  Grades,
  Guards,
  HOUSE_WIDE,
  HandshakeAnswer,
  HandshakeOpened,
  INVALID_PARAMS,
  INVALID_REQUEST,
  JsonBytes,
  JsonShape,
  KEY_REQUIRED,
  LEGACY_REQUESTS,
  LoginThrottle,
  Mandates,
  Models,
  NamedTargets,
  Owned,
  PARSE_ERROR,
  PROJECT_ROOT,
  Plane,
  PoolQuoteAnswer,
  REGISTRY,
  REQUEST_TTL_MS,
  RESOURCE_NOT_FOUND,
  RPC_TIMEOUT_MS,
  Runs,
  SELLERS,
  SELLER_ENDPOINTS,
  SELLER_IDS,
  SESSION_COOKIE,
  SettleAnswer,
  SpendBook,
  Studio,
  TASK_TOOLS,
  TOOLSETS,
  TOOL_LISTING,
  TOOL_REQUESTS,
  TYPED_DECISION_VERSION,
  Tape,
  TapeArchive,
  TimeframeNotServed,
  UNKNOWN_TOOL,
  VENUE_TAPE,
  VenueTape,
  VenuesAnswer,
  WithImage,
  WithLinks,
  Written,
  X_TTL_MS,
  admitCredential,
  applyDecision,
  badInput,
  bookCosts,
  calibrate,
  callJson,
  callOnEndpoint,
  chainNumber,
  challengeOf,
  challenges,
  checkMessage,
  chooseToolsets,
  clientFor,
  countRefused,
  didNotAnswer,
  digest,
  endpointResources,
  exchangeCode,
  expectOk,
  idOf,
  internalFailure,
  isTapeOf,
  joinStep,
  lengthWords,
  limitReached,
  listedAs,
  listingOf,
  liveBook,
  loadCards,
  loadGrants,
  loadPlans,
  lockedBy,
  loopbackAddress,
  metadataUrl,
  meteredCandles,
  newKey,
  newState,
  noLoginWindows,
  notConfigured,
  notResting,
  openForecaster,
  outcomeOfStatus,
  pageOf,
  paidAs,
  perCallFor,
  perCallOf,
  pkceVerifier,
  positionView,
  priceOf,
  principalFrom,
  protectedResources,
  proved,
  publishCall,
  publishLockHeld,
  readDecision,
  refresh,
  refusalOf,
  refusedBy,
  registerClient,
  replayBook,
  replyJson,
  resample,
  resourceMetadata,
  resourceNamed,
  resting,
  resultJson,
  revoke,
  rpcError,
  rpcProvider,
  s256,
  sellerById,
  servedOn,
  signInFirst,
  stepBar,
  summaryOf,
  toHeader,
  toolsetsOf,
  treasuryOf,
  typicalSpacing,
  undici,
  unknownToolMessage,
  unreachable,
  upgradeRequired,
  verifyAccess,
  vouchedRuns,
  watched,
  writeAtomic,
  xKey
} from "./chunks/chunk-R4KNNXXK.js";
import {
  DEFAULT_OPTIONS,
  MARKETS,
  MARKET_SPECS,
  RuleReadingSchema,
  TIMEFRAMES,
  TIMEFRAME_SECONDS,
  barsToRows,
  citationProblems,
  isOpen,
  jsonOf,
  parseJsonBody,
  readBarsCsv,
  tuplesFromBars
} from "./chunks/chunk-3FLKLLHA.js";

// config/env.ts
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { z } from "zod";
var url = z.string().url();
var list = z.string().transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean));
var count = z.coerce.number().int().nonnegative();
var kept = (path) => z.string().default(join(PROJECT_ROOT, path));
var RANGE_NAMES = ["loopback", "linklocal", "uniquelocal"];
function isProxyAddress(entry) {
  if (RANGE_NAMES.includes(entry)) return true;
  const [address = "", prefix, ...more] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || more.length > 0) return false;
  if (prefix === void 0) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
var trustProxy = z.string().trim().transform((raw, ctx) => {
  if (raw === "" || raw === "off" || raw === "false") return false;
  if (/^\d+$/.test(raw)) return Number(raw) === 0 ? false : Number(raw);
  if (raw === "true") {
    ctx.addIssue({ code: "custom", message: "true would believe any sender about its own address: give a hop count or the proxies' addresses" });
    return z.NEVER;
  }
  const entries = raw.split(",").map((x) => x.trim()).filter(Boolean);
  const bad = entries.filter((x) => !isProxyAddress(x));
  if (entries.length === 0 || bad.length > 0) {
    ctx.addIssue({
      code: "custom",
      message: `${bad.length ? `not an address or subnet: ${bad.join(", ")}; ` : ""}give off, a hop count, or the proxies' addresses and subnets (loopback, linklocal and uniquelocal name ranges)`
    });
    return z.NEVER;
  }
  return entries;
});
var CCXT_TAPE = /^ccxt:(.+)$/;
var tapeUrl = z.string().refine((s) => CCXT_TAPE.test(s) || url.safeParse(s).success, "the venue's open tape (an http(s) URL) or ccxt:<exchange> (ccxt:binance, ccxt:kraken, ...)");
var isLoopback = (host) => host === "localhost" || loopbackAddress(host.replace(/^\[(.*)\]$/, "$1"));
var EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("127.0.0.1"),
  DECK_DATA: z.string().default("./data"),
  DECK_DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\/\S+$/, "a PostgreSQL URL: postgres://user:password@host:5432/database").optional(),
  DECK_PUBLIC_URL: url.optional(),
  DECK_JOIN_URL: url.optional(),
  DECK_ORIGINS: list.optional(),
  DECK_TRUST_PROXY: trustProxy.default(false),
  DECK_KEY_PREFIX: z.string().regex(/^[a-z0-9_]{3,24}$/, "lower-case letters, digits and _ (3 to 24)").default("deck_live_"),
  DECK_JOIN_PER_CLIENT: count.default(3),
  DECK_JOIN_PER_DAY: count.default(500),
  DECK_LOGIN_REFUSALS: count.default(10),
  DECK_LOGIN_WINDOW_S: count.default(300),
  DECK_SESSION_HOURS: z.coerce.number().positive().default(12),
  DECK_OAUTH_CLIENTS: z.coerce.number().int().min(1).default(1e4),
  DECK_RESERVED_NAMES: list.optional(),
  DECK_GRANTS: kept("config/grants.json"),
  DECK_PLANS: kept("config/plans.json"),
  DECK_CARDS: kept("config/cards.json"),
  DECK_REGISTER: kept("config/register.json"),
  DECK_TREASURY: z.string().regex(/^0x[0-9a-fA-F]{40}$/).optional(),
  DECK_DOOR_URL: url.optional(),
  DECK_DOOR_TOKEN: z.string().optional(),
  DECK_SMTP_URL: z.string().regex(/^smtps?:\/\/\S+$/, "an SMTP URL: smtp://user@host:587 (STARTTLS when offered) or smtps://user@host:465 (TLS)").optional(),
  DECK_SMTP_PASSWORD: z.string().min(1).optional(),
  DECK_EMAIL_FROM: z.string().regex(/^[^\s@<>]+@[^\s@<>]+$|^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/, "an address, or a name and <address>").optional(),
  DECK_X_CLIENT_ID: z.string().min(1).optional(),
  DECK_X_CLIENT_SECRET: z.string().min(1).optional(),
  DECK_X_AUTHORIZE_URL: url.default("https://x.com/i/oauth2/authorize"),
  DECK_X_TOKEN_URL: url.default("https://api.x.com/2/oauth2/token"),
  DECK_X_API_URL: url.default("https://api.x.com"),
  DECK_TAPE_URL: tapeUrl.optional(),
  DECK_CCXT_API_URL: url.optional(),
  DECK_SAMPLE_TAPE: z.enum(["on", "off"]).default("on"),
  DECK_COORD_URL: url.optional(),
  DECK_COORD_KEY: z.string().optional(),
  DECK_GRADER_URL: url.optional(),
  DECK_GRADER_KEY: z.string().optional(),
  DECK_GRADER_MODEL: z.string().min(1).max(200).default("gpt-4o-mini"),
  DECK_GRADER_TRIAL_PINGS: count.default(3),
  DECK_READER_URL: url.optional(),
  DECK_READER_KEY: z.string().optional(),
  DECK_READER_MODEL: z.string().min(1).max(200).default("gpt-4o-mini"),
  DECK_CHAT_URL: url.optional(),
  DECK_CHAT_KEY: z.string().optional(),
  DECK_CHAT_MODEL: z.string().min(1).max(200).optional(),
  DECK_CHAT_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  DECK_CHAT_LANE: z.coerce.number().int().min(1).max(1e3).default(8),
  DECK_CHAT_TIMEOUT_S: z.coerce.number().int().min(1).max(600).default(60),
  DECK_WORKERS: z.coerce.number().int().min(0).max(256).optional(),
  DECK_WORK_LANE: z.coerce.number().int().min(1).max(1e3).default(4),
  DECK_WORK_QUEUE: z.coerce.number().int().min(1).max(1e5).default(64),
  DECK_METRICS_TOKEN: z.string().min(16, "at least 16 characters").optional(),
  DECK_CHAIN_RPC: url.optional(),
  DECK_X402_FACILITATOR: url.optional(),
  DECK_FORECAST_URL: url.optional(),
  DECK_FORECASTER: z.enum(["in-process", "off"]).default("in-process"),
  DECK_ERC8004_CHAIN_ID: z.coerce.number().int().positive().optional(),
  DECK_ERC8004_REGISTRY: z.string().regex(/^0x[0-9a-fA-F]{40}$/).optional(),
  DECK_ERC8004_REPUTATION: z.string().regex(/^0x[0-9a-fA-F]{40}$/).optional(),
  DECK_LOG: z.enum(["silent", "error", "info", "debug"]).default("info"),
  DECK_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(1e3),
  DECK_HEADERS_TIMEOUT_S: z.coerce.number().positive().max(600).default(20),
  DECK_REQUEST_TIMEOUT_S: z.coerce.number().positive().max(3600).default(60),
  DECK_KEEPALIVE_TIMEOUT_S: z.coerce.number().positive().max(3600).default(65),
  DECK_LOOPBACK_TARGETS: z.enum(["0", "1"]).default("0"),
  // Renamed when it came to cover every URL a person names: a deck still given it says so rather than refusing its models.
  DECK_AGENT_LOOPBACK: z.never({ error: "renamed DECK_LOOPBACK_TARGETS (it now covers every URL a person names)" }).optional(),
  DECK_AGENT_POLL_MS: z.coerce.number().int().min(10).max(6e4).default(2e3),
  DECK_CHECK_OUTPUT: z.enum(["0", "1"]).default("0"),
  DECK_PROFILE: z.enum(["standard", "local"]).default("standard")
}).refine((e) => e.DECK_HEADERS_TIMEOUT_S <= e.DECK_REQUEST_TIMEOUT_S, {
  path: ["DECK_HEADERS_TIMEOUT_S"],
  message: "at most DECK_REQUEST_TIMEOUT_S (the headers are part of the request)"
}).superRefine((e, ctx) => {
  if (e.DECK_PROFILE !== "local") return;
  const reached = [
    !isLoopback(e.HOST) && `HOST is ${e.HOST}, not loopback`,
    e.DECK_TRUST_PROXY !== false && "DECK_TRUST_PROXY says a proxy in front of it passes on other clients",
    e.DECK_PUBLIC_URL && URL.canParse(e.DECK_PUBLIC_URL) && !isLoopback(new URL(e.DECK_PUBLIC_URL).hostname) && `DECK_PUBLIC_URL is ${e.DECK_PUBLIC_URL}, reached from elsewhere`
  ].filter((why) => typeof why === "string");
  if (reached.length > 0) {
    ctx.addIssue({
      code: "custom",
      path: ["DECK_PROFILE"],
      message: `local lifts the per-client join limit and the free tier's daily forges, for a deck only its own machine reaches: ${reached.join("; ")}. Listen on 127.0.0.1 or ::1 with no proxy, or leave DECK_PROFILE unset`
    });
  }
});
var HOUSE_NAMES = [
  "house",
  "deck",
  "admin",
  "administrator",
  "root",
  "system",
  "operator",
  "support",
  "staff",
  "official",
  "studio",
  "candles",
  "copy",
  "mcp",
  "api",
  "join",
  "login",
  "logout",
  "me",
  "null",
  "undefined"
];
function readConfig(env = process.env) {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`bad configuration:
  ${lines.join("\n  ")}`);
  }
  const e = parsed.data;
  const half = [
    e.DECK_SMTP_URL && !e.DECK_EMAIL_FROM && "DECK_EMAIL_FROM: the sender of sign-in mails, needed with DECK_SMTP_URL",
    !e.DECK_SMTP_URL && e.DECK_EMAIL_FROM && "DECK_SMTP_URL: the SMTP server sign-in mails go through, needed with DECK_EMAIL_FROM",
    !e.DECK_X_CLIENT_ID && e.DECK_X_CLIENT_SECRET && "DECK_X_CLIENT_ID: the X app's client id, needed with DECK_X_CLIENT_SECRET"
  ].filter((x) => typeof x === "string");
  if (half.length) throw new Error(`bad configuration:
  ${half.join("\n  ")}`);
  const exchange = CCXT_TAPE.exec(e.DECK_TAPE_URL ?? "")?.[1];
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DECK_DATA,
    databaseUrl: e.DECK_DATABASE_URL ?? null,
    publicUrl: e.DECK_PUBLIC_URL?.replace(/\/$/, "") ?? null,
    joinUrl: e.DECK_JOIN_URL ?? null,
    origins: e.DECK_ORIGINS ?? null,
    trustProxy: e.DECK_TRUST_PROXY,
    keyPrefix: e.DECK_KEY_PREFIX,
    joinPerClient: e.DECK_PROFILE === "local" ? null : e.DECK_JOIN_PER_CLIENT,
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
    x: e.DECK_X_CLIENT_ID ? { clientId: e.DECK_X_CLIENT_ID, clientSecret: e.DECK_X_CLIENT_SECRET ?? null, authorizeUrl: e.DECK_X_AUTHORIZE_URL, tokenUrl: e.DECK_X_TOKEN_URL, apiUrl: e.DECK_X_API_URL } : null,
    tapeUrl: e.DECK_TAPE_URL ?? null,
    ccxt: exchange ? { exchange, apiUrl: e.DECK_CCXT_API_URL ?? null } : null,
    sampleTape: e.DECK_SAMPLE_TAPE === "on",
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
      headersTimeoutMs: e.DECK_HEADERS_TIMEOUT_S * 1e3,
      requestTimeoutMs: e.DECK_REQUEST_TIMEOUT_S * 1e3,
      keepAliveTimeoutMs: e.DECK_KEEPALIVE_TIMEOUT_S * 1e3
    },
    loopbackTargets: e.DECK_LOOPBACK_TARGETS === "1",
    agent: { pollMs: e.DECK_AGENT_POLL_MS },
    checkOutput: e.DECK_CHECK_OUTPUT === "1",
    profile: e.DECK_PROFILE
  };
}

// rest/app.ts
import { readFileSync } from "node:fs";
import { join as join2 } from "node:path";
import express3 from "express";

// cards/card.ts
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";

// cards/image.ts
function badge(sellerId) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256"><rect width="256" height="256" rx="32" fill="#101418"/><text x="128" y="112" font-family="monospace" font-size="28" fill="#8fa3b8" text-anchor="middle">the deck</text><text x="128" y="164" font-family="monospace" font-size="40" fill="#e8eef4" text-anchor="middle">${sellerId}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

// cards/wallet.ts
function agentWalletOf(cards, erc8004ChainId, treasury, plans) {
  const found = [
    [cards.agent_wallet, "cards.agent_wallet"],
    [cards.owner, "cards.owner"],
    [treasury, "treasury"]
  ];
  const [address, from] = found.find(([a]) => a !== null) ?? [null, null];
  const paidOn = plans.chains[0] ? Number(plans.chains[0].id.slice("eip155:".length)) : null;
  const chainId = erc8004ChainId ?? cards.erc8004.chain_id ?? paidOn;
  return address && from && chainId !== null ? { address, chainId, from } : null;
}
function sellerWalletOf(entry, chainId, deck) {
  if (!entry?.wallet || chainId === null) return deck;
  return { address: entry.wallet.address, chainId, from: "erc8004", tx: entry.wallet.tx };
}

// cards/card.ts
var ERC8004_TYPE = "https://eips.ethereum.org/EIPS/eip-8004#registration-v1";
var MCP_PROTOCOL_ON_CARDS = LATEST_PROTOCOL_VERSION;
var walletService = (wallet) => wallet ? [{ name: "agentWallet", endpoint: `eip155:${wallet.chainId}:${wallet.address}`, version: "v1", from: wallet.from, ...wallet.tx ? { tx: wallet.tx } : {} }] : [];
function sellerCard(seller, cards, chain, urls, plans, wallet, perCall) {
  const endpoint = SELLER_ENDPOINTS.get(seller.id);
  const entry = cards.sellers[seller.id] ?? { agent_id: null, tx: null, block: null };
  const mcpUrl = `${urls.base}${endpoint.path}`;
  const chainId = chain.chainId ?? cards.erc8004.chain_id;
  const registry = chain.registry ?? cards.erc8004.registry;
  const agentId = entry.agent_id;
  const own = sellerWalletOf(entry, chainId, wallet);
  const keyless = endpoint.tools.filter((t) => t.access !== "session").map((t) => t.name);
  const priced = perCall ? endpoint.tools.filter((t) => perCall.requirements.has(t.name)) : [];
  return {
    type: ERC8004_TYPE,
    name: seller.name,
    description: seller.description,
    image: cards.image ?? badge(seller.id),
    services: [
      { name: "MCP", endpoint: mcpUrl, version: MCP_PROTOCOL_ON_CARDS },
      ...walletService(own)
    ],
    x402Support: perCall !== null,
    ...perCall ? {
      x402: {
        version: 2,
        prices: priced.map((t) => ({ tool: t.name, ...cardPrice(perCall.prices.get(t.name)), ...perCall.requirements.get(t.name) }))
      }
    } : {},
    active: true,
    registrations: chainId !== null && registry !== null && agentId !== null ? [{ agentId, agentRegistry: `eip155:${chainId}:${registry}` }] : [],
    supportedTrust: ["reputation"],
    id: seller.id,
    card_url: `${urls.base}/cards/${seller.id}`,
    address: own?.address ?? null,
    owner: cards.owner,
    kind: "mcp",
    endpoint: mcpUrl,
    skills: seller.skills,
    tools: endpoint.tools.map((t) => t.name),
    tools_without_key: keyless,
    price_usdc: priceOf(seller, plans),
    price_basis: seller.price_basis,
    verify: seller.verify,
    classes: [],
    proposed_classes: seller.proposed_classes,
    access: { auth: "bearer", join_url: urls.join, keyless },
    provider: { name: cards.provider.name, url: cards.provider.url ?? urls.base },
    erc8004: { agentId, tx: entry.tx, block: entry.block }
  };
}
function cardPrice(price) {
  return price.scheme === "exact" ? { price_usdc: price.usdc } : { per_bar_usdc: price.per_bar_usdc, max_usdc: price.max_usdc };
}

// cards/registration.ts
function deckRegistration(cards, file, base, wallet) {
  return {
    type: ERC8004_TYPE,
    name: file.provider.name,
    description: `A trading-rule workbench served to agents over MCP: read a rule, forge it, rehearse it on real candles, grade its fidelity; real candles; live models with their records. Its sellers (${cards.map((c) => c.id).join(", ")}) are registered one by one, each with its own card.`,
    image: file.image ?? badge("deck"),
    services: [
      { name: "MCP", endpoint: `${base}${DECK_ENDPOINT.path}`, version: MCP_PROTOCOL_ON_CARDS },
      ...cards.map((c) => ({ name: "MCP", endpoint: c.endpoint, version: MCP_PROTOCOL_ON_CARDS })),
      // The deck's own wallet: a seller's proven one is on its card.
      ...walletService(wallet)
    ],
    x402Support: cards.some((c) => c.x402Support),
    active: true,
    registrations: cards.flatMap((c) => c.registrations),
    supportedTrust: ["reputation"],
    agents: cards.map((c) => ({ id: c.id, card_url: c.card_url, agentId: c.erc8004.agentId }))
  };
}

// rest/credential.ts
import { parse as parseCookies } from "cookie";

// services/runtime.ts
var callContext = (s, principal, credential, caller, ended) => ({
  config: s.config,
  urls: s.urls,
  store: s.store,
  upstreams: s.upstreams,
  guards: s.guards,
  chatQueue: s.chatQueue,
  pool: s.pool,
  plane: s.plane,
  login: s.login,
  offer: s.offer,
  oauth: s.oauth,
  rail: s.rail,
  clock: s.clock,
  log: s.log,
  principal,
  credential,
  caller,
  ended,
  payment: null
});

// rest/request-end.ts
function endOf(res) {
  let signal = null;
  return () => {
    if (signal) return signal;
    if (res.closed) return signal = AbortSignal.abort();
    const ended = new AbortController();
    res.once("close", () => ended.abort());
    return signal = ended.signal;
  };
}

// rest/credential.ts
var BEARER = /^bearer\s+([^]*)$/i;
function bearerOf(req) {
  const auth = req.headers.authorization;
  const token = auth ? BEARER.exec(auth)?.[1]?.trim() : void 0;
  return token || null;
}
function cookieOf(req) {
  const header = req.headers.cookie;
  return header ? parseCookies(header)[SESSION_COOKIE] ?? null : null;
}
var credentialOf = (req) => bearerOf(req) ?? cookieOf(req);
var byCookie = (req) => bearerOf(req) === null && cookieOf(req) !== null;
var callerOf = (s, req) => s.config.trustProxy === false ? { address: req.socket.remoteAddress ?? "unknown", secure: req.socket.encrypted === true } : { address: req.ip ?? req.socket.remoteAddress ?? "unknown", secure: req.secure };
async function contextOf(s, req, guarded, at2 = "rest") {
  if (s.store.backend.shared) await s.store.backend.catchUp();
  const caller = callerOf(s, req);
  const value = credentialOf(req);
  let principal = null;
  let restingS = 0;
  let boundTo = null;
  if (value && guarded) {
    const admitted = await admitCredential(s, caller, value, at2);
    if ("principal" in admitted) principal = admitted.principal;
    if ("restingS" in admitted) restingS = admitted.restingS;
    if ("refused" in admitted) boundTo = admitted.boundTo;
  } else if (value) principal = await principalFrom(s, value, "any");
  const credential = principal && value && principal.via !== "payment" ? { kind: principal.via, value } : null;
  return { ctx: callContext(s, principal, credential, caller, endOf(req.res)), refused: value !== null && principal === null && restingS === 0, boundTo, restingS };
}

// rest/errors.ts
var encodingOf = (req) => String(req.headers["content-encoding"] ?? "identity").toLowerCase();
function bodyFailure(err, req) {
  if (err instanceof DeckError) return err;
  const e = err;
  switch (e.type) {
    case "entity.parse.failed":
      return new DeckError(400, "not_json", "the body is not JSON");
    case "entity.too.large":
      return new DeckError(413, "too_large", "the body is over the size cap");
    case "entity.too.complex":
      return new DeckError(413, "too_large", err.message, err.details);
    case "encoding.unsupported":
      return new DeckError(415, "unsupported_encoding", `content-encoding ${encodingOf(req)} is not read here: send identity, gzip, deflate or br`, {
        field: "content-encoding"
      });
    case "content-type.malformed":
      return new DeckError(400, "bad_content_type", "the content-type is not a media type: send application/json, any parameter as name=value (charset=utf-8)", {
        field: "content-type"
      });
    case "charset.unsupported":
      return new DeckError(415, "unsupported_encoding", "send the JSON as UTF-8", { field: "content-type" });
  }
  const status = typeof e.status === "number" && e.status >= 400 && e.status < 500 ? e.status : null;
  if (status === null) return null;
  if (e.type === void 0 && encodingOf(req) !== "identity") {
    return new DeckError(400, "bad_encoding", `the body does not decode as content-encoding ${encodingOf(req)}`, { field: "content-encoding" });
  }
  return typeof e.type === "string" ? new DeckError(status, "unreadable_body", "the body could not be read as sent") : null;
}
function sendRefusal(res, error) {
  const retry = error.details.retry_after_s;
  if (error.status === 429 && typeof retry === "number") res.set("retry-after", String(retry));
  if (error.status === 402 && error.details.x402) res.set("payment-required", toHeader(error.details.x402));
  if (error.details.settlement) res.set("payment-response", toHeader(error.details.settlement));
  res.status(error.status).json(error.body());
}
function errorHandler(log) {
  return (err, req, res, _next) => {
    const known = err instanceof DeckError ? err : bodyFailure(err, req);
    if (known) return sendRefusal(res, known);
    const e = err;
    log.error("route_failed", { method: req.method, path: req.path, error: e?.message, stack: e?.stack });
    if (res.headersSent) return void res.destroy();
    res.status(500).json(internalFailure().body());
  };
}
var pathDecodes = (req, _res, next) => {
  const path = req.path;
  if (!path.includes("%")) return next();
  try {
    decodeURIComponent(path);
  } catch {
    return next(new DeckError(400, "bad_path", "the path has a bad percent-escape: % must be followed by two hex digits", { field: "path" }));
  }
  next();
};
var notFound = (req, res) => {
  res.status(404).json({ ok: false, error: "not_found", message: `no route ${req.method} ${req.path}` });
};

// rest/json-answer.ts
function sendJson(req, res, json2) {
  if (req.headers["if-none-match"] !== void 0 || req.headers["if-modified-since"] !== void 0) {
    res.type("application/json").send(json2);
    return;
  }
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", typeof json2 === "string" ? Buffer.byteLength(json2) : json2.length);
  res.end(json2);
}

// rest/mcp-stream.ts
var frame = (json2) => `event: message
data: ${json2}

`;
function answerStream(req, res, message) {
  const m = message;
  const asks = m.id !== void 0 && (m.method === "tasks/result" || m.params?._meta?.progressToken !== void 0);
  if (!asks || !(req.headers.accept ?? "").includes("text/event-stream")) return { hear: void 0, end: () => false };
  let streaming = false;
  const hear = (note) => {
    if (res.writableEnded) return;
    if (!streaming) {
      streaming = true;
      res.status(200).set({ "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" });
      res.flushHeaders();
    }
    res.write(frame(JSON.stringify(note)));
  };
  const end = (answer) => {
    if (!streaming) return false;
    res.end(frame(answer));
    return true;
  };
  return { hear, end };
}

// rest/json-body.ts
import express from "express";
var PARSED_ON_POOL_FROM = 128 * 1024;
var PARSED_ON_POOL_ENTRIES = 1024;
var parsedOnPool = (pool) => ({
  from: PARSED_ON_POOL_FROM,
  entries: PARSED_ON_POOL_ENTRIES,
  parse: (bytes, req) => pool.run("parsing", bytes, { owner: `address ${req.ip ?? ""}` })
});
function jsonBody(limit, bounds, offload) {
  const full = express.json({
    type: () => true,
    limit,
    strict: false,
    // Called with the decoded body before body-parser parses it: what it throws is the reading's failure.
    verify: (_req, _res, buf) => {
      const excess = new JsonShape(bounds).read(buf);
      if (excess) throw tooComplex(excess.message, bounds);
    }
  });
  return (req, res, onward) => {
    const next = (error) => {
      if (error && !req.complete) letGoOf(req, res);
      onward(error);
    };
    const type = req.headers["content-type"];
    const utf8Json = type === void 0 || UTF8_JSON.test(type);
    if (!utf8Json && type && !wellFormedType(type)) {
      return next(failure(400, "content-type.malformed", "the content-type is not a media type"));
    }
    if (statedOver(req, limit)) return next(failure(413, "entity.too.large", "request entity too large"));
    const length = utf8Json ? plainLength(req, limit) : null;
    if (length === null) return full(req, res, next);
    req.body = void 0;
    const chunks2 = [];
    let received = 0;
    const shape = new JsonShape(bounds);
    let excess = null;
    const done = (error) => {
      req.removeListener("data", onData);
      req.removeListener("end", onEnd);
      req.removeListener("close", onClose);
      if (error) return next(error);
      if (excess) return next(tooComplex(excess.message, bounds));
      const bytes = chunks2.length === 1 ? chunks2[0] : Buffer.concat(chunks2, received);
      const notJson = () => failure(400, "entity.parse.failed", "the body is not JSON");
      if (offload && received >= offload.from && shape.entriesRead <= offload.entries) {
        offload.parse(bytes, req).then(
          (value) => {
            req.body = value;
            next();
          },
          (error2) => next(error2 instanceof DeckError ? error2 : notJson())
        );
        return;
      }
      try {
        req.body = parseJsonBody(bytes);
      } catch {
        return next(notJson());
      }
      next();
    };
    const onData = (chunk) => {
      received += chunk.length;
      excess = shape.read(chunk);
      if (!excess) return void chunks2.push(chunk);
      chunks2.length = 0;
      done(null);
    };
    const onEnd = () => done(received === length ? null : failure(400, "request.size.invalid", "the body does not match its content-length"));
    const onClose = () => done(failure(400, "request.aborted", "the request was aborted"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
  };
}
var GRACE_MS = 2e3;
function letGoOf(req, res) {
  res.setHeader("connection", "close");
  req.read(0);
  req.pause();
  const socket = req.socket;
  socket.destroySoon = () => void setTimeout(() => socket.destroy(), GRACE_MS).unref();
}
var UTF8_JSON = /^application\/json(?:\s*;\s*charset=utf-8)?$/i;
var TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
var QUOTED = '"(?:[\\t !#-\\[\\]-~\\x80-\\xff]|\\\\[\\t -~\\x80-\\xff])*"';
var TYPE = new RegExp(`^${TOKEN}/${TOKEN}`);
var PARAMETER = new RegExp(`[\\t ]*;[\\t ]*(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?`, "y");
function wellFormedType(type) {
  const head = TYPE.exec(type);
  if (!head) return false;
  let at2 = head[0].length;
  for (; ; ) {
    PARAMETER.lastIndex = at2;
    if (!PARAMETER.test(type)) break;
    at2 = PARAMETER.lastIndex;
  }
  return /^[\t ]*$/.test(type.slice(at2));
}
function statedOver(req, limit) {
  const stated = req.headers["content-length"];
  if (stated === void 0 || !/^\d{1,16}$/.test(stated) || Number(stated) <= limit) return false;
  const encoding = req.headers["content-encoding"];
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(req.headers["content-type"] ?? "")?.[1];
  return (encoding === void 0 || encoding.toLowerCase() === "identity") && (charset === void 0 || charset.toLowerCase().startsWith("utf-"));
}
function plainLength(req, limit) {
  if (!req.socket?.readable || req.complete && !req.readable) return null;
  const h = req.headers;
  if (h["content-encoding"] !== void 0 || h["transfer-encoding"] !== void 0) return null;
  const stated = h["content-length"];
  if (stated === void 0 || !/^\d{1,10}$/.test(stated)) return null;
  const length = Number(stated);
  return length <= limit ? length : null;
}
function failure(status, type, message, details = {}) {
  return Object.assign(new Error(message), { status, statusCode: status, type, expose: true, details });
}
var tooComplex = (why, bounds) => failure(413, "entity.too.complex", `the body holds more than this route reads: ${why}`, { bounds: { ...bounds } });

// rest/origin.ts
var ownOrigin = (s) => new URL(s.urls.base).origin;
var originAllowed = (origin, allowed) => !origin || allowed.includes(origin);
function pageOrigin(req) {
  if (req.headers.origin) return req.headers.origin;
  const referer = req.headers.referer;
  if (!referer) return void 0;
  try {
    return new URL(referer).origin;
  } catch {
    return "null";
  }
}

// sellers/batch.ts
import { setImmediate as nextTurn } from "node:timers/promises";
var MAX_BATCH_MESSAGES = 100;
var MAX_BATCH_ANSWER_BYTES = 16 * 1024 * 1024;
var IN_FLIGHT = 4;
var MIB = 1024 * 1024;
var tooManyMessages = (count2) => rpcError(null, INVALID_REQUEST, `a batch holds at most ${MAX_BATCH_MESSAGES} messages; this one holds ${count2}: send them in several requests`);
async function runBatch(messages, answer) {
  const out = new Array(messages.length).fill(null);
  const running = /* @__PURE__ */ new Set();
  let bytes = 0;
  const failures = [];
  for (const [i, m] of messages.entries()) {
    if (failures.length) break;
    if (i > 0) await nextTurn();
    while (running.size >= IN_FLIGHT) await Promise.race(running);
    if (bytes >= MAX_BATCH_ANSWER_BYTES) {
      const id = idOf(m);
      if (id !== null) out[i] = JSON.stringify(notRun(id));
      continue;
    }
    const call = Promise.resolve().then(() => answer(m)).then(
      (reply2) => {
        if (reply2 === null) return;
        out[i] = replyJson(reply2);
        bytes += Buffer.byteLength(out[i]);
      },
      (error) => void failures.push(error)
    );
    const tracked = call.finally(() => running.delete(tracked));
    running.add(tracked);
  }
  await Promise.all(running);
  if (failures.length) throw failures[0];
  return out.filter((s) => s !== null);
}
var notRun = (id) => rpcError(
  id,
  INVALID_REQUEST,
  `not run: this batch's answers reached the ${MAX_BATCH_ANSWER_BYTES / MIB} MiB cap before this call started; send it in another request`
);

// sellers/legacy-server.ts
import {
  LATEST_PROTOCOL_VERSION as LATEST_PROTOCOL_VERSION2,
  SUPPORTED_PROTOCOL_VERSIONS,
  TaskMetadataSchema
} from "@modelcontextprotocol/sdk/types.js";

// sellers/instructions.ts
var LOOP = ["skill_read", "workflow_read", "forge", "rehearse", "grade"];
var tick = (name) => `\`${name}\``;
var day = (t) => new Date(t * 1e3).toISOString().slice(0, 10);
function tapeWords(held) {
  if (held.length === 0) return "The tape holds no bars yet.";
  const byMarket = /* @__PURE__ */ new Map();
  for (const h of held) byMarket.set(h.market, [...byMarket.get(h.market) ?? [], h]);
  const each = [...byMarket].map(([market, hs]) => {
    const windows = hs.flatMap((h) => h.windows);
    const from = Math.min(...windows.map((w) => w.from));
    const to = Math.max(...windows.map((w) => w.to));
    const span = windows.length ? ` ${day(from)}..${day(to - 1)}${windows.length > 1 ? ` (${windows.length} stretches)` : ""}` : "";
    return `${market} ${hs.map((h) => h.tf).join("/")}${span}`;
  });
  return `The tape holds ${each.join("; ")}.`;
}
function tierWords(e, ctx) {
  const p = ctx.principal;
  const where2 = e.byName.has("account") ? "`account`" : "`account` on /mcp";
  if (!p) return `Not signed in: keyless tools answer; join at ${ctx.urls.join}, send the key as a bearer, and ${where2} says what your tier allows today.`;
  const { plans, house_allowance_per_day } = ctx.offer.plans;
  const plan = plans.find((x) => x.tier === p.tier);
  const allowance = plan?.allowance_per_day ?? house_allowance_per_day;
  return `Your tier, ${p.tier}, opens ${plan?.opens ?? "every tool"}; ${allowance} meter units a day (balance: ${where2}).`;
}
function loopWords(e) {
  const step = (t) => t === "skill_read" ? "`skill_read` trading-workflow" : tick(t);
  const here = LOOP.filter((t) => e.byName.has(t)).map(step);
  const elsewhere = LOOP.filter((t) => !e.byName.has(t));
  if (elsewhere.length === 0) return `The loop: ${here.join(", ")}.`;
  const where2 = servedOn(elsewhere[0]).filter((path) => elsewhere.every((t) => servedOn(t).includes(path)));
  const away = `${elsewhere.map(step).join(", ")} ${elsewhere.length > 1 ? "are" : "is"} on ${where2.join(" and ")}`;
  return here.length === 0 ? `The loop: ${away}.` : `The loop: ${here.join(", ")} here; then ${away}.`;
}
var isDeck = (e) => e.id === DECK_ENDPOINT.id;
function elsewhereWords(e) {
  if (!isDeck(e)) return `Every other tool is on ${DECK_ENDPOINT.path}.`;
  const more = [...e.toolsets.keys()].filter((t) => !e.defaults.includes(t));
  return more.length ? `tools/list shows toolsets ${e.defaults.join(", ")}; ?toolsets=${more.join(",")} or all lists the rest.` : "";
}
async function instructionsFor(e, ctx) {
  const serves = isDeck(e) ? "serves every tool of the deck" : `serves ${e.tools.map((t) => tick(t.name)).join(", ")}`;
  const tape = e.byName.has("tape") || e.byName.has("rehearse") ? [tapeWords(await ctx.store.archive.held())] : [];
  return [`${e.name} (${e.path}) ${serves}.`, loopWords(e), tierWords(e, ctx), ...tape, elsewhereWords(e)].filter((s) => s !== "").join(" ");
}

// sellers/tasks.ts
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { RELATED_TASK_META_KEY } from "@modelcontextprotocol/sdk/types.js";
var LIVE_TASKS_PER_PRINCIPAL = 4;
var TASK_TTL_MS = 60 * 60 * 1e3;
var POLL_MS = 500;
var TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
var NOTES_KEPT = 64;
var progressNote = (token, progress, message, taskId) => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: token, progress, message, ...taskId ? { _meta: { [RELATED_TASK_META_KEY]: { taskId } } } : {} }
});
var PAID_TASKS = "x402";
var tooMany = (live) => `at most ${LIVE_TASKS_PER_PRINCIPAL} tasks may be working at once for one principal; ${live} are: wait for one to end or cancel one (tasks/cancel)`;
var terminal = (s) => s === "completed" || s === "failed" || s === "cancelled";
var TaskRefusal = class extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
  code;
};
function deckTasks() {
  const store = new InMemoryTaskStore();
  const running = /* @__PURE__ */ new Map();
  const notes = /* @__PURE__ */ new Map();
  const ownerOf = (ctx) => {
    if (!ctx.principal) throw new TaskRefusal(-32001, 'tasks belong to a principal: send "Authorization: Bearer <deck_session value or key>"');
    return ctx.principal.agent_id;
  };
  const sessionOf = (ctx) => ctx.principal && ctx.principal.via !== "payment" ? ctx.principal.agent_id : PAID_TASKS;
  const liveOf = (owner) => [...running.values()].filter((r) => r.owner === owner).length;
  const found = async (taskId, owner) => {
    const task = typeof taskId === "string" ? await store.getTask(taskId, owner) : null;
    if (!task) throw new TaskRefusal(-32602, `Task not found: ${String(taskId)}`);
    return task;
  };
  return {
    /**
     * Starts a tool call as a task and answers at once with the task. `work` is the call, given the task's signal and
     * a way to say how it is going (the task's statusMessage).
     */
    async start(ctx, id, request, ttl, token, work, abort = new AbortController()) {
      const owner = ownerOf(ctx);
      const live = liveOf(owner);
      if (live >= LIVE_TASKS_PER_PRINCIPAL) throw new TaskRefusal(-32005, tooMany(live));
      const session = sessionOf(ctx);
      const task = await store.createTask({ ttl: Math.min(ttl ?? TASK_TTL_MS, TASK_TTL_MS), pollInterval: POLL_MS }, id, request, session);
      const told = token === void 0 ? null : { kept: [], hearing: /* @__PURE__ */ new Set() };
      if (told) {
        notes.set(task.taskId, told);
        setTimeout(() => notes.delete(task.taskId), task.ttl ?? TASK_TTL_MS).unref();
      }
      let step = 0;
      const say = async (words) => {
        if (abort.signal.aborted) return;
        if (told && told.kept.length < NOTES_KEPT) {
          const note = progressNote(token, ++step, words, task.taskId);
          told.kept.push(note);
          for (const hear of told.hearing) hear(note);
        }
        await store.updateTaskStatus(task.taskId, "working", words, session).catch(() => void 0);
      };
      const ended = (async () => {
        let result;
        try {
          result = await work(abort.signal, say);
        } catch (error) {
          ctx.log.error("task_failed", { task: task.taskId, error: error.message });
          result = { content: [{ type: "text", text: JSON.stringify({ ok: false, error: "internal", status: 500 }) }], isError: true };
        }
        if (!abort.signal.aborted) await store.storeTaskResult(task.taskId, result.isError ? "failed" : "completed", result, session).catch(() => void 0);
      })().finally(() => running.delete(task.taskId));
      running.set(task.taskId, { owner, abort, ended });
      return { task };
    },
    /**
     * Whether a principal may start one more task; a task paid per call asks before its payment settles, so a payer
     * with its tasks all working is refused (429) with nothing charged.
     */
    room(owner) {
      const live = liveOf(owner);
      if (live >= LIVE_TASKS_PER_PRINCIPAL) throw new DeckError(429, "tasks_working", tooMany(live), { per_principal: LIVE_TASKS_PER_PRINCIPAL });
    },
    async get(ctx, taskId) {
      return found(taskId, sessionOf(ctx));
    },
    /**
     * tasks/result: waits for the task to end, then answers its tool result (a cancelled task is an error). A request
     * that can hear notifications is told the task's progress so far, then each step as it comes, before the result.
     */
    async result(ctx, taskId, hear) {
      const session = sessionOf(ctx);
      let task = await found(taskId, session);
      const told = hear ? notes.get(task.taskId) : void 0;
      if (told) {
        for (const note of told.kept) hear(note);
        told.hearing.add(hear);
      }
      try {
        if (!terminal(task.status)) {
          await running.get(task.taskId)?.ended;
          task = await found(taskId, session);
        }
      } finally {
        told?.hearing.delete(hear);
      }
      if (told) notes.delete(task.taskId);
      if (task.status === "cancelled") throw new TaskRefusal(-32602, `Task ${task.taskId} was cancelled: it has no result`);
      const result = await store.getTaskResult(task.taskId, session);
      return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: task.taskId } } };
    },
    async list(ctx, cursor) {
      const owner = ownerOf(ctx);
      try {
        return await store.listTasks(typeof cursor === "string" ? cursor : void 0, owner);
      } catch (error) {
        throw new TaskRefusal(-32602, error.message);
      }
    },
    /** tasks/cancel: the task is cancelled and its work told to stop where it can. */
    async cancel(ctx, taskId) {
      const session = sessionOf(ctx);
      const task = await found(taskId, session);
      if (terminal(task.status)) throw new TaskRefusal(-32602, `Cannot cancel task in terminal status: ${task.status}`);
      running.get(task.taskId)?.abort.abort();
      await store.updateTaskStatus(task.taskId, "cancelled", "cancelled by its principal", session);
      return found(task.taskId, session);
    },
    /** The deck's close: every working task is told to stop, its work ends (recording wholly), the store's timers end. */
    async close() {
      const ending = [...running.values()];
      for (const r of ending) r.abort.abort();
      await Promise.all(ending.map((r) => r.ended));
      store.cleanup();
    }
  };
}

// sellers/legacy-server.ts
var METHOD_NOT_FOUND = -32601;
var INTERNAL_ERROR = -32603;
var Refusal = class extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
  code;
  data;
};
var tokenOf = (params) => {
  const token = params._meta?.progressToken;
  return typeof token === "string" || typeof token === "number" && Number.isSafeInteger(token) ? token : void 0;
};
var heard = (ctx, params, hear) => {
  const token = tokenOf(params);
  if (!hear || token === void 0) return ctx;
  let step = 0;
  return { ...ctx, progress: (words) => hear(progressNote(token, ++step, words)) };
};
function legacyServer(e, version, tasks) {
  const capabilities = { tools: { listChanged: false }, prompts: {}, resources: {} };
  const withTasks = { ...capabilities, tasks: TASKS_CAPABILITY };
  const serverInfo = { name: e.name, version };
  const resources = endpointResources(e);
  const defaults = new Set(e.defaults);
  const lists = new Map([...e.listings.keys()].map((tier) => [tier, new Written(JSON.stringify({ tools: listingOf(e, tier, defaults) }))]));
  const sameSet = (a) => a.size === defaults.size && [...a].every((t) => defaults.has(t));
  const handlers = /* @__PURE__ */ new Map([
    [
      "initialize",
      async (params, ctx) => {
        const requested = params.protocolVersion;
        const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION2;
        const declared = params.capabilities?.tasks !== void 0;
        return { protocolVersion, capabilities: declared ? withTasks : capabilities, serverInfo, instructions: await instructionsFor(e, ctx) };
      }
    ],
    ["ping", () => ({})],
    [
      "tools/list",
      (_params, ctx, toolsets) => sameSet(toolsets) ? lists.get(listedAs(ctx.principal)) : new Written(JSON.stringify({ tools: listingOf(e, listedAs(ctx.principal), toolsets) }))
    ],
    [
      "tools/call",
      async (params, ctx, _toolsets, hear) => {
        const name = params.name;
        const outcome = await callOnEndpoint(e, heard(ctx, params, hear), name, params.arguments ?? {}, params._meta);
        if (outcome.kind === "unknown_tool") throw new Refusal(UNKNOWN_TOOL, unknownToolMessage(e, outcome.name));
        if (outcome.kind === "join_required") {
          const { message, next } = joinStep(name, ctx.urls);
          throw new Refusal(KEY_REQUIRED, message, { next });
        }
        return new Written(resultJson(outcome.result));
      }
    ],
    ["tasks/get", (params, ctx) => tasks.get(ctx, params.taskId)],
    ["tasks/result", (params, ctx, _toolsets, hear) => tasks.result(ctx, params.taskId, hear)],
    ["tasks/list", (params, ctx) => tasks.list(ctx, params.cursor)],
    ["tasks/cancel", (params, ctx) => tasks.cancel(ctx, params.taskId)],
    ["prompts/list", () => ({ prompts: [] })],
    ["resources/list", () => resources.list],
    [
      "resources/read",
      async (params, ctx) => {
        const read = await resources.read(ctx, params.uri);
        if (read.kind === "contents") return read.result;
        if (read.kind === "not_found") throw new Refusal(RESOURCE_NOT_FOUND, read.message, { uri: params.uri });
        const { message, next } = joinStep(read.uri, ctx.urls);
        throw new Refusal(KEY_REQUIRED, message, { next });
      }
    ],
    ["resources/templates/list", () => resources.templates]
  ]);
  const startTask = (id, params, ttl, ctx) => {
    const name = params.name;
    if (!ctx.principal) return paidTask(id, params, ttl, ctx);
    return tasks.start(ctx, id, { method: "tools/call", params }, ttl, tokenOf(params), async (signal, say) => {
      await say(`${name} is running`);
      const progress = (words) => void say(`${name}: ${words}`);
      const outcome = await callOnEndpoint(e, { ...ctx, ended: () => signal, progress }, name, params.arguments ?? {});
      return outcome.result;
    });
  };
  const paidTask = async (id, params, ttl, ctx) => {
    const name = params.name;
    const abort = new AbortController();
    let say = null;
    let payer = null;
    let settled;
    const paidFor = new Promise((resolve) => settled = () => resolve(null));
    const paying = (payment, principal) => ({
      get settled() {
        return payment.settled;
      },
      async settle(call2, bars) {
        tasks.room(principal.agent_id);
        await payment.settle(call2, bars);
        payer = principal;
        settled();
      },
      unserved: (call2, error) => payment.unserved(call2, error)
    });
    const progress = (words) => void say?.(`${name}: ${words}`);
    const call = callOnEndpoint(e, { ...ctx, ended: () => abort.signal, progress }, name, params.arguments ?? {}, params._meta, paying);
    const outcome = await Promise.race([paidFor, call]);
    if (outcome?.kind === "join_required") {
      const { message, next } = joinStep(name, ctx.urls);
      throw new Refusal(KEY_REQUIRED, message, { next });
    }
    if (outcome) return new Written(resultJson(outcome.result));
    const work = async (_signal, told) => {
      say = told;
      await told(`${name} is running`);
      return (await call).result;
    };
    return tasks.start({ ...ctx, principal: payer }, id, { method: "tools/call", params }, ttl, tokenOf(params), work, abort);
  };
  const failed = (id, error) => {
    const { code, message, data } = error;
    return {
      jsonrpc: "2.0",
      id,
      error: { code: Number.isSafeInteger(code) ? code : INTERNAL_ERROR, message: message ?? "Internal error", ...data !== void 0 ? { data } : {} }
    };
  };
  async function dispatch(message, ctx, toolsets, hear) {
    if (!("method" in message) || !("id" in message)) return null;
    const { id, method, params } = message;
    const handler = handlers.get(method);
    if (!handler) return { jsonrpc: "2.0", id, error: { code: METHOD_NOT_FOUND, message: "Method not found" } };
    try {
      const task = params && "task" in params && !method.startsWith("tasks/") ? TaskMetadataSchema.safeParse(params.task) : null;
      if (task?.success) {
        const name = params.name;
        if (method !== "tools/call" || typeof name !== "string" || !TASK_TOOLS.has(name) || !e.byName.has(name)) {
          throw new Error(`Server does not support task creation (required for ${method})`);
        }
        return { result: await startTask(id, params, task.data.ttl, ctx), jsonrpc: "2.0", id };
      }
      return { result: await handler(params ?? {}, ctx, toolsets, hear), jsonrpc: "2.0", id };
    } catch (error) {
      return failed(id, error);
    }
  }
  return { dispatch };
}

// sellers/modern-bridge.ts
var PROTOCOL_META = "io.modelcontextprotocol/protocolVersion";
var NAMED_BY = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId"
};
var headerValue = (v) => /^[\x21-\x7e]+$/.test(v) ? v : `=?base64?${Buffer.from(v, "utf8").toString("base64")}?=`;
function headersStatedInBody(body, sent) {
  const m = body;
  const version = m?.params?._meta?.[PROTOCOL_META];
  if (typeof m !== "object" || m === null || m.id === void 0 || typeof m.method !== "string" || typeof version !== "string") return [];
  const field = NAMED_BY[m.method];
  const name = field === void 0 ? void 0 : m.params?.[field];
  const stated = [
    ["mcp-protocol-version", version],
    ["mcp-method", m.method],
    ["mcp-name", typeof name === "string" ? name : void 0]
  ];
  return stated.filter((h) => h[1] !== void 0 && !sent.has(h[0])).map(([k, v]) => [k, headerValue(v)]);
}
var describes = async (body, e, ctx) => body?.method === "server/discover" ? instructionsFor(e, ctx) : "";
function modernBridge(base, version) {
  let handler = null;
  const once = () => handler ??= import("./chunks/modern-server-62MAIVXO.js").then((m) => m.modernHandler(version));
  return async (req, res, ctx, endpoint, toolsets, body, challenge) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "content-length") headers.set(k, v);
    for (const [k, v] of headersStatedInBody(body, headers)) headers.set(k, v);
    const call = { ctx, endpoint, toolsets, instructions: await describes(body, endpoint, ctx), seen: { keyRequired: false } };
    const answer = await (await once()).fetch(new Request(`${base}${req.originalUrl}`, { method: "POST", headers }), {
      parsedBody: body,
      authInfo: { token: "", clientId: "deck", scopes: [], extra: { ...call } }
    });
    if (call.seen.keyRequired) res.status(401).set("www-authenticate", challenge);
    else res.status(answer.status);
    answer.headers.forEach((v, k) => void (k !== "transfer-encoding" && k !== "content-length" && res.setHeader(k, v)));
    res.end(Buffer.from(await answer.arrayBuffer()));
  };
}

// rest/mcp-routes.ts
var RESTING = -32005;
var MAX_BODY_BYTES = 4 * MIB;
var MCP_BOUNDS = {
  depth: Math.max(...DECK_ENDPOINT.tools.map((t) => t.bounds.depth)) + 4,
  entries: Math.max(...DECK_ENDPOINT.tools.map((t) => t.bounds.entries)) + 8 * MAX_BATCH_MESSAGES,
  string: MAX_BODY_BYTES
};
var MODERN_PROTOCOL = "2026-07-28";
var claimsModern = (m) => typeof m?.params?._meta?.[PROTOCOL_META] === "string";
var TOOLSETS_RULE = "tools/list shows the toolsets the endpoint URL names, as ?toolsets=book,agent (all: every toolset; default: the ones a bare URL lists); tools/call serves every tool of the endpoint by name, listed or not. Each toolset is the OpenAPI tag of the same name.";
var AUTH_RULE = 'initialize, ping, tools/list, notifications, prompts/list, resources/list and resources/templates/list answer without a key; so do the keyless tools. Every other tools/call needs "Authorization: Bearer <deck_session value or key>" or the deck_session cookie.';
var keyRequired = (reply2) => "error" in reply2 && reply2.error.code === KEY_REQUIRED;
var MCP_PATHS = ["/mcp", "/mcp/:seller"];
function mcpRoutes(app, s, version, tasks) {
  const deckEndpoint = lockedBy(DECK_ENDPOINT, s.offer.locks);
  const sellerEndpoints = new Map([...SELLER_ENDPOINTS].map(([id, e]) => [id, lockedBy(e, s.offer.locks)]));
  const endpoints = [deckEndpoint, ...sellerEndpoints.values()];
  const servers = /* @__PURE__ */ new Map();
  for (const e of endpoints) servers.set(e, legacyServer(e, version, tasks));
  const modernAnswer = modernBridge(s.urls.base, version);
  const challenge = new Map(endpoints.map((e) => [e, challenges(s.urls.base, s.oauth.resources.find((r) => r.path === e.path))]));
  const origins = s.config.origins ?? [ownOrigin(s)];
  const endpointOf = (req, res) => {
    const seller = req.params.seller;
    if (seller === void 0) return deckEndpoint;
    const e = sellerEndpoints.get(String(seller));
    if (!e) res.status(404).json({ ok: false, error: "unknown_seller", message: `no seller ${String(seller)}`, sellers: SELLER_IDS });
    return e ?? null;
  };
  const viewOf = (req, res, refuse) => {
    const e = endpointOf(req, res);
    if (!e) return null;
    const choice = chooseToolsets(req.query.toolsets, e.toolsets, e.defaults);
    if (!choice.ok) {
      refuse(choice.message, e);
      return null;
    }
    return { e, toolsets: choice.toolsets };
  };
  const rpcRefusal = (res) => (message) => void res.status(400).json(rpcError(null, INVALID_PARAMS, message));
  const admitted = (req, res) => {
    if (!viewOf(req, res, rpcRefusal(res))) return false;
    if (!originAllowed(req.headers.origin, origins)) {
      res.status(403).json(rpcError(null, INVALID_REQUEST, `Origin ${req.headers.origin} is not on the allowlist`));
      return false;
    }
    return true;
  };
  const describe = (req, res) => {
    const view = viewOf(
      req,
      res,
      (message, e2) => res.status(400).json({ ok: false, error: "invalid_toolsets", message, toolsets: [...e2.toolsets.keys()] })
    );
    if (!view) return;
    const { e, toolsets } = view;
    if (req.accepts(["application/json", "text/event-stream"]) === "text/event-stream" && !req.accepts("application/json")) {
      res.status(405).set("allow", "POST").json({ ok: false, error: "no_stream", message: "this endpoint is stateless: POST JSON-RPC to it" });
      return;
    }
    res.json({
      ok: true,
      name: e.name,
      endpoint: `${s.urls.base}${e.path}`,
      transport: "streamable-http, stateless: one POST, one application/json answer; batches answer an array; notifications answer 202",
      auth: AUTH_RULE,
      join_url: s.urls.join,
      // Every tool the endpoint serves; tools/list shows those of the listed toolsets.
      tools: e.tools.map((t) => t.name),
      toolsets: Object.fromEntries(e.toolsets),
      default_toolsets: e.defaults,
      listed_toolsets: [...e.toolsets.keys()].filter((n) => toolsets.has(n)),
      toolsets_rule: TOOLSETS_RULE,
      // Tools a tier locks: tools/list shows them only to callers whose tier opens them.
      tier_locked: Object.fromEntries(e.tools.filter((t) => e.locks.has(t.name)).map((t) => [t.name, e.locks.get(t.name)]))
    });
  };
  const handle = async (req, res) => {
    const { e, toolsets } = viewOf(req, res, rpcRefusal(res));
    const body = req.body;
    const batch = Array.isArray(body);
    const messages = batch ? body : [body];
    if (messages.length === 0) {
      res.status(400).json(rpcError(null, INVALID_REQUEST, "an empty batch: send at least one JSON-RPC message"));
      return;
    }
    if (messages.length > MAX_BATCH_MESSAGES) {
      res.status(413).json(tooManyMessages(messages.length));
      return;
    }
    const { ctx, refused: refused4, boundTo, restingS } = await contextOf(s, req, true, e.path);
    const challenged = challenge.get(e);
    if (restingS > 0) {
      const { message, details } = resting(restingS);
      const answers = messages.filter((m) => idOf(m) !== null).map((m) => rpcError(idOf(m), RESTING, message, details));
      res.status(429).set("retry-after", String(details.retry_after_s));
      res.json(batch ? answers : answers[0] ?? rpcError(null, RESTING, message, details));
      return;
    }
    if (refused4) {
      const why = boundTo === null ? "the bearer did not verify" : `the bearer is bound to another endpoint, ${boundTo}, not ${e.path}: use it there, or get a token for ${s.urls.base}${e.path} (its OAuth resource)`;
      const answers = messages.filter((m) => idOf(m) !== null).map((m) => rpcError(idOf(m), KEY_REQUIRED, why));
      res.status(401).set("www-authenticate", challenged.invalid);
      res.json(batch ? answers : answers[0] ?? rpcError(null, KEY_REQUIRED, why));
      return;
    }
    const header = req.headers["mcp-protocol-version"];
    const modern = messages.some(claimsModern) || typeof header === "string" && header >= MODERN_PROTOCOL;
    const server = servers.get(e);
    if (!batch) {
      const checked = checkMessage(body, modern ? TOOL_REQUESTS : LEGACY_REQUESTS, e.argumentBounds);
      if (!checked.ok) {
        res.status(checked.refusal.error.code === INVALID_REQUEST ? 400 : 200).json(checked.refusal);
        return;
      }
      if (modern) return modernAnswer(req, res, ctx, e, toolsets, body, challenged.missing);
      const stream = answerStream(req, res, checked.message);
      const reply2 = await server.dispatch(checked.message, ctx, toolsets, stream.hear);
      if (reply2 === null) res.status(202).end();
      else if (stream.end(replyJson(reply2))) return;
      else {
        if (keyRequired(reply2)) res.status(401).set("www-authenticate", challenged.missing);
        sendJson(req, res, replyJson(reply2));
      }
      return;
    }
    if (modern) return modernAnswer(req, res, ctx, e, toolsets, body, challenged.missing);
    let needsKey = false;
    const replies = await runBatch(messages, async (m) => {
      const checked = checkMessage(m, LEGACY_REQUESTS, e.argumentBounds);
      const reply2 = checked.ok ? await server.dispatch(checked.message, ctx, toolsets) : checked.refusal;
      if (reply2 && keyRequired(reply2)) needsKey = true;
      return reply2;
    });
    if (needsKey) res.set("www-authenticate", challenged.missing);
    if (replies.length === 0) res.status(202).end();
    else sendJson(req, res, `[${replies.join(",")}]`);
  };
  const parseFailure = (err, req, res, next) => {
    const failure2 = bodyFailure(err, req);
    if (!failure2) return next(err);
    const code = failure2.status === 400 && failure2.code !== "bad_content_type" ? PARSE_ERROR : INVALID_REQUEST;
    const message = failure2.status === 413 && failure2.details.bounds === void 0 ? `the body is over the MCP endpoints' cap of ${MAX_BODY_BYTES / MIB} MiB` : failure2.message;
    res.status(failure2.status).json(rpcError(null, code, code === PARSE_ERROR ? `Parse error: ${message}` : message));
  };
  const json2 = jsonBody(MAX_BODY_BYTES, MCP_BOUNDS, parsedOnPool(s.pool));
  const post = (req, res, next) => {
    if (!admitted(req, res)) return;
    json2(req, res, (err) => err ? parseFailure(err, req, res, next) : void handle(req, res).catch(next));
  };
  app.get(MCP_PATHS, describe);
  app.post(MCP_PATHS, post);
}

// rest/events.ts
var frame2 = (event, data) => `event: ${event}
data: ${JSON.stringify(data)}

`;
async function sendEvents(res, stream, log) {
  res.status(200).set({ "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" });
  res.flushHeaders();
  let gone = false;
  res.once("close", () => {
    if (res.writableFinished) return;
    gone = true;
    void stream.events.return({}).catch(() => {
    });
  });
  try {
    for (; ; ) {
      const next = await stream.events.next();
      if (gone) return;
      if (next.done) {
        res.end(frame2("done", next.value));
        return;
      }
      res.write(frame2(next.value.event, next.value.data));
    }
  } catch (error) {
    if (gone) return;
    const refusal2 = error instanceof DeckError ? error : internalFailure();
    if (refusal2 !== error) log.error("stream_failed", { error: error.message });
    res.end(frame2("error", { ...refusal2.body(), status: refusal2.status }));
  }
}

// rest/query-input.ts
import { z as z2 } from "zod";
function scalarOf(schema) {
  if (schema instanceof z2.ZodNumber) return "number";
  if (schema instanceof z2.ZodBoolean) return "boolean";
  if (schema instanceof z2.ZodOptional || schema instanceof z2.ZodNullable || schema instanceof z2.ZodDefault) return scalarOf(schema.unwrap());
  if (schema instanceof z2.ZodPipe) return scalarOf(schema.in);
  if (schema instanceof z2.ZodUnion) return schema.options.some((o) => scalarOf(o) === "number") ? "number" : "text";
  return "text";
}
var DECIMAL = /^-?\d+(\.\d+)?$/;
var YES_NO = { "1": true, true: true, "0": false, false: false };
function textReader(input) {
  const kinds = new Map(Object.entries(input.shape).map(([key, field]) => [key, scalarOf(field)]));
  return (values) => Object.fromEntries(
    Object.entries(values).map(([key, value]) => {
      if (typeof value !== "string") return [key, value];
      const kind = kinds.get(key);
      if (kind === "number" && DECIMAL.test(value)) return [key, Number(value)];
      if (kind === "boolean" && value in YES_NO) return [key, YES_NO[value]];
      return [key, value];
    })
  );
}

// rest/statuses.ts
var statusFactsOf = (s) => ({
  locks: s.offer.locks,
  door: s.upstreams.door.kind,
  priced: new Set(s.offer.perCall?.requirements.keys() ?? [])
});
var credentialStatuses = (facts) => facts.door === "http" ? [502, 503] : [];
function routeStatuses(tool, facts) {
  const rest = tool.rest;
  const set = new Set(tool.statuses);
  if (rest.path.includes(":")) set.add(400);
  if (rest.method === "POST" && rest.body !== "none") for (const s of [400, 413, 415]) set.add(s);
  if (rest.method !== "GET") set.add(403);
  if (tool.access !== "none") for (const s of [401, 429]) set.add(s);
  for (const s of credentialStatuses(facts)) set.add(s);
  if (facts.locks.has(tool.name)) set.add(403);
  if (facts.priced.has(tool.name)) set.add(402);
  set.add(500);
  return [...set].sort((a, b) => a - b);
}
function heldToStatuses(tool, facts, log, handler) {
  const listed = new Set(routeStatuses(tool, facts));
  return async (req, res) => {
    try {
      await handler(req, res);
    } catch (error) {
      if (!(error instanceof DeckError) || listed.has(error.status)) throw error;
      log.error("status_drift", { tool: tool.name, status: error.status, code: error.code });
      throw internalFailure();
    }
  };
}

// rest/adapter.ts
var MAX_BODY = 1024 * 1024;
var JSON_TYPES = ["application/json", "application/*+json"];
var isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
var bodyless = (req) => !req.headers["transfer-encoding"] && Number(req.headers["content-length"] ?? 0) === 0;
var jsonOnly = (req, _res, next) => {
  if (bodyless(req) || req.is(JSON_TYPES)) return next();
  next(new DeckError(415, "unsupported_media_type", "send the body as content-type: application/json", { field: "content-type", expected: "application/json" }));
};
function ownPagesOnly(s) {
  const allowed = [ownOrigin(s), ...s.config.origins ?? []];
  return (req, _res, next) => {
    const origin = pageOrigin(req);
    if (!byCookie(req) || originAllowed(origin, allowed)) return next();
    next(new DeckError(403, "origin_refused", `a page of ${origin.slice(0, 200)} may not write with the deck's cookie`, { field: "origin" }));
  };
}
function inputOf(tool, req, fromText) {
  const wantsBody = tool.rest.method === "POST" && tool.rest.body !== "none";
  if (wantsBody && (bodyless(req) || !isObject(req.body))) throw new DeckError(400, "not_json", "the body must be a JSON object");
  return {
    ...fromText(req.query),
    ...wantsBody ? req.body : {},
    ...fromText(req.params)
  };
}
function applyCookie(cookie, result, secure, res) {
  if (cookie === "clear") res.clearCookie(SESSION_COOKIE, { path: "/" });
  if (cookie !== "set" || !isObject(result) || !isObject(result.session)) return result;
  const { session, ...body } = result;
  const { token, expires_at } = session;
  res.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: "lax", secure, path: "/", expires: new Date(expires_at) });
  return body;
}
function restRoutes(router, s, tools) {
  const ownPages = ownPagesOnly(s);
  const httpsBase = s.urls.base.startsWith("https:");
  const facts = statusFactsOf(s);
  for (const tool of tools) {
    const rest = tool.rest;
    if (!rest) continue;
    const guarded = tool.access !== "none";
    const fromText = textReader(tool.input);
    const answer = async (req, res) => {
      const { ctx, refused: refused4, boundTo, restingS } = await contextOf(s, req, guarded);
      if (restingS > 0 || refused4 && guarded) {
        if (byCookie(req)) res.clearCookie(SESSION_COOKIE, { path: "/" });
        throw restingS > 0 ? resting(restingS) : signInFirst(boundTo);
      }
      const perCall = perCallFor(ctx, tool);
      if (perCall) Object.assign(ctx, await paidAs(ctx, perCall, tool.name, `${s.urls.base}${req.originalUrl}`, req.headers["payment-signature"]));
      const result = await tool.call(ctx, inputOf(tool, req, fromText));
      if (ctx.payment?.settled) res.set("payment-response", toHeader(ctx.payment.settled));
      if (result instanceof EventStream) return sendEvents(res, result, s.log);
      res.statusCode = rest.status ?? 200;
      if (result instanceof JsonBytes) sendJson(req, res, result.bytes);
      else if (result instanceof WithImage || result instanceof WithLinks) sendJson(req, res, jsonOf(result.body));
      else sendJson(req, res, jsonOf(rest.cookie ? applyCookie(rest.cookie, result, req.secure || httpsBase, res) : result));
    };
    const handler = s.config.checkOutput ? heldToStatuses(tool, facts, s.log, answer) : answer;
    if (rest.method === "GET") router.get(rest.path, handler);
    else if (rest.method === "DELETE") router.delete(rest.path, ownPages, handler);
    else if (rest.body === "none") router.post(rest.path, ownPages, handler);
    else router.post(rest.path, ownPages, jsonOnly, jsonBody(rest.maxBody ?? MAX_BODY, tool.bounds, parsedOnPool(s.pool)), handler);
  }
}

// rest/doors.ts
import { parse as parseCookies2 } from "cookie";

// services/doors/x.ts
var X_CALLBACK_PATH = "/auth/x/callback";
function xDoor(ctx) {
  if (!ctx.upstreams.x) throw notConfigured("the X door", "DECK_X_CLIENT_ID (and DECK_X_CLIENT_SECRET for a confidential client)");
  return ctx.upstreams.x;
}
var callbackOf = (ctx) => `${ctx.urls.base}${X_CALLBACK_PATH}`;
async function startX(ctx) {
  const door = xDoor(ctx);
  notResting(ctx);
  const now = ctx.clock();
  const state = newState();
  await ctx.store.doors.update(now, (d) => void (d.states[digest(state)] = { expires_at: now + X_TTL_MS }));
  return { url: door.authorizeUrl({ redirectUri: callbackOf(ctx), state, challenge: s256(pkceVerifier(ctx.store.salt, state)) }), state };
}
async function finishX(ctx, back) {
  const door = xDoor(ctx);
  const client = notResting(ctx);
  const now = ctx.clock();
  const state = back.state ?? "";
  const known = state.length > 0 && state.length <= 128 && state === back.browserState;
  const spent = known && await ctx.store.doors.update(now, (d) => d.states[digest(state)] ? (delete d.states[digest(state)], true) : false);
  if (!spent) {
    await ctx.login.refused(client, now);
    throw new DeckError(401, "x_state_refused", "this X sign-in was not started in this browser, was finished already or expired: start again");
  }
  if (back.error || !back.code) throw new DeckError(403, "x_declined", `X did not give consent (${(back.error ?? "no code").slice(0, 64)})`);
  const account = await door.accountOf({ code: back.code, verifier: pkceVerifier(ctx.store.salt, state), redirectUri: callbackOf(ctx) });
  return proved(ctx, "x", xKey(account.id), `@${account.username}`);
}

// rest/doors.ts
var X_STATE_COOKIE = "deck_x_state";
var X_PATH = "/auth/x";
function doorRoutes(app, s) {
  const httpsBase = s.urls.base.startsWith("https:");
  const secure = (req) => req.secure || httpsBase;
  const toJoin = (res, params) => {
    const at2 = new URL(s.urls.join);
    for (const [k, v] of Object.entries(params)) at2.searchParams.set(k, v);
    res.set("cache-control", "no-store").redirect(302, at2.href);
  };
  app.get(X_PATH, async (req, res, next) => {
    try {
      const { ctx } = await contextOf(s, req, false);
      const { url: url2, state } = await startX(ctx);
      res.cookie(X_STATE_COOKIE, state, { httpOnly: true, sameSite: "lax", secure: secure(req), path: X_PATH, maxAge: X_TTL_MS });
      res.set("cache-control", "no-store").redirect(302, url2);
    } catch (error) {
      next(error);
    }
  });
  app.get(X_CALLBACK_PATH, async (req, res, next) => {
    const query = req.query;
    const text = (k) => typeof query[k] === "string" ? query[k] : void 0;
    res.clearCookie(X_STATE_COOKIE, { path: X_PATH });
    let done;
    try {
      const { ctx } = await contextOf(s, req, false);
      const header = req.headers.cookie;
      done = await finishX(ctx, { code: text("code"), state: text("state"), error: text("error"), browserState: header ? parseCookies2(header)[X_STATE_COOKIE] ?? null : null });
    } catch (error) {
      if (!(error instanceof DeckError) || error.status === 500) return next(error);
      if (error.status === 429) res.set("retry-after", String(error.details.retry_after_s));
      return toJoin(res, { door: "x", door_error: error.code });
    }
    if (done.session) {
      res.cookie(SESSION_COOKIE, done.session.token, { httpOnly: true, sameSite: "lax", secure: secure(req), path: "/", expires: new Date(done.session.expires_at) });
      return toJoin(res, { door: "x" });
    }
    toJoin(res, { door: "x", proof: done.proof });
  });
}

// rest/oauth.ts
import { InvalidRequestError, InvalidTargetError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { authorizationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/authorize.js";
import { metadataHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/metadata.js";
import { clientRegistrationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/register.js";
import { revocationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/revoke.js";
import { tokenHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/token.js";
import express2 from "express";
var OAUTH_PATHS = { authorize: "/oauth/authorize", token: "/oauth/token", register: "/oauth/register", revoke: "/oauth/revoke" };
function authorizationServerMetadata(s) {
  const base = s.urls.base;
  return {
    issuer: s.oauth.issuer,
    authorization_endpoint: `${base}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${base}${OAUTH_PATHS.token}`,
    registration_endpoint: `${base}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${base}${OAUTH_PATHS.revoke}`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: `${base}/openapi.json`
  };
}
function oauthRoutes(app, s) {
  const provider = {
    clientsStore: { getClient: (id) => clientFor(s, id), registerClient: (c) => registerClient(s, c) },
    async authorize(client, params, res) {
      if (!params.resource) throw new InvalidRequestError("resource is required (RFC 8707): the URL of the MCP endpoint the token is for");
      const resource = resourceNamed(s.oauth.resources, params.resource.href);
      if (!resource) {
        throw new InvalidTargetError(`${params.resource.href} is not the deck's: ask for one of ${s.oauth.resources.map((r) => r.url).join(", ")}`);
      }
      const now = s.clock();
      const id = s.oauth.authorizations.open(
        {
          client_id: client.client_id,
          client_name: client.client_name ?? null,
          redirect_uri: params.redirectUri,
          code_challenge: params.codeChallenge,
          state: params.state ?? null,
          resource: resource.path,
          expires_at: now + REQUEST_TTL_MS
        },
        now
      );
      res.redirect(302, `${s.urls.base}/join?authorization=${id}`);
    },
    challengeForAuthorizationCode: (client, code) => challengeOf(s, client.client_id, code),
    exchangeAuthorizationCode: (client, code, _verifier, redirectUri, resource) => exchangeCode(s, client.client_id, code, redirectUri, resource),
    exchangeRefreshToken: (client, token, _scopes, resource) => refresh(s, client.client_id, token, resource),
    verifyAccessToken: async (token) => verifyAccess(s, token),
    revokeToken: (client, request) => revoke(s, client.client_id, request.token)
  };
  const rateLimit = { validate: { xForwardedForHeader: false } };
  app.use("/.well-known/oauth-authorization-server", metadataHandler(authorizationServerMetadata(s)));
  for (const r of [...s.oauth.resources].sort((a, b) => b.metadataPath.length - a.metadataPath.length)) {
    app.use(r.metadataPath, metadataHandler(resourceMetadata(r, s.oauth.issuer, `${s.urls.base}/openapi.json`)));
  }
  if (s.store.backend.shared) {
    for (const path of Object.values(OAUTH_PATHS)) {
      app.use(path, (_req, _res, next) => void s.store.backend.catchUp().then(() => next(), next));
    }
  }
  const asking = (req, res, next) => {
    const id = req.method === "POST" ? req.body?.client_id : req.query.client_id;
    if (typeof id === "string" && metadataUrl(id)) res.once("close", s.oauth.askers.asking(id));
    next();
  };
  for (const path of [OAUTH_PATHS.authorize, OAUTH_PATHS.token, OAUTH_PATHS.revoke]) app.use(path, express2.urlencoded({ extended: false }), asking);
  app.use(OAUTH_PATHS.authorize, authorizationHandler({ provider, rateLimit }));
  app.use(OAUTH_PATHS.token, tokenHandler({ provider, rateLimit }));
  app.use(OAUTH_PATHS.register, clientRegistrationHandler({ clientsStore: provider.clientsStore, rateLimit }));
  app.use(OAUTH_PATHS.revoke, revocationHandler({ provider, rateLimit }));
}

// rest/openapi.ts
import { z as z4 } from "zod";

// cards/schema.ts
import { z as z3 } from "zod";
var Address = z3.string().regex(/^0x[0-9a-fA-F]{40}$/);
var Service = z3.strictObject({
  name: z3.string().describe("MCP, or agentWallet"),
  endpoint: z3.string().describe("an MCP endpoint, or the wallet in CAIP-10 form (eip155:<chainId>:<address>)"),
  version: z3.string(),
  from: z3.enum(["erc8004", "cards.agent_wallet", "cards.owner", "treasury"]).optional().describe("agentWallet: where the wallet came from (erc8004: set on the identity registry with the wallet's EIP-712 signature)"),
  tx: z3.string().optional().describe("agentWallet from erc8004: the transaction that set it on the registry")
});
var Registrations = z3.array(z3.strictObject({ agentId: z3.number().int(), agentRegistry: z3.string() }));
var REGISTRATION_HEAD = {
  type: z3.literal("https://eips.ethereum.org/EIPS/eip-8004#registration-v1"),
  name: z3.string(),
  description: z3.string(),
  image: z3.string().describe("a URI an ERC-721 reader can show")
};
var SellerCardSchema = z3.strictObject({
  ...REGISTRATION_HEAD,
  services: z3.array(Service).describe("an MCP entry and, when the deck knows a wallet, an agentWallet entry"),
  x402Support: z3.boolean().describe("true when the deck takes payment per call (x402 v2): a facilitator is configured"),
  x402: z3.strictObject({
    version: z3.literal(2),
    prices: z3.array(
      z3.strictObject({
        tool: z3.string(),
        price_usdc: z3.string().optional().describe("scheme exact: the price of a call"),
        per_bar_usdc: z3.string().optional().describe("scheme upto: the price of a bar served, settled for the bars a call serves"),
        max_usdc: z3.string().optional().describe("scheme upto: the most a call costs, the amount a payer signs for"),
        scheme: z3.string(),
        network: z3.string(),
        amount: z3.string(),
        asset: Address,
        payTo: Address,
        maxTimeoutSeconds: z3.number().int(),
        extra: z3.record(z3.string(), z3.unknown()).optional()
      })
    )
  }).optional().describe("with x402Support: each of the seller's tools paid per call, its price in USDC (a call's, or a bar's and a call's most) and the x402 PaymentRequirements a call answers (upto's without the facilitatorAddress its 402 adds, the facilitator's own)"),
  active: z3.boolean(),
  registrations: Registrations,
  supportedTrust: z3.array(z3.string()),
  id: z3.string(),
  card_url: z3.string(),
  address: Address.nullable().describe("the agentWallet address; null when the deck knows none"),
  owner: Address.nullable(),
  kind: z3.literal("mcp"),
  endpoint: z3.string(),
  skills: z3.array(z3.string()),
  tools: z3.array(z3.string()),
  tools_without_key: z3.array(z3.string()),
  price_usdc: z3.strictObject({ unit: z3.string(), min: z3.number(), max: z3.number() }),
  price_basis: z3.string(),
  verify: z3.string(),
  classes: z3.array(z3.string()),
  proposed_classes: z3.array(z3.string()),
  access: z3.strictObject({ auth: z3.literal("bearer"), join_url: z3.string(), keyless: z3.array(z3.string()) }),
  provider: z3.strictObject({ name: z3.string(), url: z3.string() }),
  erc8004: z3.strictObject({ agentId: z3.number().int().nullable(), tx: z3.string().nullable(), block: z3.number().int().nullable() })
});
var CardsSchema = z3.strictObject({ ok: z3.literal(true), cards: z3.array(SellerCardSchema) });
var DeckRegistrationSchema = z3.strictObject({
  ...REGISTRATION_HEAD,
  services: z3.array(Service).describe("the deck's own MCP endpoint, each seller's, and the deck's agentWallet when it knows one"),
  x402Support: z3.boolean(),
  active: z3.boolean(),
  registrations: Registrations.describe("every seller's registrations: a verifier of one seller's agent finds its agentRegistry and agentId here"),
  supportedTrust: z3.array(z3.string()),
  agents: z3.array(z3.strictObject({ id: z3.string(), card_url: z3.string(), agentId: z3.number().int().nullable() })).describe("each seller's card and agent id (null until it is registered)")
});

// rest/openapi-components.ts
var SMALLEST_SHARED = 160;
var REF = "#/components/schemas/";
var pascal = (name) => name.replace(/(^|[_-])([a-z0-9])/g, (_, _sep, c) => c.toUpperCase());
var isSchema = (x) => typeof x === "object" && x !== null && !Array.isArray(x);
function mapSubschemas(s, f) {
  const out = {};
  for (const [key, value] of Object.entries(s)) {
    if ((key === "properties" || key === "patternProperties") && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, isSchema(sub) ? f(sub, name) : sub]));
    } else if ((key === "anyOf" || key === "oneOf" || key === "allOf" || key === "prefixItems") && Array.isArray(value)) {
      out[key] = value.map((sub, i) => isSchema(sub) ? f(sub, `${key}${i}`) : sub);
    } else if ((key === "items" || key === "additionalProperties" || key === "not" || key === "propertyNames" || key === "contains") && isSchema(value)) {
      out[key] = f(value, key === "items" ? "item" : key);
    } else out[key] = value;
  }
  return out;
}
var Shapes = class {
  ids = /* @__PURE__ */ new Map();
  known = /* @__PURE__ */ new WeakMap();
  seen = /* @__PURE__ */ new Map();
  measure(s) {
    let m = this.known.get(s);
    if (m) return m;
    let size = 0;
    const { description: _own, ...bare } = s;
    const text = JSON.stringify(
      mapSubschemas(bare, (sub) => {
        const inner = this.measure(sub);
        size += inner.size;
        return `\0${inner.id}`;
      })
    );
    let id = this.ids.get(text);
    if (id === void 0) this.ids.set(text, id = this.ids.size);
    m = { id, size: size + text.length };
    this.known.set(s, m);
    this.seen.set(id, (this.seen.get(id) ?? 0) + 1);
    return m;
  }
};
function placesOf(paths) {
  const places = [];
  const at2 = (holder, name) => {
    if (holder.schema) places.push({ schema: holder.schema, put: (s) => void (holder.schema = s), name });
  };
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const id = op.operationId ?? `${method}${path.replace(/[{}]/g, "").replaceAll("/", ".")}`;
      for (const p of op.parameters ?? []) at2(p, `${id}.${p.name}`);
      for (const c of Object.values(op.requestBody?.content ?? {})) at2(c, `${id}.body`);
      for (const [status, r] of Object.entries(op.responses ?? {})) for (const c of Object.values(r.content ?? {})) at2(c, status.startsWith("2") ? `${id}.answer` : `${id}.${status}`);
    }
  }
  return places;
}
function mergeSameComponents(doc) {
  const first = /* @__PURE__ */ new Map();
  const renamed = /* @__PURE__ */ new Map();
  for (const [name, body] of Object.entries(doc.components.schemas)) {
    const shape = JSON.stringify(body).replaceAll(`"${REF}${name}"`, '"#self"');
    const kept2 = first.get(shape);
    if (kept2 === void 0) first.set(shape, name);
    else renamed.set(name, kept2);
  }
  for (const kept2 of first.values()) {
    const own = kept2.slice(kept2.lastIndexOf(".") + 1);
    if (own !== kept2 && !/^__schema\d+$/.test(own) && !(own in doc.components.schemas)) renamed.set(kept2, own);
  }
  for (const [name, to] of renamed) if (!renamed.has(to)) doc.components.schemas[to] = doc.components.schemas[name];
  for (const name of renamed.keys()) delete doc.components.schemas[name];
  const last = (name) => renamed.has(name) ? last(renamed.get(name)) : name;
  const follow = (text) => text.replace(/"#\/components\/schemas\/([^"]+)"/g, (_, name) => `"${REF}${last(name)}"`);
  doc.paths = JSON.parse(follow(JSON.stringify(doc.paths)));
  doc.components.schemas = JSON.parse(follow(JSON.stringify(doc.components.schemas)));
}
function shareSchemas(doc) {
  mergeSameComponents(doc);
  const places = placesOf(doc.paths);
  const given = doc.components.schemas;
  const shapes = new Shapes();
  for (const s of [...places.map((p) => p.schema), ...Object.values(given)]) shapes.measure(s);
  const names = /* @__PURE__ */ new Map();
  const bodies = /* @__PURE__ */ new Map();
  const firsts = /* @__PURE__ */ new Map();
  const taken = new Set(Object.keys(given));
  const nameFor = (path, root) => {
    const parts = path.split(".");
    const steps = parts.map(pascal);
    const least = /^(item|(anyOf|oneOf|allOf|prefixItems)\d+)$/.test(parts.at(-1)) ? 2 : 1;
    const tries = root ? [steps.join("")] : [least, least + 1, least + 2].map((n) => steps.slice(-n).join(""));
    let name = [...tries, path].find((t) => !taken.has(t));
    for (let n = 2; name === void 0; n++) if (!taken.has(`${path}.${n}`)) name = `${path}.${n}`;
    taken.add(name);
    return name;
  };
  const share = (s, name, whole, root = false) => {
    const { id, size } = shapes.measure(s);
    if (whole || size < SMALLEST_SHARED || (shapes.seen.get(id) ?? 0) < 2) return mapSubschemas(s, (sub, step) => share(sub, `${name}.${step}`, false));
    let at2 = names.get(id);
    if (at2 === void 0) {
      at2 = nameFor(name, root);
      names.set(id, at2);
      firsts.set(at2, s);
      const { description: _own, ...bare } = s;
      bodies.set(at2, mapSubschemas(bare, (sub, step) => share(sub, `${at2}.${step}`, false)));
    }
    return typeof s.description === "string" ? { description: s.description, $ref: `${REF}${at2}` } : { $ref: `${REF}${at2}` };
  };
  for (const p of places) p.put(share(p.schema, p.name, false, true));
  const schemas = {};
  for (const [name, s] of Object.entries(given)) schemas[name] = share(s, name, true);
  for (const [name, body] of bodies) schemas[name] = body;
  const refs = /* @__PURE__ */ new Map();
  for (const m of JSON.stringify([doc.paths, schemas]).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) refs.set(m[1], (refs.get(m[1]) ?? 0) + 1);
  const once = new Set([...bodies.keys()].filter((name) => refs.get(name) === 1));
  const inline2 = (s) => {
    const name = typeof s.$ref === "string" && s.$ref.startsWith(REF) ? s.$ref.slice(REF.length) : null;
    if (name === null || !once.has(name)) return mapSubschemas(s, inline2);
    const body = inline2(bodies.get(name));
    return Object.fromEntries(Object.keys(firsts.get(name)).map((key) => [key, key === "description" ? s.description : body[key]]));
  };
  for (const name of once) delete schemas[name];
  for (const p of placesOf(doc.paths)) p.put(inline2(p.schema));
  doc.components.schemas = Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, inline2(s)]));
}

// rest/openapi.ts
var REASONS = {
  200: "OK",
  201: "Created",
  202: "Accepted (a notification)",
  400: "The body is not JSON (or not the content-encoding it claims), the path has a bad percent-escape, or, where the route says so, an input failed its rule",
  401: "Sign in with POST /login first",
  402: "No funding",
  403: "Forbidden (upgrade_required names the tier, or the Origin is refused)",
  404: "No such item of yours",
  405: "No stream on a stateless endpoint",
  409: "Conflict",
  413: "Over the size cap",
  415: "Unsupported media type or content-encoding",
  422: "An input failed its rule (problems names each field)",
  429: "A limit was reached (Retry-After says when to come back)",
  500: "The deck failed (an engine failure is carried; anything else is logged, not shown)",
  502: "An upstream refused or answered nonsense",
  503: "An upstream is not configured or cannot be reached"
};
var ERROR = { $ref: "#/components/schemas/Error" };
var json = (schema) => ({ content: { "application/json": { schema } } });
var reply = (status, schema = { type: "object" }) => [String(status), { description: REASONS[status] ?? "Answer", ...json(schema) }];
var refused = (status) => [String(status), { $ref: `#/components/responses/Error${status}` }];
function refusalsIn(paths) {
  const statuses = [...new Set([...JSON.stringify(paths).matchAll(/"#\/components\/responses\/Error(\d+)"/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  return Object.fromEntries(statuses.map((status) => [`Error${status}`, { description: REASONS[status] ?? "Refused", ...json(ERROR) }]));
}
var SESSION = [{ deckSession: [] }, { deckKey: [] }];
var securityOf = (access) => access === "none" ? [] : access === "session" ? SESSION : [{}, ...SESSION];
function hoisted(schema, prefix, components) {
  const { $defs, ...rest } = schema;
  if (!$defs) return schema;
  const moved = (x) => JSON.parse(JSON.stringify(x).replaceAll('"#/$defs/', `"#/components/schemas/${prefix}.`));
  for (const [name, def] of Object.entries($defs)) components[`${prefix}.${name}`] = moved(def);
  return moved(rest);
}
function answerSchema(tool, components) {
  const schema = hoisted(tool.outputSchema, `${tool.name}.answer`, components);
  if (tool.rest.cookie !== "set") return schema;
  const { session: _cookie, ...properties } = schema.properties;
  return { ...schema, properties, required: schema.required.filter((k) => k !== "session") };
}
function operationOf(tool, components, facts) {
  const rest = tool.rest;
  const { $schema: _dialect, ...inputSchema } = hoisted(tool.inputSchema, tool.name, components);
  const pathParams = [...rest.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const props = inputSchema.properties ?? {};
  const required = new Set(inputSchema.required ?? []);
  const inQuery = rest.method !== "POST" ? Object.keys(props).filter((k) => !pathParams.includes(k)) : [];
  const bodyProps = Object.fromEntries(Object.entries(props).filter(([k]) => !pathParams.includes(k)));
  const parameters = [
    ...pathParams.map((name) => ({ name, in: "path", required: true, schema: props[name] ?? { type: "string" } })),
    ...inQuery.map((name) => ({ name, in: "query", required: required.has(name), schema: props[name] ?? {} }))
  ];
  const body = rest.method === "POST" && rest.body !== "none" ? { requestBody: { required: true, ...json({ ...inputSchema, properties: bodyProps, required: [...required].filter((k) => !pathParams.includes(k)) }) } } : {};
  return {
    operationId: tool.name,
    tags: [tool.toolset.id],
    summary: tool.title,
    description: tool.description,
    security: securityOf(tool.access),
    ...parameters.length ? { parameters } : {},
    ...body,
    responses: Object.fromEntries([reply(rest.status ?? 200, answerSchema(tool, components)), ...routeStatuses(tool, facts).map((s) => refused(s))]),
    ...tool.surface === "both" ? { "x-mcp-tool": tool.name } : {}
  };
}
var RPC = { type: "object", description: "A JSON-RPC 2.0 message, or an array of them (a batch)" };
var TAGS = [
  ...Object.values(TOOLSETS).map((t) => ({ name: t.id, description: t.description })),
  { name: "mcp", description: "The MCP endpoints: the deck's own (every tool; tools/list shows the toolsets ?toolsets= names) and one per seller." },
  { name: "cards", description: "How the deck is described: the seller cards (ERC-8004 registration files, also the coordination layer's cards) and this document." }
];
var schemaOf = (schema) => {
  const { $schema: _dialect, ...rest } = z4.toJSONSchema(schema, { io: "output" });
  return rest;
};
var CARD = schemaOf(SellerCardSchema);
var CARDS = schemaOf(CardsSchema);
var REGISTRATION = schemaOf(DeckRegistrationSchema);
var LAST = { type: ["object", "null"], properties: { outcome: { enum: ["ok", "refused", "unreachable"] }, status: { type: ["integer", "null"] }, at: { type: "string", format: "date-time" }, ms: { type: "integer" } }, required: ["outcome", "status", "at", "ms"] };
var READY = {
  type: "object",
  required: ["ok", "ready", "store", "upstreams"],
  properties: {
    ok: { type: "boolean" },
    ready: { type: "boolean" },
    store: { type: "object", required: ["writable"], properties: { writable: { type: "boolean" }, why: { type: "string" } }, additionalProperties: false },
    upstreams: {
      type: "array",
      items: { type: "object", required: ["upstream", "variable", "last"], properties: { upstream: { type: "string" }, variable: { type: "string" }, last: LAST }, additionalProperties: false },
      description: "every configured upstream, the variable that configured it and its last answer since start (null: not asked yet)"
    }
  },
  additionalProperties: false
};
var PLATE_JSON = {
  type: "object",
  required: ["style", "market", "tf", "from", "to", "size"],
  properties: {
    style: { type: "string" },
    market: { type: "string" },
    tf: { type: "string" },
    from: { type: "string", format: "date-time" },
    to: { type: "string", format: "date-time" },
    size: { type: "object", required: ["width", "height"], properties: { width: { type: "integer" }, height: { type: "integer" } } },
    bars: { type: "object", description: "the drawn bars: count, first_t, last_t, digest (sha256 of their columns), last" },
    price: { type: "object", description: "low, high, decimals" },
    volume: { type: "object" },
    indicators: { type: "array", items: { type: "object" } },
    marks: { type: "array", items: { type: "object", properties: { kind: { enum: ["level", "zone"] }, placed: { type: "string" } } } }
  }
};
function fixedPaths(facts) {
  const credential = credentialStatuses(facts);
  const seller = { name: "seller", in: "path", required: true, schema: { type: "string", enum: SELLER_IDS } };
  const toolsets = {
    name: "toolsets",
    in: "query",
    required: false,
    description: `The toolsets tools/list shows, comma-separated (the tags of the same names), or all; default names the ones a bare URL lists (on /mcp: ${DEFAULT_TOOLSETS.join(", ")}; on a seller's endpoint: all its own). A name the endpoint does not have is 400. tools/call serves every tool of the endpoint by name, listed or not.`,
    schema: { type: "string", examples: ["book,agent", "all"] }
  };
  const mcpPost = (params) => ({
    tags: ["mcp"],
    summary: "MCP over stateless Streamable HTTP: one POST, one application/json answer",
    security: [{}, ...SESSION],
    parameters: [...params, toolsets],
    requestBody: { required: true, ...json(RPC) },
    responses: Object.fromEntries([
      reply(200, RPC),
      ["202", { description: REASONS[202] }],
      ...[400, 401, 403, 413, 415, 429].map((status) => reply(status, RPC)),
      ...params.length ? [refused(404)] : [],
      ...[...credential, 500].map((status) => refused(status))
    ])
  });
  const mcpGet = (params) => ({
    tags: ["mcp"],
    summary: "The endpoint: name, transport, auth rule, tool names and toolsets",
    security: [],
    parameters: [...params, toolsets],
    responses: Object.fromEntries([reply(200), refused(400), refused(405), ...params.length ? [refused(404)] : []])
  });
  return {
    "/mcp": { get: mcpGet([]), post: mcpPost([]) },
    "/mcp/{seller}": { get: mcpGet([seller]), post: mcpPost([seller]) },
    "/cards": { get: { tags: ["cards"], summary: "Every seller card", security: [], responses: Object.fromEntries([reply(200, CARDS), refused(500)]) } },
    "/cards/{seller}": {
      get: { tags: ["cards"], summary: "A seller's card (an ERC-8004 registration file)", security: [], parameters: [seller], responses: Object.fromEntries([reply(200, CARD), ...[400, 404, 500].map((st) => refused(st))]) }
    },
    "/.well-known/agent-registration.json": {
      get: {
        tags: ["cards"],
        summary: "ERC-8004's endpoint-domain proof: the deck's registration file, with every seller's registrations",
        description: "The domain hosts one agent per seller, each registered with its own card (GET /cards/{seller}) as its agentURI; a verifier of any of them finds its { agentId, agentRegistry } in registrations here. `agents` names the card each belongs to.",
        security: [],
        responses: Object.fromEntries([reply(200, REGISTRATION), reply(500, ERROR)])
      }
    },
    "/auth/x": {
      get: {
        tags: ["identity"],
        summary: "Sign in with X: a redirect to X's authorize URL (OAuth 2.0 with PKCE)",
        description: "Sets the state as an httpOnly cookie on /auth/x, so only this browser finishes the sign-in. 503 when the X door is not configured; 429 while the address rests under the login throttle.",
        security: [],
        responses: { "302": { description: "To X's authorize URL" }, ...Object.fromEntries([.../* @__PURE__ */ new Set([429, 500, 503, ...credential])].map((st) => refused(st))) }
      }
    },
    "/auth/x/callback": {
      get: {
        tags: ["identity"],
        summary: "Where X sends the person back: always a redirect to the join page",
        description: "Signed in (the deck_session cookie set): ?door=x. An X account linked to no principal: ?door=x&proof=<proof>, to join with (POST /join) or link (POST /me/doors). Refused: ?door=x&door_error=<code> (x_state_refused, x_declined, login_resting, upstream_refused, upstream_unreachable, upstream_silent, upstream_not_configured).",
        security: [],
        parameters: ["code", "state", "error"].map((name) => ({ name, in: "query", required: false, schema: { type: "string" } })),
        responses: { "302": { description: "To the join page" }, ...Object.fromEntries([refused(500)]) }
      }
    },
    "/openapi.json": { get: { tags: ["cards"], summary: "This document", security: [], responses: Object.fromEntries([reply(200)]) } },
    "/metrics": {
      get: {
        tags: ["plane"],
        summary: "The deck's metrics in the Prometheus text format",
        description: "Requests by surface (rest, mcp), method, route and status with their latency; tool calls by tool, surface and outcome (ok, refused, failed) with their latency; upstream calls by upstream and outcome (ok, refused, unreachable) with their latency; the depth of every guard (the chat lane among them); the entries of every ledger; and the process's own metrics (prom-client's defaults). Only for the house: a caller on loopback (the client address, read behind DECK_TRUST_PROXY), the DECK_METRICS_TOKEN bearer, or a house principal. Otherwise 401 without a credential, 403 naming the house tier with one.",
        security: [{}, { metricsToken: [] }, ...SESSION],
        responses: {
          "200": { description: "The metrics", content: { "text/plain": { schema: { type: "string" } } } },
          ...Object.fromEntries([401, 403, 429, ...credential, 500].map((s) => refused(s)))
        }
      }
    },
    "/health": {
      get: {
        tags: ["plane"],
        summary: "Alive: the process answers (for a load balancer)",
        security: [],
        responses: Object.fromEntries([reply(200, { type: "object", properties: { ok: { const: true }, alive: { const: true }, version: { type: "string" }, uptime_s: { type: "integer" } } })])
      }
    },
    "/ready": {
      get: {
        tags: ["plane"],
        summary: "Ready: the store takes a write; each configured upstream's last answer since start",
        description: "Ready (200) when the data directory takes a write (a probe written whole, synced and renamed); 503 when it does not. upstreams lists every configured upstream by name with the variable that configured it and its last answer ({ outcome, status, at, ms }, or null when not asked since start); an upstream does not decide readiness, since every route that needs none still serves.",
        security: [],
        responses: { ...Object.fromEntries([reply(200, READY)]), "503": { description: "The store did not take a write", ...json(READY) } }
      }
    },
    "/plates/{file}": {
      get: {
        tags: ["plates"],
        summary: "A sealed plate's PNG (<id>.png) or its chart_state (<id>.json); the id is their hash; the plate names no one and carries no mark's note or price (marks are drawn as lines and bands)",
        security: [],
        parameters: [{ name: "file", in: "path", required: true, schema: { type: "string", pattern: "^[0-9a-f]{64}\\.(png|json)$" } }],
        responses: {
          "200": { description: "The PNG or the chart_state", content: { "image/png": { schema: { type: "string", contentMediaType: "image/png" } }, "application/json": { schema: PLATE_JSON } } },
          ...Object.fromEntries([400, 404, 500].map((st) => refused(st)))
        }
      }
    }
  };
}
function openapiDocument(tools, base, version, facts) {
  const paths = fixedPaths(facts);
  const defs = {};
  for (const tool of tools) {
    if (!tool.rest) continue;
    const path = tool.rest.path.replace(/:(\w+)/g, "{$1}");
    (paths[path] ??= {})[tool.rest.method.toLowerCase()] = operationOf(tool, defs, facts);
  }
  const doc = {
    openapi: "3.1.0",
    info: { title: "the deck", version, description: "A trading-rule workbench served to agents (MCP), registries (seller cards) and people (this REST facade)." },
    servers: [{ url: base }],
    tags: TAGS,
    paths,
    components: {
      responses: refusalsIn(paths),
      securitySchemes: {
        deckSession: { type: "apiKey", in: "cookie", name: "deck_session", description: 'The session from POST /login; its value is also accepted as "Authorization: Bearer".' },
        deckKey: { type: "http", scheme: "bearer", description: "The key shown once at POST /join, as the bearer." },
        metricsToken: { type: "http", scheme: "bearer", description: "DECK_METRICS_TOKEN, for a metrics scraper that is not on loopback (GET /metrics only)." }
      },
      schemas: {
        Error: {
          type: "object",
          required: ["ok", "error", "message"],
          properties: {
            ok: { const: false },
            error: { type: "string" },
            message: { type: "string" },
            problems: { type: "array", items: { type: "object", properties: { field: { type: "string" }, message: { type: "string" } } } }
          }
        },
        ...defs
      }
    },
    "x-mcp": {
      endpoint: `${base}/mcp`,
      sellers: SELLER_IDS.map((id) => `${base}/mcp/${id}`),
      // Every tool /mcp serves (and lists with ?toolsets=all), by toolset; a bare /mcp lists the default toolsets.
      tools: tools.filter((t) => t.surface === "both").map((t) => t.name),
      toolsets: Object.fromEntries(toolsetsOf(tools.filter((t) => t.surface === "both"))),
      default_toolsets: DEFAULT_TOOLSETS
    }
  };
  shareSchemas(doc);
  return doc;
}

// rest/page-headers.ts
import { createHash } from "node:crypto";
var digestOf = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
var inline = (html, tag) => [...html.matchAll(new RegExp(`<${tag}(?:s[^>]*)?>([^]*?)</${tag}>`, "g"))].map((m) => m[1]);
function pageHeaders(html) {
  const csp = [
    "default-src 'none'",
    `script-src ${inline(html, "script").map(digestOf).join(" ") || "'none'"}`,
    `style-src ${inline(html, "style").map(digestOf).join(" ") || "'none'"}`,
    "connect-src 'self'",
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'"
  ].join("; ");
  return {
    "content-security-policy": csp,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store"
  };
}

// rest/plane.ts
import { timingSafeEqual } from "node:crypto";

// services/plane/ready.ts
function configured(c) {
  return [
    c.door && { upstream: "identity_door", variable: "DECK_DOOR_URL" },
    c.tapeUrl && { upstream: "venue_tape", variable: "DECK_TAPE_URL" },
    c.coord && { upstream: "coordination_layer", variable: "DECK_COORD_URL" },
    c.grader && { upstream: "grader", variable: "DECK_GRADER_URL" },
    c.reader && { upstream: "model_reader", variable: "DECK_READER_URL" },
    c.forecastUrl && { upstream: "forecast_sidecar", variable: "DECK_FORECAST_URL" },
    c.chat && { upstream: "chat_lane", variable: "DECK_CHAT_URL" },
    c.email && { upstream: "mail_server", variable: "DECK_SMTP_URL" },
    c.x && { upstream: "x", variable: "DECK_X_CLIENT_ID" }
  ].filter((x) => Boolean(x));
}
var lastOf = (call) => call && { outcome: call.outcome, status: call.status, at: new Date(call.at).toISOString(), ms: Math.round(call.seconds * 1e3) };
async function readiness(s) {
  let store;
  try {
    await s.store.backend.probeWrite(s.clock());
    store = { writable: true };
  } catch (error) {
    s.log.error("ready_store_failed", { error: error.message });
    store = { writable: false, why: `the ${s.store.backend.kind === "postgres" ? "database" : "data directory"} did not take a write (the reason is in the log)` };
  }
  const upstreams = configured(s.config).map((u) => ({ ...u, last: lastOf(s.plane.lastAnswer(u.upstream)) }));
  return { ready: store.writable, body: { ok: store.writable, ready: store.writable, store, upstreams } };
}

// rest/plane.ts
function routeOf(req) {
  const path = req.route?.path;
  if (typeof path === "string") return `${req.baseUrl}${path}`;
  if (Array.isArray(path)) {
    const depth = req.path.split("/").length;
    const fit = path.find((p) => p.split("/").length === depth) ?? path[0];
    return `${req.baseUrl}${fit}`;
  }
  return "(unmatched)";
}
function watchRequests(s, tools) {
  const toolOf = new Map(tools.filter((t) => t.rest).map((t) => [`${t.rest.method} ${t.rest.path}`, t.name]));
  return (req, res, next) => {
    const started = performance.now();
    res.once("close", () => {
      const seconds = (performance.now() - started) / 1e3;
      const route = routeOf(req);
      s.plane.request(route.startsWith("/mcp") ? "mcp" : "rest", req.method, route, res.statusCode, seconds);
      const tool = toolOf.get(`${req.method} ${route}`);
      if (tool) s.plane.toolCall(tool, "rest", outcomeOfStatus(res.statusCode), seconds);
    });
    next();
  };
}
var sameSecret = (a, b) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
async function metricsAdmitted(s, req) {
  const token = s.config.metricsToken;
  const bearer = bearerOf(req);
  if (token && bearer && sameSecret(bearer, token)) return;
  if (req.ip && loopbackAddress(req.ip)) return;
  const { ctx, refused: refused4, restingS } = await contextOf(s, req, true);
  if (restingS > 0) throw resting(restingS);
  if (refused4 || !ctx.principal) throw signInFirst();
  if (ctx.principal.tier !== "house") throw upgradeRequired(s, "metrics", "house");
}
function planeRoutes(app, s, version) {
  app.get("/metrics", async (req, res) => {
    await metricsAdmitted(s, req);
    const { type, text } = await s.plane.exposition();
    res.type(type).set("cache-control", "no-store").send(text);
  });
  app.get("/health", (_req, res) => void res.set("cache-control", "no-store").json({ ok: true, alive: true, version, uptime_s: Math.floor(process.uptime()) }));
  app.get("/ready", async (_req, res) => {
    const { ready, body } = await readiness(s);
    res.status(ready ? 200 : 503).set("cache-control", "no-store").json(body);
  });
}

// rest/app.ts
var JOIN_PAGE = readFileSync(join2(PROJECT_ROOT, "rest", "join-page.html"), "utf8");
var JOIN_PAGE_HEADERS = pageHeaders(JOIN_PAGE);
var studioPage = () => pageOf("rest/studio-page.html", "rest/studio-page.ts");
async function httpApp(s, cards, version, tasks) {
  const app = express3();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  app.set("trust proxy", s.config.trustProxy);
  const wallet = agentWalletOf(cards, s.config.erc8004.chainId, treasuryOf(s), s.offer.plans);
  if (wallet) s.log.info("agent_wallet", { address: wallet.address, chain_id: wallet.chainId, from: wallet.from });
  else s.log.info("agent_wallet_none", { message: "the cards state no agentWallet: set agent_wallet or owner in the cards file (DECK_CARDS), or a treasury (DECK_TREASURY)" });
  const card = (id) => sellerCard(sellerById(id), cards, s.config.erc8004, s.urls, s.offer.plans, wallet, s.offer.perCall);
  let openapi = null;
  const openapiJson = () => openapi ??= JSON.stringify(openapiDocument(REGISTRY, s.urls.base, version, statusFactsOf(s)));
  app.use(watchRequests(s, REGISTRY));
  if (s.config.log === "debug") {
    app.use((req, res, next) => {
      const started = performance.now();
      res.on("finish", () => s.log.debug("request", { method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(performance.now() - started) }));
      next();
    });
  }
  app.use(pathDecodes);
  mcpRoutes(app, s, version, tasks);
  app.get("/join", (req, res, next) => {
    if (req.accepts(["application/json", "text/html"]) !== "text/html") return next();
    res.type("html").set(JOIN_PAGE_HEADERS).send(JOIN_PAGE);
  });
  app.get("/studio", (_req, res, next) => {
    studioPage().then((html) => void res.type("html").set(pageHeaders(html)).send(html), next);
  });
  restRoutes(app, s, REGISTRY);
  doorRoutes(app, s);
  oauthRoutes(app, s);
  app.get("/cards", (_req, res) => void res.json({ ok: true, cards: SELLERS.map((x) => card(x.id)) }));
  app.get("/cards/:seller", (req, res) => {
    if (!sellerById(req.params.seller)) {
      res.status(404).json({ ok: false, error: "unknown_seller", message: `no seller ${req.params.seller}`, sellers: SELLER_IDS });
      return;
    }
    res.json(card(req.params.seller));
  });
  app.get("/.well-known/agent-registration.json", (_req, res) => void res.json(deckRegistration(SELLERS.map((x) => card(x.id)), cards, s.urls.base, wallet)));
  app.get("/openapi.json", (_req, res) => void res.type("json").send(openapiJson()));
  app.get("/plates/:file", (req, res, next) => {
    const m = /^([0-9a-f]{64})\.(png|json)$/.exec(req.params.file);
    if (!m) {
      res.status(404).json({ ok: false, error: "not_found", message: "no such plate" });
      return;
    }
    s.store.plates.read(m[1], m[2]).then(
      (bytes) => {
        if (!bytes) res.status(404).json({ ok: false, error: "not_found", message: "no such plate" });
        else res.type(m[2]).set("cache-control", "public, max-age=31536000, immutable").send(bytes);
      },
      (error) => next(error)
    );
  });
  planeRoutes(app, s, version);
  app.use(notFound);
  app.use(errorHandler(s.log));
  return app;
}

// rest/http-server.ts
import { createServer, IncomingMessage, ServerResponse } from "node:http";
var initRequest = IncomingMessage;
var initResponse = ServerResponse;
function deckServer(limits) {
  function DeckRequest(socket) {
    initRequest.call(this, socket);
  }
  function DeckResponse(req, options2) {
    initResponse.call(this, req, options2);
  }
  DeckRequest.prototype = IncomingMessage.prototype;
  DeckResponse.prototype = ServerResponse.prototype;
  const checking = Math.max(100, Math.min(5e3, limits.headersTimeoutMs / 4));
  const options = {
    IncomingMessage: DeckRequest,
    ServerResponse: DeckResponse,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: checking
  };
  const server = createServer(options);
  server.maxConnections = limits.maxConnections;
  return {
    server,
    serve(app) {
      DeckRequest.prototype = app.request;
      DeckResponse.prototype = app.response;
      server.on("request", app);
    }
  };
}

// store/json-backend.ts
import { join as join8 } from "node:path";

// store/blobs.ts
import { mkdir, readFile, rm, stat } from "node:fs/promises";
import { dirname, join as join3 } from "node:path";
var BLOB_KINDS = ["seals", "plates", "images", "trades"];
var FileBlobs = class {
  constructor(folder) {
    this.folder = folder;
  }
  folder;
  /** The last write of each name still running: a keepFirst of the same name waits for it. */
  keeping = /* @__PURE__ */ new Map();
  path(name) {
    return join3(this.folder, name);
  }
  read(name) {
    return readFile(this.path(name)).catch((e) => e.code === "ENOENT" ? null : Promise.reject(e));
  }
  has(name) {
    return stat(this.path(name)).then(
      () => true,
      (e) => e.code === "ENOENT" ? false : Promise.reject(e)
    );
  }
  async write(name, bytes) {
    const path = this.path(name);
    await mkdir(dirname(path), { recursive: true });
    await writeAtomic(path, bytes);
  }
  keepFirst(name, bytes) {
    const before = this.keeping.get(name) ?? Promise.resolve(null);
    const work = before.catch(() => null).then(async () => {
      const kept2 = await this.read(name);
      if (kept2) return kept2;
      await this.write(name, bytes);
      return Buffer.from(bytes);
    }).finally(() => {
      if (this.keeping.get(name) === work) this.keeping.delete(name);
    });
    this.keeping.set(name, work);
    return work;
  }
  remove(name) {
    return rm(this.path(name), { force: true });
  }
};

// store/file-ledger.ts
import { mkdir as mkdir2, open, readFile as readFile2, truncate } from "node:fs/promises";
import { join as join4 } from "node:path";

// store/chain.ts
import { createHash as createHash2 } from "node:crypto";
var GENESIS = "0".repeat(64);
var hashOf = (seq, at2, prev, entry) => createHash2("sha256").update(JSON.stringify([seq, at2, prev, entry])).digest("hex");
function linkBreak(e, prev) {
  if (e.prev !== prev) return { seq: e.seq, why: "prev does not match the previous hash", expected: prev, found: e.prev };
  const hash = hashOf(e.seq, e.at, e.prev, e.entry);
  if (hash !== e.hash) return { seq: e.seq, why: "hash does not match the entry", expected: hash, found: e.hash };
  return null;
}

// store/crash-point.ts
var at = process.env.DECK_CRASH_AT;
function crashPoint(name) {
  if (name === at) process.kill(process.pid, "SIGKILL");
}

// store/ledger.ts
function verifyEntries(entries) {
  let prev = GENESIS;
  for (const e of entries) {
    const broken = linkBreak(e, prev);
    if (broken) return { seq: broken.seq, why: broken.why };
    prev = e.hash;
  }
  return null;
}
var HeldLedger = class {
  constructor(name, entries) {
    this.name = name;
    this.entries = entries;
  }
  name;
  entries;
  waiting = [];
  writing = null;
  followers = [];
  get all() {
    return this.entries;
  }
  follow(see) {
    for (const e of this.entries) see(e);
    this.followers.push(see);
  }
  verify() {
    return verifyEntries(this.entries);
  }
  /** Appends one entry, acknowledged once it is kept. */
  append(entry, at2) {
    return new Promise((resolve, reject) => {
      this.waiting.push({ entry, at: at2, resolve, reject });
      if (!this.writing) this.writing = this.writeWaiting();
    });
  }
  /** The batch as entries chained on `head` (by default the last entry held). */
  chained(batch, head = { seq: this.entries.at(-1)?.seq ?? 0, hash: this.entries.at(-1)?.hash ?? GENESIS }) {
    let { seq, hash: prev } = head;
    return batch.map(({ entry, at: at2 }) => {
      seq += 1;
      const record = { seq, at: at2, prev, hash: hashOf(seq, at2, prev, entry), entry };
      prev = record.hash;
      return record;
    });
  }
  /** Takes entries that follow on from those held, skipping any held already (a catch-up may bring them twice). */
  adopt(records) {
    for (const r of records) {
      const last = this.entries.at(-1)?.seq ?? 0;
      if (r.seq <= last) continue;
      if (r.seq !== last + 1) throw new Error(`ledger ${this.name}: entry ${r.seq} read after ${last}`);
      this.entries.push(r);
      for (const see of this.followers) see(r);
    }
  }
  async writeWaiting() {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0);
      let records;
      try {
        records = await this.keep(batch);
      } catch (error) {
        for (const w of batch) w.reject(error);
        continue;
      }
      crashPoint(this.name);
      this.adopt(records);
      batch.forEach((w, i) => w.resolve(records[i]));
    }
    this.writing = null;
  }
};

// store/file-ledger.ts
var NEWLINE = 10;
var FileLedger = class _FileLedger extends HeldLedger {
  constructor(name, file, entries, size) {
    super(name, entries);
    this.file = file;
    this.size = size;
  }
  file;
  size;
  static async open(dir, name) {
    await mkdir2(dir, { recursive: true });
    const file = join4(dir, `${name}.jsonl`);
    const bytes = await readFile2(file).catch((e) => e.code === "ENOENT" ? Buffer.alloc(0) : Promise.reject(e));
    const size = bytes.lastIndexOf(NEWLINE) + 1;
    if (size < bytes.length) await truncate(file, size);
    const entries = [];
    const lines = bytes.subarray(0, size).toString("utf8").split("\n");
    lines.forEach((line, i) => {
      if (!line) return;
      try {
        entries.push(JSON.parse(line));
      } catch {
        throw new Error(`${file}: line ${i + 1} is not JSON; the ledger is damaged`);
      }
    });
    return new _FileLedger(name, file, entries, size);
  }
  async keep(batch) {
    const records = this.chained(batch);
    const lines = Buffer.from(records.map((r) => `${JSON.stringify(r)}
`).join(""));
    const handle = await open(this.file, "a");
    try {
      await handle.appendFile(lines);
      await handle.sync();
    } catch (error) {
      await handle.truncate(this.size).catch(() => {
      });
      throw error;
    } finally {
      await handle.close();
    }
    this.size += lines.length;
    return records;
  }
};

// store/json-file.ts
import { mkdir as mkdir3 } from "node:fs/promises";
import { join as join5 } from "node:path";
import { JSONFile } from "lowdb/node";
import PQueue from "p-queue";
var JsonFile = class _JsonFile {
  constructor(name, adapter, doc) {
    this.name = name;
    this.adapter = adapter;
    this.doc = doc;
  }
  name;
  adapter;
  doc;
  queue = new PQueue({ concurrency: 1 });
  static async open(dir, name, empty) {
    await mkdir3(dir, { recursive: true });
    const adapter = new JSONFile(join5(dir, `${name}.json`));
    return new _JsonFile(name, adapter, await adapter.read() ?? empty());
  }
  /** The document as last written. Callers must not mutate it. */
  get data() {
    return this.doc;
  }
  /** Applies `change` to a copy, writes it, then adopts it; `change` may throw to refuse (nothing is written). */
  update(change) {
    return this.queue.add(async () => {
      const draft = structuredClone(this.doc);
      const result = change(draft);
      await this.adapter.write(draft);
      crashPoint(this.name);
      this.doc = draft;
      return result;
    });
  }
};

// store/ledger-files.ts
import { createReadStream } from "node:fs";
import { open as open2, readdir } from "node:fs/promises";
import { basename, join as join6 } from "node:path";
var EXT = ".jsonl";
var NEWLINE2 = 10;
var TAIL_CHUNK = 64 * 1024;
function walkLine(text, prev, line) {
  let e = null;
  try {
    e = JSON.parse(text);
  } catch {
  }
  if (typeof e !== "object" || e === null) return { break: { line, seq: null, why: "the line is not a ledger entry", expected: prev, found: null } };
  const broken = linkBreak(e, prev);
  return broken ? { break: { ...broken, line } } : { hash: e.hash };
}
var ledgerFile = (dir, name) => join6(dir, `${name}${EXT}`);
async function ledgerNames(dir) {
  const files = await readdir(dir).catch((e) => e.code === "ENOENT" ? [] : Promise.reject(e));
  return files.filter((f) => f.endsWith(EXT) && !f.startsWith(".")).map((f) => basename(f, EXT)).sort();
}
async function lastLine(file) {
  const handle = await open2(file, "r");
  try {
    let pos = (await handle.stat()).size;
    let tail = Buffer.alloc(0);
    while (pos > 0) {
      const from = Math.max(0, pos - TAIL_CHUNK);
      const chunk = Buffer.alloc(pos - from);
      await handle.read(chunk, 0, chunk.length, from);
      tail = Buffer.concat([chunk, tail]);
      pos = from;
      const end = tail.lastIndexOf(NEWLINE2);
      if (end < 0) continue;
      const start = end > 0 ? tail.lastIndexOf(NEWLINE2, end - 1) : -1;
      if (start >= 0 || pos === 0) return tail.subarray(start + 1, end).toString("utf8");
    }
    return null;
  } finally {
    await handle.close();
  }
}
async function ledgerHeads(dir) {
  return Promise.all((await ledgerNames(dir)).map((name) => ledgerHead(dir, name)));
}
async function ledgerHead(dir, name) {
  const line = await lastLine(ledgerFile(dir, name));
  if (line === null) return { name, length: 0, head: null };
  try {
    const last = JSON.parse(line);
    if (typeof last?.seq === "number" && typeof last.hash === "string") return { name, length: last.seq, head: last.hash };
  } catch {
  }
  return { name, length: null, head: null };
}
async function walkLedger(dir, name) {
  let prev = GENESIS;
  let checked = 0;
  let line = 0;
  let rest = "";
  const stream = createReadStream(ledgerFile(dir, name), { encoding: "utf8" });
  try {
    for await (const chunk of stream) {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop();
      for (const text of lines) {
        line++;
        if (!text) continue;
        const step = walkLine(text, prev, line);
        if ("break" in step) return { name, checked, head: prev, break: step.break };
        prev = step.hash;
        checked++;
      }
    }
  } finally {
    stream.destroy();
  }
  return { name, checked, head: prev, break: null };
}

// store/temp-files.ts
import { readdir as readdir2, rm as rm2 } from "node:fs/promises";
import { basename as basename2, join as join7 } from "node:path";
var TEMP = /^\.[^.].*\.(json|png|jpg|webp|gif)(\.[0-9a-f]{12})?\.tmp$/;
async function removeTempFiles(dir) {
  const names = await readdir2(dir, { recursive: true }).catch((e) => e.code === "ENOENT" ? [] : Promise.reject(e));
  const temps = names.filter((n) => TEMP.test(basename2(n)));
  await Promise.all(temps.map((n) => rm2(join7(dir, n), { force: true })));
}

// store/turns.ts
import PQueue2 from "p-queue";
var Turns = class {
  queues = /* @__PURE__ */ new Map();
  run(name, work) {
    let queue = this.queues.get(name);
    if (!queue) this.queues.set(name, queue = new PQueue2({ concurrency: 1 }));
    const q = queue;
    return q.add(work).finally(() => {
      if (q.pending + q.size === 0) this.queues.delete(name);
    });
  }
};

// store/json-backend.ts
async function jsonBackend(dir, { sweep = false } = {}) {
  if (sweep) await removeTempFiles(dir);
  const released = () => Promise.resolve();
  const turns = new Turns();
  const blobs = Object.fromEntries(BLOB_KINDS.map((kind) => [kind, new FileBlobs(join8(dir, kind))]));
  return {
    kind: "json",
    shared: false,
    doc: (name, empty) => JsonFile.open(dir, name, empty),
    ledger: (name) => FileLedger.open(dir, name),
    tapeDays: new FileTapeDays(dir),
    blobs: (kind) => blobs[kind],
    ledgerNames: () => ledgerNames(dir),
    ledgerHeads: () => ledgerHeads(dir),
    walkLedger: (name) => walkLedger(dir, name),
    catchUp: () => Promise.resolve(),
    hold: () => Promise.resolve(released),
    // One at a time in this deck, and there is no other.
    alone: (name, work) => turns.run(name, work),
    // A probe written whole, synced and renamed, as every store write.
    probeWrite: (at2) => writeAtomic(join8(dir, ".ready"), String(at2)),
    close: () => Promise.resolve()
  };
}

// store/pg/pg-backend.ts
import pg from "pg";

// store/pg/migrations.ts
var MIGRATIONS = [
  {
    version: 1,
    name: "documents and ledgers",
    sql: `
      CREATE TABLE deck_docs (
        name text PRIMARY KEY,
        doc text NOT NULL,
        version bigint NOT NULL
      );
      CREATE TABLE deck_ledger_heads (
        name text PRIMARY KEY,
        length bigint NOT NULL,
        head text NOT NULL
      );
      CREATE TABLE deck_ledger_entries (
        ledger text NOT NULL REFERENCES deck_ledger_heads (name),
        seq bigint NOT NULL CHECK (seq > 0),
        line text NOT NULL,
        PRIMARY KEY (ledger, seq)
      );
    `
  },
  {
    version: 2,
    name: "tape days and blobs",
    sql: `
      CREATE TABLE deck_tape_days (
        market text NOT NULL,
        tf text NOT NULL,
        day text NOT NULL,
        doc text NOT NULL,
        version bigint NOT NULL,
        PRIMARY KEY (market, tf, day)
      );
      CREATE TABLE deck_blobs (
        kind text NOT NULL,
        name text NOT NULL,
        bytes bytea NOT NULL,
        PRIMARY KEY (kind, name)
      );
    `
  }
];
var MIGRATION_LOCK = 1684366187;
async function migrate(pool) {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await client.query("CREATE TABLE IF NOT EXISTS deck_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
      const done = new Set((await client.query("SELECT version FROM deck_migrations")).rows.map((r) => r.version));
      const newest = MIGRATIONS.at(-1).version;
      const ahead = [...done].filter((v) => v > newest);
      if (ahead.length) throw new Error(`the database is at schema version ${Math.max(...ahead)}, newer than this deck's ${newest}: run a newer deck`);
      for (const m of MIGRATIONS) {
        if (done.has(m.version)) continue;
        await client.query("BEGIN");
        try {
          await client.query(m.sql);
          await client.query("INSERT INTO deck_migrations (version, name) VALUES ($1, $2)", [m.version, m.name]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        }
      }
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

// store/pg/pg-blobs.ts
var PgBlobs = class {
  constructor(pool, kind) {
    this.pool = pool;
    this.kind = kind;
  }
  pool;
  kind;
  async read(name) {
    const { rows } = await this.pool.query("SELECT bytes FROM deck_blobs WHERE kind = $1 AND name = $2", [this.kind, name]);
    return rows[0]?.bytes ?? null;
  }
  async has(name) {
    const { rowCount } = await this.pool.query("SELECT 1 FROM deck_blobs WHERE kind = $1 AND name = $2", [this.kind, name]);
    return rowCount !== 0;
  }
  async write(name, bytes) {
    await this.pool.query("INSERT INTO deck_blobs (kind, name, bytes) VALUES ($1, $2, $3) ON CONFLICT (kind, name) DO UPDATE SET bytes = excluded.bytes", [
      this.kind,
      name,
      Buffer.from(bytes)
    ]);
  }
  async keepFirst(name, bytes) {
    const { rows } = await this.pool.query(
      "INSERT INTO deck_blobs (kind, name, bytes) VALUES ($1, $2, $3) ON CONFLICT (kind, name) DO NOTHING RETURNING bytes",
      [this.kind, name, Buffer.from(bytes)]
    );
    return rows[0]?.bytes ?? await this.read(name);
  }
  async remove(name) {
    await this.pool.query("DELETE FROM deck_blobs WHERE kind = $1 AND name = $2", [this.kind, name]);
  }
};

// store/pg/pg-doc.ts
import PQueue3 from "p-queue";

// store/pg/transact.ts
async function transact(pool, work) {
  const client = await pool.connect();
  let broken;
  try {
    await client.query("BEGIN");
    try {
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch((e) => broken = e);
      throw error;
    }
  } finally {
    client.release(broken);
  }
}

// store/pg/pg-doc.ts
var PgDoc = class _PgDoc {
  constructor(pool, name, doc, version) {
    this.pool = pool;
    this.name = name;
    this.doc = doc;
    this.version = version;
  }
  pool;
  name;
  doc;
  version;
  /** This deck's writes to the document queue here rather than wait for the row lock on a connection each. */
  queue = new PQueue3({ concurrency: 1 });
  static async open(pool, name, empty) {
    await pool.query("INSERT INTO deck_docs (name, doc, version) VALUES ($1, $2, 0) ON CONFLICT (name) DO NOTHING", [name, JSON.stringify(empty())]);
    const { rows } = await pool.query("SELECT doc, version FROM deck_docs WHERE name = $1", [name]);
    return new _PgDoc(pool, name, JSON.parse(rows[0].doc), Number(rows[0].version));
  }
  get data() {
    return this.doc;
  }
  /** Reads the row again when the store holds a newer version than this deck's copy. */
  async catchUp(version) {
    if (version <= this.version) return;
    const { rows } = await this.pool.query("SELECT doc, version FROM deck_docs WHERE name = $1", [this.name]);
    this.adopt(JSON.parse(rows[0].doc), Number(rows[0].version));
  }
  adopt(doc, version) {
    if (version <= this.version) return;
    this.doc = doc;
    this.version = version;
  }
  update(change) {
    return this.queue.add(async () => {
      const { draft, version, result } = await transact(this.pool, async (client) => {
        const locked = await client.query(
          "SELECT version, CASE WHEN version <> $2 THEN doc END AS doc FROM deck_docs WHERE name = $1 FOR UPDATE",
          [this.name, this.version]
        );
        const now = Number(locked.rows[0].version);
        if (locked.rows[0].doc !== null) this.adopt(JSON.parse(locked.rows[0].doc), now);
        const draft2 = structuredClone(this.doc);
        const result2 = change(draft2);
        await client.query("UPDATE deck_docs SET doc = $2, version = $3 WHERE name = $1", [this.name, JSON.stringify(draft2), now + 1]);
        return { draft: draft2, version: now + 1, result: result2 };
      });
      crashPoint(this.name);
      this.adopt(draft, version);
      return result;
    });
  }
};

// store/pg/pg-ledger.ts
async function insertEntries(client, name, entries) {
  await client.query("INSERT INTO deck_ledger_entries (ledger, seq, line) SELECT $1, * FROM unnest($2::bigint[], $3::text[])", [
    name,
    entries.map((e) => e.seq),
    entries.map((e) => JSON.stringify(e))
  ]);
}
var APPEND_ON_HEAD = `WITH moved AS (
  UPDATE deck_ledger_heads SET length = $3, head = $4 WHERE name = $1 AND length = $2 AND head = $5 RETURNING 1
)
INSERT INTO deck_ledger_entries (ledger, seq, line) SELECT $1, t.seq, t.line FROM unnest($6::bigint[], $7::text[]) AS t(seq, line) WHERE EXISTS (SELECT 1 FROM moved)`;
var ON_HEAD_TRIES = 3;
var PgLedger = class _PgLedger extends HeldLedger {
  constructor(pool, name, onHeadTries) {
    super(name, []);
    this.pool = pool;
    this.onHeadTries = onHeadTries;
  }
  pool;
  onHeadTries;
  /** `onHeadTries`: how many times an append chains on the head held before it waits its turn at the lock (0: always). */
  static async open(pool, name, onHeadTries = ON_HEAD_TRIES) {
    await pool.query("INSERT INTO deck_ledger_heads (name, length, head) VALUES ($1, 0, $2) ON CONFLICT (name) DO NOTHING", [name, GENESIS]);
    const ledger = new _PgLedger(pool, name, onHeadTries);
    await ledger.catchUp(Number.MAX_SAFE_INTEGER);
    return ledger;
  }
  /** Adopts the entries other decks chained, up to `length` (the store's head, or the seq an append chained after). */
  async catchUp(length) {
    if (length <= this.entries.length) return;
    const { rows } = await this.pool.query("SELECT line FROM deck_ledger_entries WHERE ledger = $1 AND seq > $2 AND seq <= $3 ORDER BY seq", [
      this.name,
      this.entries.length,
      length
    ]);
    this.adopt(rows.map((r) => JSON.parse(r.line)));
  }
  async keep(batch) {
    for (let tries = 0; tries < this.onHeadTries; tries++) {
      const head = this.entries.at(-1) ?? { seq: 0, hash: GENESIS };
      const records = this.chained(batch);
      const last = records.at(-1);
      const sent = performance.now();
      const { rowCount } = await this.pool.query(APPEND_ON_HEAD, [this.name, head.seq, last.seq, last.hash, head.hash, records.map((r) => r.seq), records.map((r) => JSON.stringify(r))]);
      publishLockHeld(this.name, sent);
      if (rowCount) return records;
      await this.catchUp(Number.MAX_SAFE_INTEGER);
    }
    return this.keepInTurn(batch);
  }
  /** The append that waits its turn at the head's lock and chains on the head the locked row holds. */
  async keepInTurn(batch) {
    let locked = 0;
    const records = await transact(this.pool, async (client) => {
      const { rows } = await client.query("SELECT length, head FROM deck_ledger_heads WHERE name = $1 FOR UPDATE", [this.name]);
      locked = performance.now();
      const records2 = this.chained(batch, { seq: Number(rows[0].length), hash: rows[0].head });
      await insertEntries(client, this.name, records2);
      const last = records2.at(-1);
      await client.query("UPDATE deck_ledger_heads SET length = $2, head = $3 WHERE name = $1", [this.name, last.seq, last.hash]);
      return records2;
    });
    publishLockHeld(this.name, locked);
    await this.catchUp(records[0].seq - 1);
    return records;
  }
};

// store/pg/pg-tape-days.ts
var PgTapeDays = class {
  constructor(pool) {
    this.pool = pool;
  }
  pool;
  cache = /* @__PURE__ */ new Map();
  summarized = /* @__PURE__ */ new Map();
  async read(market, tf, days) {
    if (days.length === 0) return [];
    const key = (day2) => `${market}|${tf}|${day2}`;
    const { rows } = await this.pool.query(
      `SELECT t.day, t.version, CASE WHEN t.version IS DISTINCT FROM k.version THEN t.doc END AS doc
         FROM deck_tape_days t JOIN unnest($3::text[], $4::bigint[]) AS k (day, version) ON t.day = k.day
        WHERE t.market = $1 AND t.tf = $2`,
      [market, tf, days, days.map((d) => this.cache.get(key(d))?.version ?? null)]
    );
    const now = /* @__PURE__ */ new Map();
    for (const r of rows) {
      if (r.doc !== null) this.cache.set(key(r.day), { version: Number(r.version), doc: JSON.parse(r.doc) });
      now.set(r.day, this.cache.get(key(r.day)).doc);
    }
    return days.map((d) => now.get(d) ?? { rows: [] });
  }
  update(market, tf, day2, change) {
    return transact(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`tape|${market}|${tf}|${day2}`]);
      const { rows } = await client.query("SELECT doc, version FROM deck_tape_days WHERE market = $1 AND tf = $2 AND day = $3", [
        market,
        tf,
        day2
      ]);
      const next = change(rows[0] ? JSON.parse(rows[0].doc) : { rows: [] });
      if (!next) return 0;
      await client.query(
        `INSERT INTO deck_tape_days (market, tf, day, doc, version) VALUES ($1, $2, $3, $4, 1)
         ON CONFLICT (market, tf, day) DO UPDATE SET doc = excluded.doc, version = deck_tape_days.version + 1`,
        [market, tf, day2, JSON.stringify(next.doc)]
      );
      return next.added;
    });
  }
  async list(market, tf) {
    const { rows } = await this.pool.query("SELECT day FROM deck_tape_days WHERE market = $1 AND tf = $2", [market, tf]);
    return rows.map((r) => r.day).sort();
  }
  async summaries() {
    const key = (r) => `${r.market}|${r.tf}|${r.day}`;
    const { rows } = await this.pool.query(
      "SELECT market, tf, day, version FROM deck_tape_days ORDER BY market, tf, day"
    );
    const kept2 = rows.filter((r) => isTapeOf(r.market, r.tf));
    const changed = kept2.filter((r) => this.summarized.get(key(r))?.version !== Number(r.version));
    if (changed.length > 0) {
      const fresh = await this.pool.query(
        `SELECT t.market, t.tf, t.day, t.version, t.doc FROM deck_tape_days t
           JOIN unnest($1::text[], $2::text[], $3::text[]) AS k (market, tf, day) ON t.market = k.market AND t.tf = k.tf AND t.day = k.day`,
        [changed.map((r) => r.market), changed.map((r) => r.tf), changed.map((r) => r.day)]
      );
      for (const r of fresh.rows) {
        const summary = summaryOf(r.market, r.tf, r.day, JSON.parse(r.doc));
        this.summarized.set(key(r), { version: Number(r.version), summary });
      }
    }
    const now = new Set(kept2.map(key));
    for (const k of this.summarized.keys()) if (!now.has(k)) this.summarized.delete(k);
    return kept2.flatMap((r) => this.summarized.get(key(r))?.summary ?? []);
  }
  async holdsAny() {
    const { rows } = await this.pool.query("SELECT EXISTS (SELECT 1 FROM deck_tape_days) AS any");
    return rows[0].any;
  }
};

// store/pg/pg-backend.ts
var POOL_SIZE = 16;
var HOLDS_SIZE = 32;
var WALK_BATCH = 2e3;
async function pgBackend(url2) {
  const pool = new pg.Pool({ connectionString: url2, max: POOL_SIZE, allowExitOnIdle: true });
  pool.on("error", () => {
  });
  const holds = new pg.Pool({ connectionString: url2, max: HOLDS_SIZE, allowExitOnIdle: true });
  holds.on("error", () => {
  });
  try {
    await migrate(pool);
  } catch (error) {
    await Promise.all([pool.end(), holds.end()]);
    throw error;
  }
  const docs = /* @__PURE__ */ new Map();
  const turns = new Turns();
  const ledgers = /* @__PURE__ */ new Map();
  async function catchUpOnce() {
    const { rows } = await pool.query(
      "SELECT 'doc' AS kind, name, version AS n FROM deck_docs UNION ALL SELECT 'ledger', name, length FROM deck_ledger_heads"
    );
    await Promise.all(rows.map((r) => r.kind === "doc" ? docs.get(r.name)?.catchUp(Number(r.n)) : ledgers.get(r.name)?.catchUp(Number(r.n))));
  }
  let running = null;
  let next = null;
  const catchUp = () => {
    if (!running) {
      running = catchUpOnce().finally(() => running = null);
      return running;
    }
    next ??= running.catch(() => {
    }).then(() => {
      next = null;
      return catchUp();
    });
    return next;
  };
  async function hold(name, slots, wait) {
    const client = await holds.connect();
    try {
      let slot = -1;
      if (wait) {
        await client.query("SELECT pg_advisory_lock(hashtext($1), 0)", [name]);
        slot = 0;
      } else {
        for (let i = 0; i < slots && slot < 0; i++) {
          const { rows } = await client.query("SELECT pg_try_advisory_lock(hashtext($1), $2) AS held", [name, i]);
          if (rows[0].held) slot = i;
        }
      }
      if (slot < 0) {
        client.release();
        return null;
      }
      const held = slot;
      return async () => {
        try {
          await client.query("SELECT pg_advisory_unlock(hashtext($1), $2)", [name, held]);
          client.release();
        } catch (error) {
          client.release(error);
        }
      };
    } catch (error) {
      client.release(error);
      throw error;
    }
  }
  const prevOf = (line) => {
    try {
      return JSON.parse(line)?.prev ?? null;
    } catch {
      return null;
    }
  };
  async function ledgerHeads2() {
    const { rows } = await pool.query("SELECT name, length, head FROM deck_ledger_heads WHERE length > 0");
    return rows.map((r) => ({ name: r.name, length: Number(r.length), head: r.head })).sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  }
  return {
    kind: "postgres",
    shared: true,
    async doc(name, empty) {
      const known = docs.get(name);
      if (known) return known;
      const doc = await PgDoc.open(pool, name, empty);
      docs.set(name, doc);
      return doc;
    },
    async ledger(name) {
      const known = ledgers.get(name);
      if (known) return known;
      const ledger = await PgLedger.open(pool, name);
      ledgers.set(name, ledger);
      return ledger;
    },
    tapeDays: new PgTapeDays(pool),
    blobs: (kind) => new PgBlobs(pool, kind),
    ledgerNames: async () => (await ledgerHeads2()).map((h) => h.name),
    ledgerHeads: ledgerHeads2,
    async walkLedger(name) {
      let prev = GENESIS;
      let checked = 0;
      for (; ; ) {
        const { rows } = await pool.query("SELECT seq, line FROM deck_ledger_entries WHERE ledger = $1 AND seq > $2 ORDER BY seq LIMIT $3", [
          name,
          checked,
          WALK_BATCH
        ]);
        for (const row of rows) {
          const line = Number(row.seq);
          const step = line === checked + 1 ? walkLine(row.line, prev, line) : { break: { line, seq: line, why: `entry ${checked + 1} is missing`, expected: prev, found: prevOf(row.line) } };
          if ("break" in step) return { name, checked, head: prev, break: step.break };
          prev = step.hash;
          checked++;
        }
        if (rows.length < WALK_BATCH) return { name, checked, head: prev, break: null };
      }
    },
    catchUp,
    hold,
    alone: (name, work) => turns.run(name, async () => {
      const release = await hold(`alone|${name}`, 1, true);
      try {
        await catchUp();
        return await work();
      } finally {
        await release();
      }
    }),
    // A write in a transaction: refused by a standby, by a full disk, or when the database cannot be reached.
    async probeWrite(at2) {
      await transact(pool, async (client) => {
        await client.query("INSERT INTO deck_blobs (kind, name, bytes) VALUES ('probe', 'ready', $1) ON CONFLICT (kind, name) DO UPDATE SET bytes = excluded.bytes", [
          Buffer.from(String(at2))
        ]);
      });
    },
    close: async () => void await Promise.all([pool.end(), holds.end()])
  };
}

// store/open-backend.ts
var openBackend = (config, options = {}) => config.databaseUrl ? pgBackend(config.databaseUrl) : jsonBackend(config.dataDir, options);

// store/store.ts
import { randomBytes } from "node:crypto";

// store/book-caps.ts
var BookCaps = class {
  constructor(file) {
    this.file = file;
  }
  file;
  static empty = () => ({ by_principal: {} });
  get(principal) {
    return this.file.data.by_principal[principal] ?? {};
  }
  set(principal, caps) {
    return this.file.update((d) => void (d.by_principal[principal] = caps));
  }
};

// store/doors.ts
var Doors = class {
  constructor(file) {
    this.file = file;
  }
  file;
  static empty = () => ({ links: {}, asks: {}, states: {}, proofs: {}, sends: {} });
  get data() {
    return this.file.data;
  }
  /** Changes the document alone (see Doc.update), after dropping what expired and the windows that ended by `now`. */
  update(now, change) {
    return this.file.update((d) => {
      for (const bag of [d.asks, d.states, d.proofs]) {
        for (const [k, v] of Object.entries(bag)) if (v.expires_at <= now) delete bag[k];
      }
      for (const [k, w] of Object.entries(d.sends)) if (w.until <= now) delete d.sends[k];
      return change(d);
    });
  }
};

// store/forecasts.ts
var PER_ENTRY = 500;
var chunks = (items) => {
  const out = [];
  for (let i = 0; i < items.length; i += PER_ENTRY) out.push(items.slice(i, i + PER_ENTRY));
  return out;
};
function upperBound(a, x) {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = lo + hi >>> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
var ForecastBook = class _ForecastBook {
  constructor(pair, backend, issued, scoring) {
    this.pair = pair;
    this.backend = backend;
    this.issued = issued;
    this.scoring = scoring;
    issued.follow((e) => {
      if (e.entry.replaces) this.put(e.entry.envelopes);
      else this.index(e.entry.envelopes);
    });
    scoring.follow((e) => {
      for (const t of e.entry.withdrawn ?? []) this.scored.delete(t);
      for (const s of e.entry.scores) if (!this.scored.has(s.issued_t)) this.scored.set(s.issued_t, s);
    });
  }
  pair;
  backend;
  issued;
  scoring;
  /** issued_t ascending, and the envelope at each. */
  times = [];
  envelopes = [];
  scored = /* @__PURE__ */ new Map();
  /** Envelopes a scoring pass could not score (their bars were not kept yet): left until the next issue. */
  aside = /* @__PURE__ */ new Set();
  static async open(backend, pair) {
    const name = `${pair.market}-${pair.tf}`;
    return new _ForecastBook(pair, backend, await backend.ledger(`forecast-${name}`), await backend.ledger(`forecast-scores-${name}`));
  }
  /**
   * Runs `work` alone on this pair (in this deck and among every deck on a shared store, once caught up with what they
   * issued): issuing and scoring one at a time, so two requests never issue the same bar twice.
   */
  exclusive(work) {
    return this.backend.alone(`forecast-${this.pair.market}-${this.pair.tf}`, work);
  }
  get size() {
    return this.times.length;
  }
  /** The newest envelope of all, or null. */
  newest() {
    return this.envelopes.at(-1) ?? null;
  }
  /** The newest envelope issued by t (issued_t <= t), or null: what is disclosed at t. */
  at(t) {
    const i = upperBound(this.times, t) - 1;
    return i >= 0 ? this.envelopes[i] : null;
  }
  has(issuedT) {
    return this.recorded(issuedT) !== null;
  }
  /** The envelope recorded at exactly issuedT, or null. */
  recorded(issuedT) {
    const i = upperBound(this.times, issuedT) - 1;
    return i >= 0 && this.times[i] === issuedT ? this.envelopes[i] : null;
  }
  /** Envelopes with from <= issued_t <= to, oldest first, at most `cap`; `more` when others are left. */
  between(from, to, cap) {
    const first = upperBound(this.times, from - 1);
    const end = upperBound(this.times, to);
    return { envelopes: this.envelopes.slice(first, Math.min(end, first + cap)), more: end - first > cap };
  }
  /** Appends the envelopes whose issued_t is not recorded yet; answers how many were new. */
  async append(envelopes, at2) {
    const seen = /* @__PURE__ */ new Set();
    const news = envelopes.filter((e) => !this.has(e.issued_t) && !seen.has(e.issued_t) && seen.add(e.issued_t));
    for (const chunk of chunks(news)) {
      await this.issued.append({ envelopes: chunk }, at2);
    }
    if (news.length) this.aside.clear();
    return news.length;
  }
  /**
   * Supersedes recorded envelopes with the ones given (same issued_t), saying why: their scores are withdrawn first
   * (so a crash between the two appends leaves at worst the old envelope to be scored again), then one entry
   * records the replacements. Nothing is rewritten: the chain keeps what was issued and what replaced it. Answers
   * how many were replaced; an envelope not recorded is not replaced.
   */
  async replace(envelopes, why, at2) {
    const olds = envelopes.filter((e) => this.has(e.issued_t));
    const withdrawn = olds.map((e) => e.issued_t).filter((t) => this.scored.has(t));
    if (withdrawn.length) {
      await this.scoring.append({ scores: [], withdrawn }, at2);
    }
    for (const chunk of chunks(olds)) {
      await this.issued.append({ envelopes: chunk, replaces: why }, at2);
    }
    if (olds.length) this.aside.clear();
    return olds.length;
  }
  /** Envelopes not yet scored and not set aside whose outcome is due by `due(e)`, oldest first, at most `cap`. */
  unscored(due, cap) {
    const out = [];
    for (const e of this.envelopes) {
      if (out.length >= cap) break;
      if (!this.scored.has(e.issued_t) && !this.aside.has(e.issued_t) && due(e)) out.push(e);
    }
    return out;
  }
  /** Leaves envelopes unscored until the next issue on this pair (or a restart). */
  setAside(envelopes) {
    for (const e of envelopes) this.aside.add(e.issued_t);
  }
  /** Appends the scores of envelopes not scored yet; answers how many were new. */
  async addScores(scores, at2) {
    const news = scores.filter((s) => !this.scored.has(s.issued_t));
    for (const chunk of chunks(news)) {
      await this.scoring.append({ scores: chunk }, at2);
    }
    return news.length;
  }
  /** Measured calibration from the scores known by t (scored_t <= t), cell by cell, each band against its own nominal. */
  calibration(asOf = Infinity) {
    return calibrate([...this.scored.values()], {
      bar: TIMEFRAME_SECONDS[this.pair.tf],
      asOf,
      nominal: (s) => this.recorded(s.issued_t)?.band.nominal ?? DEFAULT_OPTIONS.nominal
    });
  }
  /** Puts envelopes in the place of those recorded at their issued_t (one not recorded is added). */
  put(envelopes) {
    for (const e of envelopes) {
      const i = upperBound(this.times, e.issued_t) - 1;
      if (i >= 0 && this.times[i] === e.issued_t) this.envelopes[i] = e;
      else this.index([e]);
    }
  }
  /** Adds envelopes to the index, keeping it sorted by issued_t (a backfill may fill in before what is there). */
  index(envelopes) {
    let sorted = true;
    for (const e of envelopes) {
      if (this.times.length && e.issued_t <= this.times.at(-1)) sorted = false;
      this.times.push(e.issued_t);
      this.envelopes.push(e);
    }
    if (sorted) return;
    const order = this.envelopes.map((e, i) => [e.issued_t, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const envs = order.map(([, i]) => this.envelopes[i]);
    this.times.length = 0;
    this.envelopes.length = 0;
    for (const e of envs) {
      if (this.times.length && this.times.at(-1) === e.issued_t) continue;
      this.times.push(e.issued_t);
      this.envelopes.push(e);
    }
  }
};
var Forecasts = class {
  constructor(backend) {
    this.backend = backend;
  }
  backend;
  books = /* @__PURE__ */ new Map();
  book(pair) {
    const key = `${pair.market}-${pair.tf}`;
    let book = this.books.get(key);
    if (!book) {
      book = ForecastBook.open(this.backend, pair);
      this.books.set(key, book);
      book.catch(() => this.books.delete(key));
    }
    return book;
  }
};

// store/forges.ts
var Forges = class {
  constructor(file) {
    this.file = file;
  }
  file;
  static empty = () => ({ by_principal: {}, casts: {} });
  get(principalId, seed, now) {
    const found = this.file.data.by_principal[principalId]?.find((r) => r.id === seed);
    return found && found.expires_at > now ? found : null;
  }
  castsOn(principalId, day2) {
    const c = this.file.data.casts[principalId];
    return c && c.day === day2 ? c.n : 0;
  }
  /**
   * Keeps a forge (a recast of the same seed replaces the earlier one and its expiry) and counts the cast on `day`,
   * unless `admit` refuses (by throwing) on the casts already counted that day. Expired forges of every principal go.
   */
  keep(principalId, record, day2, admit) {
    return this.file.update((d) => {
      const c = d.casts[principalId];
      const today = c && c.day === day2 ? c.n : 0;
      admit(today);
      for (const [who, list2] of Object.entries(d.by_principal)) {
        const live = list2.filter((r) => r.expires_at > record.created_at && !(who === principalId && r.id === record.id));
        if (live.length > 0) d.by_principal[who] = live;
        else delete d.by_principal[who];
      }
      (d.by_principal[principalId] ??= []).push(record);
      d.casts[principalId] = { day: day2, n: today + 1 };
    });
  }
};

// store/holder-links.ts
var walletKey = (day2, wallet) => `${day2}|${wallet.toLowerCase()}`;
var principalKey = (day2, principalId) => `${day2}|${principalId}`;
var HolderLinks = class _HolderLinks {
  constructor(backend, ledger) {
    this.backend = backend;
    this.ledger = ledger;
    ledger.follow((e) => this.index(e));
  }
  backend;
  ledger;
  byWallet = /* @__PURE__ */ new Map();
  byPrincipal = /* @__PURE__ */ new Map();
  /** Every entry of the ledger, in chain order (the records' history reads it). */
  get entries() {
    return this.ledger.all;
  }
  static async open(backend) {
    return new _HolderLinks(backend, await backend.ledger("holder-links"));
  }
  index(e) {
    this.byWallet.set(walletKey(e.entry.day, e.entry.wallet), e.entry.principal_id);
    this.byPrincipal.set(principalKey(e.entry.day, e.entry.principal_id), e);
  }
  /** The principal a wallet is linked to on a day, if any. */
  holderOf(day2, wallet) {
    return this.byWallet.get(walletKey(day2, wallet)) ?? null;
  }
  /** The link a principal stands on for a day. */
  linkOf(principalId, day2) {
    return this.byPrincipal.get(principalKey(day2, principalId)) ?? null;
  }
  /** Records a link after `admit` has seen who holds the wallet that day (it throws to refuse). */
  link(link, admit, at2) {
    return this.backend.alone("holder-links", async () => {
      admit(this.holderOf(link.day, link.wallet));
      return this.ledger.append(link, at2);
    });
  }
};

// store/images.ts
var ImageFiles = class {
  constructor(kept2) {
    this.kept = kept2;
  }
  kept;
  put(id, ext, bytes) {
    return this.kept.write(`${id}.${ext}`, bytes);
  }
  remove(id, ext) {
    return this.kept.remove(`${id}.${ext}`);
  }
};

// store/oauth.ts
var keptUntil = (c, k) => c.used_at !== void 0 ? c.used_at + k.idleMs : c.client_id_issued_at * 1e3 + k.unusedMs;
var OAuthBook = class {
  constructor(file) {
    this.file = file;
  }
  file;
  /** The grant each refresh token digest (current or spent) belongs to, built from the document on first use. */
  byRefresh = null;
  static empty = () => ({ clients: {}, grants: {} });
  /** A registered client, unless it is no longer kept at `now` (a sweep at the next registration drops it). */
  client(id, now, k) {
    const c = this.file.data.clients[id];
    if (!c) return null;
    return keptUntil(c, k) > now || Object.values(this.file.data.grants).some((g) => g.client_id === id) ? c : null;
  }
  grant(id) {
    return this.file.data.grants[id] ?? null;
  }
  /** The grant a refresh token digest names, and whether that token was already spent (replaced by a newer one). */
  grantOfRefresh(digest2) {
    this.byRefresh ??= this.index(this.file.data);
    const id = this.byRefresh.get(digest2);
    const grant = id ? this.grant(id) : null;
    return id && grant ? { id, grant, spent: grant.refresh !== digest2 } : null;
  }
  /**
   * Registers a client. Registrations no grant names are dropped once past their time (`k`); at the most kept, the
   * one no grant names that is soonest to go gives way (never used first); a registration a grant names never does.
   * 'full': every registration kept is named by a grant, and nothing was registered.
   */
  register(client, now, k) {
    return this.file.update((d) => {
      const named = new Set(Object.values(d.grants).map((g) => g.client_id));
      const unnamed = Object.values(d.clients).filter((c) => !named.has(c.client_id));
      for (const c of unnamed) if (keptUntil(c, k) <= now) delete d.clients[c.client_id];
      const room = Object.keys(d.clients).length - k.most + 1;
      if (room > 0) {
        const going = unnamed.filter((c) => d.clients[c.client_id]).sort((a, b) => Number(a.used_at !== void 0) - Number(b.used_at !== void 0) || keptUntil(a, k) - keptUntil(b, k));
        if (going.length < room) return "full";
        for (const c of going.slice(0, room)) delete d.clients[c.client_id];
      }
      d.clients[client.client_id] = client;
      return client;
    });
  }
  /** Records a grant, dropping the ones whose refresh token has expired; its client, when registered, was used now. */
  addGrant(id, grant, now) {
    return this.change((d) => {
      for (const [gid, g] of Object.entries(d.grants)) if (g.refresh_expires_at <= now) delete d.grants[gid];
      d.grants[id] = grant;
      const client = d.clients[grant.client_id];
      if (client) client.used_at = now;
    });
  }
  /**
   * Replaces a grant's refresh token, only if `spending` is still its current one (two refreshes with one token at
   * once: the second finds it spent). False when it was not.
   */
  rotate(id, spending, next, expiresAt) {
    return this.change((d) => {
      const g = d.grants[id];
      if (!g || g.refresh !== spending) return false;
      g.spent.push(spending);
      g.refresh = next;
      g.refresh_expires_at = expiresAt;
      return true;
    });
  }
  /** Ends grants; the ids of those that were there. */
  endGrants(ids) {
    return this.change((d) => ids.filter((id) => d.grants[id] !== void 0 && delete d.grants[id]));
  }
  change(fn) {
    return this.file.update(fn).then((r) => {
      this.byRefresh = null;
      return r;
    });
  }
  index(d) {
    const m = /* @__PURE__ */ new Map();
    for (const [id, g] of Object.entries(d.grants)) for (const digest2 of [g.refresh, ...g.spent]) m.set(digest2, id);
    return m;
  }
};

// store/plan-claims.ts
var keyOf = (chain, txHash) => `${chain}|${txHash.toLowerCase()}`;
var PlanClaims = class _PlanClaims {
  constructor(backend, ledger) {
    this.backend = backend;
    this.ledger = ledger;
    ledger.follow((e) => this.index(e));
  }
  backend;
  ledger;
  byTx = /* @__PURE__ */ new Map();
  byPrincipal = /* @__PURE__ */ new Map();
  /** Every entry of the ledger, in chain order (the records' history reads it). */
  get entries() {
    return this.ledger.all;
  }
  static async open(backend) {
    return new _PlanClaims(backend, await backend.ledger("plan-claims"));
  }
  index(e) {
    this.byTx.set(keyOf(e.entry.chain, e.entry.tx_hash), e);
    const mine = this.byPrincipal.get(e.entry.principal_id) ?? [];
    mine.push(e.entry);
    this.byPrincipal.set(e.entry.principal_id, mine);
  }
  /** The claim of a transaction, whoever made it. */
  of(chain, txHash) {
    return this.byTx.get(keyOf(chain, txHash)) ?? null;
  }
  /** A principal's claims, in the order they were made. */
  mine(principalId) {
    return this.byPrincipal.get(principalId) ?? [];
  }
  /** Records the claim `build` makes from the principal's claims so far, unless the transaction is claimed already. */
  claim(chain, txHash, principalId, build, at2) {
    return this.backend.alone("plan-claims", async () => {
      const known = this.of(chain, txHash);
      if (known) return { fresh: false, entry: known };
      const entry = await this.ledger.append(build(this.mine(principalId)), at2);
      return { fresh: true, entry };
    });
  }
};

// store/plates.ts
var PlateFiles = class {
  constructor(kept2, alone) {
    this.kept = kept2;
    this.alone = alone;
  }
  kept;
  alone;
  /** A plate's PNG or chart_state, or null when there is no such plate (or it is not whole yet). */
  async read(id, ext) {
    if (ext === "png" && !await this.has(id)) return null;
    return this.kept.read(`${id}.${ext}`);
  }
  has(id) {
    return this.kept.has(`${id}.json`);
  }
  /**
   * Keeps a plate once. Seals of one id run one after another, so of two seals of the same plate at once one
   * writes it and the other finds it there. `count` runs once the plate is whole; when it throws (a refusal or a
   * failure), the plate is taken back and the error passed on. Answers true when this call sealed the plate,
   * false when it was there already (and `count` did not run).
   */
  seal(id, png, chartState, count2) {
    return this.alone(`plate-${id}`, async () => {
      if (await this.has(id)) return false;
      await this.put(id, png, chartState);
      try {
        await count2();
      } catch (error) {
        await this.remove(id);
        throw error;
      }
      return true;
    });
  }
  /** The PNG first, the chart_state last: a plate whose JSON is there is whole. */
  async put(id, png, chartState) {
    await this.kept.write(`${id}.png`, png);
    await this.kept.write(`${id}.json`, Buffer.from(chartState));
  }
  /** The chart_state first, so a plate half taken back reads as not there. */
  async remove(id) {
    await this.kept.remove(`${id}.json`);
    await this.kept.remove(`${id}.png`);
  }
};

// store/seals.ts
var Seals = class {
  constructor(kept2, memoryCap = 64 * 1024 * 1024) {
    this.kept = kept2;
    this.memoryCap = memoryCap;
  }
  kept;
  memoryCap;
  memory = /* @__PURE__ */ new Map();
  sealing = /* @__PURE__ */ new Map();
  held = 0;
  name(key) {
    return `${key}.json`;
  }
  remember(key, bytes) {
    this.memory.delete(key);
    this.memory.set(key, bytes);
    this.held += bytes.length;
    for (const [k, b] of this.memory) {
      if (this.held <= this.memoryCap) break;
      this.memory.delete(k);
      this.held -= b.length;
    }
  }
  async get(key) {
    const hot = this.memory.get(key);
    if (hot) {
      this.memory.delete(key);
      this.memory.set(key, hot);
      return hot;
    }
    const bytes = await this.kept.read(this.name(key));
    if (bytes) this.remember(key, bytes);
    return bytes;
  }
  /** Withdraws a seal (one kept under an older sealing rule that the current one would not have made). */
  async drop(key) {
    const bytes = this.memory.get(key);
    if (bytes) {
      this.memory.delete(key);
      this.held -= bytes.length;
    }
    await this.kept.remove(this.name(key));
  }
  /**
   * Seals `bytes` under `key` unless a seal is already there (or being made); answers the sealed bytes,
   * so two first requests racing for one window both answer what was sealed.
   */
  seal(key, bytes) {
    const running = this.sealing.get(key);
    if (running) return running;
    const work = (async () => {
      const already = this.memory.get(key);
      if (already) return already;
      const sealed = await this.kept.keepFirst(this.name(key), bytes);
      this.remember(key, sealed);
      return sealed;
    })().finally(() => this.sealing.delete(key));
    this.sealing.set(key, work);
    return work;
  }
};

// store/series.ts
var SeriesBook = class _SeriesBook {
  constructor(backend, file, ledger, recovery) {
    this.backend = backend;
    this.file = file;
    this.ledger = ledger;
    this.recovery = recovery;
    ledger.follow((e) => this.chainedCount.set(e.entry.series_id, (this.chainedCount.get(e.entry.series_id) ?? 0) + 1));
    recovery.follow((e) => this.remember(e.entry));
  }
  backend;
  file;
  ledger;
  recovery;
  /** Moves on the ledger, per series. */
  chainedCount = /* @__PURE__ */ new Map();
  recovered = /* @__PURE__ */ new Map();
  /** Every entry of the ledger, in chain order (the records' history reads it). */
  get entries() {
    return this.ledger.all;
  }
  static async open(backend) {
    const book = new _SeriesBook(
      backend,
      await backend.doc("series", () => ({ by_principal: {} })),
      await backend.ledger("series"),
      await backend.ledger("series-recovery")
    );
    for (const [principalId, records] of Object.entries(book.file.data.by_principal)) for (const r of records) await book.chain(principalId, r);
    return book;
  }
  list(principalId) {
    return this.file.data.by_principal[principalId] ?? [];
  }
  /** Every principal's series, house-wide (the records' finished epochs read them, naming no one). */
  everySeries() {
    return Object.values(this.file.data.by_principal).flat();
  }
  get(principalId, id) {
    return this.list(principalId).find((r) => r.id === id) ?? null;
  }
  /** Keeps a new series; a write that fails keeps nothing. */
  async create(principalId, record) {
    await this.file.update((d) => void (d.by_principal[principalId] ??= []).push(record));
    return this.chain(principalId, record);
  }
  /**
   * Applies `change` to the series as it is when the write runs (serialized with every other write), and keeps what
   * it answers. `change` may throw to refuse; then nothing is written. Null when the principal has no such series.
   */
  async apply(principalId, id, change) {
    const changed = await this.file.update((d) => {
      const mine = d.by_principal[principalId] ?? [];
      const at2 = mine.findIndex((r) => r.id === id);
      if (at2 < 0) return null;
      const c = change(mine[at2]);
      mine[at2] = c.record;
      return c;
    });
    if (!changed) return null;
    return { ...changed, chained: await this.chain(principalId, changed.record) };
  }
  /** Chains the moves of `record` the ledger does not hold yet, in order (alone among every deck on a shared store). */
  chain(principalId, record) {
    return this.backend.alone("series", async () => {
      for (let n = this.chainedCount.get(record.id) ?? 0; n < record.moves.length; n++) {
        await this.ledger.append({ ...record.moves[n], series_id: record.id, principal_id: principalId }, record.moves[n].at);
      }
    }).then(
      () => "chained",
      () => "behind"
    );
  }
  /** Keeps the handshake the layer opened, before the series is written (appended with fsync). */
  async keepHandshake(entry, at2) {
    await this.recovery.append(entry, at2);
  }
  /** The handshakes kept for a series, oldest first. */
  handshakesKept(seriesId) {
    return this.recovered.get(seriesId) ?? [];
  }
  remember(entry) {
    const list2 = this.recovered.get(entry.series_id) ?? [];
    list2.push(entry);
    this.recovered.set(entry.series_id, list2);
  }
};

// store/sessions.ts
var Sessions = class {
  constructor(file) {
    this.file = file;
  }
  file;
  static empty = () => ({ sessions: {} });
  get(tokenHash) {
    return this.file.data.sessions[tokenHash] ?? null;
  }
  /** Records a session and drops the expired ones, so the file does not grow without bound. */
  add(tokenHash, session, now) {
    return this.file.update((d) => {
      for (const [h, s] of Object.entries(d.sessions)) if (s.expires_at <= now) delete d.sessions[h];
      d.sessions[tokenHash] = session;
    });
  }
  /** Ends every session of the given grants. */
  removeGrants(grants) {
    const ending = new Set(grants);
    return this.file.update((d) => {
      for (const [h, s] of Object.entries(d.sessions)) if (s.grant !== void 0 && ending.has(s.grant)) delete d.sessions[h];
    });
  }
  remove(tokenHash) {
    return this.file.update((d) => {
      delete d.sessions[tokenHash];
    });
  }
};

// store/trials.ts
var where = (market, timeframe) => `${market}/${timeframe}`;
var Trials = class {
  constructor(file) {
    this.file = file;
  }
  file;
  static empty = () => ({ by_principal: {} });
  /** The other rules of the record on this market and timeframe (`seed` left out), and the Sharpe ratios of those rehearsed. */
  others(principalId, market, timeframe, seed) {
    const rules = Object.entries(this.file.data.by_principal[principalId]?.[where(market, timeframe)] ?? {}).filter(([id]) => id !== seed);
    return { rules: rules.length, sharpes: rules.map(([, sharpe]) => sharpe).filter((s) => s !== null) };
  }
  /** Notes a rule forged (sharpe undefined) or rehearsed; a rule's first Sharpe ratio is the one kept. */
  note(principalId, market, timeframe, seed, sharpe) {
    const kept2 = this.file.data.by_principal[principalId]?.[where(market, timeframe)]?.[seed];
    if (kept2 !== void 0 && (kept2 !== null || sharpe === void 0 || sharpe === null)) return Promise.resolve();
    return this.file.update((d) => {
      const mine = (d.by_principal[principalId] ??= {})[where(market, timeframe)] ??= {};
      if (mine[seed] === void 0 || mine[seed] === null) mine[seed] = sharpe ?? null;
    });
  }
};

// store/store.ts
async function openStore(backend) {
  const secret = await backend.doc("secret", () => ({ salt: "" }));
  if (!secret.data.salt) await secret.update((d) => void (d.salt ||= randomBytes(32).toString("hex")));
  return {
    backend,
    salt: secret.data.salt,
    accounts: new Accounts(await backend.doc("accounts", Accounts.empty)),
    sessions: new Sessions(await backend.doc("sessions", Sessions.empty)),
    doors: new Doors(await backend.doc("doors", Doors.empty)),
    marks: new Owned(await backend.doc("marks", Owned.empty)),
    attachments: new Owned(await backend.doc("attachments", Owned.empty)),
    images: new ImageFiles(backend.blobs("images")),
    plates: new PlateFiles(backend.blobs("plates"), (name, work) => backend.alone(name, work)),
    plateSeals: new Owned(await backend.doc("plate-seals", Owned.empty)),
    spend: new SpendBook(await backend.ledger("meter")),
    archive: new TapeArchive(backend.tapeDays),
    seals: new Seals(backend.blobs("seals")),
    forecasts: new Forecasts(backend),
    forges: new Forges(await backend.doc("forges", Forges.empty)),
    studio: new Studio(await backend.doc("studio", Studio.empty)),
    grades: await Grades.open(backend),
    trials: new Trials(await backend.doc("trials", Trials.empty)),
    claims: await PlanClaims.open(backend),
    holders: await HolderLinks.open(backend),
    mandates: await Mandates.open(backend),
    series: await SeriesBook.open(backend),
    oauth: new OAuthBook(await backend.doc("oauth", OAuthBook.empty)),
    book: new BookStore(await backend.ledger("orders"), await backend.ledger("fills")),
    bookCaps: new BookCaps(await backend.doc("book-caps", BookCaps.empty)),
    models: new Models(await backend.doc("models", Models.empty)),
    runs: new Runs(await backend.doc("runs", Owned.empty))
  };
}

// core/fair-queue.ts
import PQueue4 from "p-queue";
var Rotation = class {
  constructor(bound) {
    this.bound = bound;
  }
  bound;
  running = 0;
  waiting = /* @__PURE__ */ new Map();
  ring = [];
  take(principalId) {
    if (this.running < this.bound && this.ring.length === 0) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const mine = this.waiting.get(principalId);
      if (mine) mine.push(resolve);
      else {
        this.waiting.set(principalId, [resolve]);
        this.ring.push(principalId);
      }
    });
  }
  give() {
    this.running--;
    const next = this.ring.shift();
    if (next === void 0) return;
    const mine = this.waiting.get(next);
    const resolve = mine.shift();
    if (mine.length > 0) this.ring.push(next);
    else this.waiting.delete(next);
    this.running++;
    resolve();
  }
};
var EWMA = 0.2;
var FairQueue = class {
  constructor(name, concurrency, laneSize, heldSize = Infinity) {
    this.name = name;
    this.concurrency = concurrency;
    this.laneSize = laneSize;
    this.heldSize = heldSize;
    this.turns = new Rotation(concurrency);
  }
  name;
  concurrency;
  laneSize;
  heldSize;
  lanes = /* @__PURE__ */ new Map();
  turns;
  /** Mean seconds a turn has lasted (1 until one has ended). */
  meanS = 1;
  held = 0;
  /**
   * Waits for the principal's turn and answers the release to call when its work is done (once; later calls do
   * nothing). Refused with 429 lane_full when the principal's lane already holds laneSize calls, queue_full when the
   * queue holds heldSize.
   */
  turn(principalId) {
    const lane = this.lanes.get(principalId) ?? new PQueue4({ concurrency: this.concurrency });
    const held = lane.size + lane.pending;
    if (held >= this.laneSize) {
      const retry = this.meanS * held / this.concurrency;
      return Promise.reject(limitReached("lane_full", `your ${this.name} lane already holds ${held} requests: wait for some to be answered`, retry, { lane_size: this.laneSize }));
    }
    if (this.held >= this.heldSize) {
      const retry = this.meanS * this.held / this.concurrency;
      return Promise.reject(
        limitReached("queue_full", `the ${this.name} queue holds ${this.held} requests, its most, for ${this.concurrency} at once: come back later`, retry, { queue_size: this.heldSize })
      );
    }
    this.held++;
    this.lanes.set(principalId, lane);
    return new Promise((granted) => {
      void lane.add(async () => {
        await this.turns.take(principalId);
        const started = performance.now();
        await new Promise((done) => {
          let released = false;
          granted(() => {
            if (released) return;
            released = true;
            this.meanS += EWMA * ((performance.now() - started) / 1e3 - this.meanS);
            this.turns.give();
            done();
          });
        });
      }).finally(() => {
        this.held--;
        if (lane.size + lane.pending === 0 && this.lanes.get(principalId) === lane) this.lanes.delete(principalId);
      });
    });
  }
  /** Calls running or waiting, every principal's together. */
  depth() {
    return this.held;
  }
};

// core/pool/pool.ts
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import { Piscina } from "piscina";
var HEAVY = /* @__PURE__ */ new Set(["rehearsal"]);
function workerFile() {
  const here = import.meta.url;
  if (here.endsWith(".ts")) return fileURLToPath(new URL("./from-source.mjs", here));
  return fileURLToPath(new URL("./pool-worker.js", here));
}
var cancelled = () => new DeckError(503, "cancelled", "the work was cancelled: the request that asked for it ended");
var WorkPool = class {
  constructor(limits) {
    this.limits = limits;
    this.turns = new FairQueue("work", Math.max(1, limits.threads), limits.lane, limits.held);
  }
  limits;
  threads = null;
  /** Whether a thread has answered: until then the threads are still loading (seconds, run from source). */
  warm = false;
  turns;
  /** Jobs run since start, by kind: how many on a thread, how many on the loop. */
  ran = /* @__PURE__ */ new Map();
  /**
   * Runs a job in its principal's turn. `hear`, when given, is told where the job stands (waiting for a turn, then
   * running) and each step the job takes, in order; the answer is the same with or without it.
   */
  async run(kind, input, ask) {
    const hear = ask.hear;
    const ahead = this.turns.depth();
    if (hear && ahead >= Math.max(1, this.limits.threads)) hear({ phase: "queued", ahead });
    const release = await this.turns.turn(ask.owner);
    try {
      if (ask.signal?.aborted) throw cancelled();
      hear?.({ phase: "running" });
      const threads = this.limits.threads === 0 ? null : this.started();
      if (!threads || !this.warm && !HEAVY.has(kind)) {
        this.count(kind, "loop");
        const run = worker_exports[kind];
        return await run({ input }, hear);
      }
      this.count(kind, "thread");
      const channel = hear ? new MessageChannel() : null;
      channel?.port1.on("message", (step) => hear(step));
      const job = { input, ...channel ? { port: channel.port2 } : {} };
      try {
        return await threads.run(job, { name: kind, ...channel ? { transferList: [channel.port2] } : {}, ...ask.signal ? { signal: ask.signal } : {} }).catch((error) => {
          throw ask.signal?.aborted ? cancelled() : error;
        });
      } finally {
        if (channel) {
          for (let m = receiveMessageOnPort(channel.port1); m; m = receiveMessageOnPort(channel.port1)) hear(m.message);
          channel.port1.close();
        }
      }
    } finally {
      release();
    }
  }
  /** The threads, started on the first job; they are warm once one has answered a first, empty job. */
  started() {
    if (this.threads) return this.threads;
    const threads = new Piscina({
      filename: workerFile(),
      minThreads: this.limits.threads,
      maxThreads: this.limits.threads,
      // A thread loads the engine once and stays for the next job.
      idleTimeout: 6e4
    });
    threads.run({ input: new Uint8Array(0) }, { name: "parsing" }).then(
      () => void (this.warm = true),
      () => {
      }
    );
    return this.threads = threads;
  }
  count(kind, where2) {
    const counts = this.ran.get(kind) ?? { thread: 0, loop: 0 };
    counts[where2]++;
    this.ran.set(kind, counts);
  }
  /** Jobs run since start, by kind and where they ran (a thread, or the loop); a place none ran in is left out. */
  jobsRun() {
    return [...this.ran].flatMap(([kind, counts]) => ["thread", "loop"].filter((where2) => counts[where2] > 0).map((where2) => ({ kind, where: where2, n: counts[where2] })));
  }
  /** Jobs running or waiting, every principal's together. */
  depth() {
    return this.turns.depth();
  }
  async close() {
    await this.threads?.destroy();
    this.threads = null;
    this.warm = false;
  }
};

// services/agent/rail.ts
import { randomBytes as randomBytes2 } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

// upstream/decide/client.ts
async function askDecide(targets, url2, body, timeoutMs, stop) {
  const started = performance.now();
  const ms = () => Math.round((performance.now() - started) * 100) / 100;
  const call = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    call.abort();
  }, timeoutMs);
  const onStop = () => call.abort();
  stop.addEventListener("abort", onStop, { once: true });
  try {
    const res = await (await undici()).request(url2, {
      dispatcher: await targets.dispatcher(),
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: call.signal
    });
    const text = await res.body.text();
    try {
      return { kind: "answer", status: res.statusCode, body: JSON.parse(text), parsed: true, ms: ms() };
    } catch {
      return { kind: "answer", status: res.statusCode, body: text.slice(0, 200), parsed: false, ms: ms() };
    }
  } catch (error) {
    if (timedOut) return { kind: "timeout", ms: ms() };
    return { kind: "unreachable", why: error.message, ms: ms() };
  } finally {
    clearTimeout(timer);
    stop.removeEventListener("abort", onStop);
  }
}

// services/agent/rail.ts
var MOST_RUNNING = 2;
var PERSIST_EVERY_BARS = 1e3;
var PERSIST_EVERY_MS = 5e3;
var RETRY_BACKOFF_MS = 100;
var stopped = (code, message, bar_t, problems) => ({ code, message, bar_t, ...problems ? { problems } : {} });
var Rail = class _Rail {
  constructor(store, clock) {
    this.store = store;
    this.clock = clock;
  }
  store;
  clock;
  under = /* @__PURE__ */ new Map();
  static async open(store, clock) {
    await store.runs.settleAfterRestart(clock());
    return new _Rail(store, clock);
  }
  /** A run as it stands: from memory while under way, else as written. */
  view(principal, id) {
    const u = this.under.get(id);
    if (u && u.principal === principal) return structuredClone(u.record);
    return this.store.runs.get(principal, id);
  }
  runningOf(principal) {
    return [...this.under.values()].filter((u) => u.principal === principal);
  }
  /**
   * Starts a run of a model: `bars` for a replay (its window, read already), null for a live run. Answers the run as
   * it stands once started; the stepping goes on in the background.
   */
  async start(ctx, model, init, bars) {
    const principal = ctx.principal.id;
    const mine = this.runningOf(principal);
    if (mine.length >= MOST_RUNNING) throw limitReached("busy", `${MOST_RUNNING} runs are already under way for you`, 60, { running: mine.map((u) => u.record.id) });
    if (init.mode === "live" && mine.some((u) => u.record.model === model.name && u.record.mode === "live")) {
      throw new DeckError(409, "run_under_way", `a live run of ${model.name} is already under way`, { field: "model" });
    }
    const id = `run_${randomBytes2(8).toString("hex")}`;
    const record = {
      ...init,
      id,
      model: model.name,
      state: "running",
      bars_done: 0,
      last_bar_t: null,
      decisions: { hold: 0, enter: 0, exit: 0 },
      skipped: { market_closed: 0 },
      orders: 0,
      fills: 0,
      retried: 0,
      decide_ms: 0,
      started_at: ctx.clock(),
      ended_at: null,
      end: null
    };
    const under = { principal, record, abort: new AbortController(), done: Promise.resolve(), persisted: { bars: 0, at: Date.now() } };
    this.under.set(id, under);
    try {
      await this.store.runs.put(principal, record);
    } catch (error) {
      this.under.delete(id);
      throw error;
    }
    const drive = { ctx, model, book: bars ? replayBook(ctx, model.name, id) : liveBook(ctx, model.name, id), under };
    under.done = (bars ? this.replay(drive, bars) : this.live(drive)).catch((error) => {
      ctx.log.error("run_failed", { run: id, error: error instanceof Error ? error.message : String(error) });
      return stopped("internal", "the run failed inside the deck; the failure is in its log", record.last_bar_t);
    }).then((end) => this.finish(under, end)).catch((error) => ctx.log.error("run_not_written", { run: id, error: error instanceof Error ? error.message : String(error) }));
    return structuredClone(record);
  }
  /** Stops a run under way and waits for it to end; a run already ended is answered as it is. */
  async stop(principal, id) {
    const u = this.under.get(id);
    if (u && u.principal === principal) {
      u.abort.abort();
      await u.done;
    }
    return this.store.runs.get(principal, id);
  }
  /** Ends every run under way (the deck is closing). */
  async close() {
    const all = [...this.under.values()];
    for (const u of all) u.abort.abort();
    await Promise.all(all.map((u) => u.done));
  }
  async finish(u, end) {
    const r = u.record;
    r.state = end && (end.code === "window_stepped" || end.code === "budget_spent") ? "done" : "stopped";
    r.end = end ?? stopped("stopped", "stopped by its operator", r.last_bar_t);
    r.ended_at = this.clock();
    try {
      await this.store.runs.put(u.principal, r);
    } finally {
      this.under.delete(r.id);
    }
  }
  async progress(u) {
    const now = Date.now();
    if (u.record.bars_done - u.persisted.bars < PERSIST_EVERY_BARS && now - u.persisted.at < PERSIST_EVERY_MS) return;
    u.persisted = { bars: u.record.bars_done, at: now };
    await this.store.runs.put(u.principal, u.record);
  }
  /** One bar to decide(), with its retries: the decision, or why the run ends. */
  async ask(d, bar, index) {
    const { model, under } = d;
    const r = under.record;
    const signal = under.abort.signal;
    const body = {
      version: TYPED_DECISION_VERSION,
      model: model.name,
      run: r.id,
      mode: r.mode,
      market: model.market,
      timeframe: model.timeframe,
      bar,
      index,
      position: positionView(d.ctx.upstreams.venue.position(d.book.key, model.market))
    };
    let end = null;
    for (let attempt = 0; attempt <= r.retries; attempt++) {
      if (attempt > 0) {
        r.retried++;
        await sleep(RETRY_BACKOFF_MS * attempt, void 0, { signal }).catch(() => {
        });
      }
      if (signal.aborted) return null;
      const out = await askDecide(d.ctx.upstreams.named, model.decide_url, body, r.timeout_ms, signal);
      r.decide_ms += out.ms;
      if (signal.aborted) return null;
      if (out.kind === "timeout") {
        end = stopped("decide_timeout", `decide() did not answer within ${r.timeout_ms} ms (${attempt + 1} tries)`, bar.t);
        continue;
      }
      if (out.kind === "unreachable") {
        end = stopped("decide_unreachable", `decide() could not be reached (${attempt + 1} tries): ${out.why}`, bar.t);
        continue;
      }
      if (out.status >= 500) {
        end = stopped("decide_failed", `decide() answered HTTP ${out.status} (${attempt + 1} tries)`, bar.t);
        continue;
      }
      if (out.status < 200 || out.status >= 300) return { end: stopped("decide_refused", `decide() answered HTTP ${out.status}`, bar.t) };
      const read = out.parsed ? readDecision(out.body, (path) => path || "(answer)") : { ok: false, problems: [{ field: "(answer)", message: "the answer is not JSON" }] };
      if (!read.ok) {
        const problems = read.problems;
        await countRefused(d.ctx, model, problems);
        return { end: stopped("bad_decision", `decide() answered what is not ${TYPED_DECISION_VERSION}: ${problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`, bar.t, problems) };
      }
      return { decision: read.decision };
    }
    return { end };
  }
  /** Routes one decision into the run's book: the end of the run when the book refuses it. */
  async route(d, decision, bar, at2, reference) {
    const r = d.under.record;
    r.decisions[decision.action]++;
    try {
      const order = await applyDecision(d.ctx, d.model, d.book, decision, at2, "", reference);
      if (order) r.orders++;
      return null;
    } catch (error) {
      if (!(error instanceof DeckError)) throw error;
      if (error.code === "market_closed") {
        r.skipped.market_closed++;
        return null;
      }
      const problems = Array.isArray(error.details.problems) ? error.details.problems : void 0;
      if (problems) await countRefused(d.ctx, d.model, problems);
      return stopped(error.code === "bad_input" ? "book_refused" : error.code, `the book refused the decision: ${error.message}`, bar.t, problems);
    }
  }
  budgetSpent(r) {
    return r.bars_done >= r.budget_bars ? stopped("budget_spent", `the run's budget of ${r.budget_bars} bars is spent`, r.last_bar_t) : null;
  }
  /** A replay: each bar of the window stepped over the run's own book, then sent to decide(). */
  async replay(d, bars) {
    const { under, model, book } = d;
    const r = under.record;
    const len = TIMEFRAME_SECONDS[model.timeframe];
    const venue = d.ctx.upstreams.venue;
    for (let k = 0; k < bars.length; k++) {
      const spent = this.budgetSpent(r);
      if (spent) return spent;
      if (under.abort.signal.aborted) return null;
      const bar = bars[k];
      r.fills += (await venue.step(book, model.market, bar)).length;
      const asked = await this.ask(d, bar, k);
      if (!asked) return null;
      if ("end" in asked) return asked.end;
      const end = await this.route(d, asked.decision, bar, bar.t + len, bar.c);
      if (end) return end;
      r.bars_done++;
      r.last_bar_t = bar.t;
      await this.progress(under);
    }
    return stopped("window_stepped", `every bar of the window was stepped (${bars.length})`, r.last_bar_t);
  }
  /** Closed bars of [from, now) from the live tape, read fresh (a replay session of the run's own id). */
  async liveBars(d, from, now) {
    const got = await meteredCandles(d.ctx, { market: d.model.market, tf: d.model.timeframe, from, to: now, session: d.under.record.id });
    const len = TIMEFRAME_SECONDS[d.model.timeframe];
    return barsToRows(got.bars()).filter((b) => b.t >= from && b.t + len <= now);
  }
  /** A live run: forward from the bar under way when it starts, each bar decided once the tape has closed it. */
  async live(d) {
    const { under, model, book, ctx } = d;
    const r = under.record;
    const len = TIMEFRAME_SECONDS[model.timeframe];
    const venue = ctx.upstreams.venue;
    const signal = under.abort.signal;
    let cursor = Math.floor(ctx.clock() / 1e3 / len) * len;
    while (!signal.aborted) {
      await sleep(ctx.config.agent.pollMs, void 0, { signal }).catch(() => {
      });
      if (signal.aborted) return null;
      const now = Math.floor(ctx.clock() / 1e3);
      if (now - cursor < len) continue;
      let bars;
      try {
        bars = await this.liveBars(d, cursor, now);
      } catch (error) {
        if (!(error instanceof DeckError) || error.status < 500) throw error;
        ctx.log.info("run_tape_silent", { run: r.id, error: error.message });
        continue;
      }
      for (const bar of bars) {
        const spent = this.budgetSpent(r);
        if (spent) return spent;
        const before = venue.fills(book.key).length;
        await venue.settle(book, model.market, bar.t + len);
        r.fills += venue.fills(book.key).length - before;
        const asked = await this.ask(d, bar, r.bars_done);
        if (!asked) return null;
        if ("end" in asked) return asked.end;
        const end = await this.route(d, asked.decision, bar, Math.floor(ctx.clock() / 1e3), bar.c);
        if (end) return end;
        r.bars_done++;
        r.last_bar_t = bar.t;
        cursor = bar.t + len;
        await this.progress(under);
      }
    }
    return null;
  }
};

// config/logger.ts
var LEVELS = { silent: 0, error: 1, info: 2, debug: 3 };
var TOKEN_CHAR = "(?:[A-Za-z0-9_-]|%[0-9A-Fa-f]{2})";
var escapable = (literal) => [...literal].map((c) => `(?:${c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}|%${c.charCodeAt(0).toString(16).padStart(2, "0")})`).join("");
function smtpUrlPassword(smtpUrl) {
  try {
    return decodeURIComponent(new URL(smtpUrl).password) || null;
  } catch {
    return null;
  }
}
function redactor(config) {
  const shapes = new RegExp(`(${escapable(config.keyPrefix)})${TOKEN_CHAR}+|(${["ds_", "dr_", "dc_", "dl_", "dp_"].map(escapable).join("|")})${TOKEN_CHAR}{40,}`, "gi");
  const smtpPassword = config.email ? config.email.password ?? smtpUrlPassword(config.email.smtpUrl) : null;
  const secrets = [config.door?.token, config.coord?.key, config.grader?.key, config.reader?.key, config.chat?.key, config.metricsToken, smtpPassword, config.x?.clientSecret].filter((x) => typeof x === "string" && x.length >= 8).flatMap((x) => [x, encodeURIComponent(x), JSON.stringify(x).slice(1, -1)]);
  return (line) => {
    let out = line.replace(shapes, (_m, key, session) => `${key ?? session}[redacted]`);
    for (const secret of secrets) out = out.replaceAll(secret, "[redacted]");
    return out;
  };
}
function makeLogger(config) {
  const at2 = LEVELS[config.log];
  const redact = redactor(config);
  const write = (lvl, event, fields) => process.stderr.write(`${redact(JSON.stringify({ t: (/* @__PURE__ */ new Date()).toISOString(), lvl, event, ...fields }))}
`);
  return {
    debug: (event, fields) => void (at2 >= LEVELS.debug && write("debug", event, fields)),
    info: (event, fields) => void (at2 >= LEVELS.info && write("info", event, fields)),
    error: (event, fields) => void (at2 >= LEVELS.error && write("error", event, fields))
  };
}

// services/oauth/askers.ts
var NEVER = new AbortController().signal;
var Askers = class {
  waiting = /* @__PURE__ */ new Map();
  /** A request asking for `id` has begun; call what this answers when it ends (once is enough; more is harmless). */
  asking(id) {
    let w = this.waiting.get(id);
    if (!w) this.waiting.set(id, w = { open: 0, ended: new AbortController() });
    const held = w;
    held.open++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--held.open > 0) return;
      this.waiting.delete(id);
      held.ended.abort();
    };
  }
  /** Aborts once every request now asking for `id` has ended; never, when none is (a call outside a request). */
  signal(id) {
    return this.waiting.get(id)?.ended.signal ?? NEVER;
  }
};

// services/oauth/metadata-cache.ts
var METADATA_TTL_MS = 10 * 6e4;
var METADATA_CACHED = 1e3;
var ClientMetadataCache = class {
  kept = /* @__PURE__ */ new Map();
  get(id, now) {
    const hit = this.kept.get(id);
    return hit && hit.until > now ? hit.client : null;
  }
  put(id, client, now) {
    if (this.kept.size >= METADATA_CACHED) this.kept.delete(this.kept.keys().next().value);
    this.kept.set(id, { client, until: now + METADATA_TTL_MS });
  }
};

// services/oauth/door.ts
function openOAuthDoor(base, endpoints, targets) {
  return {
    issuer: base,
    resources: protectedResources(base, endpoints),
    authorizations: new Authorizations(),
    clientMetadata: new ClientMetadataCache(),
    fetcher: new ClientMetadataFetcher(targets),
    askers: new Askers()
  };
}

// services/plans/locks.ts
function locksOf(plans, tools) {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const locks = /* @__PURE__ */ new Map();
  for (const [tier, names] of Object.entries(plans.tier_tools)) {
    for (const name of names) {
      const tool = byName.get(name);
      if (!tool) throw new Error(`plans file: tier_tools.${tier} names ${name}, which is not a tool`);
      if (tool.access === "none") throw new Error(`plans file: tier_tools.${tier} names ${name}, which needs no key: a tier cannot lock it`);
      locks.set(name, tier);
    }
  }
  return locks;
}

// upstream/tape/sample.ts
import { readdir as readdir3, readFile as readFile3 } from "node:fs/promises";
import { join as join9 } from "node:path";
import { z as z5 } from "zod";

// upstream/tape/import.ts
var refusedRows = (refused4) => ({
  ok: false,
  why: `${refused4.length} bad line(s), nothing imported`,
  lines: refused4.slice(0, 20).map((r) => `line ${r.line}: ${r.reason}`)
});
async function importBars(archive, bars, market, tf, origin) {
  const rows = tuplesFromBars(bars);
  const added = await archive.import(market, tf, rows, origin);
  const len = TIMEFRAME_SECONDS[tf];
  const stretches = vouchedRuns(market, bars.t, len).map((r) => ({ from: bars.t[r.from], to: bars.t[r.to - 1] + len }));
  return { ok: true, read: rows.length, added, stretches };
}
async function importBarsCsv(archive, text, market, tf, origin = "import") {
  const read = readBarsCsv(text, TIMEFRAME_SECONDS[tf]);
  if (!read.ok) return refusedRows(read.refused);
  const spacing = typicalSpacing(read.bars.t);
  if (spacing !== null && spacing !== TIMEFRAME_SECONDS[tf]) {
    return { ok: false, why: `the bars are ${lengthWords(spacing)} apart (most common spacing ${spacing} s), not ${tf}; nothing imported`, lines: [] };
  }
  return importBars(archive, read.bars, market, tf, origin);
}
async function importSecondsCsv(archive, text, market, origin) {
  const read = readBarsCsv(text, 1);
  if (!read.ok) return refusedRows(read.refused);
  const built = resample(read.bars, 1, TIMEFRAME_SECONDS["15s"]).bars;
  return { ...await importBars(archive, built, market, "15s", origin), seconds: read.bars.length };
}

// upstream/tape/sample.ts
var SAMPLE_DIR = join9(PROJECT_ROOT, "tape", "sample");
var SampleName = z5.string().regex(/^[A-Z]+-[0-9a-z]+(-[a-z0-9]+)?\.csv$/).transform((name) => name.slice(0, -".csv".length).split("-").slice(0, 2)).pipe(z5.tuple([z5.enum(MARKETS), z5.enum([...TIMEFRAMES, "1s"])]));
var iso = (t) => new Date(t * 1e3).toISOString();
async function seedSample(config, archive, log) {
  if (config.tapeUrl || !config.sampleTape || await archive.holdsAny()) return;
  for (const name of (await readdir3(SAMPLE_DIR)).sort()) {
    const named = SampleName.safeParse(name);
    if (!named.success) continue;
    const [market, tf] = named.data;
    const text = await readFile3(join9(SAMPLE_DIR, name), "utf8");
    const done = tf === "1s" ? await importSecondsCsv(archive, text, market, "sample") : await importBarsCsv(archive, text, market, tf, "sample");
    const file = `tape/sample/${name}`;
    if (!done.ok) {
      log.error("sample_tape_refused", { file, why: done.why, lines: done.lines });
      continue;
    }
    log.info("sample_tape", {
      file,
      market,
      tf: tf === "1s" ? "15s" : tf,
      ..."seconds" in done ? { built_from: { tf: "1s", bars: done.seconds } } : {},
      bars: done.added,
      stretches: done.stretches.map((s) => ({ from: iso(s.from), to: iso(s.to) })),
      why: "no venue (DECK_TAPE_URL) and an empty archive: seeded from the sample shipped in tape/sample/; DECK_SAMPLE_TAPE=off turns this off"
    });
  }
}

// upstream/chain/reader.ts
import { Contract, id as topicOf, Interface, isError } from "ethers";
var ERC20 = new Interface(["event Transfer(address indexed from, address indexed to, uint256 value)"]);
var TRANSFER = topicOf("Transfer(address,address,uint256)");
var ERC721 = ["function balanceOf(address owner) view returns (uint256)"];
var VAULT = ["function mandateHash() view returns (bytes32)"];
function refusal(upstream, error) {
  if (error instanceof DeckError) return error;
  if (isError(error, "TIMEOUT")) return unreachable(upstream, `no answer in ${RPC_TIMEOUT_MS / 1e3} s`);
  const e = error;
  if (e.syscall !== void 0 || typeof e.code === "string" && /^E[A-Z]+$/.test(e.code)) return unreachable(upstream, e.message ?? String(e.code));
  if (e.error !== void 0) return refusedBy(upstream, e.error);
  if (isError(error, "SERVER_ERROR") && e.info) return refusedBy(upstream, { status: e.info.responseStatus, body: e.info.responseBody ?? null });
  return refusedBy(upstream, { message: error.message });
}
var ChainReader = class {
  constructor(id, provider) {
    this.id = id;
    this.provider = provider;
    this.upstream = `the chain ${id}`;
  }
  id;
  provider;
  upstream;
  async read(how) {
    try {
      return await how();
    } catch (error) {
      throw refusal(this.upstream, error);
    }
  }
  /** The receipt of a mined transaction; null when none is mined under that hash. */
  receipt(txHash) {
    return this.read(async () => {
      const r = await this.provider.getTransactionReceipt(txHash);
      if (!r) return null;
      const transfers = r.logs.filter((l) => l.topics.length === 3 && l.topics[0] === TRANSFER).map((l) => {
        const parsed = ERC20.parseLog(l);
        return { token: l.address, from: parsed.args[0], to: parsed.args[1], amount: parsed.args[2] };
      });
      return { status: r.status ?? 0, block: r.blockNumber, transfers };
    });
  }
  /** Whether the chain knows the transaction at all (sent, perhaps not mined yet). */
  knows(txHash) {
    return this.read(async () => await this.provider.getTransaction(txHash) !== null);
  }
  /** The latest block's number. */
  head() {
    return this.read(() => this.provider.getBlockNumber());
  }
  /** A block's time, in unix milliseconds. */
  blockTime(block) {
    return this.read(async () => {
      const b = await this.provider.getBlock(block);
      if (!b) throw refusedBy(this.upstream, { message: `block ${block} of a mined receipt is unknown` });
      return b.timestamp * 1e3;
    });
  }
  /** ERC-721 balanceOf(owner) on a collection, at a block. */
  nftsHeld(collection, owner, block) {
    return this.read(() => new Contract(collection, ERC721, this.provider).getFunction("balanceOf")(owner, { blockTag: block }));
  }
  /**
   * A vault's on-chain mandateHash(), at the latest block; null when the address answers none (no code there,
   * or the call reverts): such a vault matches no mandate.
   */
  mandateHash(vault) {
    return this.read(async () => {
      try {
        return await new Contract(vault, VAULT, this.provider).getFunction("mandateHash")();
      } catch (error) {
        if (isError(error, "CALL_EXCEPTION") || isError(error, "BAD_DATA")) return null;
        throw error;
      }
    });
  }
};

// upstream/chain/chains.ts
var Chains = class {
  readers = /* @__PURE__ */ new Map();
  rpcs;
  constructor(chains, override) {
    if (override && chains.length !== 1) {
      throw new Error(`DECK_CHAIN_RPC is the RPC of a deployment with one chain; the plans file lists ${chains.length}: set chains[].rpc instead`);
    }
    this.rpcs = new Map(chains.map((c) => [c.id, override ?? c.rpc]));
  }
  /** The reader of a listed chain; 503 naming what to set when the chain has no RPC. */
  reader(id) {
    const known = this.readers.get(id);
    if (known) return known;
    const rpc = this.rpcs.get(id);
    if (!rpc) throw notConfigured(`the chain ${id}`, `chains[].rpc for ${id} in the plans file, or DECK_CHAIN_RPC`);
    const reader = new ChainReader(id, rpcProvider(rpc, chainNumber(id)));
    this.readers.set(id, reader);
    return reader;
  }
};

// upstream/coord/layer.ts
var NAME = "coordination layer";
var BACKOFF_MS = [100, 300];
var CoordLayer = class {
  constructor(config, timeoutMs = 5e3) {
    this.config = config;
    this.timeoutMs = timeoutMs;
  }
  config;
  timeoutMs;
  venues() {
    return this.call({ method: "GET", path: "/v1/venues", answer: VenuesAnswer, read: true }).then((a) => a.venues);
  }
  /**
   * The pool's terms. A POST: tried once, within one deadline, as the wire retries idempotent reads only (a stalled
   * layer answers 502 after one timeout, not three). 404 no_lane is the deck's 422 no_lane.
   */
  poolQuote(request) {
    return this.call({
      method: "POST",
      path: "/v1/pool/quote",
      body: request,
      answer: PoolQuoteAnswer,
      read: false,
      refusal: (status, body) => status === 404 && body?.error === "no_lane" ? new DeckError(422, "no_lane", `no pool serves ${request.class} at ${request.venue} for the ${request.seller.seller} seller`, { layer: body }) : null
    });
  }
  openHandshake(request) {
    return this.call({ method: "POST", path: "/v1/handshakes", body: request, answer: HandshakeOpened, read: false });
  }
  settle(handshakeId) {
    return this.call({ method: "POST", path: "/v1/settle", body: { handshake_id: handshakeId }, answer: SettleAnswer, read: false });
  }
  /** The handshake as the layer reports it. */
  handshake(handshakeId) {
    return this.call({ method: "GET", path: `/v1/handshakes/${encodeURIComponent(handshakeId)}`, answer: HandshakeAnswer, read: true });
  }
  async call(c) {
    if (!this.config) throw notConfigured(NAME, "DECK_COORD_URL");
    const { url: url2, key } = this.config;
    if (!key) throw notConfigured(NAME, "DECK_COORD_KEY");
    const target = `${url2.replace(/\/$/, "")}${c.path}`;
    const tries = c.read ? BACKOFF_MS.length + 1 : 1;
    let why = "";
    for (let i = 0; i < tries; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, BACKOFF_MS[i - 1]));
      let answer;
      try {
        answer = await callJson(NAME, target, { method: c.method, body: c.body, token: key, timeoutMs: this.timeoutMs });
      } catch (error) {
        why = error.message.replace(`${NAME} could not be reached: `, "");
        continue;
      }
      if (answer.status >= 500) why = `answered ${answer.status}`;
      else if (!answer.parsed) why = `an answer that is not JSON (status ${answer.status})`;
      else if (answer.status >= 400) throw c.refusal?.(answer.status, answer.body) ?? refusedBy(NAME, answer.body);
      else {
        const parsed = c.answer.safeParse(answer.body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw didNotAnswer(NAME, `an answer of the wrong shape to ${c.method} ${c.path} (${issue?.path.join(".") || "body"}: ${issue?.message})`);
        }
        return parsed.data;
      }
    }
    throw didNotAnswer(NAME, why);
  }
};

// upstream/chat/lane.ts
import { z as z6 } from "zod";
var UPSTREAM = "the chat lane";
var Completion = z6.object({
  model: z6.string().optional(),
  choices: z6.array(z6.object({ message: z6.object({ content: z6.string().nullish(), refusal: z6.string().nullish() }), finish_reason: z6.string().nullish() })).min(1)
});
var Chunk = z6.object({
  model: z6.string().optional(),
  choices: z6.array(z6.object({ delta: z6.object({ content: z6.string().nullish(), refusal: z6.string().nullish() }).partial().optional(), finish_reason: z6.string().nullish() }))
});
var nonsense = (why) => new DeckError(502, "chat_nonsense", `the chat lane answered something that is not a chat completion: ${why}`, { upstream: UPSTREAM });
var refused2 = () => new DeckError(502, "chat_refused", "the model refused to answer", { upstream: UPSTREAM });
function answerOf(body, model) {
  const parsed = Completion.safeParse(body);
  if (!parsed.success) throw nonsense("no choices");
  const choice = parsed.data.choices[0];
  if (choice.message.refusal) throw refused2();
  return { model: parsed.data.model ?? model, text: choice.message.content ?? "", finish_reason: choice.finish_reason ?? null };
}
var ChatLane = class {
  constructor(config) {
    this.config = config;
  }
  config;
  /**
   * Asks the lane and answers, once it has begun to answer, the words as they come: each yield is a piece of the
   * text, the return is the whole answer. `stream` asks the lane to send its words as they are made (server-sent
   * events); a lane that answers whole instead is read whole. `cancel` stops the exchange (the caller went away).
   */
  async ask(messages, opts) {
    const { url: url2, key, model, timeoutS } = this.config;
    const deadline = AbortSignal.timeout(timeoutS * 1e3);
    const signal = opts.cancel ? AbortSignal.any([deadline, opts.cancel]) : deadline;
    const failed = (error) => error instanceof DeckError ? error : deadline.aborted ? new DeckError(503, "upstream_timeout", `the chat lane did not answer within ${timeoutS} s; nothing was spent`, { upstream: UPSTREAM, timeout_s: timeoutS }) : unreachable(UPSTREAM, error.message);
    let res;
    try {
      res = await watched(
        UPSTREAM,
        async () => (await undici()).request(`${url2.replace(/\/$/, "")}/chat/completions`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: opts.stream ? "text/event-stream, application/json" : "application/json",
            ...key ? { authorization: `Bearer ${key}` } : {}
          },
          body: JSON.stringify({ model, messages, ...opts.maxTokens ? { max_tokens: opts.maxTokens } : {}, ...opts.stream ? { stream: true } : {} }),
          signal
        })
      );
    } catch (error) {
      throw failed(error);
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      const text = await res.body.text().catch(() => "");
      let body2 = null;
      try {
        body2 = JSON.parse(text);
      } catch {
      }
      throw new DeckError(502, "chat_refused", `the chat lane refused the request (HTTP ${res.statusCode})`, { upstream: UPSTREAM, lane: refusalOf(res.statusCode, body2) });
    }
    const events = String(res.headers["content-type"] ?? "").startsWith("text/event-stream");
    const body = res.body;
    return (async function* words() {
      try {
        if (!events) {
          let parsed;
          try {
            parsed = JSON.parse(await body.text());
          } catch (error) {
            if (signal.aborted) throw error;
            throw nonsense("not JSON");
          }
          const whole = answerOf(parsed, model);
          if (whole.text) yield whole.text;
          return whole;
        }
        const decoder = new TextDecoder();
        let text = "";
        let finish = null;
        let answeredBy = model;
        let rest = "";
        for await (const chunk of body) {
          const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
          rest = lines.pop();
          for (const raw of lines) {
            const line = raw.trimEnd();
            if (!line.startsWith("data:")) continue;
            const data = line.slice(5).trim();
            if (data === "[DONE]") return { model: answeredBy, text, finish_reason: finish };
            let piece;
            try {
              piece = Chunk.safeParse(JSON.parse(data));
            } catch {
              throw nonsense("an event that is not JSON");
            }
            if (!piece.success) throw nonsense("an event without choices");
            answeredBy = piece.data.model ?? answeredBy;
            const choice = piece.data.choices[0];
            if (choice?.delta?.refusal) throw refused2();
            finish = choice?.finish_reason ?? finish;
            const word = choice?.delta?.content;
            if (word) {
              text += word;
              yield word;
            }
          }
        }
        if (finish === null) throw nonsense("the stream ended before the answer did");
        return { model: answeredBy, text, finish_reason: finish };
      } catch (error) {
        throw failed(error);
      } finally {
        body.destroy();
      }
    })();
  }
};

// upstream/identity/embedded.ts
import { randomUUID } from "node:crypto";
var EmbeddedDoor = class _EmbeddedDoor {
  constructor(file, keyPrefix, clock) {
    this.file = file;
    this.keyPrefix = keyPrefix;
    this.clock = clock;
    this.index();
  }
  file;
  keyPrefix;
  clock;
  kind = "embedded";
  /** key digest -> principal id, so verifying a key is a lookup. */
  byHash = /* @__PURE__ */ new Map();
  /** The document the index was built from: another deck's write on a shared store brings a new one. */
  indexed = null;
  static async open(backend, keyPrefix, clock) {
    return new _EmbeddedDoor(await backend.doc("door", () => ({ principals: {} })), keyPrefix, clock);
  }
  index() {
    if (this.indexed === this.file.data) return;
    this.indexed = this.file.data;
    this.byHash.clear();
    for (const p of Object.values(this.file.data.principals)) this.byHash.set(p.key_hash, p.id);
  }
  async mint({ name, wallet }) {
    const key = newKey(this.keyPrefix);
    const record = { id: randomUUID(), name, wallet, key_hash: digest(key), key_gen: 1, created_at: this.clock() };
    await this.file.update((d) => {
      if (Object.values(d.principals).some((p) => p.name === name)) {
        throw new DeckError(409, "name_taken", `the name ${name} is taken`, { field: "name" });
      }
      d.principals[record.id] = record;
    });
    return { principal: { id: record.id, name, wallet }, key };
  }
  async verify(key) {
    this.index();
    const id = this.byHash.get(digest(key));
    const found = id ? this.file.data.principals[id] : void 0;
    return found ? { id: found.id, name: found.name, wallet: found.wallet } : null;
  }
  async rotate(principalId) {
    const key = newKey(this.keyPrefix);
    await this.file.update((d) => {
      const p = d.principals[principalId];
      if (!p) throw new DeckError(502, "upstream_refused", "the identity door does not know this principal", { upstream: "identity door" });
      Object.assign(p, { key_hash: digest(key), key_gen: p.key_gen + 1, previous_hash: p.key_hash });
    });
    return key;
  }
  /**
   * Brings the door in step with the deck's accounts, whose write is the commit of a join or a rotation; run at
   * start, before any request. A principal no account names is a join cut before its commit, its key never shown:
   * it is forgotten and its name is free again. A key generation ahead of the account's is a rotation cut before
   * its commit (rotations of one principal run one at a time, so it is one ahead): the previous key is put back,
   * and the new one, never shown, is refused. Records from before key generations were kept take the account's.
   */
  async settle(keyGenOf) {
    const settled = { forgotten: [], restored: [] };
    const unsettled = (p, gen) => gen === null || p.key_gen !== gen || p.previous_hash !== void 0;
    if (!Object.values(this.file.data.principals).some((p) => unsettled(p, keyGenOf(p.id)))) return settled;
    await this.file.update((d) => {
      for (const p of Object.values(d.principals)) {
        const gen = keyGenOf(p.id);
        if (gen === null) {
          delete d.principals[p.id];
          settled.forgotten.push(p.name);
          continue;
        }
        if ((p.key_gen ?? gen) > gen && p.previous_hash) {
          p.key_hash = p.previous_hash;
          settled.restored.push(p.name);
        }
        p.key_gen = gen;
        delete p.previous_hash;
      }
    });
    return settled;
  }
};

// upstream/identity/http-door.ts
import { z as z7 } from "zod";
var NAME2 = "identity door";
var Principal = z7.object({ id: z7.string(), name: z7.string(), wallet: z7.string().nullable() });
var Verified = z7.object({ principal: Principal });
var keyed = (prefix) => {
  const key = z7.string().startsWith(prefix).max(512);
  return { minted: z7.object({ principal: Principal, key }), rotated: z7.object({ key }) };
};
var shaped = (schema, body) => {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  if (typeof body === "object" && body !== null && "key" in body) throw refusedBy(NAME2, { ...body, key: "(withheld)" });
  throw refusedBy(NAME2, body);
};
var HttpDoor = class {
  constructor(url2, token, keyPrefix) {
    this.url = url2;
    this.token = token;
    this.answers = keyed(keyPrefix);
  }
  url;
  token;
  kind = "http";
  answers;
  post(path, body) {
    return callJson(NAME2, `${this.url.replace(/\/$/, "")}${path}`, { method: "POST", body, token: this.token });
  }
  async mint(request) {
    const answer = await this.post("/principals", request);
    if (answer.status === 409) throw new DeckError(409, "name_taken", `the name ${request.name} is taken`, { field: "name" });
    return shaped(this.answers.minted, expectOk(NAME2, answer));
  }
  async verify(key) {
    const answer = await this.post("/verify", { key });
    if (answer.status === 401 || answer.status === 404) return null;
    return shaped(Verified, expectOk(NAME2, answer)).principal;
  }
  async rotate(principalId) {
    const answer = await this.post(`/principals/${encodeURIComponent(principalId)}/key`, {});
    return shaped(this.answers.rotated, expectOk(NAME2, answer)).key;
  }
};

// upstream/mail/mailer.ts
import nodemailer from "nodemailer";
var NAME3 = "the mail server";
var UNREACHED = /* @__PURE__ */ new Set(["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "ETLS", "EPROXY"]);
var Mailer = class {
  constructor(config, timeoutMs = 1e4) {
    this.config = config;
    const u = new URL(config.smtpUrl);
    const secure = u.protocol === "smtps:";
    const user = decodeURIComponent(u.username);
    const pass = config.password ?? decodeURIComponent(u.password);
    this.transport = nodemailer.createTransport({
      host: u.hostname.replace(/^\[|\]$/g, ""),
      port: u.port ? Number(u.port) : secure ? 465 : 587,
      secure,
      ...user ? { auth: { user, pass } } : {},
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      // One mail at a time needs no pool: each sign-in mail opens and closes its own connection.
      pool: false
    });
  }
  config;
  transport;
  async send(mail) {
    const started = performance.now();
    try {
      await this.transport.sendMail({ from: this.config.from, to: mail.to, subject: mail.subject, text: mail.text });
      publishCall(NAME3, started, "ok", 250);
    } catch (error) {
      const e = error;
      if (e.code && UNREACHED.has(e.code)) {
        publishCall(NAME3, started, "unreachable", null);
        throw unreachable(NAME3, e.code);
      }
      publishCall(NAME3, started, "refused", e.responseCode ?? null);
      throw refusedBy(NAME3, { code: e.code ?? null, status: e.responseCode ?? null, response: e.response ?? e.message ?? null });
    }
  }
};

// upstream/reader/model-reader.ts
import { z as z9 } from "zod";

// upstream/reader/prompt.ts
import { z as z8 } from "zod";
var SHAPE = JSON.stringify(z8.toJSONSchema(RuleReadingSchema, { io: "output", reused: "ref", unrepresentable: "any" }));
var READER_PROMPT = [
  "You read one trader's rule into seven parts. The user message is the rule's text, exactly, and nothing else.",
  "",
  "The seven parts:",
  "- market: the market the rule trades: NQ, ES, YM, BTC, ETH or SOL.",
  "- timeframe: the bars it reads: 15s, 1m, 5m or 1h.",
  "- session: when the rule may act: always, or windows of wall-clock time in a zone.",
  "- side: long, short or both.",
  "- entry: the trigger: at most one trigger per side, each a condition over prices, indicators, levels and marks.",
  "- stop: where the rule is wrong: a distance, or a level (with an optional move to breakeven).",
  "- exit: every way out the words give (a target, a trail, a time, a condition); whichever comes first closes the trade.",
  "",
  'Each part is { "status", "value", "spans" }, with "readings", "note" and "hint" (on a missing or ambiguous part: words that would read) only where they apply:',
  '- "read": value is set and spans cite the words it came from (at least one span).',
  '- "missing": value is null and spans is empty, or cites the words that named something not served, with a note saying so.',
  `- "defaulted": not yours to answer. The deck itself completes a reading by its documented defaults (an unstated session, an ATR's unstated length, a swing's unstated bars on each side, Bollinger bands' unstated length or width) after you answer.`,
  '- "ambiguous": value is null and readings lists two competing { "value", "spans" } or more, each citing its words.',
  "Never fill in what the words do not state: a part the words do not give is missing, and a length they do not give is null.",
  "",
  'A span is { "from", "to", "text" }: the characters [from, to) of the user message, counted from 0 in UTF-16 code units,',
  "and text is exactly those characters (so its length is to - from). Cite only words present in the message: a reading",
  "with any span that does not quote the message exactly is refused whole.",
  "",
  "Answer with one JSON object and nothing else: the seven parts as its keys, in exactly this JSON Schema:",
  SHAPE
].join("\n");
var messagesOf = (text) => [
  { role: "system", content: READER_PROMPT },
  { role: "user", content: text }
];

// upstream/reader/model-reader.ts
var UPSTREAM2 = "the model reader";
var TIMEOUT_MS = 6e4;
var requestOf = (model, text, jsonMode) => ({
  model,
  messages: messagesOf(text),
  temperature: 0,
  ...jsonMode ? { response_format: { type: "json_object" } } : {}
});
var Completion2 = z9.object({
  choices: z9.array(z9.object({ message: z9.object({ content: z9.string().nullish(), refusal: z9.string().nullish() }) })).min(1)
});
function refusesJsonMode(answer) {
  if (answer.status !== 400 || typeof answer.body !== "object" || answer.body === null) return false;
  const error = answer.body.error;
  return typeof error === "object" && error !== null && /response_format/.test(JSON.stringify(error));
}
var refused3 = (problems) => new DeckError(502, "model_reading_refused", `the model's reading was refused: ${problems.join("; ")}`, { upstream: UPSTREAM2, problems });
function candidateOf(body) {
  const parsed = Completion2.safeParse(body);
  if (!parsed.success) throw refused3(["the answer is not a chat completion with choices"]);
  const message = parsed.data.choices[0].message;
  if (message.refusal) throw refused3(["the model refused to read the rule"]);
  const content = (message.content ?? "").trim().replace(/^```(?:json)?\s*\n([\s\S]*)\n```$/, "$1");
  if (!content) throw refused3(["the answer carries no reading"]);
  try {
    return JSON.parse(content);
  } catch {
    throw refused3(["the answer is not JSON"]);
  }
}
var ModelReader = class {
  constructor(lane) {
    this.lane = lane;
  }
  lane;
  ask(text, jsonMode, ended) {
    return callJson(UPSTREAM2, `${this.lane.url.replace(/\/$/, "")}/chat/completions`, {
      method: "POST",
      body: requestOf(this.lane.model, text, jsonMode),
      token: this.lane.key,
      timeoutMs: TIMEOUT_MS,
      ended
    });
  }
  /** Reads the words; `ended` (the end of the request that asked) cancels the reading. */
  async read(text, ended) {
    let answer = await this.ask(text, true, ended);
    if (refusesJsonMode(answer)) answer = await this.ask(text, false, ended);
    if (answer.status < 200 || answer.status >= 300) {
      throw new DeckError(502, "model_reader_refused", `the model reader refused the request (HTTP ${answer.status})`, {
        upstream: UPSTREAM2,
        reader: refusalOf(answer.status, answer.body)
      });
    }
    const candidate = candidateOf(answer.body);
    const problems = citationProblems(text, candidate);
    if (problems.length > 0) throw refused3(problems);
    return RuleReadingSchema.parse(candidate);
  }
};

// upstream/tape/ccxt.ts
var QUOTES = ["USDT", "USD"];
var RETRIES = 2;
var RETRY_DELAY_MS = 500;
var TIMEOUT_MS2 = 1e4;
var DEFAULT_PAGE = 500;
var wholeExchange = (url2, init) => fetch(url2, { ...init, signal: init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(TIMEOUT_MS2)]) : AbortSignal.timeout(TIMEOUT_MS2) });
var cutShort = (error) => error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
function pointedAt(api, base, hostname) {
  if (typeof api === "string") {
    const whole = hostname ? api.replaceAll("{hostname}", hostname) : api;
    return URL.canParse(whole) ? base.replace(/\/$/, "") + new URL(whole).pathname.replace(/\/$/, "") : api;
  }
  if (api && typeof api === "object") return Object.fromEntries(Object.entries(api).map(([k, v]) => [k, pointedAt(v, base, hostname)]));
  return api;
}
function spotOnly(exchange) {
  const listed = exchange.options["fetchMarkets"];
  if (Array.isArray(listed) && listed.includes("spot")) exchange.options["fetchMarkets"] = ["spot"];
  else if (listed && typeof listed === "object" && "types" in listed && Array.isArray(listed.types) && listed.types.includes("spot")) {
    exchange.options["fetchMarkets"] = { ...listed, types: ["spot"] };
  }
}
var CcxtTape = class _CcxtTape {
  constructor(ccxt, exchange, name, log) {
    this.ccxt = ccxt;
    this.exchange = exchange;
    this.log = log;
    this.source = `ccxt:${name}`;
    const bound = exchange.features["spot"]?.["fetchOHLCV"]?.limit;
    this.page = typeof bound === "number" && bound > 0 ? bound : DEFAULT_PAGE;
  }
  ccxt;
  exchange;
  log;
  source;
  pairs = null;
  page;
  /** ccxt's exchange by its name, pointed at `apiUrl` when given; a name ccxt does not know stops the start, saying how to configure. */
  static async open(name, apiUrl, log) {
    const ccxt = await import("ccxt");
    const listed = ccxt.exchanges;
    const names = Array.isArray(listed) ? listed.filter((n) => typeof n === "string") : Object.keys(ccxt.exchanges);
    const make = names.includes(name) ? ccxt[name] : void 0;
    if (!make) {
      throw new Error(
        `DECK_TAPE_URL=ccxt:${name}: ccxt ${ccxt.version} knows no exchange "${name}". Set DECK_TAPE_URL=ccxt:<exchange> with one of ccxt's exchanges (${names.join(", ")}), or to the http(s) URL of a venue's open tape, or leave it unset to serve the archive alone`
      );
    }
    const exchange = new make({
      enableRateLimit: true,
      timeout: TIMEOUT_MS2,
      // ccxt's own timeout ends once the answer's headers are in: the whole exchange, body included, is held to it here.
      fetchImplementation: wholeExchange,
      options: { defaultType: "spot", maxRetriesOnFailure: RETRIES, maxRetriesOnFailureDelay: RETRY_DELAY_MS }
    });
    if (!exchange.has["fetchOHLCV"]) throw new Error(`DECK_TAPE_URL=ccxt:${name}: ccxt's ${name} serves no public candles (fetchOHLCV); choose another exchange`);
    spotOnly(exchange);
    if (apiUrl) exchange.urls.api = pointedAt(exchange.urls.api, apiUrl, exchange.hostname);
    const tape = new _CcxtTape(ccxt, exchange, name, log);
    log.info("venue_tape", { source: tape.source, ccxt: ccxt.version, api: apiUrl ?? "the exchange's own hosts", bars_per_request: tape.page });
    return tape;
  }
  refusal(market) {
    const spec = MARKET_SPECS[market];
    if (spec.kind !== "cme") return null;
    return badInput([
      {
        field: "market",
        message: `${this.source} cannot serve ${market} (${spec.name}): it is a CME futures contract, which no crypto exchange lists; ${this.source} serves BTC, ETH and SOL. Import its bars (npm run tape -- import) or set DECK_TAPE_URL to a venue that serves it`
      }
    ]);
  }
  async candles(market, tf, from, to) {
    const refused4 = this.refusal(market);
    if (refused4) throw refused4;
    this.offers(tf);
    const symbol = await this.pairOf(market);
    const len = TIMEFRAME_SECONDS[tf];
    const rows = [];
    for (let since = from; since < to; ) {
      const limit = Math.min(this.page, Math.ceil((to - since) / len));
      const page = await this.ask(`fetchOHLCV ${symbol} ${tf}`, () => this.exchange.fetchOHLCV(symbol, tf, since * 1e3, limit));
      const fresh = this.rowsOf(page, symbol, tf).filter((r) => r[0] >= since && r[0] < to);
      if (fresh.length === 0) break;
      rows.push(...fresh);
      since = fresh[fresh.length - 1][0] + len;
    }
    return rows;
  }
  /** Throws unless the exchange offers `tf`: TimeframeNotServed when the deck can build it from a finer one it offers, else 422. */
  offers(tf) {
    const offered = (t) => t in (this.exchange.timeframes ?? {});
    if (offered(tf)) return;
    if (FINER[tf].some(offered)) throw new TimeframeNotServed(`${this.source} offers no ${tf} bars`);
    const has = TIMEFRAMES.filter(offered);
    throw badInput([{ field: "tf", message: `${this.source} offers no ${tf} bars, nor finer ones to build them from; it serves ${has.join(", ") || "none of the tape's timeframes"}` }]);
  }
  /** The exchange's pair for a crypto market, from its spot markets (loaded once; asked again after a failure). */
  async pairOf(market) {
    this.pairs ??= this.loadPairs().catch((error) => {
      this.pairs = null;
      throw error;
    });
    const pair = (await this.pairs).get(market);
    if (pair) return pair;
    throw badInput([{ field: "market", message: `${this.source} lists neither ${QUOTES.map((q) => `${market}/${q}`).join(" nor ")} among its active spot markets` }]);
  }
  async loadPairs() {
    const markets = await this.ask("loadMarkets", () => this.exchange.loadMarkets(true));
    const pairs = /* @__PURE__ */ new Map();
    for (const market of MARKETS.filter((m) => MARKET_SPECS[m].kind === "crypto")) {
      const symbol = QUOTES.map((q) => `${market}/${q}`).find((s) => markets[s]?.spot === true && markets[s]?.active !== false);
      if (symbol) pairs.set(market, symbol);
    }
    this.log.info("venue_tape_pairs", { source: this.source, pairs: Object.fromEntries(pairs) });
    return pairs;
  }
  /** ccxt's candles as the tape's rows (t in unix seconds, on the timeframe's grid), or 502 for one that is not a candle. */
  rowsOf(page, symbol, tf) {
    const len = TIMEFRAME_SECONDS[tf];
    return page.map(([ms, o, h, l, c, v]) => {
      const row = CandleRowSchema.safeParse([typeof ms === "number" ? ms / 1e3 : ms, o, h, l, c, v]);
      if (!row.success || row.data[0] % len !== 0) {
        const why = row.success ? `a ${tf} bar opening off the ${tf} grid` : row.error.issues[0]?.message ?? "not a candle";
        throw new DeckError(502, "upstream_refused", `${this.source} answered fetchOHLCV ${symbol} ${tf} with a bar that is not a candle: ${why}`, { upstream: this.source });
      }
      return row.data;
    });
  }
  /**
   * One call to the exchange, counted as the venue tape's on the upstream channel (ccxt keeps the HTTP status to
   * itself); what the exchange answered instead is 502 naming the exchange and what failed.
   */
  async ask(what, call) {
    const started = performance.now();
    try {
      const answer = await call();
      publishCall(VENUE_TAPE, started, "ok", null);
      return answer;
    } catch (error) {
      if (cutShort(error)) {
        publishCall(VENUE_TAPE, started, "unreachable", null);
        throw didNotAnswer(this.source, `${what}: no whole answer within ${TIMEOUT_MS2 / 1e3} s`);
      }
      if (!(error instanceof this.ccxt.BaseError)) throw error;
      const why = `${what}: ${error.message.slice(0, 400)}`;
      const silent = error instanceof this.ccxt.OperationFailed;
      publishCall(VENUE_TAPE, started, silent ? "unreachable" : "refused", null);
      if (silent) throw didNotAnswer(this.source, `${why} (tried ${RETRIES + 1} times)`);
      throw new DeckError(502, "upstream_refused", `${this.source} refused ${why}`, { upstream: this.source });
    }
  }
};

// upstream/venue/paper.ts
import { randomBytes as randomBytes3 } from "node:crypto";
import PQueue5 from "p-queue";
var BAR_S = 60;
var CHUNK_BARS = 2e4;
var LAST_BAR_PROBES_S = [3600, 4 * 86400];
var fillId = () => `f_${randomBytes3(8).toString("hex")}`;
var bracketed = (p) => p.dir !== 0 && (p.stop !== null || p.target !== null);
var PaperVenue = class {
  constructor(store, tape, clock) {
    this.store = store;
    this.tape = tape;
    this.clock = clock;
  }
  store;
  tape;
  clock;
  kind = "paper";
  queues = /* @__PURE__ */ new Map();
  /** Per book and market: the time up to which the tape's closed bars have been applied (unix seconds). */
  settledTo = /* @__PURE__ */ new Map();
  serial(book, market, work) {
    const key = `${book}#${market}`;
    let q = this.queues.get(key);
    if (!q) this.queues.set(key, q = new PQueue5({ concurrency: 1 }));
    return q.add(work);
  }
  record(book, fills) {
    return fills.map((f) => ({ ...f, book: book.key, principal: book.principal, model: book.model, run: book.run, mode: book.mode }));
  }
  /** Steps bars over the book, writing each bar's fills before the next bar is stepped. */
  async stepBars(book, market, bars) {
    if (this.store.idle(book.key, market)) return [];
    const state = { position: this.store.position(book.key, market), working: this.store.working(book.key, market) };
    const costs = bookCosts(market);
    const written = [];
    for (const bar of bars) {
      if (state.working.length === 0 && !bracketed(state.position)) break;
      const { fills } = stepBar(state, bar, costs, fillId);
      if (fills.length === 0) continue;
      const records = this.record(book, fills);
      await this.store.addFills(records, this.clock());
      written.push(...records);
    }
    return written;
  }
  /**
   * Where stepping starts on a book's market this process has not stepped yet (after a start): its oldest working
   * order, but never before the bar after its last fill, since every bar up to that fill was stepped before the
   * fill was written (the position as it now stands is the one those later bars meet).
   */
  startOf(book, market) {
    const last = this.store.fillsOf(book).findLast((f) => f.market === market);
    const after = last ? last.t + BAR_S : -Infinity;
    const oldest = Math.min(...this.store.working(book, market).map((o) => o.placed_at));
    return Math.floor(Math.max(after, Number.isFinite(oldest) ? oldest : after) / BAR_S) * BAR_S;
  }
  /** Closed 1m bars of [from, to) as the venue prints them, inside trading hours only. */
  async liveBars(market, from, to) {
    const out = [];
    for (let a = from; a < to; a += CHUNK_BARS * BAR_S) {
      const b = Math.min(to, a + CHUNK_BARS * BAR_S);
      const w = await this.tape.window(market, "1m", a, b, true, () => false);
      for (const r of barsToRows(w.bars)) if (r.t >= a && r.t + BAR_S <= to && isOpen(market, r.t)) out.push(r);
    }
    return out;
  }
  /**
   * Steps the bars closed by `until` that the book has not met. With nothing working and no bracket, nothing can
   * happen: the book is up to date at once. Otherwise it is up to date as far as the tape has printed, so a bar the
   * venue prints late is still met.
   */
  async settleNow(book, market, until) {
    const key = `${book.key}#${market}`;
    const done = this.settledTo.get(key);
    const to = Math.floor(until / BAR_S) * BAR_S;
    if (this.store.idle(book.key, market)) {
      this.settledTo.set(key, Math.max(done ?? -Infinity, to));
      return;
    }
    const start = done ?? this.startOf(book.key, market);
    if (start >= to) return;
    const bars = await this.liveBars(market, start, to);
    await this.stepBars(book, market, bars);
    const last = bars.at(-1);
    if (last) this.settledTo.set(key, last.t + BAR_S);
    else if (done === void 0) this.settledTo.set(key, start);
  }
  settle(book, market, until) {
    return this.serial(book.key, market, () => this.settleNow(book, market, until));
  }
  step(book, market, bar) {
    return this.stepBars(book, market, [bar]);
  }
  place(book, order, admit) {
    const take = () => {
      admit(this.store.position(book.key, order.market), this.store.working(book.key, order.market));
      return this.store.place(order, this.clock());
    };
    if (book.mode === "replay") return take();
    return this.serial(book.key, order.market, async () => {
      await this.settleNow(book, order.market, order.placed_at);
      return take();
    });
  }
  cancel(book, order, at2) {
    return this.serial(book.key, order.market, async () => {
      if (book.mode === "live") await this.settleNow(book, order.market, Math.floor(at2 / 1e3));
      const status = this.store.status(order.id);
      if (status === "working") await this.store.cancel(order.id, at2);
      return status;
    });
  }
  async lastBar(market, now) {
    for (const span of LAST_BAR_PROBES_S) {
      const bars = await this.liveBars(market, Math.floor((now - span) / BAR_S) * BAR_S, now);
      const last = bars.at(-1);
      if (last) return { t: last.t, c: last.c };
    }
    return null;
  }
  orders(book) {
    return this.store.ordersOf(book);
  }
  fills(book) {
    return this.store.fillsOf(book);
  }
  status(orderId) {
    return this.store.status(orderId);
  }
  fillOf(orderId) {
    return this.store.fillOfOrder(orderId);
  }
  working(book, market) {
    return this.store.working(book, market);
  }
  position(book, market) {
    return this.store.position(book, market);
  }
};

// upstream/x/x-door.ts
import { z as z10 } from "zod";
var NAME4 = "X";
var X_SCOPES = ["tweet.read", "users.read"];
var Token = z10.object({ token_type: z10.string().regex(/^bearer$/i), access_token: z10.string().min(1).max(4096) });
var Me = z10.object({ data: z10.object({ id: z10.string().regex(/^\d{1,32}$/), username: z10.string().min(1).max(64), name: z10.string().max(200).optional() }) });
var XDoor = class {
  constructor(config, timeoutMs = 5e3) {
    this.config = config;
    this.timeoutMs = timeoutMs;
  }
  config;
  timeoutMs;
  /** Where the person is sent to consent. */
  authorizeUrl(o) {
    const u = new URL(this.config.authorizeUrl);
    const params = {
      response_type: "code",
      client_id: this.config.clientId,
      redirect_uri: o.redirectUri,
      scope: X_SCOPES.join(" "),
      state: o.state,
      code_challenge: o.challenge,
      code_challenge_method: "S256"
    };
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.href;
  }
  /** The account whose consent the code carries: the code exchanged for a token, the token for GET /2/users/me. */
  async accountOf(o) {
    const { clientId, clientSecret } = this.config;
    const form = new URLSearchParams({ grant_type: "authorization_code", code: o.code, redirect_uri: o.redirectUri, code_verifier: o.verifier });
    if (!clientSecret) form.set("client_id", clientId);
    const token = Token.safeParse(
      await this.call(this.config.tokenUrl, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...clientSecret ? { authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}` } : {}
        },
        body: form.toString()
      })
    );
    if (!token.success) throw didNotAnswer(NAME4, "its token endpoint answered without a bearer access_token");
    const me = Me.safeParse(await this.call(`${this.config.apiUrl.replace(/\/$/, "")}/2/users/me`, { method: "GET", headers: { authorization: `Bearer ${token.data.access_token}` } }));
    if (!me.success) throw didNotAnswer(NAME4, "GET /2/users/me answered without data.id and data.username");
    return me.data.data;
  }
  async call(url2, init) {
    let res;
    let text;
    try {
      res = await watched(
        NAME4,
        async () => (await undici()).request(url2, { method: init.method, headers: { accept: "application/json", ...init.headers }, body: init.body ?? null, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs })
      );
      text = await res.body.text();
    } catch (error) {
      throw unreachable(NAME4, error.message);
    }
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      throw didNotAnswer(NAME4, `an answer that is not JSON (status ${res.statusCode})`);
    }
    if (res.statusCode < 200 || res.statusCode >= 300) throw refusedBy(NAME4, body);
    return body;
  }
};

// upstream/upstreams.ts
async function openUpstreams(config, store, clock, chains, log, joinTurn, pool) {
  const door = config.door ? new HttpDoor(config.door.url, config.door.token, config.keyPrefix) : await embeddedDoor(config, store, clock, log, joinTurn);
  const tape = new Tape(store.archive, await venueTape(config, log), clock);
  const reader = config.reader ? new ModelReader(config.reader) : null;
  return {
    door,
    tape,
    forecaster: openForecaster(config, tape, pool),
    reader,
    chains: new Chains(chains, config.chainRpc),
    coord: new CoordLayer(config.coord),
    chat: config.chat ? new ChatLane(config.chat) : null,
    venue: new PaperVenue(store.book, tape, clock),
    mail: config.email ? new Mailer(config.email) : null,
    x: config.x ? new XDoor(config.x) : null,
    named: new NamedTargets(config.loopbackTargets)
  };
}
async function venueTape(config, log) {
  if (config.ccxt) return CcxtTape.open(config.ccxt.exchange, config.ccxt.apiUrl, log);
  return config.tapeUrl ? new VenueTape(config.tapeUrl) : null;
}
async function embeddedDoor(config, store, clock, log, joinTurn) {
  const door = await EmbeddedDoor.open(store.backend, config.keyPrefix, clock);
  const settled = await joinTurn(() => store.backend.catchUp().then(() => door.settle((id) => store.accounts.byId(id)?.key_gen ?? null)));
  if (settled.forgotten.length || settled.restored.length) log.info("door_settled", { joins_undone: settled.forgotten, rotations_undone: settled.restored });
  return door;
}

// deck.ts
var VERSION = "1.0.0";
async function startDeck(config = readConfig(), clock = () => Date.now()) {
  const log = makeLogger(config);
  const store = await openStore(await openBackend(config, { sweep: true }));
  await seedSample(config, store.archive, log);
  const plans = loadPlans(config.files.plans);
  const locks = locksOf(plans, REGISTRY);
  const guards = new Guards(store.backend);
  const pool = new WorkPool(config.work);
  const upstreams = await openUpstreams(config, store, clock, plans.chains, log, (work) => guards.run("join", HOUSE_WIDE, work), pool);
  const { server, serve } = deckServer(config.http);
  await new Promise((resolve) => server.listen(config.port, config.host, resolve));
  const { port } = server.address();
  const base = config.publicUrl ?? `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  const urls = { base, join: config.joinUrl ?? `${base}/join` };
  const chatQueue = new FairQueue("chat", config.chatQueue.concurrency, config.chatQueue.lane);
  const plane = new Plane({
    guardDepths: () => ({ ...guards.depths(), chat_lane: chatQueue.depth(), work_pool: pool.depth() }),
    ledgers: () => store.backend.ledgerHeads(),
    jobsRun: () => pool.jobsRun()
  });
  const cards = loadCards(config.files.cards);
  const services = {
    // The identity registry is the environment's, else the one the cards file was registered on (as the cards state it).
    config: { ...config, erc8004: { ...config.erc8004, chainId: config.erc8004.chainId ?? cards.erc8004.chain_id, registry: config.erc8004.registry ?? cards.erc8004.registry } },
    urls,
    store,
    upstreams,
    guards,
    chatQueue,
    pool,
    plane,
    // Refusals are counted in the store when decks share it, so every deck rests an address together.
    login: new LoginThrottle(
      config.loginRefusals,
      config.loginWindowS * 1e3,
      store.backend.shared ? await store.backend.doc("login-refusals", noLoginWindows) : null
    ),
    rail: await Rail.open(store, clock),
    offer: {
      plans,
      locks,
      perCall: perCallOf(plans, config.treasury ?? plans.treasury, config.x402Facilitator, REGISTRY, locks),
      grants: loadGrants(config.files.grants),
      sellers: SELLERS.map((s) => ({
        id: s.id,
        name: s.name,
        description: s.description,
        endpoint: `${base}/mcp/${s.id}`,
        card_url: `${base}/cards/${s.id}`,
        tools: SELLER_ENDPOINTS.get(s.id).tools.map((t) => t.name)
      })),
      tools: TOOL_LISTING
    },
    oauth: openOAuthDoor(base, [DECK_ENDPOINT, ...SELLER_ENDPOINTS.values()], upstreams.named),
    clock,
    log
  };
  const tasks = deckTasks();
  serve(await httpApp(services, cards, VERSION, tasks));
  log.info("listening", { url: base, store: store.backend.kind, ...store.backend.kind === "json" ? { data: config.dataDir } : {}, door: upstreams.door.kind, profile: config.profile });
  return {
    url: base,
    server,
    services,
    async close() {
      plane.close();
      await services.rail.close();
      await pool.close();
      await new Promise((resolve, reject) => server.close((e) => e ? reject(e) : resolve()));
      await tasks.close();
      await store.backend.close();
    }
  };
}

// main.ts
startDeck().catch((error) => {
  process.stderr.write(`the deck could not start: ${error.message}
`);
  process.exit(1);
});
//# sourceMappingURL=main.js.map
