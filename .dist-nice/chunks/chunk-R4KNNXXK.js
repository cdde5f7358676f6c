import {
  ClauseAccountSchema,
  DECIDER_VERSION,
  DEFAULT_COSTS,
  DEFAULT_OPTIONS,
  DEFAULT_WORDS,
  DEVICE,
  DeciderRefusal,
  EnvelopeSchema,
  FORECAST_TIMEFRAMES,
  ForecastError,
  HORIZON,
  IDLE,
  IndicatorSpecError,
  LONGEST_WARM_UP,
  MARKETS,
  MARKET_SPECS,
  MAX_FOLDS,
  MODEL,
  MODEL_REV,
  MarketSchema,
  NULL_BINS,
  PARTS,
  RehearsalSchema,
  ReviewSchema,
  RuleReadingSchema,
  STATUSES,
  ScanSchema,
  ScriptSchema,
  SessionSchema,
  TIMEFRAMES,
  TIMEFRAME_SECONDS,
  TOUCHES,
  TOUCH_ATR,
  TOUCH_WITHIN,
  VerdictSchema,
  accountClauses,
  allocBars,
  barAt,
  barsFromRows,
  barsFromTuples,
  barsToRows,
  barsWhere,
  canonicalJson,
  citationProblems,
  closedEnd,
  closedSpans,
  compactOf,
  compileDecider,
  concatBars,
  condSeries,
  expectedBars,
  feePerSide,
  firstAtOrAfter,
  idleOf,
  inWords,
  indicatorLines,
  irOf,
  isOpen,
  isSettled,
  issuedOf,
  jsonOf,
  lastClosedBar,
  lookbackBars,
  neighboursOf,
  noteUnsaid,
  openSeconds,
  paneOf,
  parseIndicators,
  readinessWords,
  rehearsedSeries,
  round4,
  scriptOfReading,
  seedHash,
  sessionWords,
  slippageOf,
  statsOf,
  touchMask,
  tradingDay,
  trialSession,
  verifyWatermark,
  warmStart,
  warmUpBars,
  windowOf,
  withDefaults,
  withHints
} from "./chunk-3FLKLLHA.js";

// core/principal.ts
var TIERS = ["free", "plan", "max", "house"];
var opens = (have, need) => TIERS.indexOf(have) >= TIERS.indexOf(need);
var provenWallet = (p) => p.wallet_status === "proven" ? p.wallet : null;

// tools/plans/account.ts
import { z as z6 } from "zod";

// tools/define.ts
import { z as z2 } from "zod";

// services/context.ts
var signedIn = (ctx) => ctx.principal !== null;
var workAsk = (ctx) => ({ owner: ctx.principal.id, signal: ctx.ended() });

// core/errors.ts
var DeckError = class extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.name = "DeckError";
  }
  status;
  code;
  details;
  /** The body every refusal carries: { ok: false, error, message, ...details }. */
  body() {
    return { ok: false, error: this.code, message: this.message, ...this.details };
  }
};
var PROBLEMS_SHOWN = 10;
var KEYS_NAMED = 5;
function firstFew(all) {
  const shown2 = all.slice(0, PROBLEMS_SHOWN);
  return { shown: shown2, more: all.length > shown2.length ? `; and ${(all.length - shown2.length).toLocaleString("en-US")} more` : "" };
}
var namedKeys = (keys) => keys.slice(0, KEYS_NAMED).map((k) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}...` : k)).join(", ") + (keys.length > KEYS_NAMED ? ` and ${(keys.length - KEYS_NAMED).toLocaleString("en-US")} more` : "");
var badInput = (problems, message, status = 422) => {
  const { shown: shown2, more } = firstFew(problems);
  return new DeckError(status, "bad_input", message ?? `${shown2.map((p) => `${p.field}: ${p.message}`).join("; ")}${more}`, {
    problems: shown2,
    ...more ? { problems_total: problems.length } : {}
  });
};
var problemsOf = (error) => error.issues.map((i) => ({
  field: i.path.length ? i.path.join(".") : "(body)",
  // zod lists every unknown key in its message; a body may hold thousands.
  message: i.code === "unrecognized_keys" && i.keys.length > KEYS_NAMED ? `Unrecognized keys: ${namedKeys(i.keys)}` : i.message
}));
var internalFailure = () => new DeckError(500, "internal", "the deck failed inside; the failure is in its log");
var HOW_TO_SIGN_IN = 'send "Authorization: Bearer <your key or deck_session value>" (no key yet: join at /join), or sign in with POST /login';
var signInFirst = (boundTo = null) => new DeckError(
  401,
  "unauthorized",
  boundTo === null ? `sign in first: ${HOW_TO_SIGN_IN}` : `this session is bound to ${boundTo === "/" ? "the MCP endpoints" : boundTo}, not the REST routes: ${HOW_TO_SIGN_IN}`
);
var notConfigured = (upstream, variable) => new DeckError(503, "upstream_not_configured", `${upstream} is not configured: set ${variable}`, { upstream });
var unreachable = (upstream, why) => new DeckError(503, "upstream_unreachable", `${upstream} could not be reached: ${why}`, { upstream });
var refusedBy = (upstream, answer3) => new DeckError(502, "upstream_refused", `${upstream} refused the request`, { upstream, layer: answer3 });
var didNotAnswer = (upstream, why) => new DeckError(502, "upstream_silent", `${upstream} did not answer: ${why}`, { upstream });
var limitReached = (code, message, retryAfterS, details = {}) => new DeckError(429, code, message, { ...details, retry_after_s: Math.max(1, Math.ceil(retryAfterS)) });

// core/json-bounds.ts
var TOOL_INPUT_BOUNDS = { depth: 16, entries: 1024, string: 64 * 1024 };
var QUOTE = 34;
var BACKSLASH = 92;
var OPEN_OBJECT = 123;
var OPEN_ARRAY = 91;
var CLOSE_OBJECT = 125;
var CLOSE_ARRAY = 93;
var COLON = 58;
var COMMA = 44;
var isSpace = (c) => c === 32 || c === 10 || c === 13 || c === 9;
var tooMany = (b) => ({ bound: "entries", message: `it holds more than ${b.entries.toLocaleString("en-US")} keys and array items` });
var tooDeep = (b) => ({ bound: "depth", message: `objects and arrays nest deeper than ${b.depth} levels` });
var tooLong = (b) => ({ bound: "string", message: `a string is longer than ${b.string.toLocaleString("en-US")} bytes` });
var JsonShape = class {
  constructor(bounds) {
    this.bounds = bounds;
  }
  bounds;
  depth = 0;
  entries = 0;
  /** Whether each open container is an array, by depth (never deeper than the bound: that is refused first). */
  arrays = [false];
  /** An array just opened: its first value, if any, is an entry (the others follow a comma). */
  opened = false;
  inString = false;
  /** The byte after a backslash in a string: escaped, whatever it is. */
  escaped = false;
  stringBytes = 0;
  excess = null;
  /** The keys and array items read so far, at every depth. */
  get entriesRead() {
    return this.entries;
  }
  /** Reads the next bytes; answers the first bound the body has passed so far (and after it, the same), or null. */
  read(bytes) {
    if (this.excess) return this.excess;
    const b = this.bounds;
    const n = bytes.length;
    let i = 0;
    while (i < n) {
      if (this.inString) {
        i = this.readString(bytes, i);
        if (this.stringBytes > b.string) return this.excess = tooLong(b);
        continue;
      }
      const c = bytes[i++];
      if (isSpace(c)) continue;
      if (this.opened) {
        this.opened = false;
        if (c !== CLOSE_ARRAY && ++this.entries > b.entries) return this.excess = tooMany(b);
      }
      switch (c) {
        case QUOTE:
          this.inString = true;
          this.stringBytes = 0;
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          if (++this.depth > b.depth) return this.excess = tooDeep(b);
          this.arrays[this.depth] = c === OPEN_ARRAY;
          this.opened = c === OPEN_ARRAY;
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          if (this.depth > 0) this.depth--;
          break;
        case COLON:
          if (++this.entries > b.entries) return this.excess = tooMany(b);
          break;
        case COMMA:
          if (this.arrays[this.depth] && ++this.entries > b.entries) return this.excess = tooMany(b);
          break;
      }
    }
    return null;
  }
  /**
   * Reads a string's bytes from `i` up to its closing quote or the end of these bytes, counting them; answers where
   * to go on. The next quote and backslash are each found once with indexOf (native), so a long string costs two
   * searches, and a string of many escapes one step per escape.
   */
  readString(bytes, from) {
    const n = bytes.length;
    let i = from;
    let quote = -1;
    let slash = -1;
    while (i < n) {
      if (this.escaped) {
        this.escaped = false;
        this.stringBytes++;
        i++;
        continue;
      }
      if (quote < i) quote = indexOf(bytes, QUOTE, i);
      if (slash < i) slash = indexOf(bytes, BACKSLASH, i);
      const stop = Math.min(quote, slash);
      if (stop === n) {
        this.stringBytes += n - i;
        return n;
      }
      this.stringBytes += stop - i;
      if (stop === slash) {
        this.escaped = true;
        this.stringBytes++;
        i = stop + 1;
        continue;
      }
      this.inString = false;
      return stop + 1;
    }
    return n;
  }
};
function indexOf(bytes, byte, from) {
  const at = bytes.indexOf(byte, from);
  return at < 0 ? bytes.length : at;
}
function excessOfValue(value, bounds) {
  let entries = 0;
  const walk = (v, depth) => {
    if (typeof v === "string") return v.length > bounds.string ? tooLong(bounds) : null;
    if (typeof v !== "object" || v === null) return null;
    if (depth > bounds.depth) return tooDeep(bounds);
    if (Array.isArray(v)) {
      if ((entries += v.length) > bounds.entries) return tooMany(bounds);
      for (const item of v) {
        const excess = walk(item, depth + 1);
        if (excess) return excess;
      }
      return null;
    }
    for (const key of Object.keys(v)) {
      if (++entries > bounds.entries) return tooMany(bounds);
      if (key.length > bounds.string) return tooLong(bounds);
      const excess = walk(v[key], depth + 1);
      if (excess) return excess;
    }
    return null;
  };
  return walk(value, 1);
}

// services/guards.ts
import PQueue from "p-queue";

// store/backend.ts
var guardPlace = (guard, key) => `${guard}|${key}`;
var HOUSE_WIDE = "house";

// services/guards.ts
var GUARDS = {
  forge_cast: { running: 1, refusal: "a forge cast is already running for you" },
  trial: { running: 2, refusal: "two trials are already running for you" },
  // One epoch opening per series: of concurrent opens exactly one reaches the layer; the others are 409.
  epoch_open: { running: 1, refusal: "an epoch of this series is being opened now", status: 409, code: "epoch_opening" },
  ledger_walk: { running: 1, refusal: "a ledger walk is already running for you" },
  /** Waits its turn rather than being refused. */
  key_rotation: { running: 1, refusal: null },
  /** One join at a time for the whole house (every deck on a shared store): the day's counts are read in turn. */
  join: { running: 1, refusal: null }
};
var guardStatus = (name) => {
  const { refusal, status } = GUARDS[name];
  return refusal === null ? null : status ?? 429;
};
var GUARD_RETRY_S = 1;
var refusalOf = (name) => {
  const { refusal, status, code = "busy" } = GUARDS[name];
  return status ? new DeckError(status, code, refusal, { guard: name }) : limitReached(code, refusal, GUARD_RETRY_S, { guard: name });
};
var Guards = class {
  constructor(places) {
    this.places = places;
  }
  places;
  queues = /* @__PURE__ */ new Map();
  run(name, key, work) {
    const rule = GUARDS[name];
    const id = guardPlace(name, key);
    let q = this.queues.get(id);
    if (!q) {
      q = new PQueue({ concurrency: rule.running });
      this.queues.set(id, q);
    }
    if (rule.refusal !== null && q.pending + q.size >= rule.running) return Promise.reject(refusalOf(name));
    const queue = q;
    const held = async () => {
      const release = await this.places.hold(id, rule.running, rule.refusal === null);
      if (!release) throw refusalOf(name);
      try {
        return await work();
      } finally {
        await release();
      }
    };
    return queue.add(held).finally(() => {
      if (queue.pending + queue.size === 0) this.queues.delete(id);
    });
  }
  /** Calls running or waiting under each guard, every principal's together (the observability plane reads it). */
  depths() {
    const depths = Object.fromEntries(Object.keys(GUARDS).map((name) => [name, 0]));
    for (const [key, q] of this.queues) depths[key.slice(0, key.indexOf("|"))] += q.pending + q.size;
    return depths;
  }
};

// services/plans/offered.ts
var treasuryOf = (ctx) => ctx.config.treasury ?? ctx.offer.plans.treasury;
var chainsShown = (ctx) => ctx.offer.plans.chains.map(({ rpc: _rpc, ...shown2 }) => shown2);
function listedChain(ctx, id, field) {
  const chain = ctx.offer.plans.chains.find((c) => c.id === id);
  if (!chain) throw badInput([{ field, message: `not a listed chain; one of ${ctx.offer.plans.chains.map((c) => c.id).join(", ") || "(none configured)"}` }]);
  return chain;
}
function howToBuy(ctx, tier) {
  const plan = ctx.offer.plans.plans.filter((p) => p.price_usdc > 0 && p.period_days !== null && opens(p.tier, tier)).sort((a, b) => a.price_usdc - b.price_usdc)[0];
  if (!plan) return null;
  return {
    plan: plan.id,
    price_usdc: plan.price_usdc,
    period_days: plan.period_days,
    currency: ctx.offer.plans.currency,
    treasury: treasuryOf(ctx),
    chains: chainsShown(ctx).map((c) => ({ id: c.id, name: c.name, token: c.token, token_address: c.token_address, token_decimals: c.token_decimals })),
    claim: "POST /plans { chain, tx_hash, payer_signature_hex? } (the plan_claim tool) once the transfer has its confirmations"
  };
}

// tools/output.ts
import { z } from "zod";

// services/answers.ts
var JsonBytes = class {
  constructor(bytes) {
    this.bytes = bytes;
  }
  bytes;
};
var WithImage = class {
  constructor(body, png) {
    this.body = body;
    this.png = png;
  }
  body;
  png;
};
var WithLinks = class {
  constructor(body, summary, links) {
    this.body = body;
    this.summary = summary;
    this.links = links;
  }
  body;
  summary;
  links;
};
var EventStream = class {
  constructor(events) {
    this.events = events;
  }
  events;
  /** Reads every event and answers the whole. */
  async whole() {
    for (; ; ) {
      const next = await this.events.next();
      if (next.done) return next.value;
    }
  }
};

// tools/output.ts
function outputJsonSchema(output) {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(output, { io: "output", unrepresentable: "any" });
  const branches = schema.anyOf ?? schema.oneOf;
  return !schema.type && branches?.every((b) => b.type === "object") ? { type: "object", ...schema } : schema;
}
function typesOf(schema) {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type;
  if ("const" in schema) return [schema.const === null ? "null" : Array.isArray(schema.const) ? "array" : typeof schema.const === "number" ? "number" : typeof schema.const];
  const branches = schema.anyOf ?? schema.oneOf;
  const types = branches?.map(typesOf);
  return types && types.every((t) => t.length) ? [...new Set(types.flat())] : [];
}
function outlineOf(schema) {
  const branches = schema.anyOf ?? schema.oneOf ?? [schema];
  const properties = {};
  for (const branch of branches) {
    for (const [name, field] of Object.entries(branch.properties ?? {})) {
      const types = typesOf(field);
      const shown2 = "const" in field ? { const: field.const } : types.length === 0 ? {} : { type: types.length === 1 ? types[0] : types };
      const before = properties[name];
      properties[name] = before && JSON.stringify(before) !== JSON.stringify(shown2) ? { type: [.../* @__PURE__ */ new Set([...typesOf(before), ...typesOf(shown2)])] } : shown2;
    }
  }
  return { type: "object", properties };
}
var fieldOf = (path) => path.length ? path.map(String).join(".") : "(body)";
function driftOf(output, body) {
  const parsed = output.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { field: fieldOf(issue.path), message: issue.message };
  }
  return strayIn(body, parsed.data, []);
}
function strayIn(body, kept, path) {
  if (Array.isArray(body) && Array.isArray(kept)) {
    for (let i = 0; i < body.length; i++) {
      const found = strayIn(body[i], kept[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (typeof body !== "object" || body === null || typeof kept !== "object" || kept === null) return null;
  for (const [key, value] of Object.entries(body)) {
    if (!Object.hasOwn(kept, key)) return { field: fieldOf([...path, key]), message: "a field the output schema does not name" };
    const found = strayIn(value, kept[key], [...path, key]);
    if (found) return found;
  }
  return null;
}
function bodyOf(answer3) {
  if (answer3 instanceof JsonBytes) return JSON.parse(answer3.bytes.toString("utf8"));
  if (answer3 instanceof WithImage || answer3 instanceof WithLinks) return JSON.parse(JSON.stringify(answer3.body));
  return JSON.parse(JSON.stringify(answer3));
}
function heldTo(output, answer3, drifted) {
  if (answer3 instanceof EventStream) {
    const events = answer3.events;
    async function* checked2() {
      const whole = yield* events;
      const drift2 = driftOf(output, bodyOf(whole));
      if (drift2) throw drifted(drift2);
      return whole;
    }
    return new EventStream(checked2());
  }
  const drift = driftOf(output, bodyOf(answer3));
  if (drift) throw drifted(drift);
  return answer3;
}

// tools/define.ts
function admitting(spec) {
  if (spec.access !== "session") {
    const run2 = spec.run;
    return (ctx) => (input) => run2(ctx, input);
  }
  const { run, foresee, bars } = spec;
  return (ctx) => {
    if (!signedIn(ctx)) throw signInFirst();
    return async (input) => {
      const foreseen = foresee ? await foresee(ctx, input) : void 0;
      const payment = ctx.payment;
      if (!payment) return run(ctx, input, foreseen);
      await payment.settle(ctx, bars ? bars(foreseen) : null);
      try {
        return await run(ctx, input, foreseen);
      } catch (error) {
        throw await payment.unserved(ctx, error);
      }
    };
  };
}
function upgradeRequired(ctx, name, tier) {
  const buy = howToBuy(ctx, tier);
  const how = !buy ? "the operator grants it" : buy.treasury ? `buy ${buy.plan} (${buy.price_usdc} ${buy.currency} for ${buy.period_days} days): send it to ${buy.treasury} on ${buy.chains.map((c) => `${c.name} (${c.id})`).join(" or ")}, then claim the transaction with POST /plans` : `${buy.plan} (${buy.price_usdc} ${buy.currency}) opens it, but no treasury is configured to pay yet`;
  return new DeckError(403, "upgrade_required", `${name} opens on the ${tier} tier: ${how}`, { tier, buy });
}
function withStandIns(schema, standIns) {
  const { $defs, ...rest } = schema;
  const listed = { ...rest, properties: { ...rest.properties, ...standIns } };
  return JSON.stringify(listed).includes('"#/$defs/') ? { ...listed, $defs } : listed;
}
function defineTool(spec) {
  const inputSchema = z2.toJSONSchema(spec.input, { io: "input", unrepresentable: "any" });
  const properties = inputSchema.properties;
  const defaults = spec.mcpDefaults ?? null;
  const standIns = defaults ? { ...spec.listed?.properties, ...Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, { ...properties?.[k], default: v }])) } : spec.listed?.properties;
  const strays = Object.keys(standIns ?? {}).filter((k) => !properties || !(k in properties));
  if (strays.length) throw new Error(`tool ${spec.name}: listed names no input property ${strays.join(", ")}`);
  const outputSchema = outputJsonSchema(spec.output);
  if (outputSchema.type !== "object") throw new Error(`tool ${spec.name}: an output is an object (MCP structures only objects)`);
  const surface = spec.surface ?? "both";
  const admit = admitting(spec);
  const statuses = /* @__PURE__ */ new Set([spec.invalid ?? 422, ...spec.rest?.errors ?? [], 500]);
  const guarded2 = spec.guard ? guardStatus(spec.guard) : null;
  if (guarded2 !== null) statuses.add(guarded2);
  const bounds = { ...TOOL_INPUT_BOUNDS, ...spec.rest?.maxBody ? { string: spec.rest.maxBody } : {}, ...spec.rest?.bounds };
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    access: spec.access,
    surface,
    rest: spec.rest ?? null,
    toolset: spec.toolset,
    invalid: spec.invalid ?? 422,
    statuses,
    bounds,
    foresees: spec.foresee !== void 0,
    countsBars: spec.foresee !== void 0 && spec.bars !== void 0,
    input: spec.input,
    output: spec.output,
    outputSchema,
    listedOutputSchema: outlineOf(outputSchema),
    annotations: spec.annotations,
    inputSchema,
    listedDescription: spec.listed?.description ?? spec.description,
    listedSchema: standIns ? withStandIns(inputSchema, standIns) : inputSchema,
    mcpDefaults: defaults,
    async call(ctx, raw) {
      const run = admit(ctx);
      const tier = ctx.offer.locks.get(spec.name);
      if (tier && !(ctx.principal && opens(ctx.principal.tier, tier))) throw upgradeRequired(ctx, spec.name, tier);
      const parsed = spec.input.safeParse(raw ?? {});
      if (!parsed.success) throw badInput(problemsOf(parsed.error), void 0, spec.invalid ?? 422);
      const principal = ctx.principal;
      const guard = spec.guard;
      const answer3 = guard && principal ? ctx.guards.run(guard, spec.guardKey ? `${principal.id}|${spec.guardKey(parsed.data)}` : principal.id, () => run(parsed.data)) : run(parsed.data);
      if (!ctx.config.checkOutput) return answer3;
      return heldTo(spec.output, await answer3, (drift) => {
        ctx.log.error("output_drift", { tool: spec.name, field: drift.field, message: drift.message });
        return internalFailure();
      });
    }
  };
}

// tools/toolsets.ts
var TOOLSETS = {
  identity: { id: "identity", default: false, description: "Onboarding and sessions: a key minted once, by the person, at POST /join, exchanged at POST /login for a 12-hour session; key rotation; a wallet proven by its own signature." },
  plans: { id: "plans", default: true, description: "The plan catalogue, the caller's account and grant, and the meter, which reports and never turns a caller away." },
  studio: { id: "studio", default: true, description: "The studio gates over a trader's own rule: read into seven parts, forge, rehearse over the real tape, grade its fidelity; and the eight-state machine that walks them." },
  forge: { id: "forge", default: true, description: "The forge and the trial stepper: words or a script block into a watermarked state machine; its reading lanes and the onboarded register." },
  tape: { id: "tape", default: true, description: "Real candles per market and timeframe, with what was measured; past windows are sealed." },
  forecast: { id: "forecast", default: true, description: "The forecast envelope (magnitude, never direction) and its measured calibration." },
  marks: { id: "marks", default: true, description: "Levels and zones a trader placed by hand." },
  plates: { id: "plates", default: false, description: "Sealed chart plates, content addressed; they name no one." },
  skills: { id: "skills", default: true, description: "The skill bank: how to drive the studio, step by step, with the real tool names." },
  series: { id: "series", default: false, description: "Standing hire: a series of epoch jobs under one mandate over the coordination layer: quote, open, read, open the next epoch, revoke." },
  book: { id: "book", default: false, description: "The deck's own book: orders and cancels on its paper venue, which fills from the tape, the caller's caps, read-only history of orders, fills and positions, and the copy seller's models, records and follow quotes." },
  agent: { id: "agent", default: false, description: "The agent rail: models an operator registers with a decide() endpoint of their own, run over a past window (replay) or forward on the live tape." },
  typed: { id: "typed", default: false, description: "The typed-decision lane: the typed-decision.v1 contract of a decide() answer, and one decision posted for a model." },
  records: { id: "records", default: false, description: "The deck's records, read-only: your history with the ledger entry proving each act, the registry, the ladder, the concluded lab (digests only) and the roadmap." },
  plane: { id: "plane", default: false, description: "The observability plane: metrics (Prometheus), a load balancer's probes, and the hash-chained ledgers with their heads and a verify walk." },
  chat: { id: "chat", default: false, description: "The chat lane: a model's words, labelled as such, through a fair queue; never written into a ledger." },
  oauth: { id: "oauth", default: false, description: "The OAuth door's consent steps, which the onboarding page drives: read a pending authorization request, allow or deny it." }
};

// config/files.ts
import { readFileSync } from "node:fs";
import { z as z4 } from "zod";

// core/schemas.ts
import { z as z3 } from "zod";
var Sha256Hex = z3.string().regex(/^[0-9a-f]{64}$/);
var IsoTime = z3.iso.datetime();
var UnixS = z3.number().int();
var Address = z3.string().regex(/^0x[0-9a-fA-F]{40}$/);

// config/files.ts
var chainId = z4.string().regex(/^eip155:[1-9]\d*$/, "eip155:<chain id>");
var usdcPrice = z4.string().regex(/^\d{1,6}(\.\d{1,6})?$/, 'a USDC price as a decimal string, up to 6 decimals ("0.10")');
var Chain = z4.object({
  id: chainId,
  name: z4.string(),
  token: z4.string(),
  token_address: Address,
  token_decimals: z4.number().int().min(0).max(36).default(6),
  /** JSON-RPC URL; DECK_CHAIN_RPC overrides it when the file lists one chain. Never shown: it may carry a key. */
  rpc: z4.string().url().nullable().default(null),
  /** The operator's ERC-721 collection whose holders gain a daily allowance. */
  collection: Address.nullable().default(null),
  min_confirmations: z4.number().int().min(1).default(2),
  /**
   * The token's EIP-712 domain (name and version), which an EIP-3009 authorization is signed under: a payment per call
   * (x402's exact scheme) on this chain needs it. Base's USDC: { "name": "USD Coin", "version": "2" }.
   */
  eip712: z4.object({ name: z4.string().min(1), version: z4.string().min(1) }).nullable().default(null)
});
var Plan = z4.object({
  id: z4.string(),
  tier: z4.enum(TIERS),
  name: z4.string(),
  price_usdc: z4.number().nonnegative(),
  period_days: z4.number().int().positive().nullable(),
  allowance_per_day: z4.number().int().nonnegative(),
  opens: z4.string()
});
var PriceEntry = z4.object({ action: z4.string(), units: z4.number().nonnegative(), per_1000_bars: z4.number().nonnegative().optional(), what: z4.string() });
var PlansFile = z4.object({
  currency: z4.literal("USDC"),
  plans: z4.array(Plan),
  house_allowance_per_day: z4.number().int().nonnegative(),
  chains: z4.array(Chain),
  treasury: Address.nullable(),
  prices: z4.array(PriceEntry),
  /** Holder standing: each NFT of the collection held today adds this many units, up to max_nfts of them. */
  holder: z4.object({ allowance_per_nft: z4.number().int().nonnegative(), max_nfts: z4.number().int().positive() }).nullable().default(null),
  /** The house's spot chain (one of chains) and its spot administrators, who alone sign mandates the house runs. */
  spot: z4.object({ chain: chainId, administrators: z4.array(Address) }).nullable().default(null),
  /**
   * The tools each tier opens beyond the tiers below it (tier locks, by tool name): a tool no tier names opens to every
   * session. The names are held to the registry at start.
   */
  tier_tools: z4.partialRecord(z4.enum(TIERS), z4.array(z4.string().min(1))).default({}),
  /**
   * Payment per call (x402), taken once DECK_X402_FACILITATOR is set: the chain it is paid on (one of chains, with its
   * token's eip712 domain), how long an authorization may take to settle, and each priced tool's price in USDC as a
   * decimal string: a fixed price a call (scheme exact), or a price a bar read and the most a call may cost (scheme
   * upto, settled for the bars the call serves). The names are held to the registry at start.
   */
  per_call: z4.object({
    chain: chainId,
    max_timeout_s: z4.number().int().min(10).max(3600).default(300),
    tools: z4.record(z4.string().min(1), z4.union([usdcPrice, z4.strictObject({ per_bar: usdcPrice, max: usdcPrice })]))
  }).nullable().default(null)
}).refine((f) => !f.per_call || f.chains.some((c) => c.id === f.per_call.chain), { path: ["per_call", "chain"], message: "must be one of chains[].id" }).refine((f) => !f.spot || f.chains.some((c) => c.id === f.spot.chain), { path: ["spot", "chain"], message: "must be one of chains[].id" }).refine((f) => new Set(Object.values(f.tier_tools).flat()).size === Object.values(f.tier_tools).flat().length, {
  path: ["tier_tools"],
  message: "a tool is locked on one tier at most"
});
var Grant = z4.object({
  name: z4.string(),
  tier: z4.enum(TIERS),
  allowance_per_day: z4.number().int().nonnegative().nullable().optional(),
  until: z4.string().date().nullable().optional(),
  why: z4.string()
});
var GrantsFile = z4.object({ grants: z4.array(Grant) });
var CardsFile = z4.object({
  /** url null: the deck's own public base URL. */
  provider: z4.object({ name: z4.string(), url: z4.string().url().nullable() }),
  image: z4.string().url().nullable(),
  /** The wallet that owns the sellers' ERC-8004 entries and receives agent payments. */
  owner: Address.nullable(),
  agent_wallet: Address.nullable(),
  erc8004: z4.object({ chain_id: z4.number().int().positive().nullable(), registry: Address.nullable() }),
  sellers: z4.record(
    z4.string(),
    // agent_id is the ERC-721 token id the registry minted: a number, as ERC-8004 registrations carry it.
    z4.object({
      agent_id: z4.number().int().nonnegative().nullable(),
      tx: z4.string().nullable(),
      block: z4.number().int().nullable(),
      // The agentWallet set on the registry with the wallet's EIP-712 signature (npm run cards -- wallet), and where.
      wallet: z4.object({ address: Address, tx: z4.string(), block: z4.number().int() }).nullable().optional()
    })
  )
});
function load(path, schema) {
  const r = schema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!r.success) throw new Error(`${path}: ${r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return r.data;
}
var loadPlans = (path) => load(path, PlansFile);
var loadGrants = (path) => load(path, GrantsFile).grants;
var loadCards = (path) => load(path, CardsFile);

// engine/plans/holder.ts
var holderAllowance = (nfts, rule) => rule.allowance_per_nft * Math.min(nfts, rule.max_nfts);
function holderUse(allowance, spentToday) {
  const used = Math.min(Math.max(spentToday, 0), allowance);
  return { used, remaining: allowance - used };
}

// engine/plans/period.ts
var DAY_MS = 864e5;
function periodFor(claimed, plan, paidAt) {
  const start = claimed.filter((c) => c.price_usdc >= plan.price_usdc && c.end > paidAt).reduce((at, c) => Math.max(at, c.end), paidAt);
  return { start, end: start + plan.period_days * DAY_MS };
}
function runningAt(claimed, now) {
  const running = claimed.filter((c) => c.start <= now && now < c.end).sort((a, b) => b.price_usdc - a.price_usdc);
  const top = running[0];
  if (!top) return null;
  const same5 = claimed.filter((c) => c.plan === top.plan).sort((a, b) => a.start - b.start);
  let until = top.end;
  for (const c of same5) if (c.start <= until && c.end > until) until = c.end;
  return { ...top, until };
}

// store/spend.ts
var lastDay = { n: NaN, iso: "" };
var utcDay = (ms) => {
  const n = Math.floor(ms / 864e5);
  if (n !== lastDay.n) lastDay = { n, iso: new Date(ms).toISOString().slice(0, 10) };
  return lastDay.iso;
};
var secondsToNextUtcDay = (ms) => Math.ceil((864e5 - ms % 864e5) / 1e3);
var nonceKey = (payer, nonce) => `${payer.toLowerCase()}|${nonce.toLowerCase()}`;
var SpendBook = class {
  constructor(ledger) {
    this.ledger = ledger;
    ledger.follow((e) => this.count(e.entry, e.at));
  }
  ledger;
  byDay = /* @__PURE__ */ new Map();
  /** The payer|nonce of every payment per call recorded, so one is never taken twice. */
  paidNonces = /* @__PURE__ */ new Set();
  key = (principalId, day) => `${principalId}|${day}`;
  count(s, at) {
    const k = this.key(s.principal_id, utcDay(at));
    this.byDay.set(k, (this.byDay.get(k) ?? 0) + s.units);
    if (s.paid) this.paidNonces.add(nonceKey(s.paid.payer, s.paid.nonce));
  }
  /** Whether a payment per call with this payer's nonce is on the ledger. */
  paidWith(payer, nonce) {
    return this.paidNonces.has(nonceKey(payer, nonce));
  }
  spentOn(principalId, day) {
    return this.byDay.get(this.key(principalId, day)) ?? 0;
  }
  async record(spend, at) {
    await this.ledger.append(spend, at);
  }
  verify() {
    return this.ledger.verify();
  }
  /** Every spend as the ledger chains it, oldest first. */
  get entries() {
    return this.ledger.all;
  }
};

// services/plans/standing.ts
function grantOf(ctx, name) {
  const today2 = utcDay(ctx.clock());
  return ctx.offer.grants.find((g) => g.name === name && (!g.until || g.until >= today2)) ?? null;
}
function paidOf(ctx, principalId) {
  const periods = ctx.store.claims.mine(principalId).map((c) => ({ plan: c.plan, tier: c.tier, price_usdc: c.price_usdc, start: Date.parse(c.period.start), end: Date.parse(c.period.end) }));
  return runningAt(periods, ctx.clock());
}
function tierOf(ctx, account2) {
  const granted = grantOf(ctx, account2.name)?.tier ?? "free";
  const paid = paidOf(ctx, account2.id)?.tier ?? "free";
  return opens(granted, paid) ? granted : paid;
}
var planAllowance = (ctx, tier) => tier === "house" ? ctx.offer.plans.house_allowance_per_day : ctx.offer.plans.plans.find((p) => p.tier === tier)?.allowance_per_day ?? 0;
function allowanceOf(ctx, account2, tier) {
  const grant = grantOf(ctx, account2.name);
  const paid = paidOf(ctx, account2.id);
  const figures = [
    ...grant?.tier === tier ? [grant.allowance_per_day ?? planAllowance(ctx, tier)] : [],
    ...paid?.tier === tier ? [ctx.offer.plans.plans.find((p) => p.id === paid.plan)?.allowance_per_day ?? planAllowance(ctx, tier)] : []
  ];
  return figures.length ? Math.max(...figures) : planAllowance(ctx, tier);
}
function holderLink(ctx, principalId, day) {
  const link = ctx.store.holders.linkOf(principalId, day)?.entry ?? null;
  const rule = ctx.offer.plans.holder;
  return { link, allowance: link && rule ? holderAllowance(link.nfts, rule) : 0 };
}
function holderOf(ctx, principalId) {
  const day = utcDay(ctx.clock());
  const { link, allowance } = holderLink(ctx, principalId, day);
  return { day, wallet: link?.wallet ?? null, nfts: link?.nfts ?? 0, allowance, ...holderUse(allowance, ctx.store.spend.spentOn(principalId, day)) };
}
function meterOf(ctx, principal) {
  const day = utcDay(ctx.clock());
  const holder = holderLink(ctx, principal.id, day).allowance;
  const allowance = allowanceOf(ctx, principal, principal.tier) + holder;
  const spent = ctx.store.spend.spentOn(principal.id, day);
  const balance = allowance - spent;
  const tone = balance <= 0 ? "spent" : balance < allowance / 5 ? "low" : "ok";
  return { day, allowance, holder, spent, balance, tone };
}
var DAY_MS2 = 864e5;
var today = { n: NaN, period: { unit: "utc_day", start: "", end: "" } };
function dayPeriod(now) {
  const n = Math.floor(now / DAY_MS2);
  if (n !== today.n) today = { n, period: Object.freeze({ unit: "utc_day", start: new Date(n * DAY_MS2).toISOString(), end: new Date((n + 1) * DAY_MS2).toISOString() }) };
  return today.period;
}
function planOf(ctx, principal) {
  const paid = paidOf(ctx, principal.id);
  if (paid && paid.tier === principal.tier) {
    return { plan: paid.plan, period: { unit: "paid", start: new Date(paid.start).toISOString(), end: new Date(paid.until).toISOString() } };
  }
  const plan = ctx.offer.plans.plans.find((p) => p.tier === principal.tier) ?? null;
  return { plan: principal.tier === "house" ? "house" : plan?.id ?? "free", period: dayPeriod(ctx.clock()) };
}

// services/plans/standing-schema.ts
import { z as z5 } from "zod";
var Day = z5.iso.date().describe("a UTC day, YYYY-MM-DD");
var PrincipalShown = z5.object({
  name: z5.string(),
  agent_id: z5.string(),
  wallet: z5.string().nullable().describe("its wallet (its operator), checksummed: the one named at join, or the last one proven"),
  wallet_status: z5.enum(["unproven", "proven"]).nullable().describe("unproven: named, not proven by its own signature, and counting for nothing; null: no wallet"),
  tier: z5.enum(TIERS)
});
var MeterView = z5.object({
  day: Day,
  allowance: z5.number().describe("the tier's allowance plus what holder standing adds today"),
  holder: z5.number().describe("what holder standing adds today"),
  spent: z5.number(),
  balance: z5.number(),
  tone: z5.enum(["ok", "low", "spent"]).describe("ok while over a fifth is left, low below that, spent at or below zero: the meter reports, never refuses")
});
var PlanStanding = z5.object({
  plan: z5.string(),
  period: z5.object({ unit: z5.enum(["paid", "utc_day"]), start: z5.iso.datetime(), end: z5.iso.datetime() })
});
var Mine = PlanStanding.extend({ tier: z5.enum(TIERS), usage: MeterView });
var ChainShown = Chain.omit({ rpc: true });
var HolderStanding = z5.object({
  day: Day,
  wallet: z5.string().nullable(),
  nfts: z5.number().int(),
  allowance: z5.number(),
  used: z5.number(),
  remaining: z5.number()
});
var Chained = { seq: z5.number().int(), hash: z5.string() };
var PlanClaimEntry = z5.strictObject({
  chain: z5.string(),
  tx_hash: z5.string().describe("lower case"),
  agent_id: z5.string(),
  plan: z5.string(),
  tier: z5.string(),
  price_usdc: z5.number(),
  token: z5.string(),
  token_address: z5.string(),
  amount: z5.string().describe("what the payer sent the treasury, in whole tokens, as a decimal string"),
  payer: z5.string(),
  proof: z5.enum(["proven_wallet", "payer_signature", "joined_wallet"]).describe("how the payer is bound to the principal: its proven wallet, or the payer's signature (joined_wallet: a claim recorded before wallets were proven)"),
  block: z5.number().int(),
  block_time: z5.iso.datetime(),
  period: z5.strictObject({ start: z5.iso.datetime(), end: z5.iso.datetime() })
});

// tools/plans/account.ts
var account = defineTool({
  name: "account",
  title: "Account",
  description: "Your account: name, agent id, wallet (and whether it is proven), tier, plan, grant and today's meter.",
  input: z6.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "session",
  output: PlanStanding.extend({
    ok: z6.literal(true),
    principal: PrincipalShown,
    grant: Grant.nullable().describe("the grant you hold today, from the grants file"),
    meter: MeterView
  }),
  toolset: TOOLSETS.plans,
  rest: { method: "GET", path: "/me" },
  async run(ctx) {
    const p = ctx.principal;
    return {
      ok: true,
      principal: { name: p.name, agent_id: p.agent_id, wallet: p.wallet, wallet_status: p.wallet_status, tier: p.tier },
      ...planOf(ctx, p),
      grant: grantOf(ctx, p.name),
      meter: meterOf(ctx, p)
    };
  }
});

// tools/agent/model-register.ts
import { z as z17 } from "zod";

// engine/book/caps.ts
import { z as z7 } from "zod";

// engine/book/contracts.ts
var CONTRACTS = {
  NQ: { size_step: 1 },
  ES: { size_step: 1 },
  YM: { size_step: 1 },
  BTC: { size_step: 1e-4 },
  ETH: { size_step: 1e-3 },
  SOL: { size_step: 0.01 }
};
var snap = (x, step) => {
  const inv = Math.round(1 / step);
  return inv >= 1 && step < 1 ? Math.round(x * inv) / inv : Math.round(x / step) * step;
};
var onTick = (market, price3) => snap(price3, MARKET_SPECS[market].tick);
var onStep = (market, size) => snap(size, CONTRACTS[market].size_step);
function stepDown(market, size) {
  const step = CONTRACTS[market].size_step;
  const snapped = onStep(market, size);
  return snapped <= size ? snapped : onStep(market, snapped - step);
}
var onGrid = (x, step) => Math.abs(snap(x, step) - x) <= step * 1e-9;
var isOnTick = (market, price3) => onGrid(price3, MARKET_SPECS[market].tick);
var isOnStep = (market, size) => onGrid(size, CONTRACTS[market].size_step);
var notionalOf = (market, size, price3) => size * price3 * MARKET_SPECS[market].point_value;

// engine/book/order.ts
var SIDES = ["buy", "sell"];
var ORDER_TYPES = ["market", "limit"];
var dirOf = (side) => side === "buy" ? 1 : -1;
var sideOf = (dir) => dir > 0 ? "buy" : "sell";
var FILL_WHY = ["market", "limit", "stop", "target"];

// engine/book/caps.ts
var CapsSchema = z7.strictObject({
  markets: z7.array(z7.enum(MARKETS)).min(1).optional().describe("the markets that may be traded (all six when left out)"),
  max_order_size: z7.number().finite().positive().optional().describe("the largest order, in the market's units (contracts, or coins)"),
  max_notional: z7.number().finite().positive().optional().describe("the largest order in US dollars: size x price x dollars a point"),
  max_position: z7.number().finite().positive().optional().describe("the largest position either way, in the market's units"),
  allow_short: z7.boolean().optional().describe("whether a position may be short (default true)")
});
var HOUSE_LIMITS = {
  NQ: { max_order_size: 10, max_position: 20 },
  ES: { max_order_size: 10, max_position: 20 },
  YM: { max_order_size: 10, max_position: 20 },
  BTC: { max_order_size: 5, max_position: 10 },
  ETH: { max_order_size: 100, max_position: 200 },
  SOL: { max_order_size: 2e3, max_position: 4e3 }
};
var HOUSE_MAX_NOTIONAL_USD = 5e6;
var LimitsSchema = z7.strictObject({
  traded: z7.boolean().describe("whether the market may be traded"),
  max_order_size: z7.number().describe("the largest order, in the market's units"),
  max_notional: z7.number().describe("the largest order in US dollars"),
  max_position: z7.number().describe("the largest position either way, in the market's units"),
  allow_short: z7.boolean()
});
function limitsFor(caps, market) {
  const house = HOUSE_LIMITS[market];
  return {
    traded: !caps.markets || caps.markets.includes(market),
    max_order_size: Math.min(caps.max_order_size ?? Infinity, house.max_order_size),
    max_notional: Math.min(caps.max_notional ?? Infinity, HOUSE_MAX_NOTIONAL_USD),
    max_position: Math.min(caps.max_position ?? Infinity, house.max_position),
    allow_short: caps.allow_short ?? true
  };
}
function within(inner, outer) {
  const min = (a, b) => a === void 0 ? b : b === void 0 ? a : Math.min(a, b);
  const markets = inner.markets && outer.markets ? inner.markets.filter((m) => outer.markets.includes(m)) : inner.markets ?? outer.markets;
  const out = {};
  if (markets) out.markets = markets;
  const size = min(inner.max_order_size, outer.max_order_size);
  if (size !== void 0) out.max_order_size = size;
  const notional = min(inner.max_notional, outer.max_notional);
  if (notional !== void 0) out.max_notional = notional;
  const position = min(inner.max_position, outer.max_position);
  if (position !== void 0) out.max_position = position;
  if (inner.allow_short === false || outer.allow_short === false) out.allow_short = false;
  else if (inner.allow_short !== void 0 || outer.allow_short !== void 0) out.allow_short = true;
  return out;
}
var CAP_NAMES = CapsSchema.keyof().options;
function exposureOf(position, working) {
  let buys = 0;
  let sells = 0;
  for (const o of working) {
    if (o.side === "buy") buys += o.size;
    else sells += o.size;
  }
  return { long: position + buys, short: sells - position };
}
function breaches(limits, market, side, size, price3, exposure) {
  const out = [];
  if (!limits.traded) out.push({ cap: "markets", limit: false, message: `${market} is not among the markets your caps allow` });
  if (size > limits.max_order_size) out.push({ cap: "max_order_size", limit: limits.max_order_size, message: `over the largest order of ${limits.max_order_size}` });
  const notional = notionalOf(market, size, price3);
  if (notional > limits.max_notional) {
    out.push({ cap: "max_notional", limit: limits.max_notional, message: `$${Math.round(notional)} is over the largest order of $${limits.max_notional}` });
  }
  const d = dirOf(side);
  const reach = onStep(market, (d > 0 ? exposure.long : exposure.short) + size);
  if (reach > limits.max_position) out.push({ cap: "max_position", limit: limits.max_position, message: `the position could reach ${reach}, over the largest of ${limits.max_position}` });
  if (d < 0 && !limits.allow_short && reach > 0) out.push({ cap: "allow_short", limit: false, message: "your caps allow no short position" });
  return out;
}

// engine/book/decision.ts
import { z as z8 } from "zod";
var TYPED_DECISION_VERSION = "typed-decision.v1";
var Why = z8.string().min(1).max(500).describe("why, in a sentence: kept with the order");
var Version = z8.literal(TYPED_DECISION_VERSION).optional().describe(`the contract's version, ${TYPED_DECISION_VERSION}`);
var Price = z8.number().finite().positive();
var TypedDecisionSchema = z8.discriminatedUnion("action", [
  z8.strictObject({ version: Version, action: z8.literal("hold"), why: Why }),
  z8.strictObject({
    version: Version,
    action: z8.literal("enter"),
    side: z8.enum(["long", "short"]),
    size: z8.number().finite().positive().describe("contracts (NQ, ES, YM) or coins (BTC, ETH, SOL), on the market's size step"),
    stop: Price.describe("the protective stop: below the last close for a long, above it for a short"),
    target: Price.optional().describe("a resting target: above the last close for a long, below it for a short"),
    why: Why
  }),
  z8.strictObject({ version: Version, action: z8.literal("exit"), why: Why })
]);
function orderOfDecision(d, market, position, working) {
  if (d.action === "hold") return null;
  if (working > 0) return { code: "order_working", field: "action", message: `${working} order(s) of this book still working: they fill at the next bar's open` };
  if (d.action === "enter") {
    if (position.dir !== 0) {
      return { code: "not_flat", field: "action", message: `the book already holds a ${position.dir > 0 ? "long" : "short"} of ${position.size}: exit first` };
    }
    return { market, side: d.side === "long" ? "buy" : "sell", size: d.size, type: "market", price: null, stop: d.stop, target: d.target ?? null };
  }
  if (position.dir === 0) return { code: "flat", field: "action", message: "the book holds no position to exit" };
  return { market, side: position.dir > 0 ? "sell" : "buy", size: position.size, type: "market", price: null, stop: null, target: null };
}
var isConflict = (x) => x !== null && "code" in x;

// engine/book/position.ts
import { z as z9 } from "zod";
var PairedTradeSchema = z9.strictObject({
  market: z9.enum(MARKETS),
  side: z9.enum(["long", "short"]),
  size: z9.number(),
  entry_fill: z9.string(),
  entry_t: z9.number().int(),
  entry: z9.number(),
  stop: z9.number().nullable(),
  exit_fill: z9.string(),
  exit_t: z9.number().int(),
  exit: z9.number(),
  why: z9.enum(FILL_WHY).describe("how the exit filled"),
  fees: z9.number().describe("both sides' fees for one unit, in price units"),
  pnl_usd: z9.number().describe("after fees"),
  r: z9.number().nullable().describe("in units of the entry's risk; null when the entry carried no stop")
});
var flatPosition = (market) => ({ market, dir: 0, size: 0, lots: [], stop: null, target: null });
function averageEntry(p) {
  if (p.size === 0) return null;
  let sum = 0;
  for (const lot of p.lots) sum += lot.price * lot.size;
  return Number((sum / p.size).toPrecision(12));
}
function paired(p, lot, fill, size) {
  const dir = p.dir;
  const fees = lot.fee + fill.fee;
  const perUnit = dir * (fill.price - lot.price) - fees;
  const risk = lot.stop === null ? 0 : dir * (lot.price - lot.stop);
  return {
    market: p.market,
    side: dir > 0 ? "long" : "short",
    size,
    entry_fill: lot.fill,
    entry_t: lot.t,
    entry: lot.price,
    stop: lot.stop,
    exit_fill: fill.id,
    exit_t: fill.t,
    exit: fill.price,
    why: fill.why,
    fees: round4(fees),
    pnl_usd: round4(perUnit * size * MARKET_SPECS[p.market].point_value),
    r: risk > 0 ? round4(perUnit / risk) : null
  };
}
function applyFill(p, fill) {
  const d = dirOf(fill.side);
  const closed = [];
  let left = fill.size;
  if (p.dir === -d) {
    while (left > 0 && p.lots.length > 0) {
      const lot = p.lots[0];
      const part = Math.min(lot.size, left);
      closed.push(paired(p, lot, fill, part));
      lot.size = onStep(p.market, lot.size - part);
      left = onStep(p.market, left - part);
      p.size = onStep(p.market, p.size - part);
      if (lot.size <= 0) p.lots.shift();
    }
    if (p.size <= 0) {
      p.dir = 0;
      p.size = 0;
      p.lots = [];
      p.stop = null;
      p.target = null;
    }
  }
  if (left > 0) {
    p.dir = d;
    p.lots.push({ fill: fill.id, t: fill.t, price: fill.price, size: left, fee: fill.fee, stop: fill.stop });
    p.size = onStep(p.market, p.size + left);
    if (fill.stop !== null) p.stop = fill.stop;
    if (fill.target !== null) p.target = fill.target;
  }
  return closed;
}

// engine/book/fill-rules.ts
var bookCosts = (market) => ({ ...DEFAULT_COSTS[market], slippage: slippageOf(market, DEFAULT_COSTS[market]) });
function stepBar(book, bar, costs, nextId) {
  const pos = book.position;
  const market = pos.market;
  const out = { fills: [], closed: [] };
  const print = (order_id, side, size, price3, why, stop, target) => {
    const px2 = onTick(market, price3);
    const fill = { id: nextId(), order_id, t: bar.t, market, side, size, price: px2, fee: feePerSide(costs.fee, px2), why, stop, target };
    out.fills.push(fill);
    out.closed.push(...applyFill(pos, fill));
  };
  const fillOrder = (o, price3, why) => {
    book.working.splice(book.working.indexOf(o), 1);
    print(o.id, o.side, o.size, price3, why, o.stop, o.target);
  };
  const exitAll = (price3, why) => print(null, sideOf(-pos.dir), pos.size, price3, why, null, null);
  const eligible = book.working.filter((o) => o.placed_at <= bar.t);
  for (const o of eligible) {
    const d = dirOf(o.side);
    if (o.type === "market") fillOrder(o, bar.o + d * costs.slippage, "market");
    else if (d * (o.price - bar.o) > 0) fillOrder(o, bar.o, "limit");
  }
  if (pos.dir !== 0) {
    const d = pos.dir;
    if (pos.stop !== null && d * (bar.o - pos.stop) <= 0) exitAll(bar.o - d * costs.slippage, "stop");
    else if (pos.target !== null && d * (bar.o - pos.target) > 0) exitAll(bar.o, "target");
  }
  let enteredInRange = false;
  for (const o of eligible) {
    if (!book.working.includes(o)) continue;
    const d = dirOf(o.side);
    const through = d > 0 ? bar.l < o.price : bar.h > o.price;
    if (!through) continue;
    const before = pos.dir * pos.size;
    fillOrder(o, o.price, "limit");
    if (Math.abs(pos.dir * pos.size) > Math.abs(before) || Math.sign(pos.dir * pos.size) !== Math.sign(before)) enteredInRange = true;
  }
  if (pos.dir !== 0) {
    const d = pos.dir;
    if (pos.stop !== null && (d > 0 ? bar.l <= pos.stop : bar.h >= pos.stop)) exitAll(pos.stop - d * costs.slippage, "stop");
    else if (!enteredInRange && pos.target !== null && (d > 0 ? bar.h > pos.target : bar.l < pos.target)) exitAll(pos.target, "target");
  }
  return out;
}

// engine/book/follow.ts
import { z as z10 } from "zod";
var CutSchema = z10.strictObject({ cap: z10.enum([...CAP_NAMES, "rounds_to_zero"]), from: z10.number(), to: z10.number() });
var FollowRowSchema = z10.strictObject({
  fill_id: z10.string(),
  order_id: z10.string().nullable(),
  t: z10.number().int(),
  market: z10.enum(MARKETS),
  side: z10.enum(SIDES),
  why: z10.enum(FILL_WHY),
  price: z10.number(),
  model_size: z10.number(),
  scaled: z10.number().describe("the model's size times the scale, before the size grid and the caps"),
  size: z10.number().describe("what the follower's order would have been"),
  cuts: z10.array(CutSchema)
});
var FollowQuoteSchema = z10.strictObject({
  scale: z10.number().describe("the one factor every order of the model's is scaled by"),
  reference: z10.strictObject({ fill_id: z10.string(), size: z10.number(), notional_usd: z10.number() }).nullable().describe("the model's largest recent order the scale is taken from; null with no orders"),
  rows: z10.array(FollowRowSchema),
  summary: z10.strictObject({ orders: z10.number().int(), followed: z10.number().int(), cut: z10.number().int(), dropped: z10.number().int() })
});
function followQuote(fills, basis, caps) {
  const byNotional = "notional" in basis;
  let ref = null;
  let refValue = 0;
  for (const f of fills) {
    const v = byNotional ? notionalOf(f.market, f.size, f.price) : f.size;
    if (v > refValue) [ref, refValue] = [f, v];
  }
  const scale = ref ? (byNotional ? basis.notional : basis.size) / refValue : 0;
  const model = /* @__PURE__ */ new Map();
  const follower = /* @__PURE__ */ new Map();
  const rows = [];
  for (const f of fills) {
    const m = f.market;
    const d = dirOf(f.side);
    const before = model.get(m) ?? 0;
    const after = onStep(m, before + d * f.size);
    model.set(m, after);
    const mine = follower.get(m) ?? 0;
    const cuts = [];
    const closes = Math.sign(before) === -d ? Math.min(f.size, Math.abs(before)) : 0;
    const opens2 = onStep(m, f.size - closes);
    let close = 0;
    if (closes > 0 && Math.sign(mine) === Math.sign(before)) {
      close = Math.abs(after) === 0 || Math.sign(after) === d ? Math.abs(mine) : Math.min(Math.abs(mine), stepDown(m, closes * scale));
    }
    let open3 = opens2 > 0 ? stepDown(m, opens2 * scale) : 0;
    if (opens2 > 0) {
      const limits = limitsFor(caps, m);
      const cut = (cap, to) => {
        const next = Math.max(0, stepDown(m, to));
        if (next < open3) {
          cuts.push({ cap, from: open3, to: next });
          open3 = next;
        }
      };
      if (!limits.traded) cut("markets", 0);
      cut("max_order_size", limits.max_order_size);
      cut("max_notional", limits.max_notional / notionalOf(m, 1, f.price));
      const held = onStep(m, mine + d * close);
      cut("max_position", limits.max_position - Math.max(0, d * held));
      if (d < 0 && !limits.allow_short) cut("allow_short", Math.max(0, held));
      if (open3 === 0 && cuts.length === 0) cuts.push({ cap: "rounds_to_zero", from: round4(opens2 * scale), to: 0 });
    }
    const size = onStep(m, close + open3);
    follower.set(m, onStep(m, mine + d * size));
    rows.push({
      fill_id: f.id,
      order_id: f.order_id,
      t: f.t,
      market: m,
      side: f.side,
      why: f.why,
      price: f.price,
      model_size: f.size,
      scaled: round4(f.size * scale),
      size,
      cuts
    });
  }
  return {
    scale: round4(scale),
    reference: ref ? { fill_id: ref.id, size: ref.size, notional_usd: round4(notionalOf(ref.market, ref.size, ref.price)) } : null,
    rows,
    summary: {
      orders: rows.length,
      followed: rows.filter((r) => r.size > 0).length,
      cut: rows.filter((r) => r.cuts.some((c) => c.cap !== "rounds_to_zero")).length,
      dropped: rows.filter((r) => r.size === 0).length
    }
  };
}

// engine/book/record.ts
import { z as z11 } from "zod";
function pairedCloses(fills) {
  const positions = /* @__PURE__ */ new Map();
  const trades = [];
  for (const fill of fills) {
    let p = positions.get(fill.market);
    if (!p) positions.set(fill.market, p = flatPosition(fill.market));
    trades.push(...applyFill(p, fill));
  }
  return { trades, open: [...positions.values()].filter((p) => p.dir !== 0) };
}
var RecordStatsSchema = z11.strictObject({
  trades: z11.number().int().describe("paired trades closed"),
  wins: z11.number().int(),
  losses: z11.number().int(),
  win_rate: z11.number().nullable().describe("wins / trades (a win made money after fees); null without trades"),
  realized_pnl_usd: z11.number(),
  max_drawdown_usd: z11.number().describe("the deepest fall of cumulative realized PnL from its running peak (the peak starts at 0), trade by trade"),
  r_trades: z11.number().int().describe("the trades whose entry carried a stop, so have an R"),
  realized_r: z11.number().describe("the sum of R over those trades"),
  max_drawdown_r: z11.number().describe("the deepest fall of that sum from its running peak"),
  expectancy_r: z11.number().nullable().describe("mean R per trade with an R; null without one")
});
function recordStats(trades) {
  const dir = (t) => t.side === "long" ? 1 : -1;
  const usd = statsOf(trades.map((t) => ({ dir: dir(t), r: t.pnl_usd })));
  const withR = trades.filter((t) => t.r !== null);
  const r = statsOf(withR.map((t) => ({ dir: dir(t), r: t.r })));
  return {
    trades: usd.n,
    wins: usd.wins,
    losses: usd.losses,
    win_rate: usd.win_rate,
    realized_pnl_usd: usd.total_r,
    max_drawdown_usd: usd.max_drawdown_r,
    r_trades: r.n,
    realized_r: r.total_r,
    max_drawdown_r: r.max_drawdown_r,
    expectancy_r: r.expectancy
  };
}
var recordOf = (fills) => {
  const { trades, open: open3 } = pairedCloses(fills);
  return { trades, open: open3, stats: recordStats(trades) };
};

// services/book/books.ts
import { z as z12 } from "zod";

// store/book.ts
var bookKey = (o) => `${o.principal}|${o.model ?? ""}|${o.replay ?? ""}`;
var MODES = ["live", "replay"];
var ORDER_STATUSES = ["working", "filled", "cancelled"];
var push = (map, key, value) => {
  const list2 = map.get(key);
  if (list2) list2.push(value);
  else map.set(key, [value]);
};
var BookStore = class {
  constructor(orders, fills) {
    this.orders = orders;
    this.fills = fills;
    orders.follow((e) => this.indexOrder(e.entry));
    fills.follow((e) => this.indexFill(e.entry));
  }
  orders;
  fills;
  orderById = /* @__PURE__ */ new Map();
  cancelledAt = /* @__PURE__ */ new Map();
  fillOf = /* @__PURE__ */ new Map();
  ordersByBook = /* @__PURE__ */ new Map();
  fillsByBook = /* @__PURE__ */ new Map();
  positions = /* @__PURE__ */ new Map();
  /** Orders still working, per book and market, in the order placed (a replay asks every bar). */
  workingBy = /* @__PURE__ */ new Map();
  indexOrder(e) {
    if (e.kind === "cancelled") {
      this.cancelledAt.set(e.id, e.at);
      this.stopWorking(e.id);
    } else {
      this.orderById.set(e.order.id, e.order);
      push(this.ordersByBook, e.order.book, e.order);
      if (this.status(e.order.id) === "working") push(this.workingBy, `${e.order.book}#${e.order.market}`, e.order);
    }
  }
  indexFill(f) {
    if (f.order_id) {
      this.fillOf.set(f.order_id, f);
      this.stopWorking(f.order_id);
    }
    push(this.fillsByBook, f.book, f);
    applyFill(this.positionRef(f.book, f.market), f);
  }
  stopWorking(id) {
    const o = this.orderById.get(id);
    const list2 = o && this.workingBy.get(`${o.book}#${o.market}`);
    const at = list2 ? list2.indexOf(o) : -1;
    if (at >= 0) list2.splice(at, 1);
  }
  positionRef(book, market) {
    const key = `${book}#${market}`;
    let p = this.positions.get(key);
    if (!p) this.positions.set(key, p = flatPosition(market));
    return p;
  }
  /** The ledgers' own checks: the first entry whose chain breaks, or null. */
  verify() {
    return { orders: this.orders.verify(), fills: this.fills.verify() };
  }
  async place(order, at) {
    const event = { kind: "placed", order };
    await this.orders.append(event, at);
    return order;
  }
  async cancel(id, at) {
    const event = { kind: "cancelled", id, at: Math.floor(at / 1e3) };
    await this.orders.append(event, at);
  }
  /** Writes fills one after another; each counts (position, order status) once it is on disk. */
  async addFills(fills, at) {
    for (const f of fills) {
      await this.fills.append(f, at);
    }
  }
  /** The principal's order by id; null when there is none of theirs. */
  order(principal, id) {
    const o = this.orderById.get(id);
    return o && o.principal === principal ? o : null;
  }
  status(id) {
    return this.fillOf.has(id) ? "filled" : this.cancelledAt.has(id) ? "cancelled" : "working";
  }
  cancelledTime(id) {
    return this.cancelledAt.get(id) ?? null;
  }
  fillOfOrder(id) {
    return this.fillOf.get(id) ?? null;
  }
  ordersOf(book) {
    return this.ordersByBook.get(book) ?? [];
  }
  fillsOf(book) {
    return this.fillsByBook.get(book) ?? [];
  }
  /** Orders of the book still working on a market, in the order placed. */
  working(book, market) {
    return [...this.workingBy.get(`${book}#${market}`) ?? []];
  }
  /** True when nothing can happen to the book on a market: no order working, and no stop or target resting. */
  idle(book, market) {
    if ((this.workingBy.get(`${book}#${market}`)?.length ?? 0) > 0) return false;
    const p = this.positions.get(`${book}#${market}`);
    return !p || p.dir === 0 || p.stop === null && p.target === null;
  }
  /** A copy of the book's position on a market (flat when it never traded there). */
  position(book, market) {
    const p = this.positions.get(`${book}#${market}`);
    return p ? { ...p, lots: p.lots.map((l) => ({ ...l })) } : flatPosition(market);
  }
  /** Every book a principal has traded or ordered in. */
  booksOf(principal) {
    const prefix = `${principal}|`;
    return [.../* @__PURE__ */ new Set([...this.ordersByBook.keys(), ...this.fillsByBook.keys()])].filter((k) => k.startsWith(prefix));
  }
};

// services/book/books.ts
var ModelName = z12.string().regex(/^[a-z0-9_-]{3,32}$/, "3 to 32 of a-z, 0-9, _ and -");
var RunId = z12.string().regex(/^run_[0-9a-f]{16}$/, "a run id as POST /agent/runs answered it");
function myModel(ctx, name) {
  const m = ctx.store.models.get(ctx.principal.id, name);
  if (!m) throw new DeckError(404, "model_not_found", `you have no model named ${name}`, { field: "model" });
  return m;
}
function myRun(ctx, id) {
  const r = ctx.store.runs.get(ctx.principal.id, id);
  if (!r) throw new DeckError(404, "run_not_found", `you have no run ${id}`, { field: "run" });
  return r;
}
function liveBookOf(principal, model, run = null) {
  const owner = { principal, model, replay: null };
  return { ...owner, key: bookKey(owner), mode: "live", run };
}
var liveBook = (ctx, model, run = null) => liveBookOf(ctx.principal.id, model, run);
function replayBook(ctx, model, run) {
  const owner = { principal: ctx.principal.id, model, replay: run };
  return { ...owner, key: bookKey(owner), mode: "replay", run };
}
function capsOf(ctx, model) {
  const own = ctx.store.bookCaps.get(ctx.principal.id);
  return model ? within(model.caps, own) : own;
}
function bookOf(ctx, q) {
  if (q.run) {
    const run = myRun(ctx, q.run);
    if (q.model && q.model !== run.model) throw new DeckError(404, "run_not_found", `run ${run.id} is not a run of ${q.model}`, { field: "run" });
    return { ref: run.mode === "replay" ? replayBook(ctx, run.model, run.id) : liveBook(ctx, run.model, run.id), run };
  }
  if (q.model) myModel(ctx, q.model);
  return { ref: liveBook(ctx, q.model ?? null), run: null };
}

// upstream/named-targets.ts
import { lookup as dnsLookup } from "node:dns";
import { isIP } from "node:net";
import ipaddr2 from "ipaddr.js";

// core/addresses.ts
import ipaddr from "ipaddr.js";
function loopbackAddress(address3) {
  if (!ipaddr.isValid(address3)) return false;
  return ipaddr.process(address3).range() === "loopback";
}

// upstream/undici.ts
var loaded = null;
var undici = () => loaded ??= import("undici");

// upstream/named-targets.ts
var TargetRefused = class extends Error {
  code = "ETARGETREFUSED";
  constructor(host) {
    const bare = unbracketed(host);
    super(`${isIP(bare) === 6 ? `[${bare}]` : bare} is not a public address the deck may reach (a name must resolve, and only to public addresses)`);
  }
};
var unbracketed = (host) => host.replace(/^\[|\]$/g, "");
var systemResolve = (host) => new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (error, found) => error ? reject(error) : resolve(found)));
var publicV4 = (a) => a.range() === "unicast";
var GLOBAL_V6 = ipaddr2.parseCIDR("2000::/3");
function publicAddress(address3) {
  if (!ipaddr2.isValid(address3)) return false;
  const parsed = ipaddr2.parse(address3);
  if (parsed.kind() === "ipv4") return publicV4(parsed);
  const v6 = parsed;
  const bytes = v6.toByteArray();
  const carried = (from) => new ipaddr2.IPv4(bytes.slice(from, from + 4));
  if (bytes.slice(0, 12).every((b) => b === 0)) return publicV4(carried(12));
  switch (v6.range()) {
    case "ipv4Mapped":
      return publicV4(carried(12));
    case "rfc6052":
      return v6.parts[1] === 65435 && v6.parts.slice(2, 6).every((p) => p === 0) && publicV4(carried(12));
    case "6to4":
      return publicV4(carried(2));
    case "unicast":
      return v6.match(GLOBAL_V6);
    default:
      return false;
  }
}
var NamedTargets = class {
  constructor(loopbackAllowed, resolve = systemResolve) {
    this.loopbackAllowed = loopbackAllowed;
    this.resolve = resolve;
  }
  loopbackAllowed;
  resolve;
  agent = null;
  allowed(address3) {
    return publicAddress(address3) || this.loopbackAllowed && loopbackAddress(address3);
  }
  /**
   * The addresses a host resolves to (a host written as an address is its own), refused (TargetRefused) unless every
   * one may be reached. A name that does not resolve is refused in the same words.
   */
  async addresses(host) {
    const bare = unbracketed(host);
    const family = isIP(bare);
    let found;
    try {
      found = family ? [{ address: bare, family }] : await this.resolve(bare);
    } catch {
      throw new TargetRefused(host);
    }
    if (found.length === 0 || !found.every((a) => this.allowed(a.address))) throw new TargetRefused(host);
    return found;
  }
  /** Whether a host is this machine (every address loopback): only ever when loopback is allowed. TargetRefused else. */
  async isLoopback(host) {
    return (await this.addresses(host)).every((a) => loopbackAddress(a.address));
  }
  /** The dispatcher every request to a named URL goes through: one pool, kept alive for the decide() calls of a run. */
  dispatcher() {
    return this.agent ??= undici().then((u) => new u.Agent({ keepAliveTimeout: 1e4, connections: 64, connect: this.connector(u.buildConnector) }));
  }
  /** undici's own connector, its look-up this one, and a host written as an address checked before it connects. */
  connector(build3) {
    const lookup = (hostname, options, callback) => {
      this.addresses(hostname).then(
        (found) => {
          if (options.all) callback(null, found);
          else callback(null, found[0].address, found[0].family);
        },
        (error) => callback(error, "", 0)
      );
    };
    const connect = build3({ lookup });
    return (options, callback) => {
      const host = unbracketed(options.hostname);
      if (isIP(host) && !this.allowed(host)) return void queueMicrotask(() => callback(new TargetRefused(options.hostname), null));
      return connect(options, callback);
    };
  }
};

// services/agent/decide-url.ts
async function decideUrl(raw, targets) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw badInput([{ field: "decide_url", message: "not a URL" }]);
  }
  const refuse2 = (message) => badInput([{ field: "decide_url", message }]);
  if (url.username || url.password) throw refuse2("a URL carries no credentials");
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refuse2("decide() must be an https URL");
  let loopback;
  try {
    loopback = await targets.isLoopback(url.hostname);
  } catch (error) {
    if (error instanceof TargetRefused) throw refuse2(error.message);
    throw error;
  }
  if (url.protocol === "http:" && !loopback) throw refuse2("decide() must be an https URL");
  return url.href;
}

// services/agent/model-view.ts
var modelView = (m) => ({
  name: m.name,
  id: `${m.owner}/${m.name}`,
  decide_url: m.decide_url,
  market: m.market,
  timeframe: m.timeframe,
  caps: m.caps,
  synthetic: m.synthetic,
  created_at: m.created_at,
  refused: m.refused
});

// services/agent/answers.ts
import { z as z16 } from "zod";

// store/models.ts
import { z as z13 } from "zod";
var ModelRecordSchema = z13.strictObject({
  name: z13.string().describe("unique among its principal's models; the copy seller names it owner/name"),
  owner: z13.string().describe("the principal's name, for the copy seller's listing"),
  decide_url: z13.url().describe("the decide() endpoint the deck POSTs each closed bar"),
  market: z13.enum(MARKETS),
  timeframe: z13.enum(TIMEFRAMES),
  caps: CapsSchema.describe("the model's caps, inside its principal's"),
  synthetic: z13.boolean().describe("one of the house's own example strategies run to fill the book: never listed by the copy seller"),
  created_at: z13.number().int().describe("unix milliseconds"),
  refused: z13.strictObject({ total: z13.number().int(), fields: z13.record(z13.string(), z13.number().int()) }).describe("answers the typed lane refused, in all and by the field each named")
});
var Models = class {
  constructor(file) {
    this.file = file;
  }
  file;
  static empty = () => ({ by_principal: {} });
  list(principal) {
    return this.file.data.by_principal[principal] ?? [];
  }
  get(principal, name) {
    return this.list(principal).find((m) => m.name === name) ?? null;
  }
  /** Every model with the id of the principal that registered it. */
  all() {
    return Object.entries(this.file.data.by_principal).flatMap(([principal, models2]) => models2.map((model) => ({ principal, model })));
  }
  /** Adds the model unless the principal already has one of that name (answers false then; nothing is written). */
  add(principal, model, most) {
    return this.file.update((d) => {
      const mine = d.by_principal[principal] ??= [];
      if (mine.some((m) => m.name === model.name)) return "taken";
      if (mine.length >= most) return "full";
      mine.push(model);
      return "added";
    });
  }
  /** Counts one refused answer against the model, under each field it named. */
  refuse(principal, name, fields) {
    return this.file.update((d) => {
      const m = d.by_principal[principal]?.find((x) => x.name === name);
      if (!m) return;
      m.refused.total++;
      for (const f of new Set(fields)) m.refused.fields[f] = (m.refused.fields[f] ?? 0) + 1;
    });
  }
};

// store/runs.ts
import { z as z14 } from "zod";

// store/owned.ts
var Owned = class {
  constructor(file) {
    this.file = file;
  }
  file;
  static empty = () => ({ by_principal: {} });
  list(principalId) {
    return this.file.data.by_principal[principalId] ?? [];
  }
  get(principalId, id) {
    return this.list(principalId).find((r) => r.id === id) ?? null;
  }
  /** Adds a record after `admit` has seen the principal's current records (it throws to refuse). */
  add(principalId, record, admit = () => {
  }) {
    return this.file.update((d) => {
      const mine = d.by_principal[principalId] ??= [];
      admit(mine);
      mine.push(record);
      return mine;
    });
  }
  /** Removes the record; null when the principal has no such record. */
  async remove(principalId, id) {
    if (!this.get(principalId, id)) return null;
    return this.file.update((d) => {
      const mine = d.by_principal[principalId] ?? [];
      const at = mine.findIndex((r) => r.id === id);
      if (at < 0) return null;
      mine.splice(at, 1);
      return mine;
    });
  }
};

// store/runs.ts
var RUN_STATES = ["running", "done", "stopped"];
var RunEndSchema = z14.strictObject({
  code: z14.string(),
  message: z14.string(),
  bar_t: UnixS.nullable(),
  problems: z14.array(z14.strictObject({ field: z14.string(), message: z14.string() })).optional().describe("the fields a refused answer named")
});
var RunRecordSchema = z14.strictObject({
  id: z14.string().regex(/^run_[0-9a-f]{16}$/),
  model: z14.string(),
  mode: z14.enum(["replay", "live"]),
  state: z14.enum(RUN_STATES),
  window: z14.strictObject({ from: UnixS, to: UnixS.nullable() }).describe("the replay's window; for a live run, from its start (to null)"),
  timeout_ms: z14.number().int(),
  retries: z14.number().int(),
  budget_bars: z14.number().int(),
  bars_total: z14.number().int().nullable().describe("bars in the window (replay); null for a live run"),
  bars_done: z14.number().int(),
  last_bar_t: UnixS.nullable(),
  decisions: z14.strictObject({ hold: z14.number().int(), enter: z14.number().int(), exit: z14.number().int() }),
  skipped: z14.strictObject({ market_closed: z14.number().int() }).describe("decisions the book could not take at a bar (a market closed by the calendar): the run goes on"),
  orders: z14.number().int(),
  fills: z14.number().int(),
  retried: z14.number().int().describe("decide() calls tried again after a timeout, a network failure or a 5xx"),
  decide_ms: z14.number().describe("time spent waiting on decide(), in all"),
  started_at: z14.number().int(),
  ended_at: z14.number().int().nullable(),
  end: RunEndSchema.nullable().describe("how the run ended; null while it runs")
});
var Runs = class extends Owned {
  /** Writes the run as it now stands (added when new). */
  put(principal, run) {
    const copy = structuredClone(run);
    return this.file.update((d) => {
      const mine = d.by_principal[principal] ??= [];
      const at = mine.findIndex((r) => r.id === run.id);
      if (at < 0) mine.push(copy);
      else mine[at] = copy;
    });
  }
  /** Runs a stopped deck left running end as stopped: nothing steps them any more. */
  async settleAfterRestart(now) {
    const stale = Object.values(this.file.data.by_principal).some((runs) => runs.some((r) => r.state === "running"));
    if (!stale) return;
    await this.file.update((d) => {
      for (const runs of Object.values(d.by_principal)) {
        for (const r of runs) {
          if (r.state !== "running") continue;
          r.state = "stopped";
          r.ended_at = now;
          r.end = { code: "deck_restarted", message: "the deck stopped while the run was under way; its fills so far stay", bar_t: r.last_bar_t };
        }
      }
    });
  }
};

// services/schemas.ts
import { z as z15 } from "zod";
var flag = z15.boolean();
var int = z15.number().int();
var keyed = (keys, value) => z15.strictObject(Object.fromEntries(keys.map((k) => [k, value])));
var answer = (shape) => z15.strictObject({ ok: z15.literal(true), ...shape });
var TIME_FORMS = "unix seconds (an integer) or an ISO-8601 UTC time (2013-10-08T13:30:00Z)";
var isoUtc = z15.iso.datetime({ offset: false });
var unixTime = z15.union([int, z15.string()], { error: `expected ${TIME_FORMS}` }).transform((v, c) => {
  if (typeof v === "number") return v;
  if (isoUtc.safeParse(v).success) return Math.floor(Date.parse(v) / 1e3);
  c.issues.push({ code: "custom", input: v, message: `expected ${TIME_FORMS}, not ${JSON.stringify(v.slice(0, 40))}` });
  return z15.NEVER;
});

// services/agent/answers.ts
var ModelView = ModelRecordSchema.omit({ owner: true }).extend({ id: z16.string().describe("owner/name, as the copy seller names it") });
var ModelAnswer = answer({ model: ModelView });
var ModelsMineAnswer = answer({ models: z16.array(ModelView) });
var RunAnswer = answer({ run: RunRecordSchema });
var RunsAnswer = answer({ runs: z16.array(RunRecordSchema).describe("newest first") });

// tools/agent/model-register.ts
var MOST_MODELS = 20;
var modelRegister = defineTool({
  name: "model_register",
  title: "Register a model",
  description: "Registers a trading model of yours: its decide() endpoint (an https URL of yours: the deck POSTs it each closed bar and your model's position, and reads back a typed-decision.v1 answer), the market and timeframe it trades, and its caps (inside yours). Run it with POST /agent/runs. synthetic marks one of the house's own example strategies run to fill the book (house tier only): the copy seller never lists those.",
  input: z17.object({
    name: ModelName,
    decide_url: z17.string().max(2048).describe("https URL of your decide() endpoint, at a public address"),
    market: z17.enum(MARKETS),
    timeframe: z17.enum(["1m", "5m", "1h"]).optional().describe("the bars decide() is sent (default 1m)"),
    caps: CapsSchema.optional().describe("the model's caps, inside your own"),
    synthetic: z17.boolean().optional().describe("a house example strategy filling the book (house tier only): never listed as a model")
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  output: ModelAnswer,
  access: "session",
  toolset: TOOLSETS.agent,
  rest: { method: "POST", path: "/agent/models", status: 201, errors: [403, 409] },
  async run(ctx, input) {
    const p = ctx.principal;
    if (input.synthetic && p.tier !== "house") throw new DeckError(403, "house_only", "only the house registers synthetic book actors", { field: "synthetic" });
    const model = {
      name: input.name,
      owner: p.name,
      decide_url: await decideUrl(input.decide_url, ctx.upstreams.named),
      market: input.market,
      timeframe: input.timeframe ?? "1m",
      caps: within(input.caps ?? {}, ctx.store.bookCaps.get(p.id)),
      synthetic: input.synthetic ?? false,
      created_at: ctx.clock(),
      refused: { total: 0, fields: {} }
    };
    const added = await ctx.store.models.add(p.id, model, MOST_MODELS);
    if (added === "taken") throw new DeckError(409, "model_exists", `you already have a model named ${input.name}`, { field: "name" });
    if (added === "full") throw new DeckError(409, "models_full", `you have ${MOST_MODELS} models, the most one principal may register`, { field: "name" });
    return { ok: true, model: modelView(model) };
  }
});

// tools/agent/my-models.ts
import { z as z18 } from "zod";
var modelsMine = defineTool({
  name: "my_models",
  title: "Your models",
  description: "Your registered models, each with its decide() endpoint, market, timeframe, caps and the answers the typed lane refused (in all and by field).",
  input: z18.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ModelsMineAnswer,
  access: "session",
  toolset: TOOLSETS.agent,
  rest: { method: "GET", path: "/agent/models" },
  async run(ctx) {
    return { ok: true, models: ctx.store.models.list(ctx.principal.id).map(modelView) };
  }
});
var modelRead = defineTool({
  name: "my_model",
  title: "One of your models",
  description: "One of your models, with the answers the typed lane refused (in all and by field). 404 when you have none of that name.",
  input: z18.object({ name: ModelName }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ModelAnswer,
  access: "session",
  toolset: TOOLSETS.agent,
  rest: { method: "GET", path: "/agent/models/:name", errors: [404] },
  async run(ctx, { name }) {
    return { ok: true, model: modelView(myModel(ctx, name)) };
  }
});

// tools/agent/run-start.ts
import { z as z24 } from "zod";

// services/tape/held.ts
import { z as z20 } from "zod";

// engine/spacing.ts
function typicalSpacing(t) {
  const counts = /* @__PURE__ */ new Map();
  for (let i = 1; i < t.length; i++) {
    const gap = t[i] - t[i - 1];
    counts.set(gap, (counts.get(gap) ?? 0) + 1);
  }
  let best = null;
  let most = 0;
  for (const [gap, n] of counts) {
    if (n > most || n === most && gap < best) {
      best = gap;
      most = n;
    }
  }
  return best;
}
function lengthWords(seconds) {
  for (const [unit, size] of [["d", 86400], ["h", 3600], ["m", 60]]) {
    if (seconds >= size && seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}
function runsOf(t, longest, gap = (a, b) => b - a) {
  const runs = [];
  let from = 0;
  for (let i = 1; i <= t.length; i++) {
    if (i === t.length || gap(t[i - 1], t[i]) > longest) {
      runs.push({ from, to: i });
      from = i;
    }
  }
  return t.length === 0 ? [] : runs;
}
var vouchedRuns = (market, t, len) => runsOf(t, 86400, (a, b) => openSeconds(market, a + len, b));

// store/tape-days.ts
import { mkdir, open as open2, readdir, readFile, stat, unlink } from "node:fs/promises";
import { join as join2 } from "node:path";

// store/atomic-file.ts
import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
async function writeAtomic(path, bytes) {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await open(temp, "wx");
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

// store/tape-days.ts
function heldOf(doc, tf) {
  if (doc.held) return doc.held;
  const { rows } = doc;
  return rows.length ? [{ from: rows[0][0], to: rows[rows.length - 1][0] + TIMEFRAME_SECONDS[tf] }] : [];
}
var summaryOf = (market, tf, day, doc) => ({
  market,
  tf,
  day,
  bars: doc.rows.length,
  held: heldOf(doc, tf),
  sample: doc.sample ?? [],
  imported: doc.imported ?? []
});
var isTapeOf = (market, tf) => MARKETS.includes(market) && TIMEFRAMES.includes(tf);
var STALE_LOCK_MS = 3e4;
var LOCK_WAIT_MS = 1e4;
var DAY_FILE = /^\d{4}-\d{2}-\d{2}\.json$/;
var signature = (st) => `${st.ino}/${st.size}/${st.mtimeMs}`;
var FileTapeDays = class {
  constructor(dir) {
    this.dir = dir;
  }
  dir;
  files = /* @__PURE__ */ new Map();
  summarized = /* @__PURE__ */ new Map();
  writing = /* @__PURE__ */ new Map();
  folder(market, tf) {
    return join2(this.dir, "tape", market, tf);
  }
  read(market, tf, days) {
    return Promise.all(days.map((day) => this.day(market, tf, day)));
  }
  /** A day as its file holds it now. */
  async day(market, tf, day) {
    const path = join2(this.folder(market, tf), `${day}.json`);
    const st = await stat(path).catch((e) => e.code === "ENOENT" ? null : Promise.reject(e));
    if (!st) return { rows: [] };
    const sig = signature(st);
    const hit = this.files.get(path);
    if (hit?.sig === sig) return hit.doc;
    const doc = JSON.parse(await readFile(path, "utf8"));
    this.files.set(path, { sig, doc });
    return doc;
  }
  async list(market, tf) {
    const names = await readdir(this.folder(market, tf)).catch(() => []);
    return names.filter((n) => DAY_FILE.test(n)).map((n) => n.slice(0, 10)).sort();
  }
  async holdsAny() {
    const tape2 = join2(this.dir, "tape");
    for (const market of await readdir(tape2).catch(() => [])) {
      for (const tf of await readdir(join2(tape2, market)).catch(() => [])) {
        const names = await readdir(join2(tape2, market, tf)).catch(() => []);
        if (names.some((n) => DAY_FILE.test(n))) return true;
      }
    }
    return false;
  }
  async summaries() {
    const out = [];
    const seen = /* @__PURE__ */ new Set();
    const tape2 = join2(this.dir, "tape");
    for (const market of (await readdir(tape2).catch(() => [])).sort()) {
      for (const tf of (await readdir(join2(tape2, market)).catch(() => [])).sort()) {
        if (!isTapeOf(market, tf)) continue;
        for (const day of await this.list(market, tf)) {
          const path = join2(this.folder(market, tf), `${day}.json`);
          const st = await stat(path).catch(() => null);
          if (!st) continue;
          seen.add(path);
          const sig = signature(st);
          const read = this.files.get(path);
          let known2 = this.summarized.get(path);
          if (known2?.sig !== sig) {
            const doc = read?.sig === sig ? read.doc : JSON.parse(await readFile(path, "utf8"));
            this.summarized.set(path, known2 = { sig, summary: summaryOf(market, tf, day, doc) });
          }
          out.push(known2.summary);
        }
      }
    }
    for (const path of this.summarized.keys()) if (!seen.has(path)) this.summarized.delete(path);
    return out;
  }
  /** Reads a day afresh under its lock and writes what `change` makes of it (null: nothing to write). */
  update(market, tf, day, change) {
    const folder = this.folder(market, tf);
    const path = join2(folder, `${day}.json`);
    const work = (this.writing.get(path) ?? Promise.resolve()).catch(() => {
    }).then(async () => {
      await mkdir(folder, { recursive: true });
      const release = await lock(join2(folder, `.${day}.json.lock`));
      try {
        const next = change(await this.day(market, tf, day));
        if (!next) return 0;
        await writeAtomic(path, JSON.stringify(next.doc));
        this.files.set(path, { sig: signature(await stat(path)), doc: next.doc });
        return next.added;
      } finally {
        await release();
      }
    }).finally(() => {
      if (this.writing.get(path) === work) this.writing.delete(path);
    });
    this.writing.set(path, work);
    return work;
  }
};
async function lock(path) {
  const started = Date.now();
  for (; ; ) {
    try {
      await (await open2(path, "wx")).close();
      return () => unlink(path).catch(() => {
      });
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    const held = await stat(path).catch(() => null);
    if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await unlink(path).catch(() => {
    });
    else if (Date.now() - started > LOCK_WAIT_MS) throw new Error(`${path}: another writer holds the archive day`);
    else await new Promise((r) => setTimeout(r, 20));
  }
}

// store/tape-archive.ts
var DAY_S = 86400;
var dayOf = (t) => new Date(Math.floor(t / DAY_S) * DAY_S * 1e3).toISOString().slice(0, 10);
var dayStart = (day) => Date.parse(`${day}T00:00:00Z`) / 1e3;
var ORIGINS = ["sample", "import", "venue"];
var HELD_FRESH_MS = 1e4;
function mergeSpans(spans) {
  const out = [];
  for (const s of [...spans].sort((a, b) => a.from - b.from)) {
    const last = out.at(-1);
    if (last && s.from <= last.to) last.to = Math.max(last.to, s.to);
    else if (s.to > s.from) out.push({ ...s });
  }
  return out;
}
var sameSpans = (a, b) => a.length === b.length && a.every((s, i) => s.from === b[i].from && s.to === b[i].to);
function sourcesOf(held, sample, imported) {
  const marked = [...sample.map((s) => ({ ...s, source: "sample" })), ...imported.map((s) => ({ ...s, source: "import" }))].filter((s) => s.to > held.from && s.from < held.to).sort((a, b) => a.from - b.from);
  const out = [];
  let at = held.from;
  for (const m of marked) {
    const from = Math.max(at, m.from);
    const to = Math.min(held.to, m.to);
    if (from > at) out.push({ from: at, to: from, source: "venue" });
    if (to > from) out.push({ from, to, source: m.source });
    at = Math.max(at, to);
  }
  if (at < held.to) out.push({ from: at, to: held.to, source: "venue" });
  return out;
}
function windowsOf(days) {
  const pieces = days.flatMap((d) => d.held.flatMap((h) => sourcesOf(h, d.sample, d.imported))).sort((a, b) => a.from - b.from);
  const out = [];
  for (const p of pieces) {
    const last = out.at(-1);
    if (last && last.source === p.source && p.from <= last.to) last.to = Math.max(last.to, p.to);
    else out.push({ ...p });
  }
  return out;
}
var TapeArchive = class {
  constructor(days, clock2 = Date.now) {
    this.days = days;
    this.clock = clock2;
  }
  days;
  clock;
  /** What the archive holds, as last read (frozen: the same value until something changes), and when it was read. */
  holding = null;
  *daysIn(from, to) {
    for (let d = Math.floor(from / DAY_S) * DAY_S; d < to; d += DAY_S) yield dayOf(d);
  }
  /** The kept bars with from <= t < to, in time order, and the held (and sample) stretches of the days they fall in. */
  async read(market, tf, from, to) {
    const rows = [];
    const held = [];
    const sample = [];
    for (const doc of await this.days.read(market, tf, [...this.daysIn(from, to)])) {
      for (const row2 of doc.rows) if (row2[0] >= from && row2[0] < to) rows.push(row2);
      held.push(...heldOf(doc, tf));
      sample.push(...doc.sample ?? []);
    }
    return { rows, held: mergeSpans(held), sample: mergeSpans(sample) };
  }
  /** Whether the archive keeps any day of any market and timeframe. */
  holdsAny() {
    return this.days.holdsAny();
  }
  /**
   * What the archive holds, per market and timeframe (in the markets' and timeframes' own order): its bars and the
   * windows of history it holds, each with who vouched for it. Read again once HELD_FRESH_MS have passed, or at once
   * after this archive kept something; the same frozen value is answered until then.
   */
  held() {
    const now = this.clock();
    if (this.holding && now - this.holding.read < HELD_FRESH_MS) return this.holding.held;
    const held = this.days.summaries().then((days) => {
      const out = [];
      for (const market of MARKETS) {
        for (const tf of TIMEFRAMES) {
          const own = days.filter((d) => d.market === market && d.tf === tf);
          const windows = windowsOf(own);
          if (windows.length > 0) out.push(Object.freeze({ market, tf, bars: own.reduce((n, d) => n + d.bars, 0), windows }));
        }
      }
      return Object.freeze(out);
    });
    this.holding = { read: now, held };
    held.catch(() => {
      if (this.holding?.held === held) this.holding = null;
    });
    return held;
  }
  /**
   * The newest bar kept for a market and timeframe, or null when none is: the last row of the latest day that holds
   * one (days are named YYYY-MM-DD, so their names sort as their dates).
   */
  async newest(market, tf) {
    for (const day of (await this.days.list(market, tf)).reverse()) {
      const [{ rows }] = await this.days.read(market, tf, [day]);
      if (rows.length > 0) return rows[rows.length - 1];
    }
    return null;
  }
  /**
   * Keeps bars not yet kept (first seen wins) and the stretch their source vouched for (`vouched`, which holds
   * them), marked as the sample's or an import's when one is their origin; answers how many bars were new.
   */
  async keep(market, tf, rows, vouched, origin = "venue") {
    const days = /* @__PURE__ */ new Map();
    if (vouched) for (const day of this.daysIn(vouched.from, vouched.to)) days.set(day, []);
    for (const row2 of rows) {
      const day = dayOf(row2[0]);
      const list2 = days.get(day);
      if (list2) list2.push(row2);
      else days.set(day, [row2]);
    }
    let added = 0;
    let changed = false;
    for (const [day, fresh] of days) {
      const start = dayStart(day);
      const span = vouched && { from: Math.max(vouched.from, start), to: Math.min(vouched.to, start + DAY_S) };
      added += await this.days.update(market, tf, day, (doc) => {
        const seen = new Set(doc.rows.map((r) => r[0]));
        const news = fresh.filter((r) => !seen.has(r[0]) && seen.add(r[0]));
        const vouchedHere = span && span.to > span.from ? [span] : [];
        const held = mergeSpans([...heldOf(doc, tf), ...vouchedHere]);
        const sample = mergeSpans([...doc.sample ?? [], ...origin === "sample" ? vouchedHere : []]);
        const imported = mergeSpans([...doc.imported ?? [], ...origin === "import" ? vouchedHere : []]);
        if (news.length === 0 && sameSpans(held, heldOf(doc, tf)) && sameSpans(sample, doc.sample ?? []) && sameSpans(imported, doc.imported ?? [])) return null;
        const rowsNow = [...doc.rows, ...news].sort((a, b) => a[0] - b[0]);
        changed = true;
        return { doc: { rows: rowsNow, held, ...sample.length ? { sample } : {}, ...imported.length ? { imported } : {} }, added: news.length };
      });
    }
    if (changed) this.holding = null;
    return added;
  }
  /**
   * Keeps an imported file's bars (or the sample's): the file vouches for each of its stretches, from its first bar to
   * the close of its last, a stretch ending where more than a day of open market passes between two bars. A file of
   * days months apart (the shipped sample's) holds those days, not the months between them.
   */
  async import(market, tf, rows, origin = "import") {
    const len = TIMEFRAME_SECONDS[tf];
    let added = 0;
    for (const run of vouchedRuns(market, rows.map((r) => r[0]), len)) {
      const part = rows.slice(run.from, run.to);
      added += await this.keep(market, tf, part, { from: part[0][0], to: part[part.length - 1][0] + len }, origin);
    }
    return added;
  }
};

// engine/coverage.ts
var Runs2 = class {
  constructor(len) {
    this.len = len;
  }
  len;
  spans = [];
  bars = 0;
  add(t) {
    this.bars++;
    const last = this.spans.at(-1);
    if (last && last.to === t) last.to = t + this.len;
    else this.spans.push({ from: t, to: t + this.len });
  }
};
function coverage(input) {
  const { market, tf, from, to, times, held } = input;
  const len = TIMEFRAME_SECONDS[tf];
  const expected = expectedBars(market, len, from, closedEnd(to, len));
  const closed = closedSpans(market, from, to);
  const missing = new Runs2(len);
  const unmeasured = new Runs2(len);
  let served = 0;
  let matched = 0;
  let h = 0;
  for (const t of expected) {
    while (served < times.length && times[served] < t) served++;
    if (served < times.length && times[served] === t) {
      matched++;
      served++;
      continue;
    }
    while (h < held.length && held[h].to <= t) h++;
    const isHeld = h < held.length && held[h].from <= t && t + len <= held[h].to;
    (isHeld ? missing : unmeasured).add(t);
  }
  const measured = held.some((s) => s.to > from && s.from < to);
  let partial = 0;
  if (input.built) {
    for (const n of input.built.sources) if (n < input.built.perBar) partial++;
  }
  return {
    market,
    tf,
    from,
    to,
    measured,
    bars: times.length,
    expected: expected.length,
    closed: { spans: closed, seconds: closed.reduce((s, c) => s + c.to - c.from, 0) },
    missing: { spans: missing.spans, bars: missing.bars },
    unmeasured: { spans: unmeasured.spans, bars: unmeasured.bars },
    unexpected: times.length - matched,
    built_from: input.built ? { tf: input.built.tf, partial } : null,
    complete: measured && missing.bars === 0 && unmeasured.bars === 0
  };
}
var isFinal = (c) => c.measured && c.unmeasured.bars === 0;
function sealHolds(c) {
  const len = TIMEFRAME_SECONDS[c.tf];
  return isFinal(c) && (c.to % len === 0 || c.expected === expectedBars(c.market, len, c.from, closedEnd(c.to, len)).length);
}

// engine/resample.ts
function resample(src, srcSeconds, outSeconds) {
  if (!(srcSeconds > 0 && outSeconds > srcSeconds && outSeconds % srcSeconds === 0)) {
    throw new RangeError(`cannot build ${outSeconds}s bars from ${srcSeconds}s bars`);
  }
  const bucketOf = (t) => Math.floor(t / outSeconds) * outSeconds;
  let count2 = 0;
  let last = -Infinity;
  for (let i = 0; i < src.length; i++) {
    const b = bucketOf(src.t[i]);
    if (b < last) throw new RangeError(`source bars are not in time order at index ${i}`);
    if (b !== last) count2++;
    last = b;
  }
  const out = allocBars(count2);
  const sources2 = new Int32Array(count2);
  let j = -1;
  last = -Infinity;
  for (let i = 0; i < src.length; i++) {
    const b = bucketOf(src.t[i]);
    const h = src.h[i];
    const l = src.l[i];
    if (b !== last) {
      j++;
      last = b;
      out.t[j] = b;
      out.o[j] = src.o[i];
      out.h[j] = h;
      out.l[j] = l;
      out.v[j] = 0;
    } else {
      if (h > out.h[j]) out.h[j] = h;
      if (l < out.l[j]) out.l[j] = l;
    }
    out.c[j] = src.c[i];
    out.v[j] = out.v[j] + src.v[i];
    sources2[j]++;
  }
  return { bars: out, sources: sources2, perBar: outSeconds / srcSeconds };
}
function wholeBuckets(r, outSeconds, from, held) {
  const keep = [];
  let h = 0;
  for (let i = 0; i < r.bars.length; i++) {
    const t = r.bars.t[i];
    while (h < held.length && held[h].to <= t) h++;
    if (t >= from && h < held.length && held[h].from <= t && t + outSeconds <= held[h].to) keep.push(i);
  }
  if (keep.length === r.bars.length) return r;
  const bars = allocBars(keep.length);
  const sources2 = new Int32Array(keep.length);
  keep.forEach((i, j) => {
    for (const f of ["t", "o", "h", "l", "c", "v"]) bars[f][j] = r.bars[f][i];
    sources2[j] = r.sources[i];
  });
  return { bars, sources: sources2, perBar: r.perBar };
}

// upstream/watch.ts
import { channel } from "node:diagnostics_channel";
var upstreamCalls = channel("deck:upstream-call");
function publishCall(upstream, started, outcome, status) {
  if (!upstreamCalls.hasSubscribers) return;
  upstreamCalls.publish({ upstream, outcome, status, seconds: (performance.now() - started) / 1e3, at: Date.now() });
}
async function watched(upstream, request) {
  const started = performance.now();
  try {
    const res = await request();
    publishCall(upstream, started, res.statusCode >= 200 && res.statusCode < 300 ? "ok" : "refused", res.statusCode);
    return res;
  } catch (error) {
    publishCall(upstream, started, "unreachable", null);
    throw error;
  }
}

// core/tape-wire.ts
import { z as z19 } from "zod";
var positive = z19.number().finite().positive();
var CandleRowSchema = z19.tuple([z19.number().int().nonnegative(), positive, positive, positive, positive, z19.number().finite().nonnegative()]).refine(([, o, h, l, c]) => l <= Math.min(o, c) && Math.max(o, c) <= h, "needs l <= min(o, c) <= max(o, c) <= h");
var VenueAnswer = z19.object({ candles: z19.array(CandleRowSchema) });

// upstream/tape/venue.ts
var VENUE_TAPE = "venue tape";
var BACKOFF_MS = [100, 300];
var TimeframeNotServed = class extends Error {
};
async function attempt(target, timeoutMs) {
  const deadline = AbortSignal.timeout(timeoutMs);
  let res;
  let text2;
  try {
    res = await watched(VENUE_TAPE, async () => (await undici()).request(target, { headers: { accept: "application/json" }, signal: deadline }));
    text2 = await res.body.text();
  } catch (error) {
    return { retry: deadline.aborted ? `no answer within ${timeoutMs / 1e3} s` : error.message };
  }
  if (res.statusCode >= 500) return { retry: `answered ${res.statusCode}` };
  if (res.statusCode === 404 || res.statusCode === 422) throw new TimeframeNotServed(text2.slice(0, 200));
  if (res.statusCode !== 200) throw refusedBy(VENUE_TAPE, text2.slice(0, 500));
  let body;
  try {
    body = JSON.parse(text2);
  } catch {
    throw refusedBy(VENUE_TAPE, "an answer that is not JSON");
  }
  const parsed = VenueAnswer.safeParse(body);
  if (!parsed.success) throw refusedBy(VENUE_TAPE, `not candles: ${parsed.error.issues[0]?.message ?? ""}`);
  return parsed.data.candles;
}
var VenueTape = class {
  constructor(url, timeoutMs = 5e3) {
    this.url = url;
    this.timeoutMs = timeoutMs;
  }
  url;
  timeoutMs;
  source = "venue";
  refusal() {
    return null;
  }
  async candles(market, tf, from, to) {
    const target = `${this.url.replace(/\/$/, "")}/candles/${market}/${tf}?from=${from}&to=${to}`;
    let why = "";
    for (let i = 0; i <= BACKOFF_MS.length; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, BACKOFF_MS[i - 1]));
      const got = await attempt(target, this.timeoutMs);
      if (Array.isArray(got)) return got;
      why = got.retry;
    }
    throw didNotAnswer(VENUE_TAPE, why);
  }
};

// upstream/tape/tape.ts
var VENUE_RETENTION_S = 7 * 86400;
var FINER = { "15s": [], "1m": ["15s"], "5m": ["1m", "15s"], "1h": ["1m", "15s"] };
function vouchedBy(closed, len, from, now) {
  if (closed.length === 0) return null;
  return { from: from >= now - VENUE_RETENTION_S ? from : closed[0][0], to: closed[closed.length - 1][0] + len };
}
var knownWhole = (market, tf, from, to) => (w) => coverage({ market, tf, from, to, times: w.bars.t, held: w.held }).unmeasured.bars === 0;
var Tape = class {
  constructor(archive, venue, clock2) {
    this.archive = archive;
    this.venue = venue;
    this.clock = clock2;
  }
  archive;
  venue;
  clock;
  /**
   * Rows of one timeframe and the history held around them, from the archive, or from the venue (its closed bars,
   * kept as they arrive). What the venue answers is read back from the archive unless `fresh`, so a kept bar never
   * changes under a later answer; a bar still forming is never served, fresh or not.
   */
  async rows(market, tf, from, to, source2) {
    if (source2 === "archive") return this.archive.read(market, tf, from, to);
    const sent = await this.venue.candles(market, tf, from, to);
    const now = this.clock() / 1e3;
    const len = TIMEFRAME_SECONDS[tf];
    const closed = sent.filter((r) => r[0] + len <= now);
    const vouched = vouchedBy(closed, len, from, now);
    await this.archive.keep(market, tf, closed, vouched);
    return source2 === "fresh" ? { rows: closed, held: vouched ? [vouched] : [], sample: [] } : this.archive.read(market, tf, from, to);
  }
  /**
   * The timeframe asked for, or the first finer one the source has (the archive) or serves (the venue), built into
   * whole bars: a bar the source's history stops inside has not closed as far as anyone here knows, so it is left out.
   */
  async gather(market, tf, from, to, source2) {
    const len = TIMEFRAME_SECONDS[tf];
    for (const have of [tf, ...FINER[tf]]) {
      const got = await this.rows(market, have, from, to, source2).catch((e) => e instanceof TimeframeNotServed ? null : Promise.reject(e));
      if (got === null || source2 === "archive" && got.rows.length === 0 && !got.held.some((s) => s.to > from && s.from < to)) continue;
      const sample = got.sample.some((s) => s.to > from && s.from < to);
      if (have === tf) return { bars: barsFromTuples(got.rows), held: got.held, sample };
      const built2 = wholeBuckets(resample(barsFromTuples(got.rows), TIMEFRAME_SECONDS[have], len), len, from, got.held);
      return { bars: built2.bars, held: got.held, sample, built: { tf: have, sources: built2.sources, perBar: built2.perBar } };
    }
    return { bars: barsFromTuples([]), held: [], sample: false };
  }
  /**
   * The bars of [from, to) as of `to`: those closed by it (a `to` inside a bar stops at that bar's open, closedEnd),
   * so no answer shows a price printed after `to`. `fresh` (a replay session) asks the venue and never answers from the archive.
   * `wholeFromArchive` decides whether the archive's bars are the whole past window (knownWhole, as a rule).
   * With no venue (or one that never serves the market: a CME future on a crypto exchange) the archive answers
   * alone; it is 503 (or the venue's refusal of the market) only when it knows nothing of a window where the calendar
   * expects bars (a window of closed market is answered: nothing was expected).
   */
  async window(market, tf, from, asOf, fresh, wholeFromArchive) {
    const to = closedEnd(asOf, TIMEFRAME_SECONDS[tf]);
    if (to <= from) return { bars: barsFromTuples([]), held: [], source: "archive" };
    const refused3 = this.refusal(market);
    const venue = refused3 ? null : this.venue;
    if (!fresh) {
      const { sample: sample2, ...got2 } = await this.gather(market, tf, from, to, "archive");
      const w = { ...got2, source: sample2 ? "sample" : "archive" };
      if (wholeFromArchive(w)) return w;
      if (!venue) {
        const knows = w.held.some((s) => s.to > from && s.from < to);
        if (!knows && expectedBars(market, TIMEFRAME_SECONDS[tf], from, to).length > 0) {
          throw refused3 ?? notConfigured("the venue tape", "DECK_TAPE_URL (or import bars with npm run tape -- import)");
        }
        return w;
      }
    }
    if (!venue) throw refused3 ?? notConfigured("the venue tape", "DECK_TAPE_URL");
    const { sample, ...got } = await this.gather(market, tf, from, to, fresh ? "fresh" : "venue");
    return { ...got, source: sample ? "sample" : venue.source };
  }
  /** Why the configured venue can never serve a market, as the refusal to answer; null when it may (or none is configured). */
  refusal(market) {
    return this.venue?.refusal(market) ?? null;
  }
  /** Where bars the archive lacks are asked: the venue's source name, or null when there is none. */
  get venueSource() {
    return this.venue?.source ?? null;
  }
  /** Whether a venue is configured that serves the market (its latest bars can be asked for). */
  asksVenue(market) {
    return this.venue !== null && this.refusal(market) === null;
  }
};

// services/tape/held.ts
var HeldListing = z20.object({
  market: z20.enum(MARKETS),
  tf: z20.enum(TIMEFRAMES),
  bars: z20.number().int().describe("bars the archive keeps"),
  windows: z20.array(
    z20.object({
      from: z20.number().int().describe("unix seconds"),
      to: z20.number().int().describe("unix seconds, exclusive"),
      source: z20.enum(ORIGINS).describe("who vouched for it: sample (shipped with the deck), import (npm run tape -- import) or venue")
    })
  ).describe("the stretches of history held: an expected bar absent inside one is known absent")
});
var Warnings = z20.array(z20.object({ code: z20.literal("market_not_held"), message: z20.string() })).optional().describe("present when the rule's market cannot be rehearsed here: no bars held and no venue that serves it");
var sources = (tf) => [tf, ...FINER[tf]];
function heldWords(held) {
  const byMarket = /* @__PURE__ */ new Map();
  for (const h of held) byMarket.set(h.market, [...byMarket.get(h.market) ?? [], h.tf]);
  return byMarket.size === 0 ? "nothing" : [...byMarket].map(([m, tfs]) => `${m} ${tfs.join(", ")}`).join("; ");
}
async function notHeld(ctx, market, tf) {
  if (ctx.upstreams.tape.asksVenue(market)) return null;
  const held = await ctx.store.archive.held();
  if (held.some((h) => h.market === market && sources(tf).includes(h.tf))) return null;
  const venue = ctx.config.tapeUrl ? `its venue (${ctx.upstreams.tape.venueSource}) does not serve ${market}` : "no venue is configured (DECK_TAPE_URL)";
  return `the tape holds no ${tf} bars of ${market}, nor finer ones to build them from, and ${venue}: it holds ${heldWords(held)} (GET /catalogue lists the windows)`;
}
async function tapeWarnings(ctx, market, tf) {
  const why = market && tf ? await notHeld(ctx, market, tf) : null;
  return why ? { warnings: [{ code: "market_not_held", message: `a rehearsal of this rule would be refused: ${why}` }] } : {};
}
async function refuseNotHeld(ctx, market, tf) {
  const why = await notHeld(ctx, market, tf);
  if (why) throw badInput([{ field: "market", message: why }]);
}
var minute = (t) => new Date(t * 1e3).toISOString().slice(0, 16).replace("T", " ");
async function refuseOutsideHeld(ctx, market, tf, window) {
  const held = (await ctx.store.archive.held()).filter((h) => h.market === market && sources(tf).includes(h.tf));
  const words2 = held.map((h) => `${h.tf} ${h.windows.map((w) => `${minute(w.from)} to ${minute(w.to)} (${w.source})`).join(", ")}`).join("; ");
  throw new DeckError(422, "bad_window", `the tape holds no ${market} bars in the window ${minute(window.from)} to ${minute(window.to)} UTC and no venue is configured (DECK_TAPE_URL) to ask: it holds ${market} ${words2 || "nothing"}`, {
    problems: [{ field: "to", message: "the window is outside what the tape holds" }],
    window,
    held
  });
}

// services/tape/candle-window.ts
import { z as z23 } from "zod";

// services/meter/spend.ts
import { z as z21 } from "zod";

// services/meter/prices.ts
function priceEntry(plans2, action, field = "action") {
  const entry = plans2.prices.find((p) => p.action === action);
  if (!entry) throw badInput([{ field, message: `unknown action; one of ${plans2.prices.map((p) => p.action).join(", ")}` }]);
  return entry;
}
var unitsOf = (entry, bars = 0) => entry.units + Math.ceil((entry.per_1000_bars ?? 0) * bars / 1e3);
var unitsFor = (plans2, action, bars = 0) => unitsOf(priceEntry(plans2, action), bars);

// services/meter/spend.ts
var Recorded = z21.object({ action: z21.string(), units: z21.number(), bars: z21.number().int().nullable().describe("bars stepped over, for bar-priced actions") });
async function spendEntry(ctx, entry, bars) {
  const units = unitsOf(entry, bars);
  await ctx.store.spend.record({ principal_id: ctx.principal.id, action: entry.action, units, ...bars !== void 0 ? { bars } : {} }, ctx.clock());
  return { action: entry.action, units, bars: bars ?? null };
}
async function recordSpend(ctx, action, bars) {
  const entry = ctx.offer.plans.prices.find((p) => p.action === action);
  return entry ? spendEntry(ctx, entry, bars) : null;
}

// services/tape/candles-schema.ts
import { z as z22 } from "zod";
var Candle = z22.object({ t: z22.number().int().describe("open time, unix seconds"), o: z22.number(), h: z22.number(), l: z22.number(), c: z22.number(), v: z22.number() });
var Span = z22.object({ from: z22.number().int(), to: z22.number().int() });
var Runs3 = z22.object({ spans: z22.array(Span), bars: z22.number().int() });
var Coverage = z22.object({
  market: z22.enum(MARKETS),
  tf: z22.enum(TIMEFRAMES),
  from: z22.number().int(),
  to: z22.number().int(),
  measured: z22.boolean().describe("false when the source held no history anywhere in the window"),
  bars: z22.number().int().describe("bars served"),
  expected: z22.number().int().describe("bars the calendar expects"),
  closed: z22.object({ spans: z22.array(Span.extend({ why: z22.enum(["weekend", "daily_break"]) })), seconds: z22.number().int() }).describe("the market's halts in the window"),
  missing: Runs3.describe("expected bars absent where the source held history"),
  unmeasured: Runs3.describe("expected bars where the source held no history"),
  unexpected: z22.number().int().describe("bars served that the calendar does not expect"),
  built_from: z22.object({ tf: z22.enum(TIMEFRAMES), partial: z22.number().int() }).nullable().describe("when built from finer bars: that timeframe and the partial bars"),
  complete: z22.boolean()
});
var ServedCoverage = Coverage.extend({
  source: z22.union([z22.enum(["venue", "archive", "sample"]), z22.templateLiteral(["ccxt:", z22.string()])]).describe("venue, archive or sample; ccxt:<exchange> when the venue is an exchange through ccxt"),
  sealed: z22.boolean(),
  left_out_in_halts: z22.number().int().describe("bars the venue sent inside a halt, left out")
});

// services/tape/served.ts
var KEY = Buffer.from('"coverage":');
function coverageIn(bytes) {
  const at = bytes.lastIndexOf(KEY);
  if (at < 0) throw new Error("a candle answer without its coverage");
  return JSON.parse(bytes.subarray(at + KEY.length, bytes.length - 1).toString("utf8"));
}

// services/tape/columns.ts
var known = /* @__PURE__ */ new WeakMap();
function candleColumns(sealed) {
  let bars = known.get(sealed);
  if (!bars) {
    bars = barsFromRows(JSON.parse(sealed.toString("utf8")).candles);
    known.set(sealed, bars);
  }
  return bars;
}
var knowColumns = (sealed, bars) => void known.set(sealed, bars);

// services/tape/candle-window.ts
var MAX_BARS = 2e4;
var TapeRequest = z23.object({
  market: z23.enum(MARKETS),
  tf: z23.enum(TIMEFRAMES),
  from: unixTime.describe("window start: unix seconds or ISO-8601 UTC"),
  to: unixTime.describe("window end (exclusive): unix seconds or ISO-8601 UTC, not in the future: a bar is served once it has closed by to"),
  session: z23.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "1 to 64 of A-Z a-z 0-9 _ -").optional().describe("a replay session id: bypasses every cache")
}).strict();
async function candleWindow(ctx, { market, tf, from, to, session }) {
  const now = Math.floor(ctx.clock() / 1e3);
  const len = TIMEFRAME_SECONDS[tf];
  if (from >= to) throw badInput([{ field: "from", message: "must be before to" }]);
  if (to > now) throw badInput([{ field: "to", message: "the tape serves past windows only: to must not be in the future" }]);
  if ((to - from) / len > MAX_BARS) throw badInput([{ field: "to", message: `at most ${MAX_BARS} ${tf} bars per answer` }]);
  const key = `${market}/${tf}/${from}-${to}`;
  if (!session) {
    const sealed = await ctx.store.seals.get(key);
    const kept = sealed ? coverageIn(sealed) : null;
    if (sealed && kept && sealHolds(kept)) return { bytes: () => sealed, bars: () => candleColumns(sealed), coverage: kept };
    if (sealed) await ctx.store.seals.drop(key);
  }
  const w = await ctx.upstreams.tape.window(market, tf, from, to, session !== void 0, knownWhole(market, tf, from, to));
  const open3 = barsWhere(w.bars, (t) => isOpen(market, t));
  const measured = coverage({ market, tf, from, to, times: open3.t, held: w.held, ...w.built ? { built: w.built } : {} });
  const seal = !session && isFinal(measured);
  const served = { ...measured, source: w.source, sealed: seal, left_out_in_halts: w.bars.length - open3.length };
  let bytes = null;
  const made = () => {
    const answer3 = { ok: true, market, tf, from, to, candles: barsToRows(open3), coverage: served };
    return bytes ??= Buffer.from(JSON.stringify(answer3));
  };
  if (!seal) return { bytes: made, bars: () => open3, coverage: served };
  const sealedBytes = await ctx.store.seals.seal(key, made());
  if (sealedBytes === bytes) knowColumns(sealedBytes, open3);
  return { bytes: () => sealedBytes, bars: () => candleColumns(sealedBytes), coverage: sealedBytes === bytes ? served : coverageIn(sealedBytes) };
}
var TapeAnswer = answer({
  market: z23.enum(MARKETS),
  tf: z23.enum(TIMEFRAMES),
  from: z23.number().int(),
  to: z23.number().int(),
  candles: z23.array(Candle),
  coverage: ServedCoverage.describe("what was measured, of the whole window"),
  summary: z23.object({
    bars: z23.number().int(),
    shown: z23.number().int(),
    open: z23.number().optional(),
    high: z23.number().optional(),
    low: z23.number().optional(),
    close: z23.number().optional(),
    volume: z23.number().optional()
  }).optional().describe("with limit under the whole: the whole window, summed up (no prices when it has no bars)"),
  more: z23.object({ bars: z23.number().int(), from: z23.number().int().describe("ask again from here") }).nullable().optional().describe("with limit: where the rest begins; null when nothing is left")
});
var MCP_BARS = 500;
function meterRead(ctx, bars) {
  recordSpend(ctx, "tape", bars).catch((error) => ctx.log.error("meter_not_recorded", { action: "tape", bars, why: error.message }));
}
async function meteredCandles(ctx, request) {
  const window = await candleWindow(ctx, request);
  meterRead(ctx, window.coverage.bars);
  return window;
}

// services/studio/window.ts
var DEFAULT_HOURS = 168;
var MAX_HOURS = 744;
var Hours = int.refine((h) => h >= 1 && h <= MAX_HOURS, `1 to ${MAX_HOURS} hours`).optional().describe(`hours of tape the window holds, counted back from its end; default ${DEFAULT_HOURS}, at most ${MAX_HOURS}`);
var PROBES_S = [3600, 4 * 86400];
var buildableFrom = (tf) => TIMEFRAMES.filter((t) => TIMEFRAME_SECONDS[t] <= TIMEFRAME_SECONDS[tf] && TIMEFRAME_SECONDS[tf] % TIMEFRAME_SECONDS[t] === 0);
async function newestClose(ctx, market, tf) {
  let close = null;
  for (const t of buildableFrom(tf)) {
    const row2 = await ctx.store.archive.newest(market, t);
    if (row2) close = Math.max(close ?? -Infinity, row2[0] + TIMEFRAME_SECONDS[t]);
  }
  return close;
}
async function windowEnd(ctx, market, tf, to) {
  const len = TIMEFRAME_SECONDS[tf];
  const now = Math.floor(ctx.clock() / 1e3);
  await refuseNotHeld(ctx, market, tf);
  if (to !== void 0) {
    if (to > now) throw badInput([{ field: "to", message: "the tape holds the past only: to must not be in the future" }]);
    return Math.floor(to / len) * len;
  }
  if (ctx.upstreams.tape.asksVenue(market)) {
    for (const span of PROBES_S) {
      const w = await ctx.upstreams.tape.window(market, tf, now - span, now, true, () => false);
      if (w.bars.length > 0) break;
    }
  }
  const close = await newestClose(ctx, market, tf);
  if (close === null) {
    throw ctx.upstreams.tape.refusal(market) ?? badInput([{ field: "market", message: `the tape holds no ${tf} bars of ${market}, nor finer bars to build them from` }]);
  }
  return Math.floor(close / len) * len;
}
async function windowBars(ctx, w) {
  const len = TIMEFRAME_SECONDS[w.tf];
  const from = w.to - w.hours * 3600;
  const start = warmStart(w.market, from, w.warmUpBars * len, len);
  const parts = [];
  for (let a = start; a < w.to; a += MAX_BARS * len) {
    const b = Math.min(w.to, a + MAX_BARS * len);
    const got = await candleWindow(ctx, { market: w.market, tf: w.tf, from: a, to: b, ...w.session ? { session: w.session } : {} }).catch(async (e) => {
      if (e instanceof DeckError && e.code === "upstream_not_configured" && !ctx.upstreams.tape.venueSource) return refuseOutsideHeld(ctx, w.market, w.tf, { from, to: w.to });
      throw e;
    });
    parts.push(got.bars());
  }
  const bars = concatBars(parts, true);
  const trading = bars.length - firstAtOrAfter(bars.t, from);
  if (trading < 2) {
    throw new DeckError(422, "bad_window", `the tape holds ${trading} ${w.tf} bar(s) of ${w.market} in the window; a rehearsal needs two or more`, {
      problems: [{ field: "hours", message: "the window holds fewer than two bars" }],
      window: { from, to: w.to }
    });
  }
  return { bars, from, to: w.to };
}

// tools/agent/run-start.ts
var MOST_BARS = 744 * 60;
var LIVE_BUDGET = 7 * 24 * 60;
var runStart = defineTool({
  name: "run_start",
  title: "Run a model",
  description: `Runs one of your models against its decide() endpoint. replay: over a past window of the tape (hours, default ${DEFAULT_HOURS}, back from to, default the newest bar the tape holds), the deck steps bar by bar, POSTs each closed bar and the model's position to decide(), and routes each typed-decision.v1 answer into a book of the run's own, marked replay (a replay tests the model; it is never its track record). live: forward on the live tape, each bar once it closes, into the model's live book. Each bar waits timeout_ms for decide() (default 2000), tried again up to retries times on a timeout, a network failure or a 5xx; the run stops after budget_bars bars. A decide() that misbehaves stops the run with the reason; its fills stay. Progress: GET /agent/runs/{id}.`,
  input: z24.object({
    model: ModelName,
    mode: z24.enum(["replay", "live"]),
    hours: Hours,
    to: unixTime.optional().describe("a replay window's end, unix seconds or ISO-8601 UTC, not in the future (default: the newest bar the tape holds)"),
    timeout_ms: int.refine((n) => n >= 100 && n <= 1e4, "100 to 10000").optional().describe("how long decide() may take for one bar (default 2000)"),
    retries: int.refine((n) => n >= 0 && n <= 3, "0 to 3").optional().describe("tries again after a timeout, a network failure or a 5xx (default 1)"),
    budget_bars: int.refine((n) => n >= 1 && n <= MOST_BARS, `1 to ${MOST_BARS}`).optional().describe(`the most bars the run steps (a replay: its window; live: ${LIVE_BUDGET})`)
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: RunAnswer,
  access: "session",
  toolset: TOOLSETS.agent,
  rest: { method: "POST", path: "/agent/runs", status: 202, errors: [404, 409, 429, 502, 503] },
  async run(ctx, input) {
    const model = myModel(ctx, input.model);
    const common = { mode: input.mode, timeout_ms: input.timeout_ms ?? 2e3, retries: input.retries ?? 1 };
    if (input.mode === "live") {
      const stray = ["hours", "to"].filter((k) => input[k] !== void 0);
      if (stray.length) throw badInput(stray.map((field) => ({ field, message: "a live run steps forward from now: it takes no window" })));
      const from = Math.floor(ctx.clock() / 1e3 / TIMEFRAME_SECONDS[model.timeframe]) * TIMEFRAME_SECONDS[model.timeframe];
      const run2 = await ctx.rail.start(ctx, model, { ...common, window: { from, to: null }, budget_bars: input.budget_bars ?? LIVE_BUDGET, bars_total: null }, null);
      return { ok: true, run: run2 };
    }
    const to = await windowEnd(ctx, model.market, model.timeframe, input.to);
    const w = await windowBars(ctx, { market: model.market, tf: model.timeframe, to, hours: input.hours ?? DEFAULT_HOURS, warmUpBars: 0 });
    const rows = barsToRows(w.bars);
    const run = await ctx.rail.start(ctx, model, { ...common, window: { from: w.from, to: w.to }, budget_bars: input.budget_bars ?? rows.length, bars_total: rows.length }, rows);
    return { ok: true, run };
  }
});

// tools/agent/run-stop.ts
import { z as z25 } from "zod";
var runStop = defineTool({
  name: "run_stop",
  title: "Stop a run",
  description: "Stops one of your runs under way; its fills so far stay. A run already ended is answered as it ended.",
  input: z25.object({ id: RunId }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: RunAnswer,
  access: "session",
  toolset: TOOLSETS.agent,
  rest: { method: "POST", path: "/agent/runs/:id/stop", body: "none", errors: [404] },
  async run(ctx, { id }) {
    const run = await ctx.rail.stop(ctx.principal.id, id);
    if (!run) throw new DeckError(404, "run_not_found", `you have no run ${id}`, { field: "id" });
    return { ok: true, run };
  }
});

// tools/agent/runs.ts
import { z as z26 } from "zod";
var runRead = defineTool({
  name: "run_read",
  title: "A run",
  description: "One of your runs as it stands, while it runs too: state (running, done, stopped), bars done of bars_total or the budget, the last bar, decisions by action, orders, fills, retries, time spent waiting on decide(), and how it ended (the reason a misbehaving decide() stopped it, with the fields a refused answer named).",
  input: z26.object({ id: RunId }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: RunAnswer,
  access: "session",
  toolset: TOOLSETS.agent,
  rest: { method: "GET", path: "/agent/runs/:id", errors: [404] },
  async run(ctx, { id }) {
    const run = ctx.rail.view(ctx.principal.id, id);
    if (!run) throw new DeckError(404, "run_not_found", `you have no run ${id}`, { field: "id" });
    return { ok: true, run };
  }
});
var runsList = defineTool({
  name: "runs",
  title: "Your runs",
  description: "Your runs, newest first (of one model when named), each as GET /agent/runs/{id} shows it.",
  input: z26.object({ model: ModelName.optional() }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: RunsAnswer,
  access: "session",
  toolset: TOOLSETS.agent,
  rest: { method: "GET", path: "/agent/runs" },
  async run(ctx, { model }) {
    const p = ctx.principal.id;
    const runs = ctx.store.runs.list(p).filter((r) => !model || r.model === model).map((r) => ctx.rail.view(p, r.id)).reverse();
    return { ok: true, runs };
  }
});

// tools/book/book-caps.ts
import { z as z30 } from "zod";

// services/book/answers.ts
import { z as z29 } from "zod";

// services/book/paging.ts
import { z as z27 } from "zod";
var MAX_PAGE = 500;
var DEFAULT_PAGE = 100;
var Paging = {
  offset: int.refine((n) => n >= 0, "zero or more").optional().describe("entries to skip, oldest first (default 0)"),
  limit: int.refine((n) => n >= 1 && n <= MAX_PAGE, `1 to ${MAX_PAGE}`).optional().describe(`entries to answer (default ${DEFAULT_PAGE}, at most ${MAX_PAGE})`)
};
var PageOf = (item) => z27.strictObject({
  total: z27.number().int(),
  offset: z27.number().int(),
  limit: z27.number().int(),
  next_offset: z27.number().int().nullable().describe("where the next page starts; null on the last"),
  items: z27.array(item)
});
function pageOf(all, p, view) {
  const offset = p.offset ?? 0;
  const limit = p.limit ?? DEFAULT_PAGE;
  const slice = all.slice(offset, offset + limit);
  return {
    total: all.length,
    offset,
    limit,
    next_offset: offset + limit < all.length ? offset + limit : null,
    items: view ? slice.map(view) : slice
  };
}

// services/book/views.ts
import { z as z28 } from "zod";
var Mode = z28.enum(MODES).describe("live: made forward on the tape as it closes; replay: a test of a model over a past window");
var Whose = {
  model: z28.string().nullable().describe("the model whose book it is on; null on your own book"),
  run: z28.string().nullable().describe("the agent run that placed it; null otherwise"),
  mode: Mode
};
var FillView = z28.strictObject({
  id: z28.string(),
  order_id: z28.string().nullable().describe("the order it filled; null for a bracket's own fill"),
  ...Whose,
  market: z28.enum(MARKETS),
  side: z28.enum(SIDES),
  size: z28.number(),
  t: UnixS.describe("the open of the bar it filled in"),
  price: z28.number().describe("after slippage, on the tick"),
  fee: z28.number().describe("the fee of one side for one unit, in price units"),
  why: z28.enum(FILL_WHY).describe("the order's type, or the bracket (stop, target) that filled"),
  stop: z28.number().nullable(),
  target: z28.number().nullable()
});
var OrderView = z28.strictObject({
  id: z28.string(),
  ...Whose,
  source: z28.enum(["order", "decision"]).describe("placed as an order, or a typed decision"),
  market: z28.enum(MARKETS),
  side: z28.enum(SIDES),
  type: z28.enum(ORDER_TYPES),
  size: z28.number(),
  price: z28.number().nullable().describe("the limit; null for a market order"),
  stop: z28.number().nullable(),
  target: z28.number().nullable(),
  why: z28.string().nullable().describe("a typed decision's why"),
  placed_at: UnixS,
  status: z28.enum(ORDER_STATUSES),
  fill: FillView.nullable()
});
var PositionView = z28.strictObject({
  market: z28.enum(MARKETS),
  side: z28.enum(["long", "short", "flat"]),
  size: z28.number(),
  entry: z28.number().nullable().describe("the average entry of what is open; null when flat"),
  stop: z28.number().nullable(),
  target: z28.number().nullable(),
  opened_t: UnixS.nullable().describe("when the oldest open lot filled")
});
var BookView = z28.strictObject(Whose);
function orderView(venue, o) {
  const status = venue.status(o.id);
  return {
    id: o.id,
    model: o.model,
    run: o.run,
    mode: o.mode,
    source: o.source,
    market: o.market,
    side: o.side,
    type: o.type,
    size: o.size,
    price: o.price,
    stop: o.stop,
    target: o.target,
    why: o.why,
    placed_at: o.placed_at,
    status,
    fill: status === "filled" ? fillView(venue.fillOf(o.id)) : null
  };
}
var fillView = (f) => ({
  id: f.id,
  order_id: f.order_id,
  model: f.model,
  run: f.run,
  mode: f.mode,
  market: f.market,
  side: f.side,
  size: f.size,
  t: f.t,
  price: f.price,
  fee: f.fee,
  why: f.why,
  stop: f.stop,
  target: f.target
});
var positionView = (p) => ({
  market: p.market,
  side: p.dir > 0 ? "long" : p.dir < 0 ? "short" : "flat",
  size: p.size,
  entry: averageEntry(p),
  stop: p.stop,
  target: p.target,
  opened_t: p.lots[0]?.t ?? null
});

// services/book/answers.ts
var OrderAnswer = answer({ order: OrderView });
var OrdersAnswer = answer({ book: BookView, orders: PageOf(OrderView) });
var FillsAnswer = answer({ book: BookView, fills: PageOf(FillView) });
var PositionsAnswer = answer({ book: BookView, positions: z29.array(PositionView).describe("the open positions, one per market") });
var CapsAnswer = answer({
  caps: CapsSchema.describe("your caps as set (a field left out is the house limit)"),
  house: z29.strictObject({
    markets: keyed(MARKETS, z29.strictObject({ max_order_size: z29.number(), max_position: z29.number() })),
    max_notional: z29.number().describe("US dollars")
  }),
  limits: keyed(MARKETS, LimitsSchema).describe("the limits your caps make on each market, inside the house limits")
});

// tools/book/book-caps.ts
var capsView = (ctx) => {
  const caps = ctx.store.bookCaps.get(ctx.principal.id);
  return {
    ok: true,
    caps,
    house: { markets: HOUSE_LIMITS, max_notional: HOUSE_MAX_NOTIONAL_USD },
    limits: Object.fromEntries(MARKETS.map((m) => [m, limitsFor(caps, m)]))
  };
};
var capsRead = defineTool({
  name: "book_caps",
  title: "Your caps",
  description: "The caps on your book (markets, max_order_size, max_notional in dollars, max_position, allow_short), the house's limits they sit inside, and the limits they make per market. A model's caps sit inside yours.",
  input: z30.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: CapsAnswer,
  access: "session",
  toolset: TOOLSETS.book,
  rest: { method: "GET", path: "/book/caps" },
  async run(ctx) {
    return capsView(ctx);
  }
});
var capsSet = defineTool({
  name: "book_caps_set",
  title: "Set your caps",
  description: "Sets the caps on your book (they replace the ones set before; a field left out is the house's limit). They only ever tighten the house's limits. Orders already working are not touched.",
  input: z30.object({ caps: CapsSchema }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: CapsAnswer,
  access: "session",
  toolset: TOOLSETS.book,
  rest: { method: "POST", path: "/book/caps" },
  async run(ctx, { caps }) {
    await ctx.store.bookCaps.set(ctx.principal.id, caps);
    return capsView(ctx);
  }
});

// tools/book/fills.ts
import { z as z31 } from "zod";

// services/book/history.ts
async function settled(ctx, ref) {
  if (ref.mode !== "live") return;
  const venue = ctx.upstreams.venue;
  const markets = /* @__PURE__ */ new Set([...venue.orders(ref.key).map((o) => o.market), ...venue.fills(ref.key).map((f) => f.market)]);
  const now = Math.floor(ctx.clock() / 1e3);
  for (const m of markets) await venue.settle(ref, m, now);
}

// services/book/query.ts
var BookQuery = {
  model: ModelName.optional().describe("one of your models: its live book (without run)"),
  run: RunId.optional().describe("one of your runs: a replay's own book, or what a live run placed")
};

// tools/book/fills.ts
var fillsList = defineTool({
  name: "fills",
  title: "Your fills",
  description: "The fills of your book (or of a model's, or of a run's), oldest first and paged: where each order and each stop or target filled, at which bar, with its fee. Every fill is an entry of the deck's hash-chained fills ledger. A live book is first brought up to now from the tape. Read-only.",
  input: z31.object({ ...BookQuery, ...Paging }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: FillsAnswer,
  access: "session",
  toolset: TOOLSETS.book,
  rest: { method: "GET", path: "/book/fills", errors: [404, 502, 503] },
  async run(ctx, input) {
    const { ref } = bookOf(ctx, input);
    await settled(ctx, ref);
    const all = ctx.upstreams.venue.fills(ref.key).filter((f) => !input.run || f.run === input.run);
    return { ok: true, book: { model: ref.model, run: input.run ?? null, mode: ref.mode }, fills: pageOf(all, input, fillView) };
  }
});

// tools/book/order-cancel.ts
import { z as z32 } from "zod";
var orderCancel = defineTool({
  name: "order_cancel",
  title: "Cancel an order",
  description: "Cancels one of your working orders (yours or your models'). The book is first brought up to now from the tape, so an order a closed bar already filled is filled: 409 order_filled, with the fill. A cancelled order answers 409 order_cancelled; an order that is not yours, 404.",
  input: z32.object({ id: z32.string().regex(/^o_[0-9a-f]{16}$/, "an order id as the book answered it") }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  output: OrderAnswer,
  access: "session",
  toolset: TOOLSETS.book,
  rest: { method: "DELETE", path: "/book/orders/:id", errors: [404, 409, 502, 503] },
  async run(ctx, { id }) {
    const venue = ctx.upstreams.venue;
    const order = ctx.store.book.order(ctx.principal.id, id);
    if (!order) throw new DeckError(404, "order_not_found", "no such order of yours", { field: "id" });
    if (order.mode === "replay") throw new DeckError(409, "order_replayed", "an order of a replay belongs to a past window: it cannot be cancelled", { order: orderView(venue, order) });
    const was = await venue.cancel(liveBook(ctx, order.model, order.run), order, ctx.clock());
    if (was !== "working") {
      throw new DeckError(409, `order_${was}`, was === "filled" ? "the order has filled: there is nothing to cancel" : "the order is already cancelled", { order: orderView(venue, order) });
    }
    return { ok: true, order: orderView(venue, order) };
  }
});

// tools/book/order-place.ts
import { z as z33 } from "zod";

// services/book/place.ts
import { randomBytes as randomBytes2 } from "node:crypto";
var WEEK_S = 7 * 86400;
function marketClosed(spec, at, field) {
  const halt = closedSpans(spec.market, at, at + WEEK_S)[0];
  return new DeckError(409, "market_closed", `${spec.market} is closed by the CME calendar (${halt?.why.replace("_", " ") ?? "halt"}); it opens again at ${new Date((halt?.to ?? at) * 1e3).toISOString()}`, {
    problems: [{ field, message: "closed by the CME calendar" }],
    reopens_at: halt?.to ?? null
  });
}
async function placeOrder(ctx, book, spec, caps, how) {
  const name = how.field ?? ((n) => n);
  const { market, side, size } = spec;
  const problems = [];
  if (!isOnStep(market, size)) problems.push({ field: name("size"), message: `not on ${market}'s size step` });
  for (const key of ["price", "stop", "target"]) {
    const v = spec[key];
    if (v !== null && !isOnTick(market, v)) problems.push({ field: name(key), message: `not on ${market}'s tick of ${MARKET_SPECS[market].tick}` });
  }
  if (spec.type === "limit" && spec.price === null) problems.push({ field: name("price"), message: "a limit order needs its price" });
  if (spec.type === "market" && spec.price !== null) problems.push({ field: name("price"), message: "a market order takes no price" });
  if (problems.length) throw badInput(problems);
  if (!isOpen(market, how.at)) throw marketClosed(spec, how.at, name("market"));
  const limits = limitsFor(caps, market);
  if (!limits.traded) throw overCaps(breaches(limits, market, side, 0, 0, { long: -Infinity, short: -Infinity }), name);
  const reference = how.reference ?? spec.price ?? (await ctx.upstreams.venue.lastBar(market, how.at))?.c;
  if (reference === void 0) throw badInput([{ field: name("market"), message: `the live tape has no ${market} bar of the last four days to price the order against` }]);
  const price3 = spec.price ?? reference;
  const d = dirOf(side);
  if (spec.stop !== null && d * (price3 - spec.stop) <= 0) problems.push({ field: name("stop"), message: `a ${side} order's stop must be ${d > 0 ? "below" : "above"} its price (${price3})` });
  if (spec.target !== null && d * (spec.target - price3) <= 0) problems.push({ field: name("target"), message: `a ${side} order's target must be ${d > 0 ? "above" : "below"} its price (${price3})` });
  if (problems.length) throw badInput(problems);
  const order = {
    ...spec,
    id: `o_${randomBytes2(8).toString("hex")}`,
    placed_at: how.at,
    book: book.key,
    principal: book.principal,
    model: book.model,
    run: book.run,
    mode: book.mode,
    source: how.source,
    why: how.why
  };
  return ctx.upstreams.venue.place(book, order, (position, working) => {
    how.admit?.(position, working);
    const held = position.dir * position.size;
    if ((spec.stop !== null || spec.target !== null) && held * d < 0) {
      throw badInput([{ field: name(spec.stop !== null ? "stop" : "target"), message: "this order reduces your position: a stop or target belongs to an order that opens or adds" }]);
    }
    const over = breaches(limits, market, side, size, price3, exposureOf(held, working));
    if (over.length) throw overCaps(over, name);
  });
}
function overCaps(over, name) {
  return new DeckError(422, "over_caps", `the order is over your caps: ${over.map((b) => b.message).join("; ")}`, {
    problems: over.map((b) => ({ field: name(b.cap === "markets" ? "market" : b.cap === "allow_short" ? "side" : "size"), message: `${b.cap}: ${b.message}` })),
    caps: over.map((b) => ({ cap: b.cap, limit: b.limit }))
  });
}

// tools/book/order-place.ts
var Price2 = z33.number().finite().positive();
var orderPlace = defineTool({
  name: "order_place",
  title: "Place an order",
  description: "Places a market or limit order on your book, or on one of your models' live books (model, on its market), on NQ, ES, YM, BTC, ETH or SOL: side buy or sell, size in contracts or coins, an optional stop and target kept by the venue for the position it opens. The paper venue fills it from the tape: a market order at the next bar's open, a limit when a later bar trades through it. Refused: a market closed by the CME calendar (409), anything over your caps (422 over_caps).",
  input: z33.object({
    model: ModelName.optional().describe("one of your models: the order goes on that model's live book"),
    market: z33.enum(MARKETS),
    side: z33.enum(SIDES),
    size: z33.number().finite().positive().describe("contracts (NQ, ES, YM) or coins (BTC, ETH, SOL), on the market's size step"),
    type: z33.enum(ORDER_TYPES).optional().describe("market (default) or limit"),
    price: Price2.optional().describe("the limit price (limit orders only), on the tick"),
    stop: Price2.optional().describe("the protective stop of the position the order opens, on the tick"),
    target: Price2.optional().describe("a resting target for it, on the tick")
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: OrderAnswer,
  access: "session",
  toolset: TOOLSETS.book,
  rest: { method: "POST", path: "/book/orders", status: 201, errors: [404, 409, 502, 503] },
  async run(ctx, input) {
    const model = input.model ? myModel(ctx, input.model) : null;
    if (model && model.market !== input.market) throw badInput([{ field: "market", message: `${model.name} trades ${model.market}` }]);
    const spec = {
      market: input.market,
      side: input.side,
      size: input.size,
      type: input.type ?? "market",
      price: input.price ?? null,
      stop: input.stop ?? null,
      target: input.target ?? null
    };
    const at = Math.floor(ctx.clock() / 1e3);
    const order = await placeOrder(ctx, liveBook(ctx, model?.name ?? null), spec, capsOf(ctx, model), { source: "order", why: null, at });
    return { ok: true, order: orderView(ctx.upstreams.venue, order) };
  }
});

// tools/book/orders.ts
import { z as z34 } from "zod";
var ordersList = defineTool({
  name: "orders",
  title: "Your orders",
  description: "The orders of your book (or of a model's, or of a run's), oldest first and paged, each with its status (working, filled, cancelled) and its fill. A live book is first brought up to now from the tape. Read-only.",
  input: z34.object({ ...BookQuery, status: z34.enum(ORDER_STATUSES).optional().describe("only orders in this status"), ...Paging }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: OrdersAnswer,
  access: "session",
  toolset: TOOLSETS.book,
  rest: { method: "GET", path: "/book/orders", errors: [404, 502, 503] },
  async run(ctx, input) {
    const { ref } = bookOf(ctx, input);
    await settled(ctx, ref);
    const venue = ctx.upstreams.venue;
    const all = venue.orders(ref.key).filter((o) => (!input.run || o.run === input.run) && (!input.status || venue.status(o.id) === input.status));
    return { ok: true, book: { model: ref.model, run: input.run ?? null, mode: ref.mode }, orders: pageOf(all, input, (o) => orderView(venue, o)) };
  }
});

// tools/book/positions.ts
import { z as z35 } from "zod";
var positionsList = defineTool({
  name: "positions",
  title: "Your positions",
  description: "The open positions of your book (or of a model's, or of a replay's) per market: side, size, average entry, and the stop and target the venue keeps. A live book is first brought up to now from the tape. Read-only.",
  input: z35.object(BookQuery).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: PositionsAnswer,
  access: "session",
  toolset: TOOLSETS.book,
  rest: { method: "GET", path: "/book/positions", errors: [404, 502, 503] },
  async run(ctx, input) {
    const { ref } = bookOf(ctx, input);
    await settled(ctx, ref);
    const positions = MARKETS.map((m) => ctx.upstreams.venue.position(ref.key, m)).filter((p) => p.dir !== 0);
    return { ok: true, book: { model: ref.model, run: input.run ?? null, mode: ref.mode }, positions: positions.map(positionView) };
  }
});

// tools/book/follow-quote.ts
import { z as z38 } from "zod";

// services/copy/public.ts
import { z as z36 } from "zod";
var PublicModelId = z36.string().regex(/^[a-z0-9_-]{3,32}\/[a-z0-9_-]{3,32}$/, "owner/name, as models lists it");
var listable = (ctx) => ctx.store.models.all().filter(({ model }) => !model.synthetic).map(({ principal, model }) => ({ id: `${model.owner}/${model.name}`, principal, model })).sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
function publicModel(ctx, id) {
  const found = listable(ctx).find((m) => m.id === id);
  if (!found) throw new DeckError(404, "model_not_found", `no model ${id} is listed`, { field: "model" });
  return found;
}
async function settledBook(ctx, m) {
  const ref = liveBookOf(m.principal, m.model.name);
  await ctx.upstreams.venue.settle(ref, m.model.market, Math.floor(ctx.clock() / 1e3));
  return ref;
}
function trackRecord(ctx, m) {
  const fills = ctx.upstreams.venue.fills(liveBookOf(m.principal, m.model.name).key).filter((f) => f.mode === "live");
  return { fills, ...recordOf(fills) };
}

// services/copy/answers.ts
import { z as z37 } from "zod";
var ModelNamed = z37.strictObject({ id: z37.string().describe("owner/name"), market: z37.enum(MARKETS), timeframe: z37.enum(TIMEFRAMES) });
var ModelsAnswer = answer({
  models: PageOf(
    ModelNamed.extend({
      since: UnixS.describe("its first live fill"),
      last_fill_t: UnixS,
      fills: z37.number().int().describe("live fills"),
      open: z37.boolean().describe("whether a position is open"),
      stats: RecordStatsSchema.describe("figures from paired closes of its live fills")
    })
  )
});
var ModelRecordAnswer = answer({
  model: ModelNamed,
  stats: RecordStatsSchema,
  trades: PageOf(PairedTradeSchema).describe("paired closes, oldest first"),
  fills: PageOf(FillView).describe("live fills, oldest first"),
  open: z37.array(PositionView).describe("what is still open")
});
var FollowQuoteAnswer = FollowQuoteSchema.extend({
  ok: z37.literal(true),
  model: ModelNamed,
  basis: z37.union([z37.strictObject({ size: z37.number() }), z37.strictObject({ notional: z37.number() })]).describe("your size, or your dollars, for the model's largest recent order"),
  caps: CapsSchema.describe("your caps, as sent"),
  since: UnixS.describe("the model's orders are read from here"),
  note: z37.string()
});

// tools/book/follow-quote.ts
var DEFAULT_DAYS = 30;
var MOST_ORDERS = 200;
var followQuoteTool = defineTool({
  name: "follow_quote",
  title: "Quote following a model",
  description: `Quotes following a live model at your own size inside your own caps (max_order_size, max_notional in dollars, max_position, markets, allow_short): the model's recent orders (its live fills of the last since_days days, default ${DEFAULT_DAYS}, at most ${MOST_ORDERS}) scaled by one factor, size for the model's largest order or notional dollars for its largest in dollars, on the market's size grid, and every order your caps would have cut, with the cap and the size before and after. A quote of the past at your size, never a forecast. Needs the max tier (premium-99).`,
  input: z38.object({
    model: PublicModelId,
    size: z38.number().finite().positive().optional().describe("your size for the model's largest recent order (contracts or coins)"),
    notional: z38.number().finite().positive().optional().describe("your dollars for the model's largest recent order in dollars"),
    caps: CapsSchema.describe("your own caps"),
    since_days: int.refine((n) => n >= 1 && n <= 90, "1 to 90").optional().describe(`how far back the model's orders are read (default ${DEFAULT_DAYS})`)
  }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: FollowQuoteAnswer,
  access: "session",
  toolset: TOOLSETS.book,
  rest: { method: "POST", path: "/copy/follow-quote", errors: [404, 502, 503] },
  async run(ctx, input) {
    if (input.size === void 0 === (input.notional === void 0)) {
      throw badInput(["size", "notional"].map((field) => ({ field, message: "give exactly one of size and notional" })));
    }
    const m = publicModel(ctx, input.model);
    await settledBook(ctx, m);
    const since = Math.floor(ctx.clock() / 1e3) - (input.since_days ?? DEFAULT_DAYS) * 86400;
    const recent = trackRecord(ctx, m).fills.filter((f) => f.t >= since).slice(-MOST_ORDERS);
    const basis = input.size !== void 0 ? { size: input.size } : { notional: input.notional };
    const quote = followQuote(recent, basis, input.caps);
    return {
      ok: true,
      model: { id: m.id, market: m.model.market, timeframe: m.model.timeframe },
      basis,
      caps: input.caps,
      since,
      ...quote,
      note: "the model's past orders at your size inside your caps; a quote of what was, never a forecast"
    };
  }
});

// tools/book/model-record.ts
import { z as z39 } from "zod";
var modelRecord = defineTool({
  name: "model_record",
  title: "A model's record",
  description: "A live model's past fills and paired trades (each entry with the fill that closed it: side, size, entry and exit, PnL after fees, R when the entry carried a stop), paged oldest first, with the figures models shows recomputed from them and what is still open. The book is first brought up to now from the tape. Only live fills count. A record is the past: it holds no projection of any kind.",
  input: z39.object({ model: PublicModelId, ...Paging }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ModelRecordAnswer,
  access: "session",
  toolset: TOOLSETS.book,
  rest: { method: "GET", path: "/copy/record", errors: [404, 502, 503] },
  async run(ctx, input) {
    const m = publicModel(ctx, input.model);
    await settledBook(ctx, m);
    const record = trackRecord(ctx, m);
    return {
      ok: true,
      model: { id: m.id, market: m.model.market, timeframe: m.model.timeframe },
      stats: record.stats,
      trades: pageOf(record.trades, input),
      fills: pageOf(record.fills, input, fillView),
      open: record.open.map(positionView)
    };
  }
});

// tools/book/models.ts
import { z as z40 } from "zod";
var models = defineTool({
  name: "models",
  title: "Live trading models",
  description: "The live trading models on the deck's book: models whose fills were made forward on the live tape (a replay is a test of a model, never its record), each with its realized PnL, max drawdown, win rate and R from paired closes, as the tape stands now (an entry paired with the fill that closes it). The house's synthetic book actors are never listed. Each record is past fills, never a forecast. Paged, by id.",
  input: z40.object(Paging).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ModelsAnswer,
  access: "session",
  toolset: TOOLSETS.book,
  rest: { method: "GET", path: "/copy/models", errors: [502, 503] },
  async run(ctx, input) {
    const all = listable(ctx);
    for (const m of all) await settledBook(ctx, m);
    const live = all.map((m) => ({ m, record: trackRecord(ctx, m) })).filter(({ record }) => record.fills.length > 0).map(({ m, record }) => ({
      id: m.id,
      market: m.model.market,
      timeframe: m.model.timeframe,
      since: record.fills[0].t,
      last_fill_t: record.fills.at(-1).t,
      fills: record.fills.length,
      open: record.open.length > 0,
      stats: record.stats
    }));
    return { ok: true, models: pageOf(live, input) };
  }
});

// tools/typed/decision-post.ts
import { z as z42 } from "zod";

// services/typed/decision.ts
function readDecision(raw, field) {
  const parsed = TypedDecisionSchema.safeParse(raw);
  if (parsed.success) return { ok: true, decision: parsed.data };
  const problems = parsed.error.issues.flatMap(
    (i) => i.code === "unrecognized_keys" ? i.keys.map((k) => ({ field: field([...i.path, k].join(".")), message: `not a field of ${TYPED_DECISION_VERSION}` })) : [{ field: field(i.path.join(".")), message: i.message }]
  );
  return { ok: false, problems };
}
var countRefused = (ctx, model, problems, prefix = "") => ctx.store.models.refuse(
  ctx.principal.id,
  model.name,
  problems.map((p) => prefix && p.field.startsWith(prefix) ? p.field.slice(prefix.length) : p.field)
);
async function applyDecision(ctx, model, book, d, at, prefix, reference) {
  if (d.action === "hold") return null;
  const venue = ctx.upstreams.venue;
  const conflictOf = (position, working) => {
    const spec2 = orderOfDecision(d, model.market, position, working);
    if (isConflict(spec2)) throw new DeckError(409, spec2.code, spec2.message, { problems: [{ field: `${prefix}${spec2.field}`, message: spec2.message }] });
    return spec2;
  };
  if (book.mode === "live") await venue.settle(book, model.market, at);
  const spec = conflictOf(venue.position(book.key, model.market), venue.working(book.key, model.market).length);
  if (!spec) return null;
  return placeOrder(ctx, book, spec, capsOf(ctx, model), {
    source: "decision",
    why: d.why,
    at,
    ...reference !== void 0 ? { reference } : {},
    // The market is the model's, not the decision's: a closed market names the model.
    field: (name) => name === "market" ? "model" : `${prefix}${name}`,
    admit: (position, working) => void conflictOf(position, working.length)
  });
}

// services/typed/schema-path.ts
var TYPED_DECISION_PATH = `/typed/${TYPED_DECISION_VERSION}.json`;

// services/typed/answers.ts
import { z as z41 } from "zod";
var TypedSchemaAnswer = z41.strictObject({
  $id: z41.url().describe("the document's own address on this deck"),
  title: z41.literal(TYPED_DECISION_VERSION),
  description: z41.string(),
  $schema: z41.string().describe("the JSON Schema dialect"),
  oneOf: z41.array(z41.record(z41.string(), z41.unknown())).describe("one JSON Schema per action: hold, enter, exit")
});
var DecisionAnswer = answer({
  model: z41.string(),
  decision: TypedDecisionSchema.describe("the decision as read against typed-decision.v1"),
  order: OrderView.nullable().describe("the market order it placed; null for hold"),
  position: PositionView.describe("the model's position on its market after it")
});

// tools/typed/decision-post.ts
var decisionPost = defineTool({
  name: "decision_post",
  title: "Post one typed decision",
  description: `Posts one typed decision (typed-decision.v1, GET ${TYPED_DECISION_PATH}) for one of your models, without a replay: enter or exit goes on the model's live book as a market order now, filled at the next bar's open; hold places nothing. A decision that fails the contract is refused naming its field (decision.<field>) and counted against the model; so is one the book refuses (409 when it cannot apply to the position, 422 over the model's caps).`,
  input: z42.object({
    model: ModelName,
    decision: z42.record(z42.string(), z42.unknown()).describe(`a typed-decision.v1 object (${TYPED_DECISION_PATH})`)
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: DecisionAnswer,
  access: "session",
  toolset: TOOLSETS.typed,
  rest: { method: "POST", path: "/typed/decisions", errors: [404, 409, 502, 503] },
  async run(ctx, input) {
    const model = myModel(ctx, input.model);
    const read = readDecision(input.decision, (path) => path ? `decision.${path}` : "decision");
    if (!read.ok) {
      const problems = read.problems;
      await countRefused(ctx, model, problems, "decision.");
      throw new DeckError(422, "bad_decision", `the decision is not typed-decision.v1: ${problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`, { problems });
    }
    const book = liveBook(ctx, model.name);
    const at = Math.floor(ctx.clock() / 1e3);
    let order;
    try {
      order = await applyDecision(ctx, model, book, read.decision, at, "decision.");
    } catch (error) {
      if (error instanceof DeckError && error.code !== "market_closed" && Array.isArray(error.details.problems)) {
        await countRefused(ctx, model, error.details.problems, "decision.");
      }
      throw error;
    }
    const venue = ctx.upstreams.venue;
    return {
      ok: true,
      model: model.name,
      decision: read.decision,
      order: order ? orderView(venue, order) : null,
      position: positionView(venue.position(book.key, model.market))
    };
  }
});

// tools/typed/typed-decision-schema.ts
import { z as z43 } from "zod";
var SCHEMA = z43.toJSONSchema(TypedDecisionSchema, { io: "input" });
var typedSchema = defineTool({
  name: "typed_decision_schema",
  title: "typed-decision.v1",
  description: "The typed-decision.v1 contract as a JSON Schema document: what a model's decide() answers for each closed bar (hold; enter long or short with size, stop and an optional target; exit), every decision with its why. Every answer is validated against it; a refused one names its field and is counted against the model.",
  input: z43.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: TypedSchemaAnswer,
  access: "none",
  // A document, not an agent's act: agents read the same schema in tools/list.
  surface: "rest",
  toolset: TOOLSETS.typed,
  rest: { method: "GET", path: TYPED_DECISION_PATH },
  async run(ctx) {
    return {
      $id: `${ctx.urls.base}${TYPED_DECISION_PATH}`,
      title: TYPED_DECISION_VERSION,
      description: "A model's decision for one closed bar, as its decide() endpoint answers the deck's POST { version, model, run, mode, market, timeframe, bar { t, o, h, l, c, v }, index, position { side, size, entry, stop, target } }. hold does nothing; enter opens a position from flat with a market order at the next bar's open, its stop kept by the venue; exit closes the whole position at the next bar's open.",
      ...SCHEMA
    };
  }
});

// tools/plans/catalogue.ts
import { z as z44 } from "zod";

// services/per-deck.ts
function perDeck(build3) {
  const built2 = /* @__PURE__ */ new WeakMap();
  return (ctx) => {
    let answer3 = built2.get(ctx.offer);
    if (!answer3) built2.set(ctx.offer, answer3 = Object.freeze(build3(ctx)));
    return answer3;
  };
}

// tools/plans/catalogue.ts
var answerOf = (ctx) => ({
  ok: true,
  deck: { base_url: ctx.urls.base, mcp: `${ctx.urls.base}/mcp`, join_url: ctx.urls.join, openapi: `${ctx.urls.base}/openapi.json` },
  sellers: ctx.offer.sellers,
  markets: [...MARKETS],
  timeframes: [...TIMEFRAMES],
  costs: MARKETS.map((market) => {
    const { name, tick, point_value } = MARKET_SPECS[market];
    const { slippage_ticks, fee } = DEFAULT_COSTS[market];
    return { market, name, tick, point_value, slippage_ticks, slippage: slippageOf(market, DEFAULT_COSTS[market]), fee };
  }),
  plans: ctx.offer.plans.plans.map((p) => ({ id: p.id, tier: p.tier, name: p.name, price_usdc: p.price_usdc, period_days: p.period_days }))
});
var offered = perDeck(answerOf);
var answers = /* @__PURE__ */ new WeakMap();
var catalogue = defineTool({
  name: "catalogue",
  title: "Catalogue",
  description: "What the deck offers: its sellers (endpoint, card, tools), the markets and timeframes of the tape and what it holds (tape.held), each market's fill costs in a rehearsal (costs), and the plans. Needs no key.",
  input: z44.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "none",
  output: z44.object({
    ok: z44.literal(true),
    deck: z44.object({ base_url: z44.string(), mcp: z44.string(), join_url: z44.string(), openapi: z44.string() }).describe("where the deck is reached"),
    sellers: z44.array(
      z44.object({ id: z44.string(), name: z44.string(), description: z44.string(), endpoint: z44.string(), card_url: z44.string(), tools: z44.array(z44.string()) })
    ),
    markets: z44.array(z44.enum(MARKETS)),
    timeframes: z44.array(z44.enum(TIMEFRAMES)),
    costs: z44.array(
      z44.object({
        market: z44.enum(MARKETS),
        name: z44.string(),
        tick: z44.number(),
        point_value: z44.number().describe("dollars a point, one contract or coin"),
        slippage_ticks: z44.number().describe("on market and stop fills; a target fills at its price"),
        slippage: z44.number(),
        fee: z44.object({ per_side: z44.number(), unit: z44.enum(["points", "bps"]) })
      })
    ).describe("what a rehearsal's fills cost, per market"),
    plans: z44.array(z44.object({ id: z44.string(), tier: z44.enum(TIERS), name: z44.string(), price_usdc: z44.number(), period_days: z44.number().int().nullable() })),
    tape: z44.object({
      venue: z44.string().nullable().describe("where bars the archive lacks are asked (venue, or ccxt:<exchange>); null: the archive is the only source"),
      held: z44.array(HeldListing).describe("per market and timeframe, what the archive keeps; 5m and 1h are also built from finer bars held")
    }).describe("what the tape can serve")
  }),
  toolset: TOOLSETS.plans,
  rest: { method: "GET", path: "/catalogue" },
  async run(ctx) {
    const fixed = offered(ctx);
    const held = await ctx.store.archive.held();
    let kept = answers.get(fixed);
    if (kept?.held !== held) {
      kept = { held, answer: Object.freeze({ ...fixed, tape: Object.freeze({ venue: ctx.upstreams.tape.venueSource, held }) }) };
      answers.set(fixed, kept);
    }
    return kept.answer;
  }
});

// tools/chat/chat.ts
import { z as z45 } from "zod";
var Message = z45.object({
  role: z45.enum(["system", "user", "assistant"]),
  content: z45.string().min(1).max(32e3)
}).strict();
var labelOf = (model) => ({
  by: "model",
  model,
  notice: `These are a model's words (${model}, through the chat lane), not the deck's: nothing here is read from the venue, the tape or the deck's ledgers, and the deck keeps none of it.`
});
var answerOf2 = (a, spent) => ({
  ok: true,
  ...labelOf(a.model),
  message: { role: "assistant", content: a.text },
  finish_reason: a.finish_reason,
  spent: spent && { action: spent.action, units: spent.units }
});
var chat = defineTool({
  name: "chat",
  title: "Ask the chat lane",
  description: "Asks the house's chat model (an OpenAI-compatible lane) and answers its words, labelled as a model's words (by: model): they are not the deck's, are read from nothing the deck holds, and are never written into a ledger. Calls go through a fair queue: each principal has its own lane, served in turn with everyone else's, so a busy caller cannot starve the rest; a full lane of yours is 429 with Retry-After. stream: true sends the words as server-sent events as they are made (REST; MCP answers once, whole). An answer is recorded on the meter (chat) only once it is whole; a lane that does not answer within DECK_CHAT_TIMEOUT_S is cut (503 upstream_timeout) with nothing spent.",
  input: z45.object({
    messages: z45.array(Message).min(1).max(64).describe("the conversation, oldest first, in the chat-completions form"),
    stream: z45.boolean().optional().describe("true: send the words as server-sent events as they are made"),
    max_tokens: z45.number().int().min(1).max(8192).optional()
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: "session",
  output: answer({
    by: z45.literal("model").describe("these are a model's words, not the deck's"),
    model: z45.string(),
    notice: z45.string(),
    message: z45.object({ role: z45.literal("assistant"), content: z45.string() }),
    finish_reason: z45.string().nullable(),
    spent: z45.object({ action: z45.string(), units: z45.number() }).nullable().describe("what the answer cost on the meter")
  }),
  toolset: TOOLSETS.chat,
  rest: { method: "POST", path: "/chat", errors: [429, 502, 503], maxBody: 512 * 1024 },
  async run(ctx, { messages, stream, max_tokens }) {
    const lane = ctx.upstreams.chat;
    if (!lane) throw notConfigured("the chat lane", "DECK_CHAT_URL and DECK_CHAT_MODEL (and DECK_CHAT_KEY when the lane needs a key)");
    const release = await ctx.chatQueue.turn(ctx.principal.id);
    let words2;
    try {
      words2 = await lane.ask(messages, { stream: stream === true, cancel: ctx.ended(), ...max_tokens ? { maxTokens: max_tokens } : {} });
    } catch (error) {
      release();
      throw error;
    }
    if (!stream) {
      try {
        let next = await words2.next();
        while (!next.done) next = await words2.next();
        return answerOf2(next.value, await recordSpend(ctx, "chat"));
      } finally {
        release();
      }
    }
    const asked = words2;
    return new EventStream(
      (async function* () {
        try {
          yield { event: "label", data: labelOf(lane.config.model) };
          let next = await asked.next();
          while (!next.done) {
            yield { event: "words", data: { text: next.value } };
            next = await asked.next();
          }
          return answerOf2(next.value, await recordSpend(ctx, "chat"));
        } finally {
          release();
          await asked.return(void 0);
        }
      })()
    );
  }
});

// tools/forecast/forecast.ts
import { z as z49 } from "zod";

// engine/forecast/calibration.ts
var ECE_BINS = 10;
var MIN_SCORED = 30;
var SOLID_BELOW = 0.05;
var DASHED_BELOW = 0.1;
var round42 = (x) => Math.round(x * 1e4) / 1e4;
var binOf = (p) => Math.min(ECE_BINS - 1, Math.floor(p * ECE_BINS));
function drawCell(effective, ece) {
  if (effective < MIN_SCORED || ece === null) return { draw: "none", label: "unmeasured" };
  if (ece < SOLID_BELOW) return { draw: "solid", label: "calibrated" };
  if (ece < DASHED_BELOW) return { draw: "dashed", label: "loosely calibrated" };
  return { draw: "none", label: "not calibrated" };
}
var RANK = { "not calibrated": 0, unmeasured: 1, "loosely calibrated": 2, calibrated: 3 };
function drawOf(c) {
  let worst = c.band;
  for (const cell of c.touch) if (RANK[cell.label] < RANK[worst.label]) worst = cell;
  return { draw: worst.draw, label: worst.label };
}
function effectiveCounts(times, bar, horizons) {
  return horizons.map((h) => {
    if (times.length === 0) return 0;
    let sum = 1;
    for (let i = 1; i < times.length; i++) sum += Math.min(1, (times[i] - times[i - 1]) / (h * bar));
    return Math.floor(sum + 1e-9);
  });
}
function calibrate(scores, options) {
  const asOf = options.asOf ?? Infinity;
  const nominalOf = options.nominal ?? (() => DEFAULT_OPTIONS.nominal);
  const known2 = scores.filter((s) => s.scored_t <= asOf).sort((a, b) => a.issued_t - b.issued_t);
  const n = known2.length;
  const cells = TOUCH_ATR.length * TOUCH_WITHIN.length;
  const count2 = new Float64Array(cells * ECE_BINS);
  const stated = new Float64Array(cells * ECE_BINS);
  const happened = new Float64Array(cells * ECE_BINS);
  let inside = 0;
  let promised = 0;
  for (const s of known2) {
    inside += s.inside;
    promised += nominalOf(s);
    for (let j = 0; j < cells; j++) {
      const p = s.odds[j];
      const at = j * ECE_BINS + binOf(p);
      count2[at]++;
      stated[at] += p;
      if (s.touched & 1 << j) happened[at]++;
    }
  }
  const horizons = [...TOUCH_WITHIN, HORIZON];
  const effective = effectiveCounts(
    known2.map((s) => s.issued_t),
    options.bar,
    horizons
  );
  const touch = [];
  for (let j = 0; j < cells; j++) {
    let gap = 0;
    let said2 = 0;
    let did = 0;
    for (let b = j * ECE_BINS; b < (j + 1) * ECE_BINS; b++) {
      gap += Math.abs(stated[b] - happened[b]);
      said2 += stated[b];
      did += happened[b];
    }
    const w = j % TOUCH_WITHIN.length;
    const ece = n ? round42(gap / n) : null;
    const eff = effective[w];
    touch.push({
      atr: TOUCH_ATR[Math.floor(j / TOUCH_WITHIN.length)],
      within: TOUCH_WITHIN[w],
      n,
      effective: eff,
      ece,
      stated: n ? round42(said2 / n) : null,
      happened: n ? round42(did / n) : null,
      ...drawCell(eff, ece)
    });
  }
  const coverage2 = n ? round42(inside / (n * HORIZON)) : null;
  const nominal = n ? round42(promised / n) : null;
  const bandEce = coverage2 === null || nominal === null ? null : round42(Math.abs(coverage2 - nominal));
  const bandEffective = effective[horizons.length - 1];
  const band2 = { within: HORIZON, n, effective: bandEffective, nominal, coverage: coverage2, ece: bandEce, ...drawCell(bandEffective, bandEce) };
  const eces = [...touch.map((c) => c.ece), bandEce].filter((e) => e !== null);
  return { n, ece: eces.length ? Math.max(...eces) : null, coverage: coverage2, touch, band: band2 };
}

// engine/forecast/guard.ts
var DIRECTION_KEYS = /* @__PURE__ */ new Set(["side", "direction", "median", "drift", "bias", "meanreturn"]);
var normal = (key) => key.toLowerCase().replace(/[\s_-]/g, "");
var DirectionFieldError = class extends Error {
  constructor(key, path) {
    super(`a forecast carries no direction, but this one has '${key}' at ${path}`);
    this.key = key;
    this.path = path;
    this.name = "DirectionFieldError";
  }
  key;
  path;
};
function assertNoDirection(answer3) {
  const seen = /* @__PURE__ */ new Set();
  const walk = (value, path) => {
    if (typeof value !== "object" || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${path}.${i}`));
      return;
    }
    for (const [key, v] of Object.entries(value)) {
      const at = `${path}.${key}`;
      if (DIRECTION_KEYS.has(normal(key))) throw new DirectionFieldError(key, at);
      walk(v, at);
    }
  };
  walk(answer3, "$");
}

// engine/forecast/score.ts
var H = HORIZON;
function scoreEnvelope(e, bars) {
  const i = barAt(bars.t, e.last_bar_t);
  if (i < 0) return null;
  const scorable = {
    issued_t: e.issued_t,
    close: e.close,
    atr: e.atr,
    lower: e.band.steps.map((s) => s.lower),
    upper: e.band.steps.map((s) => s.upper),
    odds: e.touch.map((t) => t.odds)
  };
  return scoreAt(scorable, bars, i, TIMEFRAME_SECONDS[e.tf]);
}
function scoreAt(e, bars, i, tfSeconds) {
  if (i + H >= bars.length) return null;
  let inside = 0;
  for (let k = 1; k <= H; k++) {
    const c = bars.c[i + k];
    if (c >= e.lower[k - 1] && c <= e.upper[k - 1]) inside++;
  }
  return {
    issued_t: e.issued_t,
    scored_t: bars.t[i + H] + tfSeconds,
    odds: Array.from({ length: TOUCHES }, (_, b) => e.odds[b]),
    touched: touchMask(bars, i, e.close, e.atr),
    inside
  };
}

// upstream/forecast/bars.ts
async function pairBars(tape2, pair, from, to, fresh) {
  const { market, tf } = pair;
  return (await tape2.window(market, tf, from, to, fresh, knownWhole(market, tf, from, to))).bars;
}
function lookbackFrom(pair, len, t, n) {
  let from = t - n * len;
  for (let have = expectedBars(pair.market, len, from, t).length; have < n; have = expectedBars(pair.market, len, from, t).length) {
    from -= (n - have) * len;
  }
  return from;
}

// upstream/forecast/in-process.ts
var MARGIN = 1.25;
var InProcessForecaster = class {
  constructor(tape2, pool) {
    this.tape = tape2;
    this.pool = pool;
  }
  tape;
  pool;
  name = "in-process forecaster";
  async envelopeAt(pair, t, fresh, ask) {
    const len = TIMEFRAME_SECONDS[pair.tf];
    const from = lookbackFrom(pair, len, t, Math.ceil(lookbackBars() * MARGIN));
    const bars = await pairBars(this.tape, pair, from, t, fresh);
    const i = lastClosedBar(bars, len, t);
    return issuedOf(await this.pool.run("forecasting", { bars, pair, t: i >= 0 ? bars.t[i] + len : t }, ask));
  }
  async lens() {
    return { model: MODEL, model_rev: MODEL_REV, device: DEVICE, samples: DEFAULT_OPTIONS.sample };
  }
};

// upstream/forecast/source.ts
import { z as z46 } from "zod";
var LensSchema = z46.strictObject({
  model: z46.string().min(1).max(64),
  model_rev: z46.string().min(1).max(64),
  device: z46.string().min(1).max(32),
  samples: z46.number().int().nonnegative()
});

// upstream/forecast/sidecar.ts
import { z as z47 } from "zod";

// upstream/http.ts
async function callJson(upstream, url, init) {
  const timeout = init.timeoutMs ?? 5e3;
  const deadline = AbortSignal.timeout(timeout);
  const signal = init.ended ? AbortSignal.any([deadline, init.ended]) : deadline;
  try {
    const res = await watched(upstream, async () => (await undici()).request(url, {
      method: init.method,
      headers: {
        accept: "application/json",
        ...init.body !== void 0 ? { "content-type": "application/json" } : {},
        ...init.token ? { authorization: `Bearer ${init.token}` } : {}
      },
      body: init.body !== void 0 ? JSON.stringify(init.body) : null,
      signal
    }));
    const text2 = await res.body.text();
    try {
      return { status: res.statusCode, body: JSON.parse(text2), parsed: true };
    } catch {
      return { status: res.statusCode, body: text2 || null, parsed: false };
    }
  } catch (error) {
    const why = deadline.aborted ? `no answer within ${timeout / 1e3} s` : init.ended?.aborted ? "the request it was asked for ended" : error.message;
    throw unreachable(upstream, why);
  }
}
function expectOk(upstream, answer3) {
  if (answer3.status >= 200 && answer3.status < 300) return answer3.body;
  throw refusedBy(upstream, answer3.body);
}

// upstream/forecast/sidecar.ts
var Unissued = z47.object({ reason: z47.enum(["warming_up", "flat"]), message: z47.string().max(500) });
var SidecarForecaster = class {
  constructor(url, timeoutMs = 1e4) {
    this.url = url;
    this.timeoutMs = timeoutMs;
  }
  url;
  timeoutMs;
  name = "forecast sidecar";
  async envelopeAt(pair, t) {
    const { status, body } = await this.get(`/envelope/${pair.market}/${pair.tf}?t=${t}`);
    if (status === 404) {
      const unissued = Unissued.safeParse(body);
      if (unissued.success) throw new ForecastError(unissued.data.reason, unissued.data.message);
    }
    if (status !== 200) throw refusedBy(this.name, body);
    return body;
  }
  async lens() {
    const { status, body } = await this.get("/health");
    if (status !== 200) throw refusedBy(this.name, body);
    return body;
  }
  /** A sidecar that cannot be reached, or answers something that is not JSON, did not answer: 502. */
  async get(path) {
    const answer3 = await callJson(this.name, `${this.url.replace(/\/$/, "")}${path}`, { method: "GET", timeoutMs: this.timeoutMs }).catch((error) => {
      throw error instanceof DeckError && error.status === 503 ? didNotAnswer(this.name, error.message.slice(error.message.indexOf(": ") + 2)) : error;
    });
    if (!answer3.parsed) throw didNotAnswer(this.name, `an answer that is not JSON (status ${answer3.status})`);
    return answer3;
  }
};

// upstream/forecast/forecaster.ts
var refused = (source2, code, message, details = {}) => new DeckError(502, code, `${source2} ${message}`, { upstream: source2, ...details });
function guarded(source2, answer3) {
  try {
    assertNoDirection(answer3);
  } catch (error) {
    if (!(error instanceof DirectionFieldError)) throw error;
    throw refused(source2, "direction_refused", `answered a direction ('${error.key}' at ${error.path}); an envelope states magnitude, never direction`, {
      key: error.key,
      path: error.path
    });
  }
}
var Forecaster = class {
  constructor(source2) {
    this.source = source2;
  }
  source;
  async issue(pair, t, fresh, ask) {
    const answer3 = await this.source.envelopeAt(pair, t, fresh, ask);
    guarded(this.source.name, answer3);
    const parsed = EnvelopeSchema.safeParse(answer3);
    if (!parsed.success) {
      throw refused(this.source.name, "not_an_envelope", "answered something that is not an envelope.v1", { problems: problemsOf(parsed.error).slice(0, 10) });
    }
    const e = parsed.data;
    if (e.market !== pair.market || e.tf !== pair.tf) {
      throw refused(this.source.name, "not_an_envelope", `answered an envelope of ${e.market} ${e.tf} when asked for ${pair.market} ${pair.tf}`);
    }
    if (e.issued_t > t) throw refused(this.source.name, "not_an_envelope", `answered an envelope issued at ${e.issued_t}, after the ${t} it was asked for`);
    return e;
  }
  async lens() {
    const answer3 = await this.source.lens();
    guarded(this.source.name, answer3);
    const parsed = LensSchema.safeParse(answer3);
    if (!parsed.success) throw refused(this.source.name, "not_a_lens", "answered a health that is not { model, model_rev, device, samples }", { problems: problemsOf(parsed.error) });
    return parsed.data;
  }
};
function openForecaster(config, tape2, pool) {
  if (config.forecastUrl) return new Forecaster(new SidecarForecaster(config.forecastUrl));
  return config.forecaster === "off" ? null : new Forecaster(new InProcessForecaster(tape2, pool));
}
var noForecaster = () => notConfigured("the forecaster", "DECK_FORECAST_URL (an HTTP sidecar) or DECK_FORECASTER=in-process (the in-process one, the default)");

// services/forecast/age.ts
function ageBars(pair, issuedT, t) {
  const len = TIMEFRAME_SECONDS[pair.tf];
  const first = Math.ceil(issuedT / len) * len;
  if (first + len > t) return 0;
  if (MARKET_SPECS[pair.market].kind === "crypto") return Math.floor((t - len - first) / len) + 1;
  return expectedBars(pair.market, len, first, t - len + 1).length;
}

// services/forecast/answer-schema.ts
import { z as z48 } from "zod";
var drawn = (draw) => ({
  draw: z48.enum(["solid", "dashed", "none"]).describe(draw),
  label: z48.enum(["calibrated", "loosely calibrated", "not calibrated", "unmeasured"])
});
var Drawn = drawn("the worst of its cells' draws: solid only when every cell is solid, none when any is unmeasured or not calibrated");
var Cell = {
  n: z48.number().int().describe("scored envelopes"),
  effective: z48.number().int().describe("independent outcomes it rests on: overlapping horizons count once per horizon of issues; under 30 it reads unmeasured"),
  ece: z48.number().nullable().describe("its own calibration error; null when none is scored"),
  ...drawn("solid when its ece is under 0.05, dashed under 0.10, else none; none while unmeasured")
};
var TouchCell = z48.object({
  atr: z48.number().describe("the touch size in ATR"),
  within: z48.number().int().describe("the horizon in bars"),
  ...Cell,
  stated: z48.number().nullable().describe("the mean odds stated"),
  happened: z48.number().nullable().describe("the share of envelopes where the touch happened")
});
var BandCell = z48.object({
  within: z48.number().int().describe("the bars the band reaches ahead"),
  ...Cell,
  nominal: z48.number().nullable().describe("the share of closes the band promised to hold"),
  coverage: z48.number().nullable().describe("the share it held; its ece is |coverage - nominal|")
});
var Calibration = z48.object({
  n: z48.number().int().describe("scored envelopes"),
  ece: z48.number().nullable().describe("the largest ece of its cells (the nine touches and the band), so it never reads better than a cell; null when none is scored"),
  coverage: z48.number().nullable().describe("the share of closes the band held"),
  touch: z48.array(TouchCell).describe("one cell per touch odds, in the envelope's order, each measured, drawn and labelled on its own"),
  band: BandCell
});
var LensRow = Calibration.extend({
  market: z48.enum(MARKETS),
  tf: z48.enum(FORECAST_TIMEFRAMES),
  ...Drawn,
  newest_issued_t: z48.number().int().nullable(),
  age_bars: z48.number().int().nullable().describe("bars closed since the newest issue")
});

// services/forecast/scoring.ts
var SCORES_PER_READ = 500;
var SCORE_SPAN_BARS = 3e3;
var HALT_SLACK_S = 3 * 86400;
async function scoreDue(ctx, book) {
  const { market, tf } = book.pair;
  const len = TIMEFRAME_SECONDS[tf];
  const now = Math.floor(ctx.clock() / 1e3);
  const slack = MARKET_SPECS[market].kind === "cme" ? HALT_SLACK_S : 0;
  const known2 = (e) => e.last_bar_t + (HORIZON + 1) * len + slack;
  const due = book.unscored((e) => known2(e) <= now, SCORES_PER_READ);
  if (due.length === 0) return 0;
  const from = due[0].last_bar_t;
  const batch = due.filter((e) => known2(e) - from <= SCORE_SPAN_BARS * len);
  let bars;
  try {
    bars = await pairBars(ctx.upstreams.tape, book.pair, from, known2(batch.at(-1)), false);
  } catch (error) {
    if (!(error instanceof DeckError)) throw error;
    book.setAside(batch);
    ctx.log.info("forecast_scoring_deferred", { market, tf, envelopes: batch.length, why: error.message });
    return 0;
  }
  const scores = [];
  const left = [];
  for (const e of batch) {
    const s = scoreEnvelope(e, bars);
    if (s) scores.push(s);
    else left.push(e);
  }
  book.setAside(left);
  return book.addScores(scores, ctx.clock());
}

// tools/forecast/forecast.ts
var MAX_HISTORY = 2e3;
async function issueAt(ctx, forecaster, book, bar, fresh) {
  return book.exclusive(async () => {
    const out = { issued: null, recordedNow: false, unissued: null };
    const newest = book.newest();
    if (!newest || bar > newest.issued_t) {
      try {
        out.issued = await forecaster.issue(book.pair, bar, fresh, workAsk(ctx));
      } catch (error) {
        if (!(error instanceof ForecastError)) throw error;
        out.unissued = error;
      }
      if (out.issued && !fresh) out.recordedNow = await book.append([out.issued], ctx.clock()) > 0;
    }
    if (!fresh) await scoreDue(ctx, book);
    return out;
  });
}
function queryProblems(input, t, now) {
  const problems = [];
  if (t < 0) problems.push({ field: "t", message: "must not be negative" });
  if (t > now) problems.push({ field: "t", message: "must not be in the future: what is disclosed is what was issued by t" });
  if (input.history && input.from === void 0) problems.push({ field: "from", message: "history=1 needs from (unix seconds)" });
  if (!input.history && input.from !== void 0) problems.push({ field: "from", message: "from goes with history=1" });
  if (input.from !== void 0 && input.from > t) problems.push({ field: "from", message: "must not be after t" });
  return problems;
}
var nothingIssued = (pair, t, unissued) => new DeckError(404, "no_envelope", `no ${pair.market} ${pair.tf} envelope was issued by ${t}${unissued ? `: ${unissued.message}` : ""}`, {
  reason: unissued?.reason ?? "none_issued"
});
var forecast = defineTool({
  name: "forecast",
  title: "Forecast envelope",
  description: `The forecast envelope of NQ, ES, YM, BTC, ETH or SOL at 5m or 1h as disclosed at t (unix seconds, default now): the newest envelope issued by t, so a replay scrubbing back never sees a later one. It states magnitude, never direction: a band symmetric about the last close over the next ${HORIZON} bars and the odds of a 0.5, 1 and 2 ATR move (either way) within 6, 12 and 24 bars, with the calibration of the envelopes scored by t, per cell (each odds and the band): unmeasured under 30 effective outcomes, solid under ece 0.05, dashed under 0.10, else none; draw and label are the worst cell's. With history and from: the compact issues of [from, t], at most ${MAX_HISTORY}.`,
  input: z49.object({
    market: z49.enum(MARKETS),
    tf: z49.enum(FORECAST_TIMEFRAMES),
    t: unixTime.optional().describe("disclosure time, unix seconds or ISO-8601 UTC (default now, never in the future)"),
    // The tape tool's rule for a replay session id, so the two never disagree.
    session: TapeRequest.shape.session.describe("a replay session id: issues from the venue as it answers now, records nothing"),
    history: flag.optional().describe("true: the compact issues of [from, t] instead of one envelope"),
    from: unixTime.optional().describe("with history=1: the first issue time, unix seconds or ISO-8601 UTC")
  }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  // Open to every session, as the contract has it; an operator who sells it locks it on a tier (tier_tools, plans file).
  access: "session",
  output: z49.union([
    answer({
      envelope: EnvelopeSchema.safeExtend({ calibration: Calibration.describe("measured on the envelopes scored by t") }).describe("envelope.v1: the newest envelope issued by t"),
      ...Drawn,
      served: z49.object({
        t: z49.number().int(),
        at: z49.number().int().describe("when it was served, unix seconds"),
        issued_now: z49.boolean(),
        recorded: z49.boolean().describe("false for a replay session's envelope, which is not recorded")
      }),
      age_bars: z49.number().int().describe("bars closed after it was issued and by t")
    }),
    answer({
      issues: z49.array(z49.object({ issued_t: z49.number().int(), width_atr: z49.number(), lower: z49.number(), upper: z49.number() })).describe("history=1: the compact issues of [from, t], oldest first"),
      truncated: z49.boolean().describe("more are left: ask again from the last one + 1"),
      ...Drawn
    })
  ]),
  toolset: TOOLSETS.forecast,
  rest: { method: "GET", path: "/forecast/:market/:tf", errors: [404, 502, 503] },
  async run(ctx, input) {
    const forecaster = ctx.upstreams.forecaster;
    if (!forecaster) throw noForecaster();
    const now = Math.floor(ctx.clock() / 1e3);
    const t = input.t ?? now;
    const problems = queryProblems(input, t, now);
    if (problems.length) throw badInput(problems);
    const pair = { market: input.market, tf: input.tf };
    const book = await ctx.store.forecasts.book(pair);
    const fresh = input.session !== void 0;
    if (input.history) {
      if (!fresh) await book.exclusive(() => scoreDue(ctx, book));
      const { envelopes, more } = book.between(input.from, t, MAX_HISTORY);
      await recordSpend(ctx, "forecast");
      return { ok: true, issues: envelopes.map(compactOf), truncated: more, ...drawOf(book.calibration(t)) };
    }
    const len = TIMEFRAME_SECONDS[pair.tf];
    const got = await issueAt(ctx, forecaster, book, Math.floor(t / len) * len, fresh);
    const kept = book.at(t);
    const unrecorded = fresh && got.issued && !book.has(got.issued.issued_t) && (!kept || got.issued.issued_t > kept.issued_t) ? got.issued : null;
    const envelope = unrecorded ?? kept;
    if (!envelope) throw nothingIssued(pair, t, got.unissued);
    const calibration = book.calibration(t);
    await recordSpend(ctx, "forecast");
    return {
      ok: true,
      envelope: { ...envelope, calibration },
      ...drawOf(calibration),
      served: { t, at: now, issued_now: unrecorded !== null || got.recordedNow && got.issued.issued_t === envelope.issued_t, recorded: unrecorded === null },
      age_bars: ageBars(pair, envelope.issued_t, t)
    };
  }
});

// tools/forecast/forecast-health.ts
import { z as z50 } from "zod";
var forecastHealth = defineTool({
  name: "forecast_health",
  title: "Forecast lens",
  description: "The forecaster (model, revision, device, trailing sample size, horizon) and one row per market and timeframe (5m, 1h): its calibration now (n scored, the worst cell's ece, band coverage, each cell with its effective outcomes, draw and label; the pair drawn as its worst cell) and its newest issue with its age in bars.",
  input: z50.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: "session",
  output: LensSchema.extend({ ok: z50.literal(true), horizon: z50.number().int().describe("bars ahead the band spans"), rows: z50.array(LensRow) }),
  toolset: TOOLSETS.forecast,
  rest: { method: "GET", path: "/forecast/health", errors: [502, 503] },
  async run(ctx) {
    const forecaster = ctx.upstreams.forecaster;
    if (!forecaster) throw noForecaster();
    const lens = await forecaster.lens();
    const now = Math.floor(ctx.clock() / 1e3);
    const rows = [];
    for (const market of MARKETS) {
      for (const tf of FORECAST_TIMEFRAMES) {
        const book = await ctx.store.forecasts.book({ market, tf });
        await book.exclusive(() => scoreDue(ctx, book));
        const calibration = book.calibration(now);
        const newest = book.newest();
        rows.push({
          market,
          tf,
          ...calibration,
          ...drawOf(calibration),
          newest_issued_t: newest?.issued_t ?? null,
          age_bars: newest ? ageBars(book.pair, newest.issued_t, now) : null
        });
      }
    }
    return { ok: true, ...lens, horizon: HORIZON, rows };
  }
});

// tools/identity/auth-providers.ts
import { z as z51 } from "zod";
var authProviders = defineTool({
  name: "auth_providers",
  title: "Sign-in doors",
  description: "Which sign-in doors are open: the key door always; email magic links and X sign-in only when configured.",
  input: z51.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "none",
  surface: "rest",
  output: answer({ email: z51.boolean(), x: z51.boolean(), key: z51.literal(true) }),
  toolset: TOOLSETS.identity,
  rest: { method: "GET", path: "/auth/providers" },
  // Each door beside the key is open when it is configured (the SMTP server and sender; the X app).
  async run(ctx) {
    return { ok: true, email: ctx.config.email !== null, x: ctx.config.x !== null, key: true };
  }
});

// tools/identity/doors.ts
import { z as z53 } from "zod";

// services/doors/answers.ts
import { z as z52 } from "zod";
var DoorKindSchema = z52.enum(["email", "x"]);
var ProvedAnswer = answer({
  signed_in: z52.boolean().describe("true: signed in as the principal the door is linked to (the deck_session cookie is set)"),
  door: DoorKindSchema,
  label: z52.string().describe("the door as the person sees it: the address masked, or @username"),
  name: z52.string().optional().describe("signed in: the principal"),
  agent_id: z52.string().optional(),
  expires_at: z52.iso.datetime().describe("when the session ends, or when the proof does"),
  proof: z52.string().optional().describe("linked to no principal yet: join with it (POST /join { name, proof }) or, signed in, link it (POST /me/doors { proof }); 15 minutes, once"),
  next: z52.string(),
  session: z52.object({ token: z52.string(), expires_at: z52.number().int() }).optional().describe("the session, which REST moves into the deck_session cookie (never in the body)")
});
var DoorsList = z52.array(z52.strictObject({ door: DoorKindSchema, label: z52.string(), linked_at: z52.iso.datetime() }));

// upstream/identity/keys.ts
import { hash, randomBytes as randomBytes3 } from "node:crypto";
var newKey = (prefix) => `${prefix}${randomBytes3(32).toString("base64url")}`;
var digest = (secret) => hash("sha256", secret, "hex");

// services/doors/link.ts
var refused2 = (field) => badInput([{ field, message: "not a live proof: unknown, used or over its 15 minutes; prove the door again" }]);
function proofOf(ctx, proof, field = "proof") {
  const p = ctx.store.doors.data.proofs[digest(proof)];
  if (!p || p.expires_at <= ctx.clock()) throw refused2(field);
  return p;
}
function linkProof(ctx, proof, principalId, field = "proof") {
  const now = ctx.clock();
  return ctx.store.doors.update(now, (d) => {
    const p = d.proofs[digest(proof)];
    if (!p) throw refused2(field);
    const held = d.links[p.key];
    if (held && held.principal_id !== principalId && ctx.store.accounts.byId(held.principal_id)) {
      throw new DeckError(409, "door_taken", `${p.label} is linked to another principal: it signs in as that one`, { field, door: p.door });
    }
    for (const [k, l] of Object.entries(d.links)) if (l.principal_id === principalId && l.door === p.door) delete d.links[k];
    const link = { principal_id: principalId, door: p.door, label: p.label, linked_at: now };
    d.links[p.key] = link;
    delete d.proofs[digest(proof)];
    return link;
  });
}
var doorsOf = (ctx, principalId) => Object.values(ctx.store.doors.data.links).filter((l) => l.principal_id === principalId).map((l) => ({ door: l.door, label: l.label, linked_at: new Date(l.linked_at).toISOString() })).sort((a, b) => a.door.localeCompare(b.door));

// tools/identity/doors.ts
var doors = defineTool({
  name: "doors",
  title: "Your sign-in doors",
  description: "The email address (masked) and the X account linked to you: signing in through either is signing in as you. The key door is always yours.",
  input: z53.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "session",
  surface: "rest",
  output: answer({ doors: DoorsList }),
  toolset: TOOLSETS.identity,
  rest: { method: "GET", path: "/me/doors" },
  async run(ctx) {
    return { ok: true, doors: doorsOf(ctx, ctx.principal.id) };
  }
});
var doorLink = defineTool({
  name: "door_link",
  title: "Link a sign-in door",
  description: "Links the door a proof proved (an email address by its code or link, an X account by X sign-in) to you, so it signs in as you from then on. One address and one X account each: a newer one takes the place of the one before. 409 door_taken when it is linked to another principal; 422 naming proof when the proof is unknown, used or past its 15 minutes.",
  input: z53.object({ proof: z53.string().min(1).max(200).describe("the proof the door answered") }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: "session",
  surface: "rest",
  output: answer({ doors: DoorsList }),
  toolset: TOOLSETS.identity,
  rest: { method: "POST", path: "/me/doors", errors: [409] },
  async run(ctx, { proof }) {
    const link = await linkProof(ctx, proof, ctx.principal.id);
    ctx.log.info("door_linked", { door: link.door, name: ctx.principal.name });
    return { ok: true, doors: doorsOf(ctx, ctx.principal.id) };
  }
});
var doorUnlink = defineTool({
  name: "door_unlink",
  title: "Unlink a sign-in door",
  description: "Unlinks your email address or X account: it signs in as you no longer (sessions it opened stay until they end or you rotate your key). 404 when none is linked.",
  input: z53.object({ door: DoorKindSchema.describe("email or x") }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  access: "session",
  surface: "rest",
  output: answer({ doors: DoorsList }),
  toolset: TOOLSETS.identity,
  rest: { method: "DELETE", path: "/me/doors", errors: [404] },
  async run(ctx, { door }) {
    const gone = await ctx.store.doors.update(ctx.clock(), (d) => {
      const found = Object.entries(d.links).find(([, l]) => l.principal_id === ctx.principal.id && l.door === door);
      if (found) delete d.links[found[0]];
      return found !== void 0;
    });
    if (!gone) throw new DeckError(404, "not_found", `no ${door} door is linked to you`, { field: "door" });
    return { ok: true, doors: doorsOf(ctx, ctx.principal.id) };
  }
});

// tools/identity/email-send.ts
import { z as z54 } from "zod";

// services/identity/client.ts
var clientOf = (s, caller) => digest(`${s.store.salt}|${caller.address}`);

// services/identity/login-throttle.ts
var noLoginWindows = () => ({ windows: {} });
var LoginThrottle = class {
  constructor(limit, windowMs, shared = null) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.shared = shared;
  }
  limit;
  windowMs;
  shared;
  memory = noLoginWindows();
  get windows() {
    return (this.shared?.data ?? this.memory).windows;
  }
  current(client, now) {
    const w = Object.hasOwn(this.windows, client) ? this.windows[client] : null;
    return w && now - w.start < this.windowMs ? w : null;
  }
  /** Seconds until the door opens again for this client, or 0 when it is open. */
  restingFor(client, now) {
    const w = this.current(client, now);
    return w && w.refused >= this.limit ? Math.ceil((w.start + this.windowMs - now) / 1e3) : 0;
  }
  /** Counts a refusal; kept before it resolves. */
  async refused(client, now) {
    const count2 = (d) => {
      this.forgetEnded(d, now);
      const w = Object.hasOwn(d.windows, client) ? d.windows[client] : { start: now, refused: 0 };
      d.windows[client] = { start: w.start, refused: w.refused + 1 };
    };
    if (this.shared) await this.shared.update(count2);
    else count2(this.memory);
  }
  /** Drops ended windows (they are at the front), so addresses that never come back do not accumulate. */
  forgetEnded(d, now) {
    for (const [client, w] of Object.entries(d.windows)) {
      if (now - w.start < this.windowMs) return;
      delete d.windows[client];
    }
  }
  async cleared(client) {
    if (!Object.hasOwn(this.windows, client)) return;
    if (this.shared) await this.shared.update((d) => void delete d.windows[client]);
    else delete this.memory.windows[client];
  }
};
var resting = (seconds) => limitReached("login_resting", `too many refused keys from this address; try again in ${seconds} s`, seconds);

// services/identity/credentials.ts
import { randomBytes as randomBytes4 } from "node:crypto";

// store/counters.ts
var noCounts = () => ({ day: "", total: 0, clients: {} });
var countsOn = (c, day, client) => c.day === day ? { total: c.total, client: c.clients[client] ?? 0 } : { total: 0, client: 0 };
function addCount(c, day, client, by) {
  if (c.day !== day) {
    if (by < 0 || day < c.day) return;
    Object.assign(c, noCounts(), { day });
  }
  c.total = Math.max(0, c.total + by);
  const n = (c.clients[client] ?? 0) + by;
  if (n > 0) c.clients[client] = n;
  else delete c.clients[client];
}

// store/accounts.ts
var Accounts = class {
  constructor(file) {
    this.file = file;
  }
  file;
  static empty = () => ({ accounts: {}, joins: noCounts() });
  byId(id) {
    return this.file.data.accounts[id] ?? null;
  }
  byName(name) {
    return Object.values(this.file.data.accounts).find((a) => a.name === name) ?? null;
  }
  all() {
    return Object.values(this.file.data.accounts);
  }
  /** The joins recorded on `day`: everyone's, and `client`'s. */
  joinsOn(day, client) {
    return countsOn(this.file.data.joins ?? noCounts(), day, client);
  }
  /** Records a principal that joined and counts the join for `client` on `day`, in one write. */
  join(account2, day, client) {
    return this.file.update((d) => {
      d.accounts[account2.id] = account2;
      addCount(d.joins ??= noCounts(), day, client, 1);
      return account2;
    });
  }
  /**
   * Records a wallet's proof: it becomes the account's wallet, proven. `admit` sees the proof already kept (it throws
   * to refuse, as for a challenge older than the last one used), in the write itself.
   */
  proveWallet(id, proof, admit) {
    return this.file.update((d) => {
      const a = d.accounts[id];
      if (!a) throw new Error(`no account ${id}`);
      admit(a.wallet_proof ?? null);
      a.wallet = proof.wallet;
      a.wallet_proof = proof;
      return a;
    });
  }
  /** A rotation's commit: the next key generation, keeping the session that asked for it (its digest), if one did. */
  bumpKeyGen(id, keptSession) {
    return this.file.update((d) => {
      const a = d.accounts[id];
      if (!a) throw new Error(`no account ${id}`);
      a.key_gen += 1;
      if (keptSession) a.kept_session = keptSession;
      else delete a.kept_session;
      return a.key_gen;
    });
  }
};
var walletStatusOf = (a) => a.wallet === null ? null : a.wallet_proof?.wallet === a.wallet ? "proven" : "unproven";

// services/identity/credentials.ts
var SESSION_COOKIE = "deck_session";
var newSessionToken = () => `ds_${randomBytes4(32).toString("base64url")}`;
var reaches = (resource, at) => resource === void 0 || at === "any" || resource === at || resource === "/" && at !== "rest";
async function principalFrom(s, credential, at) {
  if (credential.length > 512) return null;
  if (credential.startsWith(s.config.keyPrefix)) {
    const found = await s.upstreams.door.verify(credential);
    const account3 = found ? s.store.accounts.byId(found.id) : null;
    return account3 ? toPrincipal(s, account3, "key") : null;
  }
  const hash2 = digest(credential);
  const session = s.store.sessions.get(hash2);
  if (!session || session.expires_at <= s.clock() || !reaches(session.resource, at)) return null;
  const account2 = s.store.accounts.byId(session.principal_id);
  if (!account2 || account2.key_gen !== session.key_gen && account2.kept_session !== hash2) return null;
  return toPrincipal(s, account2, "session");
}
function boundElsewhere(s, credential, at) {
  if (credential.length > 512 || credential.startsWith(s.config.keyPrefix)) return null;
  const session = s.store.sessions.get(digest(credential));
  if (!session || session.expires_at <= s.clock() || session.resource === void 0 || reaches(session.resource, at)) return null;
  const account2 = s.store.accounts.byId(session.principal_id);
  return account2 && account2.key_gen === session.key_gen ? session.resource : null;
}
async function admitCredential(s, caller, credential, at) {
  const principal = await principalFrom(s, credential, at);
  if (principal) return { principal };
  const client = clientOf(s, caller);
  const restingS = s.login.restingFor(client, s.clock());
  if (restingS > 0) return { restingS };
  await s.login.refused(client, s.clock());
  return { refused: true, boundTo: boundElsewhere(s, credential, at) };
}
function toPrincipal(s, a, via) {
  return { id: a.id, name: a.name, agent_id: a.agent_id, wallet: a.wallet, wallet_status: walletStatusOf(a), tier: tierOf(s, a), via };
}

// services/identity/session.ts
async function openSession(ctx, account2) {
  const now = ctx.clock();
  const token = newSessionToken();
  const expires_at = now + ctx.config.sessionHours * 36e5;
  await ctx.store.sessions.add(digest(token), { principal_id: account2.id, key_gen: account2.key_gen, expires_at }, now);
  return { token, expires_at };
}

// services/doors/secrets.ts
import { createHash, createHmac, randomBytes as randomBytes5, randomInt } from "node:crypto";
var ASK_TTL_MS = 15 * 6e4;
var X_TTL_MS = 10 * 6e4;
var PROOF_TTL_MS = 15 * 6e4;
var keyed2 = (salt, purpose, value) => createHmac("sha256", salt).update(`${purpose}|${value}`).digest("hex");
var normalEmail = (address3) => address3.trim().toLowerCase();
var emailKey = (salt, address3) => `email:${keyed2(salt, "email", normalEmail(address3))}`;
var xKey = (id) => `x:${id}`;
var maskEmail = (address3) => {
  const [local = "", domain = ""] = normalEmail(address3).split("@");
  return `${local.slice(0, 1)}***@${domain}`;
};
var newCode = () => String(randomInt(0, 1e6)).padStart(6, "0");
var newLinkToken = () => `dl_${randomBytes5(32).toString("base64url")}`;
var newProof = () => `dp_${randomBytes5(32).toString("base64url")}`;
var newState = () => randomBytes5(32).toString("base64url");
var pkceVerifier = (salt, state) => createHmac("sha256", salt).update(`x-pkce|${state}`).digest("base64url");
var s256 = (verifier) => createHash("sha256").update(verifier).digest("base64url");

// services/doors/proved.ts
function linkedAccount(ctx, key) {
  const link = ctx.store.doors.data.links[key];
  return link ? ctx.store.accounts.byId(link.principal_id) : null;
}
async function proved(ctx, door, key, label2) {
  const now = ctx.clock();
  await ctx.login.cleared(clientOf(ctx, ctx.caller));
  const account2 = linkedAccount(ctx, key);
  if (account2) {
    const session = await openSession(ctx, account2);
    ctx.log.info("door_sign_in", { door, name: account2.name });
    return {
      signed_in: true,
      door,
      label: label2,
      name: account2.name,
      agent_id: account2.agent_id,
      expires_at: new Date(session.expires_at).toISOString(),
      next: `signed in as ${account2.name} for ${ctx.config.sessionHours} hours; a new key, if you lost yours: POST ${ctx.urls.base}/me/key { "confirm": "rotate" }`,
      session
    };
  }
  const proof = newProof();
  const expires_at = now + PROOF_TTL_MS;
  await ctx.store.doors.update(now, (d) => void (d.proofs[digest(proof)] = { door, key, label: label2, expires_at }));
  return {
    signed_in: false,
    door,
    label: label2,
    expires_at: new Date(expires_at).toISOString(),
    proof,
    next: `${label2} is linked to no principal yet: join with POST ${ctx.urls.base}/join { "name", "proof" }, or, signed in, link it with POST ${ctx.urls.base}/me/doors { "proof" }, within 15 minutes`
  };
}

// services/doors/email.ts
var SENDS_PER_ADDRESS = 5;
var SENDS_PER_CLIENT = 20;
var SEND_WINDOW_MS = 36e5;
var CODE_TRIES = 5;
function mailer(ctx) {
  if (!ctx.upstreams.mail) throw notConfigured("the email door", "DECK_SMTP_URL and DECK_EMAIL_FROM");
  return ctx.upstreams.mail;
}
function notResting(ctx) {
  const client = clientOf(ctx, ctx.caller);
  const restingS = ctx.login.restingFor(client, ctx.clock());
  if (restingS > 0) throw resting(restingS);
  return client;
}
var codeDigest = (salt, token, code) => keyed2(salt, "code", `${digest(token)}|${code}`);
async function sendSignIn(ctx, address3) {
  const mail = mailer(ctx);
  const client = notResting(ctx);
  const now = ctx.clock();
  const key = emailKey(ctx.store.salt, address3);
  const label2 = maskEmail(address3);
  const token = newLinkToken();
  const code = newCode();
  const expires_at = now + ASK_TTL_MS;
  const counted2 = [`to:${key}`, `from:${client}`];
  await ctx.store.doors.update(now, (d) => {
    const [to, from] = counted2.map((k) => d.sends[k] ?? { until: now + SEND_WINDOW_MS, n: 0 });
    for (const [w, most, who] of [[to, SENDS_PER_ADDRESS, "to one address"], [from, SENDS_PER_CLIENT, "from one client"]]) {
      if (w.n >= most) throw limitReached("email_limit", `at most ${most} sign-in mails an hour ${who}`, (w.until - now) / 1e3);
    }
    for (const [k, ask] of Object.entries(d.asks)) if (ask.key === key) delete d.asks[k];
    d.asks[digest(token)] = { key, label: label2, code: codeDigest(ctx.store.salt, token, code), tries: 0, expires_at };
    d.sends[counted2[0]] = { until: to.until, n: to.n + 1 };
    d.sends[counted2[1]] = { until: from.until, n: from.n + 1 };
  });
  const link = new URL(ctx.urls.join);
  link.searchParams.set("email_token", token);
  try {
    await mail.send({
      to: address3,
      subject: "Your sign-in code for the deck",
      text: [
        `Your sign-in code: ${code}`,
        "",
        `Or open this link to sign in: ${link.href}`,
        "",
        "The code and the link work once, for 15 minutes. If you did not ask to sign in, ignore this mail: nothing happens without them."
      ].join("\n")
    });
  } catch (error) {
    await ctx.store.doors.update(ctx.clock(), (d) => {
      delete d.asks[digest(token)];
      for (const k of counted2) if (d.sends[k]) d.sends[k].n = Math.max(0, d.sends[k].n - 1);
    });
    throw error;
  }
  ctx.log.info("email_sent", { to: label2 });
  return {
    ok: true,
    sent: true,
    to: label2,
    expires_at: new Date(expires_at).toISOString(),
    next: `enter the code with POST ${ctx.urls.base}/auth/email/verify { "email", "code" }, or open the link in the mail`
  };
}
async function verifySignIn(ctx, presented) {
  mailer(ctx);
  const client = notResting(ctx);
  const now = ctx.clock();
  const salt = ctx.store.salt;
  const ask = await ctx.store.doors.update(now, (d) => {
    if ("token" in presented) {
      const k2 = digest(presented.token);
      const found2 = d.asks[k2] ?? null;
      delete d.asks[k2];
      return found2;
    }
    const key = emailKey(salt, presented.email);
    const entry = Object.entries(d.asks).find(([, a]) => a.key === key);
    if (!entry) return null;
    const [k, found] = entry;
    if (keyed2(salt, "code", `${k}|${presented.code}`) === found.code) {
      delete d.asks[k];
      return found;
    }
    found.tries += 1;
    if (found.tries >= CODE_TRIES) delete d.asks[k];
    return null;
  });
  if (!ask) {
    await ctx.login.refused(client, now);
    throw new DeckError(401, "code_refused", "the code or link is wrong, used or expired: ask for a new mail with POST /auth/email");
  }
  return proved(ctx, "email", ask.key, ask.label);
}

// tools/identity/email-send.ts
var emailSend = defineTool({
  name: "email_send",
  title: "Sign in by email",
  description: "Sends a sign-in mail to the address: a six-digit code and a link, each good once for 15 minutes. Signed in through it, you are the principal the address is linked to; an address linked to none gives a proof to join with, or to link to the principal you are signed in as. The same mail goes either way. At most 5 mails an hour to one address and 20 from one client (429). 503 when the email door is not configured.",
  input: z54.object({ email: z54.email("an email address").max(254, "at most 254 characters") }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: "none",
  surface: "rest",
  output: answer({
    sent: z54.literal(true),
    to: z54.string().describe("the address, masked"),
    expires_at: z54.iso.datetime().describe("when the code and the link stop working"),
    next: z54.string()
  }),
  toolset: TOOLSETS.identity,
  rest: { method: "POST", path: "/auth/email", errors: [429, 502, 503] },
  async run(ctx, { email }) {
    return sendSignIn(ctx, email);
  }
});

// tools/identity/email-verify.ts
import { z as z55 } from "zod";
var emailVerify = defineTool({
  name: "email_verify",
  title: "Finish signing in by email",
  description: "Spends a sign-in mail's link token ({ token }) or its address and code ({ email, code }). Linked to a principal: signed in as it, the deck_session cookie set as by POST /login. Linked to none: a proof (15 minutes) to join with (POST /join { name, proof }) or to link (POST /me/doors { proof }). A wrong, used or expired code or link is 401 and counts with the login throttle (429 while the address rests); five wrong codes end the sign-in.",
  input: z55.object({
    token: z55.string().min(1).max(200).optional().describe("the link's email_token (or email and code)"),
    email: z55.email("an email address").max(254).optional().describe("the address the code was sent to"),
    code: z55.string().regex(/^\d{6}$/, "six digits").optional().describe("the six-digit code of the mail")
  }).strict().refine((i) => i.token !== void 0 !== (i.email !== void 0 && i.code !== void 0) && (i.token === void 0 || i.email === void 0 && i.code === void 0), {
    message: "send the link token alone, or the email and the code",
    path: ["token"]
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: "none",
  surface: "rest",
  output: ProvedAnswer,
  toolset: TOOLSETS.identity,
  rest: { method: "POST", path: "/auth/email/verify", cookie: "set", errors: [401, 429, 503] },
  async run(ctx, { token, email, code }) {
    return { ok: true, ...await verifySignIn(ctx, token !== void 0 ? { token } : { email, code }) };
  }
});

// tools/identity/join.ts
import { randomBytes as randomBytes6 } from "node:crypto";
import { z as z57 } from "zod";

// services/identity/name-rule.ts
import { getAddress, isAddress } from "ethers/address";
import { z as z56 } from "zod";
var NAME_RULE = "3 to 32 characters of a-z, 0-9, - and _ (lower-cased on input); house names are reserved";
var WALLET_RULE = "optional 0x-prefixed 20-byte address; becomes your operator, unproven: it counts (plan claims, series) only once its own signature proves it (GET /me/wallet)";
var Name = z56.string().transform((s) => s.trim().toLowerCase()).pipe(z56.string().min(3, "at least 3 characters").max(32, "at most 32 characters").regex(/^[a-z0-9_-]+$/, "only a-z, 0-9, - and _"));
var Wallet = z56.string().regex(/^0x[0-9a-fA-F]{40}$/, { error: "not an address: 0x and 40 hex digits", abort: true }).refine(isAddress, "its mixed-case checksum (EIP-55) does not hold: check the address, or send it in lower case").transform((s) => getAddress(s));

// tools/identity/join.ts
var join3 = defineTool({
  name: "join",
  title: "Join",
  description: "Mints a principal and its key at the identity door. The key is shown once, in this answer, and never again: the deck keeps only its digest. A person does this, in a browser at the join page or with curl; never a server or an agent. With the proof an email or X sign-in gave, the new principal is linked to that door (422 naming proof when it is not live; 409 door_taken when another principal took the door meanwhile).",
  input: z57.object({
    name: Name,
    wallet: Wallet.nullable().optional(),
    proof: z57.string().min(1).max(200).optional().describe("a proof an email or X sign-in gave: the new principal is linked to that door")
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: "none",
  surface: "rest",
  output: answer({
    principal: z57.object({
      name: z57.string(),
      agent_id: z57.string(),
      wallet: z57.string().nullable(),
      wallet_status: z57.enum(["unproven"]).nullable().describe("a wallet named at join is unproven until its own signature proves it (POST /me/wallet)")
    }),
    key: z57.string().describe("the key, shown once, in this answer, and never again"),
    shown_once: z57.literal(true),
    next: z57.string().describe("how to sign in")
  }),
  toolset: TOOLSETS.identity,
  rest: { method: "POST", path: "/join", status: 201, errors: [409, 429, 502, 503] },
  async run(ctx, { name, wallet: wallet2, proof }) {
    if (ctx.config.reservedNames.has(name)) throw badInput([{ field: "name", message: "reserved for the house" }]);
    if (proof !== void 0) proofOf(ctx, proof);
    if (ctx.store.accounts.byName(name)) throw new DeckError(409, "name_taken", `the name ${name} is taken`, { field: "name" });
    const now = ctx.clock();
    const day = utcDay(now);
    const client = clientOf(ctx, ctx.caller);
    const { joinPerClient: perClient, joinPerDay: perDay } = ctx.config;
    const admit = (n) => {
      if (perClient !== null && n.client >= perClient) throw limitReached("join_limit", `at most ${perClient} principals a day from one client`, secondsToNextUtcDay(now));
      if (n.total >= perDay) throw limitReached("join_limit", `at most ${perDay} principals a day for everyone`, secondsToNextUtcDay(now));
    };
    return ctx.guards.run("join", HOUSE_WIDE, async () => {
      await ctx.store.backend.catchUp();
      if (ctx.store.accounts.byName(name)) throw new DeckError(409, "name_taken", `the name ${name} is taken`, { field: "name" });
      admit(ctx.store.accounts.joinsOn(day, client));
      const { principal, key } = await ctx.upstreams.door.mint({ name, wallet: wallet2 ?? null });
      if (proof !== void 0) await linkProof(ctx, proof, principal.id);
      const account2 = await ctx.store.accounts.join(
        { id: principal.id, name: principal.name, agent_id: `agent_${randomBytes6(8).toString("hex")}`, wallet: principal.wallet, key_gen: 1, created_at: ctx.clock() },
        day,
        client
      );
      ctx.log.info("join", { name: account2.name, agent_id: account2.agent_id });
      return {
        ok: true,
        principal: { name: account2.name, agent_id: account2.agent_id, wallet: account2.wallet, wallet_status: account2.wallet ? "unproven" : null },
        key,
        shown_once: true,
        next: `sign in: POST ${ctx.urls.base}/login with { "key": "<your key>" }`
      };
    });
  }
});

// tools/identity/join-info.ts
import { z as z58 } from "zod";
var joinInfo = defineTool({
  name: "join_info",
  title: "How to join",
  description: "The rules of joining: the daily limits, the name rule and the wallet rule.",
  input: z58.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "none",
  surface: "rest",
  output: answer({
    limits: z58.object({
      per_client_per_day: z58.number().int().nullable().describe("principals minted per client per UTC day; null: no per-client limit (a deck only its own machine reaches, DECK_PROFILE=local)"),
      everyone_per_day: z58.number().int()
    }),
    name_rule: z58.string(),
    wallet: z58.string().describe("the wallet rule"),
    join_url: z58.string()
  }),
  toolset: TOOLSETS.identity,
  rest: { method: "GET", path: "/join" },
  async run(ctx) {
    return {
      ok: true,
      limits: { per_client_per_day: ctx.config.joinPerClient, everyone_per_day: ctx.config.joinPerDay },
      name_rule: NAME_RULE,
      wallet: WALLET_RULE,
      join_url: ctx.urls.join
    };
  }
});

// tools/identity/login.ts
import { z as z59 } from "zod";
var login = defineTool({
  name: "login",
  title: "Sign in",
  description: "Exchanges your key for a session: the httpOnly deck_session cookie, valid 12 hours. Its value is also accepted as the bearer on every route and on MCP. The key is verified at the identity door, whose verdict alone is trusted.",
  input: z59.object({ key: z59.string().min(1, "the key you were shown at join").max(512, "at most 512 characters") }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: "none",
  surface: "rest",
  output: answer({
    name: z59.string(),
    agent_id: z59.string(),
    expires_at: z59.iso.datetime().describe("when the session ends"),
    session: z59.object({ token: z59.string(), expires_at: z59.number().int() }).describe("the session, which REST moves into the deck_session cookie (never in the body)")
  }),
  toolset: TOOLSETS.identity,
  rest: { method: "POST", path: "/login", cookie: "set", errors: [401, 429, 502, 503] },
  async run(ctx, { key }) {
    const now = ctx.clock();
    const client = clientOf(ctx, ctx.caller);
    const restingS = ctx.login.restingFor(client, now);
    if (restingS > 0) throw resting(restingS);
    const found = await ctx.upstreams.door.verify(key);
    const account2 = found ? ctx.store.accounts.byId(found.id) : null;
    if (!account2) {
      await ctx.login.refused(client, now);
      throw new DeckError(401, "key_refused", "the key was refused (unknown, rotated or revoked)");
    }
    await ctx.login.cleared(client);
    const session = await openSession(ctx, account2);
    ctx.log.info("login", { name: account2.name });
    return { ok: true, name: account2.name, agent_id: account2.agent_id, expires_at: new Date(session.expires_at).toISOString(), session };
  }
});

// tools/identity/logout.ts
import { z as z60 } from "zod";

// services/oauth/tokens.ts
import { randomBytes as randomBytes7 } from "node:crypto";
import { InvalidGrantError, InvalidTargetError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";

// services/oauth/resources.ts
var WELL_KNOWN = "/.well-known/oauth-protected-resource";
function protectedResources(base, endpoints) {
  return [
    { url: base, path: "/", name: "the deck (every MCP endpoint)", metadataPath: WELL_KNOWN },
    ...endpoints.map((e) => ({ url: `${base}${e.path}`, path: e.path, name: e.name, metadataPath: `${WELL_KNOWN}${e.path}` }))
  ];
}
function resourceNamed(resources, requested) {
  const wanted = requested.endsWith("/") ? requested.slice(0, -1) : requested;
  return resources.find((r) => r.url === wanted) ?? null;
}
var resourceMetadata = (r, issuer, docs) => ({
  resource: r.url,
  authorization_servers: [issuer],
  bearer_methods_supported: ["header"],
  resource_name: r.name,
  resource_documentation: docs
});
function challenges(base, r) {
  const missing = `Bearer resource_metadata="${base}${r.metadataPath}"`;
  return { missing, invalid: `${missing}, error="invalid_token"` };
}

// services/oauth/tokens.ts
var REFRESH_TTL_MS = 30 * 24 * 36e5;
var newRefreshToken = () => `dr_${randomBytes7(32).toString("base64url")}`;
var newGrantId = () => `g_${randomBytes7(12).toString("base64url")}`;
function sameResource(s, requested, consented) {
  if (requested === void 0) return;
  const r = resourceNamed(s.oauth.resources, requested.href);
  if (!r || r.path !== consented) throw new InvalidTargetError(`resource ${requested.href} is not the one consented to`);
}
async function accessFor(s, grant, g, refresh2) {
  const now = s.clock();
  const token = newSessionToken();
  const ttlMs = s.config.sessionHours * 36e5;
  await s.store.sessions.add(digest(token), { principal_id: g.principal_id, key_gen: g.key_gen, expires_at: now + ttlMs, resource: g.resource, grant }, now);
  return { access_token: token, token_type: "Bearer", expires_in: Math.floor(ttlMs / 1e3), refresh_token: refresh2 };
}
async function endGrants(s, ids) {
  await s.store.oauth.endGrants(ids);
  await s.store.sessions.removeGrants(ids);
}
async function stillValid(s, grant, g) {
  const account2 = s.store.accounts.byId(g.principal_id);
  if (account2 && account2.key_gen === g.key_gen) return;
  await endGrants(s, [grant]);
  throw new InvalidGrantError("the key this was granted under was rotated: ask the person again");
}
async function challengeOf(s, clientId, code) {
  const c = s.oauth.authorizations.code(code, s.clock());
  if (!c || c.client_id !== clientId) throw new InvalidGrantError("the code is unknown, expired or not this client's");
  if (c.grant !== null) {
    await endGrants(s, [c.grant]);
    throw new InvalidGrantError("the code was already used; the tokens it gave are revoked");
  }
  return c.code_challenge;
}
async function exchangeCode(s, clientId, code, redirectUri, resource) {
  const now = s.clock();
  const c = s.oauth.authorizations.code(code, now);
  if (!c || c.client_id !== clientId) throw new InvalidGrantError("the code is unknown, expired or not this client's");
  if (redirectUri !== void 0 && redirectUri !== c.redirect_uri) throw new InvalidGrantError("redirect_uri is not the one the code was issued to");
  sameResource(s, resource, c.resource);
  const id = newGrantId();
  if (!s.oauth.authorizations.spend(code, id, now)) throw new InvalidGrantError("the code was already used");
  const grant = { client_id: clientId, principal_id: c.principal_id, key_gen: c.key_gen, resource: c.resource };
  await stillValid(s, id, grant);
  const refresh2 = newRefreshToken();
  await s.store.oauth.addGrant(id, { ...grant, refresh: digest(refresh2), refresh_expires_at: now + REFRESH_TTL_MS, spent: [], created_at: now }, now);
  return accessFor(s, id, grant, refresh2);
}
async function refresh(s, clientId, token, resource) {
  const now = s.clock();
  const found = s.store.oauth.grantOfRefresh(digest(token));
  if (!found || found.grant.client_id !== clientId) throw new InvalidGrantError("the refresh token is unknown, revoked or not this client's");
  const { id, grant } = found;
  if (found.spent) {
    await endGrants(s, [id]);
    throw new InvalidGrantError("the refresh token was already used; the grant is revoked");
  }
  if (grant.refresh_expires_at <= now) throw new InvalidGrantError("the refresh token has expired: ask the person again");
  sameResource(s, resource, grant.resource);
  await stillValid(s, id, grant);
  const next = newRefreshToken();
  if (!await s.store.oauth.rotate(id, digest(token), digest(next), now + REFRESH_TTL_MS)) {
    await endGrants(s, [id]);
    throw new InvalidGrantError("the refresh token was already used; the grant is revoked");
  }
  return accessFor(s, id, grant, next);
}
async function revoke(s, clientId, token) {
  const hash2 = digest(token);
  const session = s.store.sessions.get(hash2);
  const grant = session?.grant ?? s.store.oauth.grantOfRefresh(hash2)?.id;
  if (grant && s.store.oauth.grant(grant)?.client_id === clientId) await endGrants(s, [grant]);
}
async function endSession(s, token) {
  const hash2 = digest(token);
  const grant = s.store.sessions.get(hash2)?.grant;
  if (grant) await endGrants(s, [grant]);
  else await s.store.sessions.remove(hash2);
}
function verifyAccess(s, token) {
  const session = s.store.sessions.get(digest(token));
  const grant = session?.grant ? s.store.oauth.grant(session.grant) : null;
  if (!session || !grant || session.expires_at <= s.clock()) throw new InvalidTokenError("the access token is unknown, expired or revoked");
  const resource = s.oauth.resources.find((r) => r.path === session.resource);
  return {
    token,
    clientId: grant.client_id,
    scopes: [],
    expiresAt: Math.floor(session.expires_at / 1e3),
    ...resource ? { resource: new URL(resource.url) } : {}
  };
}

// tools/identity/logout.ts
var logout = defineTool({
  name: "logout",
  title: "Sign out",
  description: "Ends this session and clears the cookie. The key stays valid. A session an app holds by OAuth ends with its refresh token.",
  input: z60.object({}).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "none",
  surface: "rest",
  output: answer({}),
  toolset: TOOLSETS.identity,
  rest: { method: "POST", path: "/logout", body: "none", cookie: "clear" },
  async run(ctx) {
    if (ctx.credential?.kind === "session") await endSession(ctx, ctx.credential.value);
    return { ok: true };
  }
});

// tools/identity/rotate-key.ts
import { z as z61 } from "zod";
var rotateKey = defineTool({
  name: "rotate_key",
  title: "Rotate your key",
  description: 'Replaces your key. The previous key and every other session signed in with it stop at this instant; the session that asks stays signed in, so an answer lost on the way is mended by rotating again from it. The body must be { "confirm": "rotate" }. The new key is shown once.',
  input: z61.object({ confirm: z61.literal("rotate", { error: "must be the word rotate" }) }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  access: "session",
  surface: "rest",
  output: answer({ api_key: z61.string().describe("the new key, shown once"), shown_once: z61.literal(true) }),
  toolset: TOOLSETS.identity,
  rest: { method: "POST", path: "/me/key", errors: [502, 503] },
  // One at a time per principal, so the embedded door is never more than one key ahead of the account.
  guard: "key_rotation",
  async run(ctx) {
    const p = ctx.principal;
    const api_key = await ctx.upstreams.door.rotate(p.id);
    await ctx.store.accounts.bumpKeyGen(p.id, ctx.credential?.kind === "session" ? digest(ctx.credential.value) : null);
    ctx.log.info("key_rotated", { name: p.name });
    return { ok: true, api_key, shown_once: true };
  }
});

// tools/marks/mark-add.ts
import { randomBytes as randomBytes8 } from "node:crypto";
import { z as z63 } from "zod";

// services/marks/mark-schema.ts
import { z as z62 } from "zod";
var MARK_LIMITS = { perMarket: 20, total: 60, note: 140 };
var MARK_ID = /^mk_[0-9a-f]{16}$/;
var price = z62.number().finite().positive();
var Mark = z62.object({
  id: z62.string().regex(MARK_ID),
  market: z62.enum(MARKETS),
  kind: z62.enum(["level", "zone"]),
  price: z62.number(),
  price2: z62.number().optional().describe("the other edge, for a zone"),
  note: z62.string().optional(),
  created_at: z62.number().int()
});
var MarkInput = z62.object({
  market: z62.enum(MARKETS),
  kind: z62.enum(["level", "zone"]),
  price,
  price2: price.optional().describe("the other edge, for a zone"),
  note: z62.string().trim().max(MARK_LIMITS.note).regex(/^[^<>`\u0000-\u001f\u007f]*$/, "a short plain note: no markup (< > `) and no control characters").optional()
}).strict().superRefine((m, ctx) => {
  if (m.kind === "zone" && m.price2 === void 0) ctx.addIssue({ code: "custom", path: ["price2"], message: "a zone needs price2" });
  if (m.kind === "zone" && m.price2 === m.price) ctx.addIssue({ code: "custom", path: ["price2"], message: "a zone needs two different prices" });
  if (m.kind === "level" && m.price2 !== void 0) ctx.addIssue({ code: "custom", path: ["price2"], message: "price2 is for a zone only" });
});

// tools/marks/mark-add.ts
var marksAdd = defineTool({
  name: "mark_add",
  title: "Place a mark",
  description: `Places a level or a zone on a market. At most ${MARK_LIMITS.perMarket} per market and ${MARK_LIMITS.total} in all.`,
  input: MarkInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: "session",
  output: answer({ mark: Mark.describe("the mark placed"), marks: z63.array(Mark).describe("all your marks now") }),
  toolset: TOOLSETS.marks,
  rest: { method: "POST", path: "/me/marks", errors: [409] },
  async run(ctx, input) {
    const mark = { id: `mk_${randomBytes8(8).toString("hex")}`, ...input, created_at: ctx.clock() };
    const marks = await ctx.store.marks.add(ctx.principal.id, mark, (mine) => {
      if (mine.length >= MARK_LIMITS.total) throw new DeckError(409, "cap_reached", `you have ${MARK_LIMITS.total} marks, the most there can be`);
      if (mine.filter((m) => m.market === input.market).length >= MARK_LIMITS.perMarket)
        throw new DeckError(409, "cap_reached", `you have ${MARK_LIMITS.perMarket} marks on ${input.market}, the most one market can have`);
    });
    return { ok: true, mark, marks };
  }
});

// tools/marks/marks.ts
import { z as z64 } from "zod";

// engine/marks-words.ts
var said = (m) => {
  const what2 = m.kind === "zone" ? `a zone from ${Math.min(m.price, m.price2)} to ${Math.max(m.price, m.price2)}` : `a level at ${m.price}`;
  return m.note ? `${what2} (${m.note})` : what2;
};
var joined = (parts) => parts.length <= 1 ? parts[0] ?? "" : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
function marksInWords(marks) {
  const byMarket = /* @__PURE__ */ new Map();
  for (const m of marks) byMarket.set(m.market, [...byMarket.get(m.market) ?? [], m]);
  return [...byMarket].map(([market, ms]) => `On ${market} you marked ${joined(ms.map(said))}.`);
}

// tools/marks/marks.ts
var marksList = defineTool({
  name: "marks",
  title: "Your marks",
  description: "The prices you placed by hand (levels and zones), with one plain sentence per market stating them.",
  input: z64.object({ market: z64.enum(MARKETS).optional() }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "session",
  output: answer({ marks: z64.array(Mark), words: z64.array(z64.string()).describe("one plain sentence per market stating its marks") }),
  toolset: TOOLSETS.marks,
  rest: { method: "GET", path: "/me/marks" },
  async run(ctx, { market }) {
    const all = ctx.store.marks.list(ctx.principal.id);
    const marks = market ? all.filter((m) => m.market === market) : all;
    return { ok: true, marks, words: marksInWords(marks) };
  }
});

// tools/marks/mark-remove.ts
import { z as z65 } from "zod";
var marksRemove = defineTool({
  name: "mark_remove",
  title: "Remove a mark",
  description: "Removes one of your marks by its id (as marks lists it): it is gone for good, and no plate drawn after draws it.",
  input: z65.object({ id: z65.string().regex(MARK_ID, "not a mark id") }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  access: "session",
  output: answer({ marks: z65.array(Mark).describe("your marks left") }),
  toolset: TOOLSETS.marks,
  rest: { method: "DELETE", path: "/me/marks", errors: [404] },
  async run(ctx, { id }) {
    const marks = await ctx.store.marks.remove(ctx.principal.id, id);
    if (!marks) throw new DeckError(404, "not_found", "no such mark of yours");
    return { ok: true, marks };
  }
});

// tools/plans/mandate-add.ts
import { getAddress as getAddress2, isAddress as isAddress2 } from "ethers";
import { z as z68 } from "zod";

// engine/mandates/house.ts
function notHouseMandate(signer, chainId2, spot) {
  if (!spot.administrators.some((a) => a.toLowerCase() === signer.toLowerCase())) return `the signer ${signer} is not a spot administrator of the house`;
  if (chainId2 !== spot.chainId) return `domain.chainId ${chainId2 ?? "is missing; it"} must be the house's spot chain ${spot.chainId}`;
  return null;
}

// engine/mandates/typed-data.ts
import { TypedDataEncoder, verifyTypedData } from "ethers";
var DOMAIN = "EIP712Domain";
var isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
var structOf = (type, types) => {
  const base = type.replace(/(\[\d*\])+$/, "");
  return types[base] ? base : null;
};
function undeclared(td) {
  const problems = [];
  const walk = (value, type, path) => {
    const struct = structOf(type, td.types);
    if (!struct) return;
    if (type !== struct) {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, type.replace(/\[\d*\]$/, ""), `${path}.${i}`));
      return;
    }
    if (!isObject(value)) return;
    const fields = td.types[struct];
    for (const key of Object.keys(value)) {
      if (!fields.some((f) => f.name === key)) problems.push({ field: `${path}.${key}`, message: `not declared by the type ${struct}` });
    }
    for (const f of fields) {
      if (value[f.name] === void 0) problems.push({ field: `${path}.${f.name}`, message: `declared by ${struct} but missing` });
      else walk(value[f.name], f.type, `${path}.${f.name}`);
    }
  };
  if (!td.types[td.primaryType]) problems.push({ field: "typed_data.primaryType", message: `names no type of types (${td.primaryType})` });
  else walk(td.message, td.primaryType, "typed_data.message");
  const declared = td.types[DOMAIN];
  if (declared) {
    for (const key of Object.keys(td.domain)) {
      if (!declared.some((f) => f.name === key)) problems.push({ field: `typed_data.domain.${key}`, message: `not declared by the type ${DOMAIN}` });
    }
    for (const f of declared) if (td.domain[f.name] === void 0) problems.push({ field: `typed_data.domain.${f.name}`, message: `declared by ${DOMAIN} but missing` });
  }
  return problems;
}
var structTypes = (types) => Object.fromEntries(Object.entries(types).filter(([name]) => name !== DOMAIN));
function recoverTypedData(td) {
  const types = structTypes(td.types);
  const hash2 = TypedDataEncoder.hash(td.domain, types, td.message);
  const signer = verifyTypedData(td.domain, types, td.message, td.signature);
  return { hash: hash2, signer };
}
function domainChainId(domain) {
  const raw = domain.chainId;
  if (typeof raw !== "number" && typeof raw !== "string") return null;
  try {
    const n = BigInt(raw);
    return n > 0n && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : null;
  } catch {
    return null;
  }
}

// upstream/chain/provider.ts
import { FetchRequest, JsonRpcProvider, makeError, Network } from "ethers";
var RPC_TIMEOUT_MS = 5e3;
var wholeExchange = async (req, cancel) => {
  const deadline = AbortSignal.timeout(RPC_TIMEOUT_MS);
  const cancelled = new AbortController();
  cancel?.addListener(() => cancelled.abort());
  const { "accept-encoding": _, ...headers } = req.headers;
  try {
    const res = await (await undici()).request(req.url, {
      method: req.method,
      headers,
      body: req.body ? Buffer.from(req.body) : null,
      signal: AbortSignal.any([deadline, cancelled.signal])
    });
    const body = new Uint8Array(await res.body.arrayBuffer());
    const answered2 = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : v ?? ""]));
    return { statusCode: res.statusCode, statusMessage: "", headers: answered2, body };
  } catch (error) {
    if (deadline.aborted) throw makeError("request timeout", "TIMEOUT");
    throw error;
  }
};
var chainNumber = (caip2) => Number(caip2.slice("eip155:".length));
function rpcProvider(url, chainId2) {
  const request = new FetchRequest(url);
  request.timeout = RPC_TIMEOUT_MS;
  request.getUrlFunc = wholeExchange;
  const network = Network.from(chainId2);
  return new JsonRpcProvider(request, network, { staticNetwork: network, cacheTimeout: -1, batchMaxCount: 1 });
}

// services/mandates/answers.ts
import { z as z67 } from "zod";

// store/mandates.ts
import { z as z66 } from "zod";
var MandateRecordSchema = z66.strictObject({
  principal_id: z66.string(),
  signer: Address.describe("who signed it"),
  chain_id: z66.number().int().describe("the domain's chain"),
  eip712_hash: z66.string().regex(/^0x[0-9a-f]{64}$/),
  primary_type: z66.string(),
  vault: Address.describe("the vault the message names, checksummed"),
  vault_matches: z66.boolean().describe("whether the vault's on-chain mandateHash() is this mandate's EIP-712 hash"),
  vault_hash: z66.string().nullable().describe("the vault's mandateHash() when recorded; null when the address answers none"),
  typed_data: z66.record(z66.string(), z66.unknown()).describe("the EIP-712 payload as signed")
});
var Mandates = class _Mandates {
  constructor(ledger) {
    this.ledger = ledger;
  }
  ledger;
  /** Every entry of the ledger, in chain order (the records' history reads it). */
  get entries() {
    return this.ledger.all;
  }
  static async open(backend) {
    return new _Mandates(await backend.ledger("mandates"));
  }
  record(mandate, at) {
    return this.ledger.append(mandate, at);
  }
};

// services/mandates/answers.ts
var TypedData = z67.object({
  domain: z67.record(z67.string(), z67.unknown()),
  types: z67.record(z67.string(), z67.array(z67.object({ name: z67.string().min(1), type: z67.string().min(1) }).strict())),
  primaryType: z67.string().min(1),
  // Every key is kept as sent, so keys the types do not declare can be seen and refused.
  message: z67.record(z67.string(), z67.unknown()),
  signature: z67.string().regex(/^0x[0-9a-fA-F]{130}$/, "a 65-byte signature: 0x and 130 hex digits")
}).strict();
var MandateEntry = MandateRecordSchema.omit({ principal_id: true }).extend({ typed_data: TypedData.describe("the EIP-712 payload as signed") });
var MandateAnswer = answer({
  mandate: MandateEntry.extend({
    seq: z67.number().int().min(1).describe("where it is chained in the mandates ledger"),
    hash: z67.string().describe("its hash in the ledger"),
    recorded_at: IsoTime
  })
});

// tools/plans/mandate-add.ts
var MANDATE_MAX_BYTES = 16 * 1024;
var mandateAdd = defineTool({
  name: "mandate_add",
  title: "Record a house mandate",
  description: "Records a mandate for the house operator: typed_data is the EIP-712 payload exactly as the wallet signed it (domain, types with EIP712Domain, primaryType, message) plus the signature it returned. Only a spot administrator's signature over a domain on the house's spot chain is recorded (else 422 not_a_house_mandate); the message names its vault, and the record says whether that vault's on-chain mandateHash() is this mandate's EIP-712 hash (vault_matches): the operator trades only a vault that matches. Keys the types do not declare are refused; 413 over 16 KiB. Moves no money.",
  input: z68.object({ typed_data: TypedData.describe("the EIP-712 payload as signed, with its signature") }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: MandateAnswer,
  access: "session",
  // As many entries as 16 KiB can hold: the size cap decides what is too large (413), as the contract says.
  toolset: TOOLSETS.plans,
  rest: { method: "POST", path: "/me/mandates", maxBody: MANDATE_MAX_BYTES, bounds: { entries: MANDATE_MAX_BYTES / 2 }, errors: [413, 502, 503] },
  async run(ctx, { typed_data: td }) {
    const p = ctx.principal;
    if (Buffer.byteLength(JSON.stringify(td)) > MANDATE_MAX_BYTES) throw new DeckError(413, "too_large", `a mandate is at most ${MANDATE_MAX_BYTES} bytes of JSON`);
    const spot = ctx.offer.plans.spot;
    if (!spot) throw notConfigured("the house's spot chain", "spot { chain, administrators } in the plans file");
    const problems = undeclared(td);
    if (problems.length) throw badInput(problems);
    const vaultField = td.types[td.primaryType].find((f) => f.name === "vault");
    const vault = td.message.vault;
    if (vaultField?.type !== "address" || typeof vault !== "string" || !isAddress2(vault)) {
      throw badInput([{ field: "typed_data.message.vault", message: `a house mandate names its vault: a field vault of type address in ${td.primaryType}` }]);
    }
    let signed;
    try {
      signed = recoverTypedData(td);
    } catch (error) {
      throw badInput([{ field: "typed_data", message: `does not verify as EIP-712: ${error.shortMessage ?? error.message}` }]);
    }
    const chainId2 = domainChainId(td.domain);
    const why = notHouseMandate(signed.signer, chainId2, { chainId: chainNumber(spot.chain), administrators: spot.administrators });
    if (why) throw new DeckError(422, "not_a_house_mandate", `not a mandate the house operator runs: ${why}`, { signer: signed.signer });
    const onChain = await ctx.upstreams.chains.reader(spot.chain).mandateHash(vault);
    const recorded = await ctx.store.mandates.record(
      {
        principal_id: p.id,
        signer: signed.signer,
        chain_id: chainId2,
        eip712_hash: signed.hash,
        primary_type: td.primaryType,
        vault: getAddress2(vault.toLowerCase()),
        vault_matches: onChain !== null && onChain.toLowerCase() === signed.hash.toLowerCase(),
        vault_hash: onChain,
        typed_data: td
      },
      ctx.clock()
    );
    const { principal_id: _owner, ...mandate } = recorded.entry;
    return { ok: true, mandate: { ...mandate, seq: recorded.seq, hash: recorded.hash, recorded_at: new Date(recorded.at).toISOString() } };
  }
});

// tools/plans/grants.ts
import { z as z69 } from "zod";
var grants = defineTool({
  name: "grants",
  title: "Grants",
  description: "Your grant (from the grants file under version control) and today's spend. all=1 lists every principal's grant and is house only. Read-only: granting is an operator's commit, never a call.",
  input: z69.object({ all: flag.optional().describe("true: every grant (house only)") }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "session",
  output: z69.union([
    answer({ grant: Grant.nullable().describe("your grant, from the grants file"), today: MeterView }),
    answer({
      grants: z69.array(Grant.extend({ joined: z69.boolean(), today: MeterView.nullable().describe("the holder's meter today; null until the name joins") })).describe("all=1: every grant")
    })
  ]),
  toolset: TOOLSETS.plans,
  rest: { method: "GET", path: "/grants", errors: [403] },
  async run(ctx, { all }) {
    const p = ctx.principal;
    if (!all) {
      const grant = ctx.offer.grants.find((g) => g.name === p.name) ?? null;
      return { ok: true, grant, today: meterOf(ctx, p) };
    }
    if (!opens(p.tier, "house")) throw upgradeRequired(ctx, "grants with all=1", "house");
    const rows = ctx.offer.grants.map((g) => {
      const holder = ctx.store.accounts.byName(g.name);
      const today2 = holder ? meterOf(ctx, { id: holder.id, name: holder.name, tier: tierOf(ctx, holder) }) : null;
      return { ...g, joined: holder !== null, today: today2 };
    });
    return { ok: true, grants: rows };
  }
});

// tools/plans/meter.ts
import { z as z70 } from "zod";
var meter = defineTool({
  name: "meter",
  title: "Meter",
  description: "Today's balance, allowance and tone, with the price list. The meter reports; it never turns a caller away.",
  input: z70.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "session",
  output: MeterView.extend({ ok: z70.literal(true), prices: z70.array(PriceEntry).describe("the price list") }),
  toolset: TOOLSETS.plans,
  rest: { method: "GET", path: "/meter" },
  async run(ctx) {
    return { ok: true, ...meterOf(ctx, ctx.principal), prices: ctx.offer.plans.prices };
  }
});

// tools/plans/meter-record.ts
import { z as z71 } from "zod";
var meterRecord = defineTool({
  name: "meter_record",
  title: "Record a spend",
  description: "Records one act's spend on your meter (bars for bar-priced actions) in the hash-chained meter ledger and answers the new balance. Never refuses: not for want of balance, and not for an act the price list does not name, which is recorded as an unpriced act costing nothing (recorded.priced false).",
  input: z71.object({
    action: z71.string().min(1).max(64, "at most 64 characters").regex(/^[A-Za-z0-9_.:-]+$/, "letters, digits, _ . : and - only").describe("an action of the price list; any other is recorded unpriced, at no cost"),
    bars: z71.number().int().nonnegative().max(1e8).optional().describe("bars stepped over, for bar-priced actions")
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: "session",
  output: MeterView.extend({ ok: z71.literal(true), recorded: Recorded.extend({ priced: z71.boolean().describe("false: the price list does not name the act, recorded at no cost") }) }),
  toolset: TOOLSETS.plans,
  rest: { method: "POST", path: "/meter" },
  async run(ctx, { action, bars }) {
    const entry = ctx.offer.plans.prices.find((p) => p.action === action);
    const recorded = await spendEntry(ctx, entry ?? { action, units: 0, what: "an act the price list does not name" }, bars);
    return { ok: true, recorded: { ...recorded, priced: entry !== void 0 }, ...meterOf(ctx, ctx.principal) };
  }
});

// tools/oauth/oauth-consent.ts
import { z as z73 } from "zod";

// services/oauth/authorizations.ts
import { randomBytes as randomBytes9 } from "node:crypto";
var REQUEST_TTL_MS = 10 * 6e4;
var CODE_TTL_MS = 5 * 6e4;
var WAITING = 1e4;
var Expiring = class {
  m = /* @__PURE__ */ new Map();
  get(k, now) {
    const v = this.m.get(k);
    if (v && v.expires_at <= now) this.m.delete(k);
    return v && v.expires_at > now ? v : null;
  }
  set(k, v, now) {
    for (const [key, old] of this.m) {
      if (old.expires_at > now && this.m.size < WAITING) break;
      this.m.delete(key);
    }
    this.m.set(k, v);
  }
  delete(k) {
    this.m.delete(k);
  }
};
var Authorizations = class {
  requests = new Expiring();
  codes = new Expiring();
  open(r, now) {
    const id = `ar_${randomBytes9(16).toString("base64url")}`;
    this.requests.set(id, r, now);
    return id;
  }
  request(id, now) {
    return this.requests.get(id, now);
  }
  /** Takes a request off the waiting list: consent is answered once. */
  close(id, now) {
    const r = this.requests.get(id, now);
    this.requests.delete(id);
    return r;
  }
  mint(c, now) {
    const code = `dc_${randomBytes9(32).toString("base64url")}`;
    this.codes.set(digest(code), { ...c, grant: null }, now);
    return code;
  }
  code(code, now) {
    return this.codes.get(digest(code), now);
  }
  /** Marks a code exchanged for `grant`; false when it already was (two exchanges at once: the second loses). */
  spend(code, grant, now) {
    const c = this.codes.get(digest(code), now);
    if (!c || c.grant !== null) return false;
    c.grant = grant;
    return true;
  }
};

// services/oauth/clients.ts
import { randomUUID } from "node:crypto";
import { InvalidClientError, InvalidClientMetadataError, TemporarilyUnavailableError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { z as z72 } from "zod";

// upstream/oauth/client-metadata.ts
var CLIENT_METADATA_MAX_BYTES = 5 * 1024;
var CLIENT_METADATA_DEADLINE_MS = 5e3;
var ClientMetadataUnavailable = class extends Error {
};
var ClientMetadataFetcher = class {
  constructor(targets) {
    this.targets = targets;
  }
  targets;
  async fetch(url, asked) {
    const deadline = AbortSignal.timeout(CLIENT_METADATA_DEADLINE_MS);
    const signal = AbortSignal.any([deadline, asked]);
    const failed = (error) => new ClientMetadataUnavailable(
      deadline.aborted ? `it did not arrive whole within ${CLIENT_METADATA_DEADLINE_MS / 1e3} s` : asked.aborted ? "nobody waits for it any more" : `it could not be fetched: ${error.message}`
    );
    const { request } = await undici();
    let res;
    try {
      res = await request(url, { method: "GET", headers: { accept: "application/json" }, dispatcher: await this.targets.dispatcher(), signal });
    } catch (error) {
      throw failed(error);
    }
    if (res.statusCode !== 200) {
      res.body.destroy();
      throw new ClientMetadataUnavailable(`it answered HTTP ${res.statusCode}${res.statusCode >= 300 && res.statusCode < 400 ? " (redirects are not followed)" : ""}`);
    }
    const chunks = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        size += chunk.length;
        if (size > CLIENT_METADATA_MAX_BYTES) {
          res.body.destroy();
          throw new ClientMetadataUnavailable(`it is over ${CLIENT_METADATA_MAX_BYTES} bytes`);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      throw error instanceof ClientMetadataUnavailable ? error : failed(error);
    }
    try {
      return JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      throw new ClientMetadataUnavailable("it is not JSON");
    }
  }
};

// services/oauth/clients.ts
var keeping = (s) => ({ most: s.config.oauthClients, unusedMs: 24 * 36e5, idleMs: 30 * 24 * 36e5 });
var LOOPBACK = /* @__PURE__ */ new Set(["localhost", "127.0.0.1", "[::1]"]);
function redirectProblem(raw) {
  let u;
  try {
    u = new URL(raw);
  } catch {
    return "not a URL";
  }
  if (u.hash) return "a redirect URI carries no fragment";
  if (u.protocol === "https:") return null;
  if (u.protocol === "http:") return LOOPBACK.has(u.hostname) ? null : "http is allowed only to a loopback address; use https";
  if (["javascript:", "data:", "file:", "blob:", "about:", "vbscript:"].includes(u.protocol)) return `${u.protocol} is not a redirect scheme`;
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(u.protocol) ? null : "a private-use scheme is a reversed domain name (com.example.app:)";
}
var Url = z72.string().max(2e3);
var ClientMetadata = z72.object({
  redirect_uris: z72.array(Url).min(1, "at least one redirect URI").max(10, "at most 10 redirect URIs"),
  client_name: z72.string().max(120).optional(),
  client_uri: Url.optional(),
  logo_uri: Url.optional(),
  scope: z72.string().max(1e3).optional(),
  grant_types: z72.array(z72.string()).max(10).optional(),
  response_types: z72.array(z72.string()).max(10).optional(),
  token_endpoint_auth_method: z72.string().optional()
});
function checked(raw) {
  const parsed = ClientMetadata.safeParse(raw);
  if (!parsed.success) throw new InvalidClientMetadataError(parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; "));
  const bad = parsed.data.redirect_uris.map((u, i) => [i, redirectProblem(u)]).filter(([, why]) => why !== null);
  if (bad.length) throw new InvalidClientMetadataError(bad.map(([i, why]) => `redirect_uris.${i}: ${why}`).join("; "));
  const grants2 = parsed.data.grant_types ?? ["authorization_code", "refresh_token"];
  const unknown = grants2.filter((g) => g !== "authorization_code" && g !== "refresh_token");
  if (unknown.length) throw new InvalidClientMetadataError(`grant_types: the deck grants authorization_code and refresh_token only, not ${unknown.join(", ")}`);
  return parsed.data;
}
var asClient = ({ used_at: _, ...c }) => c;
async function registerClient(s, raw) {
  const m = checked(raw);
  const now = s.clock();
  const client = {
    client_id: randomUUID(),
    client_id_issued_at: Math.floor(now / 1e3),
    redirect_uris: m.redirect_uris,
    ...m.client_name !== void 0 ? { client_name: m.client_name } : {},
    ...m.client_uri !== void 0 ? { client_uri: m.client_uri } : {},
    ...m.logo_uri !== void 0 ? { logo_uri: m.logo_uri } : {},
    ...m.scope !== void 0 ? { scope: m.scope } : {},
    grant_types: m.grant_types ?? ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none"
  };
  const kept = await s.store.oauth.register(client, now, keeping(s));
  if (kept === "full") {
    s.log.error("oauth_clients_full", { most: s.config.oauthClients });
    throw new TemporarilyUnavailableError(`the deck keeps ${s.config.oauthClients} client registrations and every one is in use; try again later`);
  }
  return asClient(kept);
}
function metadataUrl(id) {
  if (!id.startsWith("https://")) return null;
  try {
    const u = new URL(id);
    return u.pathname !== "/" && !u.hash && !u.username && !u.password ? u : null;
  } catch {
    return null;
  }
}
async function clientFor(s, id) {
  const registered = s.store.oauth.client(id, s.clock(), keeping(s));
  if (registered) return asClient(registered);
  const url = metadataUrl(id);
  if (!url) return void 0;
  const now = s.clock();
  const cached = s.oauth.clientMetadata.get(id, now);
  if (cached) return cached;
  let doc;
  try {
    doc = await s.oauth.fetcher.fetch(url, s.oauth.askers.signal(id));
  } catch (error) {
    if (error instanceof ClientMetadataUnavailable) throw new InvalidClientError(`the client metadata document at ${id}: ${error.message}`);
    throw error;
  }
  const stated = doc?.client_id;
  if (stated !== id) throw new InvalidClientError(`the client metadata document at ${id} names another client_id`);
  if (doc.client_secret !== void 0) throw new InvalidClientError(`the client metadata document at ${id} may not carry a client_secret`);
  let m;
  try {
    m = checked(doc);
  } catch (error) {
    throw new InvalidClientError(`the client metadata document at ${id}: ${error.message}`);
  }
  if (m.token_endpoint_auth_method !== void 0 && m.token_endpoint_auth_method !== "none") {
    throw new InvalidClientError(`the client metadata document at ${id}: token_endpoint_auth_method must be none (the deck's clients are public and use PKCE)`);
  }
  const client = { ...m, client_id: id, token_endpoint_auth_method: "none" };
  s.oauth.clientMetadata.put(id, client, now);
  return client;
}
var vouchedHost = (clientId) => metadataUrl(clientId)?.host ?? null;

// tools/oauth/oauth-consent.ts
var RequestId = z73.string().regex(/^ar_[A-Za-z0-9_-]{22}$/, "the authorization request id the page was opened with");
var notWaiting = (id) => new DeckError(404, "authorization_not_found", `no authorization request ${id} is waiting: it expired, was answered, or the deck restarted; start again from your app`);
var destination = (uri) => {
  const u = new URL(uri);
  return u.protocol === "http:" || u.protocol === "https:" ? u.origin : `${u.protocol}//`;
};
var oauthRequest = defineTool({
  name: "oauth_request",
  title: "An app asking to act as you",
  description: "What an app that sent you here asks for: its name (vouched for by its own domain when its id is the https address of its metadata, else only stated by the app), where you will be sent back, and which MCP endpoint its token will reach. Answered once with POST /oauth/consent.",
  input: z73.object({ id: RequestId }).strict(),
  access: "none",
  surface: "rest",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: answer({
    client: z73.object({ id: z73.string(), name: z73.string().nullable(), vouched_by: z73.string().nullable().describe("the domain that vouches for the app's name; null: only the app states it") }),
    redirect_to: z73.string().describe("where you will be sent back"),
    resource: z73.object({ url: z73.string(), name: z73.string() }).describe("the MCP endpoint the app's token will reach"),
    expires_at: z73.iso.datetime()
  }),
  toolset: TOOLSETS.oauth,
  rest: { method: "GET", path: "/oauth/requests/:id", errors: [404] },
  async run(ctx, { id }) {
    const r = ctx.oauth.authorizations.request(id, ctx.clock());
    if (!r) throw notWaiting(id);
    const resource = ctx.oauth.resources.find((x) => x.path === r.resource);
    return {
      ok: true,
      client: { id: r.client_id, name: r.client_name, vouched_by: vouchedHost(r.client_id) },
      redirect_to: destination(r.redirect_uri),
      resource: { url: resource.url, name: resource.name },
      expires_at: new Date(r.expires_at).toISOString()
    };
  }
});
var oauthConsent = defineTool({
  name: "oauth_consent",
  title: "Answer an app",
  description: "Answers an app's authorization request as the signed-in person: allow gives the app a code it exchanges for a deck session bound to the endpoint it asked for (12 hours, refreshed while the grant lives; your tier and meter; ended by signing it out, revoking it, or rotating your key); deny sends it back refused. Either way the request is answered once.",
  input: z73.object({ request: RequestId, allow: z73.boolean({ error: "true to allow, false to deny" }) }).strict(),
  access: "session",
  surface: "rest",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  output: answer({ allowed: z73.boolean(), redirect: z73.string().describe("where to send the person back (with a code, or refused)") }),
  toolset: TOOLSETS.oauth,
  rest: { method: "POST", path: "/oauth/consent", errors: [404] },
  async run(ctx, { request, allow }) {
    const now = ctx.clock();
    const r = ctx.oauth.authorizations.close(request, now);
    if (!r) throw notWaiting(request);
    const back = new URL(r.redirect_uri);
    if (r.state !== null) back.searchParams.set("state", r.state);
    back.searchParams.set("iss", ctx.oauth.issuer);
    if (!allow) {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "the person denied the request");
      ctx.log.info("oauth_denied", { client: r.client_id });
      return { ok: true, allowed: false, redirect: back.href };
    }
    const p = ctx.principal;
    const account2 = ctx.store.accounts.byId(p.id);
    const code = ctx.oauth.authorizations.mint(
      { client_id: r.client_id, redirect_uri: r.redirect_uri, code_challenge: r.code_challenge, resource: r.resource, principal_id: p.id, key_gen: account2.key_gen, expires_at: now + CODE_TTL_MS },
      now
    );
    back.searchParams.set("code", code);
    ctx.log.info("oauth_allowed", { name: p.name, client: r.client_id, resource: r.resource });
    return { ok: true, allowed: true, redirect: back.href };
  }
});

// tools/plans/plan-claim.ts
import { z as z74 } from "zod";

// engine/plans/messages.ts
import { verifyMessage } from "ethers";
var walletMessage = (host, agentId, nonce, expires) => `the deck: wallet proof
host: ${host}
agent_id: ${agentId}
nonce: ${nonce}
expires: ${expires}`;
var planClaimMessage = (agentId, chain, txHash) => `the deck: plan claim
agent_id: ${agentId}
chain: ${chain}
tx: ${txHash.toLowerCase()}`;
var holderMessage = (agentId, day) => `the deck: holder standing
agent_id: ${agentId}
day: ${day}`;
function signerOf(message, signature3) {
  try {
    return verifyMessage(message, signature3);
  } catch {
    return null;
  }
}

// engine/plans/payment.ts
import { formatUnits, parseUnits } from "ethers";
var same = (a, b) => a.toLowerCase() === b.toLowerCase();
function paymentOf(transfers, token, treasury) {
  const paid = transfers.filter((t) => same(t.token, token) && same(t.to, treasury));
  const payer = paid[0]?.from;
  if (!payer) return null;
  return { payer, amount: paid.filter((t) => same(t.from, payer)).reduce((sum, t) => sum + t.amount, 0n) };
}
var priceUnits = (plan, decimals) => parseUnits(String(plan.price_usdc), decimals);
function planBought(plans2, amount, decimals) {
  const forSale = plans2.filter((p) => p.price_usdc > 0 && p.period_days !== null).sort((a, b) => b.price_usdc - a.price_usdc);
  const plan = forSale.find((p) => amount >= priceUnits(p, decimals));
  const paid = formatUnits(amount, decimals);
  if (plan) return { ok: true, plan, paid };
  return { ok: false, paid, cheapest: forSale[forSale.length - 1]?.price_usdc ?? 0 };
}

// tools/plans/plan-claim.ts
var refuse = (code, message, details = {}) => new DeckError(422, code, message, details);
var same2 = (a, b) => a !== null && a.toLowerCase() === b.toLowerCase();
function answer2(ctx, p, e) {
  const { principal_id: _owner, ...claim } = e.entry;
  const now = { ...p, tier: tierOf(ctx, p) };
  return {
    ok: true,
    claim: { ...claim, seq: e.seq, hash: e.hash, claimed_at: new Date(e.at).toISOString() },
    mine: { ...planOf(ctx, now), tier: now.tier, usage: meterOf(ctx, now) }
  };
}
var planClaim = defineTool({
  name: "plan_claim",
  title: "Claim a plan paid on chain",
  description: `Claims a plan paid on chain: the transaction's ERC-20 Transfer of the chain's token to the treasury buys the dearest plan its amount covers, for period_days from the block's time (stacked after a period of the plan, or a dearer one, still running). The payer is bound to you when it is your proven wallet (wallet_prove); otherwise send payer_signature_hex, the payer's personal signature of exactly "the deck: plan claim\\nagent_id: {agent_id}\\nchain: {chain}\\ntx: {tx_hash in lower case}" (a wallet only named at join proves nothing). A transaction claims once, for anyone; asking again answers the same claim. Refusals (422): tx_not_found, tx_failed, not_confirmed, no_transfer, underpaid, payer_unproven, already_claimed.`,
  input: z74.object({
    chain: z74.string().describe("a chain id the catalogue lists, e.g. eip155:8453"),
    tx_hash: z74.string().regex(/^0x[0-9a-fA-F]{64}$/, "0x and 64 hex digits").describe("the payment transaction"),
    payer_signature_hex: z74.string().regex(/^0x[0-9a-fA-F]{130}$/, "a 65-byte signature: 0x and 130 hex digits").optional().describe("the payer's personal signature of the claim message, when the payer is not your proven wallet")
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: "session",
  output: z74.object({
    ok: z74.literal(true),
    claim: PlanClaimEntry.extend({
      ...Chained,
      claimed_at: z74.iso.datetime()
    }).describe("the claim as recorded, the same each time it is asked for"),
    mine: Mine.describe("where you stand now")
  }),
  toolset: TOOLSETS.plans,
  rest: { method: "POST", path: "/plans", errors: [502, 503] },
  async run(ctx, input) {
    const p = ctx.principal;
    const chain = listedChain(ctx, input.chain, "chain");
    const tx = input.tx_hash.toLowerCase();
    const settle = (e) => {
      if (e.entry.principal_id !== p.id) throw refuse("already_claimed", `the transaction ${tx} is claimed already, by another principal`);
      return answer2(ctx, p, e);
    };
    const prior = ctx.store.claims.of(chain.id, tx);
    if (prior) return settle(prior);
    const treasury = treasuryOf(ctx);
    if (!treasury) throw notConfigured("the plan treasury", "DECK_TREASURY (or treasury in the plans file)");
    const reader = ctx.upstreams.chains.reader(chain.id);
    const needed = chain.min_confirmations;
    const receipt = await reader.receipt(tx);
    if (!receipt) {
      if (await reader.knows(tx)) throw refuse("not_confirmed", `the transaction ${tx} is not mined yet`, { seen: 0, needed });
      throw refuse("tx_not_found", `no transaction ${tx} on ${chain.id}`);
    }
    if (receipt.status !== 1) throw refuse("tx_failed", `the transaction ${tx} failed (reverted) in block ${receipt.block}`);
    const seen = await reader.head() - receipt.block + 1;
    if (seen < needed) throw refuse("not_confirmed", `the transaction ${tx} has ${seen} of the ${needed} confirmations a claim needs`, { seen, needed });
    const payment = paymentOf(receipt.transfers, chain.token_address, treasury);
    if (!payment) throw refuse("no_transfer", `the transaction ${tx} carries no ${chain.token} (${chain.token_address}) transfer to the treasury ${treasury}`);
    const bought = planBought(ctx.offer.plans.plans, payment.amount, chain.token_decimals);
    if (!bought.ok) {
      throw refuse("underpaid", `the transaction paid ${bought.paid} ${chain.token}; the cheapest plan costs ${bought.cheapest}`, { paid: bought.paid, cheapest: bought.cheapest });
    }
    let proof = "proven_wallet";
    if (!same2(provenWallet(p), payment.payer)) {
      const message = planClaimMessage(p.agent_id, chain.id, tx);
      if (!input.payer_signature_hex) {
        throw refuse(
          "payer_unproven",
          `the payer ${payment.payer} is not a proven wallet of yours: send payer_signature_hex, its personal signature of the claim message, or prove the wallet first (POST /me/wallet)`,
          { payer: payment.payer, sign: message }
        );
      }
      const signer = signerOf(message, input.payer_signature_hex);
      if (!same2(signer, payment.payer)) {
        throw refuse("payer_unproven", `payer_signature_hex was signed by ${signer ?? "no address (it does not parse)"}, not by the payer ${payment.payer}`, { payer: payment.payer, sign: message });
      }
      proof = "payer_signature";
    }
    const paidAt = await reader.blockTime(receipt.block);
    const plan = bought.plan;
    const claimed = await ctx.store.claims.claim(
      chain.id,
      tx,
      p.id,
      (mine) => {
        const earlier = mine.map((c) => ({ plan: c.plan, price_usdc: c.price_usdc, start: Date.parse(c.period.start), end: Date.parse(c.period.end) }));
        const period = periodFor(earlier, { id: plan.id, price_usdc: plan.price_usdc, period_days: plan.period_days }, paidAt);
        return {
          chain: chain.id,
          tx_hash: tx,
          principal_id: p.id,
          agent_id: p.agent_id,
          plan: plan.id,
          tier: plan.tier,
          price_usdc: plan.price_usdc,
          token: chain.token,
          token_address: chain.token_address,
          amount: bought.paid,
          payer: payment.payer,
          proof,
          block: receipt.block,
          block_time: new Date(paidAt).toISOString(),
          period: { start: new Date(period.start).toISOString(), end: new Date(period.end).toISOString() }
        };
      },
      ctx.clock()
    );
    if (claimed.fresh) ctx.log.info("plan_claimed", { agent_id: p.agent_id, chain: chain.id, tx, plan: plan.id });
    return settle(claimed.entry);
  }
});

// tools/plans/holder-link.ts
import { getAddress as getAddress3 } from "ethers";
import { z as z75 } from "zod";
var holderLink2 = defineTool({
  name: "holder_link",
  title: "Link a holder wallet",
  description: `Links a wallet holding NFTs of the operator's collection to you for today (UTC), adding its holder allowance to your meter. signature_hex is the wallet's personal signature of exactly "the deck: holder standing\\nagent_id: {agent_id}\\nday: {YYYY-MM-DD}", day being today. The NFTs are counted with balanceOf at the latest block. A wallet links to one principal a day (422 wallet_linked_elsewhere); 422 wallet_unproven when the signature is not the wallet's, not_a_holder when it holds none.`,
  input: z75.object({
    wallet_hex: z75.string().regex(/^0x[0-9a-fA-F]{40}$/, "0x and 40 hex digits").describe("the holder wallet"),
    day: z75.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD").describe("today, UTC"),
    signature_hex: z75.string().regex(/^0x[0-9a-fA-F]{130}$/, "a 65-byte signature: 0x and 130 hex digits").describe("the wallet's personal signature of the holder message")
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: "session",
  output: answer({
    link: z75.object({
      day: Day,
      wallet: z75.string(),
      chain: z75.string(),
      collection: z75.string(),
      nfts: z75.number().int(),
      block: z75.number().int().describe("the block balanceOf was read at"),
      ...Chained,
      linked_at: z75.iso.datetime()
    }).describe("the link as recorded in its hash-chained ledger"),
    holder: HolderStanding
  }),
  toolset: TOOLSETS.plans,
  rest: { method: "POST", path: "/plans/holder", errors: [502, 503] },
  async run(ctx, input) {
    const p = ctx.principal;
    const today2 = utcDay(ctx.clock());
    if (input.day !== today2) throw badInput([{ field: "day", message: `must be today (UTC), ${today2}; sign the message for today` }]);
    const rule = ctx.offer.plans.holder;
    if (!rule) throw notConfigured("holder standing", "holder { allowance_per_nft, max_nfts } in the plans file");
    const chain = ctx.offer.plans.chains.find((c) => c.collection);
    if (!chain?.collection) throw notConfigured("the operator's collection", "chains[].collection in the plans file");
    const wallet2 = getAddress3(input.wallet_hex.toLowerCase());
    const signer = signerOf(holderMessage(p.agent_id, input.day), input.signature_hex);
    if (signer !== wallet2) {
      throw new DeckError(422, "wallet_unproven", `signature_hex was signed by ${signer ?? "no address (it does not parse)"}, not by ${wallet2}`, {
        sign: holderMessage(p.agent_id, input.day)
      });
    }
    const elsewhere = (holder) => {
      if (holder !== null && holder !== p.id) throw new DeckError(422, "wallet_linked_elsewhere", `the wallet ${wallet2} is linked to another principal today`);
    };
    elsewhere(ctx.store.holders.holderOf(today2, wallet2));
    const reader = ctx.upstreams.chains.reader(chain.id);
    const block = await reader.head();
    const held = await reader.nftsHeld(chain.collection, wallet2, block);
    if (held === 0n) throw new DeckError(422, "not_a_holder", `the wallet ${wallet2} holds no NFT of the collection ${chain.collection} on ${chain.id}`);
    const nfts = held > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(held);
    const link = await ctx.store.holders.link({ day: today2, wallet: wallet2, principal_id: p.id, chain: chain.id, collection: chain.collection, nfts, block }, elsewhere, ctx.clock());
    const { principal_id: _owner, ...recorded } = link.entry;
    return { ok: true, link: { ...recorded, seq: link.seq, hash: link.hash, linked_at: new Date(link.at).toISOString() }, holder: holderOf(ctx, p.id) };
  }
});

// tools/plans/holder.ts
import { z as z76 } from "zod";
var holderState = defineTool({
  name: "holder",
  title: "Holder standing",
  description: "Your holder standing today: the wallet linked today, the NFTs of the operator's collection it held when linked, the allowance they add to your meter (allowance_per_nft x min(nfts, max_nfts)), used and remaining. message is the exact text to sign today to link a wallet (POST /plans/holder).",
  input: z76.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "session",
  output: answer({ holder: HolderStanding, message: z76.string().describe("the exact text to sign today to link a wallet") }),
  toolset: TOOLSETS.plans,
  rest: { method: "GET", path: "/plans/holder" },
  async run(ctx) {
    const p = ctx.principal;
    const holder = holderOf(ctx, p.id);
    return { ok: true, holder, message: holderMessage(p.agent_id, holder.day) };
  }
});

// tools/plans/plans.ts
import { z as z77 } from "zod";
var answerOf3 = (ctx) => {
  const { plans: list2, currency } = ctx.offer.plans;
  const p = ctx.principal;
  return {
    ok: true,
    currency,
    plans: list2,
    chains: chainsShown(ctx),
    treasury: treasuryOf(ctx),
    // Fields added to planOf's own object: a spread first and fields after it is a slow shape in Node 20's V8.
    mine: p ? Object.assign(planOf(ctx, p), { tier: p.tier, usage: meterOf(ctx, p) }) : null,
    principal: p ? { name: p.name, agent_id: p.agent_id, wallet: p.wallet, wallet_status: p.wallet_status, tier: p.tier } : null
  };
};
var anonymous = perDeck(answerOf3);
var plans = defineTool({
  name: "plans",
  title: "Plans",
  description: "The public plan catalogue (plans with price and allowance, chains, treasury). Signed in, it also says which plan you stand on (mine) and who you are (principal). Needs no key.",
  input: z77.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "optional",
  output: answer({
    currency: z77.literal("USDC"),
    plans: z77.array(Plan),
    chains: z77.array(ChainShown).describe("the chains a plan is paid on"),
    treasury: z77.string().nullable().describe("where plan payments go; null while none is configured"),
    mine: Mine.nullable().describe("signed in: the plan you stand on, its period, your tier and today's meter"),
    principal: PrincipalShown.nullable().describe("signed in: who you are")
  }),
  toolset: TOOLSETS.plans,
  rest: { method: "GET", path: "/plans" },
  async run(ctx) {
    return ctx.principal ? answerOf3(ctx) : anonymous(ctx);
  }
});

// tools/identity/wallet.ts
import { z as z79 } from "zod";

// services/identity/wallet.ts
import { createHmac as createHmac2, timingSafeEqual } from "node:crypto";
import { z as z78 } from "zod";
var CHALLENGE_TTL_MS = 15 * 6e4;
var MAC_BYTES = 16;
var Nonce = z78.string().regex(/^[A-Za-z0-9_-]{32}$/, "the nonce GET /me/wallet gave: 32 characters of base64url");
var macOf = (salt, principalId, issued) => createHmac2("sha256", salt).update(`wallet-proof|${principalId}|${issued}`).digest().subarray(0, MAC_BYTES);
var hostOf = (ctx) => new URL(ctx.urls.base).host;
function challengeAt(ctx, p, issued) {
  const head = Buffer.alloc(8);
  head.writeBigUInt64BE(BigInt(issued));
  const nonce = Buffer.concat([head, macOf(ctx.store.salt, p.id, issued)]).toString("base64url");
  const expires_at = new Date(issued + CHALLENGE_TTL_MS).toISOString();
  return { message: walletMessage(hostOf(ctx), p.agent_id, nonce, expires_at), nonce, expires_at };
}
var challengeFor = (ctx, p) => challengeAt(ctx, p, ctx.clock());
function challengeOf2(ctx, p, nonce) {
  const bytes = Buffer.from(nonce, "base64url");
  const issued = Number(bytes.readBigUInt64BE(0));
  if (!timingSafeEqual(bytes.subarray(8), macOf(ctx.store.salt, p.id, issued))) {
    return { refused: "is not one the deck issued to you" };
  }
  if (ctx.clock() >= issued + CHALLENGE_TTL_MS) return { refused: `expired at ${new Date(issued + CHALLENGE_TTL_MS).toISOString()}` };
  return { issued, message: challengeAt(ctx, p, issued).message };
}
var Challenge = z78.object({
  message: z78.string().describe("the exact text to sign with the wallet (EIP-191, personal_sign)"),
  nonce: z78.string().describe("send it back with the signature; taken once"),
  expires_at: z78.iso.datetime().describe("after this the challenge is refused: ask for a fresh one")
}).describe("a fresh challenge: sign its message with the wallet and send it to POST /me/wallet");
var WalletStatusShown = z78.enum(["unproven", "proven"]).nullable().describe("unproven: named at join, counts for nothing until its own signature proves it; null: no wallet");
var WalletAnswer = answer({
  wallet: z78.string().nullable().describe("your wallet, checksummed: the one named at join, or the last one proven"),
  wallet_status: WalletStatusShown,
  proven_at: z78.iso.datetime().nullable().describe("when it was proven"),
  challenge: Challenge
});
function walletView(ctx, p) {
  const account2 = ctx.store.accounts.byId(p.id);
  const status = walletStatusOf(account2);
  return {
    ok: true,
    wallet: account2.wallet,
    wallet_status: status,
    proven_at: status === "proven" ? new Date(account2.wallet_proof.proven_at).toISOString() : null,
    challenge: challengeFor(ctx, p)
  };
}

// tools/identity/wallet.ts
var wallet = defineTool({
  name: "wallet",
  title: "Your wallet",
  description: "Your wallet and where it stands: unproven (named at join; it counts for nothing) or proven by its own signature (a plan claim it paid binds to you without another signature; it opens your series as your wallet). challenge is a fresh one to prove a wallet: sign its message with the wallet (EIP-191 personal_sign) and send it with wallet_prove (POST /me/wallet) within 15 minutes.",
  input: z79.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "session",
  output: WalletAnswer,
  toolset: TOOLSETS.identity,
  rest: { method: "GET", path: "/me/wallet" },
  async run(ctx) {
    return walletView(ctx, ctx.principal);
  }
});

// tools/identity/wallet-prove.ts
import { z as z80 } from "zod";
var nonceRefused = (why) => new DeckError(422, "nonce_refused", `the nonce ${why}: ask GET /me/wallet for a fresh challenge`, { field: "nonce" });
var walletProve = defineTool({
  name: "wallet_prove",
  title: "Prove a wallet",
  description: `Proves a wallet is yours by its signature of a challenge (wallet tool, GET /me/wallet: "the deck: wallet proof" with the deck's host, your agent_id, a nonce and its expiry). The wallet becomes your wallet, proven: a payment it sends binds to your plan claims without payer_signature_hex, and it opens your series. Each challenge is taken once, for 15 minutes. Refusals (422): wallet_unproven when the signature is not the wallet's (or was made for another challenge), nonce_refused when the nonce is not yours, has expired or was used.`,
  input: z80.object({
    wallet_hex: Wallet.describe("the wallet to prove"),
    nonce: Nonce,
    signature_hex: z80.string().regex(/^0x[0-9a-fA-F]{130}$/, "a 65-byte signature: 0x and 130 hex digits").describe("the wallet's personal signature of the challenge's message")
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: "session",
  output: WalletAnswer,
  toolset: TOOLSETS.identity,
  rest: { method: "POST", path: "/me/wallet" },
  async run(ctx, input) {
    const p = ctx.principal;
    const challenge = challengeOf2(ctx, p, input.nonce);
    if ("refused" in challenge) throw nonceRefused(challenge.refused);
    const signer = signerOf(challenge.message, input.signature_hex);
    if (signer !== input.wallet_hex) {
      throw new DeckError(422, "wallet_unproven", `signature_hex was signed by ${signer ?? "no address (it does not parse)"}, not by ${input.wallet_hex}, over the challenge's message`, {
        sign: challenge.message
      });
    }
    await ctx.store.accounts.proveWallet(p.id, { wallet: signer, issued_at: challenge.issued, proven_at: ctx.clock() }, (kept) => {
      if (kept && kept.issued_at >= challenge.issued) throw nonceRefused("was used, or a later challenge was");
    });
    ctx.log.info("wallet_proven", { agent_id: p.agent_id, wallet: signer });
    return walletView(ctx, p);
  }
});

// tools/series/epoch-open.ts
import { z as z84 } from "zod";

// engine/series/limits.ts
var SERIES_LIMITS = {
  epochs: { min: 1, max: 90 },
  /** An epoch's length in seconds: an hour to thirty days, a day unless told. */
  epoch_s: { min: 3600, max: 30 * 86400, default: 86400 },
  /** The whole series (epochs x epoch_s) at most a year and a day. */
  span_s: { max: 366 * 86400 },
  /** How far `from` may lie before the deck's clock (a caller's clock a little behind) and after it. */
  from: { behind_s: 300, ahead_s: 366 * 86400 },
  /** USDC amounts carry at most six decimals, as the token does. */
  usdc_decimals: 6,
  /** A revoke's reason, in characters. */
  why_chars: 280
};
var MICRO = 10 ** SERIES_LIMITS.usdc_decimals;
var isUsdc = (amount) => Number.isFinite(amount) && Number(amount.toFixed(SERIES_LIMITS.usdc_decimals)) === amount;
var usdcTimes = (amount, n) => Math.round(amount * MICRO) * n / MICRO;

// engine/grade/compose.ts
import { createHash as createHash2 } from "node:crypto";
var RUBRIC_VERSION = "RUBRIC_v1";
var HOLDS_AT = 0.7;
var FAILS_AT = 0.5;
var DECISIONS = ["accept", "revise", "reject"];
var verdictOf = (d) => d.no >= FAILS_AT ? "fails" : d.yes >= HOLDS_AT ? "holds" : "unsure";
var answered = (q, m) => ({ id: q.id, question: q.text, ...m, verdict: verdictOf(m.distribution) });
var shown = (d) => `yes ${d.yes}, partly ${d.partly}, no ${d.no}`;
function reasonOf(a, questions) {
  const q = questions.find((x) => x.id === a.id);
  if (a.verdict === "holds") return `${a.id}: holds (${shown(a.distribution)})`;
  if (a.verdict === "fails") return `${a.id}: fails, ${q.unfaithful} (${shown(a.distribution)})`;
  return `${a.id}: unsure, less than ${HOLDS_AT} on yes and less than ${FAILS_AT} on no (${shown(a.distribution)})`;
}
var failedFacts = (facts) => facts.filter((f) => !f.held).map((f) => `${f.name}: ${f.detail}`);
function decide(facts, answers2, questions) {
  const failed = failedFacts(facts);
  if (failed.length > 0 || answers2 === null) return { decision: "reject", reasons: failed };
  const reasons = answers2.map((a) => reasonOf(a, questions));
  const decision = answers2.some((a) => a.verdict === "fails") ? "reject" : answers2.every((a) => a.verdict === "holds") ? "accept" : "revise";
  return { decision, reasons };
}
function scoreOf(n, facts, answers2, questions) {
  const k = (answers2 ?? []).filter((a) => a.verdict === "holds").length;
  const reasons = [...failedFacts(facts), ...(answers2 ?? []).map((a) => reasonOf(a, questions))];
  return { score: { k, n, value: Math.round(k / n * 1e4) / 1e4 }, reasons };
}
function decisionDigest(content) {
  const body = {
    ...content,
    facts: content.facts.map((f) => ({ name: f.name, held: f.held })),
    answers: content.answers?.map((a) => ({ id: a.id, distribution: a.distribution })) ?? null
  };
  return createHash2("sha256").update(canonicalJson(body)).digest("hex");
}
var sha256 = (text2) => createHash2("sha256").update(text2).digest("hex");

// engine/series/words.ts
var plural = (n, unit) => `${n} ${unit}${n === 1 ? "" : "s"}`;
function durationWords(s) {
  if (s % 86400 === 0) return plural(s / 86400, "day");
  if (s % 3600 === 0) return plural(s / 3600, "hour");
  if (s % 60 === 0) return plural(s / 60, "minute");
  return plural(s, "second");
}
function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
var iso = (t) => new Date(t * 1e3).toISOString().replace(".000Z", "Z");
function mandateWords(a) {
  const { quote: q, terms: t } = a;
  const fee = t.per_epoch.fee_usdc > 0 ? `, plus the layer's fee of ${t.per_epoch.fee_usdc} USDC an epoch` : "";
  const side = q.caps.allow_short ? "long or short" : "long only";
  return `Hire the ${q.agent.seller} seller (agent ${q.agent.agentId} on chain ${q.agent.chainId}) at venue ${q.venue} (${t.kind}, ${t.class}) for ${plural(q.epochs, "epoch")} of ${durationWords(q.epoch_s)} each, from ${iso(a.from)} to ${iso(a.validUntil)}, at ${q.price_usdc} USDC an epoch (${a.total} USDC in all${fee}), to trade ${listWords(q.caps.markets)} only: each order at most ${q.caps.max_order_size} in size and ${q.caps.max_notional} in notional, a position at most ${q.caps.max_position} (${side}); cover ${q.cover} USDC; the judge runs checks ${listWords(t.checks.map(String))} on every epoch.`;
}

// engine/series/machine.ts
var STATE_MEANS = {
  MANDATED: "The mandate is kept and the epochs are cut; no epoch has opened yet.",
  EPOCH_OPEN: "An epoch is open: the layer holds its handshake and the unsigned createJob is the buyer's to sign.",
  EPOCH_ENDED: "The last epoch opened has ended (the layer ended its handshake, with its verdict); the next may open when its window begins.",
  STOPPED: "Revoked: no new epoch opens; an epoch still open submits and is graded, and the series follows it.",
  ENDED: "The series has ended: its last epoch ended, its validUntil passed, or it was stopped with no epoch open. Final."
};
var EPOCHS = "POST /v1/series/{id}/epochs";
var READ = "a read of the series";
var REVOKE = "POST /v1/series/{id} with revoke";
var ROWS = [
  { id: "R01", from: "none", by: "POST /v1/series", when: "a confirmed quote of external kind, signed in", to: "MANDATED", also: "epochs cut, each with its paymentRef" },
  { id: "R02", from: "MANDATED", by: EPOCHS, when: "its window has begun, the mandate is valid, no epoch is open", to: "EPOCH_OPEN", also: "handshake with the seller, then settle; the unsigned createJob is returned; the deck never signs" },
  { id: "R03", from: "EPOCH_ENDED", by: EPOCHS, when: "as R02, for the epoch whose window holds the clock", to: "EPOCH_OPEN", also: "as R02; epochs whose windows passed unopened are skipped" },
  { id: "R04", from: "EPOCH_OPEN", by: READ, when: "the layer ended the open epoch's handshake", to: "EPOCH_ENDED", also: "the verdict is kept on the epoch" },
  { id: "R05", from: "EPOCH_OPEN", by: READ, when: "the layer reports the open epoch's handshake submitted", to: "EPOCH_OPEN", also: "the epoch reads submitted" },
  { id: "R06", from: "any but ENDED", by: READ, when: "the last epoch ended, or validUntil is reached", to: "ENDED", also: "epochs never opened are skipped" },
  { id: "R07", from: "MANDATED", by: REVOKE, when: "always", to: "STOPPED", also: "no epoch opens" },
  { id: "R08", from: "EPOCH_OPEN", by: REVOKE, when: "always", to: "STOPPED", also: "the open epoch still submits and is graded" },
  { id: "R09", from: "EPOCH_ENDED", by: REVOKE, when: "always", to: "STOPPED", also: "no new epoch opens" },
  { id: "R10", from: "STOPPED", by: READ, when: "no epoch is open", to: "ENDED", also: "" },
  { id: "R11", from: "STOPPED or ENDED", by: REVOKE, when: "", to: "unchanged", also: "409" },
  { id: "R12", from: "none", by: "POST /v1/series", when: "a quote of vault kind", to: "none", also: "422 vault_not_built until the vault contract grants the mandate on chain" },
  { id: "R13", from: "STOPPED or ENDED", by: READ, when: "the layer submitted or ended an epoch left open", to: "unchanged", also: "the epoch follows the layer (then R10)" },
  { id: "R14", from: "STOPPED or ENDED", by: `${EPOCHS}, or a read adopting a kept handshake`, when: "the layer opened an epoch while the series was being stopped or ended", to: "unchanged", also: "the epoch is open; it submits and is graded" }
];
function seriesMarkdown() {
  const states = Object.entries(STATE_MEANS).map(([s, means]) => `- \`${s}\`: ${means}`);
  const rows = ROWS.map((r) => `| ${r.id} | ${r.from} | ${r.by} | ${r.when} | ${r.to} | ${r.also} |`);
  return [...states, "", "| Row | State | Moved by | Condition | Next state | Also |", "|---|---|---|---|---|---|", ...rows].join("\n");
}
var paymentRefOf = (seriesId, index) => `0x${sha256(`${seriesId}:${index}`)}`;
var isOpen2 = (e) => e.state === "open" || e.state === "submitted";
var openEpoch = (r) => r.epochs.find(isOpen2) ?? null;
function moved(r, m) {
  const { row: row2, what: what2, to, at, ...about } = m;
  const move = { n: r.moves.length + 1, row: row2, what: what2, from: r.state, to: to ?? r.state, at, ...about };
  r.state = move.to;
  r.moves.push(move);
  return move;
}
function openSeries(a) {
  const { id, quote, from } = a;
  const epochs3 = Array.from({ length: quote.epochs }, (_, i) => ({
    index: i + 1,
    window: { from: from + i * quote.epoch_s, to: from + (i + 1) * quote.epoch_s },
    paymentRef: paymentRefOf(id, i + 1),
    state: "pending",
    handshake_id: null,
    opened_at: null,
    ended_at: null,
    verdict: null,
    unsigned: null,
    job: null
  }));
  const validUntil = from + quote.epochs * quote.epoch_s;
  return {
    id,
    state: "MANDATED",
    created_at: a.now,
    from,
    validUntil,
    quote,
    terms: a.terms,
    series_total_usdc: a.series_total_usdc,
    mandate: mandateWords({ quote, terms: a.terms, from, validUntil, total: a.series_total_usdc }),
    epochs: epochs3,
    stopped: null,
    ended: null,
    moves: [{ n: 1, row: "R01", what: "opened", from: null, to: "MANDATED", at: a.now }]
  };
}
var iso2 = (t) => new Date(t * 1e3).toISOString().replace(".000Z", "Z");
var epochAt = (r, now) => now < r.from ? 0 : Math.min(r.epochs.length + 1, Math.floor((now - r.from) / r.quote.epoch_s) + 1);
function epochToOpen(r, now) {
  const open3 = openEpoch(r);
  if (r.state === "EPOCH_OPEN") return { ok: false, code: "epoch_open", message: `epoch ${open3?.index} is open: an epoch opens only from MANDATED or EPOCH_ENDED` };
  if (r.state === "STOPPED") return { ok: false, code: "stopped", message: "the series is STOPPED: no new epoch opens" };
  if (r.state === "ENDED") return { ok: false, code: "ended", message: "the series has ENDED: no epoch opens" };
  if (now >= r.validUntil) return { ok: false, code: "mandate_expired", message: `the mandate ran until ${iso2(r.validUntil)}` };
  const opened = r.epochs.filter((e) => e.handshake_id !== null).map((e) => e.index);
  const first = Math.max(0, ...opened) + 1;
  const at = epochAt(r, now);
  if (at < first) {
    const begins = r.epochs[first - 1].window.from;
    return { ok: false, code: "window_not_begun", message: `epoch ${first}'s window begins at ${iso2(begins)}` };
  }
  return { ok: true, epoch: at };
}
function epochOpened(given, o, now) {
  const r = structuredClone(given);
  const moves = [];
  const epoch = r.epochs[o.epoch - 1];
  if (epoch.handshake_id === o.handshake_id) {
    if (!epoch.unsigned && o.unsigned) {
      epoch.unsigned = o.unsigned;
      epoch.job = o.job;
      moves.push(moved(r, { row: null, what: "plan_kept", at: now, epoch: o.epoch, handshake_id: o.handshake_id }));
    }
    return { record: r, moves };
  }
  for (const e of r.epochs) if (e.index < o.epoch && e.state === "pending") e.state = "skipped";
  Object.assign(epoch, { state: "open", handshake_id: o.handshake_id, opened_at: o.opened_at, unsigned: o.unsigned, job: o.job });
  const row2 = r.state === "MANDATED" ? "R02" : r.state === "EPOCH_ENDED" ? "R03" : "R14";
  const to = row2 === "R14" ? r.state : "EPOCH_OPEN";
  moves.push(moved(r, { row: row2, what: o.adopted ? "epoch_adopted" : "epoch_opened", to, at: now, epoch: o.epoch, handshake_id: o.handshake_id }));
  return { record: r, moves };
}
function end(r, row2, why, now) {
  for (const e of r.epochs) if (e.state === "pending") e.state = "skipped";
  r.ended = { at: now, why };
  return moved(r, { row: row2, what: "ended", to: "ENDED", at: now, why });
}
function follow(given, facts, now) {
  let r = given;
  const moves = [];
  for (const o of facts.adopt) {
    const known2 = r.epochs[o.epoch - 1]?.handshake_id === o.handshake_id;
    if (!known2 && openEpoch(r)) continue;
    const c = epochOpened(r, o, now);
    r = c.record;
    moves.push(...c.moves);
  }
  r = structuredClone(r);
  const p = facts.plan;
  const planned = p ? r.epochs[p.epoch - 1] : void 0;
  if (p && planned && planned.handshake_id === p.handshake_id && isOpen2(planned) && !planned.unsigned) {
    Object.assign(planned, { unsigned: p.unsigned, job: p.job });
    moves.push(moved(r, { row: null, what: "plan_kept", at: now, epoch: p.epoch, handshake_id: p.handshake_id }));
  }
  const h = facts.handshake;
  const epoch = h ? r.epochs[h.epoch - 1] : void 0;
  if (h && epoch && epoch.handshake_id === h.handshake_id && isOpen2(epoch)) {
    const following = r.state === "EPOCH_OPEN";
    if (h.state === "ended") {
      Object.assign(epoch, { state: "ended", verdict: h.verdict, ended_at: h.ended_at ?? now });
      moves.push(moved(r, { row: following ? "R04" : "R13", what: "epoch_ended", to: following ? "EPOCH_ENDED" : r.state, at: now, epoch: h.epoch, handshake_id: h.handshake_id }));
    } else if (h.state === "submitted" && epoch.state === "open") {
      epoch.state = "submitted";
      moves.push(moved(r, { row: following ? "R05" : "R13", what: "epoch_submitted", at: now, epoch: h.epoch, handshake_id: h.handshake_id }));
    }
  }
  if (r.state !== "ENDED") {
    const last = r.epochs[r.epochs.length - 1];
    if (last.state === "ended") moves.push(end(r, "R06", "last_epoch", now));
    else if (now >= r.validUntil) moves.push(end(r, "R06", "valid_until", now));
    else if (r.state === "STOPPED" && !openEpoch(r)) moves.push(end(r, "R10", "stopped", now));
  }
  return { record: r, moves };
}
function revoke2(given, why, now) {
  if (given.state === "STOPPED") return { ok: false, code: "already_stopped", message: "the series is already STOPPED" };
  if (given.state === "ENDED") return { ok: false, code: "already_ended", message: "the series has already ENDED" };
  const r = structuredClone(given);
  const row2 = r.state === "MANDATED" ? "R07" : r.state === "EPOCH_OPEN" ? "R08" : "R09";
  r.stopped = { at: now, why };
  return { record: r, moves: [moved(r, { row: row2, what: "revoked", to: "STOPPED", at: now, why })] };
}
function nextOf(r, now) {
  const route = `POST /v1/series/${r.id}/epochs (tool epoch_open)`;
  const read = `GET /v1/series/${r.id} (tool series_read)`;
  const open3 = openEpoch(r);
  const upcoming = () => {
    const pick = epochToOpen(r, now);
    if (pick.ok) return `open epoch ${pick.epoch} now with ${route}`;
    if (pick.code === "window_not_begun") return `open the next epoch with ${route} once its window begins: ${pick.message}`;
    return `read the series with ${read}: ${pick.message}`;
  };
  switch (r.state) {
    case "MANDATED":
    case "EPOCH_ENDED":
      return upcoming();
    case "EPOCH_OPEN":
      return `epoch ${open3.index} is open until ${iso2(open3.window.to)}: sign and send its unsigned createJob from your own wallet; read the series with ${read} to follow the layer's handshake`;
    case "STOPPED":
      return open3 ? `stopped: no new epoch opens; epoch ${open3.index} still submits and is graded: read the series with ${read} to follow it` : `stopped with no epoch open: the next read (${read}) ends the series`;
    case "ENDED":
      return open3 ? `ended; epoch ${open3.index} still submits and is graded: read the series with ${read} to follow it` : "the series has ended: nothing more moves";
  }
}

// engine/series/plan.ts
import { getAddress as getAddress4, Interface } from "ethers";
var ERC8183 = new Interface(["function createJob(address provider, address evaluator, uint256 expiredAt, string description, address hook) returns (uint256 jobId)"]);
var jobDescription = (cls, paymentRef) => `${cls} ${paymentRef}`;
var same3 = (a, b) => {
  try {
    return getAddress4(a) === getAddress4(b);
  } catch {
    return false;
  }
};
function decoded(data) {
  try {
    const call = ERC8183.parseTransaction({ data });
    return call?.name === "createJob" ? call : null;
  } catch {
    return null;
  }
}
function planProblems(answer3, want) {
  const problems = [];
  const { unsigned, job } = answer3;
  if (answer3.handshake_id !== want.handshake_id) problems.push(`handshake_id: the plan is for ${answer3.handshake_id}, not ${want.handshake_id}`);
  if (unsigned.value !== "0") problems.push(`unsigned.value: the plan moves ${unsigned.value}; opening an epoch's job moves nothing`);
  const call = decoded(unsigned.data);
  if (!call) return [...problems, "unsigned.data: not the calldata of ERC-8183 createJob(address,address,uint256,string,address)"];
  const [provider, evaluator, expiredAt, description, hook] = call.args;
  const wanted = jobDescription(want.class, want.paymentRef);
  if (description !== wanted) problems.push(`unsigned.data: the job's description is "${description}", not "${wanted}" (this epoch's paymentRef)`);
  if (job.class !== want.class) problems.push(`job.class: ${job.class}, not ${want.class}`);
  if (job.description !== description) problems.push("job.description: not the description the calldata carries");
  if (!same3(job.provider, provider)) problems.push("job.provider: not the provider the calldata carries");
  if (!same3(job.evaluator, evaluator)) problems.push("job.evaluator: not the evaluator the calldata carries");
  if (!same3(job.hook, hook)) problems.push("job.hook: not the hook the calldata carries");
  if (BigInt(job.expiredAt) !== expiredAt) problems.push("job.expiredAt: not the expiry the calldata carries");
  if (!same3(evaluator, want.evaluator)) problems.push(`unsigned.data: the evaluator ${evaluator} is not the judge quoted (${want.evaluator})`);
  if (expiredAt < BigInt(want.window_to)) problems.push(`unsigned.data: the job expires at ${expiredAt}, before the epoch's window ends at ${want.window_to}`);
  return problems;
}

// engine/series/types.ts
var SERIES_STATES = ["MANDATED", "EPOCH_OPEN", "EPOCH_ENDED", "STOPPED", "ENDED"];
var EPOCH_STATES = ["pending", "open", "submitted", "ended", "skipped"];
var VENUE_KINDS = ["vault", "external"];
var ROW_IDS = ["R01", "R02", "R03", "R04", "R05", "R06", "R07", "R08", "R09", "R10", "R11", "R12", "R13", "R14"];

// services/series/view.ts
import { z as z81 } from "zod";

// engine/erc8004/feedback.ts
import { getAddress as getAddress5, Interface as Interface2, keccak256, toUtf8Bytes, ZeroHash } from "ethers";
var REPUTATION_ABI = [
  "function giveFeedback(uint256 agentId, int128 value, uint8 valueDecimals, string tag1, string tag2, string endpoint, string feedbackURI, bytes32 feedbackHash)",
  "event NewFeedback(uint256 indexed agentId, address indexed clientAddress, uint64 feedbackIndex, int128 value, uint8 valueDecimals, string indexed indexedTag1, string tag1, string tag2, string endpoint, string feedbackURI, bytes32 feedbackHash)"
];
var REPUTATION = new Interface2(REPUTATION_ABI);
var VALUE_DECIMALS = 2;
function epochFeedback(r, e, endpoint2, client, at) {
  if (e.state !== "ended" || !e.verdict || e.ended_at === null || r.quote.agent.chainId !== at.chainId) return null;
  const { pass, checks } = e.verdict;
  const passed = checks.filter((c) => c.pass).length;
  const value = checks.length ? Math.round(passed * 10 ** (2 + VALUE_DECIMALS) / checks.length) : pass ? 10 ** (2 + VALUE_DECIMALS) : 0;
  const tag1 = r.terms.class;
  const tag2 = pass ? "pass" : "fail";
  const agentRegistry = `eip155:${at.chainId}:${getAddress5(at.identity)}`;
  const file = client ? {
    agentRegistry,
    // A number, as registrations carry it, while JSON holds it exactly; its decimal string beyond.
    agentId: Number.isSafeInteger(Number(r.quote.agent.agentId)) ? Number(r.quote.agent.agentId) : r.quote.agent.agentId,
    clientAddress: `eip155:${at.chainId}:${getAddress5(client)}`,
    createdAt: new Date(e.ended_at * 1e3).toISOString(),
    value,
    valueDecimals: VALUE_DECIMALS,
    tag1,
    tag2,
    endpoint: endpoint2,
    epoch: { class: r.terms.class, index: e.index, paymentRef: e.paymentRef, window: e.window, verdict: e.verdict }
  } : null;
  const bytes = file ? toUtf8Bytes(JSON.stringify(file)) : null;
  const args = {
    agentId: r.quote.agent.agentId,
    value,
    valueDecimals: VALUE_DECIMALS,
    tag1,
    tag2,
    endpoint: endpoint2,
    feedbackURI: bytes ? `data:application/json;base64,${Buffer.from(bytes).toString("base64")}` : "",
    feedbackHash: bytes ? keccak256(bytes) : ZeroHash
  };
  return {
    registry: `eip155:${at.chainId}:${getAddress5(at.reputation)}`,
    agentRegistry,
    client: client ? getAddress5(client) : null,
    args,
    file,
    unsigned: { chainId: at.chainId, to: getAddress5(at.reputation), data: giveFeedbackData(args), value: "0" }
  };
}
var giveFeedbackData = (a) => REPUTATION.encodeFunctionData("giveFeedback", [a.agentId, a.value, a.valueDecimals, a.tag1, a.tag2, a.endpoint, a.feedbackURI, a.feedbackHash]);

// services/series/view.ts
var nowS = (ctx) => Math.floor(ctx.clock() / 1e3);
var SeriesId = z81.string().regex(/^sr_[0-9a-f]{24}$/, "a series id (sr_ and 24 hex digits)").describe("the series id");
function feedbackRegistries(ctx) {
  const { chainId: chainId2, registry: registry2, reputation } = ctx.config.erc8004;
  return chainId2 !== null && registry2 !== null && reputation !== null ? { chainId: chainId2, identity: registry2, reputation } : null;
}
function feedbackOf(ctx, r, e, client) {
  const at = feedbackRegistries(ctx);
  return at ? epochFeedback(r, e, `${ctx.urls.base}/mcp/${r.quote.agent.seller}`, client, at) : null;
}
var seriesView = (ctx, r, now) => {
  const client = provenWallet(ctx.principal);
  return { ...r, epochs: r.epochs.map((e) => ({ ...e, feedback: feedbackOf(ctx, r, e, client) })), next: nextOf(r, now) };
};
var notYours = (id) => new DeckError(404, "not_found", `no series ${id} of yours`);
function mySeries(ctx, id) {
  const found = ctx.store.series.get(ctx.principal.id, id);
  if (!found) throw notYours(id);
  return found;
}
function notWritten(ctx, id, error, message, details = {}) {
  ctx.log.error("series_not_written", { series: id, error: error.message });
  return new DeckError(503, "series_not_written", message, details);
}
function chainedOrLogged(ctx, id, chained) {
  if (chained === "behind") ctx.log.error("series_ledger_behind", { series: id });
}
async function writeSeries(ctx, id, change, failed, details = {}) {
  const changed = await ctx.store.series.apply(ctx.principal.id, id, change).catch((error) => {
    throw error instanceof DeckError ? error : notWritten(ctx, id, error, failed, details);
  });
  if (!changed) throw notYours(id);
  chainedOrLogged(ctx, id, changed.chained);
  return changed;
}

// services/series/follow.ts
async function settled2(ctx, r, epoch, handshakeId2) {
  const plan = await ctx.upstreams.coord.settle(handshakeId2);
  const e = r.epochs[epoch - 1];
  const problems = planProblems(plan, { handshake_id: handshakeId2, class: r.terms.class, paymentRef: e.paymentRef, evaluator: r.terms.per_epoch.judge.evaluator, window_to: e.window.to });
  if (problems.length > 0)
    throw new DeckError(502, "plan_refused", `the layer's plan does not open epoch ${epoch}'s job: ${problems.join("; ")}`, { problems, layer: plan });
  return { unsigned: plan.unsigned, job: plan.job };
}
async function followSeries(ctx, id) {
  const kept = mySeries(ctx, id);
  const now = nowS(ctx);
  const adopt = ctx.store.series.handshakesKept(id).filter((k) => kept.epochs[k.epoch - 1]?.handshake_id !== k.handshake_id).map((k) => ({ epoch: k.epoch, handshake_id: k.handshake_id, opened_at: k.opened_at, unsigned: null, job: null, adopted: true }));
  const open3 = openEpoch(kept);
  const target = open3 ? { epoch: open3.index, handshake_id: open3.handshake_id, planned: open3.unsigned !== null } : adopt.length ? { ...adopt[adopt.length - 1], planned: false } : null;
  const facts = { adopt, handshake: null, plan: null };
  let hire = null;
  let layer = null;
  if (target) {
    try {
      hire = await ctx.upstreams.coord.handshake(target.handshake_id);
      facts.handshake = { epoch: target.epoch, handshake_id: target.handshake_id, state: hire.state, verdict: hire.verdict ?? null, ended_at: hire.ended_at ?? null };
      if (!target.planned && hire.state !== "ended") facts.plan = { epoch: target.epoch, handshake_id: target.handshake_id, ...await settled2(ctx, kept, target.epoch, target.handshake_id) };
    } catch (error) {
      if (!(error instanceof DeckError)) throw error;
      layer = error;
    }
  }
  if (follow(kept, facts, now).moves.length === 0) return { record: kept, hire, layer };
  const changed = await writeSeries(ctx, id, (current) => follow(current, facts, now), "the series could not be written: it is as it was; read it again");
  return { record: changed.record, hire, layer };
}

// services/series/answers.ts
import { z as z83 } from "zod";

// upstream/coord/wire.ts
import { z as z82 } from "zod";
var address = z82.string().regex(/^0x[0-9a-fA-F]{40}$/, "an address");
var int2 = z82.number().int().nonnegative();
var usdc = z82.number().nonnegative();
var ok = z82.literal(true);
var Venue = z82.object({
  venue: z82.string().min(1),
  kind: z82.enum(VENUE_KINDS),
  class: z82.string().min(1),
  checks: z82.array(z82.number().int().positive()).min(1),
  evidence: z82.string()
});
var VenuesAnswer = z82.object({ ok, venues: z82.array(Venue) });
var PoolQuoteAnswer = z82.object({
  ok,
  class: z82.string().min(1),
  kind: z82.enum(VENUE_KINDS),
  per_epoch: z82.object({
    price_usdc: usdc,
    fee_usdc: usdc,
    cover_usdc: usdc,
    epoch_s: z82.number().int().positive(),
    judge: z82.object({ evaluator: address, checks: z82.array(z82.number().int().positive()).min(1) })
  }),
  seller_deposit_usdc: usdc
});
var handshakeId = z82.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "a handshake id");
var HandshakeOpened = z82.object({ ok, handshake_id: handshakeId, state: z82.literal("open"), opened_at: int2 });
var SettleAnswer = z82.object({
  ok,
  handshake_id: handshakeId,
  unsigned: z82.object({ chainId: z82.number().int().positive(), to: address, data: z82.string().regex(/^0x([0-9a-fA-F]{2})*$/, "hex bytes"), value: z82.string() }),
  job: z82.object({ class: z82.string(), provider: address, evaluator: address, expiredAt: int2, description: z82.string(), hook: address })
});
var HandshakeAnswer = z82.object({
  ok,
  handshake_id: handshakeId,
  state: z82.enum(["open", "submitted", "ended"]),
  verdict: z82.object({ pass: z82.boolean(), checks: z82.array(z82.object({ n: z82.number().int().positive(), pass: z82.boolean(), why: z82.string() })) }).optional(),
  ended_at: int2.optional()
});

// services/series/answers.ts
var Usdc = z83.number().nonnegative();
var State = z83.enum(SERIES_STATES);
var VenueListed = z83.strictObject(Venue.shape);
var Quote = z83.strictObject({
  agent: z83.strictObject({ chainId: z83.number().int(), agentId: z83.string().describe("the agent's ERC-8004 token id"), seller: z83.string().describe("the deck seller hired") }),
  venue: z83.string(),
  epochs: z83.number().int(),
  epoch_s: z83.number().int(),
  price_usdc: Usdc.describe("USDC for one epoch (one job)"),
  caps: z83.strictObject({
    markets: z83.array(z83.enum(MARKETS)),
    max_order_size: z83.number(),
    max_notional: z83.number(),
    max_position: z83.number(),
    allow_short: z83.boolean()
  }),
  cover: Usdc,
  vault: Address.optional()
});
var PerEpoch = z83.strictObject({
  price_usdc: Usdc,
  fee_usdc: Usdc,
  cover_usdc: Usdc,
  epoch_s: z83.number().int(),
  judge: z83.strictObject({ evaluator: Address, checks: z83.array(z83.number().int()) }).describe("who evaluates each epoch's job, and the checks it runs")
});
var Terms = z83.strictObject({
  kind: z83.enum(VENUE_KINDS),
  class: z83.string().describe("the job class"),
  checks: z83.array(z83.number().int()),
  evidence: z83.string().describe("what the layer's judge reads at the venue"),
  per_epoch: PerEpoch,
  seller_deposit_usdc: Usdc
});
var UnsignedPlan = z83.strictObject({ chainId: z83.number().int(), to: Address, data: z83.string().regex(/^0x([0-9a-fA-F]{2})*$/), value: z83.literal("0") });
var PaymentRef = z83.string().regex(/^0x[0-9a-f]{64}$/);
var Job = z83.strictObject({ class: z83.string(), provider: Address, evaluator: Address, expiredAt: UnixS, description: z83.string(), hook: Address });
var Hex32 = z83.string().regex(/^0x[0-9a-f]{64}$/);
var Verdict = z83.strictObject({ pass: z83.boolean(), checks: z83.array(z83.strictObject({ n: z83.number().int(), pass: z83.boolean(), why: z83.string() })) });
var Feedback = z83.strictObject({
  registry: z83.string().describe("the reputation registry, eip155:<chainId>:<address>"),
  agentRegistry: z83.string().describe("the identity registry the hired agent is on, eip155:<chainId>:<address>"),
  client: Address.nullable().describe("the wallet the file names as the client: your proven wallet; send from it. null when you have none (no file then)"),
  args: z83.strictObject({
    agentId: z83.string().describe("the hired agent, as the quote named it"),
    value: z83.number().int().describe("the share of the class's checks the verdict passed, in percent with valueDecimals decimals"),
    valueDecimals: z83.number().int(),
    tag1: z83.string().describe("the job class"),
    tag2: z83.enum(["pass", "fail"]).describe("the layer's verdict"),
    endpoint: z83.string().describe("the seller's MCP endpoint"),
    feedbackURI: z83.string().describe("the file as a data: URI (application/json, base64); empty without a file"),
    feedbackHash: Hex32.describe("keccak256 of the file's bytes; zero without a file")
  }).describe("giveFeedback's arguments, in its order"),
  file: z83.strictObject({
    agentRegistry: z83.string(),
    agentId: z83.union([z83.number().int(), z83.string()]).describe("a number; its decimal string past what JSON holds exactly"),
    clientAddress: z83.string(),
    createdAt: z83.string().describe("when the layer ended the epoch, ISO-8601 UTC"),
    value: z83.number().int(),
    valueDecimals: z83.number().int(),
    tag1: z83.string(),
    tag2: z83.string(),
    endpoint: z83.string(),
    epoch: z83.strictObject({ class: z83.string(), index: z83.number().int(), paymentRef: PaymentRef, window: z83.strictObject({ from: UnixS, to: UnixS }), verdict: Verdict })
  }).nullable().describe("the off-chain feedback file feedbackURI carries; null without a proven wallet"),
  unsigned: UnsignedPlan.describe("giveFeedback on the reputation registry: yours to sign and send, from the client wallet")
}).describe("ERC-8004 feedback you may give the seller for this epoch, once the layer ended it with its verdict; null before, or when the deck names no reputation registry on the hired agent's chain");
var Epoch = z83.strictObject({
  index: z83.number().int().min(1),
  window: z83.strictObject({ from: UnixS, to: UnixS }),
  paymentRef: PaymentRef.describe("sha256 of the text {series_id}:{index}, 0x-prefixed"),
  state: z83.enum(EPOCH_STATES),
  handshake_id: z83.string().nullable(),
  opened_at: UnixS.nullable(),
  ended_at: UnixS.nullable(),
  verdict: Verdict.nullable(),
  unsigned: UnsignedPlan.nullable(),
  job: Job.nullable(),
  feedback: Feedback.nullable()
});
var Move = z83.strictObject({
  n: z83.number().int().min(1).describe("the move's number within its series"),
  row: z83.enum(ROW_IDS).nullable().describe("the state table's row; null for a plan kept on an epoch already open"),
  what: z83.enum(["opened", "epoch_opened", "epoch_adopted", "epoch_submitted", "epoch_ended", "plan_kept", "revoked", "ended"]),
  from: State.nullable(),
  to: State,
  at: UnixS,
  epoch: z83.number().int().optional(),
  handshake_id: z83.string().optional(),
  why: z83.string().optional()
});
var SeriesView = z83.strictObject({
  id: z83.string().regex(/^sr_[0-9a-f]{24}$/),
  state: State,
  created_at: UnixS,
  from: UnixS.describe("when the first epoch's window begins"),
  validUntil: UnixS.describe("the end of the series: the last epoch's window ends here"),
  quote: Quote,
  terms: Terms,
  series_total_usdc: Usdc,
  mandate: z83.string().describe("the mandate said in words"),
  epochs: z83.array(Epoch),
  stopped: z83.strictObject({ at: UnixS, why: z83.string() }).nullable(),
  ended: z83.strictObject({ at: UnixS, why: z83.enum(["last_epoch", "valid_until", "stopped"]) }).nullable(),
  moves: z83.array(Move),
  next: z83.string().describe("the move that follows, in words")
});
var Moved = z83.strictObject({ row: z83.enum(ROW_IDS).nullable(), from: State.nullable(), to: State }).describe("the state table row the call moved");
var Next = z83.string().describe("the move that follows, in words");
var TermsAnswer = answer({
  venues: keyed(VENUE_KINDS, z83.array(VenueListed)).nullable().describe("the venues the layer lists, by kind; null when they are unknown (venues_unknown says why)"),
  venues_unknown: z83.strictObject({ status: z83.union([z83.literal(502), z83.literal(503)]), error: z83.string(), message: z83.string().describe("what went wrong, and how to configure the layer when it is not") }).nullable().describe("why the venues are unknown: the layer is not configured (503) or did not answer (502); null when they are known"),
  limits: z83.strictObject({
    epochs: z83.strictObject({ min: z83.number().int(), max: z83.number().int() }),
    epoch_s: z83.strictObject({ min: z83.number().int(), max: z83.number().int(), default: z83.number().int() }),
    span_s: z83.strictObject({ max: z83.number().int() }).describe("epochs x epoch_s at most"),
    price: z83.strictObject({ unit: z83.string(), decimals: z83.number().int(), by_seller: z83.record(z83.string(), z83.strictObject({ min: Usdc, max: Usdc })) }),
    markets: z83.array(z83.enum(MARKETS)),
    cover: z83.strictObject({ unit: z83.string(), external: z83.string() })
  }),
  body: z83.record(z83.string(), z83.unknown()).describe("the quote body's JSON Schema")
});
var QuoteAnswer = answer({
  quote: Quote.describe("the quote body as normalized: pass it to series_open as quote"),
  venue: z83.strictObject({ venue: z83.string(), kind: z83.enum(VENUE_KINDS), class: z83.string(), checks: z83.array(z83.number().int()), evidence: z83.string() }),
  per_epoch: PerEpoch,
  seller_deposit_usdc: Usdc,
  series_total_usdc: Usdc.describe("epochs x the per-epoch price"),
  can_open: z83.boolean(),
  why: z83.string().optional().describe("why it cannot open (can_open false)"),
  next: Next
});
var SeriesOpenAnswer = answer({ series: SeriesView, next: Next });
var SeriesListAnswer = answer({ count: z83.number().int(), series: z83.array(SeriesView).describe("newest first") });
var SeriesReadAnswer = answer({
  series: SeriesView,
  hire: z83.strictObject(HandshakeAnswer.shape).nullable().describe("the open epoch's handshake as the layer reports it; null when no epoch is open"),
  layer: z83.looseObject({ status: z83.number().int(), ok: z83.literal(false), error: z83.string(), message: z83.string() }).optional().describe("why the layer could not answer (the series is as kept): its refusal")
});
var RevokeAnswer = answer({ moved: Moved, series: SeriesView });
var EpochOpenAnswer = answer({
  moved: Moved,
  epoch: z83.number().int().min(1),
  paymentRef: PaymentRef,
  handshake_id: z83.string(),
  unsigned: UnsignedPlan.describe("the unsigned settle plan: yours to sign and send"),
  series: SeriesView,
  next: Next
});

// tools/series/epoch-open.ts
var afterHandshake = (error, handshakeId2) => error instanceof DeckError ? new DeckError(error.status, error.code, `${error.message}; the layer opened handshake ${handshakeId2}, which the deck keeps: the next read of the series adopts it`, {
  ...error.details,
  handshake_id: handshakeId2
}) : error;
var epochOpen = defineTool({
  name: "epoch_open",
  title: "Open the next epoch",
  description: "Opens the epoch whose window holds the clock, from MANDATED or EPOCH_ENDED while the mandate is valid and no epoch is open (the series first follows the layer, as a read does): a handshake with the seller through the coordination layer (the layer calls the seller's /mcp/{seller} and records you as the opener), then a settle that answers the unsigned ERC-8183 createJob, checked to carry this epoch's paymentRef. The deck never signs: the plan is yours to sign and send. Answers 201 { ok, moved, epoch, paymentRef, handshake_id, unsigned, series, next }. 409 when no epoch may open (the body says why: epoch_open, stopped, ended, mandate_expired, window_not_begun, or epoch_opening when another open of this series is under way); 502 when the layer refused (its answer under layer) or its plan does not check out (plan_refused); 503 when the layer is not configured, or when the series could not be written after the layer opened the epoch (the handshake is kept and the next read adopts it).",
  input: z84.object({ id: SeriesId }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  output: EpochOpenAnswer,
  access: "session",
  guard: "epoch_open",
  guardKey: (input) => input.id,
  toolset: TOOLSETS.series,
  rest: { method: "POST", path: "/v1/series/:id/epochs", status: 201, body: "none", errors: [404, 409, 502, 503] },
  async run(ctx, { id }) {
    const now = nowS(ctx);
    const followed = await followSeries(ctx, id);
    const r = followed.record;
    if (followed.layer && !followed.hire && openEpoch(r)) throw followed.layer;
    const pick = epochToOpen(r, now);
    if (!pick.ok) throw new DeckError(409, pick.code, pick.message, { state: r.state, next: seriesView(ctx, r, now).next });
    const epoch = r.epochs[pick.epoch - 1];
    const { quote, terms } = r;
    const opened = await ctx.upstreams.coord.openHandshake({
      class: terms.class,
      seller: { chainId: quote.agent.chainId, agentId: quote.agent.agentId, endpoint: `${ctx.urls.base}/mcp/${quote.agent.seller}` },
      series_id: id,
      epoch: epoch.index,
      paymentRef: epoch.paymentRef,
      opener: { agent_id: ctx.principal.agent_id, wallet: provenWallet(ctx.principal) },
      window: epoch.window
    });
    const hid = opened.handshake_id;
    const recovery = { series_id: id, principal_id: ctx.principal.id, epoch: epoch.index, paymentRef: epoch.paymentRef, handshake_id: hid, opened_at: opened.opened_at };
    await ctx.store.series.keepHandshake(recovery, now).catch((error) => {
      throw notWritten(ctx, id, error, `the layer opened handshake ${hid} but the deck could not keep it: nothing is written`, { handshake_id: hid });
    });
    const plan = await settled2(ctx, r, epoch.index, hid).catch((error) => {
      throw afterHandshake(error, hid);
    });
    const changed = await writeSeries(
      ctx,
      id,
      (current) => epochOpened(current, { epoch: epoch.index, handshake_id: hid, opened_at: opened.opened_at, ...plan, adopted: false }, now),
      `the series could not be written after the layer opened epoch ${epoch.index}: handshake ${hid} is kept, and the next read of the series adopts it`,
      { handshake_id: hid }
    );
    const record = changed.record;
    const move = record.moves.find((m) => m.handshake_id === hid && (m.what === "epoch_opened" || m.what === "epoch_adopted"));
    const series = seriesView(ctx, record, now);
    return {
      ok: true,
      moved: { row: move.row, from: move.from, to: move.to },
      epoch: epoch.index,
      paymentRef: epoch.paymentRef,
      handshake_id: hid,
      unsigned: plan.unsigned,
      series,
      next: series.next
    };
  }
});

// tools/series/series-list.ts
import { z as z85 } from "zod";
var seriesList = defineTool({
  name: "series_list",
  title: "Your series",
  description: "Your series, newest first, each as last kept with its next move: { ok, count, series }. Read one with series_read (GET /v1/series/{id}) to follow the layer.",
  input: z85.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: SeriesListAnswer,
  access: "session",
  toolset: TOOLSETS.series,
  rest: { method: "GET", path: "/v1/series" },
  async run(ctx) {
    const now = nowS(ctx);
    const series = [...ctx.store.series.list(ctx.principal.id)].reverse().map((r) => seriesView(ctx, r, now));
    return { ok: true, count: series.length, series };
  }
});

// tools/series/series-open.ts
import { randomBytes as randomBytes10 } from "node:crypto";
import { z as z87 } from "zod";

// services/series/quote-body.ts
import { z as z86 } from "zod";

// config/sellers.ts
var HOUSE_TOOLS = ["catalogue", "plans", "account"];
var SELLERS = [
  {
    id: "studio",
    name: "the deck: studio",
    description: "Reads a trader's own rule into seven parts, forges it into a deterministic watermarked state machine and rehearses it over the real tape against a random null. A rehearsal is evidence about the past, never a forecast. Grading a forge's fidelity to the words is not served here: grade is on the deck's /mcp.",
    tools: ["workflow_read", "forge", "rehearse", "skills", "skill_read"],
    skills: ["strategy-compile", "backtest", "walk-forward", "rule-parsing", "trading-workflow"],
    proposed_classes: ["strategy.rehearse"],
    price_usdc: { unit: "job", min: 0, max: 0 },
    price_basis: "free inside the plan allowance; free tier 3 forges a day",
    verify: "the same seed and window give the same envelope, byte for byte: re-run the rehearsal and compare digests"
  },
  {
    id: "candles",
    name: "the deck: candles",
    description: "Real OHLCV for NQ, ES, YM, BTC, ETH and SOL at 15s, 1m, 5m and 1h, for a past window only. Past windows are sealed, so the same request returns the same bars. NQ, ES and YM follow the CME session (weekend halt, daily break at 21:00 UTC).",
    tools: ["tape"],
    skills: ["market-data", "ohlcv", "candles", "futures", "crypto"],
    proposed_classes: ["market.candles"],
    price_usdc: { unit: "job", min: 0, max: 0 },
    price_basis: "free",
    verify: "a sealed window answers the same bars byte for byte on every request"
  },
  {
    id: "copy",
    name: "the deck: copy",
    description: "Lists live trading models with realized PnL, drawdown and win rate from paired closes; synthetic book actors are never listed. A record is past fills, never a forecast. follow_quote quotes following at the follower's own size inside the follower's own caps.",
    tools: ["models", "model_record", "follow_quote"],
    skills: ["copy-trading", "track-record", "position-sizing", "risk-caps"],
    proposed_classes: ["copy.follow_quote"],
    price_usdc: { unit: "job", min: 0, max_plan: "premium-99" },
    price_basis: "models and records free; following needs the max plan, premium-99 per 30 days",
    verify: "every figure in a record is recomputed from the paired fills it lists"
  }
];
function priceOf(seller, plans2) {
  const p = seller.price_usdc;
  if ("max" in p) return p;
  const plan = plans2.plans.find((x) => x.id === p.max_plan);
  if (!plan) throw new Error(`the plans file has no plan ${p.max_plan}, which prices the ${seller.id} seller`);
  return { unit: p.unit, min: p.min, max: plan.price_usdc };
}
var sellerById = (id) => SELLERS.find((s) => s.id === id) ?? null;
var SELLER_IDS = SELLERS.map((s) => s.id);

// services/series/quote-body.ts
var { epochs, epoch_s, span_s } = SERIES_LIMITS;
var usdc2 = z86.number().nonnegative().refine(isUsdc, `at most ${SERIES_LIMITS.usdc_decimals} decimals, as USDC carries`);
var positive2 = z86.number().positive();
var QuoteBody = z86.object({
  agent: z86.object({
    chainId: z86.number().int().positive().describe("the chain of the ERC-8004 identity registry the agent is registered on"),
    agentId: z86.union([z86.number().int().nonnegative(), z86.string().regex(/^\d{1,78}$/, "a decimal token id")]).transform(String).describe("the agent's ERC-8004 token id"),
    seller: z86.enum(SELLER_IDS).describe("the deck seller hired: its /mcp/{seller} endpoint is handshaken each epoch")
  }).strict(),
  venue: z86.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, "1 to 64 of a-z, 0-9, ., _ and -").describe("a venue the layer lists (GET /v1/series/quote)"),
  epochs: z86.number().int().min(epochs.min).max(epochs.max).describe(`epoch jobs in the series (${epochs.min} to ${epochs.max})`),
  epoch_s: z86.number().int().min(epoch_s.min).max(epoch_s.max).default(epoch_s.default).describe(`an epoch's length in seconds (${epoch_s.min} to ${epoch_s.max}; default ${epoch_s.default})`),
  price_usdc: usdc2.describe("USDC for one epoch, within the hired seller's card price range"),
  caps: z86.object({
    markets: z86.array(z86.enum(MARKETS)).min(1).refine((m) => new Set(m).size === m.length, "each market once").describe("the markets the seller may trade"),
    max_order_size: positive2.describe("the largest size of one order"),
    max_notional: positive2.describe("the largest notional of one order"),
    max_position: positive2.describe("the largest position, either way"),
    allow_short: z86.boolean().default(false).describe("whether the position may go short (default false)")
  }).strict(),
  cover: usdc2.describe("cover in USDC; on an external venue at most the seller's deposit"),
  vault: z86.string().regex(/^0x[0-9a-fA-F]{40}$/, "a 0x-prefixed address").optional().describe("the vault, for a vault-kind venue only")
}).strict().superRefine((q, issues) => {
  if (q.epochs * q.epoch_s > span_s.max)
    issues.addIssue({ code: "custom", path: ["epochs"], message: `the series would run ${durationWords(q.epochs * q.epoch_s)}; epochs x epoch_s is at most ${durationWords(span_s.max)}` });
});
var pricesBySeller = (plans2) => Object.fromEntries(SELLERS.map((s) => {
  const { min, max } = priceOf(s, plans2);
  return [s.id, { min, max }];
}));

// services/series/quoting.ts
async function quoteSeries(ctx, q, at) {
  const { min, max } = pricesBySeller(ctx.offer.plans)[q.agent.seller];
  if (q.price_usdc < min || q.price_usdc > max)
    throw badInput([{ field: `${at.prefix}price_usdc`, message: `the ${q.agent.seller} seller's card prices an epoch (one job) from ${min} to ${max} USDC` }], void 0, at.status);
  const layer = ctx.upstreams.coord;
  const venues = await layer.venues();
  const venue = venues.find((v) => v.venue === q.venue);
  if (!venue) {
    const listed = venues.map((v) => v.venue);
    throw new DeckError(422, "no_lane", `no lane serves venue ${q.venue}: the layer lists ${listed.join(", ") || "none"}`, { field: `${at.prefix}venue`, venues: listed });
  }
  if (q.vault && venue.kind !== "vault") throw badInput([{ field: `${at.prefix}vault`, message: `${q.venue} is of ${venue.kind} kind: only a vault-kind venue takes a vault` }], void 0, at.status);
  const { per_epoch, seller_deposit_usdc } = await layer.poolQuote({
    class: venue.class,
    venue: q.venue,
    seller: q.agent,
    epochs: q.epochs,
    epoch_s: q.epoch_s,
    price_usdc: q.price_usdc,
    caps: q.caps,
    cover: q.cover
  });
  if (venue.kind === "external" && q.cover > seller_deposit_usdc)
    throw new DeckError(422, "external_no_cover", `on an external venue the cover may not exceed the seller's deposit: ${q.cover} USDC asked, ${seller_deposit_usdc} USDC deposited`, {
      cover: q.cover,
      seller_deposit_usdc
    });
  return {
    quote: q,
    terms: { kind: venue.kind, class: venue.class, checks: venue.checks, evidence: venue.evidence, per_epoch, seller_deposit_usdc },
    series_total_usdc: usdcTimes(per_epoch.price_usdc, q.epochs)
  };
}
var VAULT_NOT_BUILT = "a vault-kind series cannot open until the vault contract grants the mandate on chain; the vault is not built yet";

// tools/series/series-open.ts
var seriesOpen = defineTool({
  name: "series_open",
  title: "Open a series",
  description: "Opens a standing hire from a quote body: it is quoted again with the layer (terms can move), then kept in state MANDATED with its id, validUntil, the mandate said in words and the epochs cut (index, window, paymentRef = sha256 of \"{series_id}:{index}\"). `from` (unix seconds, default now) is when the first epoch's window begins. Answers 201 { ok, series, next }. A vault-kind quote is 422 vault_not_built; the quote's refusals pass through; 503 when the series could not be kept (nothing opened).",
  input: z87.object({
    quote: QuoteBody.describe("the quote body, as series_quote answered it under quote"),
    from: unixTime.optional().describe("unix seconds or ISO-8601 UTC: when the first epoch's window begins (default now)")
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  output: SeriesOpenAnswer,
  access: "session",
  toolset: TOOLSETS.series,
  rest: { method: "POST", path: "/v1/series", status: 201, errors: [422, 502, 503] },
  async run(ctx, input) {
    const now = nowS(ctx);
    const from = input.from ?? now;
    const { behind_s, ahead_s } = SERIES_LIMITS.from;
    if (from < now - behind_s || from > now + ahead_s)
      throw badInput([{ field: "from", message: `from ${behind_s} seconds before now to ${ahead_s / 86400} days after (now is ${now})` }]);
    const quoted = await quoteSeries(ctx, input.quote, { status: 422, prefix: "quote." });
    if (quoted.terms.kind === "vault") throw new DeckError(422, "vault_not_built", VAULT_NOT_BUILT, { venue: input.quote.venue });
    const record = openSeries({ id: `sr_${randomBytes10(12).toString("hex")}`, ...quoted, from, now });
    const chained = await ctx.store.series.create(ctx.principal.id, record).catch((error) => {
      throw notWritten(ctx, record.id, error, "the series could not be kept: nothing is opened");
    });
    chainedOrLogged(ctx, record.id, chained);
    const series = seriesView(ctx, record, now);
    return { ok: true, series, next: series.next };
  }
});

// tools/series/series-quote.ts
var seriesQuote = defineTool({
  name: "series_quote",
  title: "Quote a series",
  description: "Quotes a standing hire: a series of epoch jobs under one mandate, one job per epoch. The venue decides the kind (external or vault) and the job class; the terms come from the coordination layer's pool quote. Answers { ok, quote, venue, per_epoch, seller_deposit_usdc, series_total_usdc (epochs x the per-epoch price), can_open, next }. Nothing is kept. A field failing its rule is 400 bad_input naming each field; 422 no_lane for a venue the layer does not list (naming the ones it does; GET /v1/series/quote lists them with the limits) or when no pool serves the hire; 422 external_no_cover when the cover is over the seller's deposit on an external venue. A vault-kind quote answers, with can_open false and why. Open the series with series_open (POST /v1/series { quote }).",
  input: QuoteBody,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: QuoteAnswer,
  access: "none",
  invalid: 400,
  toolset: TOOLSETS.series,
  rest: { method: "POST", path: "/v1/series/quote", errors: [422, 502, 503] },
  async run(ctx, body) {
    const q = await quoteSeries(ctx, body, { status: 400, prefix: "" });
    const { kind, class: cls, checks, evidence, per_epoch, seller_deposit_usdc } = q.terms;
    const canOpen = kind === "external";
    return {
      ok: true,
      quote: q.quote,
      venue: { venue: q.quote.venue, kind, class: cls, checks, evidence },
      per_epoch,
      seller_deposit_usdc,
      series_total_usdc: q.series_total_usdc,
      can_open: canOpen,
      ...canOpen ? {} : { why: VAULT_NOT_BUILT },
      next: canOpen ? "open the series, signed in, with POST /v1/series { quote } (tool series_open): it is quoted again there, since terms can move" : `nothing to open yet: ${VAULT_NOT_BUILT} (POST /v1/series answers 422 vault_not_built)`
    };
  }
});

// tools/series/series-read.ts
import { z as z88 } from "zod";
var seriesRead = defineTool({
  name: "series_read",
  title: "Read a series",
  description: "Your series, brought up to the coordination layer: the open epoch's handshake is read from the layer and the series follows it (an epoch the layer ended ends; the last epoch ended or validUntil reached ends the series; a stopped series with no epoch open ends), and a handshake the deck kept for recovery is adopted. Answers { ok, series, hire } where hire is the open epoch's handshake as the layer reports it (null when no epoch is open); when the layer could not answer, the series is as kept and `layer` carries why. 404 when the series is not yours.\n\n" + seriesMarkdown(),
  // The state table is reference, not how to call: MCP lists where to read it.
  listed: {
    description: "Your series, brought up to the coordination layer: the open epoch's handshake is read from the layer and the series follows it (ended epochs, the last epoch or validUntil end the series), and a handshake kept for recovery is adopted. Answers { ok, series, hire } (hire: the open epoch's handshake, null when none is open); when the layer could not answer, the series is as kept and `layer` says why. 404 when the series is not yours. The series states and their transitions: the OpenAPI description of GET /v1/series/{id}."
  },
  input: z88.object({ id: SeriesId }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: SeriesReadAnswer,
  access: "session",
  toolset: TOOLSETS.series,
  rest: { method: "GET", path: "/v1/series/:id", errors: [404, 503] },
  async run(ctx, { id }) {
    const { record, hire, layer } = await followSeries(ctx, id);
    return { ok: true, series: seriesView(ctx, record, nowS(ctx)), hire, ...layer ? { layer: { status: layer.status, ...layer.body() } } : {} };
  }
});

// tools/series/series-revoke.ts
import { z as z89 } from "zod";
var seriesRevoke = defineTool({
  name: "series_revoke",
  title: "Revoke a series",
  description: "Stops your series: { revoke: true, why }. From MANDATED, EPOCH_OPEN or EPOCH_ENDED it is STOPPED: no new epoch opens; an open epoch still submits and is graded, and reads follow it. Answers { ok, moved, series }; 409 when it is already stopped or ended; 404 when it is not yours.",
  input: z89.object({
    id: SeriesId,
    revoke: z89.literal(true).describe("true: stop the series"),
    why: z89.string().trim().min(1).max(SERIES_LIMITS.why_chars).describe(`why, in at most ${SERIES_LIMITS.why_chars} characters (kept on the series and its ledger)`)
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  output: RevokeAnswer,
  access: "session",
  toolset: TOOLSETS.series,
  rest: { method: "POST", path: "/v1/series/:id", errors: [404, 409, 503] },
  async run(ctx, { id, why }) {
    mySeries(ctx, id);
    const now = nowS(ctx);
    const changed = await writeSeries(
      ctx,
      id,
      (current) => {
        const c = revoke2(current, why, now);
        if ("ok" in c) throw new DeckError(409, c.code, c.message, { state: current.state });
        return c;
      },
      "the series could not be written: it is not stopped"
    );
    const move = changed.moves[0];
    return { ok: true, moved: { row: move.row, from: move.from, to: move.to }, series: seriesView(ctx, changed.record, now) };
  }
});

// tools/series/series-terms.ts
import { z as z90 } from "zod";
var BODY = z90.toJSONSchema(QuoteBody, { io: "input", unrepresentable: "any" });
var seriesTerms = defineTool({
  name: "series_terms",
  title: "What a series may be",
  description: "The venues the coordination layer lists, by kind (the evidence its judge reads there: vault or external), the limits (epochs, epoch length, price by seller, markets, cover) and the quote body's JSON Schema. Nothing is created. The limits and the body are the deck's own: when the layer is not configured or does not answer, they are still served, with venues null and venues_unknown saying why (its status, error and message).",
  input: z90.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: TermsAnswer,
  access: "none",
  // Agents read the body's schema from series_quote in tools/list, and the venues from its refusals.
  surface: "rest",
  toolset: TOOLSETS.series,
  rest: { method: "GET", path: "/v1/series/quote" },
  async run(ctx) {
    const venues = await ctx.upstreams.coord.venues().catch((e) => {
      if (e instanceof DeckError && (e.status === 502 || e.status === 503)) return e;
      throw e;
    });
    const { epochs: epochs3, epoch_s: epoch_s2, span_s: span_s2, usdc_decimals } = SERIES_LIMITS;
    return {
      ok: true,
      venues: venues instanceof DeckError ? null : Object.fromEntries(VENUE_KINDS.map((kind) => [kind, venues.filter((v) => v.kind === kind)])),
      venues_unknown: venues instanceof DeckError ? { status: venues.status, error: venues.code, message: venues.message } : null,
      limits: {
        epochs: epochs3,
        epoch_s: epoch_s2,
        span_s: span_s2,
        price: { unit: "USDC per epoch (one job)", decimals: usdc_decimals, by_seller: pricesBySeller(ctx.offer.plans) },
        markets: [...MARKETS],
        cover: { unit: "USDC", external: "at most the seller's deposit" }
      },
      body: BODY
    };
  }
});

// tools/plans/price.ts
import { z as z92 } from "zod";

// services/studio/register.ts
import { readFileSync as readFileSync2 } from "node:fs";
import { z as z91 } from "zod";
var RegisterFile = z91.strictObject({
  strategies: z91.array(
    z91.strictObject({
      name: z91.string().regex(/^[a-z0-9-]{2,48}$/, "2 to 48 of a-z, 0-9 and -"),
      title: z91.string().min(1),
      house: z91.boolean(),
      /** Where the algorithm is documented, and how this script adapts it. */
      source: z91.string().min(1),
      intent: z91.string().min(1),
      script: ScriptSchema
    })
  )
});
var loaded2 = /* @__PURE__ */ new Map();
var RegisterProblem = class extends Error {
};
function load2(path) {
  const parsed = RegisterFile.safeParse(JSON.parse(readFileSync2(path, "utf8")));
  if (!parsed.success) throw new RegisterProblem(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const { strategies: strategies2 } = parsed.data;
  for (const s of strategies2) {
    if (strategies2.filter((x) => x.name === s.name).length > 1) throw new RegisterProblem(`${s.name} is named twice`);
    try {
      irOf(s.script);
    } catch (error) {
      if (error instanceof DeciderRefusal) throw new RegisterProblem(`${s.name}: ${error.message}`);
      throw error;
    }
  }
  return strategies2;
}
function register(ctx) {
  const path = ctx.config.files.register;
  let got = loaded2.get(path);
  if (!got) {
    try {
      got = load2(path);
    } catch (error) {
      ctx.log.error("register_unreadable", { file: path, error: error.message });
      const why = error instanceof RegisterProblem ? `: ${error.message}` : " (DECK_REGISTER could not be read as JSON)";
      throw new DeckError(500, "register_unreadable", `the onboarded register did not load${why}`);
    }
    loaded2.set(path, got);
  }
  return got;
}
function onboarded(ctx, name) {
  const found = register(ctx).find((s) => s.name === name);
  if (found?.house) throw new DeckError(404, "sealed", `${name} is one of the house's own strategies: it is sealed`);
  if (!found) {
    const names = register(ctx).filter((s) => !s.house).map((s) => s.name);
    throw new DeckError(404, "not_found", `no onboarded algorithm is named ${name}`, { names });
  }
  return found;
}

// services/studio/strategy-quote.ts
function quoteOf(ctx, s) {
  const { market, timeframe } = s.script;
  const bars = DEFAULT_HOURS * 3600 / TIMEFRAME_SECONDS[timeframe] + irOf(s.script).warm_up_bars;
  const forge2 = unitsFor(ctx.offer.plans, "forge");
  const rehearse2 = unitsFor(ctx.offer.plans, "rehearse", bars);
  return {
    name: s.name,
    market,
    timeframe,
    window: { hours: DEFAULT_HOURS, bars_at_most: bars },
    unit: "meter unit",
    meter: { forge: forge2, rehearse: rehearse2, total: forge2 + rehearse2 }
  };
}

// tools/plans/price.ts
var StrategyQuote = z92.object({
  name: z92.string(),
  market: z92.enum(MARKETS),
  timeframe: z92.enum(TIMEFRAMES),
  window: z92.object({ hours: z92.number(), bars_at_most: z92.number().int() }),
  unit: z92.string().describe("meter unit"),
  meter: z92.object({ forge: z92.number(), rehearse: z92.number(), total: z92.number() })
});
var price2 = defineTool({
  name: "price",
  title: "Price list",
  description: "What things cost: the meter's units per action (and per 1,000 bars where bars are priced), each tier's daily allowance, each seller's price per job in USDC, and what forging and rehearsing each onboarded strategy costs. Needs no key.",
  input: z92.object({ action: z92.string().min(1).optional().describe("one action to price; all when absent") }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "none",
  output: answer({
    unit: z92.literal("meter unit"),
    prices: z92.array(PriceEntry),
    allowance_per_day: z92.partialRecord(z92.enum(TIERS), z92.number()).describe("each tier's daily allowance in meter units"),
    sellers: z92.array(z92.object({ id: z92.string(), price_usdc: z92.object({ unit: z92.string(), min: z92.number(), max: z92.number() }), price_basis: z92.string() })),
    strategies: z92.array(StrategyQuote).describe("the onboarded public strategies, each as strategy_quote quotes it")
  }),
  toolset: TOOLSETS.plans,
  rest: { method: "GET", path: "/price" },
  async run(ctx, { action }) {
    const { prices, plans: plans2, house_allowance_per_day } = ctx.offer.plans;
    const listed = action ? [priceEntry(ctx.offer.plans, action)] : prices;
    return {
      ok: true,
      unit: "meter unit",
      prices: listed,
      allowance_per_day: { ...Object.fromEntries(plans2.map((p) => [p.tier, p.allowance_per_day])), house: house_allowance_per_day },
      sellers: SELLERS.map((s) => ({ id: s.id, price_usdc: priceOf(s, ctx.offer.plans), price_basis: s.price_basis })),
      // The onboarded register's public strategies, each quoted as strategy_quote quotes it.
      strategies: register(ctx).filter((s) => !s.house).map((s) => quoteOf(ctx, s))
    };
  }
});

// tools/plane/ledger-verify.ts
import { z as z93 } from "zod";
var ledgerVerify = defineTool({
  name: "ledger_verify",
  title: "Verify a ledger",
  description: "Walks one ledger as it is kept on disk, from its first entry, checking that each entry carries the hash of the one before it and that its own hash is the hash of its contents. Answers intact, the entries that hold and the head they reach; at the first break, the line, the entry (seq), why, and the hash the chain expected against the one found. One walk at a time per principal (a long ledger is read whole).",
  input: z93.object({ ledger: z93.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "a ledger name, as GET /plane/ledgers lists them") }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "session",
  guard: "ledger_walk",
  output: answer({
    ledger: z93.string(),
    intact: z93.boolean(),
    checked: z93.number().int().describe("entries that hold, from the first, up to the break"),
    head: z93.string().describe("the hash of the last entry that holds"),
    break: z93.object({
      line: z93.number().int(),
      seq: z93.number().int().nullable().describe("null when the line is not JSON"),
      why: z93.string(),
      expected: z93.string(),
      found: z93.string().nullable()
    }).nullable().describe("the first break, when there is one")
  }),
  toolset: TOOLSETS.plane,
  rest: { method: "GET", path: "/plane/ledgers/:ledger/verify", errors: [404] },
  async run(ctx, { ledger }) {
    const names = await ctx.store.backend.ledgerNames();
    if (!names.includes(ledger)) throw new DeckError(404, "no_such_ledger", `no ledger ${ledger}`, { ledgers: names });
    const walk = await ctx.store.backend.walkLedger(ledger);
    return { ok: true, ledger, intact: walk.break === null, checked: walk.checked, head: walk.head, break: walk.break };
  }
});

// tools/plane/ledgers.ts
import { z as z94 } from "zod";
var ledgers = defineTool({
  name: "ledgers",
  title: "The hash-chained ledgers",
  description: "Every hash-chained ledger the deck keeps (the meter, the grade receipts, the scores, each forecast pair's issues and scores), each with its length (its last entry's seq) and head hash, read from the files as kept. A head hash commits to everything before it: note it, and a later verify that walks to the same head shows nothing before it changed. Names only counts and hashes, never an entry.",
  input: z94.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "none",
  output: answer({
    ledgers: z94.array(
      z94.object({
        name: z94.string(),
        length: z94.number().int().nullable().describe("its last entry's seq; null when it is empty or its last line is not JSON"),
        head: z94.string().nullable().describe("its last entry's hash")
      })
    )
  }),
  toolset: TOOLSETS.plane,
  rest: { method: "GET", path: "/plane/ledgers" },
  async run(ctx) {
    return { ok: true, ledgers: await ctx.store.backend.ledgerHeads() };
  }
});

// tools/plates/chart-image.ts
import { z as z97 } from "zod";

// services/plates/chart-state.ts
import { z as z95 } from "zod";
var ChartState = z95.object({
  style: z95.string(),
  market: z95.enum(MARKETS),
  tf: z95.enum(TIMEFRAMES),
  from: z95.string(),
  to: z95.string(),
  size: z95.object({ width: z95.number().int(), height: z95.number().int() }),
  bars: z95.object({
    count: z95.number().int(),
    first_t: z95.number().int(),
    last_t: z95.number().int(),
    digest: z95.string().describe("sha256 of the drawn bars' t, o, h, l, c, v columns as little-endian float64, column after column"),
    last: z95.object({ t: z95.number().int(), o: z95.number(), h: z95.number(), l: z95.number(), c: z95.number(), v: z95.number() })
  }),
  price: z95.object({ low: z95.number(), high: z95.number(), decimals: z95.number().int() }),
  volume: z95.object({ max: z95.number() }),
  indicators: z95.array(
    z95.object({
      spec: z95.string(),
      pane: z95.enum(["price", "lower"]),
      lines: z95.array(z95.object({ name: z95.string(), last: z95.number().nullable() })),
      warm_up: z95.object({
        bars: z95.number().int().describe("bars before the window the line was computed over"),
        wanted: z95.number().int().describe("bars its first value needs to be settled: N for sma, bb, hi, lo; 5N for ema; 10N for atr, rsi; for vwap, its trading day before the window"),
        settled: z95.boolean().describe("false when the tape could not supply the warm-up (the plate says so in its legend)")
      }).describe("the history the line was warmed over before the window")
    })
  ),
  marks: z95.array(z95.object({ kind: z95.enum(["level", "zone"]), placed: z95.enum(["in_view", "above", "below"]) }))
});

// services/plates/draw.ts
import { createHash as createHash4 } from "node:crypto";
import { z as z96 } from "zod";

// engine/plate/error.ts
var PlateError = class extends Error {
  constructor(reason, message) {
    super(message);
    this.reason = reason;
    this.name = "PlateError";
  }
  reason;
};

// engine/plate/load.ts
var vwapAnchor = (market) => tradingDay(MARKET_SPECS[market].kind === "cme" ? "cme" : "utc");
var LONGEST_DAY = 2 * 86400;
function dayStart2(anchor, t, len) {
  const slot = Math.floor(t / len);
  const day = anchor(slot * len);
  let lo = Math.floor((slot * len - LONGEST_DAY) / len);
  let hi = slot;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (anchor(mid * len) < day) lo = mid + 1;
    else hi = mid;
  }
  return lo * len;
}
function plateLoadFrom(market, tf, from, indicators) {
  const len = TIMEFRAME_SECONDS[tf];
  const warm = warmStart(market, from, Math.max(0, ...indicators.map(warmUpBars)) * len, len);
  return indicators.some((s) => s.kind === "vwap") ? Math.min(warm, dayStart2(vwapAnchor(market), from, len)) : warm;
}
var SPARSEST = 16;
function furtherBack(market, tf, from, start, before, indicators, earliest) {
  const len = TIMEFRAME_SECONDS[tf];
  const short = Math.max(0, ...indicators.map(warmUpBars)) - before;
  if (short <= 0 || start <= earliest) return null;
  const share = Math.max(before / Math.max(1, expectedBars(market, len, start, from).length), 1 / SPARSEST);
  return Math.max(earliest, warmStart(market, start, Math.ceil(short / share) * len, len));
}

// engine/plate/raster.ts
import { Resvg } from "@resvg/resvg-js";
import { createRequire } from "node:module";
var require2 = createRequire(import.meta.url);
var FONTS = ["DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf"].map((f) => require2.resolve(`dejavu-fonts-ttf/ttf/${f}`));
function rasterize(svg) {
  const resvg = new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: FONTS, defaultFontFamily: "DejaVu Sans Mono", monospaceFamily: "DejaVu Sans Mono" },
    shapeRendering: 2,
    textRendering: 1,
    logLevel: "off"
  });
  return resvg.render().asPng();
}

// engine/plate/scale.ts
function niceStep(span, most) {
  const raw = span / most;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}
function ticksOf(min, max, step) {
  const ticks = [];
  for (let k = Math.ceil(min / step); k * step <= max; k++) ticks.push(k * step);
  return ticks;
}
function decimalsOf(step) {
  for (let d = 0; d < 8; d++) if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-9) return d;
  return 8;
}
function formatNumber(x, decimals) {
  const fixed = Math.abs(x).toFixed(decimals);
  const [whole = "0", part] = fixed.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const sign = x < 0 && Number(fixed) !== 0 ? "-" : "";
  return `${sign}${grouped}${part === void 0 ? "" : `.${part}`}`;
}
function formatVolume(v) {
  if (v >= 1e9) return `${(v / 1e9).toFixed(2)}B`;
  if (v >= 1e6) return `${(v / 1e6).toFixed(2)}M`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(2)}K`;
  return v >= 100 ? v.toFixed(0) : v.toFixed(2);
}
var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
var two = (n) => String(n).padStart(2, "0");
function utcMinute(t) {
  const d = new Date(t * 1e3);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}
function utcTick(t, step, dated = false) {
  const d = new Date(t * 1e3);
  const date = `${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())}`;
  if (t % 86400 === 0) return date;
  const hm = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
  const time = step < 60 ? `${hm}:${two(d.getUTCSeconds())}` : hm;
  return dated ? `${date} ${time}` : time;
}
var TIME_STEPS = [15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];
function timeStep(tf, slot, gap) {
  for (const s of TIME_STEPS) if (s >= tf && s / tf * slot >= gap) return s;
  return TIME_STEPS[TIME_STEPS.length - 1];
}

// engine/plate/theme.ts
var THEME = {
  width: 1200,
  height: 700,
  font: "DejaVu Sans Mono",
  /** Advance of one DejaVu Sans Mono glyph, in em: label boxes are sized from it. */
  advance: 0.602,
  background: "#131722",
  grid: "#1f2433",
  separator: "#2a3042",
  text: "#d1d4dc",
  muted: "#8a91a5",
  up: "#26a69a",
  down: "#ef5350",
  volumeUp: "#1d5f5c",
  volumeDown: "#7a3238",
  level: "#ff9800",
  zone: "#3d7bfd",
  /** Overlay colours in the order indicators are asked for; none is a candle colour. */
  lines: ["#f7c948", "#4fa3f7", "#c77dff", "#a3e048", "#ff6fb5", "#5ee0d8", "#ffffff", "#b0b8c8"]
};
var LAYOUT = {
  left: 10,
  axis: 88,
  header: 58,
  footer: 26,
  volume: 84,
  lower: 96,
  gap: 6
};
var REHEARSAL_COLOURS = {
  long: "#4fa3f7",
  short: "#c77dff",
  win: "#a3e048",
  loss: "#ff6fb5",
  equity: "#f7c948",
  /** Null runs below the rule's total R, and at or above it (the k of p = (k + 1) / (N + 1)). */
  below: "#3a4157",
  atLeast: "#8a91a5",
  rule: "#ffffff",
  /** The neighbourhood's rules (the verdict), each a tick at its total R under the null's runs. */
  neighbour: "#5ee0d8",
  /** Each trade's initial stop and the target its fill placed, from its entry to its exit. */
  stop: "#ff5252",
  target: "#69f0ae",
  /** Shading behind the candles: bars whose close fell outside the rule's session, and bars before its series had values. */
  session: "#1c2233",
  warmUp: "#2a1f33",
  /** A constant the rule compares a series with. */
  threshold: "#b0b8c8",
  /** The rule's own series, in the IR's order; none is a candle, trade or shading colour. */
  lines: ["#ff9800", "#00e5ff", "#eceff1", "#bcaaa4", "#ffab91", "#80cbc4", "#b39ddb", "#90a4ae"]
};

// engine/plate/view.ts
import { createHash as createHash3 } from "node:crypto";
var MAX_PLATE_BARS = 2e3;
var MARK_REACH = 0.3;
var PRICE_PAD = 0.05;
function firstAtLeast(t, at) {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = lo + hi >> 1;
    if (t[mid] < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
function viewOf(input) {
  const all = input.bars;
  const start = firstAtLeast(all.t, input.from);
  const end2 = firstAtLeast(all.t, input.to);
  const bars = windowOf(all, start, end2);
  if (bars.length === 0) throw new PlateError("no_bars", "no bars in the window: there is nothing to draw");
  if (bars.length > MAX_PLATE_BARS) {
    throw new PlateError("too_many_bars", `${bars.length} bars in the window: a plate draws at most ${MAX_PLATE_BARS}`);
  }
  let low = Infinity;
  let high = -Infinity;
  let volumeMax = 0;
  for (let i = 0; i < bars.length; i++) {
    const o = bars.o[i];
    const h = bars.h[i];
    const l = bars.l[i];
    const c = bars.c[i];
    const v = bars.v[i];
    if (![o, h, l, c, v].every(Number.isFinite) || l > Math.min(o, c) || h < Math.max(o, c) || v < 0) {
      throw new PlateError("not_finite", `the bar at ${bars.t[i]} is not a drawable candle (o ${o}, h ${h}, l ${l}, c ${c}, v ${v})`);
    }
    if (l < low) low = l;
    if (h > high) high = h;
    if (v > volumeMax) volumeMax = v;
  }
  if (!(high > low)) throw new PlateError("flat", `every price in the window is ${low}: a flat series has no price axis to draw`);
  const anchor = vwapAnchor(input.market);
  const len = TIMEFRAME_SECONDS[input.tf];
  const day = dayStart2(anchor, input.from, len);
  const vwapWarmUp = () => ({
    bars: start - firstAtLeast(all.t, day),
    wanted: expectedBars(input.market, len, day, input.from).length,
    settled: !(input.unmeasured ?? []).some((u) => u.from < input.from && u.to > day)
  });
  const indicators = (input.indicators ?? []).map((spec) => {
    const wanted = warmUpBars(spec);
    const own = spec.kind === "vwap" ? 0 : Math.max(0, start - wanted);
    return {
      spec,
      pane: paneOf(spec),
      lines: indicatorLines(spec, windowOf(all, own, end2), anchor).map((l) => ({ name: l.name, values: l.values.subarray(start - own) })),
      warmUp: spec.kind === "vwap" ? vwapWarmUp() : { bars: start - own, wanted, settled: start - own >= wanted }
    };
  });
  let min = low;
  let max = high;
  for (const ind of indicators) {
    if (ind.pane !== "price") continue;
    for (const line of ind.lines) {
      for (const x of line.values) {
        if (x < min) min = x;
        if (x > max) max = x;
      }
    }
  }
  for (const m of input.marks ?? []) {
    const prices = m.kind === "zone" ? [m.price, m.price2] : [m.price];
    if (!prices.every((p) => p !== void 0 && Number.isFinite(p))) {
      throw new PlateError("not_finite", `a ${m.kind} mark needs finite prices (got ${prices.join(", ")})`);
    }
  }
  const reach = MARK_REACH * (high - low);
  const marks = (input.marks ?? []).map((m) => {
    const top = Math.max(m.price, m.price2 ?? m.price);
    const bottom = Math.min(m.price, m.price2 ?? m.price);
    if (bottom > max + reach) return { ...m, placed: "above" };
    if (top < min - reach) return { ...m, placed: "below" };
    return { ...m, placed: "in_view" };
  });
  for (const m of marks) {
    if (m.placed !== "in_view") continue;
    for (const p of m.kind === "zone" && m.price2 !== void 0 ? [m.price, m.price2] : [m.price]) {
      if (p < min && p >= min - reach) min = p;
      if (p > max && p <= max + reach) max = p;
    }
  }
  const pad = PRICE_PAD * (max - min);
  return {
    input,
    bars,
    decimals: input.decimals ?? 2,
    low,
    high,
    min: min - pad,
    max: max + pad,
    volumeMax,
    indicators,
    marks
  };
}
function lastOf(values) {
  for (let i = values.length - 1; i >= 0; i--) if (!Number.isNaN(values[i])) return values[i];
  return null;
}
var iso3 = (t) => new Date(t * 1e3).toISOString().replace(".000Z", "Z");
function digestOf(b) {
  const hash2 = createHash3("sha256");
  for (const column of [b.t, b.o, b.h, b.l, b.c, b.v]) {
    hash2.update(new Uint8Array(column.buffer, column.byteOffset, column.byteLength));
  }
  return `sha256:${hash2.digest("hex")}`;
}
function chartState(view, style, size) {
  const b = view.bars;
  const last = b.length - 1;
  return {
    style,
    market: view.input.market,
    tf: view.input.tf,
    from: iso3(view.input.from),
    to: iso3(view.input.to),
    size,
    bars: {
      count: b.length,
      first_t: b.t[0],
      last_t: b.t[last],
      digest: digestOf(b),
      last: { t: b.t[last], o: b.o[last], h: b.h[last], l: b.l[last], c: b.c[last], v: b.v[last] }
    },
    price: { low: view.low, high: view.high, decimals: view.decimals },
    volume: { max: view.volumeMax },
    indicators: view.indicators.map((i) => ({
      spec: i.spec.text,
      pane: i.pane,
      lines: i.lines.map((l) => ({ name: l.name, last: lastOf(l.values) })),
      warm_up: i.warmUp
    })),
    marks: view.marks.map((m) => ({ kind: m.kind, placed: m.placed }))
  };
}

// engine/plate/svg.ts
var yOf = (p, v) => p.y + (p.max - v) / (p.max - p.min) * p.h;
var px = (x) => (Math.round(x * 10) / 10).toString();
var ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
var esc = (s) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
var textWidth = (s, size) => [...s].length * THEME.advance * size;
function text(x, y, s, o = {}) {
  const anchor = o.anchor && o.anchor !== "start" ? ` text-anchor="${o.anchor}"` : "";
  const weight = o.weight ? ` font-weight="${o.weight}"` : "";
  return `<text x="${px(x)}" y="${px(y)}" font-size="${o.size ?? 11}" fill="${o.fill ?? THEME.muted}"${anchor}${weight}>${esc(s)}</text>`;
}
function note(x, y, s, fill) {
  return `<rect x="${px(x - 3)}" y="${px(y - 11)}" width="${px(textWidth(s, 11) + 6)}" height="15" rx="2" fill="${THEME.background}" fill-opacity="0.8"/>${text(x, y, s, { fill })}`;
}
function tag(x, y, label2, fill, ink) {
  const w = textWidth(label2, 11) + 10;
  return `<rect x="${px(x)}" y="${px(y - 9)}" width="${px(w)}" height="18" rx="2" fill="${fill}"/>${text(x + 5, y + 4, label2, { fill: ink })}`;
}
function polyline(values, xOf, pane) {
  let d = "";
  let pen = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) {
      pen = false;
      continue;
    }
    d += `${pen ? "L" : "M"}${px(xOf(i))} ${px(yOf(pane, v))}`;
    pen = true;
  }
  return d;
}
function band(upper, lower, xOf, pane) {
  let d = "";
  let i = 0;
  while (i < upper.length) {
    while (i < upper.length && (Number.isNaN(upper[i]) || Number.isNaN(lower[i]))) i++;
    const from = i;
    while (i < upper.length && !Number.isNaN(upper[i]) && !Number.isNaN(lower[i])) i++;
    if (i - from < 2) continue;
    for (let j = from; j < i; j++) d += `${j === from ? "M" : "L"}${px(xOf(j))} ${px(yOf(pane, upper[j]))}`;
    for (let j = i - 1; j >= from; j--) d += `L${px(xOf(j))} ${px(yOf(pane, lower[j]))}`;
    d += "Z";
  }
  return d;
}
var bodyWidth = (slot) => slot >= 3 ? Math.max(1, 2 * Math.floor((slot * 0.8 - 1) / 2) + 1) : slot >= 2 ? 2 : 1;
function candles(bars, price3, centre, body) {
  let up = "";
  let down = "";
  for (let i = 0; i < bars.length; i++) {
    const o = bars.o[i];
    const c = bars.c[i];
    const cx = centre(i);
    const hi = Math.round(yOf(price3, bars.h[i]));
    const lo = Math.round(yOf(price3, bars.l[i]));
    const top = Math.round(yOf(price3, Math.max(o, c)));
    const bot = Math.round(yOf(price3, Math.min(o, c)));
    const d = `M${cx} ${hi}h1v${Math.max(1, lo - hi)}h-1ZM${cx - Math.floor((body - 1) / 2)} ${top}h${body}v${Math.max(1, bot - top)}h${-body}Z`;
    if (c >= o) up += d;
    else down += d;
  }
  return `<path d="${up}" fill="${THEME.up}" shape-rendering="crispEdges"/><path d="${down}" fill="${THEME.down}" shape-rendering="crispEdges"/>`;
}
var label = (ind) => ind.spec.text.replace(/:/g, " ").toUpperCase();
var unsettled = ({ spec, warmUp }) => warmUp.settled ? "" : spec.kind === "vwap" ? "unsettled: day start not held" : `unsettled: ${warmUp.bars}/${warmUp.wanted} bars`;
function legend(x, y, ind, words2, fill) {
  const warning = unsettled(ind);
  const svg = text(x, y, words2, { fill }) + (warning ? text(x + textWidth(`${words2}  `, 11), y, warning, { fill: THEME.level }) : "");
  return { svg, width: textWidth(warning ? `${words2}  ${warning}` : words2, 11) };
}
function plateSvg(view) {
  const { bars, input } = view;
  const W = THEME.width;
  const H2 = THEME.height;
  const n = bars.length;
  const quote = (p) => formatNumber(p, view.decimals);
  const lowers = view.indicators.filter((i) => i.pane === "lower");
  const overlays = view.indicators.filter((i) => i.pane === "price");
  const colour = new Map(view.indicators.map((ind, k) => [ind, THEME.lines[k % THEME.lines.length]]));
  const x = LAYOUT.left;
  const w = W - LAYOUT.left - LAYOUT.axis;
  const bottom = H2 - LAYOUT.footer;
  const volume = { x, y: bottom - LAYOUT.volume, w, h: LAYOUT.volume, min: 0, max: 1.2 * view.volumeMax || 1 };
  const lowerPanes = lowers.map((ind, k) => {
    const y = volume.y - (lowers.length - k) * (LAYOUT.lower + LAYOUT.gap);
    const range = lowerRange(ind);
    return { x, y, w, h: LAYOUT.lower, ...range };
  });
  const priceBottom = (lowerPanes[0]?.y ?? volume.y) - LAYOUT.gap;
  const price3 = { x, y: LAYOUT.header, w, h: priceBottom - LAYOUT.header, min: view.min, max: view.max };
  const slot = w / n;
  const centre = (i) => Math.floor(x + (i + 0.5) * slot);
  const xOf = (i) => x + (i + 0.5) * slot;
  const body = bodyWidth(slot);
  const bodyLeft = (cx) => cx - Math.floor((body - 1) / 2);
  const out = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H2}" viewBox="0 0 ${W} ${H2}" font-family="${THEME.font}">`,
    `<rect width="${W}" height="${H2}" fill="${THEME.background}"/>`
  );
  const priceStep = niceStep(price3.max - price3.min, Math.max(4, Math.floor(price3.h / 40)));
  const priceTicks = ticksOf(price3.min, price3.max, priceStep);
  const tf = TIMEFRAME_SECONDS[input.tf];
  const step = timeStep(tf, slot, 96);
  const timeTicks = [];
  for (let i = 1; i < n; i++) if (Math.floor(bars.t[i] / step) !== Math.floor(bars.t[i - 1] / step)) timeTicks.push(i);
  let grid = "";
  for (const p of priceTicks) grid += `M${x} ${Math.round(yOf(price3, p)) + 0.5}h${w}`;
  for (const i of timeTicks) grid += `M${centre(i) + 0.5} ${price3.y}V${bottom}`;
  out.push(`<path d="${grid}" stroke="${THEME.grid}" stroke-width="1" fill="none"/>`);
  const panes = [price3, ...lowerPanes, volume];
  out.push(`<path d="${panes.map((p) => `M${x} ${p.y + p.h + 0.5}h${w}`).join("")}M${x + w + 0.5} ${price3.y}V${bottom}" stroke="${THEME.separator}" stroke-width="1" fill="none"/>`);
  const inPrice = (y) => Math.min(price3.y + price3.h, Math.max(price3.y, y));
  for (const z136 of view.marks) {
    if (z136.kind !== "zone" || z136.placed !== "in_view") continue;
    const top = yOf(price3, Math.max(z136.price, z136.price2));
    const low = yOf(price3, Math.min(z136.price, z136.price2));
    const edges = [top, low].filter((y) => y >= price3.y && y <= price3.y + price3.h).map((y) => `M${x} ${px(y)}h${w}`);
    out.push(`<rect x="${x}" y="${px(inPrice(top))}" width="${w}" height="${px(inPrice(low) - inPrice(top))}" fill="${THEME.zone}" fill-opacity="0.14"/>`);
    if (edges.length) out.push(`<path d="${edges.join("")}" stroke="${THEME.zone}" stroke-opacity="0.7" stroke-dasharray="6 4" fill="none"/>`);
  }
  let volUp = "";
  let volDown = "";
  for (let i = 0; i < n; i++) {
    const top = Math.round(yOf(volume, bars.v[i]));
    const h = Math.max(0, volume.y + volume.h - top);
    if (h === 0) continue;
    const d = `M${bodyLeft(centre(i))} ${top}h${body}v${h}h${-body}Z`;
    if (bars.c[i] >= bars.o[i]) volUp += d;
    else volDown += d;
  }
  out.push(`<path d="${volUp}" fill="${THEME.volumeUp}" shape-rendering="crispEdges"/><path d="${volDown}" fill="${THEME.volumeDown}" shape-rendering="crispEdges"/>`);
  for (const ind of overlays) {
    if (ind.spec.kind !== "bb") continue;
    const [upper, , lower] = ind.lines;
    out.push(`<path d="${band(upper.values, lower.values, xOf, price3)}" fill="${colour.get(ind)}" fill-opacity="0.07"/>`);
  }
  out.push(candles(bars, price3, centre, body));
  for (const ind of overlays) {
    const stroke = colour.get(ind);
    for (const line of ind.lines) {
      const middle = line.name.endsWith(".middle");
      const dash = middle || ind.spec.kind === "hi" || ind.spec.kind === "lo" ? ' stroke-dasharray="5 3"' : "";
      out.push(`<path d="${polyline(line.values, xOf, price3)}" stroke="${stroke}" stroke-width="${middle ? 1 : 1.5}" stroke-opacity="${middle ? 0.7 : 1}"${dash} fill="none" stroke-linejoin="round"/>`);
    }
  }
  const axisX = x + w + 1;
  for (const m of view.marks) {
    if (m.placed !== "in_view") continue;
    if (m.kind === "level") {
      const y = Math.round(yOf(price3, m.price)) + 0.5;
      out.push(`<path d="M${x} ${y}h${w}" stroke="${THEME.level}" stroke-width="1.2" stroke-dasharray="8 4" fill="none"/>`);
      out.push(note(x + 6, y - 5, "level", THEME.level));
    } else {
      const y = Math.max(price3.y + 12, yOf(price3, Math.max(m.price, m.price2)) + 13);
      out.push(note(x + 6, y, "zone", "#8fb0ff"));
    }
  }
  const lastClose = bars.c[n - 1];
  const lastCloseY = yOf(price3, lastClose);
  for (const p of priceTicks) {
    const y = yOf(price3, p);
    if (y < price3.y + 8 || y > price3.y + price3.h - 4 || Math.abs(lastCloseY - y) < 16) continue;
    out.push(text(axisX + 6, y + 4, formatNumber(p, decimalsOf(priceStep))));
  }
  const lastUp = lastClose >= bars.o[n - 1];
  const lastY = Math.round(yOf(price3, lastClose)) + 0.5;
  out.push(`<path d="M${x} ${lastY}h${w}" stroke="${lastUp ? THEME.up : THEME.down}" stroke-opacity="0.6" stroke-dasharray="2 3" fill="none"/>`);
  out.push(tag(axisX, lastY, quote(lastClose), lastUp ? THEME.up : THEME.down, "#ffffff"));
  lowers.forEach((ind, k) => {
    const pane = lowerPanes[k];
    const stroke = colour.get(ind);
    const line = ind.lines[0];
    if (ind.spec.kind === "rsi") {
      const y70 = Math.round(yOf(pane, 70)) + 0.5;
      const y30 = Math.round(yOf(pane, 30)) + 0.5;
      out.push(`<rect x="${x}" y="${y70}" width="${w}" height="${y30 - y70}" fill="${stroke}" fill-opacity="0.05"/>`);
      out.push(`<path d="M${x} ${y70}h${w}M${x} ${y30}h${w}" stroke="${THEME.muted}" stroke-opacity="0.5" stroke-dasharray="4 4" fill="none"/>`);
      out.push(text(axisX + 6, y70 + 4, "70"), text(axisX + 6, y30 + 4, "30"));
    } else {
      const s = niceStep(pane.max - pane.min, 3);
      for (const v of ticksOf(pane.min, pane.max, s)) {
        const y = yOf(pane, v);
        if (y > pane.y + 10 && y < pane.y + pane.h - 4) out.push(text(axisX + 6, y + 4, formatNumber(v, decimalsOf(s))));
      }
    }
    out.push(`<path d="${polyline(line.values, xOf, pane)}" stroke="${stroke}" stroke-width="1.3" fill="none" stroke-linejoin="round"/>`);
    const last2 = lastOf(line.values);
    out.push(legend(x + 6, pane.y + 14, ind, `${label(ind)}  ${last2 === null ? "warming up" : formatNumber(last2, 2)}`, stroke).svg);
  });
  out.push(text(x + 6, volume.y + 14, `VOL  ${formatVolume(bars.v[n - 1])}`, { fill: THEME.muted }));
  out.push(text(axisX + 6, yOf(volume, view.volumeMax) + 4, formatVolume(view.volumeMax)));
  let lastRight = -Infinity;
  let datedDay = -1;
  for (const i of timeTicks) {
    const day = Math.floor(bars.t[i] / 86400);
    const s = utcTick(bars.t[i], step, day !== datedDay);
    const half = textWidth(s, 11) / 2;
    const cx = centre(i);
    if (cx - half < lastRight + 12 || cx - half < x || cx + half > x + w) continue;
    out.push(text(cx, bottom + 17, s, { anchor: "middle", fill: day !== datedDay ? THEME.text : THEME.muted }));
    lastRight = cx + half;
    datedDay = day;
  }
  out.push(text(W - 8, bottom + 17, "UTC", { anchor: "end" }));
  const title = `${input.market} \xB7 ${input.tf}`;
  out.push(text(x + 2, 22, title, { size: 16, fill: THEME.text, weight: "bold" }));
  const span = `${utcMinute(input.from)} \u2192 ${utcMinute(input.to)} UTC \xB7 ${n} bars`;
  out.push(text(x + 2 + textWidth(title, 16) + 14, 22, span, { size: 12 }));
  const last = n - 1;
  const ohlc = `O ${quote(bars.o[last])}  H ${quote(bars.h[last])}  L ${quote(bars.l[last])}  C ${quote(bars.c[last])}`;
  out.push(text(W - 10, 22, ohlc, { size: 12, fill: lastUp ? THEME.up : THEME.down, anchor: "end" }));
  let lx = x + 2;
  for (const ind of overlays) {
    const stroke = colour.get(ind);
    const value = lastOf(ind.lines[ind.spec.kind === "bb" ? 1 : 0].values);
    const entry = legend(lx + 20, 46, ind, `${label(ind)}  ${value === null ? "warming up" : quote(value)}`, stroke);
    out.push(`<path d="M${lx} 42.5h14" stroke="${stroke}" stroke-width="2"/>`, entry.svg);
    lx += 20 + entry.width + 22;
  }
  const away = view.marks.filter((m) => m.placed !== "in_view").map((m) => `${m.placed === "above" ? "\u25B2" : "\u25BC"} ${m.kind}`);
  if (away.length) out.push(text(W - 10, 46, away.join("   "), { fill: THEME.level, anchor: "end" }));
  out.push("</svg>");
  return out.join("\n");
}
function lowerRange(ind) {
  if (ind.spec.kind === "rsi") return { min: 0, max: 100 };
  let min = Infinity;
  let max = -Infinity;
  for (const v of ind.lines[0].values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!(max > min)) return Number.isFinite(max) ? { min: max * 0.9, max: max * 1.1 || 1 } : { min: 0, max: 1 };
  const pad = 0.1 * (max - min);
  return { min: min - pad, max: max + pad };
}

// engine/plate/plate.ts
var PLATE_STYLE = "plate/2 dark 1200x700 resvg-js 2.6 DejaVu Sans Mono 2.37";
function renderPlate(input) {
  const view = viewOf(input);
  return { png: rasterize(plateSvg(view)), chart_state: chartState(view, PLATE_STYLE, { width: THEME.width, height: THEME.height }) };
}

// engine/plate/rule-lines.ts
var two2 = (n) => String(n).padStart(2, "0");
var clock = (m) => `${two2(Math.floor(m / 60))}:${two2(m % 60)}`;
function named(s) {
  switch (s.kind) {
    case "ema":
    case "sma":
    case "rsi":
    case "atr":
      return { key: s.id, label: `${s.kind.toUpperCase()}(${s.params.n})` };
    case "vwap":
      return { key: s.id, label: "VWAP" };
    case "highest":
      return { key: s.id, label: `highest high of ${s.params.n} bars before` };
    case "lowest":
      return { key: s.id, label: `lowest low of ${s.params.n} bars before` };
    case "prior_day":
      return { key: s.id, label: `prior day ${s.params.field}` };
    case "opening_range":
      return { key: `opening_range_${s.params.minutes}`, label: `${s.params.minutes}-minute opening range from ${clock(s.params.open)} ${s.params.zone}` };
    case "swing":
      return { key: s.id, label: `swing ${s.params.field} (${s.params.strength} bars each side)` };
    case "bollinger":
      return { key: `bollinger_${s.params.n}_${s.params.k}`, label: `Bollinger(${s.params.n}, ${formatNumber(s.params.k, s.params.k % 1 === 0 ? 0 : 1)})` };
    case "session_gate":
    case "session_end":
    case "next_clock":
      return null;
  }
}
var conditionSeries = (ir) => condSeries(ir.exit_when, condSeries(ir.entry.long, condSeries(ir.entry.short)));
function ruleLinesOf(ir) {
  const compared = conditionSeries(ir);
  const lines = /* @__PURE__ */ new Map();
  for (const s of ir.series) {
    const name = named(s);
    if (!name) continue;
    if (s.kind === "atr" && !compared.has(s.id)) continue;
    const pane = s.kind === "rsi" ? "rsi" : s.kind === "atr" ? "atr" : "price";
    const line = lines.get(name.key);
    if (line) line.ids.push(s.id);
    else lines.set(name.key, { label: name.label, pane, ids: [s.id] });
  }
  const key = (l) => l.label.replace(/\d+/g, (d) => d.padStart(6, "0"));
  return [...lines.values()].sort((a, b) => key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}
function paneOf2(o, kinds) {
  if (o.kind !== "point") return o.kind === "zone" ? "price" : null;
  const v = o.at;
  if (v.src === "constant") return "constant";
  if (v.src !== "series") return "price";
  const kind = kinds.get(v.id);
  return kind === "rsi" ? "rsi" : kind === "atr" ? "atr" : "price";
}
function thresholdsOf(ir) {
  const kinds = new Map(ir.series.map((s) => [s.id, s.kind]));
  const out = /* @__PURE__ */ new Map();
  const visit = (c) => {
    if (c === null) return;
    if ("args" in c) return c.args.forEach(visit);
    if ("level" in c) {
      if (c.level.kind === "point" && c.level.at.src === "constant") out.set(`price ${c.level.at.value}`, { pane: "price", value: c.level.at.value });
      return;
    }
    const [a, b] = [paneOf2(c.left, kinds), paneOf2(c.right, kinds)];
    const pair = [
      [a, c.right],
      [b, c.left]
    ];
    for (const [pane, other] of pair) {
      if (pane === null || pane === "constant" || other.kind !== "point" || other.at.src !== "constant") continue;
      out.set(`${pane} ${other.at.value}`, { pane, value: other.at.value });
    }
  };
  visit(ir.entry.long);
  visit(ir.entry.short);
  visit(ir.exit_when);
  return [...out.values()].sort((x, y) => x.pane < y.pane ? -1 : x.pane > y.pane ? 1 : x.value - y.value);
}
function distanceWords(d) {
  switch (d.unit) {
    case "price":
      return `${formatNumber(d.value, d.value % 1 === 0 ? 0 : 2)} points`;
    case "fraction":
      return `${formatNumber(d.value * 100, 2).replace(/\.?0+$/, "")}%`;
    case "atr":
      return `${d.mult} x ATR(${d.series.replace("atr_", "")})`;
    case "range":
      return `${d.mult} x the opening range`;
    case "r":
      return `${d.value}R`;
  }
}
function levelWords(o, ir) {
  if (o.kind === "mark") return "a mark";
  const id = o.kind === "zone" ? o.lo.src === "series" ? o.lo.id : null : o.at.src === "series" ? o.at.id : null;
  const spec = id ? ir.series.find((s) => s.id === id) : void 0;
  if (spec) return named(spec)?.label ?? spec.id;
  if (o.kind === "point" && o.at.src === "constant") return String(o.at.value);
  if (o.kind === "point" && (o.at.src === "signal_bar" || o.at.src === "previous_bar")) return `the ${o.at.src === "signal_bar" ? "signal" : "previous"} bar's ${o.at.field === "h" ? "high" : "low"}`;
  return "a level";
}
function otherExits(ir) {
  const clockOf = (id) => {
    const spec = ir.series.find((x) => x.id === id);
    return spec?.kind === "next_clock" ? `${clock(spec.params.minute)} ${spec.params.zone}` : "session end";
  };
  const out = [];
  if (ir.trail) out.push(ir.trail.kind === "distance" ? `trail ${distanceWords(ir.trail.distance)}` : `trail at ${levelWords(ir.trail.level, ir)}`);
  if (ir.breakeven) out.push(`breakeven at ${distanceWords(ir.breakeven)}`);
  if (ir.exit_when) out.push("exit rule");
  for (const t of ir.time) {
    if (t.kind === "bars") out.push(`out after ${t.n} bars`);
    if (t.kind === "seconds") out.push(`out after ${t.n / 60} minutes`);
    if (t.kind === "clock" || t.kind === "session_close") out.push(`out at ${clockOf(t.series)}`);
  }
  if (ir.flat_at_session_end) out.push("flat at window end");
  return out;
}
function exitWords(ir) {
  const s = ir.stop;
  const stop = s.kind === "distance" ? `stop ${distanceWords(s.distance)}` : `stop ${s.where === "at" ? "at" : s.where} ${levelWords(s.level, ir)}`;
  const t = ir.target;
  const target = t === null ? null : t.kind === "distance" ? `target ${distanceWords(t.distance)}` : `target at ${levelWords(t.level, ir)}`;
  return { stop, target, others: otherExits(ir) };
}

// engine/plate/rehearsal.ts
var REHEARSAL_PLATE_STYLE = "rehearsal-plate/4 dark 1200x700 resvg-js 2.6 DejaVu Sans Mono 2.37";
var MIN_SLOT = 2;
var PAD = 0.05;
var LAYOUT2 = { left: 10, axis: 88, gap: 26, lower: 64, lowerGap: 8, footer: 26 };
var tipUp = (x, y) => `M${px(x)} ${px(y)}l-5 9h10Z`;
var tipDown = (x, y) => `M${px(x)} ${px(y)}l-5 -9h10Z`;
var ring = (x, y) => `M${px(x - 4)} ${px(y)}a4 4 0 1 0 8 0a4 4 0 1 0 -8 0Z`;
var ringStyle = 'fill="none" stroke-width="1.6"';
var counted = (n, noun) => `${formatNumber(n, 0)} ${noun}${n === 1 ? "" : "s"}`;
var inR = (r) => `${r > 0 ? "+" : ""}${formatNumber(r, 2)}R`;
function verdictLine(v) {
  const d = v.deflated_sharpe;
  const h = v.neighbourhood;
  const parts = [`VERDICT  ${v.label.replace("_", " ")}`];
  if (d.dsr !== null) parts.push(`DSR ${formatNumber(d.dsr, 2)} (${d.trials.n} trial${d.trials.n === 1 ? "" : "s"})`);
  if (h.pbo) parts.push(`PBO ${formatNumber(h.pbo.pbo, 2)}`);
  if (v.search) parts.push(`SPA p ${formatNumber(v.search.p, 2)}`);
  parts.push(`${h.positive}/${h.rules} neighbours > 0`);
  const be = v.costs.break_even;
  parts.push(be ? `break-even ${formatNumber(be.r, 2)}R a trade` : "no edge before costs");
  const la = v.bias.look_ahead;
  parts.push(la.changed + la.series_changed > 0 ? "LOOK-AHEAD" : "no look-ahead");
  return parts.join("  \xB7  ");
}
function columnsOf(b, per) {
  const n = Math.ceil(b.length / per);
  const out = { length: n, t: new Float64Array(n), o: new Float64Array(n), h: new Float64Array(n), l: new Float64Array(n), c: new Float64Array(n), v: new Float64Array(n) };
  for (let k = 0; k < n; k++) {
    const first = k * per;
    const last = Math.min(b.length, first + per) - 1;
    let h = -Infinity;
    let l = Infinity;
    let v = 0;
    for (let i = first; i <= last; i++) {
      h = Math.max(h, b.h[i]);
      l = Math.min(l, b.l[i]);
      v += b.v[i];
    }
    out.t[k] = b.t[first];
    out.o[k] = b.o[first];
    out.h[k] = h;
    out.l[k] = l;
    out.c[k] = b.c[last];
    out.v[k] = v;
  }
  return out;
}
function axisTicks(pane, x, most, unit = "") {
  const step = niceStep(pane.max - pane.min, most);
  return ticksOf(pane.min, pane.max, step).filter((v) => yOf(pane, v) > pane.y + 8 && yOf(pane, v) < pane.y + pane.h - 4).map((v) => text(x, yOf(pane, v) + 4, `${formatNumber(v, decimalsOf(step))}${unit}`));
}
function wrapped(words2, chars) {
  const lines = [];
  let line = "";
  for (const word of words2.split(" ")) {
    if (line && line.length + 1 + word.length > chars) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
function rangeOf(values, indices) {
  let low = Infinity;
  let high = -Infinity;
  for (const i of indices) {
    const v = values[i];
    if (v < low) low = v;
    if (v > high) high = v;
  }
  return high >= low ? { low, high } : null;
}
function runsOf2(codes) {
  const runs = [];
  for (let k = 0; k < codes.length; ) {
    let j = k;
    while (j < codes.length && codes[j] === codes[k]) j++;
    runs.push([k, j, codes[k]]);
    k = j;
  }
  return runs;
}
function renderRehearsalPlate(input) {
  const { svg, state } = rehearsalSvg(input);
  return { png: rasterize(svg), state };
}
function rehearsalSvg(input) {
  const { rehearsal: r, ir } = input;
  const from = firstAtOrAfter(input.bars.t, r.window.from);
  if (r.window.bars === 0 || from + r.window.bars > input.bars.length || input.bars.t[from] !== r.window.from) {
    throw new PlateError("no_bars", "no bars in the rehearsal's window: there is nothing to draw");
  }
  const read = rehearsedSeries(ir, input.bars, r.window);
  const drawn2 = windowOf(read.bars, read.start, read.end);
  const W = THEME.width;
  const H2 = THEME.height;
  const x = LAYOUT2.left;
  const w = W - LAYOUT2.left - LAYOUT2.axis;
  const axisX = x + w + 7;
  const per = Math.ceil(drawn2.length / Math.floor(w / MIN_SLOT));
  const cols = columnsOf(drawn2, per);
  const n = cols.length;
  const slot = w / n;
  const centre = (k) => Math.floor(x + (k + 0.5) * slot);
  const columnAt = (t) => {
    const i = firstAtOrAfter(drawn2.t, t);
    const bar = i < drawn2.length && drawn2.t[i] === t ? i : Math.max(0, i - 1);
    return Math.floor(bar / per);
  };
  const lastBar = (k) => read.start + Math.min(drawn2.length, (k + 1) * per) - 1;
  const columnValues = (values) => Float64Array.from({ length: n }, (_, k) => values[lastBar(k)]);
  const lines = ruleLinesOf(ir);
  const thresholds = thresholdsOf(ir);
  const exits = exitWords(ir);
  const colour = new Map(lines.map((l, k) => [l, REHEARSAL_COLOURS.lines[k % REHEARSAL_COLOURS.lines.length]]));
  const idle = idleOf(ir, read.series, read.start, read.end);
  const decided = [...idle.keys()].filter((i) => idle[i] === IDLE.DECIDES).map((i) => read.start + i);
  const shade = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    let code = IDLE.SESSION;
    for (let i = k * per; i < Math.min(drawn2.length, (k + 1) * per); i++) {
      if (idle[i] === IDLE.DECIDES) {
        code = IDLE.DECIDES;
        break;
      }
      if (idle[i] === IDLE.WARM_UP) code = IDLE.WARM_UP;
    }
    shade[k] = code;
  }
  let low = Infinity;
  let high = -Infinity;
  for (let k = 0; k < n; k++) {
    low = Math.min(low, cols.l[k]);
    high = Math.max(high, cols.h[k]);
  }
  for (const t of r.trades) {
    low = Math.min(low, t.entry, t.exit, t.stop, t.target ?? t.entry);
    high = Math.max(high, t.entry, t.exit, t.stop, t.target ?? t.entry);
  }
  const drawnValues = /* @__PURE__ */ new Map();
  for (const line2 of lines) {
    for (const id of line2.ids) {
      const values = columnValues(read.series[id]);
      drawnValues.set(id, values);
      if (line2.pane !== "price") continue;
      const range = rangeOf(values, values.keys());
      if (range) [low, high] = [Math.min(low, range.low), Math.max(high, range.high)];
    }
  }
  if (!(high > low)) throw new PlateError("flat", `every price in the window is ${low}: a flat series has no price axis to draw`);
  const swatch = (fill, y) => `<rect x="${x + 2}" y="${y - 10}" width="13" height="11" fill="${fill}" stroke="${THEME.separator}"/>`;
  const dash = (stroke, y) => `<path d="M${x + 1} ${y - 4}h15" stroke="${stroke}" stroke-width="2" fill="none"/>`;
  const sessionSaid = sessionWords(ir);
  const legend2 = [
    { fill: REHEARSAL_COLOURS.long, words: "long entry", mark: (y) => `<path d="${tipUp(x + 8, y - 9)}" fill="${REHEARSAL_COLOURS.long}"/>` },
    { fill: REHEARSAL_COLOURS.short, words: "short entry", mark: (y) => `<path d="${tipDown(x + 8, y)}" fill="${REHEARSAL_COLOURS.short}"/>` },
    { fill: REHEARSAL_COLOURS.win, words: "exit, won", mark: (y) => `<path d="${ring(x + 8, y - 4)}" stroke="${REHEARSAL_COLOURS.win}" ${ringStyle}/>` },
    { fill: REHEARSAL_COLOURS.loss, words: "exit, lost", mark: (y) => `<path d="${ring(x + 8, y - 4)}" stroke="${REHEARSAL_COLOURS.loss}" ${ringStyle}/>` },
    { fill: REHEARSAL_COLOURS.stop, words: exits.stop, mark: (y) => dash(REHEARSAL_COLOURS.stop, y) },
    ...exits.target ? [{ fill: REHEARSAL_COLOURS.target, words: exits.target, mark: (y) => dash(REHEARSAL_COLOURS.target, y) }] : [],
    ...exits.others.map((words2) => ({ fill: THEME.muted, words: words2, mark: null })),
    ...sessionSaid !== "always" ? [{ fill: THEME.text, words: `outside session ${sessionSaid}`, mark: (y) => swatch(REHEARSAL_COLOURS.session, y) }] : [],
    ...shade.includes(IDLE.WARM_UP) ? [{ fill: THEME.text, words: "warming up", mark: (y) => swatch(REHEARSAL_COLOURS.warmUp, y) }] : [],
    ...lines.map((l) => ({ fill: colour.get(l), words: l.pane === "price" ? l.label : `${l.label} (pane below)`, mark: (y) => dash(colour.get(l), y) })),
    ...lines.length === 0 ? [{ fill: THEME.muted, words: "the rule reads the price alone", mark: null }] : []
  ];
  const placed = [];
  let lx = 0;
  let ly = 46;
  for (const item of legend2) {
    const width = (item.mark ? 20 : 2) + textWidth(item.words, 11);
    if (lx > 0 && x + lx + width > W - 10) [lx, ly] = [0, ly + 18];
    placed.push({ at: lx, ly, item });
    lx += width + 20;
  }
  const header = ly + 18 + 10;
  const lowerKinds = ["rsi", "atr"].filter((p) => lines.some((l) => l.pane === p));
  const equityH = lowerKinds.length > 0 ? 96 : 118;
  const nullH = lowerKinds.length > 0 ? 128 : 146;
  const priceH = H2 - header - LAYOUT2.footer - 2 * LAYOUT2.gap - equityH - nullH - lowerKinds.length * (LAYOUT2.lower + LAYOUT2.lowerGap);
  const pricePad = PAD * (high - low);
  const price3 = { x, y: header, w, h: priceH, min: low - pricePad, max: high + pricePad };
  const lowers = lowerKinds.map((kind, j) => {
    const ids = lines.filter((l) => l.pane === kind).flatMap((l) => l.ids);
    let range = { low: Infinity, high: -Infinity };
    for (const id of ids) {
      const got = rangeOf(drawnValues.get(id), drawnValues.get(id).keys());
      if (got) range = { low: Math.min(range.low, got.low), high: Math.max(range.high, got.high) };
    }
    for (const t of thresholds) if (t.pane === kind) range = { low: Math.min(range.low, t.value), high: Math.max(range.high, t.value) };
    const span2 = range.high > range.low ? range.high - range.low : 1;
    const pane = kind === "rsi" ? { x, y: 0, w, h: LAYOUT2.lower, min: 0, max: 100 } : { x, y: 0, w, h: LAYOUT2.lower, min: (Number.isFinite(range.low) ? range.low : 0) - PAD * span2, max: (Number.isFinite(range.high) ? range.high : 1) + PAD * span2 };
    pane.y = price3.y + price3.h + LAYOUT2.lowerGap + j * (LAYOUT2.lower + LAYOUT2.lowerGap);
    return { kind, pane, lines: lines.filter((l) => l.pane === kind) };
  });
  const above = lowers.at(-1)?.pane ?? price3;
  let equityNow = 0;
  let equityLow = 0;
  let equityHigh = 0;
  const steps = r.trades.map((t) => {
    equityNow += t.r;
    equityLow = Math.min(equityLow, equityNow);
    equityHigh = Math.max(equityHigh, equityNow);
    return { at: centre(columnAt(t.exit_t)), r: equityNow };
  });
  const equitySpan = equityHigh - equityLow || 20;
  const equityTop = above.y + above.h + LAYOUT2.gap;
  const equity = { x, y: equityTop, w, h: equityH, min: equityLow - PAD * equitySpan, max: equityHigh + PAD * equitySpan };
  const nullTop = equity.y + equity.h + LAYOUT2.gap;
  const nullPane = { x, y: nullTop, w, h: H2 - LAYOUT2.footer - nullTop, min: 0, max: 1 };
  const timePanes = [price3, ...lowers.map((l) => l.pane), equity];
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H2}" viewBox="0 0 ${W} ${H2}" font-family="${THEME.font}">`,
    `<rect width="${W}" height="${H2}" fill="${THEME.background}"/>`
  ];
  const shaded = { warm_up: 0, session: 0 };
  const fills = { [IDLE.WARM_UP]: "", [IDLE.SESSION]: "" };
  for (const [a, b, code] of runsOf2(shade)) {
    if (code === IDLE.DECIDES) continue;
    if (code === IDLE.WARM_UP) shaded.warm_up += b - a;
    else shaded.session += b - a;
    const left = Math.round(x + a * slot);
    const right = Math.round(x + b * slot);
    for (const p of [price3, ...lowers.map((l) => l.pane)]) fills[code] += `M${left} ${p.y}h${right - left}v${p.h}h${left - right}Z`;
  }
  if (fills[IDLE.SESSION]) out.push(`<path d="${fills[IDLE.SESSION]}" fill="${REHEARSAL_COLOURS.session}" shape-rendering="crispEdges"/>`);
  if (fills[IDLE.WARM_UP]) out.push(`<path d="${fills[IDLE.WARM_UP]}" fill="${REHEARSAL_COLOURS.warmUp}" shape-rendering="crispEdges"/>`);
  const priceStep = niceStep(price3.max - price3.min, Math.max(4, Math.floor(price3.h / 40)));
  const timeEvery = timeStep(TIMEFRAME_SECONDS[r.timeframe] * per, slot, 96);
  const timeTicks = [];
  for (let k = 1; k < n; k++) if (Math.floor(cols.t[k] / timeEvery) !== Math.floor(cols.t[k - 1] / timeEvery)) timeTicks.push(k);
  let grid = "";
  for (const p of ticksOf(price3.min, price3.max, priceStep)) grid += `M${x} ${Math.round(yOf(price3, p)) + 0.5}h${w}`;
  for (const k of timeTicks) for (const p of timePanes) grid += `M${centre(k) + 0.5} ${p.y}V${p.y + p.h}`;
  out.push(`<path d="${grid}" stroke="${THEME.grid}" stroke-width="1" fill="none"/>`);
  const edges = [...timePanes, nullPane].map((p) => `M${x} ${p.y + p.h + 0.5}h${w}M${x + w + 0.5} ${p.y}V${p.y + p.h}`).join("");
  out.push(`<path d="${edges}" stroke="${THEME.separator}" stroke-width="1" fill="none"/>`);
  out.push(candles(cols, price3, centre, bodyWidth(slot)));
  const lineSvg = (line2, pane) => line2.ids.map((id) => {
    const dash2 = id.endsWith("_middle") ? ' stroke-dasharray="5 4"' : "";
    return `<path d="${polyline(drawnValues.get(id), centre, pane)}" stroke="${colour.get(line2)}" stroke-width="1.4" fill="none" stroke-linejoin="round"${dash2}/>`;
  }).join("");
  for (const line2 of lines) if (line2.pane === "price") out.push(lineSvg(line2, price3));
  const thresholdSvg = (t, pane) => {
    const y = Math.round(yOf(pane, t.value)) + 0.5;
    if (y < pane.y || y > pane.y + pane.h) {
      const said2 = `${t.value} ${y < pane.y ? "above" : "below"}`;
      return note(x + w - 6 - textWidth(said2, 11), y < pane.y ? pane.y + 14 : pane.y + pane.h - 4, said2, REHEARSAL_COLOURS.threshold);
    }
    return `<path d="M${x} ${y}h${w}" stroke="${REHEARSAL_COLOURS.threshold}" stroke-width="1" stroke-dasharray="2 3" fill="none"/>${note(x + w - 6 - textWidth(String(t.value), 11), y - 3, String(t.value), REHEARSAL_COLOURS.threshold)}`;
  };
  for (const t of thresholds) if (t.pane === "price") out.push(thresholdSvg(t, price3));
  for (const lower of lowers) {
    const { pane } = lower;
    for (const t of thresholds) if (t.pane === lower.kind) out.push(thresholdSvg(t, pane));
    for (const line2 of lower.lines) out.push(lineSvg(line2, pane));
    out.push(...axisTicks(pane, axisX, 3));
    const said2 = lower.lines.map((line2) => {
      const range = rangeOf(read.series[line2.ids[0]], decided);
      return range ? `${line2.label} ${formatNumber(range.low, 1)} to ${formatNumber(range.high, 1)} where the rule could decide` : `${line2.label} no value where the rule could decide`;
    }).join("  \xB7  ");
    out.push(note(x + 6, pane.y + 14, said2, colour.get(lower.lines[0])));
  }
  const levels = { stop: "", target: "" };
  const counts = { stops: 0, targets: 0 };
  const segments = { win: "", loss: "" };
  const entries = { long: "", short: "" };
  const exitRings = { win: "", loss: "" };
  for (const t of r.trades) {
    const ex = centre(columnAt(t.entry_t)) + 0.5;
    const ey = yOf(price3, t.entry);
    const xx = centre(columnAt(t.exit_t)) + 0.5;
    const xy = yOf(price3, t.exit);
    const [l0, l1] = [Math.min(ex, xx - 3) - 3, Math.max(xx, ex + 3) + 3];
    levels.stop += `M${px(l0)} ${Math.round(yOf(price3, t.stop))}H${px(l1)}`;
    counts.stops++;
    if (t.target !== null) {
      levels.target += `M${px(l0)} ${Math.round(yOf(price3, t.target))}H${px(l1)}`;
      counts.targets++;
    }
    const outcome = t.r > 0 ? "win" : "loss";
    segments[outcome] += `M${px(ex)} ${px(ey)}L${px(xx)} ${px(xy)}`;
    entries[t.side] += t.side === "long" ? tipUp(ex, ey) : tipDown(ex, ey);
    exitRings[outcome] += ring(xx, xy);
  }
  out.push(
    `<path d="${levels.stop}" stroke="${REHEARSAL_COLOURS.stop}" stroke-width="2" fill="none" shape-rendering="crispEdges"/>`,
    `<path d="${levels.target}" stroke="${REHEARSAL_COLOURS.target}" stroke-width="2" fill="none" shape-rendering="crispEdges"/>`,
    `<path d="${segments.win}" stroke="${REHEARSAL_COLOURS.win}" stroke-width="1.3" stroke-opacity="0.85" fill="none"/>`,
    `<path d="${segments.loss}" stroke="${REHEARSAL_COLOURS.loss}" stroke-width="1.3" stroke-opacity="0.85" fill="none"/>`,
    `<path d="${entries.long}" fill="${REHEARSAL_COLOURS.long}"/>`,
    `<path d="${entries.short}" fill="${REHEARSAL_COLOURS.short}"/>`,
    `<path d="${exitRings.win}" stroke="${REHEARSAL_COLOURS.win}" ${ringStyle}/>`,
    `<path d="${exitRings.loss}" stroke="${REHEARSAL_COLOURS.loss}" ${ringStyle}/>`
  );
  out.push(...axisTicks(price3, axisX, Math.max(4, Math.floor(price3.h / 40))));
  const zero2 = Math.round(yOf(equity, 0)) + 0.5;
  let line = `M${x} ${zero2}`;
  for (const s2 of steps) line += `H${s2.at}V${px(yOf(equity, s2.r))}`;
  line += `H${x + w}`;
  out.push(`<path d="${line}V${zero2}H${x}Z" fill="${REHEARSAL_COLOURS.equity}" fill-opacity="0.08"/>`);
  out.push(`<path d="M${x} ${zero2}h${w}" stroke="${THEME.muted}" stroke-opacity="0.6" stroke-dasharray="4 4" fill="none"/>`);
  out.push(`<path d="${line}" stroke="${REHEARSAL_COLOURS.equity}" stroke-width="1.6" fill="none" stroke-linejoin="round"/>`);
  out.push(...axisTicks(equity, axisX, 4, "R"));
  out.push(text(x + 2, equity.y - 8, `EQUITY IN R  ${inR(r.stats.total_r)}  \xB7  max drawdown ${formatNumber(r.stats.max_drawdown_r, 2)}R`, { fill: REHEARSAL_COLOURS.equity }));
  let lastRight = -Infinity;
  let datedDay = -1;
  for (const k of timeTicks) {
    const at = Math.floor(cols.t[k] / timeEvery) * timeEvery;
    const day = Math.floor(at / 86400);
    const s2 = utcTick(at, timeEvery, day !== datedDay);
    const half = textWidth(s2, 11) / 2;
    const cx = centre(k);
    if (cx - half < lastRight + 12 || cx - half < x || cx + half > x + w) continue;
    out.push(text(cx, equity.y + equity.h + 17, s2, { anchor: "middle", fill: day !== datedDay ? THEME.text : THEME.muted }));
    lastRight = cx + half;
    datedDay = day;
  }
  out.push(text(W - 8, equity.y + equity.h + 17, "UTC", { anchor: "end" }));
  let nullState = null;
  const rule = r.null.rule_total_r;
  const neighbours = neighboursOf(r.verdict);
  const verdictSaid = r.verdict ? verdictLine(r.verdict) : null;
  if (verdictSaid) out.push(text(x + 6, nullPane.y + 30, verdictSaid, { fill: REHEARSAL_COLOURS.neighbour }));
  const bins = r.null.histogram;
  if (bins) {
    const { from: from2, width, counts: counts2 } = bins;
    const most = Math.max(...counts2);
    const xR = (v) => x + (v - from2) / (width * NULL_BINS) * w;
    const barTop = nullPane.y + (verdictSaid ? 38 : 22);
    const barH = nullPane.h - (verdictSaid ? 40 : 24);
    let below = "";
    let atLeast = "";
    counts2.forEach((count2, b) => {
      if (count2 === 0) return;
      const h = Math.max(1, Math.round(count2 / most * barH));
      const left = Math.round(xR(from2 + b * width)) + 1;
      const right = Math.round(xR(from2 + (b + 1) * width));
      const d = `M${left} ${nullPane.y + nullPane.h - h}h${Math.max(1, right - left)}v${h}h${-Math.max(1, right - left)}Z`;
      if (from2 + (b + 0.5) * width >= rule) atLeast += d;
      else below += d;
    });
    out.push(`<path d="${below}" fill="${REHEARSAL_COLOURS.below}" shape-rendering="crispEdges"/><path d="${atLeast}" fill="${REHEARSAL_COLOURS.atLeast}" shape-rendering="crispEdges"/>`);
    let ticks = "";
    for (const v of neighbours) ticks += `M${Math.round(xR(v)) + 0.5} ${nullPane.y + nullPane.h - 10}v10`;
    if (ticks) out.push(`<path d="${ticks}" stroke="${REHEARSAL_COLOURS.neighbour}" stroke-width="1" stroke-opacity="0.9" fill="none"/>`);
    const ruleX = Math.round(xR(rule)) + 0.5;
    out.push(`<path d="M${ruleX} ${barTop}V${nullPane.y + nullPane.h}" stroke="${REHEARSAL_COLOURS.rule}" stroke-width="2" fill="none"/>`);
    const said2 = `rule ${inR(rule)}`;
    const onLeft = ruleX + 8 + textWidth(said2, 11) > x + w;
    out.push(note(onLeft ? ruleX - 8 - textWidth(said2, 11) : ruleX + 8, barTop + 10, said2, REHEARSAL_COLOURS.rule));
    const step = niceStep(width * NULL_BINS, 8);
    for (const v of ticksOf(from2, from2 + width * NULL_BINS, step)) {
      const s2 = `${formatNumber(v, decimalsOf(step))}R`;
      const cx = xR(v);
      if (cx - textWidth(s2, 11) / 2 < x || cx + textWidth(s2, 11) / 2 > x + w) continue;
      out.push(text(cx, nullPane.y + nullPane.h + 17, s2, { anchor: "middle" }));
    }
    nullState = { runs: r.null.runs, rule_total_r: rule, k: r.null.k, percentile: r.null.percentile, p: r.null.p, bins: { from: from2, width, counts: counts2 } };
    out.push(text(x + 6, nullPane.y + 14, `RANDOM NULL  total R of ${formatNumber(r.null.runs, 0)} runs of random entries, the rule's stops and exits`, { fill: THEME.text }));
    out.push(text(x + w - 6, nullPane.y + 14, `rule beats ${r.null.percentile}% of them  \xB7  p ${r.null.p}`, { fill: REHEARSAL_COLOURS.rule, anchor: "end" }));
  } else {
    out.push(text(x + 6, nullPane.y + 14, "RANDOM NULL  no trades, so no random entries to weigh them against", { fill: THEME.muted }));
    const stayed = lowers.flatMap(({ kind, lines: own }) => {
      const compared = thresholds.filter((t) => t.pane === kind).map((t) => formatNumber(t.value, decimalsOf(t.value % 1 === 0 ? 1 : 0.01)));
      if (compared.length === 0) return [];
      return own.map((l) => {
        const range = rangeOf(read.series[l.ids[0]], decided);
        const where = range ? `stayed between ${formatNumber(range.low, 1)} and ${formatNumber(range.high, 1)}` : "had no value";
        return ` ${l.label} ${where} on the bars the rule could decide on; the rule compares it with ${compared.join(" and ")}.`;
      });
    });
    const why = wrapped(`WHY NO TRADE  ${readinessWords(ir, r.window)}${stayed.join("")}`, Math.floor((w - 12) / (THEME.advance * 11)));
    const top = nullPane.y + (verdictSaid ? 50 : 34);
    why.slice(0, Math.floor((nullPane.y + nullPane.h - top) / 15) + 1).forEach((said2, k) => out.push(text(x + 6, top + 15 * k, said2, { fill: THEME.text })));
  }
  const title = `${r.market} \xB7 ${r.timeframe} \xB7 rehearsal`;
  out.push(text(x + 2, 22, title, { size: 16, fill: THEME.text, weight: "bold" }));
  const span = `${utcMinute(r.window.from)} \u2192 ${utcMinute(r.window.to)} UTC \xB7 ${counted(drawn2.length, "bar")}${per > 1 ? `, each candle ${per} bars` : ""}`;
  out.push(text(x + 2 + textWidth(title, 16) + 14, 22, span, { size: 12 }));
  const s = r.stats;
  out.push(text(W - 10, 22, `${counted(s.n, "trade")} \xB7 ${s.wins} won \xB7 ${s.losses} lost \xB7 total ${inR(s.total_r)}`, { size: 12, fill: REHEARSAL_COLOURS.equity, anchor: "end" }));
  const { warm_up, session, gaps } = r.window.idle;
  const readiness = [
    r.window.ready_at === null ? "the rule could decide on no bar" : `first decision at ${utcMinute(r.window.ready_at + ir.tf_seconds)} UTC`,
    ...warm_up + session > 0 ? [`bars that could not trade: ${[...warm_up > 0 ? [`${formatNumber(warm_up, 0)} warm-up`] : [], ...session > 0 ? [`${formatNumber(session, 0)} outside session`] : []].join(", ")}`] : ["every bar could trade"],
    ...gaps > 0 ? [`${counted(gaps, "empty slot")} in the tape`] : []
  ].join("  \xB7  ");
  for (const { at, ly: ly2, item } of placed) {
    out.push(`<g transform="translate(${px(at)} 0)">${item.mark ? item.mark(ly2) : ""}${text(x + (item.mark ? 20 : 2), ly2, item.words, { fill: item.fill })}</g>`);
  }
  out.push(text(x + 2, ly + 18, readiness, { fill: THEME.text }));
  out.push("</svg>");
  const state = {
    style: REHEARSAL_PLATE_STYLE,
    market: r.market,
    tf: r.timeframe,
    from: iso3(r.window.from),
    to: iso3(r.window.to),
    size: { width: W, height: H2 },
    bars: { count: drawn2.length, columns: n, per_column: per, digest: digestOf(drawn2) },
    price: { low, high },
    trades: { count: s.n, long: s.long, short: s.short, wins: s.wins, losses: s.losses },
    rule: { lines, thresholds, stop: exits.stop, target: exits.target, exits: exits.others, session: sessionSaid },
    readiness: { ready_at: r.window.ready_at === null ? null : iso3(r.window.ready_at), idle: r.window.idle, shaded },
    levels: counts,
    equity: { final_r: s.total_r, max_drawdown_r: s.max_drawdown_r, low_r: round4(equityLow), high_r: round4(equityHigh) },
    null: nullState,
    verdict: r.verdict && verdictSaid ? { label: r.verdict.label, line: verdictSaid, neighbours } : null
  };
  return { svg: out.join("\n"), state };
}

// services/plates/draw.ts
var PlateRequest = z96.object({
  market: z96.enum(MARKETS),
  tf: z96.enum(TIMEFRAMES),
  from: unixTime.describe("window start: ISO-8601 UTC (\u2026Z) or unix seconds"),
  to: unixTime.describe("window end: ISO-8601 UTC or unix seconds, in the past"),
  indicators: z96.array(z96.string()).max(8).optional().describe("ema:N, sma:N, vwap, bb:N:K, atr:N, rsi:N, hi:N, lo:N")
}).strict();
var plateId = (png, json) => createHash4("sha256").update(png).update(json).digest("hex");
function drawing(render) {
  try {
    return render();
  } catch (error) {
    if (error instanceof PlateError) throw new DeckError(422, "undrawable", error.message, { reason: error.reason });
    throw error;
  }
}
function specsOf(texts) {
  try {
    return parseIndicators(texts);
  } catch (error) {
    if (!(error instanceof IndicatorSpecError)) throw error;
    throw badInput([{ field: `indicators.${texts.indexOf(error.indicator)}`, message: error.message }]);
  }
}
var WARM_UP_READS = 4;
async function drawPlate(ctx, input) {
  const from = input.from;
  const to = input.to;
  const len = TIMEFRAME_SECONDS[input.tf];
  if (from >= to) throw badInput([{ field: "from", message: "must be before to" }]);
  if (to > ctx.clock() / 1e3) throw badInput([{ field: "to", message: "a plate draws the past: to must not be in the future" }]);
  if ((to - from) / len > MAX_PLATE_BARS) throw badInput([{ field: "to", message: `at most ${MAX_PLATE_BARS} ${input.tf} bars on one plate` }]);
  const specs = specsOf(input.indicators ?? []);
  const read = async (start) => {
    const got2 = await candleWindow(ctx, { market: input.market, tf: input.tf, from: start, to });
    const bars2 = got2.bars();
    const first = bars2.t.findIndex((t) => t >= from);
    return { start, bars: bars2, coverage: got2.coverage, before: first < 0 ? bars2.length : first };
  };
  const earliest = to - MAX_BARS * len;
  let got = await read(Math.max(earliest, plateLoadFrom(input.market, input.tf, from, specs)));
  for (let n = 1; n < WARM_UP_READS; n++) {
    const next = furtherBack(input.market, input.tf, from, got.start, got.before, specs, earliest);
    if (next === null) break;
    const more = await read(next);
    if (more.before <= got.before) break;
    got = more;
  }
  const { bars, coverage: coverage2 } = got;
  const marks = ctx.store.marks.list(ctx.principal.id).filter((m) => m.market === input.market).map((m) => ({ kind: m.kind, price: m.price, ...m.price2 !== void 0 ? { price2: m.price2 } : {} }));
  const plate = drawing(
    () => renderPlate({ market: input.market, tf: input.tf, from, to, bars, unmeasured: coverage2.unmeasured.spans, indicators: specs, marks })
  );
  const chartStateJson = JSON.stringify(plate.chart_state);
  return { ...plate, id: plateId(plate.png, chartStateJson), chartStateJson };
}

// tools/plates/chart-image.ts
var chartImage = defineTool({
  name: "chart_image",
  title: "Chart image",
  description: "The plate of a past window as an image: candles, volume, the indicators asked for and your marks (as lines and bands, never their notes), drawn as POST /plates draws it, without sealing it. Answers the PNG as image content and its chart_state.",
  input: PlateRequest,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: "session",
  toolset: TOOLSETS.plates,
  output: answer({ id: z97.string().describe("the plate's id: sha256 of the PNG and its chart_state"), chart_state: ChartState }),
  async run(ctx, input) {
    const plate = await drawPlate(ctx, input);
    return new WithImage({ ok: true, id: plate.id, chart_state: plate.chart_state }, plate.png);
  }
});

// tools/plates/plate-seal.ts
import { z as z98 } from "zod";

// services/plates/seal.ts
var PLATE_SEALS_PER_DAY = 40;
var sealsUsed = (now) => limitReached("seals_used", `${PLATE_SEALS_PER_DAY} plates a day are sealed already`, secondsToNextUtcDay(now), { per_day: PLATE_SEALS_PER_DAY });
function refuseSealsUsed(ctx) {
  const now = ctx.clock();
  const day = utcDay(now);
  if (ctx.store.plateSeals.list(ctx.principal.id).filter((s) => s.day === day).length >= PLATE_SEALS_PER_DAY) throw sealsUsed(now);
}
async function sealPlate(ctx, id, png, stateJson) {
  const p = ctx.principal;
  const path = `/plates/${id}`;
  const now = ctx.clock();
  const day = utcDay(now);
  const fresh = await ctx.store.plates.seal(id, png, stateJson, async () => {
    await ctx.store.plateSeals.add(p.id, { id, day }, (mine) => {
      if (mine.filter((s) => s.day === day).length >= PLATE_SEALS_PER_DAY) throw sealsUsed(now);
    });
  });
  if (fresh) await recordSpend(ctx, "plate");
  return { id, fresh, path, png: `${ctx.urls.base}${path}.png`, json: `${ctx.urls.base}${path}.json` };
}

// tools/plates/plate-seal.ts
var plateSeal = defineTool({
  name: "plate_seal",
  title: "Seal a plate",
  description: `Draws a PNG candle chart of a past window (candles, volume, the indicators asked for, your marks on that market as lines, never their notes) and seals it: the id is the hash of the PNG and the chart_state numbers it was drawn from, so sealing the same thing again returns the same id with fresh false. The plate names no one. ${PLATE_SEALS_PER_DAY} seals a day.`,
  input: PlateRequest,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: "session",
  output: answer({
    id: z98.string().describe("sha256 of the PNG and the chart_state numbers it was drawn from"),
    fresh: z98.boolean().describe("false: sealed already, counted nothing"),
    path: z98.string(),
    png: z98.string().describe("the PNG's URL"),
    json: z98.string().describe("the chart_state's URL")
  }),
  toolset: TOOLSETS.plates,
  rest: { method: "POST", path: "/plates", errors: [429, 502, 503] },
  async run(ctx, input) {
    const plate = await drawPlate(ctx, input);
    return { ok: true, ...await sealPlate(ctx, plate.id, plate.png, plate.chartStateJson) };
  }
});

// tools/records/history.ts
import { z as z102 } from "zod";

// services/records/acts.ts
var source = (s) => s;
var SOURCES = {
  // What the deck performed for the principal (the price list's actions), and what they recorded with POST /meter.
  meter: source({ entries: (s) => s.spend.entries, read: (e) => ({ kind: e.action, what: { units: e.units, bars: e.bars ?? null } }) }),
  grades: source({
    entries: (s) => s.grades.receiptEntries,
    read: (e) => ({
      kind: "grade",
      what: { seed_hash: e.seed_hash, rubric: e.rubric, decision: e.decision, rehearsal_digest: e.rehearsal?.digest ?? null, decision_digest: e.decision_digest }
    })
  }),
  scores: source({
    entries: (s) => s.grades.scoreEntries,
    read: (e) => ({
      kind: "score",
      what: {
        stage: e.stage,
        seed_hash: e.subject.seed_hash ?? null,
        rehearsal_digest: e.subject.rehearsal_digest ?? null,
        rubric: e.rubric,
        score: e.score,
        decision_digest: e.decision_digest
      }
    })
  }),
  // Plans paid on chain, holder wallets linked, house mandates recorded, and every move of a series.
  "plan-claims": source({
    entries: (s) => s.claims.entries,
    read: (e) => ({ kind: "plan_claim", what: { chain: e.chain, tx_hash: e.tx_hash, plan: e.plan, amount: e.amount, period: e.period } })
  }),
  "holder-links": source({
    entries: (s) => s.holders.entries,
    read: (e) => ({ kind: "holder_link", what: { day: e.day, wallet: e.wallet, nfts: e.nfts, block: e.block } })
  }),
  mandates: source({
    entries: (s) => s.mandates.entries,
    read: (e) => ({ kind: "mandate", what: { eip712_hash: e.eip712_hash, vault: e.vault, vault_matches: e.vault_matches } })
  }),
  series: source({
    entries: (s) => s.series.entries,
    read: (e) => ({ kind: "series_move", what: { series_id: e.series_id, n: e.n, row: e.row, from: e.from, to: e.to, epoch: e.epoch ?? null } })
  })
};
var ACT_LEDGERS = Object.keys(SOURCES);
function actsOf(store, principalId) {
  const acts = ACT_LEDGERS.flatMap(
    (ledger) => SOURCES[ledger].entries(store).filter((e) => e.entry.principal_id === principalId).map((e) => ({ ...SOURCES[ledger].read(e.entry), ledger, seq: e.seq, hash: e.hash, at: new Date(e.at).toISOString() }))
  );
  const order = (l) => ACT_LEDGERS.indexOf(l);
  return acts.sort((a, b) => a.at < b.at ? -1 : a.at > b.at ? 1 : order(a.ledger) - order(b.ledger) || a.seq - b.seq);
}
function ownEntry(store, principalId, ledger, seq) {
  const entries = SOURCES[ledger].entries(store);
  const found = entries[seq - 1]?.seq === seq ? entries[seq - 1] : entries.find((e) => e.seq === seq);
  return found && found.entry.principal_id === principalId ? found : null;
}

// services/records/answers.ts
import { z as z101 } from "zod";

// services/studio/answers.ts
import { z as z100 } from "zod";

// engine/grade/facts.ts
var fact = (name, held, detail) => ({ name, held, detail });
var notChecked = (name, why) => fact(name, false, `not checked: ${why}`);
var list = (xs, most = 3) => xs.slice(0, most).join("; ") + (xs.length > most ? `; and ${xs.length - most} more` : "");
var R_ROUNDING = 1e-4;
function brokeStop(t, r) {
  const d = t.side === "long" ? 1 : -1;
  const risk = d * (t.entry - t.stop);
  if (!(risk > 0)) return `its stop ${t.stop} is not on the losing side of its entry ${t.entry}`;
  const tick = MARKET_SPECS[r.market].tick;
  const slip = r.costs.slippage;
  const fees = r.costs.fee.unit === "points" ? 2 * r.costs.fee.per_side : (t.entry + t.exit) * r.costs.fee.per_side / 1e4;
  const floor = -1 - (slip + tick + fees) / risk - R_ROUNDING;
  if (t.r >= floor) return null;
  const gapped = t.exit_open !== null && d * (t.exit_open - t.stop) <= 0 && Math.abs(t.exit - (t.exit_open - d * slip)) <= tick;
  if (gapped) return null;
  return `it lost ${-t.r}R where its stop and costs allow at most ${Math.round(-floor * 1e4) / 1e4}R`;
}
function exitsOf(ir) {
  const out = /* @__PURE__ */ new Set(["stop", "end_of_data"]);
  if (ir.breakeven) out.add("breakeven");
  if (ir.trail) out.add("trail");
  if (ir.target) out.add("target");
  if (ir.exit_when) out.add("exit_rule");
  if (ir.time.some((t) => t.kind === "bars" || t.kind === "seconds")) out.add("time");
  if (ir.time.some((t) => t.kind === "clock")) out.add("clock");
  if (ir.time.some((t) => t.kind === "session_close")) out.add("session_close");
  if (ir.flat_at_session_end) out.add("session_end");
  return out;
}
var named2 = (t, i) => `trade ${i + 1} (${t.side}, entry_t ${t.entry_t})`;
function tradeFacts(script, kept) {
  const names = ["stop_obeyed", "sides", "exits"];
  if (!kept) return names.map((n2) => notChecked(n2, "no rehearsal"));
  if (!script) return names.map((n2) => notChecked(n2, "no valid script"));
  const n = kept.trades.length;
  const broken = kept.trades.flatMap((t, i) => {
    const why = brokeStop(t, kept);
    return why ? [`${named2(t, i)}: ${why}`] : [];
  });
  const stop = broken.length ? fact("stop_obeyed", false, `${broken.length} of ${n} trades broke their stop: ${list(broken)}`) : fact("stop_obeyed", true, `each of the ${n} trades lost at most 1R plus costs, or left at an open that gapped through its stop`);
  const wrongSide = kept.trades.flatMap((t, i) => script.side !== "both" && t.side !== script.side ? [named2(t, i)] : []);
  const sides = wrongSide.length ? fact("sides", false, `the rule is ${script.side} only, yet ${list(wrongSide)} went the other way`) : fact("sides", true, `every trade is ${script.side === "both" ? "long or short" : script.side}, as the rule allows`);
  let exits;
  try {
    const allowed = exitsOf(irOf({ ...script, market: kept.market }));
    const stray = kept.trades.flatMap((t, i) => allowed.has(t.why) ? [] : [`${named2(t, i)} left by ${t.why}`]);
    exits = stray.length ? fact("exits", false, `the rule leaves only by ${[...allowed].join(", ")}, yet ${list(stray)}`) : fact("exits", true, `every trade left by a way the rule has (${[...allowed].join(", ")})`);
  } catch (error) {
    exits = fact("exits", false, `the rule's ways out cannot be read: ${error.message}`);
  }
  return [stop, sides, exits];
}
function gradeFacts(forge2, pick) {
  const kept = pick.kept;
  const parsed = ScriptSchema.safeParse(forge2.script);
  const script = parsed.success ? parsed.data : null;
  const sevenParts = script ? fact("seven_parts", true, `the script states all seven parts: ${PARTS.join(", ")}`) : fact("seven_parts", false, `the script is not a whole script.v1: ${list(parsed.error.issues.map((i) => `${i.path.join(".") || "script"}: ${i.message}`))}`);
  const missingStop = forge2.review.classes.find((c) => c.name === "missing stop");
  const stopPresent = !script ? notChecked("stop_present", "no valid script") : missingStop?.status === "passed" ? fact("stop_present", true, `the rule places a ${script.stop.kind === "distance" ? `${script.stop.distance.unit} distance` : `level ${script.stop.where} its level`} stop, and the self-review's missing stop class passed`) : fact("stop_present", false, `the self-review's missing stop class is flagged: ${list((missingStop?.findings ?? []).map((f) => `line ${f.line}: ${f.message}`))}`);
  const flagged = forge2.review.classes.filter((c) => c.status === "flagged");
  const reviewClean = flagged.length ? fact("review_clean", false, `the self-review flags ${flagged.map((c) => `${c.name} (line ${c.findings[0]?.line ?? "?"})`).join(", ")}`) : fact("review_clean", true, `all ${forge2.review.classes.length} classes of the self-review passed`);
  const scanClean = forge2.scan.clean && forge2.scan.invented.length === 0 ? fact("scan_clean", true, `every one of the ${forge2.scan.traced.length} values in the code is traced to the words, the script or a documented default`) : fact("scan_clean", false, `the scan finds invented values: ${list(forge2.scan.invented.map((x) => `${x.kind} ${x.token} on line ${x.line}`))}`);
  const mark = verifyWatermark(forge2.code);
  const watermark = mark && mark.seed_hash === forge2.id && mark.version === forge2.version ? fact("watermark", true, `the code carries this forge's watermark (${forge2.version})`) : fact("watermark", false, mark ? `the code's watermark names another forge (${mark.seed_hash.slice(0, 12)}..., ${mark.version})` : "the code carries no whole watermark");
  const rehearsed2 = pick.kept ? fact(
    "rehearsed",
    true,
    `rehearsal ${pick.kept.digest} (${pick.chosen === "named" ? "the one named" : `the latest of this seed on ${pick.kept.market}, the rule's market`}): ${pick.kept.trades.length} trades on ${pick.kept.market} ${pick.kept.timeframe}, ${pick.kept.window.bars} bars from ${pick.kept.window.from} to ${pick.kept.window.to}`
  ) : fact("rehearsed", false, pick.why);
  return [sevenParts, stopPresent, reviewClean, scanClean, watermark, rehearsed2, ...tradeFacts(script, kept)];
}
function partFacts(reading, citationProblems2) {
  const parts = PARTS.map((p) => {
    const part = reading[p];
    const citing = `citing characters ${part.spans.map((s) => `${s.from}-${s.to}`).join(", ")}`;
    if (part.status === "read") return fact(p, true, `read, ${citing}`);
    if (part.status === "defaulted") return fact(p, true, `defaulted by ${(part.defaults ?? []).map((d) => d.rule).join(", ")}, ${citing}`);
    if (part.status === "ambiguous") return fact(p, false, `ambiguous: ${part.readings?.length ?? 0} readings compete`);
    return fact(p, false, "missing");
  });
  const citations = citationProblems2.length ? fact("citations", false, `${citationProblems2.length} spans of the reading are not the words they quote`) : fact("citations", true, "every span of the reading is the words it quotes");
  return [...parts, citations];
}
function rehearsedFacts(script, kept) {
  const traded = kept.trades.length ? fact("traded", true, `the rehearsal holds ${kept.trades.length} trades`) : fact("traded", false, "the rehearsal holds no trade to judge: rehearse a window in which the rule trades");
  return [...tradeFacts(script, kept), traded];
}

// engine/grade/kept.ts
function keptOf(seed, digest2, r, bars) {
  return {
    id: seed,
    digest: digest2,
    market: r.market,
    timeframe: r.timeframe,
    // Kept as grading has always kept them: what it reads, so records kept before and after read alike.
    window: { from: r.window.from, to: r.window.to, bars: r.window.bars, warm_up_bars: r.window.warm_up_bars },
    costs: r.costs,
    trades: r.trades.map((trade) => {
      const i = barAt(bars.t, trade.exit_t);
      return { ...trade, exit_open: i >= 0 ? bars.o[i] : null };
    })
  };
}
var NONE_KEPT = "no rehearsal of this seed is kept: rehearse it first (POST /studio/rehearse)";
function pickRehearsal(kept, market, digest2) {
  if (digest2 !== null) {
    const named3 = kept.find((r) => r.digest === digest2);
    return named3 ? { kept: named3, chosen: "named" } : null;
  }
  const own = kept.filter((r) => r.market === market).at(-1);
  if (own) return { kept: own, chosen: "latest_on_rule_market" };
  if (kept.length === 0) return { kept: null, why: NONE_KEPT };
  const elsewhere = [...new Set(kept.map((r) => r.market))].join(", ");
  return {
    kept: null,
    why: `no rehearsal of this seed on ${market}, the rule's market, is kept (only on ${elsewhere}): rehearse it on ${market}, or name the rehearsal to judge by its rehearsal_digest`
  };
}

// engine/grade/prompt.ts
var INSTRUCTION = "You check whether a trading rule, as the deck states it, is faithful to the trader's own words. Judge fidelity only: never whether the rule would make money, never its style. Answer the one question asked with exactly one word: yes, partly or no. yes: on this point the rule does exactly what the words say. partly: it does some of it, or the words leave the point open and the rule fills it in. no: it does something else, or it leaves out what the words say.";
var TRADES_SHOWN = 12;
var words = (text2) => `The trader's words:
<<<
${text2}
>>>`;
var question = (q) => `Question (${q.id}): ${q.text}
Answer yes, partly or no.`;
var questionMessages = (context, q) => [
  { role: "system", content: INSTRUCTION },
  { role: "user", content: `${context}

${question(q)}` }
];
var scriptShown = (script) => `The rule as the deck forged it (script.v1, JSON):
${JSON.stringify(script, null, 2)}`;
var codeShown = (codeInWords) => `What the forged code does, in plain words (rendered from its decider IR, the code's own source):
${codeInWords.trimEnd()}`;
var gradeContext = (text2, script, codeInWords) => `${words(text2)}

${scriptShown(script)}

${codeShown(codeInWords)}`;
function partMessages(text2, reading, part, q) {
  const p = reading[part];
  const cited = p.spans.map((s) => `"${s.text}"`).join(", ");
  const filled = (p.defaults ?? []).map((d) => `
- ${d.path === "" ? "all of it" : d.path}: ${DEFAULT_WORDS[d.rule]}`).join("");
  const defaults = filled ? `
The words leave some of it unstated; the deck filled in, by its documented defaults:${filled}` : "";
  return questionMessages(`${words(text2)}

The deck read the ${part} as (JSON):
${JSON.stringify(p.value, null, 2)}
citing the words: ${cited}${defaults}`, q);
}
var iso4 = (t) => new Date(t * 1e3).toISOString().slice(0, 16).replace("T", " ");
function rehearsedContext(text2, script, codeInWords, kept) {
  const shown2 = kept.trades.slice(0, TRADES_SHOWN).map(
    (t, i) => `${i + 1}. ${t.side}: entered ${iso4(t.entry_t)} UTC at ${t.entry}, stop ${t.stop} (${Math.abs(t.entry - t.stop).toPrecision(6)} away), left ${iso4(t.exit_t)} UTC at ${t.exit} by ${t.why}, ${t.r}R`
  );
  const trades = `The rule rehearsed on ${kept.market} ${kept.timeframe} bars from ${iso4(kept.window.from)} to ${iso4(kept.window.to)} UTC: ${kept.trades.length} trades; the first ${shown2.length}:
${shown2.join("\n")}`;
  return `${gradeContext(text2, script, codeInWords)}

${trades}`;
}

// engine/grade/questions.ts
var GRADE_QUESTIONS = [
  { id: "market", text: "Does the rule trade the market the words name?", unfaithful: "the rule trades another market than the words name" },
  { id: "timeframe", text: "Does the rule read bars of the timeframe the words name?", unfaithful: "the rule reads another timeframe than the words name" },
  { id: "session", text: "Does the rule act only at the times the words allow, and at all of them?", unfaithful: "the rule acts at other times than the words allow" },
  { id: "side", text: "Does the rule take the side or sides the words say (long, short or both)?", unfaithful: "the rule takes another side than the words say" },
  { id: "entry", text: "Does the entry do what the words say: the same trigger, the same indicators and lengths, the same levels?", unfaithful: "the entry does not do what the words say" },
  { id: "stop", text: "Does the stop sit where the words say: the same distance or level, in the same unit?", unfaithful: "the stop does not sit where the words say" },
  { id: "exit", text: "Does the exit do what the words say: the same target, trail, time exit or exit condition?", unfaithful: "the exit does not do what the words say" },
  { id: "nothing_added", text: "Is the rule free of anything the words do not say: no added condition, filter, level, number or exit?", unfaithful: "the rule adds something the words do not say" }
];
var partQuestion = (part) => ({
  id: part,
  text: `Does this reading of the ${part} say what the words say, no more and no less?`,
  unfaithful: `the reading of the ${part} does not say what the words say`
});
var REHEARSED_QUESTIONS = [
  { id: "entries", text: "Do these trades enter when the words say to enter: the trigger, the side and the time of day?", unfaithful: "the trades enter when the words do not say to" },
  { id: "stops", text: "Does each trade's stop sit where the words say?", unfaithful: "the trades' stops do not sit where the words say" },
  { id: "exits", text: "Does each trade leave the way the words say?", unfaithful: "the trades do not leave the way the words say" },
  { id: "nothing_added", text: "Are these trades free of anything the words do not say: no entries, holds or exits the words do not give?", unfaithful: "the trades show something the words do not say" }
];

// engine/grade/scale.ts
var ANSWERS = ["yes", "partly", "no"];
var round43 = (x) => Math.round(x * 1e4) / 1e4;
function distributionOf(weights) {
  const total = weights.yes + weights.partly + weights.no;
  if (!(total > 0) || !Number.isFinite(total)) return null;
  return { yes: round43(weights.yes / total), partly: round43(weights.partly / total), no: round43(weights.no / total) };
}
function answerOf4(word) {
  const letters = word.toLowerCase().replace(/[^a-z]/g, "");
  if (!letters) return null;
  const found = ANSWERS.filter((a) => a.startsWith(letters));
  return found.length === 1 ? found[0] : null;
}

// engine/grade/wilson.ts
var Z95 = 1.96;
function wilsonLower(k, n, z136 = Z95) {
  if (n === 0) return null;
  if (!(Number.isInteger(k) && Number.isInteger(n) && k >= 0 && k <= n)) throw new RangeError(`k/n must be whole with 0 <= k <= n, got ${k}/${n}`);
  const p = k / n;
  const z210 = z136 * z136;
  const centre = p + z210 / (2 * n);
  const spread = z136 * Math.sqrt(p * (1 - p) / n + z210 / (4 * n * n));
  return Math.round((centre - spread) / (1 + z210 / n) * 1e4) / 1e4 || 0;
}
var calibrationOf = (k, n) => ({ k, n, rate: n ? Math.round(k / n * 1e4) / 1e4 : null, wilson_lower: wilsonLower(k, n) });

// engine/studio/machine.ts
var STUDIO_STATES = ["blank", "worded", "unclear", "read", "forged", "rehearsed", "graded", "rejected"];
var STUDIO_ACTIONS = ["words", "image", "reset", "read", "forge", "rehearse", "grade"];
var GATES = ["read", "forge", "rehearse", "grade"];
var OUTCOMES = {
  all_read: "all seven parts read (or completed by a documented default)",
  unclear: "a part missing or ambiguous",
  accepted: "the decision is accept",
  not_accepted: "the decision is revise or reject"
};
var STATES = {
  blank: {
    done: [],
    holds: [],
    next: "words",
    means: "No words yet: the rule says nothing the reader can read. An attached image is kept, but no reader reads pictures, so words are the next move."
  },
  worded: {
    done: [],
    holds: [],
    next: "read",
    means: "The words are given; the read gate is not earned for them yet. Read them into seven parts next."
  },
  unclear: {
    done: [],
    holds: ["read"],
    next: "words",
    means: "The words were read and a part is missing or ambiguous (the record's reading names which). The same words read the same way: say the rule again in words."
  },
  read: {
    done: ["read"],
    holds: ["read"],
    next: "forge",
    means: "All seven parts are read from the words, or completed by a documented default the reading names. Forge them next."
  },
  forged: {
    done: ["read", "forge"],
    holds: ["read", "forge"],
    next: "rehearse",
    means: "The words are forged; the seed hash names the code, kept for two hours (forge again to keep it two more). Rehearse it over the tape next."
  },
  rehearsed: {
    done: ["read", "forge", "rehearse"],
    holds: ["read", "forge", "rehearse"],
    next: "grade",
    means: "The forge is rehearsed over the tape; the digest names the envelope, the one the grade will judge (another rehearse move replaces it; a rehearsal made outside the studio does not). Grade its fidelity to the words next."
  },
  graded: {
    done: ["read", "forge", "rehearse", "grade"],
    holds: ["read", "forge", "rehearse", "grade"],
    next: null,
    means: "Every gate is earned: the grade accepts the rule's fidelity to its words, and its receipt is kept. A grade judges fidelity, never profitability."
  },
  rejected: {
    done: ["read", "forge", "rehearse"],
    holds: ["read", "forge", "rehearse", "grade"],
    next: "words",
    means: "The grade did not accept: its decision is revise or reject (a failed fact is always reject), and its receipt says why. Say the rule again in words, or forge or rehearse again."
  }
};
var row = (from, action, to, does, when = null) => ({ from, action, when, to, does });
var restating = (from) => [
  row(from, "words", "worded", "the words replace the rule's words; every gate goes back"),
  row(from, "image", "worded", "the image is attached (image_attach); every gate goes back"),
  row(from, "reset", "blank", "words and images are cleared; every gate goes back")
];
var TRANSITIONS = [
  row("blank", "words", "worded", "the words are kept as the rule's words"),
  row("blank", "image", "blank", "the image is attached (image_attach); still no words"),
  row("worded", "read", "read", "the words are read into seven parts (workflow_read)", "all_read"),
  row("worded", "read", "unclear", "the words are read into seven parts (workflow_read)", "unclear"),
  ...restating("worded"),
  ...restating("unclear"),
  row("read", "forge", "forged", "the words are forged (forge); the seed hash is kept"),
  ...restating("read"),
  row("forged", "rehearse", "rehearsed", "the seed is rehearsed over the tape (rehearse); the envelope's digest is kept"),
  row("forged", "forge", "forged", "the words are forged again: the same seed, kept two more hours"),
  ...restating("forged"),
  row("rehearsed", "grade", "graded", "the seed is graded (grade); the receipt is kept", "accepted"),
  row("rehearsed", "grade", "rejected", "the seed is graded (grade); the receipt is kept", "not_accepted"),
  row("rehearsed", "rehearse", "rehearsed", "another window or market replaces the rehearsal"),
  row("rehearsed", "forge", "forged", "the words are forged again; the rehearsal goes back"),
  ...restating("rehearsed"),
  row("graded", "rehearse", "rehearsed", "another rehearsal replaces the one graded; the grade goes back"),
  row("graded", "forge", "forged", "the words are forged again; the rehearsal and the grade go back"),
  ...restating("graded"),
  ...restating("rejected"),
  row("rejected", "rehearse", "rehearsed", "another rehearsal replaces the one graded; the rejection goes back"),
  row("rejected", "forge", "forged", "the words are forged again; the rehearsal and the rejection go back")
];
function movesFrom(state) {
  return [...new Set(TRANSITIONS.filter((t) => t.from === state).map((t) => t.action))];
}
function viewOf2(state) {
  const { next, done, means } = STATES[state];
  return { state, next, alt: movesFrom(state).filter((a) => a !== next), done: [...done], why: means };
}
var isMove = (state, action) => movesFrom(state).includes(action);
function arrive(state, action, outcome = null) {
  const found = TRANSITIONS.find((t) => t.from === state && t.action === action && t.when === outcome);
  if (!found) throw new Error(`the studio machine has no row ${state} --${action}${outcome ? ` [${outcome}]` : ""}-->`);
  return found.to;
}
function machineMarkdown() {
  const states = STUDIO_STATES.map((s) => `- \`${s}\` (earned: ${STATES[s].done.join(", ") || "none"}; next: ${STATES[s].next ?? "none"}): ${STATES[s].means}`);
  const rows = TRANSITIONS.map((t) => `| ${t.from} | ${t.action} | ${t.when ? OUTCOMES[t.when] : ""} | ${t.to} | ${t.does} |`);
  return [...states, "", "| State | Action | When | Next state | The move |", "|---|---|---|---|---|", ...rows].join("\n");
}

// store/grades.ts
var REHEARSALS_KEPT = 8;
var STAGES = ["parts", "rehearsed"];
var tradesName = (digest2) => `${digest2}.json`;
var digestsOf = (d) => new Set(Object.values(d.by_principal).flatMap((list2) => list2.map((r) => r.digest)));
var tallyKey = (stage, principalId) => `${stage}|${principalId ?? "*"}`;
var Grades = class _Grades {
  constructor(kept, trades, alone, pings, receipts, scores) {
    this.kept = kept;
    this.trades = trades;
    this.alone = alone;
    this.pings = pings;
    this.receipts = receipts;
    this.scores = scores;
    scores.follow((e) => this.count(e.entry));
  }
  kept;
  trades;
  alone;
  pings;
  receipts;
  scores;
  tallies = /* @__PURE__ */ new Map();
  static async open(backend) {
    return new _Grades(
      await backend.doc("rehearsals", () => ({ by_principal: {} })),
      backend.blobs("trades"),
      (name, work) => backend.alone(name, work),
      await backend.doc("grader-pings", () => ({ used: {} })),
      await backend.ledger("grades"),
      await backend.ledger("scores")
    );
  }
  // ---- rehearsals ----
  /** A principal's kept rehearsals of a seed, oldest first (one kept before rehearsals were named by digest is not). */
  rehearsals(principalId, seed, now) {
    return (this.kept.data.by_principal[principalId] ?? []).filter((r) => r.id === seed && r.expires_at > now && typeof r.digest === "string");
  }
  /** A principal's kept rehearsal by its digest, whatever its seed; null when none of theirs is kept under it. */
  rehearsal(principalId, digest2, now) {
    return (this.kept.data.by_principal[principalId] ?? []).find((r) => r.digest === digest2 && r.expires_at > now) ?? null;
  }
  /** A kept rehearsal with its trades; null when they are no longer kept (a newer rehearsal dropped it meanwhile). */
  async whole(record) {
    if (record.trades) return record;
    const bytes = await this.trades.read(tradesName(record.digest));
    return bytes ? { ...record, trades: JSON.parse(bytes.toString("utf8")) } : null;
  }
  /**
   * Keeps a principal's rehearsal of a seed as the newest (the same rehearsal again, by digest, moves up); the seed
   * keeps its last REHEARSALS_KEPT, and every expired one goes. Its trades are kept once by digest (the same
   * rehearsal of the same seed and window is the same bytes) and go when no record names the digest any more. Keeps
   * run one at a time in every deck on the store, so a digest is never removed under a keep that names it.
   */
  keepRehearsal(principalId, kept, now, expiresAt) {
    const { trades, ...record } = kept;
    const bytes = Buffer.from(JSON.stringify(trades));
    return this.alone("rehearsals", async () => {
      await this.trades.keepFirst(tradesName(kept.digest), bytes);
      const dropped = await this.kept.update((d) => {
        const before = digestsOf(d);
        for (const [who, list2] of Object.entries(d.by_principal)) {
          const live = list2.filter((r) => r.expires_at > now && !(who === principalId && r.id === kept.id && r.digest === kept.digest));
          if (live.length > 0) d.by_principal[who] = live;
          else delete d.by_principal[who];
        }
        const mine = [...d.by_principal[principalId] ?? [], { ...record, kept_at: now, expires_at: expiresAt }];
        const ofSeed = mine.filter((r) => r.id === kept.id);
        const over = new Set(ofSeed.slice(0, Math.max(0, ofSeed.length - REHEARSALS_KEPT)));
        d.by_principal[principalId] = mine.filter((r) => !over.has(r));
        const after = digestsOf(d);
        return [...before].filter((digest2) => !after.has(digest2));
      });
      for (const digest2 of dropped) await this.trades.remove(tradesName(digest2));
    });
  }
  // ---- trial pings ----
  pingsUsed(principalId) {
    return this.pings.data.used[principalId] ?? 0;
  }
  /** Takes one ping unless `admit` refuses (by throwing) on the pings used so far; answers the pings used after. */
  takePing(principalId, admit) {
    return this.pings.update((d) => {
      const used = d.used[principalId] ?? 0;
      admit(used);
      d.used[principalId] = used + 1;
      return used + 1;
    });
  }
  /** Gives back a ping taken for a decision that did not come back. */
  givePing(principalId) {
    return this.pings.update((d) => {
      const used = d.used[principalId] ?? 0;
      if (used > 1) d.used[principalId] = used - 1;
      else delete d.used[principalId];
    });
  }
  // ---- ledgers ----
  receipt(entry, at) {
    return this.receipts.append(entry, at);
  }
  score(entry, at) {
    return this.scores.append(entry, at);
  }
  /** Every grade receipt as the ledger chains it, oldest first. */
  get receiptEntries() {
    return this.receipts.all;
  }
  /** Every score as the ledger chains it, oldest first. */
  get scoreEntries() {
    return this.scores.all;
  }
  /** The questions asked and held at a stage, house-wide (principalId null) or one principal's. */
  tally(stage, principalId) {
    return this.tallies.get(tallyKey(stage, principalId)) ?? { k: 0, n: 0, scores: 0 };
  }
  count(e) {
    const answers2 = e.grader?.answers ?? [];
    const held = answers2.filter((a) => a.verdict === "holds").length;
    for (const key of [tallyKey(e.stage, null), tallyKey(e.stage, e.principal_id)]) {
      const t = this.tallies.get(key) ?? { k: 0, n: 0, scores: 0 };
      this.tallies.set(key, { k: t.k + held, n: t.n + answers2.length, scores: t.scores + 1 });
    }
  }
};

// store/studio.ts
import { z as z99 } from "zod";
var RehearsalDigestSchema = z99.strictObject({
  digest: Sha256Hex.describe("sha256 of the rehearsal's JSON answer: the bytes POST /studio/rehearse answers for the same seed and window"),
  market: z99.enum(MARKETS),
  timeframe: z99.enum(TIMEFRAMES),
  asked: z99.strictObject({ from: UnixS, to: UnixS, hours: z99.number().int(), folds: z99.number().int().nullable() }).describe("the window asked: its end and hours (the end is the newest bar the tape held when none was given)"),
  window: z99.strictObject({ from: UnixS, to: UnixS, bars: z99.number().int(), warm_up_bars: z99.number().int() }).describe("the bars the rule traded over, as the envelope states them"),
  trades: z99.number().int(),
  tape: z99.strictObject({ bars: z99.number().int(), expected: z99.number().int() }).describe("the bars of the window asked that the tape held, against the bars the market's calendar expects in it")
});
var GradeHeldSchema = z99.strictObject({ decision: z99.enum(DECISIONS), receipt: z99.record(z99.string(), z99.unknown()) });
var StudioRecordSchema = z99.strictObject({
  strategy: z99.string(),
  state: z99.enum(STUDIO_STATES),
  rev: z99.number().int().describe("counts the moves: a move is written only over the record it was decided on"),
  words: z99.string().nullable(),
  images: z99.array(z99.string()).describe("ids of the images attached with the image move (the bytes are the image tool's)"),
  reading: RuleReadingSchema.nullable(),
  seed: z99.strictObject({ seed_hash: Sha256Hex, version: z99.string() }).nullable(),
  rehearsal: RehearsalDigestSchema.nullable(),
  grade: GradeHeldSchema.nullable(),
  updated_at: IsoTime.nullable()
});
var blankRecord = (strategy) => ({
  strategy,
  state: "blank",
  rev: 0,
  words: null,
  images: [],
  reading: null,
  seed: null,
  rehearsal: null,
  grade: null,
  updated_at: null
});
var recordOf2 = (mine, strategy) => mine && Object.hasOwn(mine, strategy) ? mine[strategy] : void 0;
var Studio = class {
  constructor(file) {
    this.file = file;
  }
  file;
  static empty = () => ({ by_principal: {} });
  /** Every principal's records, whoever holds them (for house-wide records that name no one). */
  everyRecord() {
    return Object.values(this.file.data.by_principal).flatMap((mine) => Object.values(mine));
  }
  get(principalId, strategy) {
    return recordOf2(this.file.data.by_principal[principalId], strategy) ?? blankRecord(strategy);
  }
  /**
   * Writes `next` as rev `seen + 1` in one update, only while the record is still at rev `seen` (the one the move was
   * decided on); otherwise `stale` refuses with the record as it now is, and nothing is written.
   */
  move(principalId, next, seen, stale) {
    return this.file.update((d) => {
      const mine = d.by_principal[principalId] ??= {};
      const now = recordOf2(mine, next.strategy) ?? blankRecord(next.strategy);
      if (now.rev !== seen) throw stale(now);
      const written = { ...next, rev: seen + 1 };
      mine[next.strategy] = written;
      return written;
    });
  }
};

// services/studio/answers.ts
var Market = z100.enum(MARKETS);
var Timeframe = z100.enum(TIMEFRAMES);
var Decision = z100.enum(DECISIONS);
var Watermark = z100.strictObject({ seed_hash: Sha256Hex, version: z100.string() }).describe("the seed hash and version read back from the code");
var ForgeAnswer = answer({
  seed_hash: Sha256Hex.describe("the hash of the canonical decider IR and the version: it names the forge"),
  version: z100.string().describe("the decider's version"),
  code: z100.string().describe("the TypeScript source of the pure decide function, watermarked"),
  watermark: Watermark,
  script: ScriptSchema,
  review: ReviewSchema.describe("the self-review: nine named classes, each passed or flagged with its lines"),
  scan: ScanSchema.describe("every number, indicator, market, time and side in the code traced to the words or the script, or flagged as invented"),
  warnings: Warnings
});
var ForgeReadAnswer = answer({
  seed_hash: Sha256Hex,
  version: z100.string(),
  code: z100.string(),
  review: ReviewSchema,
  scan: ScanSchema,
  expires_at: IsoTime.describe("when the forge is no longer kept")
});
var Onboarded = {
  name: z100.string(),
  title: z100.string(),
  source: z100.string().describe("where the algorithm is documented, and how this script adapts it"),
  intent: z100.string().describe("the rule in words")
};
var ForgeOnboardAnswer = answer({ ...Onboarded, script: ScriptSchema });
var StrategiesAnswer = answer({
  strategies: z100.array(z100.strictObject({ ...Onboarded, market: Market, timeframe: Timeframe }))
});
var StrategyQuoteAnswer = answer({
  name: z100.string(),
  market: Market,
  timeframe: Timeframe,
  window: z100.strictObject({ hours: z100.number().int(), bars_at_most: z100.number().int().describe("the most bars the window can hold, warm-up included") }),
  unit: z100.literal("meter unit"),
  meter: z100.strictObject({ forge: z100.number(), rehearse: z100.number(), total: z100.number() }).describe("meter units from the price list")
});
var What = z100.string().describe("what the lane reads, in words");
var ForgeLanesAnswer = answer({
  lanes: z100.array(
    z100.union([
      z100.strictObject({ id: z100.literal("embedded"), kind: z100.literal("grammar"), available: z100.literal(true), what: What }),
      z100.strictObject({ id: z100.literal("model"), kind: z100.literal("openai-compatible"), what: What, available: z100.literal(false), reason: z100.string().describe("why it is closed to you") }),
      z100.strictObject({
        id: z100.literal("model"),
        kind: z100.literal("openai-compatible"),
        what: What,
        available: z100.literal(true),
        model: z100.string().describe("the lane's model"),
        funded: z100.enum(["house", "plan"]).describe("who pays for a reading")
      })
    ])
  ).describe("the embedded lane, then the model lane")
});
var WorkflowReadAnswer = answer({
  parts: RuleReadingSchema.describe("the seven parts, each with its status, value and spans, and a hint on a part missing or ambiguous"),
  clauses: z100.array(ClauseAccountSchema).describe("every clause of the words, in order: the parts it lands in, and its words that carry a meaning no part took, each with why and the words that would read"),
  warnings: Warnings
});
var TradesPageShown = z100.strictObject({
  from: z100.number().int(),
  shown: z100.number().int(),
  total: z100.number().int(),
  next: z100.number().int().nullable().describe("trades_from of the next page; null on the last")
}).describe("the page of trades shown (only when trades_from or trades_limit was given)");
var Verdict2 = VerdictSchema.describe("how likely the result is to be luck or overfitting, each figure with its method and inputs (docs/studio.md)");
var TrialAnswer = RehearsalSchema.extend({
  ok: z100.literal(true),
  verdict: Verdict2,
  name: z100.string().nullable(),
  tenant: z100.string().nullable(),
  seed_hash: Sha256Hex,
  script: ScriptSchema.describe("the script run, with its market and session filled in"),
  trades_page: TradesPageShown.optional()
});
var Plate = z100.strictObject({ id: Sha256Hex, path: z100.string(), png: z100.url(), json: z100.url() });
var RehearseAnswer = RehearsalSchema.extend({
  ok: z100.literal(true),
  verdict: Verdict2,
  seed_hash: Sha256Hex,
  plate: Plate.optional().describe("the sealed plate of the rehearsal (with plate: true)"),
  trades_page: TradesPageShown.optional(),
  rehearsal_digest: Sha256Hex.optional().describe("a page of trades names the whole answer by its digest, which grade and score take")
});
var Fact = z100.strictObject({ name: z100.string(), held: z100.boolean(), detail: z100.string() });
var Answered = z100.strictObject({
  id: z100.string(),
  question: z100.string(),
  distribution: keyed(ANSWERS, z100.number().min(0).max(1)),
  source: z100.enum(["logprobs", "samples"]),
  samples: z100.number().int().nullable().describe("samples counted (samples only)"),
  verdict: z100.enum(["holds", "unsure", "fails"])
});
var GraderPart = z100.strictObject({ model: z100.string(), funded: z100.string().describe("how the decision was paid: own key, house, plan or trial"), answers: z100.array(Answered) }).describe("the grader's part: null when it was not asked");
var JudgedRehearsal = z100.strictObject({
  digest: Sha256Hex,
  chosen: z100.enum(["named", "latest_on_rule_market"]),
  market: Market,
  timeframe: Timeframe,
  from: UnixS,
  to: UnixS,
  trades: z100.number().int()
});
var Shown = z100.strictObject({ digest: Sha256Hex.describe("sha256 of the context the grader was shown"), code_in_words: z100.string() }).describe("what the grader was shown; null when it was not asked");
var Receipt = {
  receipt_hash: Sha256Hex,
  prev_hash: z100.string().describe("the hash of the entry before it in the ledger"),
  seq: z100.number().int().min(1),
  at: IsoTime,
  trial_pings_left: z100.number().int().optional().describe("trial pings left on the free tier, when one was spent")
};
var GradeEntry = z100.strictObject({
  rubric: z100.string(),
  seed_hash: Sha256Hex,
  version: z100.string(),
  words_sha256: Sha256Hex.describe("the words are kept only as their digest"),
  decision: Decision,
  rehearsal: JudgedRehearsal.nullable().describe("the rehearsal judged; null when none was kept"),
  facts: z100.array(Fact),
  grader: GraderPart.nullable(),
  shown: Shown.nullable(),
  reasons: z100.array(z100.string()),
  decision_digest: Sha256Hex
});
var GradeAnswer = GradeEntry.extend({ ok: z100.literal(true), ...Receipt });
var ScoreEntry = z100.strictObject({
  rubric: z100.string(),
  stage: z100.enum(STAGES),
  subject: z100.strictObject({ seed_hash: Sha256Hex.optional(), rehearsal_digest: Sha256Hex.optional(), words_sha256: Sha256Hex }),
  rehearsal: JudgedRehearsal.optional().describe("stage rehearsed: the rehearsal judged"),
  facts: z100.array(Fact),
  grader: GraderPart.nullable(),
  shown: Shown.nullable().optional(),
  score: z100.strictObject({ k: z100.number().int(), n: z100.number().int(), value: z100.number().min(0).max(1) }).describe("k points of n"),
  reasons: z100.array(z100.string()),
  decision_digest: Sha256Hex
});
var ScoreAnswer = ScoreEntry.extend({ ok: z100.literal(true), ...Receipt });
var Calibration2 = z100.strictObject({
  k: z100.number().int().describe("closed questions that held"),
  n: z100.number().int().describe("closed questions asked"),
  rate: z100.number().nullable(),
  wilson_lower: z100.number().nullable().describe("the lower end of the 95% Wilson interval; null before any question"),
  scores: z100.number().int().describe("scores recorded")
});
var ScoreReadAnswer = answer({
  stage: z100.enum(STAGES),
  rubric: z100.string(),
  z: z100.number(),
  house: Calibration2,
  mine: Calibration2
});
var ImageAttachAnswer = answer({
  id: z100.string().regex(/^im_[0-9a-f]{16}$/),
  tier: z100.enum(TIERS),
  left_today: z100.number().int().describe("attachments left today on your tier")
});
var StudioRecord = StudioRecordSchema.extend({
  grade: z100.strictObject({ decision: Decision, receipt: GradeAnswer.describe("the grade tool's answer as it came") }).nullable()
});
var Action = z100.enum(STUDIO_ACTIONS);
var StudioView = z100.strictObject({
  state: z100.enum(STUDIO_STATES),
  next: Action.nullable().describe("the awaited move"),
  alt: z100.array(Action).describe("the other moves"),
  done: z100.array(z100.enum(GATES)).describe("the gates earned"),
  why: z100.string()
});
var Gate = (restsOn) => z100.strictObject({ earned: z100.boolean(), rests_on: restsOn.nullable() });
var Coverage2 = z100.strictObject({
  read: Gate(
    z100.strictObject({
      words_sha256: Sha256Hex,
      chars: z100.number().int(),
      parts: keyed(PARTS, z100.enum(STATUSES))
    })
  ),
  forge: Gate(z100.strictObject({ seed_hash: Sha256Hex, version: z100.string(), kept: z100.boolean(), expires_at: IsoTime.nullable() })),
  rehearse: Gate(RehearsalDigestSchema.extend({ seed_hash: Sha256Hex })),
  grade: Gate(z100.strictObject({ seed_hash: Sha256Hex, rehearsal_digest: Sha256Hex, decision: Decision }))
});
var StudioStateShape = { record: StudioRecord, view: StudioView, coverage: Coverage2.describe("each gate: earned, and what it rests on") };
var StudioStateAnswer = answer(StudioStateShape);
var StudioActAnswer = answer({
  ...StudioStateShape,
  answer: z100.union([z100.null(), ImageAttachAnswer, WorkflowReadAnswer, ForgeAnswer, RehearseAnswer, GradeAnswer]).describe("the called tool's own answer; null for words and reset")
});

// services/records/answers.ts
var Sha256Hex0x = z101.string().regex(/^0x[0-9a-f]{64}$/);
var Row = Move.shape.row;
var State2 = Move.shape.to;
var Score = ScoreEntry.shape.score;
var LEDGERS = {
  meter: {
    kind: z101.string().describe("the price list's action"),
    what: z101.strictObject({ units: z101.number(), bars: z101.number().int().nullable() }),
    entry: z101.strictObject({ action: z101.string(), units: z101.number().describe("meter units spent"), bars: z101.number().int().optional().describe("bars stepped over, for an action priced by the bar") })
  },
  grades: {
    kind: z101.literal("grade"),
    what: z101.strictObject({ seed_hash: Sha256Hex, rubric: z101.string(), decision: Decision, rehearsal_digest: Sha256Hex.nullable(), decision_digest: Sha256Hex }),
    entry: GradeEntry
  },
  scores: {
    kind: z101.literal("score"),
    what: z101.strictObject({
      stage: ScoreEntry.shape.stage,
      seed_hash: Sha256Hex.nullable(),
      rehearsal_digest: Sha256Hex.nullable(),
      rubric: z101.string(),
      score: Score,
      decision_digest: Sha256Hex
    }),
    entry: ScoreEntry
  },
  "plan-claims": {
    kind: z101.literal("plan_claim"),
    what: z101.strictObject({ chain: z101.string(), tx_hash: z101.string(), plan: z101.string(), amount: z101.string(), period: z101.strictObject({ start: IsoTime, end: IsoTime }) }),
    entry: PlanClaimEntry
  },
  "holder-links": {
    kind: z101.literal("holder_link"),
    what: z101.strictObject({ day: z101.string(), wallet: z101.string(), nfts: z101.number().int(), block: z101.number().int() }),
    entry: z101.strictObject({ day: z101.string(), wallet: z101.string(), chain: z101.string(), collection: z101.string(), nfts: z101.number().int(), block: z101.number().int().describe("the block balanceOf was read at") })
  },
  mandates: {
    kind: z101.literal("mandate"),
    what: MandateEntry.pick({ eip712_hash: true, vault: true, vault_matches: true }),
    entry: MandateEntry
  },
  series: {
    kind: z101.literal("series_move"),
    what: z101.strictObject({ series_id: z101.string(), n: z101.number().int(), row: Row, from: State2.nullable(), to: State2, epoch: z101.number().int().nullable() }),
    entry: Move.extend({ series_id: z101.string() })
  }
};
var LEDGER_KINDS = Object.values(LEDGERS).flatMap((l) => l.kind instanceof z101.ZodLiteral ? [String(l.kind.value)] : []);
var NAMES = ACT_LEDGERS;
var actOf = (ledger) => z101.strictObject({
  kind: LEDGERS[ledger].kind,
  ledger: z101.literal(ledger),
  seq: z101.number().int().min(1),
  hash: z101.string(),
  at: IsoTime,
  what: LEDGERS[ledger].what.describe("what the entry recorded, in its own fields")
});
var Act = z101.discriminatedUnion("ledger", NAMES.map(actOf));
var HistoryAnswer = answer({
  kinds: z101.array(z101.string()).describe("every kind of act history lists"),
  total: z101.number().int().describe("acts of the kind asked"),
  cursor: z101.number().int(),
  next: z101.number().int().nullable().describe("the cursor of the next page; null on the last"),
  acts: z101.array(Act)
});
var Entries = NAMES.map((ledger) => LEDGERS[ledger].entry);
var HistoryEntryAnswer = answer({
  ledger: z101.enum(ACT_LEDGERS),
  seq: z101.number().int().min(1),
  at: IsoTime,
  prev: z101.string().describe("the hash of the entry before it"),
  hash: z101.string(),
  entry: z101.union(Entries).describe("the whole entry as the ledger keeps it, of that ledger's shape")
}).superRefine((a, issues) => {
  const own = LEDGERS[a.ledger].entry.safeParse(a.entry);
  if (!own.success) issues.addIssue({ code: "custom", path: ["entry"], message: `not an entry of the ${a.ledger} ledger: ${own.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}` });
});
var LabAnswer = answer({
  count: z101.number().int(),
  concluded: z101.array(
    z101.strictObject({
      seed_hash: Sha256Hex,
      receipt_hash: Sha256Hex,
      decision: Decision,
      rubric: z101.string(),
      rehearsal_digest: Sha256Hex.nullable(),
      concluded_at: IsoTime.nullable()
    })
  )
});
var EpochsAnswer = answer({
  count: z101.number().int(),
  epochs: z101.array(
    z101.strictObject({
      seller: z101.string().describe("the seller hired"),
      agent: z101.strictObject({ chainId: z101.number().int(), agentId: z101.string() }).describe("the ERC-8004 agent the hire named"),
      class: z101.string().describe("the job class"),
      index: z101.number().int().describe("the epoch's index in its series"),
      paymentRef: Sha256Hex0x.describe("the epoch's payment reference, as its job on chain carries it"),
      window: z101.strictObject({ from: UnixS, to: UnixS }),
      ended_at: UnixS,
      verdict: z101.strictObject({ pass: z101.boolean(), checks: z101.array(z101.strictObject({ n: z101.number().int(), pass: z101.boolean() })) }).describe("the layer's verdict: whether it passed, and each of the class's checks"),
      feedback: z101.strictObject({ value: z101.number().int(), valueDecimals: z101.number().int(), tag1: z101.string(), tag2: z101.string() }).nullable().describe("the ERC-8004 feedback's value and tags for this verdict; null when the deck names no reputation registry on the agent's chain")
    })
  ).describe("oldest ended first")
});
var LadderRow = z101.strictObject({
  model: z101.string().describe("owner/name"),
  standing: z101.enum(["ranked", "unranked"]),
  rank: z101.number().int().min(1).nullable().describe("1 for the most realized R; null while unranked"),
  trades: z101.number().int().describe("closed trades the figures rest on"),
  realized_r: z101.number().nullable().describe("the sum of R over the closed trades; null with no close"),
  max_drawdown_r: z101.number().nullable(),
  win_rate: z101.number().nullable(),
  last_close_at: z101.number().int().nullable().describe("unix milliseconds")
});
var LadderAnswer = answer({
  min_trades: z101.number().int().describe("closed trades a model needs to be ranked"),
  ranked: z101.array(LadderRow),
  unranked: z101.array(LadderRow)
});
var RegistryAnswer = answer({
  count: z101.number().int(),
  entries: z101.array(
    z101.discriminatedUnion("kind", [
      z101.strictObject({
        kind: z101.literal("seller"),
        id: z101.string(),
        name: z101.string(),
        description: z101.string(),
        endpoint: z101.url().describe("its MCP endpoint"),
        card_url: z101.url(),
        tools: z101.array(z101.string())
      }),
      z101.strictObject({
        kind: z101.literal("algorithm"),
        id: z101.string(),
        name: z101.string(),
        source: z101.string().describe("where it is documented"),
        market: z101.enum(MARKETS),
        timeframe: z101.enum(TIMEFRAMES),
        script_url: z101.url().describe("where its exact script is read")
      })
    ])
  )
});
var RoadmapAnswer = answer({
  serves: z101.array(
    z101.strictObject({
      area: z101.string().describe("the REST route's tag, or mcp"),
      tools: z101.array(z101.strictObject({ name: z101.string(), title: z101.string(), route: z101.string().nullable(), mcp: z101.boolean().describe("whether agents reach it over MCP") }))
    })
  ),
  not_built: z101.array(z101.strictObject({ item: z101.string(), names: z101.array(z101.string()).describe("the names it gives in backticks") }))
});

// tools/records/history.ts
var MAX_PAGE2 = 200;
var history = defineTool({
  name: "history",
  title: "Your history",
  description: `Your own acts in time order, each with the ledger entry that proves it (ledger, seq, hash): every act the deck performed for you and recorded on the meter (forge, trial, rehearse, tape, plate, image, read_model, forecast, chat, grade, score, and what you recorded with POST /meter), your grade receipts (kind grade, ledger grades), your scores (kind score, ledger scores), your plans paid on chain (plan_claim), holder wallets linked (holder_link), house mandates recorded (mandate) and every move of your series (series_move). Paged: cursor is the index of the first act (0 unless told), limit at most ${MAX_PAGE2} (50 unless told); next is the cursor of the next page, null on the last. kind keeps one kind. Read-only; another principal's acts are never listed.`,
  input: z102.object({
    kind: z102.string().regex(/^[a-z_]{1,32}$/, "a kind of act").optional(),
    cursor: int.pipe(z102.number().int().min(0)).optional(),
    limit: int.pipe(z102.number().int().min(1).max(MAX_PAGE2)).optional()
  }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: HistoryAnswer,
  access: "session",
  toolset: TOOLSETS.records,
  rest: { method: "GET", path: "/records/history" },
  async run(ctx, { kind, cursor = 0, limit = 50 }) {
    const kinds = [.../* @__PURE__ */ new Set([...ctx.offer.plans.prices.map((p) => p.action), ...LEDGER_KINDS])].sort();
    if (kind !== void 0 && !kinds.includes(kind)) throw badInput([{ field: "kind", message: `one of ${kinds.join(", ")}` }]);
    const acts = actsOf(ctx.store, ctx.principal.id).filter((a) => kind === void 0 || a.kind === kind);
    const page = acts.slice(cursor, cursor + limit);
    return { ok: true, kinds, total: acts.length, cursor, next: cursor + limit < acts.length ? cursor + limit : null, acts: page };
  }
});

// tools/records/history-entry.ts
import { z as z103 } from "zod";
var historyEntry = defineTool({
  name: "history_entry",
  title: "One act, as its ledger keeps it",
  description: "One of your acts by where it is chained (ledger meter, grades or scores, and its seq, as history lists them): the whole entry as the ledger keeps it, with its seq, time, the previous hash and its own hash, so it can be checked against the chain (ledger_verify). An entry that is not yours, or none, is 404.",
  input: z103.object({ ledger: z103.enum(ACT_LEDGERS), seq: int.pipe(z103.number().int().min(1)) }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: HistoryEntryAnswer,
  access: "session",
  toolset: TOOLSETS.records,
  rest: { method: "GET", path: "/records/history/:ledger/:seq", errors: [404] },
  async run(ctx, { ledger, seq }) {
    const found = ownEntry(ctx.store, ctx.principal.id, ledger, seq);
    if (!found) throw new DeckError(404, "not_found", `no act of yours at ${ledger} #${seq}`);
    const { principal_id: _mine, ...entry } = found.entry;
    return { ok: true, ledger, seq: found.seq, at: new Date(found.at).toISOString(), prev: found.prev, hash: found.hash, entry };
  }
});

// tools/records/lab.ts
import { z as z104 } from "zod";
var Receipt2 = z104.object({
  rubric: z104.string(),
  seed_hash: z104.string(),
  decision: Decision,
  receipt_hash: z104.string(),
  rehearsal: z104.object({ digest: z104.string() }).nullable()
});
var lab = defineTool({
  name: "lab",
  title: "The concluded lab",
  description: "Every strategy its owner brought through the studio to a grade (its studio record rests at graded or rejected), house-wide, by digest only: the seed hash, the grade receipt's hash, the decision, the rubric and the rehearsal judged (its digest). No words, no name, no strategy label: nothing of what the trader said leaves the deck. Oldest first. Needs no key.",
  input: z104.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: LabAnswer,
  access: "none",
  toolset: TOOLSETS.records,
  rest: { method: "GET", path: "/records/lab" },
  async run(ctx) {
    const concluded = ctx.store.studio.everyRecord().filter((r) => r.state === "graded" || r.state === "rejected").flatMap((r) => {
      const receipt = Receipt2.safeParse(r.grade?.receipt);
      if (!receipt.success) return [];
      const g = receipt.data;
      return [{ seed_hash: g.seed_hash, receipt_hash: g.receipt_hash, decision: g.decision, rubric: g.rubric, rehearsal_digest: g.rehearsal?.digest ?? null, concluded_at: r.updated_at }];
    }).sort((a, b) => (a.concluded_at ?? "").localeCompare(b.concluded_at ?? "") || a.receipt_hash.localeCompare(b.receipt_hash));
    return { ok: true, count: concluded.length, concluded };
  }
});

// tools/records/epochs.ts
import { z as z105 } from "zod";
var epochs2 = defineTool({
  name: "epochs",
  title: "The sellers' finished epochs",
  description: "Every epoch of standing hire the coordination layer ended with its verdict, house-wide, oldest first: the seller hired, the ERC-8004 agent the hire named, the job class, the epoch's paymentRef (as its job on chain carries it), window, end and verdict, and the value and tags of the ERC-8004 feedback that verdict gives. No principal and no series id: a seller's record, not a hirer's. `seller` keeps one seller. Needs no key.",
  input: z105.object({ seller: z105.enum(SELLER_IDS).optional().describe("keep one seller") }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: EpochsAnswer,
  access: "none",
  toolset: TOOLSETS.records,
  rest: { method: "GET", path: "/records/epochs" },
  async run(ctx, { seller }) {
    const ended = ctx.store.series.everySeries().filter((r) => !seller || r.quote.agent.seller === seller).flatMap(
      (r) => r.epochs.flatMap((e) => {
        if (e.state !== "ended" || !e.verdict || e.ended_at === null) return [];
        const f = feedbackOf(ctx, r, e, null)?.args;
        return [
          {
            seller: r.quote.agent.seller,
            agent: { chainId: r.quote.agent.chainId, agentId: r.quote.agent.agentId },
            class: r.terms.class,
            index: e.index,
            paymentRef: e.paymentRef,
            window: e.window,
            ended_at: e.ended_at,
            // The judge's words are about the hirer's own fills: the record keeps which checks passed.
            verdict: { pass: e.verdict.pass, checks: e.verdict.checks.map((c) => ({ n: c.n, pass: c.pass })) },
            feedback: f ? { value: f.value, valueDecimals: f.valueDecimals, tag1: f.tag1, tag2: f.tag2 } : null
          }
        ];
      })
    ).sort((a, b) => a.ended_at - b.ended_at || a.paymentRef.localeCompare(b.paymentRef));
    return { ok: true, count: ended.length, epochs: ended };
  }
});

// tools/records/ladder.ts
import { z as z106 } from "zod";

// engine/ladder.ts
var MIN_TRADES = 30;
var round44 = (x) => Math.round(x * 1e4) / 1e4;
function rowOf(m, minTrades) {
  const closes = [...m.closes].sort((a, b) => a.closed_at - b.closed_at);
  let total = 0;
  let peak = 0;
  let drawdown = 0;
  let wins = 0;
  for (const c of closes) {
    total += c.r;
    if (c.r > 0) wins++;
    peak = Math.max(peak, total);
    drawdown = Math.max(drawdown, peak - total);
  }
  const n = closes.length;
  return {
    model: m.model,
    standing: n >= minTrades ? "ranked" : "unranked",
    rank: null,
    trades: n,
    realized_r: n ? round44(total) : null,
    max_drawdown_r: n ? round44(drawdown) : null,
    win_rate: n ? round44(wins / n) : null,
    last_close_at: n ? closes[n - 1].closed_at : null
  };
}
function ladderOf(models2, minTrades = MIN_TRADES) {
  const seen = /* @__PURE__ */ new Set();
  for (const m of models2) {
    if (seen.has(m.model)) throw new Error(`model ${m.model} is given twice`);
    seen.add(m.model);
    for (const c of m.closes) if (!Number.isFinite(c.r) || !Number.isFinite(c.closed_at)) throw new Error(`model ${m.model} has a close that is not a number`);
  }
  const rows = models2.filter((m) => !m.synthetic).map((m) => rowOf(m, minTrades));
  const byName = (a, b) => a.model < b.model ? -1 : a.model > b.model ? 1 : 0;
  const ranked = rows.filter((r) => r.standing === "ranked").sort((a, b) => b.realized_r - a.realized_r || a.max_drawdown_r - b.max_drawdown_r || b.trades - a.trades || byName(a, b)).map((r, i) => ({ ...r, rank: i + 1 }));
  const unranked = rows.filter((r) => r.standing === "unranked").sort((a, b) => b.trades - a.trades || byName(a, b));
  return { min_trades: minTrades, ranked, unranked };
}

// tools/records/ladder.ts
async function pairedCloses2(ctx) {
  const models2 = [];
  for (const m of listable(ctx)) {
    await settledBook(ctx, m);
    const closes = trackRecord(ctx, m).trades.flatMap((t) => t.r === null ? [] : [{ closed_at: t.exit_t * 1e3, r: t.r }]);
    models2.push({ model: m.id, synthetic: m.model.synthetic === true, closes });
  }
  return models2;
}
var ladder = defineTool({
  name: "ladder",
  title: "The ladder",
  description: `Trading models ranked by the R they realized, from the book's paired closes (each closed trade paired from its fills), with each one's max drawdown in R, win rate and the count of closed trades the figures rest on. A model with fewer than ${MIN_TRADES} closed trades reads unranked (its figures shown, no rank), and one with none has no figures (null, never zero); synthetic book actors are never listed. A record is past fills, never a forecast: the same live fills and pairing as model_record. Needs no key.`,
  input: z106.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: LadderAnswer,
  access: "none",
  toolset: TOOLSETS.records,
  rest: { method: "GET", path: "/records/ladder", errors: [502, 503] },
  async run(ctx) {
    return { ok: true, ...ladderOf(await pairedCloses2(ctx)) };
  }
});

// tools/records/registry.ts
import { z as z107 } from "zod";
var registry = defineTool({
  name: "registry",
  title: "The registry",
  description: "One list of what is registered on the deck: each seller (kind seller: its endpoint, its card's address and the tools it serves) and each public algorithm of the onboarded register (kind algorithm: where it is documented, its market and timeframe, and where its exact script is read). The house's own strategies are sealed and not listed. Needs no key.",
  input: z107.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: RegistryAnswer,
  access: "none",
  toolset: TOOLSETS.records,
  rest: { method: "GET", path: "/records/registry" },
  async run(ctx) {
    const sellers = ctx.offer.sellers.map((s) => ({ kind: "seller", id: s.id, name: s.name, description: s.description, endpoint: s.endpoint, card_url: s.card_url, tools: s.tools }));
    const algorithms = register(ctx).filter((a) => !a.house).map((a) => ({
      kind: "algorithm",
      id: a.name,
      name: a.title,
      source: a.source,
      market: a.script.market,
      timeframe: a.script.timeframe,
      script_url: `${ctx.urls.base}/forge?onboard=${a.name}`
    }));
    return { ok: true, count: sellers.length + algorithms.length, entries: [...sellers, ...algorithms] };
  }
});

// tools/records/roadmap.ts
import { readFileSync as readFileSync3 } from "node:fs";
import { join as join5 } from "node:path";
import { z as z108 } from "zod";

// config/root.ts
import { existsSync } from "node:fs";
import { dirname as dirname2, join as join4 } from "node:path";
import { fileURLToPath } from "node:url";
function projectRoot() {
  for (let dir = dirname2(fileURLToPath(import.meta.url)); ; dir = dirname2(dir)) {
    if (existsSync(join4(dir, "package.json"))) return dir;
    if (dirname2(dir) === dir) throw new Error("no package.json above the deck's module, so no project root");
  }
}
var PROJECT_ROOT = projectRoot();

// tools/records/roadmap.ts
var SECTION = "## Not built yet";
function notBuiltOf(readme) {
  const lines = readme.replace(/\r\n/g, "\n").split("\n");
  const start = lines.indexOf(SECTION);
  if (start < 0) throw new Error(`README.md has no "${SECTION}" section for the roadmap`);
  const items = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("## ")) break;
    if (line.startsWith("- ")) items.push(line.slice(2).trim());
    else if (/^\s+\S/.test(line) && items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
  }
  if (items.length === 0) throw new Error(`README.md's "${SECTION}" section lists nothing`);
  return items;
}
var NOT_BUILT = notBuiltOf(readFileSync3(join5(PROJECT_ROOT, "README.md"), "utf8"));
var roadmap = defineTool({
  name: "roadmap",
  title: "The roadmap",
  description: `What the deck serves and what it does not yet, generated so it cannot drift: serves is every tool of the registry by area (its REST route's tag, or mcp for a tool served to agents only), with its route and whether agents reach it over MCP; not_built is the README's "Not built yet" list as written, each item with the names it gives in backticks. Needs no key.`,
  input: z108.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: RoadmapAnswer,
  access: "none",
  toolset: TOOLSETS.records,
  rest: { method: "GET", path: "/records/roadmap" },
  async run(ctx) {
    const listed = ctx.offer.tools;
    const areas = [...new Set(listed.map((t) => t.area))].sort();
    return {
      ok: true,
      serves: areas.map((area) => ({ area, tools: listed.filter((t) => t.area === area).map(({ area: _, ...t }) => t) })),
      not_built: NOT_BUILT.map((item) => ({ item, names: [...item.matchAll(/`([^`]+)`/g)].map((m) => m[1]) }))
    };
  }
});

// tools/skills/skill-read.ts
import { z as z110 } from "zod";

// services/skills/bank.ts
import { readdirSync, readFileSync as readFileSync4 } from "node:fs";
import { basename as basename2, join as join6 } from "node:path";
import { z as z109 } from "zod";
var FrontMatter = z109.strictObject({
  id: z109.string().regex(/^[a-z][a-z0-9-]{1,47}$/, "2 to 48 of a-z, 0-9 and -, starting with a letter"),
  title: z109.string().min(1).max(100),
  summary: z109.string().min(1).max(300),
  tools: z109.array(z109.string().regex(/^[a-z][a-z0-9_]*$/, "a tool name")).min(1, "names no tool")
});
var FENCE = "---";
function skillOf(file, raw) {
  const fail = (why) => new Error(`skill ${file}: ${why}`);
  const lines = raw.replace(/\r\n/g, "\n").split("\n");
  const end2 = lines.indexOf(FENCE, 1);
  if (lines[0] !== FENCE || end2 < 0) throw fail("it must open with a front matter between two --- lines");
  const fields = {};
  for (const line of lines.slice(1, end2)) {
    const m = /^([a-z]+):\s*(.*)$/.exec(line);
    if (!m) throw fail(`front matter line "${line}" is not "key: value"`);
    if (Object.hasOwn(fields, m[1])) throw fail(`front matter names ${m[1]} twice`);
    fields[m[1]] = m[2].trim();
  }
  const tools = fields.tools === void 0 ? void 0 : fields.tools.split(",").map((t) => t.trim()).filter(Boolean);
  const parsed = FrontMatter.safeParse({ ...fields, ...tools ? { tools } : {} });
  if (!parsed.success) throw fail(parsed.error.issues.map((i) => `${i.path.join(".") || "front matter"}: ${i.message}`).join("; "));
  const named3 = basename2(file, ".md");
  if (parsed.data.id !== named3) throw fail(`id ${parsed.data.id} is not the file's name (${named3})`);
  const text2 = lines.slice(end2 + 1).join("\n").trim();
  if (!text2) throw fail("it has no text after its front matter");
  return { ...parsed.data, text: `${text2}
` };
}
function loadSkills(dir) {
  const files = readdirSync(dir).filter((f) => f.endsWith(".md")).sort();
  if (files.length === 0) throw new Error(`skill bank ${dir}: no .md documents`);
  return files.map((f) => skillOf(join6(dir, f), readFileSync4(join6(dir, f), "utf8")));
}
var SKILLS = loadSkills(join6(PROJECT_ROOT, "skills"));
var skillById = (id) => SKILLS.find((s) => s.id === id) ?? null;

// tools/skills/skill-read.ts
var skillRead = defineTool({
  name: "skill_read",
  title: "Read a skill",
  description: "One skill of the bank by its id (the skills tool lists them): its title and its text in markdown. An unknown id is 404 naming the ids.",
  input: z110.object({ id: z110.string().min(1).max(64).describe("a skill id, as the skills tool lists it") }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "session",
  output: answer({ id: z110.string(), title: z110.string(), text: z110.string().describe("the skill in markdown") }),
  toolset: TOOLSETS.skills,
  rest: { method: "GET", path: "/skills/:id", errors: [404] },
  async run(_ctx, { id }) {
    const skill = skillById(id);
    if (!skill) {
      const ids = SKILLS.map((s) => s.id);
      throw new DeckError(404, "not_found", `no skill ${id}; the skills are ${ids.join(", ")}`, { skills: ids });
    }
    return { ok: true, id: skill.id, title: skill.title, text: skill.text };
  }
});

// tools/skills/skills.ts
import { z as z111 } from "zod";
var skills = defineTool({
  name: "skills",
  title: "The skill bank",
  description: "The studio's skills: short documents that tell an agent how to drive the studio step by step, with the real tools and their inputs (start with trading-workflow). Each is listed with its id, title, summary and the tools it uses; skill_read gives its text.",
  input: z111.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "session",
  output: answer({
    skills: z111.array(z111.object({ id: z111.string(), title: z111.string(), summary: z111.string(), tools: z111.array(z111.string()).describe("the tools it uses") }))
  }),
  toolset: TOOLSETS.skills,
  rest: { method: "GET", path: "/skills" },
  async run() {
    return { ok: true, skills: SKILLS.map(({ id, title, summary, tools }) => ({ id, title, summary, tools })) };
  }
});

// tools/studio/image-attach.ts
import { z as z113 } from "zod";

// services/studio/image-attach.ts
import { randomBytes as randomBytes11 } from "node:crypto";
import { z as z112 } from "zod";
var IMAGE_CAP_BYTES = 5 * 1024 * 1024;
var IMAGE_BODY_CAP = 8 * 1024 * 1024;
var IMAGE_CEILING = { free: 3, plan: 40, max: 40, house: 200 };
var KINDS = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" };
var ImageData = z112.string().transform((s) => s.replace(/^data:[^;,]*;base64,/, "").replace(/\s+/g, "")).pipe(z112.string().min(1, "no image").regex(/^[A-Za-z0-9+/_-]*={0,2}$/, "not base64"));
async function attachImage(ctx, data) {
  const p = ctx.principal;
  const read = await ctx.pool.run("imaging", { base64: data, cap: IMAGE_CAP_BYTES }, workAsk(ctx));
  if (!read.ok && read.why === "empty") throw badInput([{ field: "data", message: "no image" }]);
  if (!read.ok) throw new DeckError(413, "too_large", `the image is ${read.bytes} bytes; the cap is ${IMAGE_CAP_BYTES}`, { cap_bytes: IMAGE_CAP_BYTES });
  const ext = read.mime ? KINDS[read.mime] : void 0;
  if (!read.mime || !ext) {
    throw new DeckError(415, "unsupported_image", `PNG, JPEG, WebP or GIF only; these bytes are ${read.mime ?? "not a known image"}`, { found: read.mime });
  }
  const bytes = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
  const now = ctx.clock();
  const day = utcDay(now);
  const ceiling = IMAGE_CEILING[p.tier];
  const usedToday = (all) => all.filter((a) => a.day === day).length;
  const refuse2 = () => limitReached("ceiling_reached", `the ${p.tier} tier attaches ${ceiling} images a day`, secondsToNextUtcDay(now), { ceiling });
  if (usedToday(ctx.store.attachments.list(p.id)) >= ceiling) throw refuse2();
  const record = {
    id: `im_${randomBytes11(8).toString("hex")}`,
    mime: read.mime,
    bytes: bytes.length,
    sha256: read.sha256,
    day,
    created_at: ctx.clock()
  };
  await ctx.store.images.put(record.id, ext, bytes);
  const mine = await ctx.store.attachments.add(p.id, record, (all) => {
    if (usedToday(all) >= ceiling) throw refuse2();
  }).catch(async (error) => {
    await ctx.store.images.remove(record.id, ext);
    throw error;
  });
  await recordSpend(ctx, "image");
  return { ok: true, id: record.id, tier: p.tier, left_today: ceiling - usedToday(mine) };
}

// tools/studio/image-attach.ts
var imageAttach = defineTool({
  name: "image_attach",
  title: "Attach an image",
  description: `Attaches a chart or screenshot (PNG, JPEG, WebP or GIF, at most ${IMAGE_CAP_BYTES / 1048576} MiB) to your studio. The type is read from the bytes. Daily ceiling: free ${IMAGE_CEILING.free}, plan ${IMAGE_CEILING.plan}, house ${IMAGE_CEILING.house}.`,
  input: z113.object({ data: ImageData.describe("base64 image bytes (a data: URL is accepted too)") }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  output: ImageAttachAnswer,
  access: "session",
  toolset: TOOLSETS.studio,
  rest: { method: "POST", path: "/studio/image", errors: [413, 415, 429], maxBody: IMAGE_BODY_CAP },
  run: (ctx, { data }) => attachImage(ctx, data)
});

// tools/forge/forge.ts
import { z as z115 } from "zod";

// services/studio/forge-lanes.ts
import { z as z114 } from "zod";

// upstream/reader/funding.ts
function modelLaneFor(reader, tier, plans2) {
  if (!reader) return { reason: "not configured: set DECK_READER_URL", refusal: notConfigured("the model reader lane", "DECK_READER_URL") };
  if (tier === "house") return { reader, funded: "house" };
  if (opens(tier, "plan")) return { reader, funded: "plan" };
  const reason = `not funded on the ${tier} tier: take a plan (${plans2.join(", ")})`;
  return {
    reason,
    refusal: new DeckError(402, "no_reader_funding", `the model reader lane is ${reason}`, { fund: ["plan"], plans: plans2 })
  };
}

// services/studio/cast.ts
var fromWords = () => "intent";
var fromScript = (part) => `script.${part}`;
var engineFailure = (what2, error) => error instanceof DeckError ? error : new DeckError(500, "engine_failed", `${what2} failed: ${error.message}`, { step: what2 });
function engineStep(what2, step) {
  try {
    return step();
  } catch (error) {
    throw engineFailure(what2, error);
  }
}
var engineWork = (what2, work) => work.catch((error) => Promise.reject(engineFailure(what2, error)));
function refusalOf2({ part, message, hint }, fieldOf2) {
  const field = fieldOf2(part);
  return new DeckError(422, "bad_input", `${field}: ${message}`, { problems: [{ field, message }], part, ...hint !== void 0 ? { hint } : {} });
}
function deciderOf(script, fieldOf2) {
  const ir = engineStep("the decider IR", () => {
    try {
      return irOf(script);
    } catch (error) {
      if (!(error instanceof DeciderRefusal)) throw error;
      throw refusalOf2(error, fieldOf2);
    }
  });
  return { ir, seed_hash: engineStep("the seed hash", () => seedHash(ir, DECIDER_VERSION)) };
}
var readOnPool = (ctx, text2) => engineWork("the reader", ctx.pool.run("reading", text2, workAsk(ctx)));
async function forgeOnPool(ctx, script, source2, fieldOf2) {
  const outcome = await engineWork("the forge", ctx.pool.run("forging", { script, source: source2 }, workAsk(ctx)));
  if (outcome.ok) return outcome.forged;
  if ("refused" in outcome) throw refusalOf2(outcome.refused, fieldOf2);
  throw new DeckError(500, "engine_failed", outcome.failed.message, { step: outcome.failed.step });
}

// services/studio/forge-lanes.ts
var LANES = ["embedded", "model"];
var LaneInput = z114.enum(LANES).optional().describe("the reader: embedded (the default; deterministic, the controlled vocabulary) or model (an OpenAI-compatible reader; see forge_lanes)");
var modelLane = (ctx) => modelLaneFor(
  ctx.upstreams.reader,
  ctx.principal.tier,
  ctx.offer.plans.plans.filter((x) => opens(x.tier, "plan")).map((x) => x.id)
);
async function readWith(ctx, text2, lane) {
  if (lane === "embedded") return noteUnsaid(await readOnPool(ctx, text2));
  const open3 = modelLane(ctx);
  if ("refusal" in open3) throw open3.refusal;
  const reading = await open3.reader.read(text2, ctx.ended());
  await recordSpend(ctx, "read_model");
  return noteUnsaid(withHints(withDefaults(reading)));
}

// services/studio/forge.ts
var FORGE_PAYLOAD_CAP = 256 * 1024;
var FORGE_KEPT_MS = 2 * 60 * 60 * 1e3;
var FORGES_PER_DAY = { free: 3, plan: null, max: null, house: null };
var SCRIPT_LISTED = {
  type: "object",
  description: "a script block (script.v1: market, timeframe, session, side, entry, stop, exit): pass the script a forge answered, or an example from forge_onboard. Its full JSON Schema is the POST /forge body in the deck's OpenAPI document (GET /openapi.json); skill_read strategy-compile explains it."
};
var forgesPerDay = (ctx, tier) => ctx.payment || tier === "free" && ctx.config.profile === "local" ? null : FORGES_PER_DAY[tier];
var SCRIPT_BOUNDS = { depth: 32, entries: 16384 };
var tierLimit = (tier, limit, now) => limitReached("forge_limit", `the ${tier} tier casts ${limit} forges a day; they are cast already today`, secondsToNextUtcDay(now), { tier, per_day: limit });
async function toForge(ctx, input) {
  if (input.script) return { script: input.script, source: { script: input.script }, fieldOf: fromScript };
  const reading = await readWith(ctx, input.intent, input.lane ?? "embedded");
  const got = scriptOfReading(reading);
  if (got.ok) return { script: got.script, source: { text: input.intent, parts: reading }, fieldOf: fromWords };
  throw new DeckError(422, "bad_input", `intent: ${got.message}`, { problems: [{ field: "intent", message: got.message }], parts: got.refused });
}
var forgeRule = (ctx, input) => ctx.guards.run("forge_cast", ctx.principal.id, async () => cast(ctx, input, await foreseeForge(ctx, input)));
async function foreseeForge(ctx, input) {
  const p = ctx.principal;
  const bytes = Buffer.byteLength(JSON.stringify(input));
  if (bytes > FORGE_PAYLOAD_CAP) throw new DeckError(413, "too_large", `the forge request is ${bytes} bytes; the cap is ${FORGE_PAYLOAD_CAP}`, { cap_bytes: FORGE_PAYLOAD_CAP });
  const now = ctx.clock();
  const limit = forgesPerDay(ctx, p.tier);
  if (limit !== null && ctx.store.forges.castsOn(p.id, utcDay(now)) >= limit) throw tierLimit(p.tier, limit, now);
  const what2 = await toForge(ctx, input);
  deciderOf(what2.script, what2.fieldOf);
  return what2;
}
async function cast(ctx, input, what2) {
  const p = ctx.principal;
  const now = ctx.clock();
  const day = utcDay(now);
  const limit = forgesPerDay(ctx, p.tier);
  const { script } = what2;
  const { seed_hash, version, code, watermark, review: reviewed, scan: scanned } = await forgeOnPool(ctx, script, what2.source, what2.fieldOf);
  await ctx.store.forges.keep(
    p.id,
    { id: seed_hash, version, intent: input.intent, author: input.author ?? null, script, code, review: reviewed, scan: scanned, created_at: now, expires_at: now + FORGE_KEPT_MS },
    day,
    (today2) => {
      if (limit !== null && today2 >= limit) throw tierLimit(p.tier, limit, now);
    }
  );
  await ctx.store.trials.note(p.id, script.market, script.timeframe, seed_hash);
  await recordSpend(ctx, "forge");
  return { ok: true, seed_hash, version, code, watermark, script, review: reviewed, scan: scanned, ...await tapeWarnings(ctx, script.market, script.timeframe) };
}

// tools/forge/forge.ts
var forge = defineTool({
  name: "forge",
  title: "Forge a rule",
  description: `Forges a rule into a deterministic state machine: the words (intent) are read into seven parts and become a script block, or the script block you bring is used as it is (its schema is script.v1); the script becomes a decider IR and then the TypeScript source of a pure decide function, watermarked with the seed hash and version (verifiable from the code), with a self-review in nine named classes (each passed or flagged with its line) and a scan that traces every number, indicator, market, time and side in the code to the words or the script block and flags anything else as invented. seed_hash is the hash of the canonical IR and the version: the same intent gives the same seed_hash and the same code, byte for byte. Kept for you for two hours, looked up by seed_hash. Free tier: ${FORGES_PER_DAY.free} forges a day. One cast at a time. lane chooses who reads the intent: embedded (the default, deterministic) or model (an OpenAI-compatible reader, refused whole, 502, unless its reading passes the same schema and cites the intent; 503 when not configured, 402 when your tier does not fund it). Equal readings forge the same seed_hash.`,
  input: z115.object({
    intent: z115.string().min(1, "no words").describe("the rule in plain words"),
    author: z115.string().min(1).max(120).optional().describe("who states the rule, kept with the forge"),
    script: ScriptSchema.optional().describe("a script block (script.v1) to forge instead of reading the words"),
    lane: LaneInput
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: ForgeAnswer,
  listed: { properties: { script: SCRIPT_LISTED } },
  access: "session",
  toolset: TOOLSETS.forge,
  rest: { method: "POST", path: "/forge", maxBody: FORGE_PAYLOAD_CAP, bounds: SCRIPT_BOUNDS, errors: [402, 413, 429, 500, 502, 503] },
  guard: "forge_cast",
  foresee: (ctx, input) => foreseeForge(ctx, input),
  run: (ctx, input, what2) => cast(ctx, input, what2)
});

// tools/forge/forge-onboard.ts
import { z as z116 } from "zod";
var forgeOnboard = defineTool({
  name: "forge_onboard",
  title: "An onboarded algorithm",
  description: "The intent and exact script block of an algorithm in the onboarded register (documented examples: see the strategies tool), ready to forge as they are. The house's own strategies are sealed: they answer 404.",
  input: z116.object({ onboard: z116.string().min(1).max(64).describe("the algorithm's name") }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ForgeOnboardAnswer,
  access: "session",
  toolset: TOOLSETS.forge,
  rest: { method: "GET", path: "/forge", errors: [404] },
  async run(ctx, { onboard }) {
    const { name, title, source: source2, intent, script } = onboarded(ctx, onboard);
    return { ok: true, name, title, source: source2, intent, script };
  }
});

// tools/studio/forge-read.ts
import { z as z118 } from "zod";

// services/studio/forge-read.ts
import { z as z117 } from "zod";
var SeedHash = z117.string().regex(/^[0-9a-f]{64}$/, "a seed hash: 64 lowercase hex digits");
function myForge(ctx, seed) {
  const found = ctx.store.forges.get(ctx.principal.id, seed, ctx.clock());
  if (!found) throw new DeckError(404, "not_found", "no forge of yours has this seed hash in the last two hours");
  return found;
}

// tools/studio/forge-read.ts
var forgeRead = defineTool({
  name: "forge_read",
  title: "Read a forge",
  description: "Your forge by its seed hash, for two hours after its cast: its code, the nine-class self-review and the scan. Another principal's seed reads as no forge (404).",
  input: z118.object({ seed: SeedHash.describe("the seed_hash the forge returned") }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ForgeReadAnswer,
  access: "session",
  toolset: TOOLSETS.studio,
  rest: { method: "GET", path: "/studio/forge", errors: [404] },
  async run(ctx, { seed }) {
    const f = myForge(ctx, seed);
    return {
      ok: true,
      seed_hash: f.id,
      version: f.version,
      code: f.code,
      review: f.review,
      scan: f.scan,
      expires_at: new Date(f.expires_at).toISOString()
    };
  }
});

// tools/studio/grade.ts
import { z as z122 } from "zod";

// upstream/grader/funding.ts
import { z as z119 } from "zod";
var GRADER_KEY_SHAPE = /^sk-[A-Za-z0-9_-]{20,200}$/;
var GraderKey = z119.string().regex(GRADER_KEY_SHAPE, "not shaped like a grader key: sk- then 20 to 200 letters, digits, _ or -").describe("your own key for the grader lane (sk-...): the decision is asked with it and your trial pings and plan are not used; never kept");
var noFunding = (message, fund, ask) => new DeckError(402, "no_grader_funding", message, {
  fund,
  ...fund.includes("plan") ? { plans: ask.plans } : {},
  trial_pings: { limit: ask.trial.limit, used: ask.trial.used }
});
function fundingOf(ask) {
  const g = ask.grader;
  if (!g) throw notConfigured("the grader lane", "DECK_GRADER_URL (an OpenAI-compatible chat-completions endpoint)");
  if (ask.ownKey) return { lane: { url: g.url, key: ask.ownKey, model: g.model }, funded: "own_key" };
  if (!g.key) throw noFunding("the deck holds no grader key of its own: bring yours as grader_key", ["grader_key"], ask);
  const lane = { url: g.url, key: g.key, model: g.model };
  if (ask.tier === "house") return { lane, funded: "house" };
  if (opens(ask.tier, "plan")) return { lane, funded: "plan" };
  if (ask.trial.used < ask.trial.limit) return { lane, funded: "trial" };
  throw pingsSpent(ask);
}
var pingsSpent = (ask) => noFunding(
  `your ${ask.trial.limit} trial pings of the grader are used: bring your own grader key as grader_key, or take a plan (${ask.plans.join(", ")})`,
  ["grader_key", "plan"],
  ask
);

// upstream/grader/answer.ts
import { z as z120 } from "zod";
var TopLogprob = z120.object({ token: z120.string(), logprob: z120.number() });
var Choice = z120.object({
  message: z120.object({ content: z120.string().nullish(), refusal: z120.string().nullish() }),
  logprobs: z120.object({ content: z120.array(z120.object({ token: z120.string(), logprob: z120.number(), top_logprobs: z120.array(TopLogprob).nullish() })).nullish() }).nullish()
});
var Completion = z120.object({ choices: z120.array(Choice).min(1) });
var MIN_ON_SCALE = 0.5;
var zero = () => ({ yes: 0, partly: 0, no: 0 });
var nonsense = (why) => ({ ok: false, kind: "nonsense", why });
function readAnswer(body) {
  const parsed = Completion.safeParse(body);
  if (!parsed.success) return nonsense("the answer is not a chat completion with choices");
  const choices = parsed.data.choices;
  if (choices.some((c) => c.message.refusal)) return { ok: false, kind: "refused", why: "the grader refused the question" };
  const top = choices[0].logprobs?.content?.[0]?.top_logprobs;
  if (top && top.length > 0) {
    const mass = zero();
    for (const t of top) {
      const a = answerOf4(t.token);
      if (a) mass[a] += Math.exp(t.logprob);
    }
    const on = ANSWERS.reduce((s, a) => s + mass[a], 0);
    if (!(on >= MIN_ON_SCALE)) return nonsense(`only ${on.toFixed(3)} of the first token's probability is yes, partly or no`);
    return { ok: true, measured: { distribution: distributionOf(mass), source: "logprobs", samples: null } };
  }
  const counts = zero();
  let counted2 = 0;
  for (const c of choices) {
    const first = (c.message.content ?? "").trim().split(/\s+/)[0] ?? "";
    const a = answerOf4(first);
    if (a) {
      counts[a] += 1;
      counted2 += 1;
    }
  }
  if (counted2 === 0 || counted2 < MIN_ON_SCALE * choices.length) return nonsense(`${counted2} of ${choices.length} samples answer yes, partly or no`);
  return { ok: true, measured: { distribution: distributionOf(counts), source: "samples", samples: choices.length } };
}

// upstream/grader/chat.ts
var SAMPLES = 5;
var TOP_LOGPROBS = 5;
var TIMEOUT_MS = 3e4;
var UPSTREAM = "the grader";
var requestOf = (model, messages) => ({
  model,
  messages,
  max_tokens: 1,
  temperature: 1,
  n: SAMPLES,
  logprobs: true,
  top_logprobs: TOP_LOGPROBS
});
function refusalOf3(status, body) {
  const error = typeof body === "object" && body !== null && "error" in body ? body.error : null;
  const field = (k) => {
    const v = typeof error === "object" && error !== null ? error[k] : void 0;
    return typeof v === "string" && /^[\w.-]{1,64}$/.test(v) ? v : null;
  };
  return { status, type: field("type"), code: field("code") };
}
async function askClosed(lane, messages, ended) {
  const answer3 = await callJson(UPSTREAM, `${lane.url.replace(/\/$/, "")}/chat/completions`, {
    method: "POST",
    body: requestOf(lane.model, messages),
    token: lane.key,
    timeoutMs: TIMEOUT_MS,
    ended
  });
  if (answer3.status < 200 || answer3.status >= 300) {
    throw new DeckError(502, "grader_refused", `the grader refused the question (HTTP ${answer3.status})`, { upstream: UPSTREAM, grader: refusalOf3(answer3.status, answer3.body) });
  }
  const read = readAnswer(answer3.body);
  if (read.ok) return read.measured;
  if (read.kind === "refused") throw new DeckError(502, "grader_refused", read.why, { upstream: UPSTREAM });
  throw new DeckError(502, "grader_nonsense", `the grader answered nonsense: ${read.why}`, { upstream: UPSTREAM });
}

// services/studio/rehearse.ts
import { z as z121 } from "zod";

// services/studio/stepper.ts
var count = (n) => n.toLocaleString("en-US");
var wordsOf = (step) => {
  switch (step.phase) {
    case "queued":
      return `waiting for a turn in the work pool (${count(step.ahead)} job${step.ahead === 1 ? "" : "s"} ahead)`;
    case "running":
      return "running in the work pool";
    case "stepping":
      return `stepping the rule over ${count(step.bars)} bars`;
    case "null":
      return `running the random null: ${count(step.runs)} runs`;
    case "verdict":
      return "weighing the verdict: the neighbours, PBO, SPA, Monte Carlo";
    case "folds":
      return `cutting ${step.folds} walk-forward folds`;
  }
};
var compiled = (ir, seed) => void engineStep("the decider compiler", () => compileDecider(ir, seed, DECIDER_VERSION));
async function stepOver(ctx, script, ir, seed, w, folds) {
  const marks = ctx.store.marks.list(ctx.principal.id).filter((m) => m.market === ir.market).map((m) => ({ kind: m.kind, price: m.price, ...m.price2 !== void 0 ? { price2: m.price2 } : {} }));
  const trials = ctx.store.trials.others(ctx.principal.id, ir.market, ir.timeframe, seed);
  let rehearsal;
  try {
    const options = { from: w.from, marks, ...folds !== void 0 ? { folds } : {}, verdict: { script, version: DECIDER_VERSION, trials } };
    const progress = ctx.progress;
    const hear = progress ? { hear: (step) => progress(wordsOf(step)) } : {};
    rehearsal = await ctx.pool.run("rehearsal", { ir, seed, version: DECIDER_VERSION, bars: w.bars, options }, { ...workAsk(ctx), ...hear });
  } catch (error) {
    if (error instanceof DeckError) throw error;
    throw new DeckError(500, "stepper_failed", `the stepper failed: ${error.message}`);
  }
  await ctx.store.trials.note(ctx.principal.id, ir.market, ir.timeframe, seed, rehearsal.verdict?.deflated_sharpe.sharpe ?? null);
  return rehearsal;
}
async function meterSteps(ctx, action, r) {
  const bars = r.window.bars + r.window.warm_up_bars;
  await recordSpend(ctx, action, bars);
}

// services/studio/rehearse.ts
var rehearsalDigest = (answer3) => sha256(JSON.stringify(answer3));
var RehearsalDigest = z121.string().regex(/^[0-9a-f]{64}$/, "a rehearsal digest: 64 lowercase hex digits, sha256 of the rehearsal's JSON answer");
var Folds = int.refine((k) => k >= 2 && k <= MAX_FOLDS, `2 to ${MAX_FOLDS}`);
var rehearseForge = async (ctx, input) => rehearsed(ctx, input, await foreseeRehearsal(ctx, input));
async function foreseeRehearsal(ctx, input) {
  const forge2 = myForge(ctx, input.seed_hash);
  const market = input.market ?? forge2.script.market;
  const script = { ...forge2.script, market };
  const { ir } = deciderOf(script, () => "market");
  compiled(ir, forge2.id);
  if (input.plate) refuseSealsUsed(ctx);
  const to = await windowEnd(ctx, market, ir.timeframe, input.to);
  ctx.progress?.(`reading the tape: ${market} ${ir.timeframe}`);
  const w = await windowBars(ctx, { market, tf: ir.timeframe, to, hours: input.hours ?? DEFAULT_HOURS, warmUpBars: ir.warm_up_bars * LONGEST_WARM_UP });
  return { forge: forge2, script, ir, w };
}
async function rehearsed(ctx, input, { forge: forge2, script, ir, w }) {
  const rehearsal = await stepOver(ctx, script, ir, forge2.id, w, input.folds);
  if (input.plate) ctx.progress?.("drawing and sealing the plate");
  const drawn2 = input.plate ? drawing(() => renderRehearsalPlate({ rehearsal, ir, bars: w.bars })) : null;
  const stateJson = drawn2 && JSON.stringify(drawn2.state);
  const plate = drawn2 && stateJson && await sealPlate(ctx, plateId(drawn2.png, stateJson), drawn2.png, stateJson);
  ctx.progress?.("recording the rehearsal");
  await meterSteps(ctx, "rehearse", rehearsal);
  const answer3 = { ok: true, seed_hash: forge2.id, ...rehearsal, ...plate ? { plate: { id: plate.id, path: plate.path, png: plate.png, json: plate.json } } : {} };
  const digest2 = rehearsalDigest(answer3);
  const kept = { ...keptOf(forge2.id, digest2, rehearsal, w.bars), ...plate ? { plate: plate.id } : {} };
  await ctx.store.grades.keepRehearsal(ctx.principal.id, kept, ctx.clock(), forge2.expires_at);
  return { answer: answer3, digest: digest2 };
}

// services/studio/judging.ts
async function rehearsalToJudge(ctx, forge2, digest2) {
  const pick = pickRehearsal(ctx.store.grades.rehearsals(ctx.principal.id, forge2.id, ctx.clock()), forge2.script.market, digest2 ?? null);
  if (pick && !pick.kept) return pick;
  const kept = pick && await ctx.store.grades.whole(pick.kept);
  if (pick && kept) return { kept, chosen: pick.chosen };
  if (digest2 === void 0) return { kept: null, why: NONE_KEPT };
  throw new DeckError(
    404,
    "rehearsal_not_found",
    `rehearsal_digest: no rehearsal of this seed with that digest is kept for you (a seed keeps its last ${REHEARSALS_KEPT} rehearsals, as long as its forge): rehearse it again`,
    { field: "rehearsal_digest" }
  );
}
var judgedOf = (kept, chosen) => ({
  digest: kept.digest,
  chosen,
  market: kept.market,
  timeframe: kept.timeframe,
  from: kept.window.from,
  to: kept.window.to,
  trades: kept.trades.length
});
var codeInWordsOf = (forge2) => inWords(deciderOf(forge2.script, fromScript).ir);
var shownOf = (context, codeInWords) => ({ digest: sha256(context), code_in_words: codeInWords });
var RehearsalToJudge = RehearsalDigest.optional().describe(
  "the rehearsal to judge, by its digest (sha256 of the rehearsal's JSON answer; the studio record's rehearsal.digest); default: the latest rehearsal of this seed on the rule's own market"
);
async function spendDecision(ctx, ownKey, action, questions, messagesOf) {
  const p = ctx.principal;
  const grades = ctx.store.grades;
  const ask = {
    grader: ctx.config.grader,
    tier: p.tier,
    ownKey,
    trial: { limit: ctx.config.graderTrialPings, used: grades.pingsUsed(p.id) },
    plans: ctx.offer.plans.plans.filter((x) => opens(x.tier, "plan")).map((x) => x.id)
  };
  const { lane, funded } = fundingOf(ask);
  let used = null;
  if (funded === "trial") {
    used = await grades.takePing(p.id, (now) => {
      if (now >= ask.trial.limit) throw pingsSpent({ ...ask, trial: { ...ask.trial, used: now } });
    });
  }
  let answers2;
  try {
    answers2 = await Promise.all(questions.map(async (q) => answered(q, await askClosed(lane, messagesOf(q), ctx.ended()))));
  } catch (error) {
    if (used !== null) await grades.givePing(p.id);
    throw error;
  }
  await recordSpend(ctx, action);
  return { grader: { model: lane.model, funded, answers: answers2 }, trial_pings_left: used === null ? null : ask.trial.limit - used };
}
var receiptOf = (entry, rec) => {
  const { principal_id: _, ...body } = entry;
  return { ...body, receipt_hash: rec.hash, prev_hash: rec.prev, seq: rec.seq, at: new Date(rec.at).toISOString() };
};

// services/studio/grade.ts
async function gradeForge(ctx, input) {
  const p = ctx.principal;
  const forge2 = myForge(ctx, input.seed_hash);
  const pick = await rehearsalToJudge(ctx, forge2, input.rehearsal_digest);
  const facts = gradeFacts(forge2, pick);
  let shown2 = null;
  let spent = null;
  if (facts.every((f) => f.held)) {
    const code = codeInWordsOf(forge2);
    const context = gradeContext(forge2.intent, forge2.script, code);
    spent = await spendDecision(ctx, input.grader_key ?? null, "grade", GRADE_QUESTIONS, (q) => questionMessages(context, q));
    shown2 = shownOf(context, code);
  }
  const answers2 = spent?.grader.answers ?? null;
  const { decision, reasons } = decide(facts, answers2, GRADE_QUESTIONS);
  const subject = { seed_hash: forge2.id, version: forge2.version, words_sha256: sha256(forge2.intent) };
  const judged = pick.kept ? { rehearsal_digest: pick.kept.digest } : {};
  const entry = {
    principal_id: p.id,
    rubric: RUBRIC_VERSION,
    ...subject,
    decision,
    rehearsal: pick.kept ? judgedOf(pick.kept, pick.chosen) : null,
    facts,
    grader: spent?.grader ?? null,
    shown: shown2,
    reasons,
    decision_digest: decisionDigest({ rubric: RUBRIC_VERSION, subject: { ...subject, ...judged }, facts, answers: answers2, outcome: decision })
  };
  const rec = await ctx.store.grades.receipt(entry, ctx.clock());
  return { ok: true, ...receiptOf(entry, rec), ...spent && spent.trial_pings_left !== null ? { trial_pings_left: spent.trial_pings_left } : {} };
}

// tools/studio/grade.ts
var grade = defineTool({
  name: "grade",
  title: "Grade a forge",
  description: `Grades your forge's fidelity to your words under ${RUBRIC_VERSION}, never its profitability. Facts first, by code: the seven parts, a stop, a clean self-review and scan, an intact watermark, a rehearsal of this seed whose trades obey its stop, sides and ways out (the rehearsal named by rehearsal_digest, else the latest of this seed on the rule's own market; the receipt names it); a failed fact is a reject receipt and the grader is never asked (nothing spent). Otherwise one grader decision is spent: eight closed questions (yes / partly / no) about the words against the forged rule (its script and its code in plain words), each answered as a distribution, and code composes accept, revise or reject. Funded by your own grader key (grader_key), the house, your plan, or a trial ping on the free tier; 402 names what would fund it; 503 when no grader lane is configured, nothing spent. The receipt: the rehearsal judged, every fact and distribution, what the grader was shown (its digest and the code in plain words), the reasons, the decision digest and the receipt hash, chained in the grade ledger.`,
  input: z122.object({
    seed_hash: SeedHash.describe("the seed_hash your forge returned"),
    rehearsal_digest: RehearsalToJudge,
    grader_key: GraderKey.optional()
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: GradeAnswer,
  access: "session",
  toolset: TOOLSETS.studio,
  rest: { method: "POST", path: "/studio/grade", errors: [402, 404, 502, 503] },
  run: (ctx, input) => gradeForge(ctx, input)
});

// tools/forge/forge-lanes.ts
import { z as z123 } from "zod";
var forgeLanes = defineTool({
  name: "forge_lanes",
  title: "Reader lanes",
  description: "The readers this session may use to read a rule into its seven parts (workflow_read and forge take lane: embedded or model): the embedded lane (a deterministic reader of a documented controlled vocabulary, always available) and the model lane (an OpenAI-compatible reader whose reading must pass the same schema and cite words present in the text, or it is refused whole), each with available and, when unavailable, the reason (not configured, or not funded on your tier and what would fund it).",
  input: z123.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ForgeLanesAnswer,
  access: "session",
  toolset: TOOLSETS.forge,
  rest: { method: "GET", path: "/forge/lanes" },
  async run(ctx) {
    const model = modelLane(ctx);
    return {
      ok: true,
      lanes: [
        {
          id: "embedded",
          kind: "grammar",
          available: true,
          what: "a deterministic reader of the controlled vocabulary (indicators, comparisons and crosses, sessions, stops and targets): the same words give the same parts"
        },
        {
          id: "model",
          kind: "openai-compatible",
          what: "an OpenAI-compatible reader for what the grammar cannot read: its reading must pass the same schema and every span must quote the text, or it is refused whole",
          ..."refusal" in model ? { available: false, reason: model.reason } : { available: true, model: model.reader.lane.model, funded: model.funded }
        }
      ]
    };
  }
});

// tools/studio/rehearse.ts
import { z as z124 } from "zod";

// services/studio/trades-page.ts
var MCP_TRADES = 50;
var TradesPage = {
  trades_from: int.refine((n) => n >= 0, "at least 0").optional().describe("the first trade to show, counted from 0"),
  trades_limit: int.refine((n) => n >= 1, "at least 1").optional().describe(`at most this many trades from trades_from (over MCP ${MCP_TRADES} unless told); the same call from trades_page.next reads on, rehearsing the same envelope again`)
};
var TRADES_MCP_DEFAULTS = { trades_limit: MCP_TRADES };
function pagedTrades(answer3, page) {
  if (page.trades_from === void 0 && page.trades_limit === void 0) return answer3;
  const from = page.trades_from ?? 0;
  const to = page.trades_limit === void 0 ? answer3.trades.length : Math.min(answer3.trades.length, from + page.trades_limit);
  const trades = answer3.trades.slice(from, to);
  return { ...answer3, trades, trades_page: { from, shown: trades.length, total: answer3.trades.length, next: to < answer3.trades.length ? to : null } };
}

// services/studio/rehearsal-links.ts
var SCHEME = "deck://rehearsals/";
var tradesUri = (digest2) => `${SCHEME}${digest2}/trades`;
var plateUri = (digest2) => `${SCHEME}${digest2}/plate`;
var LINKING_TOOL = "rehearse";
var TRADES = {
  name: "rehearsal-trades",
  title: "A rehearsal's trades",
  description: "Every trade of one of your rehearsals ({ side, entry_t, entry, stop, exit_t, exit, r, why }), with its market, timeframe and window, as JSON.",
  mimeType: "application/json"
};
var PLATE = {
  name: "rehearsal-plate",
  title: "A rehearsal's plate",
  description: "The sealed plate of one of your rehearsals asked with plate: true (price with entries and exits, equity in R, the null), as PNG.",
  mimeType: "image/png"
};
var REHEARSAL_TEMPLATES = [
  { uriTemplate: `${SCHEME}{rehearsal_digest}/trades`, ...TRADES },
  { uriTemplate: `${SCHEME}{rehearsal_digest}/plate`, ...PLATE }
];
var rehearsalLinks = (digest2, plate) => [
  { uri: tradesUri(digest2), ...TRADES },
  ...plate ? [{ uri: plateUri(digest2), ...PLATE }] : []
];
var KEPT_FOR = `a rehearsal is kept as long as its forge, the last ${REHEARSALS_KEPT} of each seed`;
async function readRehearsalPart(ctx, uri) {
  if (!uri.startsWith(SCHEME)) return null;
  if (!ctx.principal) return { kind: "join_required" };
  const [digest2, part, ...rest] = uri.slice(SCHEME.length).split("/");
  if (!digest2 || !/^[0-9a-f]{64}$/.test(digest2) || part !== "trades" && part !== "plate" || rest.length > 0) {
    return { kind: "not_found", message: `no resource ${uri}: a rehearsal's parts are ${REHEARSAL_TEMPLATES.map((t) => t.uriTemplate).join(" and ")}, rehearsal_digest 64 lowercase hex digits` };
  }
  const notKept = { kind: "not_found", message: `no rehearsal ${digest2} of yours is kept (${KEPT_FOR}): rehearse again to read it` };
  const kept = ctx.store.grades.rehearsal(ctx.principal.id, digest2, ctx.clock());
  if (!kept) return notKept;
  if (part === "trades") {
    const whole = await ctx.store.grades.whole(kept);
    if (!whole) return notKept;
    const trades = whole.trades.map(({ exit_open: _witness, ...trade }) => trade);
    const body = { rehearsal_digest: digest2, seed_hash: kept.id, market: kept.market, timeframe: kept.timeframe, window: kept.window, trades };
    return { kind: "contents", contents: [{ uri, mimeType: TRADES.mimeType, text: JSON.stringify(body) }] };
  }
  const png = kept.plate ? await ctx.store.plates.read(kept.plate, "png") : null;
  if (!png) return { kind: "not_found", message: `rehearsal ${digest2} drew no plate: rehearse with plate: true to seal one` };
  return { kind: "contents", contents: [{ uri, mimeType: PLATE.mimeType, blob: png.toString("base64") }] };
}

// tools/studio/rehearse.ts
var rehearseTool = defineTool({
  name: "rehearse",
  title: "Rehearse a forge",
  description: `Rehearses your forge (by seed_hash, within its two hours) over the tape: hours (default ${DEFAULT_HOURS}) counted back from to (unix seconds) or, without it, from the newest bar the tape holds for the market, so archived history can be rehearsed. The envelope: every trade ({ side, entry_t, entry, stop, target, exit_t, exit, r, why }), where the rule could first decide and why bars could not trade (window.ready_at, window.idle), R statistics (n, win rate, expectancy, total R, max drawdown in R, profit factor), a seeded random-entry null (the rule's percentile, p = (k+1)/(N+1)), walk-forward folds when asked, a verdict on luck and overfitting (deflated Sharpe after your trials, neighbours' PBO, SPA, Monte Carlo, break-even cost, bias checks) and a summary: evidence about the past, never a forecast. The same seed and window give the same bytes; the answer's sha256 names it: grade and score take it as rehearsal_digest. Over MCP the first ${MCP_TRADES} trades come, with trades_page and the rehearsal_digest (trades_from and trades_limit page them), and resource links to every trade and the plate. With plate: true it also answers its plate, sealed like POST /plates: price with the rule's own indicators, session, stops and targets and every entry and exit, equity in R, the null's totals with the rule's marked; plate names it ({ id, path, png, json }). The same rehearsal draws the same bytes.`,
  input: z124.object({
    seed_hash: SeedHash.describe("the seed_hash your forge returned"),
    market: z124.enum(MARKETS).optional().describe("the market to rehearse on (default: the one the rule named)"),
    hours: Hours,
    to: unixTime.optional().describe("the window's end, unix seconds or ISO-8601 UTC, not in the future (floored to the bar); default: the newest bar the tape holds"),
    folds: Folds.optional().describe("walk-forward folds to cut the window into"),
    ...TradesPage,
    plate: z124.boolean().optional().describe("true: answer a sealed plate of the rehearsal too (price with the rule's indicators, session, stops, targets, entries and exits, equity in R, where the rule falls in the random null)")
  }).strict(),
  mcpDefaults: TRADES_MCP_DEFAULTS,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: RehearseAnswer,
  access: "session",
  toolset: TOOLSETS.studio,
  rest: { method: "POST", path: "/studio/rehearse", errors: [404, 429, 500, 502, 503] },
  foresee: (ctx, input) => foreseeRehearsal(ctx, input),
  async run(ctx, input, foreseen) {
    const { answer: answer3, digest: digest2 } = await rehearsed(ctx, input, foreseen);
    const paged = pagedTrades(answer3, input);
    const shown2 = paged === answer3 ? answer3 : { ...paged, rehearsal_digest: digest2 };
    const links = rehearsalLinks(digest2, answer3.plate !== void 0);
    return new WithLinks(shown2, summaryText(answer3, digest2, paged.trades.length, links), links);
  }
});
function summaryText(answer3, digest2, shown2, links) {
  const where = links.map((l) => `${l.name} ${l.uri}`).join(", ");
  return `${answer3.summary}
rehearsal_digest ${digest2} (grade and score take it). structuredContent holds the answer with ${shown2} of its ${answer3.trades.length} trade${answer3.trades.length === 1 ? "" : "s"}; read the rest with resources/read: ${where}.`;
}

// tools/studio/score.ts
import { z as z126 } from "zod";

// services/studio/words.ts
import { z as z125 } from "zod";
var WORDS_CAP = 4e3;
var RuleWords = z125.string().min(1, "no words").describe(`the rule in plain words, at most ${WORDS_CAP} characters`);
function withinWordsCap(text2, field) {
  if (text2.length > WORDS_CAP) {
    throw new DeckError(413, "too_large", `${field} is ${text2.length} characters; the studio words cap is ${WORDS_CAP}`, { field, cap_chars: WORDS_CAP });
  }
  return text2;
}

// tools/studio/score.ts
var PART_QUESTIONS = PARTS.map(partQuestion);
async function judgeParts(ctx, text2, ownKey) {
  if (text2 === void 0) throw badInput([{ field: "text", message: "stage parts scores the reading of words: send them as text" }]);
  const words2 = withinWordsCap(text2, "text");
  const reading = await readOnPool(ctx, words2);
  const facts = partFacts(reading, citationProblems(words2, reading));
  const cited = facts.find((f) => f.name === "citations").held;
  const asked = cited ? PART_QUESTIONS.filter((q) => isSettled(reading[q.id].status)) : [];
  const spent = asked.length ? await spendDecision(ctx, ownKey, "score", asked, (q) => partMessages(words2, reading, q.id, q)) : null;
  return { stage: "parts", subject: { words_sha256: sha256(words2) }, facts, questions: PART_QUESTIONS, n: PARTS.length, spent };
}
async function judgeRehearsed(ctx, seed, digest2, ownKey) {
  if (seed === void 0) throw badInput([{ field: "seed_hash", message: "stage rehearsed scores the rehearsal of a forge: send its seed_hash" }]);
  const forge2 = myForge(ctx, seed);
  const pick = await rehearsalToJudge(ctx, forge2, digest2);
  if (!pick.kept) throw new DeckError(409, "not_rehearsed", `the rehearsed stage needs a rehearsal first: ${pick.why}`, { seed_hash: forge2.id });
  const kept = pick.kept;
  const facts = rehearsedFacts(forge2.script, kept);
  let shown2 = null;
  let spent = null;
  if (facts.every((f) => f.held)) {
    const code = codeInWordsOf(forge2);
    const context = rehearsedContext(forge2.intent, forge2.script, code, kept);
    spent = await spendDecision(ctx, ownKey, "score", REHEARSED_QUESTIONS, (q) => questionMessages(context, q));
    shown2 = shownOf(context, code);
  }
  const subject = { seed_hash: forge2.id, rehearsal_digest: kept.digest, words_sha256: sha256(forge2.intent) };
  const judged = { rehearsal: judgedOf(kept, pick.chosen), shown: shown2 };
  return { stage: "rehearsed", subject, facts, questions: REHEARSED_QUESTIONS, n: REHEARSED_QUESTIONS.length, spent, judged };
}
var score = defineTool({
  name: "score",
  title: "Score a studio stage",
  description: `Scores a stage under ${RUBRIC_VERSION}: facts first, by code, then closed questions to the grader (yes / partly / no, each a distribution), then code composes a score of k points out of n, recorded for calibration. Stage parts (text): the deck reads the words into seven parts; each part read is asked about (does the reading say what the words say), a part missing or ambiguous scores 0 unasked; n = 7. Stage rehearsed (seed_hash, rehearsal_digest?): the rehearsal of your forge named by rehearsal_digest, else its latest on the rule's own market; its trades must obey the stop, sides and ways out of the rule, then four questions about the trades against the words (shown with the script and the code in plain words); n = 4; 409 when there is no rehearsal to judge, 404 when the one named is not kept. Funded as grading is (grader_key, house, plan, trial ping); 402 names what would fund it; 503 with no grader lane. The words leave the deck only to the grader.`,
  input: z126.object({
    stage: z126.enum(STAGES).optional().describe("required: parts or rehearsed (a body without it is 400)"),
    text: RuleWords.optional().describe("stage parts: the rule in plain words"),
    seed_hash: SeedHash.optional().describe("stage rehearsed: the seed_hash of your forge"),
    rehearsal_digest: RehearsalToJudge.describe("stage rehearsed: the rehearsal to judge, by its digest; default: the latest rehearsal of this seed on the rule's own market"),
    grader_key: GraderKey.optional()
  }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: ScoreAnswer,
  access: "session",
  toolset: TOOLSETS.studio,
  rest: { method: "POST", path: "/studio/score", errors: [400, 402, 404, 409, 413, 502, 503] },
  async run(ctx, input) {
    if (!input.stage) {
      throw new DeckError(400, "bad_input", "stage: required, parts or rehearsed", { problems: [{ field: "stage", message: "required: parts or rehearsed" }] });
    }
    const ownKey = input.grader_key ?? null;
    const j = input.stage === "parts" ? await judgeParts(ctx, input.text, ownKey) : await judgeRehearsed(ctx, input.seed_hash, input.rehearsal_digest, ownKey);
    const answers2 = j.spent?.grader.answers ?? null;
    const { score: points, reasons } = scoreOf(j.n, j.facts, answers2, j.questions);
    const entry = {
      principal_id: ctx.principal.id,
      rubric: RUBRIC_VERSION,
      stage: j.stage,
      subject: j.subject,
      ...j.judged ? { rehearsal: j.judged.rehearsal } : {},
      facts: j.facts,
      grader: j.spent?.grader ?? null,
      ...j.judged ? { shown: j.judged.shown } : {},
      score: points,
      reasons,
      decision_digest: decisionDigest({ rubric: RUBRIC_VERSION, subject: { stage: j.stage, ...j.subject }, facts: j.facts, answers: answers2, outcome: points })
    };
    const rec = await ctx.store.grades.score(entry, ctx.clock());
    const left = j.spent?.trial_pings_left ?? null;
    return { ok: true, ...receiptOf(entry, rec), ...left !== null ? { trial_pings_left: left } : {} };
  }
});

// tools/studio/score-read.ts
import { z as z127 } from "zod";
var scoreRead = defineTool({
  name: "score_read",
  title: "Score calibration",
  description: "The calibration of a stage from every score recorded: k closed questions held of n asked (a question holds at 0.7 or more on yes), with the rate and the lower end of its 95% Wilson interval (null before any question), house-wide and yours.",
  input: z127.object({ stage: z127.enum(STAGES).describe("the stage: parts (or rehearsed)") }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ScoreReadAnswer,
  access: "session",
  toolset: TOOLSETS.studio,
  rest: { method: "GET", path: "/studio/score" },
  async run(ctx, { stage }) {
    const side = (principalId) => {
      const t = ctx.store.grades.tally(stage, principalId);
      return { ...calibrationOf(t.k, t.n), scores: t.scores };
    };
    return { ok: true, stage, rubric: RUBRIC_VERSION, z: Z95, house: side(null), mine: side(ctx.principal.id) };
  }
});

// tools/studio/studio-act.ts
import { z as z129 } from "zod";

// services/studio/studio-state.ts
import { createHash as createHash5 } from "node:crypto";
import { z as z128 } from "zod";
var DEFAULT_STRATEGY = "main";
var Strategy = z128.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, "1 to 32 of a-z, 0-9, _ and -, starting with a letter or digit").optional().describe(`which of your strategies (default ${DEFAULT_STRATEGY}); each has its own record and state`);
var sha2562 = (text2) => createHash5("sha256").update(text2).digest("hex");
function coverageOf(ctx, r) {
  const earned = (g) => STATES[r.state].done.includes(g);
  const kept = r.seed ? ctx.store.forges.get(ctx.principal.id, r.seed.seed_hash, ctx.clock()) : null;
  return {
    read: {
      earned: earned("read"),
      rests_on: r.reading && r.words !== null ? { words_sha256: sha2562(r.words), chars: r.words.length, parts: Object.fromEntries(PARTS.map((p) => [p, r.reading[p].status])) } : null
    },
    forge: {
      earned: earned("forge"),
      rests_on: r.seed ? { ...r.seed, kept: kept !== null, expires_at: kept ? new Date(kept.expires_at).toISOString() : null } : null
    },
    rehearse: {
      earned: earned("rehearse"),
      rests_on: r.rehearsal && r.seed ? { seed_hash: r.seed.seed_hash, ...r.rehearsal } : null
    },
    grade: {
      earned: earned("grade"),
      rests_on: r.grade && r.seed && r.rehearsal ? { seed_hash: r.seed.seed_hash, rehearsal_digest: r.rehearsal.digest, decision: r.grade.decision } : null
    }
  };
}
function stateOf(ctx, record) {
  return { record, view: viewOf2(record.state), coverage: coverageOf(ctx, record) };
}

// services/studio/workflow-read.ts
async function readWorkflow(ctx, text2, lane) {
  const words2 = withinWordsCap(text2, "text");
  const parts = await readWith(ctx, words2, lane);
  return { ok: true, parts, clauses: accountClauses(words2, parts), ...await tapeWarnings(ctx, parts.market.value, parts.timeframe.value) };
}

// tools/studio/studio-act.ts
var FIELDS = ["text", "data", "market", "hours", "to", "folds", "grader_key"];
var FIELDS_OF = {
  words: { needs: ["text"], may: [] },
  image: { needs: ["data"], may: [] },
  reset: { needs: [], may: [] },
  read: { needs: [], may: [] },
  forge: { needs: [], may: [] },
  rehearse: { needs: [], may: ["market", "hours", "to", "folds"] },
  grade: { needs: [], may: ["grader_key"] }
};
var Move2 = z129.object({
  action: z129.enum(STUDIO_ACTIONS).describe("the move: words, image, reset, read, forge, rehearse or grade"),
  strategy: Strategy,
  text: RuleWords.optional().describe(`words: the rule in plain words, at most ${WORDS_CAP} characters (over it is 413)`),
  data: ImageData.optional().describe("image: base64 image bytes (a data: URL is accepted too), as POST /studio/image takes them"),
  market: z129.enum(MARKETS).optional().describe("rehearse: the market to rehearse on (default: the one the rule named)"),
  hours: Hours.describe(`rehearse: hours of tape counted back from the window's end (default ${DEFAULT_HOURS})`),
  to: unixTime.optional().describe("rehearse: the window's end, unix seconds or ISO-8601 UTC (default: the newest bar the tape holds)"),
  folds: Folds.optional().describe(`rehearse: walk-forward folds to cut the window into (2 to ${MAX_FOLDS})`),
  grader_key: GraderKey.optional().describe("grade: your own grader key, as POST /studio/grade takes it; never kept")
}).strict().superRefine((move, issues) => {
  const { needs, may } = FIELDS_OF[move.action];
  for (const field of FIELDS) {
    const given = move[field] !== void 0;
    if (!given && needs.includes(field)) issues.addIssue({ code: "custom", path: [field], message: `${move.action} needs ${field}` });
    if (given && !needs.includes(field) && !may.includes(field)) issues.addIssue({ code: "custom", path: [field], message: `not a field of ${move.action}` });
  }
});
var EVIDENCE = { read: "reading", forge: "seed", rehearse: "rehearsal", grade: "grade" };
var wordsOf2 = (r) => r.words;
var seedOf = (r) => r.seed.seed_hash;
var rehearsalOf = (r) => r.rehearsal.digest;
var MOVES = {
  async words(_ctx, _r, move) {
    return { change: { words: withinWordsCap(move.text, "text") }, answer: null };
  },
  async image(ctx, r, move) {
    const got = await attachImage(ctx, move.data);
    return { change: { images: [...r.images, got.id] }, answer: got };
  },
  async reset() {
    return { change: { words: null, images: [] }, answer: null };
  },
  async read(ctx, r) {
    const got = await readWorkflow(ctx, wordsOf2(r), "embedded");
    const outcome = PARTS.every((p) => isSettled(got.parts[p].status)) ? "all_read" : "unclear";
    return { change: { reading: got.parts }, outcome, answer: got };
  },
  async forge(ctx, r) {
    const got = await forgeRule(ctx, { intent: wordsOf2(r) });
    return { change: { seed: { seed_hash: got.seed_hash, version: got.version } }, answer: got };
  },
  async rehearse(ctx, r, move) {
    const { market, hours, to, folds } = move;
    const { answer: got, digest: digest2 } = await rehearseForge(ctx, { seed_hash: seedOf(r), market, hours, to, folds });
    const len = TIMEFRAME_SECONDS[got.timeframe];
    const end2 = to !== void 0 ? Math.floor(to / len) * len : got.window.to;
    const span = (hours ?? DEFAULT_HOURS) * 3600;
    const rehearsal = {
      digest: digest2,
      market: got.market,
      timeframe: got.timeframe,
      asked: { from: end2 - span, to: end2, hours: hours ?? DEFAULT_HOURS, folds: folds ?? null },
      // The bars the rule traded over, as the record has always kept them (the envelope says more: readiness, idle bars).
      window: { from: got.window.from, to: got.window.to, bars: got.window.bars, warm_up_bars: got.window.warm_up_bars },
      trades: got.trades.length,
      tape: { bars: got.window.bars, expected: expectedBars(got.market, len, end2 - span, end2).length }
    };
    return { change: { rehearsal }, answer: got };
  },
  async grade(ctx, r, move) {
    const answer3 = await gradeForge(ctx, { seed_hash: seedOf(r), rehearsal_digest: rehearsalOf(r), grader_key: move.grader_key });
    const { decision } = answer3;
    return { change: { grade: { decision, receipt: answer3 } }, outcome: decision === "accept" ? "accepted" : "not_accepted", answer: answer3 };
  }
};
function notTheMove(record, action, moved2) {
  const view = viewOf2(record.state);
  const awaited = [view.next, ...view.alt].filter((a) => a !== null).join(", ");
  const why = moved2 ? `the strategy moved to ${record.state} while this move ran` : `${action} is not a move from ${record.state}`;
  return new DeckError(409, "not_the_move", `${why}; the moves now are: ${awaited}`, { view });
}
function settled3(record) {
  const next = { ...record };
  for (const [gate, field] of Object.entries(EVIDENCE)) {
    if (!STATES[record.state].holds.includes(gate)) next[field] = null;
  }
  return next;
}
var studioAct = defineTool({
  name: "studio_act",
  title: "Move the studio state",
  description: "Moves your strategy one step through the studio machine and answers { ok, record, view, coverage, answer } (answer: the called tool's own answer, null for words and reset). Gate order: read the rule into seven parts, forge, rehearse, grade; nothing is skipped. Actions: words { text } sets the words; image { data } attaches an image (image_attach); reset clears both; read reads the words (workflow_read); forge forges them (forge); rehearse { market?, hours?, to?, folds? } rehearses the seed (rehearse); grade { grader_key? } grades it (grade, by seed_hash): accept is graded, revise or reject is rejected. words, image and reset change what the rule says and send every later gate back. Any other action is taken only as view.next or one of view.alt, otherwise 409 with the view. Each action calls the deck's own tool as you, so its refusals are that tool's (413 over the words cap, 415, 429, 402, 404, 422, 503 ...); an action the machine does not have, or a field failing its shape, is 422 naming it. Every strategy (default main) has its own record.\n\nThe states, and the full transition table (a state and action not in it is 409):\n\n" + machineMarkdown(),
  input: Move2,
  // The transition table is the OpenAPI document's and docs/studio.md's; over MCP the view names the moves open now.
  listed: {
    description: "Moves your strategy one step through the studio machine (read the rule into seven parts, forge, rehearse, grade; nothing skipped) and answers { ok, record, view, coverage, answer }. Actions: words { text }, image { data }, reset, read, forge, rehearse { market?, hours?, to?, folds? }, grade { grader_key? }. words, image and reset send every later gate back; any other action is taken only as view.next or one of view.alt (studio_state shows them), else 409 with the view. Each action calls the deck's own tool as you, with that tool's refusals. Every strategy (default main) has its own record; the full transition table is in POST /studio/state of GET /openapi.json."
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  output: StudioActAnswer,
  access: "session",
  // As POST /studio/image's cap, so the image move carries any image that route takes.
  toolset: TOOLSETS.studio,
  rest: { method: "POST", path: "/studio/state", maxBody: IMAGE_BODY_CAP, errors: [402, 404, 409, 413, 415, 429, 500, 502, 503] },
  async run(ctx, move) {
    const p = ctx.principal;
    const record = ctx.store.studio.get(p.id, move.strategy ?? DEFAULT_STRATEGY);
    if (!isMove(record.state, move.action)) throw notTheMove(record, move.action, false);
    const { change, outcome, answer: answer3 } = await MOVES[move.action](ctx, record, move);
    const next = settled3({ ...record, ...change, state: arrive(record.state, move.action, outcome ?? null), updated_at: new Date(ctx.clock()).toISOString() });
    const written = await ctx.store.studio.move(p.id, next, record.rev, (now) => notTheMove(now, move.action, true));
    return { ok: true, ...stateOf(ctx, written), answer: answer3 };
  }
});

// tools/studio/studio-state.ts
import { z as z130 } from "zod";
var studioState = defineTool({
  name: "studio_state",
  title: "Read the studio state",
  description: "Your strategy in the studio machine: { record, view, coverage }. record holds the words, the attached image ids, the reading, the forge seed, the rehearsal digest, the grade receipt and the state; view is { state, next, alt, done, why }: the awaited move, the other moves, the gates earned and why; coverage says for each gate (read, forge, rehearse, grade) whether it is earned and what it rests on. A strategy no move has touched reads blank. Move it with studio_act (POST /studio/state).",
  input: z130.object({ strategy: Strategy }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: StudioStateAnswer,
  access: "session",
  toolset: TOOLSETS.studio,
  rest: { method: "GET", path: "/studio/state" },
  async run(ctx, { strategy }) {
    return { ok: true, ...stateOf(ctx, ctx.store.studio.get(ctx.principal.id, strategy ?? DEFAULT_STRATEGY)) };
  }
});

// tools/forge/strategies.ts
import { z as z131 } from "zod";
var strategies = defineTool({
  name: "strategies",
  title: "Onboarded strategies",
  description: "The public algorithms of the onboarded register: each one's name, title, where it is documented, its intent in words, market and timeframe. The house's own are not listed. Needs no key; GET /forge?onboard=<name> gives the exact script.",
  input: z131.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: StrategiesAnswer,
  access: "none",
  toolset: TOOLSETS.forge,
  async run(ctx) {
    return {
      ok: true,
      strategies: register(ctx).filter((s) => !s.house).map((s) => ({ name: s.name, title: s.title, source: s.source, intent: s.intent, market: s.script.market, timeframe: s.script.timeframe }))
    };
  }
});

// tools/forge/strategy-quote.ts
import { z as z132 } from "zod";
var strategyQuote = defineTool({
  name: "strategy_quote",
  title: "Quote an onboarded strategy",
  description: `What forging and rehearsing an onboarded strategy costs on the meter, from the price list: one forge plus one rehearsal over the default window (${DEFAULT_HOURS} hours of its timeframe, warm-up included), quoted at the most bars that window can hold. Its market and timeframe come with it. The house's own strategies are sealed (404). Needs no key.`,
  input: z132.object({ name: z132.string().min(1).max(64).describe("a name from the strategies tool") }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: StrategyQuoteAnswer,
  access: "none",
  toolset: TOOLSETS.forge,
  async run(ctx, { name }) {
    return { ok: true, ...quoteOf(ctx, onboarded(ctx, name)) };
  }
});

// tools/forge/forge-trial.ts
import { z as z133 } from "zod";
var TRIAL_SCRIPT_CAP = 64 * 1024;
var TrialScript = ScriptSchema.extend({ market: MarketSchema.optional(), session: SessionSchema.optional() });
var Label = z133.string().min(1).max(120);
var forgeTrial = defineTool({
  name: "forge_trial",
  title: "Trial a script",
  description: `Runs a script block (script.v1; market and session may be left out) over the last hours of the tape (default ${DEFAULT_HOURS}) ending at the newest bar the tape holds for the market, with the stepper: entries at the next bar's open, the stop first when stop and target are both touched in one bar, slippage and fees per market, results in R, against a seeded random null. market defaults to the script's, else NQ; a script without a session trades the cash session on NQ, ES and YM and around the clock on crypto. A session id reads the bars fresh from the venue. At most two trials run at once for you. Over MCP the first ${MCP_TRADES} trades come, with trades_page (trades_from and trades_limit page them).`,
  input: z133.object({
    script: TrialScript.describe("the script block to run"),
    market: z133.enum(MARKETS).optional().describe("the market to run it on (default: the script's, else NQ)"),
    hours: Hours,
    name: Label.optional().describe("a name for this trial, echoed"),
    tenant: Label.optional().describe("who the trial is for, echoed"),
    session: z133.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "1 to 64 of A-Z a-z 0-9 _ -").optional().describe("a replay session id: the bars are read fresh from the venue"),
    ...TradesPage
  }).strict(),
  mcpDefaults: TRADES_MCP_DEFAULTS,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: TrialAnswer,
  listed: { properties: { script: SCRIPT_LISTED } },
  access: "session",
  guard: "trial",
  toolset: TOOLSETS.forge,
  rest: { method: "POST", path: "/forge/trial", maxBody: TRIAL_SCRIPT_CAP + 4096, bounds: SCRIPT_BOUNDS, errors: [413, 429, 500, 502, 503] },
  async run(ctx, input) {
    const bytes = Buffer.byteLength(JSON.stringify(input.script));
    if (bytes > TRIAL_SCRIPT_CAP) throw new DeckError(413, "too_large", `the script is ${bytes} bytes; the cap is ${TRIAL_SCRIPT_CAP}`, { cap_bytes: TRIAL_SCRIPT_CAP });
    const market = input.market ?? input.script.market ?? "NQ";
    const script = { ...input.script, market, session: input.script.session ?? trialSession(market) };
    const { ir, seed_hash } = deciderOf(script, fromScript);
    const to = await windowEnd(ctx, market, script.timeframe, void 0);
    ctx.progress?.(`reading the tape: ${market} ${script.timeframe}`);
    const w = await windowBars(ctx, { market, tf: script.timeframe, to, hours: input.hours ?? DEFAULT_HOURS, warmUpBars: ir.warm_up_bars * LONGEST_WARM_UP, session: input.session });
    compiled(ir, seed_hash);
    const rehearsal = await stepOver(ctx, script, ir, seed_hash, w);
    ctx.progress?.("recording the trial");
    await meterSteps(ctx, "trial", rehearsal);
    return pagedTrades({ ok: true, name: input.name ?? null, tenant: input.tenant ?? null, seed_hash, script, ...rehearsal }, input);
  }
});

// tools/studio/workflow-read.ts
import { z as z134 } from "zod";
var workflowRead = defineTool({
  name: "workflow_read",
  title: "Read a rule into seven parts",
  description: `Reads a trader's rule in plain words (at most ${WORDS_CAP} characters) into its seven parts: market (NQ, ES, YM, BTC, ETH, SOL), timeframe (15s, 1m, 5m, 1h), session (when the rule may act), side (long, short, both), entry (the trigger), stop (where the rule is wrong) and exit (target, trailing or time exit). Each part is { status: read | defaulted | missing | ambiguous, value, spans }: spans are the [from, to) character ranges the value came from; an ambiguous part lists its readings. Nothing unstated is filled in but by a documented default, named in defaults ({ path, rule }) and the note: the market's own session (session_crypto, session_futures), ATR(14), swings of 2 bars a side, Bollinger 20 and 2. A part missing or ambiguous, or lacking a length the forge needs, carries a hint: words that would read. clauses accounts for every clause: the parts it lands in, and any meaning no part took, with why and a hint; none is dropped in silence. The embedded reader (lane embedded, the default) is deterministic: the same words give the same parts. Lane model asks an OpenAI-compatible reader; its reading is refused whole (502) unless it passes the same schema and every span quotes the text (forge_lanes says whether it is open to you).`,
  input: z134.object({ text: RuleWords, lane: LaneInput }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: WorkflowReadAnswer,
  access: "session",
  // A person with curl reads words as an agent does: words over the cap are 413, the model lane's refusals 402 (not funded) and 503 (not configured).
  toolset: TOOLSETS.studio,
  rest: { method: "POST", path: "/studio/read", errors: [402, 413, 500, 502, 503] },
  run: (ctx, { text: text2, lane }) => readWorkflow(ctx, text2, lane ?? "embedded")
});

// tools/tape/tape.ts
var Limit = int.refine((n) => n >= 1 && n <= MAX_BARS, `1 to ${MAX_BARS}`);
function firstBars(window, { market, tf, from, to }, limit) {
  const bars = window.bars();
  const n = bars.length;
  let high = -Infinity;
  let low = Infinity;
  let volume = 0;
  for (let i = 0; i < n; i++) {
    high = Math.max(high, bars.h[i]);
    low = Math.min(low, bars.l[i]);
    volume += bars.v[i];
  }
  const shown2 = windowOf(bars, 0, Math.min(limit, n));
  const whole = n === 0 ? null : { open: bars.o[0], high, low, close: bars.c[n - 1], volume };
  return {
    ok: true,
    market,
    tf,
    from,
    to,
    candles: barsToRows(shown2),
    coverage: window.coverage,
    summary: { bars: n, shown: shown2.length, ...whole },
    more: limit < n ? { bars: n - limit, from: bars.t[limit] } : null
  };
}
var tape = defineTool({
  name: "tape",
  title: "Candles from the tape",
  description: `Real OHLCV bars of NQ, ES, YM, BTC, ETH or SOL at 15s, 1m, 5m or 1h for a past window [from, to) (unix seconds), at most ${MAX_BARS} bars, with a coverage object that states what was measured. Only bars closed by to are served: a to inside a bar stops before that bar. A past window is sealed once every bar of it is measured: the same request then returns the same bytes. A session id bypasses every cache. Over MCP the first ${MCP_BARS} bars come with a summary of the whole window and more.from (limit changes it). NQ, ES and YM follow the CME session: no bar falls in a halt, and a halt counts as closed market, not missing data. Each read is recorded on your meter by the bars it serves.`,
  input: TapeRequest.extend({
    limit: Limit.optional().describe(`at most this many bars, from the window's start, with a summary of the whole window and more.from, where the rest begins (ask again from there); over MCP ${MCP_BARS} unless told`)
  }),
  mcpDefaults: { limit: MCP_BARS },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: "session",
  output: TapeAnswer,
  toolset: TOOLSETS.tape,
  rest: { method: "GET", path: "/timetravel/candles/:market/:tf", errors: [502, 503] },
  // The window is read before anything is paid: a window the tape does not hold is refused first, and a price by bars
  // (x402's upto) settles for exactly the bars served.
  async foresee(ctx, { limit, ...request }) {
    const window = await candleWindow(ctx, request);
    const whole = window.coverage.bars;
    return { window, request, whole, served: limit !== void 0 && limit < whole ? limit : whole };
  },
  bars: ({ served }) => served,
  async run(ctx, _input, { window, request, whole, served }) {
    meterRead(ctx, served);
    return served < whole ? firstBars(window, request, served) : new JsonBytes(window.bytes());
  }
});

// tools/registry.ts
var TOOLS = [
  catalogue,
  plans,
  price2,
  account,
  meter,
  meterRecord,
  grants,
  planClaim,
  holderState,
  holderLink2,
  mandateAdd,
  marksList,
  marksAdd,
  marksRemove,
  tape,
  forecast,
  forecastHealth,
  imageAttach,
  workflowRead,
  forgeLanes,
  forge,
  forgeRead,
  forgeOnboard,
  forgeTrial,
  rehearseTool,
  grade,
  score,
  scoreRead,
  studioState,
  studioAct,
  strategies,
  strategyQuote,
  skills,
  skillRead,
  plateSeal,
  chartImage,
  // The quote's routes before /v1/series/:id, so "quote" is never read as an id.
  seriesTerms,
  seriesQuote,
  seriesOpen,
  seriesList,
  seriesRead,
  seriesRevoke,
  epochOpen,
  history,
  historyEntry,
  registry,
  ladder,
  lab,
  epochs2,
  roadmap,
  ledgers,
  ledgerVerify,
  chat,
  joinInfo,
  join3,
  login,
  logout,
  authProviders,
  rotateKey,
  emailSend,
  emailVerify,
  doors,
  doorLink,
  doorUnlink,
  wallet,
  walletProve,
  oauthRequest,
  oauthConsent,
  // The book, the agent rail, the typed-decision lane and the copy seller's tools.
  orderPlace,
  orderCancel,
  ordersList,
  fillsList,
  positionsList,
  capsRead,
  capsSet,
  modelRegister,
  modelsMine,
  modelRead,
  runStart,
  runsList,
  runRead,
  runStop,
  typedSchema,
  decisionPost,
  models,
  modelRecord,
  followQuoteTool
];
var REGISTRY = TOOLS;
var toolByName = new Map(REGISTRY.map((t) => [t.name, t]));
var MCP_TOOLS = REGISTRY.filter((t) => t.surface === "both");
var TOOL_LISTING = REGISTRY.map((t) => ({
  area: t.rest ? t.toolset.id : "mcp",
  name: t.name,
  title: t.title,
  route: t.rest ? `${t.rest.method} ${t.rest.path}` : null,
  mcp: t.surface === "both"
}));

// sellers/toolsets.ts
var DEFAULT_TOOLSETS = [...new Set(MCP_TOOLS.filter((t) => t.toolset.default).map((t) => t.toolset.id))];
var ALL = "all";
var DEFAULT = "default";
function toolsetsOf(tools) {
  const sets = /* @__PURE__ */ new Map();
  for (const t of tools) sets.set(t.toolset.id, [...sets.get(t.toolset.id) ?? [], t.name]);
  return sets;
}
function chooseToolsets(raw, known2, defaults) {
  if (raw === void 0) return { ok: true, toolsets: new Set(defaults) };
  const parts = (Array.isArray(raw) ? raw : [raw]).map((p) => typeof p === "string" ? p : null);
  if (parts.includes(null)) return { ok: false, message: "toolsets: expected comma-separated toolset names" };
  const names = parts.flatMap((p) => p.split(",")).map((n) => n.trim()).filter((n) => n !== "");
  const offered2 = `the toolsets are ${[...known2.keys()].join(", ")}, or ${ALL} or ${DEFAULT}`;
  if (names.length === 0) return { ok: false, message: `toolsets: names no toolset; ${offered2}` };
  const unknown = names.filter((n) => n !== ALL && n !== DEFAULT && !known2.has(n));
  if (unknown.length) return { ok: false, message: `toolsets: unknown toolset ${unknown.map((n) => JSON.stringify(n)).join(", ")}; ${offered2}` };
  const chosen = /* @__PURE__ */ new Set();
  for (const n of names) for (const set of n === ALL ? known2.keys() : n === DEFAULT ? defaults : [n]) chosen.add(set);
  return { ok: true, toolsets: chosen };
}

// sellers/app/resource.ts
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";

// sellers/app/page.ts
import { readFile as readFile2 } from "node:fs/promises";
import { join as join7 } from "node:path";

// sellers/app/view.ts
var VIEW_CSS = `
.rv-verdict{border-left:4px solid #0b5394;padding:.25rem .75rem;margin:1rem 0}
.rv-verdict h3{margin:.25rem 0}
.rv-stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.25rem .75rem;margin:.5rem 0}
.rv-stats dt{font-size:.8rem;color:#555}.rv-stats dd{margin:0;font-weight:600}
figure{margin:.75rem 0}figcaption{font-size:.85rem;color:#444;margin-bottom:.25rem}
figure svg{width:100%;height:auto;background:#fff;border:1px solid #ddd;border-radius:4px;touch-action:none}
.rv-tools{display:flex;gap:.5rem;margin:.25rem 0}
.rv-grid{stroke:#e3e3e3}.rv-axis{font:11px sans-serif;fill:#555}.rv-muted{color:#555;fill:#555;font-size:.9rem}
.rv-up,.rv-down{pointer-events:none}
.rv-up line,.rv-up rect{stroke:#1b7f3b;fill:#1b7f3b}.rv-down line,.rv-down rect{stroke:#b3261e;fill:#b3261e}
.rv-trade{cursor:pointer}.rv-trade:focus{outline:none}.rv-trade:focus .rv-entry,.rv-trade:hover .rv-entry{stroke:#000;stroke-width:2}
.rv-path{stroke-dasharray:4 3;stroke-width:1.5}.rv-win .rv-path{stroke:#0b5394}.rv-loss .rv-path{stroke:#8a5a00}
.rv-entry{fill:#0b5394}.rv-loss .rv-entry{fill:#8a5a00}.rv-exit{fill:#fff;stroke:#222;stroke-width:1.5}.rv-stop{stroke:#b3261e;stroke-width:2}
.rv-curve{fill:none;stroke:#0b5394;stroke-width:2}.rv-bin{fill:#9fb7d3}.rv-median{stroke:#333}
.rv-mark{stroke:#b3261e;stroke-width:2.5}.rv-mark-text{font:12px sans-serif;fill:#b3261e}
.rv-detail{min-height:1.5em;font-size:.9rem}
.rv-link{background:none;border:0;padding:.1rem 0;color:#0b5394;text-align:left;font:inherit;cursor:pointer;text-decoration:underline}
.rv-chart:focus{outline:3px solid #0b5394}
`;

// sellers/app/page.ts
var pages = /* @__PURE__ */ new Map();
function pageOf2(template, entry) {
  const key = `${template}
${entry}`;
  let page = pages.get(key);
  if (!page) {
    page = build(template, entry);
    pages.set(key, page);
    page.catch(() => pages.delete(key));
  }
  return page;
}
async function build(template, entry) {
  const { build: bundle } = await import("esbuild");
  const [html, out] = await Promise.all([
    readFile2(join7(PROJECT_ROOT, template), "utf8"),
    bundle({
      absWorkingDir: PROJECT_ROOT,
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      target: "es2020",
      minify: true,
      legalComments: "none",
      logLevel: "silent"
    })
  ]);
  const script = out.outputFiles[0].text.replace(/<\/(script)/gi, "<\\/$1");
  return html.replace("<!--style-->", () => VIEW_CSS).replace("<!--script-->", () => script);
}

// sellers/app/resource.ts
var REHEARSAL_APP_URI = "ui://deck/rehearsal.html";
var APP_TOOLS = /* @__PURE__ */ new Map([
  ["rehearse", REHEARSAL_APP_URI],
  ["plate_seal", REHEARSAL_APP_URI]
]);
var appMeta = (tool) => {
  const uri = APP_TOOLS.get(tool);
  return uri ? { ui: { resourceUri: uri }, [RESOURCE_URI_META_KEY]: uri } : {};
};
var RESOURCE = {
  uri: REHEARSAL_APP_URI,
  name: "rehearsal",
  title: "Rehearsal viewer",
  description: "Draws a rehearsal (candles with zoom and pan, the trades and their reasons, the equity in R, the null with the rule marked, the verdict) or a sealed plate's candles, from the rehearse or plate_seal tool's result.",
  mimeType: RESOURCE_MIME_TYPE,
  // The page loads nothing and connects nowhere: it reaches the deck only by the host's tool calls.
  _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } }
};
var appResources = (serves) => [...APP_TOOLS.keys()].some(serves) ? [RESOURCE] : [];
async function readAppResource(uri) {
  if (uri !== REHEARSAL_APP_URI) return null;
  const text2 = await pageOf2("sellers/app/rehearsal.html", "sellers/app/app.ts");
  return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: text2, _meta: RESOURCE._meta }] };
}

// sellers/task-tools.ts
var TASK_TOOLS = /* @__PURE__ */ new Set(["rehearse", "forge_trial", "grade"]);

// sellers/endpoints.ts
var NO_LOCKS = /* @__PURE__ */ new Map();
var listing = (t, locks) => ({
  name: t.name,
  title: t.title,
  description: t.listedDescription,
  inputSchema: t.listedSchema,
  outputSchema: t.listedOutputSchema,
  annotations: { title: t.title, ...t.annotations },
  ...TASK_TOOLS.has(t.name) ? { execution: { taskSupport: "optional" } } : {},
  _meta: { "deck/access": t.access, "deck/tier": locks.get(t.name) ?? null, ...appMeta(t.name) }
});
function endpoint(id, name, path, tools, defaults, locks = NO_LOCKS) {
  const all = tools.map((t) => listing(t, locks));
  const listings = /* @__PURE__ */ new Map([["anonymous", all.filter((l) => !l._meta["deck/tier"])]]);
  for (const tier of TIERS) listings.set(tier, all.filter((l) => !l._meta["deck/tier"] || opens(tier, l._meta["deck/tier"])));
  const toolsets = toolsetsOf(tools);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const argumentBounds = (tool) => typeof tool === "string" && byName.get(tool)?.bounds || TOOL_INPUT_BOUNDS;
  return { id, name, path, tools, byName, locks, listings, toolsets, defaults: defaults ?? [...toolsets.keys()], argumentBounds };
}
var lockedBy = (e, locks) => endpoint(e.id, e.name, e.path, e.tools, e.defaults, locks);
var sellerTools = (seller) => {
  const names = [...seller.tools, ...HOUSE_TOOLS];
  return MCP_TOOLS.filter((t) => names.some((name) => name === t.name));
};
var DECK_ENDPOINT = endpoint("deck", "the deck", "/mcp", MCP_TOOLS, DEFAULT_TOOLSETS);
var SELLER_ENDPOINTS = new Map(
  SELLERS.map((s) => [s.id, endpoint(s.id, s.name, `/mcp/${s.id}`, sellerTools(s))])
);
var listedAs = (principal) => principal ? principal.tier : "anonymous";
var listingOf = (e, tier, toolsets = new Set(e.defaults)) => (e.listings.get(tier) ?? []).filter((l) => toolsets.has(e.byName.get(l.name).toolset.id));
var listingFor = (e, principal, toolsets) => listingOf(e, listedAs(principal), toolsets);
var servedOn = (name) => [DECK_ENDPOINT, ...SELLER_ENDPOINTS.values()].filter((e) => e.byName.has(name)).map((e) => e.path);
function unknownToolMessage(e, name) {
  const where = servedOn(name);
  const pointer = where.length ? `${name} is on ${where.join(" and ")}` : `the deck has no tool ${name}; catalogue lists each seller's tools`;
  return `unknown tool ${name} on ${e.path}; ${pointer}`;
}

// sellers/json-rpc.ts
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  InitializeRequestSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema
} from "@modelcontextprotocol/sdk/types.js";
var PARSE_ERROR = -32700;
var INVALID_REQUEST = -32600;
var INVALID_PARAMS = -32602;
var UNKNOWN_TOOL = INVALID_PARAMS;
var KEY_REQUIRED = -32001;
var RESOURCE_NOT_FOUND = -32002;
var rpcError = (id, code, message, data) => ({
  jsonrpc: "2.0",
  id,
  error: { code, message, ...data !== void 0 ? { data } : {} }
});
var Written = class {
  constructor(json) {
    this.json = json;
  }
  json;
};
var replyJson = (r) => "result" in r && r.result instanceof Written ? `{"result":${r.result.json},"jsonrpc":"2.0","id":${JSON.stringify(r.id)}}` : JSON.stringify(r);
var idOf = (m) => {
  const id = m?.id;
  return typeof id === "string" || typeof id === "number" && Number.isInteger(id) ? id : null;
};
function what(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string" && v.length <= 40 || typeof v === "number" || typeof v === "boolean") return JSON.stringify(v);
  return `a ${typeof v}`;
}
var KINDS2 = {
  object: "an object",
  record: "an object",
  array: "an array",
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean"
};
var inWords2 = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${KINDS2[issue.expected] ?? issue.expected}, ${issue.input === void 0 ? "but it is missing" : `got ${what(issue.input)}`}`;
    case "invalid_value":
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}, got ${what(issue.input)}`;
    case "unrecognized_keys":
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${namedKeys(issue.keys)}`;
    case "invalid_union": {
      const kinds = issue.errors.map((branch) => branch.length === 1 && branch[0].code === "invalid_type" && branch[0].path.length === 0 ? branch[0].expected : null);
      if (kinds.some((k) => k === null)) return void 0;
      return `expected ${[...new Set(kinds.map((k) => KINDS2[k] ?? k))].join(" or ")}, got ${what(issue.input)}`;
    }
    default:
      return void 0;
  }
};
function problemsIn(schema, value) {
  const parsed = schema.safeParse(value, { error: inWords2 });
  if (parsed.success) return null;
  const { shown: shown2, more } = firstFew(parsed.error.issues);
  return shown2.map((i) => i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message).join("; ") + more;
}
var kindOf = (m) => "method" in m ? "id" in m ? JSONRPCRequestSchema : JSONRPCNotificationSchema : "error" in m ? JSONRPCErrorResponseSchema : "result" in m ? JSONRPCResultResponseSchema : JSONRPCRequestSchema;
var isObject2 = (m) => typeof m === "object" && m !== null && !Array.isArray(m);
function whyNotJsonRpc(m) {
  if (!isObject2(m)) return `a JSON-RPC message is an object, not ${what(m)}`;
  return problemsIn(kindOf(m), m) ?? "not a JSON-RPC 2.0 message";
}
var byMethod = (schemas) => new Map(schemas.map((s) => [s.shape.method.value, s]));
var TOOL_REQUESTS = byMethod([
  ListToolsRequestSchema,
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema
]);
var LEGACY_REQUESTS = new Map([
  ...TOOL_REQUESTS,
  ...byMethod([InitializeRequestSchema, PingRequestSchema, GetTaskRequestSchema, GetTaskPayloadRequestSchema, ListTasksRequestSchema, CancelTaskRequestSchema])
]);
function argumentsBeyond(m, bounds) {
  const { method, params } = m;
  if (method !== "tools/call" || !isObject2(params) || !("arguments" in params)) return null;
  const { name, arguments: args } = params;
  const excess = excessOfValue(args, bounds(name));
  return excess && `params.arguments: ${excess.message}, more than ${typeof name === "string" ? name.slice(0, 64) : "a tool"} reads`;
}
function checkMessage(m, requests, bounds) {
  const beyond = isObject2(m) ? argumentsBeyond(m, bounds) : null;
  if (beyond) return { ok: false, refusal: rpcError(idOf(m), INVALID_PARAMS, beyond) };
  const parsed = isObject2(m) ? kindOf(m).safeParse(m) : null;
  if (!parsed?.success) return { ok: false, refusal: rpcError(idOf(m), INVALID_REQUEST, whyNotJsonRpc(m)) };
  const message = parsed.data;
  const schema = "method" in message && "id" in message ? requests.get(message.method) : void 0;
  const problems = schema ? problemsIn(schema, message) : null;
  if (problems) return { ok: false, refusal: rpcError(idOf(m), INVALID_PARAMS, problems) };
  return { ok: true, message };
}

// sellers/resources.ts
function endpointResources(e) {
  const made = built.get(e);
  if (made) return made;
  const resources = build2(e);
  built.set(e, resources);
  return resources;
}
var built = /* @__PURE__ */ new WeakMap();
function build2(e) {
  const resources = appResources((tool) => e.byName.has(tool));
  const resourceTemplates = e.byName.has(LINKING_TOOL) ? REHEARSAL_TEMPLATES : [];
  const served = [...resources.map((r) => r.uri), ...resourceTemplates.map((t) => t.uriTemplate)].join(", ") || "none";
  return {
    list: { resources },
    templates: { resourceTemplates },
    async read(ctx, uri) {
      const app = await readAppResource(uri);
      if (app) return { kind: "contents", result: app };
      const part = resourceTemplates.length > 0 ? await readRehearsalPart(ctx, uri) : null;
      if (!part) return { kind: "not_found", message: `no resource ${uri}: this endpoint serves ${served}` };
      if (part.kind === "contents") return { kind: "contents", result: { contents: part.contents } };
      return part.kind === "join_required" ? { kind: "join_required", uri } : part;
    }
  };
}

// services/plane/metrics.ts
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

// store/ledger-locks.ts
import { channel as channel2 } from "node:diagnostics_channel";
var ledgerLocks = channel2("deck:ledger-lock");
function publishLockHeld(ledger, started) {
  if (!ledgerLocks.hasSubscribers) return;
  ledgerLocks.publish({ ledger, seconds: (performance.now() - started) / 1e3 });
}

// services/plane/metrics.ts
var outcomeOfStatus = (status) => status < 400 ? "ok" : status < 500 ? "refused" : "failed";
var upstreamLabel = (name) => name.toLowerCase().replace(/^the\s+/, "").replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
var SECONDS = [5e-3, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
var LOCK_SECONDS = [1e-4, 25e-5, 5e-4, 1e-3, 25e-4, 5e-3, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
var Plane = class {
  registry = new Registry();
  requests;
  latency;
  tools;
  toolLatency;
  upstreams;
  upstreamLatency;
  lockHeld;
  last = /* @__PURE__ */ new Map();
  onUpstream = (message) => this.upstreamCall(message);
  onLockHeld = (message) => {
    const { ledger, seconds } = message;
    this.lockHeld.observe({ ledger }, seconds);
  };
  constructor(sources2) {
    const registers = [this.registry];
    this.requests = new Counter({ name: "deck_http_requests_total", help: "HTTP requests answered, by surface, method, route and status", labelNames: ["surface", "method", "route", "status"], registers });
    this.latency = new Histogram({ name: "deck_http_request_duration_seconds", help: "Time to answer an HTTP request, by surface, method and route", labelNames: ["surface", "method", "route"], buckets: SECONDS, registers });
    this.tools = new Counter({ name: "deck_tool_calls_total", help: "Tool calls, by tool, surface and outcome (ok, refused, failed)", labelNames: ["tool", "surface", "outcome"], registers });
    this.toolLatency = new Histogram({ name: "deck_tool_call_duration_seconds", help: "Time a tool call took, by tool and surface", labelNames: ["tool", "surface"], buckets: SECONDS, registers });
    this.upstreams = new Counter({ name: "deck_upstream_calls_total", help: "Calls to outside parties, by upstream and outcome (ok, refused, unreachable)", labelNames: ["upstream", "outcome"], registers });
    this.upstreamLatency = new Histogram({ name: "deck_upstream_call_duration_seconds", help: "Time an upstream took to answer (or to fail), by upstream", labelNames: ["upstream"], buckets: SECONDS, registers });
    this.lockHeld = new Histogram({ name: "deck_ledger_lock_seconds", help: "Time an append held its ledger's head locked against the other decks on a shared store (PostgreSQL), by ledger", labelNames: ["ledger"], buckets: LOCK_SECONDS, registers });
    new Gauge({
      name: "deck_guard_queue_depth",
      help: "Calls running or waiting under each guard, every principal together",
      labelNames: ["guard"],
      registers,
      collect() {
        for (const [guard, depth] of Object.entries(sources2.guardDepths())) this.set({ guard }, depth);
      }
    });
    new Counter({
      name: "deck_work_jobs_total",
      help: "Jobs the work pool ran, by kind and where (thread, or loop: no threads, or a light job while they load)",
      labelNames: ["kind", "where"],
      registers,
      collect() {
        this.reset();
        for (const { kind, where, n } of sources2.jobsRun()) this.inc({ kind, where }, n);
      }
    });
    new Gauge({
      name: "deck_ledger_entries",
      help: "Entries in each hash-chained ledger (its head seq)",
      labelNames: ["ledger"],
      registers,
      async collect() {
        this.reset();
        for (const l of await sources2.ledgers()) if (l.length !== null) this.set({ ledger: l.name }, l.length);
      }
    });
    collectDefaultMetrics({ register: this.registry });
    subscribe(upstreamCalls.name, this.onUpstream);
    subscribe(ledgerLocks.name, this.onLockHeld);
  }
  /** One HTTP request answered. `route` is the route's pattern (never the path itself, which may carry ids). */
  request(surface, method, route, status, seconds) {
    this.requests.inc({ surface, method, route, status: String(status) });
    this.latency.observe({ surface, method, route }, seconds);
  }
  /** One tool call and what became of it. */
  toolCall(tool, surface, outcome, seconds) {
    this.tools.inc({ tool, surface, outcome });
    this.toolLatency.observe({ tool, surface }, seconds);
  }
  upstreamCall(call) {
    const upstream = upstreamLabel(call.upstream);
    this.upstreams.inc({ upstream, outcome: call.outcome });
    this.upstreamLatency.observe({ upstream }, call.seconds);
    this.last.set(upstream, call);
  }
  /** The last answer of an upstream (by its label) since start; null when it was not called. */
  lastAnswer(upstream) {
    return this.last.get(upstream) ?? null;
  }
  /** The Prometheus text format, and its content type. */
  async exposition() {
    return { type: this.registry.contentType, text: await this.registry.metrics() };
  }
  /** Stops listening for upstream calls (the deck is closing). */
  close() {
    unsubscribe(upstreamCalls.name, this.onUpstream);
    unsubscribe(ledgerLocks.name, this.onLockHeld);
  }
};

// upstream/x402/wire.ts
import { z as z135 } from "zod";
var X402_VERSION = 2;
var decimal = z135.string().regex(/^\d{1,78}$/, "a whole number in the token's smallest unit, as a decimal string");
var address2 = z135.string().regex(/^0x[0-9a-fA-F]{40}$/, "an address: 0x and 40 hex digits");
var PaymentRequirements = z135.object({
  scheme: z135.string(),
  network: z135.string(),
  amount: decimal,
  asset: address2,
  payTo: address2,
  maxTimeoutSeconds: z135.number().int().positive(),
  extra: z135.record(z135.string(), z135.unknown()).optional()
});
var Resource = z135.object({ url: z135.string(), description: z135.string(), mimeType: z135.string() });
var Authorization = z135.object({
  from: address2,
  to: address2,
  value: decimal,
  validAfter: decimal,
  validBefore: decimal,
  nonce: z135.string().regex(/^0x[0-9a-fA-F]{64}$/, "a bytes32 nonce: 0x and 64 hex digits")
});
var signature2 = z135.string().regex(/^0x[0-9a-fA-F]+$/, "a hex signature");
var ExactPayload = z135.object({ signature: signature2, authorization: Authorization });
var Permit2Authorization = z135.object({
  from: address2,
  permitted: z135.object({ token: address2, amount: decimal }),
  spender: address2,
  nonce: decimal,
  deadline: decimal,
  witness: z135.object({ to: address2, facilitator: address2, validAfter: decimal })
});
var UptoPayload = z135.object({ signature: signature2, permit2Authorization: Permit2Authorization });
var PaymentEnvelope = z135.object({
  x402Version: z135.literal(X402_VERSION),
  resource: Resource.optional(),
  accepted: PaymentRequirements,
  payload: z135.record(z135.string(), z135.unknown()),
  extensions: z135.record(z135.string(), z135.unknown()).optional()
});
var VerifyResponse = z135.object({ isValid: z135.boolean(), invalidReason: z135.string().optional(), payer: z135.string().optional() });
var SettleResponse = z135.object({
  success: z135.boolean(),
  errorReason: z135.string().optional(),
  payer: z135.string().optional(),
  transaction: z135.string(),
  network: z135.string(),
  amount: decimal.optional()
});
var SupportedResponse = z135.object({
  kinds: z135.array(z135.object({ x402Version: z135.number(), scheme: z135.string(), network: z135.string(), extra: z135.record(z135.string(), z135.unknown()).optional() }))
});
var toHeader = (value) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");
var fromHeader = (header) => JSON.parse(Buffer.from(header, "base64").toString("utf8"));

// services/pay/per-call.ts
import { formatUnits as formatUnits2, parseUnits as parseUnits2 } from "ethers";

// upstream/x402/facilitator.ts
var NAME = "x402 facilitator";
var Facilitator = class {
  constructor(url, settleTimeoutMs = 6e4) {
    this.url = url;
    this.settleTimeoutMs = settleTimeoutMs;
  }
  url;
  settleTimeoutMs;
  verify(paymentPayload, paymentRequirements, ended) {
    return this.post("/verify", { x402Version: X402_VERSION, paymentPayload, paymentRequirements }, VerifyResponse, 1e4, ended);
  }
  /** Never cancelled with the request: a settlement under way is seen through, so what it did is known. */
  settle(paymentPayload, paymentRequirements) {
    return this.post("/settle", { x402Version: X402_VERSION, paymentPayload, paymentRequirements }, SettleResponse, this.settleTimeoutMs);
  }
  async supported() {
    const answer3 = await callJson(NAME, `${this.url}/supported`, { method: "GET", timeoutMs: 1e4 });
    const read = SupportedResponse.safeParse(answer3.body);
    if (answer3.status !== 200 || !read.success) throw refusedBy(NAME, answer3.body);
    return read.data;
  }
  async post(path, body, shape, timeoutMs, ended) {
    const answer3 = await callJson(NAME, `${this.url}${path}`, { method: "POST", body, timeoutMs, ...ended ? { ended } : {} });
    const read = shape.safeParse(answer3.body);
    if (read.success) return read.data;
    if (answer3.status >= 500) throw didNotAnswer(NAME, `${path} answered ${answer3.status}`);
    throw refusedBy(NAME, answer3.body);
  }
};

// services/pay/per-call.ts
function priceWords(price3) {
  return price3.scheme === "exact" ? `${price3.usdc} USDC` : `${price3.per_bar_usdc} USDC a bar served, at most ${price3.max_usdc} USDC`;
}
var usdcOf = (perCall, amount) => formatUnits2(amount, perCall.decimals);
function perCallOf(plans2, treasury, facilitatorUrl, tools, locks) {
  const per = plans2.per_call;
  if (!facilitatorUrl) return null;
  if (!per) throw new Error("DECK_X402_FACILITATOR is set but the plans file has no per_call: name the chain and the priced tools");
  if (!treasury) throw new Error("DECK_X402_FACILITATOR is set but no treasury is configured (DECK_TREASURY or the plans file's treasury): payments need a payTo");
  const chain = plans2.chains.find((c) => c.id === per.chain);
  if (!chain.eip712) throw new Error(`plans file: chains ${chain.id} has no eip712 { name, version }, which per_call's authorizations are signed under`);
  const facilitator = new Facilitator(facilitatorUrl.replace(/\/+$/, ""));
  const units = (usdc3) => parseUnits2(usdc3, chain.token_decimals);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const prices = /* @__PURE__ */ new Map();
  for (const [name, price3] of Object.entries(per.tools)) {
    const tool = byName.get(name);
    if (!tool) throw new Error(`plans file: per_call.tools names ${name}, which is not a tool`);
    if (tool.access === "none") throw new Error(`plans file: per_call.tools names ${name}, which needs no key: there is nothing to sell`);
    if (locks.has(name)) throw new Error(`plans file: per_call.tools names ${name}, which tier_tools locks: a payer per call stands on the free tier`);
    if (!tool.foresees) throw new Error(`plans file: per_call.tools names ${name}, which does not foresee its refusals: a payer would be charged for a call it refuses`);
    if (typeof price3 === "string") {
      prices.set(name, { scheme: "exact", usdc: price3 });
      continue;
    }
    if (!tool.countsBars) throw new Error(`plans file: per_call.tools prices ${name} by bars, which its foresight does not count: price it a call`);
    if (units(price3.per_bar) === 0n || units(price3.max) < units(price3.per_bar)) {
      throw new Error(`plans file: per_call.tools.${name}: per_bar must be above 0 and max at least one bar's price`);
    }
    prices.set(name, { scheme: "upto", per_bar_usdc: price3.per_bar, max_usdc: price3.max, perBar: units(price3.per_bar) });
  }
  const requirements = /* @__PURE__ */ new Map();
  for (const [name, price3] of prices) {
    requirements.set(name, {
      scheme: price3.scheme,
      network: chain.id,
      amount: (price3.scheme === "exact" ? units(price3.usdc) : units(price3.max_usdc)).toString(),
      asset: chain.token_address,
      payTo: treasury,
      maxTimeoutSeconds: per.max_timeout_s,
      extra: { name: chain.eip712.name, version: chain.eip712.version }
    });
  }
  let known2 = null;
  const settler = () => {
    known2 ??= uptoSettler(facilitator, chain.id).catch((error) => {
      known2 = null;
      throw error;
    });
    return known2;
  };
  return { facilitator, network: chain.id, requirements, prices, decimals: chain.token_decimals, settler };
}
async function uptoSettler(facilitator, network) {
  const supported = await facilitator.supported();
  const kind = supported.kinds.find((k) => k.x402Version === 2 && k.scheme === "upto" && k.network === network);
  const address3 = kind?.extra?.facilitatorAddress;
  if (typeof address3 !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(address3)) {
    throw new DeckError(502, "upstream_refused", `the x402 facilitator lists no upto scheme on ${network} with a facilitatorAddress in /supported: set DECK_X402_FACILITATOR to one that settles upto, or price the tool by the call in the plans file`, {
      upstream: "x402 facilitator"
    });
  }
  return address3;
}

// services/pay/payment.ts
var SETTLE_MARGIN_S = 6;
var inFlight = /* @__PURE__ */ new Set();
async function askedOf(perCall, tool) {
  const requirements = perCall.requirements.get(tool);
  return requirements.scheme === "upto" ? { ...requirements, extra: { ...requirements.extra, facilitatorAddress: await perCall.settler() } } : requirements;
}
function paymentRequired(perCall, requirements, tool, url, code, message, extra = {}) {
  const required = {
    x402Version: X402_VERSION,
    error: `${code}: ${message}`,
    resource: { url, description: `${tool}, one call, ${priceWords(perCall.prices.get(tool))}`, mimeType: "application/json" },
    accepts: [requirements]
  };
  return new DeckError(402, code, message, { ...extra, x402: required });
}
function payerPrincipal(payer) {
  const wallet2 = payer.toLowerCase();
  return { id: `x402:${wallet2}`, name: wallet2, agent_id: `x402:${wallet2}`, wallet: wallet2, wallet_status: "proven", tier: "free", via: "payment" };
}
var same4 = (a, b) => a.toLowerCase() === b.toLowerCase();
function termsOf({ accepted, payload }) {
  if ("authorization" in payload) {
    const a = payload.authorization;
    return { payer: a.from, to: a.to, token: accepted.asset, maximum: BigInt(a.value), validAfter: BigInt(a.validAfter), validBefore: BigInt(a.validBefore), nonce: a.nonce.toLowerCase() };
  }
  const p = payload.permit2Authorization;
  return { payer: p.from, to: p.witness.to, token: p.permitted.token, maximum: BigInt(p.permitted.amount), validAfter: BigInt(p.witness.validAfter), validBefore: BigInt(p.deadline), nonce: BigInt(p.nonce).toString() };
}
function admitPayment(ctx, perCall, asked, tool, url, sent) {
  const refuse2 = (code, message, extra) => paymentRequired(perCall, asked, tool, url, code, message, extra);
  let raw = sent;
  if (typeof sent === "string") {
    try {
      raw = fromHeader(sent);
    } catch {
      throw refuse2("payment_invalid", "the payment is not base64 of a JSON PaymentPayload", { field: "PAYMENT-SIGNATURE" });
    }
  }
  const read = PaymentEnvelope.safeParse(raw);
  if (!read.success) throw refuse2("payment_invalid", "the payment is not an x402 v2 PaymentPayload", { problems: problemsOf(read.error) });
  const price3 = perCall.prices.get(tool);
  const { accepted } = read.data;
  if (accepted.scheme !== asked.scheme) throw refuse2("wrong_scheme", `the payment is of scheme ${accepted.scheme}; ${tool} is paid with ${asked.scheme}`);
  const body = (asked.scheme === "upto" ? UptoPayload : ExactPayload).safeParse(read.data.payload);
  if (!body.success) throw refuse2("payment_invalid", `the payment's payload is not the ${asked.scheme} scheme's on EVM`, { problems: problemsOf(body.error) });
  const paid = { ...read.data, payload: body.data };
  const terms = termsOf(paid);
  if (accepted.network !== asked.network) throw refuse2("wrong_network", `the payment is on ${accepted.network}; ${tool} is paid on ${asked.network}`);
  if (!same4(accepted.asset, asked.asset) || !same4(terms.token, asked.asset)) throw refuse2("wrong_asset", `the payment is in ${terms.token}; ${tool} is paid in ${asked.asset}`);
  if (!same4(accepted.payTo, asked.payTo) || !same4(terms.to, asked.payTo)) throw refuse2("wrong_recipient", `the payment is not to ${asked.payTo}`);
  const most = BigInt(asked.amount);
  if (price3.scheme === "exact") {
    if (terms.maximum < most || BigInt(accepted.amount) < most) throw refuse2("underpaid", `the payment authorizes ${terms.maximum}; ${tool} costs ${asked.amount}`, { paid: String(terms.maximum), price: asked.amount });
    if (terms.maximum > most) throw refuse2("overpaid", `the exact scheme pays exactly ${asked.amount}; the payment authorizes ${terms.maximum}`, { paid: String(terms.maximum), price: asked.amount });
  } else {
    if (terms.maximum > most) throw refuse2("overpaid", `the payment authorizes up to ${terms.maximum}; ${tool} costs at most ${asked.amount} a call`, { paid: String(terms.maximum), price: asked.amount });
    const settler = String(asked.extra?.facilitatorAddress);
    const named3 = "permit2Authorization" in body.data ? body.data.permit2Authorization.witness.facilitator : "";
    if (!same4(named3, settler)) throw refuse2("wrong_facilitator", `the payment's witness names ${named3} to settle it; this deck's facilitator settles from ${settler}`);
  }
  const nowS2 = BigInt(Math.floor(ctx.clock() / 1e3));
  if (terms.validAfter > nowS2) throw refuse2("payment_not_yet_valid", `the authorization is valid from ${terms.validAfter} (unix seconds); it is ${nowS2}`);
  if (terms.validBefore <= nowS2 + BigInt(SETTLE_MARGIN_S)) {
    throw refuse2("payment_expired", `the authorization expired at ${terms.validBefore} (unix seconds, with ${SETTLE_MARGIN_S} s to settle); it is ${nowS2}`);
  }
  const key = `${terms.payer.toLowerCase()}|${terms.nonce}`;
  if (inFlight.has(key) || ctx.store.spend.paidWith(terms.payer, terms.nonce)) throw refuse2("payment_replayed", `the authorization's nonce ${terms.nonce} has already paid for a call`);
  let charged = null;
  const payment = {
    settled: null,
    async settle(call, bars) {
      const cost = price3.scheme === "exact" ? most : costOf(price3, bars);
      if (cost > terms.maximum) {
        throw refuse2("underpaid", `the ${bars} bars ${tool} would serve cost ${usdcOf(perCall, cost)} USDC; the payment authorizes at most ${usdcOf(perCall, terms.maximum)}: sign for more, or ask for fewer bars`, {
          paid: String(terms.maximum),
          price: String(cost),
          bars
        });
      }
      if (inFlight.has(key)) throw refuse2("payment_replayed", `the authorization's nonce ${terms.nonce} is paying for another call`);
      inFlight.add(key);
      try {
        const settlement = await settled4(call, perCall, paid, { ...asked, amount: String(terms.maximum) }, { ...asked, amount: String(cost) }, refuse2);
        charged = { network: settlement.network, transaction: settlement.transaction, payer: terms.payer.toLowerCase(), asset: asked.asset, amount: settlement.amount ?? String(cost), nonce: terms.nonce };
        await call.store.spend.record({ principal_id: call.principal.id, action: tool, units: 0, paid: charged }, call.clock());
        payment.settled = settlement;
      } finally {
        inFlight.delete(key);
      }
    },
    unserved: (call, error) => unserved(call, tool, payment.settled, charged, error)
  };
  return { principal: payerPrincipal(terms.payer), payment };
}
function costOf(price3, bars) {
  if (bars === null) throw internalFailure();
  return price3.perBar * BigInt(bars);
}
async function settled4(ctx, perCall, paid, verifyFor, settleFor, refuse2) {
  const checked2 = await perCall.facilitator.verify(paid, verifyFor, ctx.ended());
  if (!checked2.isValid) throw refuse2("payment_refused", `the facilitator refused the payment: ${checked2.invalidReason ?? "no reason given"}`, { reason: checked2.invalidReason ?? null });
  const upto = settleFor.scheme === "upto";
  if (upto && settleFor.amount === "0") return { success: true, transaction: "", network: settleFor.network, payer: termsOf(paid).payer, amount: "0" };
  const settlement = await perCall.facilitator.settle(paid, settleFor);
  if (!settlement.success) {
    throw refuse2("settlement_failed", `the payment could not be settled: ${settlement.errorReason ?? "no reason given"}; nothing was done or recorded`, {
      reason: settlement.errorReason ?? null,
      settlement
    });
  }
  return upto ? { ...settlement, amount: settlement.amount ?? settleFor.amount } : settlement;
}
async function unserved(ctx, tool, settlement, paid, error) {
  const refusal = error instanceof DeckError ? error : internalFailure();
  if (refusal !== error) ctx.log.error("tool_failed", { tool, error: error.message });
  await ctx.store.spend.record({ principal_id: ctx.principal.id, action: tool, units: 0, refund_due: { ...paid, status: refusal.status, error: refusal.code } }, ctx.clock());
  return new DeckError(refusal.status, refusal.code, `${refusal.message}; the payment settled (transaction ${paid.transaction}) and is due back to ${paid.payer}: the meter records it for the operator to refund`, {
    ...refusal.details,
    settlement,
    refund_due: { network: paid.network, transaction: paid.transaction, payer: paid.payer, asset: paid.asset, amount: paid.amount }
  });
}
function perCallFor(ctx, tool) {
  const perCall = ctx.offer.perCall;
  return tool.access === "session" && !ctx.principal && perCall?.requirements.has(tool.name) ? perCall : null;
}
async function paidAs(ctx, perCall, tool, url, sent) {
  const asked = await askedOf(perCall, tool);
  if (sent === void 0 || sent === null || sent === "") {
    throw paymentRequired(perCall, asked, tool, url, "payment_required", `${tool} costs ${priceWords(perCall.prices.get(tool))} a call without a key: pay it with x402 (scheme ${asked.scheme}) or sign in`);
  }
  const admitted = admitPayment(ctx, perCall, asked, tool, url, sent);
  return { principal: admitted.principal, payment: admitted.payment };
}

// sellers/tool-call.ts
var BODY_JSON = /* @__PURE__ */ Symbol("the body as JSON");
var writtenResults = /* @__PURE__ */ new WeakMap();
var asResult = (body, isError, png) => {
  const text2 = jsonOf(body);
  return {
    content: [...png ? [{ type: "image", data: Buffer.from(png).toString("base64"), mimeType: "image/png" }] : [], { type: "text", text: text2 }],
    ...isError ? { isError: true } : { structuredContent: body },
    [BODY_JSON]: text2
  };
};
function resultJson(r) {
  const body = r[BODY_JSON];
  if (body === void 0 || r._meta !== void 0) return JSON.stringify(r);
  const structured = r.structuredContent;
  const keep = r.content.length === 1 && structured !== void 0 && Object.isFrozen(structured);
  const kept = keep ? writtenResults.get(structured) : void 0;
  if (kept !== void 0) return kept;
  const image = r.content.length > 1 ? `${JSON.stringify(r.content[0])},` : "";
  const json = `{"content":[${image}{"type":"text","text":${JSON.stringify(body)}}],${r.isError ? '"isError":true' : `"structuredContent":${body}`}}`;
  if (keep) writtenResults.set(structured, json);
  return json;
}
var linkedResult = (out) => ({
  content: [{ type: "text", text: out.summary }, ...out.links.map((l) => ({ type: "resource_link", ...l }))],
  structuredContent: out.body
});
async function resultOf(out) {
  if (out instanceof EventStream) return asResult(await out.whole(), false);
  if (out instanceof WithImage) return asResult(out.body, false, out.png);
  if (out instanceof WithLinks) return linkedResult(out);
  if (out instanceof JsonBytes) return asResult(JSON.parse(out.bytes.toString("utf8")), false);
  return asResult(out, false);
}
async function callOnEndpoint(e, given, name, args, meta, paying) {
  const tool = e.byName.get(name);
  if (!tool) return { kind: "unknown_tool", name };
  let ctx = given;
  const perCall = perCallFor(ctx, tool);
  if (tool.access === "session" && !ctx.principal && !perCall) return { kind: "join_required" };
  const started = performance.now();
  try {
    if (perCall) {
      const sent = typeof meta === "object" && meta !== null ? meta[PAYMENT] : void 0;
      const admitted = await paidAs(ctx, perCall, name, `${ctx.urls.base}/mcp#${name}`, sent);
      ctx = { ...ctx, ...admitted, payment: paying ? paying(admitted.payment, admitted.principal) : admitted.payment };
    }
    const withDefaults2 = tool.mcpDefaults && typeof args === "object" && args !== null ? { ...tool.mcpDefaults, ...args } : args;
    const result = await resultOf(await tool.call(ctx, withDefaults2));
    if (ctx.payment?.settled) result._meta = { [PAYMENT_RESPONSE]: ctx.payment.settled };
    ctx.plane.toolCall(name, "mcp", "ok", (performance.now() - started) / 1e3);
    return { kind: "result", result };
  } catch (error) {
    const refusal = error instanceof DeckError ? error : internalFailure();
    if (refusal !== error) ctx.log.error("tool_failed", { tool: name, error: error.message });
    ctx.plane.toolCall(name, "mcp", outcomeOfStatus(refusal.status), (performance.now() - started) / 1e3);
    const required = refusal.status === 402 ? refusal.details.x402 : void 0;
    if (required) return { kind: "result", result: { content: [{ type: "text", text: JSON.stringify(required) }], structuredContent: required, isError: true } };
    const result = asResult({ ...refusal.body(), status: refusal.status }, true);
    if (ctx.payment?.settled) result._meta = { [PAYMENT_RESPONSE]: ctx.payment.settled };
    return { kind: "result", result };
  }
}
var PAYMENT = "x402/payment";
var PAYMENT_RESPONSE = "x402/payment-response";
function joinStep(tool, urls) {
  const how = `Open ${urls.join}, pick a name and keep the key you are shown once; then sign in with POST ${urls.base}/login and send the deck_session value (or the key) as "Authorization: Bearer ...".`;
  return { message: `${tool} needs a key. ${how}`, next: { step: "join", url: urls.join, message: how } };
}

export {
  loopbackAddress,
  PROJECT_ROOT,
  loadPlans,
  loadGrants,
  loadCards,
  DeckError,
  badInput,
  internalFailure,
  signInFirst,
  notConfigured,
  unreachable,
  refusedBy,
  didNotAnswer,
  limitReached,
  JsonShape,
  HOUSE_WIDE,
  Guards,
  treasuryOf,
  JsonBytes,
  WithImage,
  WithLinks,
  EventStream,
  upgradeRequired,
  TOOLSETS,
  SpendBook,
  TYPED_DECISION_VERSION,
  bookCosts,
  stepBar,
  BookStore,
  liveBook,
  replayBook,
  undici,
  NamedTargets,
  Models,
  Owned,
  Runs,
  typicalSpacing,
  lengthWords,
  vouchedRuns,
  writeAtomic,
  summaryOf,
  isTapeOf,
  FileTapeDays,
  TapeArchive,
  resample,
  publishCall,
  watched,
  CandleRowSchema,
  VENUE_TAPE,
  TimeframeNotServed,
  VenueTape,
  FINER,
  Tape,
  meteredCandles,
  positionView,
  readDecision,
  countRefused,
  applyDecision,
  calibrate,
  callJson,
  expectOk,
  openForecaster,
  newKey,
  digest,
  noLoginWindows,
  LoginThrottle,
  resting,
  Accounts,
  SESSION_COOKIE,
  principalFrom,
  admitCredential,
  X_TTL_MS,
  xKey,
  newState,
  pkceVerifier,
  s256,
  proved,
  notResting,
  protectedResources,
  resourceNamed,
  resourceMetadata,
  challenges,
  challengeOf,
  exchangeCode,
  refresh,
  revoke,
  verifyAccess,
  RPC_TIMEOUT_MS,
  chainNumber,
  rpcProvider,
  Mandates,
  REQUEST_TTL_MS,
  Authorizations,
  ClientMetadataFetcher,
  registerClient,
  metadataUrl,
  clientFor,
  VenuesAnswer,
  PoolQuoteAnswer,
  HandshakeOpened,
  SettleAnswer,
  HandshakeAnswer,
  SELLERS,
  priceOf,
  sellerById,
  SELLER_IDS,
  Grades,
  Studio,
  refusalOf3 as refusalOf,
  REGISTRY,
  TOOL_LISTING,
  DEFAULT_TOOLSETS,
  toolsetsOf,
  chooseToolsets,
  pageOf2 as pageOf,
  TASK_TOOLS,
  lockedBy,
  DECK_ENDPOINT,
  SELLER_ENDPOINTS,
  listedAs,
  listingOf,
  listingFor,
  servedOn,
  unknownToolMessage,
  toHeader,
  PARSE_ERROR,
  INVALID_REQUEST,
  INVALID_PARAMS,
  UNKNOWN_TOOL,
  KEY_REQUIRED,
  RESOURCE_NOT_FOUND,
  rpcError,
  Written,
  replyJson,
  idOf,
  TOOL_REQUESTS,
  LEGACY_REQUESTS,
  checkMessage,
  endpointResources,
  publishLockHeld,
  outcomeOfStatus,
  Plane,
  perCallOf,
  perCallFor,
  paidAs,
  resultJson,
  callOnEndpoint,
  joinStep
};
//# sourceMappingURL=chunk-R4KNNXXK.js.map
