var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// engine/markets.ts
var MARKETS = ["NQ", "ES", "YM", "BTC", "ETH", "SOL"];
var TIMEFRAMES = ["15s", "1m", "5m", "1h"];
var TIMEFRAME_SECONDS = { "15s": 15, "1m": 60, "5m": 300, "1h": 3600 };
var MARKET_SPECS = {
  NQ: { kind: "cme", tick: 0.25, point_value: 20, name: "E-mini Nasdaq-100 futures" },
  ES: { kind: "cme", tick: 0.25, point_value: 50, name: "E-mini S&P 500 futures" },
  YM: { kind: "cme", tick: 1, point_value: 5, name: "E-mini Dow futures" },
  BTC: { kind: "crypto", tick: 0.01, point_value: 1, name: "Bitcoin (USDT spot)" },
  ETH: { kind: "crypto", tick: 0.01, point_value: 1, name: "Ether (USDT spot)" },
  SOL: { kind: "crypto", tick: 0.01, point_value: 1, name: "Solana (USDT spot)" }
};
var MICROS_PER_EMINI = 10;
function pointsOfDollars(market, dollars, micro) {
  const spec = MARKET_SPECS[market];
  if (micro && spec.kind !== "cme") return null;
  return (micro ? dollars * MICROS_PER_EMINI : dollars) / spec.point_value;
}
var isMarket = (s) => MARKETS.includes(s);
var isTimeframe = (s) => TIMEFRAMES.includes(s);

// engine/forecast/envelope.ts
import { z } from "zod";
var ENVELOPE_VERSION = "envelope.v1";
var HORIZON = 24;
var TOUCH_ATR = [0.5, 1, 2];
var TOUCH_WITHIN = [6, 12, 24];
var TOUCHES = TOUCH_ATR.length * TOUCH_WITHIN.length;
var FORECAST_TIMEFRAMES = ["5m", "1h"];
var Price = z.number().positive().finite();
var Unit = z.number().nonnegative().finite();
var Step = z.strictObject({
  k: z.number().int().min(1).max(HORIZON),
  lower: Price,
  upper: Price,
  lower_atr: z.number().nonpositive().finite(),
  upper_atr: Unit
});
var Touch = z.strictObject({
  atr: z.number().positive(),
  within: z.number().int().positive(),
  odds: z.number().min(0).max(1)
});
var near = (a, b, scale) => Math.abs(a - b) <= 1e-8 * scale;
var EnvelopeSchema = z.strictObject({
  version: z.literal(ENVELOPE_VERSION),
  market: z.enum(MARKETS),
  tf: z.enum(FORECAST_TIMEFRAMES),
  /** When it was issued, unix seconds. */
  issued_t: z.number().int(),
  /** Open time of the last closed bar it read: nothing after that bar's close went into it. */
  last_bar_t: z.number().int(),
  /** The last close: the band's centre. */
  close: Price,
  /** The ATR the band and the touch sizes are measured in, price units. */
  atr: Price,
  band: z.strictObject({
    /** The share of closes each step's band is built to hold (its nominal coverage). */
    nominal: z.number().gt(0).lt(1),
    steps: z.array(Step).length(HORIZON)
  }),
  touch: z.array(Touch).length(TOUCHES),
  model: z.string().min(1).max(64),
  model_rev: z.string().min(1).max(64),
  device: z.string().min(1).max(32),
  /** How many past forecasts-and-outcomes the odds and the band were taken from. */
  samples: z.number().int().nonnegative()
}).superRefine((e, ctx) => {
  if (e.last_bar_t >= e.issued_t) ctx.addIssue({ code: "custom", path: ["last_bar_t"], message: "the last bar read must open before the issue time" });
  e.band.steps.forEach((s, i) => {
    if (s.k !== i + 1) ctx.addIssue({ code: "custom", path: ["band", "steps", i, "k"], message: `step ${i} must be k = ${i + 1}` });
    if (!near(s.upper - e.close, e.close - s.lower, e.close) || !near(s.upper_atr, -s.lower_atr, 1)) {
      ctx.addIssue({ code: "custom", path: ["band", "steps", i], message: "the band must be symmetric about the last close" });
    }
    if (!near(s.upper - e.close, s.upper_atr * e.atr, e.close)) {
      ctx.addIssue({ code: "custom", path: ["band", "steps", i], message: "the price ends must be the ATR ends times atr" });
    }
  });
  e.touch.forEach((t, i) => {
    const atr2 = TOUCH_ATR[Math.floor(i / TOUCH_WITHIN.length)];
    const within = TOUCH_WITHIN[i % TOUCH_WITHIN.length];
    if (t.atr !== atr2 || t.within !== within) {
      ctx.addIssue({ code: "custom", path: ["touch", i], message: `touch ${i} must be the odds of ${atr2} ATR within ${within} bars` });
    }
  });
});
function compactOf(e) {
  const last = e.band.steps[HORIZON - 1];
  return compact(e.issued_t, last.upper_atr, last.lower, last.upper);
}
var compact = (issued_t, half, lower, upper) => ({
  issued_t,
  width_atr: roundUnit(2 * half),
  lower,
  upper
});
var placesOf = (x) => 9 - Math.floor(Math.log10(x));
var POW10 = Array.from({ length: 23 }, (_, p) => 10 ** p);
function roundTo(x, places) {
  if (places < 0) {
    const unit = POW10[-places] ?? 10 ** -places;
    return Math.round(x / unit) * unit;
  }
  const scale = POW10[places] ?? 10 ** places;
  return Math.round(x * scale) / scale;
}
var roundPrice = (x) => roundTo(x, placesOf(x));
var roundUnit = (x) => Math.round(x * 1e4) / 1e4;

// engine/forecast/after.ts
var H = HORIZON;
var SIZES = Float64Array.from(TOUCH_ATR);
var WITHIN = Int32Array.from(TOUCH_WITHIN);
function touchMask(bars, i, close, atr2, reach) {
  const { h, l } = bars;
  let far = 0;
  let mask = 0;
  let w = 0;
  for (let m = 1; m <= H; m++) {
    const up = h[i + m] - close;
    const down = close - l[i + m];
    if (up > far) far = up;
    if (down > far) far = down;
    if (m === WITHIN[w]) {
      for (let s = 0; s < SIZES.length; s++) if (far >= SIZES[s] * atr2) mask |= 1 << s * WITHIN.length + w;
      if (reach) reach[w] = far / atr2;
      w++;
    }
  }
  return mask;
}
function closeDistances(bars, i, close, atr2, out) {
  const { c } = bars;
  for (let k = 1; k <= H; k++) {
    const d = c[i + k] - close;
    out[k - 1] = (d < 0 ? -d : d) / atr2;
  }
}

// engine/indicators/window.ts
function checkLength(n, what) {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${what}: the look-back must be a whole number of bars >= 1, got ${n}`);
}
var warmingUp = (length, first) => new Float64Array(length).fill(NaN, 0, first);

// engine/indicators/atr.ts
function trueRange(h, l, pc) {
  return (pc > h ? pc : h) - (pc < l ? pc : l);
}
function atr(high, low, close, n) {
  checkLength(n, "atr");
  const length = close.length;
  const out = warmingUp(length, n - 1);
  if (length < n) return out;
  let avg = high[0] - low[0];
  for (let i = 1; i < n; i++) avg += trueRange(high[i], low[i], close[i - 1]);
  avg /= n;
  out[n - 1] = avg;
  const w = 1 / n;
  const keep = 1 - w;
  for (let i = n; i < length; i++) {
    avg = w * trueRange(high[i], low[i], close[i - 1]) + keep * avg;
    out[i] = avg;
  }
  return out;
}

// engine/forecast/atr-window.ts
var ATR_N = 14;
var ATR_WINDOW = 150;
function windowAtr(bars, j) {
  const from = j - ATR_WINDOW + 1;
  if (from < 0 || j >= bars.length) return NaN;
  const { h, l, c } = bars;
  let avg = h[from] - l[from];
  for (let i = from + 1; i < from + ATR_N; i++) avg += trueRange(h[i], l[i], c[i - 1]);
  avg /= ATR_N;
  const w = 1 / ATR_N;
  const keep = 1 - w;
  for (let i = from + ATR_N; i <= j; i++) avg = w * trueRange(h[i], l[i], c[i - 1]) + keep * avg;
  return avg;
}

// engine/forecast/sample.ts
var T = TOUCHES;
var W = TOUCH_WITHIN.length;
var COLUMNS = HORIZON + W;
var LEAST_REACH = 0.01;
var LOG_STEP = 4096;
var ln = (x) => Math.round(Math.log(x) * LOG_STEP);
var TrailingSample = class {
  constructor(capacity) {
    this.capacity = capacity;
    this.ring = new Float64Array(capacity * COLUMNS);
    this.masks = new Int32Array(capacity);
    this.logs = new Int32Array(capacity * (1 + W));
    this.sorted = Array.from({ length: COLUMNS }, () => new Float64Array(capacity));
  }
  capacity;
  size = 0;
  oldest = 0;
  ring;
  masks;
  /** Per slot: ln ATR, then ln reach per horizon, in steps of 1/LOG_STEP (the regime's variables, taken on arrival). */
  logs;
  /** Over the sample, in steps: Σ ln ATR, Σ (ln ATR)², and per horizon Σ ln reach and Σ ln ATR · ln reach. */
  sx = 0;
  sxx = 0;
  sy = new Float64Array(W);
  sxy = new Float64Array(W);
  sorted;
  touched = new Int32Array(TOUCHES);
  slopes = new Float64Array(W);
  /** Takes one bar's COLUMNS values, touch mask and ATR as a share of its close, pushing out the oldest when full. */
  push(values, mask, atr2) {
    let slot;
    if (this.size < this.capacity) {
      slot = this.size;
      for (let k = 0; k < COLUMNS; k++) insert(this.sorted[k], this.size, values[k]);
      this.size++;
    } else {
      slot = this.oldest;
      this.oldest = (this.oldest + 1) % this.capacity;
      const base = slot * COLUMNS;
      for (let k = 0; k < COLUMNS; k++) replace(this.sorted[k], this.size, this.ring[base + k], values[k]);
      this.count(this.masks[slot], -1);
      this.sum(slot, -1);
    }
    this.ring.set(values, slot * COLUMNS);
    this.masks[slot] = mask;
    const at2 = slot * (1 + W);
    this.logs[at2] = ln(atr2);
    for (let w = 0; w < W; w++) this.logs[at2 + 1 + w] = ln(Math.max(LEAST_REACH, values[HORIZON + w]));
    this.count(mask, 1);
    this.sum(slot, 1);
  }
  /** The q-quantile of the distances at step k (1-based), linear between order statistics (type 7). */
  quantile(k, q) {
    const a = this.sorted[k - 1];
    const h = (this.size - 1) * q;
    const lo = Math.floor(h);
    const hi = Math.min(lo + 1, this.size - 1);
    return a[lo] + (h - lo) * (a[hi] - a[lo]);
  }
  /** How often touch `index` happened, with half an event added to one extra sample so no odds read 0 or 1. */
  odds(index) {
    return (this.touched[index] + 0.5) / (this.size + 1);
  }
  /** How often the reach within horizon `w` (an index of TOUCH_WITHIN) came to x ATR or more, counted as odds() counts. */
  beyond(w, x) {
    const a = this.sorted[HORIZON + w];
    return (this.size - search(a, this.size, x, false) + 0.5) / (this.size + 1);
  }
  /** The sample's regime: the mean ln ATR, and per horizon the least-squares slope of ln reach on ln ATR. */
  regime() {
    const n = this.size;
    const xx = n * this.sxx - this.sx * this.sx;
    for (let w = 0; w < W; w++) this.slopes[w] = xx > 0 ? (n * this.sxy[w] - this.sx * this.sy[w]) / xx : 0;
    return { level: this.sx / n / LOG_STEP, slopes: this.slopes };
  }
  /** Adds (by 1) or takes away (by −1) the regime's terms of the bar in `slot`. */
  sum(slot, by) {
    const at2 = slot * (1 + W);
    const x = this.logs[at2];
    this.sx += by * x;
    this.sxx += by * x * x;
    for (let w = 0; w < W; w++) {
      const y = this.logs[at2 + 1 + w];
      this.sy[w] += by * y;
      this.sxy[w] += by * x * y;
    }
  }
  count(mask, by) {
    for (let b = 0; b < T; b++) if (mask & 1 << b) this.touched[b] += by;
  }
};
function search(a, n, x, after) {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = lo + hi >>> 1;
    if (a[mid] < x || after && a[mid] === x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
function insert(a, n, x) {
  const at2 = search(a, n, x, true);
  a.copyWithin(at2 + 1, at2, n);
  a[at2] = x;
}
function replace(a, n, old, x) {
  const at2 = search(a, n, old, false);
  if (x >= old) {
    const to = search(a, n, x, true) - 1;
    a.copyWithin(at2, at2 + 1, to + 1);
    a[to] = x;
  } else {
    const to = search(a, n, x, false);
    a.copyWithin(to + 1, to, at2);
    a[to] = x;
  }
}

// engine/forecast/issuer.ts
var H2 = HORIZON;
var T2 = TOUCHES;
var WITHINS = TOUCH_WITHIN.length;
var WITHIN_BARS = Int32Array.from(TOUCH_WITHIN);
var MODEL = "excursion-quantile";
var MODEL_REV = "2";
var FIRST_STAGE_REV = "1";
var DEVICE = "cpu";
var DEFAULT_OPTIONS = { sample: 2e3, nominal: 0.8, minSamples: 200, recalibration: 0.25 };
var lookbackBars = (o = DEFAULT_OPTIONS) => o.sample + H2 + ATR_WINDOW - 1;
var ForecastError = class extends Error {
  constructor(reason, message) {
    super(message);
    this.reason = reason;
    this.name = "ForecastError";
  }
  reason;
};
function lastClosedBar(bars, tfSeconds, t) {
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = lo + hi >>> 1;
    if (bars.t[mid] + tfSeconds <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
function checkOptions(o) {
  if (!(Number.isInteger(o.minSamples) && o.minSamples >= 1 && Number.isInteger(o.sample) && o.sample >= o.minSamples)) {
    throw new RangeError(`forecast: need whole numbers 1 <= minSamples <= sample, got ${o.minSamples} and ${o.sample}`);
  }
  if (!(o.nominal > 0 && o.nominal < 1)) throw new RangeError(`forecast: nominal coverage must lie in (0, 1), got ${o.nominal}`);
  if (!(o.recalibration >= 0 && o.recalibration <= 1)) throw new RangeError(`forecast: recalibration must lie in [0, 1], got ${o.recalibration}`);
}
function exponentAt(k, at2) {
  if (k <= WITHIN_BARS[0]) return at2[0];
  for (let w = 1; w < WITHINS; w++) {
    const hi = WITHIN_BARS[w];
    if (k <= hi) {
      const lo = WITHIN_BARS[w - 1];
      return at2[w - 1] + (k - lo) / (hi - lo) * (at2[w] - at2[w - 1]);
    }
  }
  return at2[WITHINS - 1];
}
var Issuer = class {
  constructor(bars, pair, options = DEFAULT_OPTIONS) {
    this.bars = bars;
    this.pair = pair;
    this.options = options;
    checkOptions(options);
    this.sample = new TrailingSample(options.sample);
  }
  bars;
  pair;
  options;
  sample;
  /** One past bar as the sample keeps it: its close distances, then its reach per touch horizon. */
  values = new Float64Array(COLUMNS);
  reach = this.values.subarray(H2);
  /** The regime's exponent per touch horizon, for the issue at hand. */
  exponents = new Float64Array(WITHINS);
  issued = {
    issued_t: 0,
    close: 0,
    atr: 0,
    samples: 0,
    half: new Float64Array(H2),
    lower: new Float64Array(H2),
    upper: new Float64Array(H2),
    odds: new Float64Array(T2)
  };
  /** Fills an empty sample for bar i, oldest first, so the ring buffer drops the right one when the walk moves on. */
  fill(i) {
    const picked = [];
    const atrs = [];
    for (let j = i - H2; j >= ATR_WINDOW - 1 && picked.length < this.options.sample; j--) {
      const a = windowAtr(this.bars, j);
      if (a > 0) {
        picked.push(j);
        atrs.push(a);
      }
    }
    for (let p = picked.length - 1; p >= 0; p--) this.push(picked[p], atrs[p]);
  }
  /** Moves the sample from bar i − 1 to bar i: bar i − 24 has just had its 24 bars close. */
  step(i) {
    const j = i - H2;
    if (j >= ATR_WINDOW - 1) this.push(j, windowAtr(this.bars, j));
  }
  /**
   * The numbers of the envelope at bar i (the sample must be built for i), in arrays the next call overwrites.
   * Throws ForecastError when bar i has too little history or no range.
   */
  numbersAt(i, issuedT) {
    const raw = i >= 0 ? windowAtr(this.bars, i) : NaN;
    if (Number.isNaN(raw) || this.sample.size < this.options.minSamples) {
      throw new ForecastError(
        "warming_up",
        `a ${this.pair.tf} forecast needs at least ${this.options.minSamples + H2 + ATR_WINDOW - 1} closed bars before it; ${i + 1} had closed`
      );
    }
    if (!(raw > 0)) throw new ForecastError("flat", `the ${this.pair.tf} bars before ${issuedT} have no range (ATR is zero)`);
    const atr2 = roundPrice(raw);
    const n = this.issued;
    const close = this.bars.c[i];
    n.issued_t = issuedT;
    n.close = close;
    n.atr = atr2;
    n.samples = this.sample.size;
    const places = placesOf(close);
    const share = this.options.recalibration;
    const z9 = share > 0 ? this.regimeExponents(share, raw / close) : 0;
    for (let k = 0; k < H2; k++) {
      const q = this.sample.quantile(k + 1, this.options.nominal);
      const w = roundUnit(share > 0 ? q * Math.exp(-exponentAt(k + 1, this.exponents) * z9) : q);
      n.half[k] = w;
      n.lower[k] = roundTo(close - w * atr2, places);
      n.upper[k] = roundTo(close + w * atr2, places);
    }
    for (let b = 0; b < T2; b++) {
      const w = b % WITHINS;
      if (share === 0) {
        n.odds[b] = roundUnit(this.sample.odds(b));
        continue;
      }
      const odds = roundUnit(this.sample.beyond(w, TOUCH_ATR[Math.floor(b / WITHINS)] * Math.exp(this.exponents[w] * z9)));
      n.odds[b] = w > 0 ? Math.max(odds, n.odds[b - 1]) : odds;
    }
    return n;
  }
  /**
   * The recalibration, learned from the sample (past bars whose 24 following bars had closed by the issue, so only
   * outcomes known by then). Moves measured in an ATR that sat low for its time ran farther in it, and moves
   * measured in a high one ran shorter: across the sample ln reach falls with ln(ATR / close), by a slope per
   * horizon. The ATR is taken as a share of the close so that a sample spanning a rally or a crash compares
   * volatility, not price. Today's sits z = ln(ATR / close) − (the sample's mean of it) from the sample's level,
   * and the moves ahead are read as the sample's scaled by e^(−β·z), β = −slope · share, held to [0, 1] (0: the ATR
   * of the moment is the whole story; 1: it tells nothing beyond the sample's level). Writes β per horizon to
   * `exponents` and answers z.
   */
  regimeExponents(share, relative) {
    const { level: level2, slopes } = this.sample.regime();
    for (let w = 0; w < WITHINS; w++) this.exponents[w] = Math.min(1, Math.max(0, -slopes[w] * share));
    return Math.log(relative) - level2;
  }
  /** The envelope at bar i, issued at `issuedT`: numbersAt dressed as envelope.v1. */
  envelopeAt(i, issuedT) {
    const n = this.numbersAt(i, issuedT);
    const steps = Array.from(n.half, (w, k) => ({
      k: k + 1,
      lower: n.lower[k],
      upper: n.upper[k],
      lower_atr: w === 0 ? 0 : -w,
      upper_atr: w
    }));
    const touch = Array.from(n.odds, (odds, b) => ({ atr: TOUCH_ATR[Math.floor(b / WITHINS)], within: TOUCH_WITHIN[b % WITHINS], odds }));
    return {
      version: ENVELOPE_VERSION,
      market: this.pair.market,
      tf: this.pair.tf,
      issued_t: issuedT,
      last_bar_t: this.bars.t[i],
      close: n.close,
      atr: n.atr,
      band: { nominal: this.options.nominal, steps },
      touch,
      model: MODEL,
      model_rev: this.options.recalibration > 0 ? MODEL_REV : FIRST_STAGE_REV,
      device: DEVICE,
      samples: n.samples
    };
  }
  /** Adds past bar j, measured in its own ATR `a`; a bar with no range (a = 0) has no distances to give. */
  push(j, a) {
    if (!(a > 0)) return;
    const close = this.bars.c[j];
    closeDistances(this.bars, j, close, a, this.values);
    const mask = touchMask(this.bars, j, close, a, this.reach);
    this.sample.push(this.values, mask, a / close);
  }
};

// engine/forecast/issue.ts
function issueEnvelope(bars, pair, t, options = DEFAULT_OPTIONS) {
  const i = lastClosedBar(bars, TIMEFRAME_SECONDS[pair.tf], t);
  const issuer = new Issuer(closedBars(bars, i + 1), pair, options);
  issuer.fill(i);
  return issuer.envelopeAt(i, Math.floor(t));
}
var closedBars = (b, n) => ({
  length: n,
  t: b.t.subarray(0, n),
  o: b.o.subarray(0, n),
  h: b.h.subarray(0, n),
  l: b.l.subarray(0, n),
  c: b.c.subarray(0, n),
  v: b.v.subarray(0, n)
});

// engine/forecast/job.ts
function runIssueJob({ bars, pair, t }) {
  try {
    return { ok: true, envelope: issueEnvelope(bars, pair, t) };
  } catch (error) {
    if (error instanceof ForecastError) return { ok: false, reason: error.reason, message: error.message };
    throw error;
  }
}
function issuedOf(outcome) {
  if (outcome.ok) return outcome.envelope;
  throw new ForecastError(outcome.reason, outcome.message);
}

// engine/reader/lexemes.ts
var FIRST_COMES_WORD = "whichever comes first";
var UNREAD_INDICATOR = "unread indicator";
var guards = /* @__PURE__ */ new Map();
function is(k) {
  let guard = guards.get(k);
  if (!guard) guards.set(k, guard = (l) => l !== void 0 && l.k === k);
  return guard;
}

// engine/reader/clauses.ts
var CONTENT = /* @__PURE__ */ new Set(["distance", "operand", "num", "time", "duration", "close_exit", "cmp"]);
var SHORT_CLAUSES = /* @__PURE__ */ new Set(["stop", "target", "trail", "breakeven"]);
var BETWEEN_AMOUNT_AND_ANCHOR = /* @__PURE__ */ new Set(["a", "an", "the", "my", "your", "with", "use", "using", "as", "hard", "fixed", "initial", "protective", "tight", "wide", "i", "set", "put", "profit", "for", "and"]);
var isBoundary = (l) => l.k === "sep" || l.k === "anchor" || l.k === "comma" || l.k === "side";
function sellsAfterBuys(lx) {
  let bought = false;
  return lx.map((l) => {
    if (l.k !== "side") return l;
    if (l.side === "long") bought = true;
    return l.sell && bought ? { k: "anchor", anchor: "exit", from: l.from, to: l.to, ctx: l.ctx, seg: l.seg, also: l.also } : l;
  });
}
function amountBefore(lx, a) {
  const anchor = lx[a];
  if (!is("anchor")(anchor) || !["stop", "target", "trail"].includes(anchor.anchor)) return null;
  for (let j2 = a + 1; j2 < lx.length && !isBoundary(lx[j2]) && lx[j2].k !== "conj"; j2++) if (CONTENT.has(lx[j2].k)) return null;
  let sawAs = false;
  let j = a - 1;
  for (; j >= 0; j--) {
    const l2 = lx[j];
    if (l2.k !== "word" || !BETWEEN_AMOUNT_AND_ANCHOR.has(l2.norm)) break;
    if (l2.norm === "as") sawAs = true;
  }
  const l = lx[j];
  if (is("distance")(l) && (anchor.anchor === "target" || l.unit !== "r")) return l;
  if (is("operand")(l) && sawAs) return l;
  return null;
}
function place(lexemes) {
  const lx = sellsAfterBuys(lexemes);
  let ctx = "entry";
  let seg = 0;
  let content = false;
  const open2 = (c) => {
    ctx = c;
    seg += 1;
    content = false;
  };
  lx.forEach((l, a) => {
    if (l.k === "sep") open2("entry");
    else if (l.k === "anchor") {
      if (l.anchor !== "entry") open2(l.anchor);
      else if (ctx !== "entry") open2("entry");
      const before2 = amountBefore(lx, a);
      if (before2) {
        before2.ctx = ctx;
        before2.seg = seg;
        content = true;
      }
    } else if (SHORT_CLAUSES.has(ctx) && (l.k === "side" || l.k === "comma" && content)) open2("entry");
    l.ctx = ctx;
    l.seg = seg;
    if (ctx !== "entry" && CONTENT.has(l.k)) content = true;
  });
  return lx;
}
function clauses(lx, ctx) {
  const bySeg = /* @__PURE__ */ new Map();
  for (const l of lx) {
    if (l.ctx !== ctx) continue;
    const list = bySeg.get(l.seg) ?? [];
    list.push(l);
    bySeg.set(l.seg, list);
  }
  return [...bySeg.entries()].sort(([a], [b]) => a - b).map(([, list]) => list);
}

// engine/reader/schema.ts
import { z as z2 } from "zod";
var SpanSchema = z2.strictObject({ from: z2.number().int().min(0), to: z2.number().int().min(1), text: z2.string().min(1) }).refine((s) => s.to > s.from && s.text.length === s.to - s.from, { message: "a span is [from, to) and its text is that long" });
var MarketSchema = z2.enum(MARKETS);
var TimeframeSchema = z2.enum(TIMEFRAMES);
var SideSchema = z2.enum(["long", "short", "both"]);
var ZONES = [
  "America/New_York",
  "America/Chicago",
  "Europe/London",
  "Europe/Berlin",
  "Europe/Paris",
  "Europe/Zurich",
  "Asia/Tokyo",
  "Asia/Hong_Kong",
  "Asia/Singapore",
  "Australia/Sydney",
  "UTC"
];
var ZoneSchema = z2.enum(ZONES);
var ClockSchema = z2.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, "HH:MM on the 24-hour clock");
var WindowSchema = z2.strictObject({ from: ClockSchema, to: ClockSchema });
var SessionSchema = z2.discriminatedUnion("kind", [
  z2.strictObject({ kind: z2.literal("always") }),
  z2.strictObject({ kind: z2.literal("windows"), zone: ZoneSchema, windows: z2.array(WindowSchema).min(1) })
]);
var Length = z2.number().int().min(1).max(500);
var LengthOrUnstated = Length.nullable();
var MAX_SWING_STRENGTH = 50;
var MAX_BAND_WIDTH = 10;
var OperandSchema = z2.discriminatedUnion("kind", [
  z2.strictObject({ kind: z2.literal("price"), field: z2.enum(["open", "high", "low", "close"]) }),
  z2.strictObject({ kind: z2.enum(["ema", "sma", "rsi", "atr"]), n: LengthOrUnstated }),
  z2.strictObject({ kind: z2.literal("vwap") }),
  /** The highest high or lowest low of the N bars before the current one. */
  z2.strictObject({ kind: z2.enum(["highest", "lowest"]), n: Length }),
  z2.strictObject({ kind: z2.literal("prior_day"), field: z2.enum(["high", "low", "close"]) }),
  /** The high, the low, or the whole range of the first N minutes of the cash session. */
  z2.strictObject({ kind: z2.literal("opening_range"), field: z2.enum(["high", "low", "range"]), minutes: LengthOrUnstated }),
  /** The trader's own marks on the market: levels, zones, or either. */
  z2.strictObject({ kind: z2.literal("mark"), shape: z2.enum(["level", "zone", "any"]) }),
  /** The bar whose close fired the trigger (signal) or the bar before the current one (previous). */
  z2.strictObject({ kind: z2.literal("bar"), bar: z2.enum(["signal", "previous"]), field: z2.enum(["high", "low"]) }),
  /**
   * The most recent swing high (low): the high (low) of a bar that no bar within `strength` bars before it tops
   * (undercuts) nor any within `strength` bars after it, known once those later bars have closed.
   */
  z2.strictObject({ kind: z2.literal("swing"), field: z2.enum(["high", "low"]), strength: z2.number().int().min(1).max(MAX_SWING_STRENGTH).nullable() }),
  /** A Bollinger band: the SMA of n closes (middle), or it plus (upper) or minus (lower) k population standard deviations of them. */
  z2.strictObject({
    kind: z2.literal("bollinger"),
    band: z2.enum(["upper", "middle", "lower"]),
    n: z2.number().int().min(2).max(500).nullable(),
    k: z2.number().finite().positive().max(MAX_BAND_WIDTH).nullable()
  }),
  z2.strictObject({ kind: z2.literal("constant"), value: z2.number().finite() })
]);
var LineOpSchema = z2.enum(["above", "below", "crosses_above", "crosses_below", "crosses"]);
var LevelOpSchema = z2.enum(["breaks_above", "breaks_below", "breaks", "touches"]);
var ConditionSchema = z2.lazy(
  () => z2.union([
    z2.strictObject({ op: z2.enum(["and", "or"]), args: z2.array(ConditionSchema).min(2) }),
    z2.strictObject({ op: LineOpSchema, left: OperandSchema, right: OperandSchema }),
    z2.strictObject({ op: LevelOpSchema, level: OperandSchema })
  ])
).meta({ id: "Condition" });
var TriggerSchema = z2.strictObject({ side: z2.enum(["long", "short"]).nullable(), when: ConditionSchema });
var EntrySchema = z2.strictObject({
  triggers: z2.array(TriggerSchema).min(1).max(2).refine((ts) => new Set(ts.map((t) => t.side)).size === ts.length, { message: "one trigger per side" })
});
var Amount = z2.number().finite().positive();
var RangeOfSchema = z2.strictObject({ kind: z2.literal("opening_range"), field: z2.literal("range"), minutes: LengthOrUnstated });
var StopDistanceSchema = z2.discriminatedUnion("unit", [
  z2.strictObject({ unit: z2.enum(["points", "ticks", "percent"]), n: Amount }),
  /** n times the range's height, as it stands when the distance is placed. */
  z2.strictObject({ unit: z2.literal("range"), n: Amount, of: RangeOfSchema }),
  z2.strictObject({ unit: z2.literal("atr"), n: Amount, period: LengthOrUnstated }),
  /** Dollars on one contract (the E-mini, or the micro when the words name one) or one coin. */
  z2.strictObject({ unit: z2.literal("usd"), n: Amount, micro: z2.literal(true).optional() })
]);
var TargetDistanceSchema = z2.union([StopDistanceSchema, z2.strictObject({ unit: z2.literal("r"), n: Amount })]);
var StopSchema = z2.discriminatedUnion("kind", [
  z2.strictObject({ kind: z2.literal("distance"), distance: StopDistanceSchema, breakeven: TargetDistanceSchema.optional() }),
  z2.strictObject({
    kind: z2.literal("level"),
    /** beyond: on the far side of the level from the trade, below it for a long and above it for a short (a range's low for a long, its high for a short). */
    where: z2.enum(["at", "below", "above", "beyond"]),
    level: OperandSchema,
    /** How far beyond the level, when the words give it. */
    offset: StopDistanceSchema.optional(),
    breakeven: TargetDistanceSchema.optional()
  })
]);
var TargetSchema = z2.discriminatedUnion("kind", [
  z2.strictObject({ kind: z2.literal("distance"), distance: TargetDistanceSchema }),
  z2.strictObject({ kind: z2.literal("level"), level: OperandSchema })
]);
var TrailSchema = z2.discriminatedUnion("kind", [
  z2.strictObject({ kind: z2.literal("distance"), distance: StopDistanceSchema }),
  z2.strictObject({ kind: z2.literal("level"), level: OperandSchema })
]);
var TimeExitSchema = z2.discriminatedUnion("kind", [
  z2.strictObject({ kind: z2.literal("bars"), n: z2.number().int().positive() }),
  z2.strictObject({ kind: z2.literal("minutes"), n: z2.number().int().positive() }),
  z2.strictObject({ kind: z2.literal("hours"), n: z2.number().int().positive() }),
  z2.strictObject({ kind: z2.literal("clock"), at: ClockSchema, zone: ZoneSchema }),
  z2.strictObject({ kind: z2.literal("session_close") })
]);
var ExitSchema = z2.strictObject({
  target: TargetSchema.optional(),
  trail: TrailSchema.optional(),
  time: z2.array(TimeExitSchema).min(1).optional(),
  when: ConditionSchema.optional()
}).refine((e) => e.target !== void 0 || e.trail !== void 0 || e.time !== void 0 || e.when !== void 0, {
  message: "an exit names at least one way out"
});
var STATUSES = ["read", "defaulted", "missing", "ambiguous"];
var SETTLED = ["read", "defaulted"];
var isSettled = (status) => SETTLED.includes(status);
var DEFAULT_RULES = ["session_crypto", "session_futures", "atr_length", "swing_strength", "bollinger_length", "bollinger_width"];
var DefaultSchema = z2.strictObject({
  path: z2.string().regex(/^(?:\.[a-z_]+|\[\d+\])*$/, "a path inside the value, such as .distance.period"),
  rule: z2.enum(DEFAULT_RULES)
});
var partSchema = (value) => z2.strictObject({
  status: z2.enum(STATUSES),
  value: value.nullable(),
  spans: z2.array(SpanSchema),
  readings: z2.array(z2.strictObject({ value, spans: z2.array(SpanSchema).min(1) })).optional(),
  defaults: z2.array(DefaultSchema).min(1).optional(),
  note: z2.string().optional(),
  hint: z2.string().min(1).optional()
}).superRefine((p, ctx) => {
  if (isSettled(p.status) && (p.value === null || p.spans.length === 0)) {
    ctx.addIssue({ code: "custom", message: `a ${p.status} part has a value and cites its words` });
  }
  if (!isSettled(p.status) && p.value !== null) ctx.addIssue({ code: "custom", message: "only a read or defaulted part has a value" });
  if (p.status === "defaulted" !== (p.defaults !== void 0)) {
    ctx.addIssue({ code: "custom", message: "a defaulted part, and only it, names the defaults it took" });
  }
  if (p.status === "ambiguous" !== (p.readings !== void 0 && p.readings.length >= 2)) {
    ctx.addIssue({ code: "custom", message: "an ambiguous part, and only it, holds two readings or more" });
  }
});
var PARTS = ["market", "timeframe", "session", "side", "entry", "stop", "exit"];
var RuleReadingSchema = z2.strictObject({
  market: partSchema(MarketSchema),
  timeframe: partSchema(TimeframeSchema),
  session: partSchema(SessionSchema),
  side: partSchema(SideSchema),
  entry: partSchema(EntrySchema),
  stop: partSchema(StopSchema),
  exit: partSchema(ExitSchema)
});

// engine/reader/vocabulary.ts
var MARKET_NAMES = [
  ["nq", "NQ"],
  ["nasdaq", "NQ"],
  ["nasdaq 100", "NQ"],
  ["nasdaq futures", "NQ"],
  ["e mini nasdaq 100?", "NQ"],
  ["emini nasdaq 100?", "NQ"],
  ["ndx futures|future", "NQ"],
  ["es", "ES"],
  ["s & p 500?", "ES"],
  ["sp500", "ES"],
  ["sp 500", "ES"],
  ["e mini s & p 500?", "ES"],
  ["emini s & p 500?", "ES"],
  ["spx futures|future", "ES"],
  ["spoos", "ES"],
  ["es futures", "ES"],
  ["ym", "YM"],
  ["dow", "YM"],
  ["dow jones futures?", "YM"],
  ["dow futures", "YM"],
  ["e mini|mini dow", "YM"],
  ["emini dow", "YM"],
  ["btc", "BTC"],
  ["xbt", "BTC"],
  ["bitcoin", "BTC"],
  ["btcusd|btcusdt", "BTC"],
  ["eth", "ETH"],
  ["ether", "ETH"],
  ["ethereum", "ETH"],
  ["ethusd|ethusdt", "ETH"],
  ["sol", "SOL"],
  ["solana", "SOL"],
  ["solusd|solusdt", "SOL"]
];
var MICRO_MARKET_NAMES = [
  ["mnq", "NQ"],
  ["micro nasdaq 100?", "NQ"],
  ["micro e mini nasdaq 100?", "NQ"],
  ["mes", "ES"],
  ["micro s & p 500?", "ES"],
  ["micro e mini s & p 500?", "ES"],
  ["mym", "YM"],
  ["micro dow", "YM"],
  ["micro e mini dow", "YM"]
];
var UNSERVED_MARKETS = [
  "crude oil?",
  "cl",
  "oil",
  "gold",
  "gc",
  "silver",
  "russell 2000?",
  "rty",
  "spy",
  "qqq",
  "spx",
  "ndx",
  "dxy",
  "eurusd",
  "forex",
  "doge",
  "dogecoin",
  "xrp",
  "dji"
];
var ZONE_WORDS = [
  ["et", "America/New_York"],
  ["est", "America/New_York"],
  ["edt", "America/New_York"],
  ["eastern time?", "America/New_York"],
  ["new york time?", "America/New_York"],
  ["ny|nyc time?", "America/New_York"],
  ["ct", "America/Chicago"],
  ["cst", "America/Chicago"],
  ["cdt", "America/Chicago"],
  ["central time?", "America/Chicago"],
  ["chicago time?", "America/Chicago"],
  ["london|uk time?", "Europe/London"],
  ["bst", "Europe/London"],
  ["frankfurt|xetra|berlin time?", "Europe/Berlin"],
  ["cet|cest", "Europe/Berlin"],
  ["central european time", "Europe/Berlin"],
  ["paris time?", "Europe/Paris"],
  ["zurich|z\xFCrich time?", "Europe/Zurich"],
  ["tokyo|japan time?", "Asia/Tokyo"],
  ["jst", "Asia/Tokyo"],
  ["hong kong time?", "Asia/Hong_Kong"],
  ["hk|hkt time?", "Asia/Hong_Kong"],
  ["singapore time?", "Asia/Singapore"],
  ["sgt", "Asia/Singapore"],
  ["sydney time?", "Australia/Sydney"],
  ["aest|aedt", "Australia/Sydney"],
  ["utc", "UTC"],
  ["gmt", "UTC"],
  ["zulu", "UTC"],
  ["exchange|market time", "exchange"]
];
var NY = "America/New_York";
var window = (zone, from, to) => ({
  kind: "windows",
  zone,
  windows: [{ from, to }]
});
var CASH = window(NY, "09:30", "16:00");
var NAMED_SESSIONS = [
  ["cash|regular|rth|day|us|nyse session|hours", { session: CASH, name: "the cash session" }],
  ["cash market hours", { session: CASH, name: "the cash session" }],
  ["ny|new york session", { session: CASH, name: "the cash session" }],
  ["regular trading hours", { session: CASH, name: "the cash session" }],
  ["rth", { session: CASH, name: "the cash session" }],
  ["market hours", { session: CASH, name: "the cash session" }],
  ["first|opening hour of? the? cash|regular|rth|us|ny? session|open|day|market?", { session: window(NY, "09:30", "10:30"), name: "the first hour" }],
  ["first half hour of? the? cash|regular|rth|us|ny? session|open|day|market?", { session: window(NY, "09:30", "10:00"), name: "the first half hour" }],
  ["last|final hour of? the? cash|regular|rth|us|ny? session|day|market?", { session: window(NY, "15:00", "16:00"), name: "the last hour" }],
  ["power hour", { session: window(NY, "15:00", "16:00"), name: "the last hour" }],
  ["london session|hours", { session: window("Europe/London", "08:00", "16:30"), name: "the London session" }],
  ["overnight|globex session|hours|trading", { session: window(NY, "18:00", "09:30"), name: "the overnight session" }],
  ["extended hours", { session: window(NY, "18:00", "09:30"), name: "the overnight session" }],
  ["asia|asian|tokyo|sydney session|hours", { session: null, name: "the Asian session" }],
  ["lunch|lunchtime|midday", { session: null, name: "lunch" }],
  ["24 / 7", { session: { kind: "always" }, name: "any time" }],
  ["24 x 7", { session: { kind: "always" }, name: "any time" }],
  ["24 hours a day", { session: { kind: "always" }, name: "any time" }],
  ["any time", { session: { kind: "always" }, name: "any time" }],
  ["anytime", { session: { kind: "always" }, name: "any time" }],
  ["all day|hours|sessions", { session: { kind: "always" }, name: "any time" }],
  ["around the clock", { session: { kind: "always" }, name: "any time" }],
  ["every session", { session: { kind: "always" }, name: "any time" }],
  ["no time|session filter", { session: { kind: "always" }, name: "any time" }]
];
var COMPARISONS = [
  ["close|closes|closed|closing back? above|over", "above"],
  ["close|closes|closed|closing back? below|under|beneath", "below"],
  // a close through a line, either way ("a close through VWAP", "the close across the 20 EMA")
  ["close|closes|closed|closing back? through|thru|across", "crosses"],
  ["cross|crosses|crossed|crossing back? above|over", "crosses_above"],
  ["cross|crosses|crossed|crossing back? up through|thru?", "crosses_above"],
  ["rise|rises|rising|rose|move|moves|moving|moved|go|goes|going|went|push|pushes|pushing|pushed|get|gets|getting|got|pop|pops|popping|popped|climb|climbs|climbing|climbed|jump|jumps|jumped back? above|over", "crosses_above"],
  ["bullish cross|crossover|crossing", "crosses_above"],
  ["cross|crosses|crossed|crossing back? below|under|beneath", "crosses_below"],
  ["cross|crosses|crossed|crossing back? down through|thru?", "crosses_below"],
  ["drop|drops|dropping|dropped|fall|falls|falling|fell|dip|dips|dipping|dipped|slip|slips|slipping|slipped|move|moves|moving|moved|go|goes|going|went|sink|sinks|sank|get|gets|got back? below|under|beneath", "crosses_below"],
  ["bearish cross|crossover|crossing", "crosses_below"],
  ["cross|crosses|crossed|crossing|crossover|crossovers", "crosses"],
  ["is|are|stays|stay|staying|holds|hold|holding|trades|trade|trading|sits|sitting|remains|remain|was|be|being above|over", "above"],
  ["above|over", "above"],
  ["higher|greater|more than", "above"],
  ["is|are higher|greater|more than", "above"],
  [">", "above"],
  ["is|are|stays|stay|staying|holds|hold|holding|trades|trade|trading|sits|sitting|remains|remain|was|be|being below|under|beneath", "below"],
  ["below|under|beneath|underneath", "below"],
  ["lower|less than", "below"],
  ["is|are lower|less than", "below"],
  ["<", "below"],
  ["break|breaks|broke|breaking|breakout|breakouts out? above|over", "breaks_above"],
  ["break|breaks|broke|breaking|breakdown|breakdowns down? below|under", "breaks_below"],
  ["break|breaks|broke|breaking down through|thru", "breaks_below"],
  ["breakdown|breakdowns of?", "breaks_below"],
  ["break|breaks|broke|breaking|breakout|breakouts of|through|thru|from", "breaks"],
  ["break|breaks|broke|breaking out of", "breaks"],
  ["break|breaks|broke|breaking|breakout|breakouts", "breaks"],
  ["take|takes|took|taking out", "breaks"],
  ["clear|clears|cleared|clearing", "breaks"],
  ["pull|pulls|pulled|pulling back to|into|toward|towards", "touches"],
  ["pullback|pullbacks to|into|toward|towards|of", "touches"],
  ["retest|retests|retested|retesting|test|tests|tested|testing|touch|touches|touched|touching of?", "touches"],
  ["tag|tags|tagged|tagging|tap|taps|tapped|tapping", "touches"],
  ["come|comes|came|coming|return|returns|returned|returning back? up|down? to|into", "touches"],
  // a return to a line: "falls back to the 20 EMA", "reverts to VWAP", "is back at VWAP", "on a revisit of VWAP"
  ["fall|falls|fell|falling|drop|drops|dropped|dropping|pull|pulls|pulled|pulling|go|goes|went|going|get|gets|got|getting|move|moves|moved|moving|trade|trades|traded|trading|slip|slips|slipped|rise|rises|rose|rising|bounce|bounces|bounced|head|heads|headed back up|down? to|into", "touches"],
  ["revert|reverts|reverted|reverting|retrace|retraces|retraced|retracing back? to|into", "touches"],
  ["revisit|revisits|revisited|revisiting of?", "touches"],
  ["is|are|be|being back at|to|into|on", "touches"],
  ["dip|dips|dipped|dipping to|into", "touches"],
  ["bounce|bounces|bounced|bouncing off|from", "touches"],
  ["reach|reaches|reached|reaching|hit|hits|hitting", "touches"]
];
var long = { side: "long", only: false, sell: false };
var short = { side: "short", only: false, sell: false };
var both = { side: "both", only: false, sell: false };
var longOnly = { side: "long", only: true, sell: false };
var shortOnly = { side: "short", only: true, sell: false };
var SIDE_WORDS = [
  ["go|get|going|getting|enter|entering|take|taking|be long|longs", long],
  ["long|longs|longing", long],
  ["buy|buys|buying|bought", long],
  ["buy the dip|dips", long],
  ["fade the? drop|drops|dip|dips|selloff|selloffs|flush|flushes|weakness|low|lows", long],
  ["fade the? sell off|offs", long],
  ["go|get|going|getting|enter|entering|take|taking|be short|shorts", short],
  ["short|shorts|shorting|shorted", short],
  ["sell|sells|selling short", short],
  ["short sell|sells|selling", short],
  ["sell|sells|selling", { side: "short", only: false, sell: true }],
  ["sell the rip|rips|rally|rallies|pop|pops", short],
  ["fade the? rally|rallies|rip|rips|pop|pops|spike|spikes|strength|high|highs|push|pushes", short],
  ["long|longs and|or|& short|shorts", both],
  ["long|longs / short|shorts", both],
  ["short|shorts and|or|& long|longs", both],
  ["both long|longs and short|shorts", both],
  ["both sides|directions|ways", both],
  ["either direction|directions|side|way", both],
  ["whichever way|direction|side", both],
  ["long|longs only", longOnly],
  ["only long|longs|buy|buys", longOnly],
  ["only go long", longOnly],
  ["no short|shorts|shorting", longOnly],
  ["never|dont short|sell", longOnly],
  ["do not short", longOnly],
  ["short|shorts only", shortOnly],
  ["only short|shorts|sell|sells", shortOnly],
  ["only go short", shortOnly],
  ["no long|longs|buying", shortOnly],
  ["never|dont buy|long", shortOnly],
  ["do not buy|long", shortOnly]
];
var NOT_SIDES = ["as long as", "so long as", "short term", "long term", "how long", "no longer"];
var ANCHORS = [
  ["stop|stops loss?", "stop"],
  ["stoploss|sl", "stop"],
  ["stop out", "stop"],
  ["stopped out", "stop"],
  ["risk|risking", "stop"],
  ["invalidation|invalidated", "stop"],
  ["trailing stop?", "trail"],
  ["trail|trails|trailed stop?", "trail"],
  ["trail|trails the|my|your stop", "trail"],
  ["take|taking profit|profits", "target"],
  ["profit target|targets|taking", "target"],
  ["target|targets|targeting|tgt|tp", "target"],
  ["aim|aiming for", "target"],
  ["objective", "target"],
  ["exit|exits|exiting", "exit"],
  ["get|getting out", "exit"],
  ["out by|at|after|on|when|if", "exit"],
  ["close|closing the|my? trade|position|positions|it", "exit"],
  ["close|closing out|everything|all", "exit"],
  // "close after 2 hours", "close at 15:55", "close by 15:50": a way out, not the close of a bar
  ["close|closes|closing after|at|by|within|before", "exit"],
  ["flat|flatten", "exit"],
  ["go flat", "exit"],
  ["cover|covers|covering", "exit"],
  ["buy to cover", "exit"],
  ["buy back", "exit"],
  ["time stop", "exit"],
  ["time based stop", "exit"],
  ["max|maximum hold", "exit"],
  ["hold|holding for", "exit"],
  ["holding period", "exit"],
  ["move|moving|bump|put|set my|the? stop to breakeven|be|entry", "breakeven"],
  ["move|moving|bump|put|set my|the? stop to break even", "breakeven"],
  ["stop to breakeven|be", "breakeven"],
  ["stop to break even", "breakeven"],
  ["breakeven|break-even", "breakeven"],
  ["break even", "breakeven"],
  ["enter|enters|entering|entry|entries|trigger|triggers|signal|signals|setup", "entry"]
];
var CLOSE_EXITS = [
  "by|at|before|into|until|till|on the? close|bell",
  "by|at|before|into|until|till|on the? closing bell",
  "by|at|before|into|until|till|on the? session|market close",
  "by|at|before|until|till the? end of the? day|session",
  "by|at|before|until|till eod",
  "eod",
  "end of day|session"
];
var VICE_VERSA = [
  "vice versa for? the? short|shorts|shorting? side?",
  "reverse|opposite|mirror|inverse for the? short|shorts|shorting side?"
];
var FIRST_COMES = ["whichever|whatever comes|hits|happens first", "which ever comes|hits|happens first"];
var FROM_ENTRY = ["above|below|under|over|from|beyond|past|away my|the|your? entry|fill price?", "away from my|the|your? entry|fill price?"];
var NEGATED_TRADING = [
  "no new? trades|entries|positions",
  "dont|never trade|enter",
  "do not trade|enter",
  "stop trading|entering",
  "stop taking new? trades"
];
var CHART_WORDS = ["chart", "charts", "bar", "bars", "candle", "candles", "candlestick", "candlesticks", "timeframe", "tf", "interval", "time frame"];
var CHART_LEADS = ["on", "using", "use", "timeframe", "tf"];
var TIME_UNITS = new Map([
  ...["s", "sec", "secs", "second", "seconds"].map((w) => [w, 1]),
  ...["m", "min", "mins", "minute", "minutes"].map((w) => [w, 60]),
  ...["h", "hr", "hrs", "hour", "hours"].map((w) => [w, 3600]),
  ...["d", "day", "days"].map((w) => [w, 86400]),
  ...["w", "wk", "week", "weeks"].map((w) => [w, 604800])
]);
var MONEY_WORDS = ["dollar", "dollars", "usd", "bucks"];
var MONEY_SIZING = "per|a|each|every trade|position|day|week|month";
var DISTANCE_UNITS = new Map([
  ...["point", "points", "pt", "pts", "handle", "handles"].map((w) => [w, "points"]),
  ...["tick", "ticks"].map((w) => [w, "ticks"]),
  ...["%", "percent", "pct"].map((w) => [w, "percent"])
]);
var DURATION_UNITS = new Map([
  ...["bar", "bars", "candle", "candles", "candlestick", "candlesticks"].map((w) => [w, "bars"]),
  ...["minute", "minutes", "min", "mins"].map((w) => [w, "minutes"]),
  ...["hour", "hours", "hr", "hrs"].map((w) => [w, "hours"])
]);
var CONDITION_MEANINGS = {
  above: "{a} is above {b} at the bar's close",
  below: "{a} is below {b} at the bar's close",
  crosses_above: "{a} crosses above {b}: at or below it at the close of the bar before, above it at this bar's close",
  crosses_below: "{a} crosses below {b}: at or above it at the close of the bar before, below it at this bar's close",
  crosses: "{a} crosses {b} either way: on the other side of it at this bar's close from the close of the bar before",
  breaks_above: "the bar's high goes above {top}, where the high of the bar before had not",
  breaks_below: "the bar's low goes below {bottom}, where the low of the bar before had not",
  breaks: "the bar's high goes above {top} or its low goes below {bottom}, where the bar before's had not",
  touches: "the bar's range, low to high, reaches {level}"
};

// engine/reader/defaults.ts
var ATR_LENGTH = 14;
var SWING_STRENGTH = 2;
var BOLLINGER_LENGTH = 20;
var BOLLINGER_WIDTH = 2;
var DEFAULT_WORDS = {
  session_crypto: "BTC, ETH and SOL trade around the clock, so the rule may act at any time",
  session_futures: "NQ, ES and YM act in the cash session, 09:30\u201316:00 New York",
  atr_length: `an ATR of unstated length is the ${ATR_LENGTH}-bar ATR`,
  swing_strength: `a swing high or low is a bar's high or low that no ${SWING_STRENGTH} bars on either side of it top or undercut (Williams's fractal)`,
  bollinger_length: `Bollinger bands of unstated length are of ${BOLLINGER_LENGTH} closes`,
  bollinger_width: `Bollinger bands of unstated width are ${BOLLINGER_WIDTH} standard deviations from their middle`
};
var LENGTHS = [
  { rule: "atr_length", at: (o, k) => o.kind === "atr" && k === "n" || o.unit === "atr" && k === "period", unstated: "no ATR length", what: "an ATR's length", value: ATR_LENGTH },
  { rule: "swing_strength", at: (o, k) => o.kind === "swing" && k === "strength", unstated: "no bars on either side of the swing", what: "a swing's bars on each side", value: SWING_STRENGTH },
  { rule: "bollinger_length", at: (o, k) => o.kind === "bollinger" && k === "n", unstated: "no length of the Bollinger bands", what: "the Bollinger bands' length", value: BOLLINGER_LENGTH },
  { rule: "bollinger_width", at: (o, k) => o.kind === "bollinger" && k === "k", unstated: "no width of the Bollinger bands", what: "the Bollinger bands' width", value: BOLLINGER_WIDTH }
];
function defaultSession(market) {
  return MARKET_SPECS[market].kind === "cme" ? { session: CASH, rule: "session_futures" } : { session: { kind: "always" }, rule: "session_crypto" };
}
function fillLengths(v, path, filled) {
  if (Array.isArray(v)) return v.map((x, i) => fillLengths(x, `${path}[${i}]`, filled));
  if (v === null || typeof v !== "object") return v;
  const o = v;
  const out = {};
  for (const [k, x] of Object.entries(o)) {
    const length = x === null ? LENGTHS.find((l) => l.at(o, k)) : void 0;
    if (length) filled.push({ path: `${path}.${k}`, rule: length.rule });
    out[k] = length ? length.value : fillLengths(x, `${path}.${k}`, filled);
  }
  return out;
}
var noted = (note, more) => note === void 0 ? more : `${note}; ${more}`;
function defaulted(part, value, defaults, note, spans = part.spans) {
  return { ...part, status: "defaulted", value, spans, defaults: [...part.defaults ?? [], ...defaults], note: noted(part.note, note) };
}
function withDefaults(reading) {
  const out = { ...reading };
  const market = reading.market;
  if (reading.session.status === "missing" && reading.session.spans.length === 0 && market.status === "read" && market.value !== null) {
    const { session, rule } = defaultSession(market.value);
    out.session = defaulted(reading.session, session, [{ path: "", rule }], `the words state no session, so the default stands: ${DEFAULT_WORDS[rule]}`, market.spans);
  }
  for (const p of PARTS) {
    const part = out[p];
    if (part.value === null) continue;
    const filled = [];
    const value = fillLengths(part.value, "", filled);
    if (filled.length === 0) continue;
    const rules = LENGTHS.filter((l) => filled.some((d) => d.rule === l.rule));
    const note = rules.map((l) => `the words state ${l.unstated}, so the default stands: ${DEFAULT_WORDS[l.rule]}`).join("; ");
    out[p] = defaulted(part, value, filled, note);
  }
  return out;
}
function at(value, path) {
  const steps = [...path.matchAll(/\.([a-z_]+)|\[(\d+)\]/g)].map((m) => m[1] ?? Number(m[2]));
  let holder = null;
  let cur = value;
  let key = "";
  for (const step of steps) {
    if (cur === null || typeof cur !== "object") return void 0;
    holder = cur;
    key = String(step);
    cur = cur[step];
  }
  return cur === void 0 ? void 0 : { holder, key, found: cur };
}
function defaultProblems(reading) {
  const problems = [];
  for (const p of PARTS) {
    const part = reading[p];
    (part.defaults ?? []).forEach((d, i) => {
      const where = `${p}.defaults.${i}`;
      const got = at(part.value, d.path);
      const length = LENGTHS.find((l) => l.rule === d.rule);
      if (length) {
        const h = got?.holder;
        const placed = h !== null && h !== void 0 && length.at(h, got.key);
        if (!placed || got.found !== length.value) problems.push(`${where}: ${d.rule} puts ${length.value} as ${length.what}, not at ${d.path || "the whole value"}`);
        return;
      }
      const market = reading.market.status === "read" ? reading.market.value : null;
      const expected = market === null ? null : defaultSession(market);
      if (p !== "session" || d.path !== "" || expected === null || expected.rule !== d.rule || JSON.stringify(part.value) !== JSON.stringify(expected.session)) {
        problems.push(`${where}: ${d.rule} is the whole session of a ${d.rule === "session_crypto" ? "crypto" : "futures"} market the reading reads`);
      }
    });
  }
  return problems;
}

// engine/reader/conditions.ts
var isJoin = (c) => c.op === "and" || c.op === "or";
var CLOSE = { kind: "price", field: "close" };
var CROSSES = /* @__PURE__ */ new Set(["crosses", "crosses_above", "crosses_below"]);
var LEVEL_OPS = /* @__PURE__ */ new Set(["breaks_above", "breaks_below", "breaks", "touches"]);
function edgeOf(level2) {
  if (level2.kind === "highest" || level2.kind === "bollinger" && level2.band === "upper") return "high";
  if (level2.kind === "lowest" || level2.kind === "bollinger" && level2.band === "lower") return "low";
  if ("field" in level2 && (level2.field === "high" || level2.field === "low")) return level2.field;
  return null;
}
function breakOf(level2) {
  const edge = edgeOf(level2);
  return edge === "high" ? "breaks_above" : edge === "low" ? "breaks_below" : "breaks";
}
function edgeBroken(op, level2) {
  if (level2.kind !== "opening_range" || level2.field !== "range") return level2;
  return op === "breaks_above" ? { ...level2, field: "high" } : op === "breaks_below" ? { ...level2, field: "low" } : level2;
}
function leaf(op, left, right, closing2 = false) {
  if (LEVEL_OPS.has(op)) {
    if (left !== null && (left.kind !== "price" || closing2) && op !== "touches") {
      const way2 = op === "breaks" && closing2 ? breakOf(right) : op;
      const line = way2 === "breaks_above" ? "crosses_above" : way2 === "breaks_below" ? "crosses_below" : "crosses";
      return { op: line, left, right };
    }
    const way = op === "breaks" ? breakOf(right) : op;
    return { op: way, level: edgeBroken(way, right) };
  }
  return { op, left: left ?? CLOSE, right };
}
function rightOfNumber(left, value) {
  const average = left !== null && (left.kind === "ema" || left.kind === "sma" || left.kind === "ma");
  if (average && Number.isInteger(value) && value >= 1 && value <= 500) return { kind: left.kind, n: value };
  return { kind: "constant", value };
}
var ITEM_KINDS = /* @__PURE__ */ new Set(["operand", "num", "cmp", "conj", "comma"]);
function readConditions(clause, taken) {
  const items = clause.filter((l) => !taken.has(l) && (ITEM_KINDS.has(l.k) || l.k === "word" && (l.norm === "between" || l.norm === UNREAD_INDICATOR)));
  const atoms = [];
  let pending = null;
  let lastEnd = -2;
  let lastLeft = null;
  const push = (l, lex3, subject, end) => {
    atoms.push({ leaf: l, lex: lex3, join: atoms.length > 0 ? pending ?? "and" : "and" });
    pending = null;
    lastEnd = end;
    lastLeft = subject;
  };
  const linked = (i2) => i2 > lastEnd + 1 && items.slice(lastEnd + 1, i2).every((l) => l.k === "conj" || l.k === "comma");
  let i = 0;
  while (i < items.length) {
    const it = items[i];
    if (it.k === "conj") {
      if (pending !== "or") pending = it.conj;
      i += 1;
      continue;
    }
    if (it.k === "word" && it.norm === UNREAD_INDICATOR) {
      i += is("cmp")(items[i + 1]) ? 3 : 1;
      continue;
    }
    let left = null;
    let c = i;
    if (is("operand")(it)) {
      const next = items[i + 1];
      const third = items[i + 2];
      if (is("operand")(next) && is("cmp")(third) && CROSSES.has(third.op)) {
        push({ op: third.op, left: it.operand, right: next.operand }, [it, next, third], it.operand, i + 2);
        i += 3;
        continue;
      }
      const [lo, and, hi] = [items[i + 2], items[i + 3], items[i + 4]];
      if (next?.k === "word" && is("num")(lo) && is("conj")(and) && and.conj === "and" && is("num")(hi)) {
        const lex3 = [it, next, lo, and, hi];
        push({ op: "above", left: it.operand, right: { kind: "constant", value: lo.value } }, lex3, it.operand, i + 4);
        push({ op: "below", left: it.operand, right: { kind: "constant", value: hi.value } }, [], it.operand, i + 4);
        i += 5;
        continue;
      }
      if (!is("cmp")(next)) {
        i += 1;
        continue;
      }
      left = it;
      c = i + 1;
    } else if (!is("cmp")(it)) {
      i += 1;
      continue;
    }
    const cmp = items[c];
    const subject = left && is("operand")(left) ? left.operand : linked(c) ? lastLeft : null;
    const rhs = items[c + 1];
    let right;
    if (is("operand")(rhs)) right = rhs.operand;
    else if (is("num")(rhs)) right = rightOfNumber(subject, rhs.value);
    else {
      i = c + 1;
      continue;
    }
    const l = leaf(cmp.op, subject, right, left !== null && is("operand")(left) && left.closing === true);
    push(l, [...left ? [left] : [], cmp, rhs], "left" in l ? l.left : subject, c + 1);
    i = c + 2;
  }
  return atoms;
}
function tree(atoms) {
  const groups = [];
  for (const a of atoms) {
    if (groups.length === 0 || a.join === "or") groups.push([a.leaf]);
    else groups[groups.length - 1].push(a.leaf);
  }
  const ands = groups.map((g) => g.length === 1 ? g[0] : { op: "and", args: g });
  return ands.length === 1 ? ands[0] : { op: "or", args: ands };
}
var mapOperands = (c, f) => isJoin(c) ? { op: c.op, args: c.args.map((a) => mapOperands(a, f)) } : "level" in c ? { op: c.op, level: f(c.level) } : { op: c.op, left: f(c.left), right: f(c.right) };
var operandsOf = (c) => isJoin(c) ? c.args.flatMap(operandsOf) : "level" in c ? [c.level] : [c.left, c.right];
var hasMa = (c) => operandsOf(c).some((o) => o.kind === "ma");
function resolve(c, ma) {
  return mapOperands(c, (o) => o.kind === "ma" ? { kind: ma, n: o.n } : o);
}
var MIRROR_OP = {
  above: "below",
  below: "above",
  crosses_above: "crosses_below",
  crosses_below: "crosses_above",
  crosses: "crosses",
  breaks_above: "breaks_below",
  breaks_below: "breaks_above",
  breaks: "breaks",
  touches: "touches"
};
function mirrorOperand(o) {
  switch (o.kind) {
    case "highest":
      return { kind: "lowest", n: o.n };
    case "lowest":
      return { kind: "highest", n: o.n };
    case "price":
      return { kind: "price", field: o.field === "high" ? "low" : o.field === "low" ? "high" : o.field };
    case "prior_day":
      return { kind: "prior_day", field: o.field === "high" ? "low" : o.field === "low" ? "high" : o.field };
    case "opening_range":
      return { ...o, field: o.field === "high" ? "low" : o.field === "low" ? "high" : o.field };
    case "bar":
    case "swing":
      return { ...o, field: o.field === "high" ? "low" : "high" };
    case "bollinger":
      return { ...o, band: o.band === "upper" ? "lower" : o.band === "lower" ? "upper" : "middle" };
    default:
      return o;
  }
}
function mirror(c) {
  if (isJoin(c)) {
    const args = c.args.map(mirror);
    return args.every((a) => a !== null) ? { op: c.op, args } : null;
  }
  if ("level" in c) return { op: MIRROR_OP[c.op], level: mirrorOperand(c.level) };
  const oscillator = (o) => o.kind === "rsi" || o.kind === "atr";
  if (oscillator(c.left) && c.right.kind === "constant" || oscillator(c.right) && c.left.kind === "constant") return null;
  return { op: MIRROR_OP[c.op], left: mirrorOperand(c.left), right: mirrorOperand(c.right) };
}

// engine/reader/parts.ts
var span = (text, from, to) => ({ from, to, text: text.slice(from, to) });
function mergeSpans(text, spans) {
  const sorted = [...spans].sort((a, b) => a.from - b.from || b.to - a.to);
  const out = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.from < last.to) last.to = Math.max(last.to, s.to);
    else out.push({ from: s.from, to: s.to });
  }
  return out.map((s) => span(text, s.from, s.to));
}
function phrase(lexemes) {
  if (lexemes.length === 0) return [];
  const from = Math.min(...lexemes.map((l) => l.from));
  const to = Math.max(...lexemes.map((l) => l.to));
  return [{ from, to }, ...lexemes.flatMap((l) => l.also)];
}
var missing = (note, cited = []) => ({
  status: "missing",
  value: null,
  spans: cited,
  ...note !== void 0 ? { note } : {}
});
function decide(text, candidates, note) {
  const byValue = /* @__PURE__ */ new Map();
  for (const c of candidates) {
    const key = JSON.stringify(c.value);
    const seen = byValue.get(key);
    if (seen) seen.at.push(...c.at);
    else byValue.set(key, { value: c.value, at: [...c.at] });
  }
  const readings = [...byValue.values()].map((c) => ({ value: c.value, spans: mergeSpans(text, c.at) }));
  const extra = note !== void 0 ? { note } : {};
  if (readings.length === 0) return missing(note);
  if (readings.length === 1) return { status: "read", value: readings[0].value, spans: readings[0].spans, ...extra };
  return { status: "ambiguous", value: null, spans: mergeSpans(text, readings.flatMap((r) => r.spans)), readings, ...extra };
}

// engine/reader/unstated.ts
var NAMES = /* @__PURE__ */ new Map([
  ["ema", "EMA"],
  ["sma", "SMA"],
  ["rsi", "RSI"],
  ["opening_range", "opening range"]
]);
function walk(v, out) {
  if (Array.isArray(v)) v.forEach((x) => walk(x, out));
  if (v === null || typeof v !== "object" || Array.isArray(v)) return;
  const o = v;
  const name = typeof o.kind === "string" ? NAMES.get(o.kind) : void 0;
  if (name && (o.n === null || o.minutes === null)) out.add(name);
  for (const x of Object.values(o)) walk(x, out);
}
function unstatedNote(values) {
  const out = /* @__PURE__ */ new Set();
  values.forEach((v) => walk(v, out));
  return out.size > 0 ? `no length is stated for: ${[...out].join(", ")}` : void 0;
}

// engine/reader/entry.ts
var ends = (l, clauseToo) => l.k === "sep" || clauseToo && l.k === "comma";
function sideWordFor(lx, at2) {
  const isSide = (l) => is("side")(l) && l.ctx === "entry" && l.side !== "both";
  for (const clauseToo of [true, false]) {
    for (let k = at2 - 1; k >= 0 && !ends(lx[k], clauseToo); k--) if (isSide(lx[k])) return lx[k];
    for (let k = at2 + 1; k < lx.length && !ends(lx[k], clauseToo); k++) if (isSide(lx[k])) return lx[k];
  }
  return null;
}
function build(placed) {
  const atoms = placed.map((p, k) => {
    const prev = placed[k - 1];
    const neighbour = prev !== void 0 && prev.n === p.n - 1 && prev.seg === p.seg;
    return { ...p.atom, join: neighbour ? p.atom.join : "and" };
  });
  return tree(atoms);
}
var atSpans = (placed) => placed.flatMap((p) => [...phrase(p.atom.lex), ...p.sideWord ? phrase([p.sideWord]) : []]);
function readEntry(lx, text, taken) {
  const index = new Map(lx.map((l, i) => [l, i]));
  const placed = [];
  for (const clause of clauses(lx, "entry")) {
    for (const atom of readConditions(clause, taken)) {
      const at2 = atom.lex.length > 0 ? index.get(atom.lex[0]) : index.get(placed[placed.length - 1].atom.lex[0]);
      const sideWord = sideWordFor(lx, at2);
      const side = sideWord && is("side")(sideWord) && sideWord.side !== "both" ? sideWord.side : null;
      placed.push({ atom, side, sideWord, n: placed.length, seg: clause[0].seg });
    }
  }
  const notes2 = [];
  const unsided = placed.filter((p) => p.side === null);
  const sided = ["long", "short"].filter((s) => placed.some((p) => p.side === s));
  const groups = /* @__PURE__ */ new Map();
  if (sided.length === 0 && unsided.length > 0) groups.set(null, unsided);
  for (const s of sided) groups.set(s, placed.filter((p) => p.side === s || p.side === null).sort((a, b) => a.n - b.n));
  const triggers = [...groups].map(([side, ps]) => ({
    side,
    when: build(ps),
    at: atSpans(ps)
  }));
  triggers.sort((a, b) => Math.min(...a.at.map((s) => s.from)) - Math.min(...b.at.map((s) => s.from)));
  const turn = lx.find((l) => l.k === "vice_versa");
  if (turn) {
    const one2 = triggers.length === 1 ? triggers[0] : null;
    const turned = one2 && one2.side !== null ? mirror(one2.when) : null;
    if (one2 && one2.side !== null && turned) {
      triggers.push({ side: one2.side === "long" ? "short" : "long", when: turned, at: [...one2.at, { from: turn.from, to: turn.to }] });
    } else notes2.push('"vice versa" is not read: it needs one trigger with its side, comparing lines rather than an oscillator with a number');
  }
  const unstated = unstatedNote(triggers.map((t) => t.when));
  if (unstated !== void 0) notes2.push(unstated);
  const used = new Set(placed.flatMap((p) => p.atom.lex));
  const loose = lx.filter((l) => l.ctx === "entry" && !taken.has(l) && !used.has(l) && (l.k === "cmp" || l.k === "operand" || l.k === "word" && l.norm === UNREAD_INDICATOR));
  if (triggers.length > 0 && loose.length > 0) {
    notes2.push(`words that look like conditions are not read: ${loose.map((l) => `"${text.slice(l.from, l.to)}"`).join(", ")}`);
  }
  const note = notes2.length > 0 ? notes2.join("; ") : void 0;
  const sides2 = new Set(triggers.flatMap((t) => t.side ? [t.side] : []));
  if (triggers.length === 0) {
    return {
      part: missing(loose.length > 0 ? "words that look like a trigger are not read as one" : note, mergeSpans(text, loose)),
      sides: sides2
    };
  }
  const spans = mergeSpans(text, [...triggers.flatMap((t) => t.at)]);
  const value = (ma) => ({ triggers: triggers.map((t) => ({ side: t.side, when: resolve(t.when, ma) })) });
  const extra = note !== void 0 ? { note } : {};
  if (triggers.some((t) => hasMa(t.when))) {
    return {
      part: { status: "ambiguous", value: null, spans, readings: [{ value: value("sma"), spans }, { value: value("ema"), spans }], ...extra },
      sides: sides2
    };
  }
  return { part: { status: "read", value: value("sma"), spans, ...extra }, sides: sides2 };
}

// engine/reader/distances.ts
function stopDistance(l) {
  if (l.unit === "r") return null;
  if (l.unit === "range") return { unit: "range", n: l.n, of: { kind: "opening_range", field: "range", minutes: l.minutes ?? null } };
  if (l.unit === "usd") return l.micro ? { unit: "usd", n: l.n, micro: true } : { unit: "usd", n: l.n };
  return l.unit === "atr" ? { unit: "atr", n: l.n, period: l.period } : { unit: l.unit, n: l.n };
}
function targetDistance(l) {
  return l.unit === "r" ? { unit: "r", n: l.n } : stopDistance(l);
}
var unitless = (n) => [
  { unit: "points", n },
  { unit: "ticks", n }
];
var level = (o) => o.kind === "ma" ? null : o;

// engine/reader/zones.ts
var OPEN_ZONES = ["America/New_York", "UTC"];
function resolve2(z9, market) {
  if (z9 !== "exchange") return z9;
  if (market.status !== "read" || market.value === null) return null;
  return MARKET_SPECS[market.value].kind === "cme" ? "America/New_York" : "UTC";
}
var open = () => OPEN_ZONES.map((zone) => ({ zone, also: [] }));
function zoneOptions(said2, lx, market) {
  if (is("zone")(said2)) {
    const z9 = resolve2(said2.zone, market);
    return z9 ? [{ zone: z9, also: [] }] : open();
  }
  const named2 = lx.filter(is("zone")).map((l) => ({ l, zone: resolve2(l.zone, market) }));
  const zones2 = new Set(named2.map((n) => n.zone));
  if (zones2.size !== 1 || named2[0].zone === null) return open();
  return [{ zone: named2[0].zone, also: named2.map((n) => ({ from: n.l.from, to: n.l.to })) }];
}

// engine/reader/exit.ts
var anchorOf = (clause) => clause.filter((l) => l.k === "anchor");
function targetsOf(clause, used) {
  const anchor = anchorOf(clause);
  return clause.flatMap((l) => {
    if (used.has(l)) return [];
    const at2 = phrase([...anchor, l]);
    if (is("distance")(l)) return [{ value: { kind: "distance", distance: targetDistance(l) }, at: at2 }];
    if (is("operand")(l)) {
      const lvl = level(l.operand);
      return lvl ? [{ value: { kind: "level", level: lvl }, at: at2 }] : [];
    }
    if (is("num")(l) && anchor.some((a) => is("anchor")(a) && a.anchor === "target")) {
      return unitless(l.value).map((distance) => ({ value: { kind: "distance", distance }, at: at2 }));
    }
    return [];
  });
}
var readTrail = (lx, text) => decide(text, clauses(lx, "trail").flatMap(trailsOf));
function trailsOf(clause) {
  const anchor = anchorOf(clause);
  return clause.flatMap((l) => {
    const at2 = phrase([...anchor, l]);
    const distance = is("distance")(l) ? stopDistance(l) : null;
    if (distance) return [{ value: { kind: "distance", distance }, at: at2 }];
    const lvl = is("operand")(l) ? level(l.operand) : null;
    return lvl ? [{ value: { kind: "level", level: lvl }, at: at2 }] : [];
  });
}
var distinct = (cs) => {
  const seen = /* @__PURE__ */ new Map();
  for (const c of cs) {
    const key = JSON.stringify(c.value);
    const had = seen.get(key);
    if (had) had.at.push(...c.at);
    else seen.set(key, { value: c.value, at: [...c.at] });
  }
  return [...seen.values()];
};
function readExit(lx, text, market, taken) {
  const index = new Map(lx.map((l, i) => [l, i]));
  const targets = [];
  const trails = clauses(lx, "trail").flatMap(trailsOf);
  const timed = [];
  const whens = [];
  for (const clause of [...clauses(lx, "target"), ...clauses(lx, "exit")]) {
    const anchor = anchorOf(clause);
    const atoms = readConditions(clause, taken);
    const used = new Set(atoms.flatMap((a) => a.lex));
    if (atoms.length > 0) whens.push({ when: tree(atoms), at: phrase([...anchor, ...atoms.flatMap((a) => a.lex)]) });
    targets.push(...targetsOf(clause, used));
    if (clause[0].ctx !== "exit") continue;
    clause.forEach((l, k) => {
      if (!is("time")(l) || taken.has(l)) return;
      const zone = is("zone")(clause[k + 1]) ? clause[k + 1] : void 0;
      const options = zoneOptions(zone, lx, market).map((z9) => ({
        exit: { kind: "clock", at: l.clock, zone: z9.zone },
        zone: z9.zone,
        at: [...phrase([...anchor, l, ...zone ? [zone] : []]), ...z9.also]
      }));
      timed.push({ pos: index.get(l), options });
    });
  }
  const anchorFor = (l) => lx.filter((a) => a.k === "anchor" && a.seg === l.seg);
  for (const l of lx) {
    if (l.k === "close_exit") timed.push({ pos: index.get(l), options: [{ exit: { kind: "session_close" }, zone: null, at: phrase([...anchorFor(l), l]) }] });
    if (is("duration")(l) && (l.ctx === "exit" || l.ctx === "target")) {
      timed.push({ pos: index.get(l), options: [{ exit: { kind: l.unit, n: l.n }, zone: null, at: phrase([...anchorFor(l), l]) }] });
    }
    if (is("distance")(l) && l.unit === "r" && l.ctx === "entry") targets.push({ value: { kind: "distance", distance: targetDistance(l) }, at: phrase([l]) });
  }
  timed.sort((a, b) => a.pos - b.pos);
  const open2 = timed.find((t) => t.options.length > 1);
  const zones2 = open2 ? open2.options.map((o) => o.zone) : [null];
  const whenLex = whens.length === 0 ? null : whens.length === 1 ? whens[0].when : { op: "or", args: whens.map((w) => w.when) };
  const whenOptions = whenLex === null ? [void 0] : hasMa(whenLex) ? [resolve(whenLex, "sma"), resolve(whenLex, "ema")] : [
    resolve(whenLex, "sma")
    /* no MA to choose for */
  ];
  const whenAt = whens.flatMap((w) => w.at);
  const candidates = [];
  const targetOptions = distinct(targets);
  const trailOptions = distinct(trails);
  for (const target of targetOptions.length > 0 ? targetOptions : [void 0]) {
    for (const trail of trailOptions.length > 0 ? trailOptions : [void 0]) {
      for (const [zone, when2] of zones2.flatMap((z9) => whenOptions.map((w) => [z9, w]))) {
        const times = timed.map((t) => t.options.find((o) => o.zone === zone) ?? t.options[0]);
        const exit = {
          ...target ? { target: target.value } : {},
          ...trail ? { trail: trail.value } : {},
          ...times.length > 0 ? { time: times.map((t) => t.exit) } : {},
          ...when2 ? { when: when2 } : {}
        };
        if (Object.keys(exit).length === 0) continue;
        candidates.push({ value: exit, at: [...target?.at ?? [], ...trail?.at ?? [], ...times.flatMap((t) => t.at), ...whenAt] });
      }
    }
  }
  if (candidates.length > 0) return decide(text, candidates, unstatedNote(candidates.map((c) => c.value)));
  const said2 = [...clauses(lx, "target"), ...clauses(lx, "trail"), ...clauses(lx, "exit")].flatMap((c) => phrase(c));
  return said2.length > 0 ? missing("a way out is named, but its words are not ones the reader knows", mergeSpans(text, said2)) : missing();
}

// engine/reader/hints.ts
var MISSING = {
  market: "name the market: NQ, ES, YM, BTC, ETH or SOL",
  timeframe: "name the chart: 15s, 1m, 5m or 1h ('the five-minute chart', '1h bars', 'hourly')",
  session: "name the market, whose session stands when none is said, or give a window: 'between 09:45 and 11:30 ET'",
  side: "say which way: 'buy', 'sell short' or 'both ways'",
  entry: "say when to enter: 'buy when the 9 EMA crosses above the 21 EMA', 'short a break below the prior day's low'",
  stop: "say where the rule is wrong: 'stop 10 points', 'stop 1.5 ATR(14)', 'stop below the swing low', 'trailing stop 2%'",
  exit: "say how it gets out: 'target 2R', 'take 1.2%', 'exit after 12 bars', 'exit at 11:30 ET', 'out by the close'"
};
var AMBIGUOUS = {
  market: "name one market: a rule trades one",
  timeframe: "name one chart timeframe: a rule decides on one",
  session: "give the windows on one clock: 'between 09:45 and 11:30 ET'",
  side: "say which way each trigger takes ('buy when ...; sell short when ...') or 'both ways'",
  entry: "say the trigger one way",
  stop: "give one stop: 'stop 10 points' or 'stop below the swing low', not both",
  exit: "give one target and one trail: two are not read as a scale-out"
};
function firstDifference(a, b, key = "") {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return { key, a, b };
  const keys = [.../* @__PURE__ */ new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const k of keys) {
    const d = firstDifference(a[k], b[k], k);
    if (d) return d;
  }
  return { key, a, b };
}
function ambiguousHint(p, part) {
  const [a, b] = part.readings;
  const d = firstDifference(a.value, b.value);
  const pair = d ? /* @__PURE__ */ new Set([d.a, d.b]) : /* @__PURE__ */ new Set();
  if (d?.key === "zone") return "write the zone: ET, New York time or UTC";
  if (d?.key === "unit" && pair.has("points") && pair.has("ticks")) return "give the unit: '4 points' or '4 ticks'";
  if (d?.key === "kind" && pair.has("sma") && pair.has("ema")) return "say simple or exponential: 'the 20 SMA' or 'the 20 EMA'";
  return AMBIGUOUS[p];
}
function hintOf(p, part) {
  if (part.status === "missing") return MISSING[p];
  if (part.status === "ambiguous") return ambiguousHint(p, part);
  if (unstatedNote([part.value]) !== void 0) return "give its length: 'the 20 EMA', 'RSI(14)', 'the 15-minute opening range'";
  return void 0;
}
function withHints(reading) {
  const out = { ...reading };
  for (const p of PARTS) {
    const part = out[p];
    const hint = part.hint ?? hintOf(p, part);
    if (hint !== void 0 && part.hint === void 0) out[p] = { ...part, hint };
  }
  return out;
}

// engine/reader/numbers.ts
var ONES = new Map(
  ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"].map((w, i) => [w, i])
);
var TENS = new Map(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"].map((w, i) => [w, 20 + 10 * i]));
var norm = (tokens, i) => {
  const t = tokens[i];
  return t && t.kind === "word" ? t.norm : void 0;
};
var pastHyphen = (tokens, i) => tokens[i]?.norm === "-" && !tokens[i].spaced ? i + 1 : i;
function underHundred(tokens, i) {
  const w = norm(tokens, i);
  if (w === void 0) return null;
  const one2 = ONES.get(w);
  if (one2 !== void 0) return { value: one2, end: i + 1 };
  const ten = TENS.get(w);
  if (ten === void 0) return null;
  const j = pastHyphen(tokens, i + 1);
  const unit = ONES.get(norm(tokens, j) ?? "");
  if (unit !== void 0 && unit >= 1 && unit <= 9) return { value: ten + unit, end: j + 1 };
  return { value: ten, end: i + 1 };
}
function inWords(tokens, i) {
  if (norm(tokens, i) === "half") {
    const a = norm(tokens, i + 1);
    return { value: 0.5, end: a === "a" || a === "an" ? i + 2 : i + 1 };
  }
  const head = underHundred(tokens, i);
  if (!head) return null;
  let { value, end } = head;
  if (value >= 1 && value <= 9 && norm(tokens, end) === "hundred") {
    value *= 100;
    end += 1;
    const and = norm(tokens, end) === "and" ? end + 1 : end;
    const rest = underHundred(tokens, and);
    if (rest && rest.value > 0) ({ value, end } = { value: value + rest.value, end: rest.end });
  }
  if (norm(tokens, end) === "and" && norm(tokens, end + 1) === "a" && norm(tokens, end + 2) === "half") {
    value += 0.5;
    end += 3;
  }
  return { value, end };
}
function read(tokens, i) {
  const t = tokens[i];
  if (!t) return null;
  if (t.kind === "num") return { value: t.value, end: i + 1, digits: true };
  const w = inWords(tokens, i);
  return w ? { ...w, digits: false } : null;
}
var memo = /* @__PURE__ */ new WeakMap();
function readNumber(tokens, i) {
  let known = memo.get(tokens);
  if (!known) memo.set(tokens, known = []);
  let n = known[i];
  if (n === void 0) n = known[i] = read(tokens, i);
  return n;
}

// engine/reader/phrases.ts
var HYPHENS = /* @__PURE__ */ new Set(["-", "\u2013", "\u2014"]);
function compile(src) {
  return src.split(" ").map((p) => {
    const optional = p.length > 1 && p.endsWith("?");
    return { alts: (optional ? p.slice(0, -1) : p).split("|"), optional };
  });
}
function matchPieces(tokens, start, pieces2) {
  let i = start;
  for (const piece of pieces2) {
    let j = i;
    if (j > start && j < tokens.length && HYPHENS.has(tokens[j].norm) && j + 1 < tokens.length) j += 1;
    const t = tokens[j];
    if (t && t.kind !== "time" && piece.alts.includes(t.norm)) i = j + 1;
    else if (!piece.optional) return null;
  }
  return i;
}
var compiled = /* @__PURE__ */ new Map();
function phraseAt(tokens, i, src) {
  let pieces2 = compiled.get(src);
  if (!pieces2) compiled.set(src, pieces2 = compile(src));
  return matchPieces(tokens, i, pieces2);
}
var PhraseTable = class {
  byFirst = /* @__PURE__ */ new Map();
  constructor(entries) {
    for (const [src, value] of entries) {
      const pieces2 = compile(src);
      if (pieces2[0].optional) throw new Error(`a phrase must start with a word it needs: ${src}`);
      for (const first of pieces2[0].alts) {
        const list = this.byFirst.get(first) ?? [];
        list.push({ pieces: pieces2, value });
        this.byFirst.set(first, list);
      }
    }
  }
  longest(tokens, i) {
    const t = tokens[i];
    if (!t || t.kind === "time") return null;
    let best = null;
    for (const { pieces: pieces2, value } of this.byFirst.get(t.norm) ?? []) {
      const end = matchPieces(tokens, i, pieces2);
      if (end !== null && (best === null || end > best.end)) best = { end, value };
    }
    return best;
  }
};

// engine/reader/recognizer.ts
var table = (entries) => new PhraseTable(entries);
var flat = (phrases) => table(phrases.map((p) => [p, true]));
var one = (body, t0, end) => ({ end, out: [{ body, t0, t1: end }] });
var fromTable = (t, body) => (tokens, i) => {
  const m = t.longest(tokens, i);
  return m ? one(body(m.value), i, m.end) : null;
};
var norm2 = (tokens, i) => {
  const t = tokens[i];
  return t && t.kind === "word" ? t.norm : t?.kind === "punct" ? t.norm : void 0;
};
var wordIn = (tokens, i, words) => {
  const n = norm2(tokens, i);
  return n !== void 0 && tokens[i].kind === "word" && words.includes(n);
};
var pastHyphen2 = (tokens, i) => norm2(tokens, i) === "-" ? i + 1 : i;
var skipWords = (tokens, i, words) => {
  while (wordIn(tokens, i, words)) i += 1;
  return i;
};
var isLength = (n) => n !== null && Number.isInteger(n.value) && n.value >= 1 && n.value <= 500;
function lengthAfter(tokens, i) {
  if (norm2(tokens, i) === "(") {
    const n = readNumber(tokens, i + 1);
    if (isLength(n) && norm2(tokens, n.end) === ")") return { n: n.value, end: n.end + 1 };
    return null;
  }
  const t = tokens[i];
  if (t && t.kind === "num" && !t.spaced && isLength({ value: t.value, end: i + 1, digits: true })) return { n: t.value, end: i + 1 };
  return null;
}
var PER_UNIT = new Map([
  ...["minute", "minutes", "min", "mins", "m"].map((w) => [w, 1]),
  ...["hour", "hours", "hr", "hrs", "h"].map((w) => [w, 60])
]);
function minutesAt(tokens, i) {
  const n = readNumber(tokens, i);
  if (!isLength(n)) return null;
  const u = pastHyphen2(tokens, n.end);
  const per = tokens[u]?.kind === "word" ? PER_UNIT.get(tokens[u].norm) : void 0;
  return per !== void 0 && n.value * per <= 500 ? { minutes: n.value * per, end: u + 1 } : null;
}

// engine/reader/lex-amounts.ts
function amount(tokens, i) {
  if (wordIn(tokens, i, ["a", "an"])) return { value: 1, end: i + 1, digits: false };
  const n = readNumber(tokens, i);
  return n && n.value > 0 ? n : null;
}
var atrDistance = (tokens, i) => {
  const n = amount(tokens, i);
  if (!n) return null;
  let j = n.end;
  if (wordIn(tokens, j, ["x", "times"])) j += 1;
  j = skipWords(tokens, j, ["the"]);
  let period = null;
  const p = readNumber(tokens, j);
  if (isLength(p)) {
    const k = pastHyphen2(tokens, p.end);
    if (!wordIn(tokens, k, ["period", "length", "bar"])) return null;
    period = p.value;
    j = pastHyphen2(tokens, k + 1);
  } else if (wordIn(tokens, j, ["period", "length", "bar"])) return null;
  if (!wordIn(tokens, j, ["atr", "atrs"])) return null;
  j += 1;
  const after = lengthAfter(tokens, j);
  if (after && period === null) ({ n: period, end: j } = after);
  return one({ k: "distance", unit: "atr", n: n.value, period }, i, j);
};
var plainDistance = (tokens, i) => {
  const n = amount(tokens, i);
  if (!n) return null;
  const j = pastHyphen2(tokens, n.end);
  const perCent = phraseAt(tokens, j, "per cent");
  const unit = perCent !== null ? "percent" : DISTANCE_UNITS.get(norm2(tokens, j) ?? "");
  if (!unit) return null;
  const end = perCent ?? j + 1;
  const sizing = unit === "percent" ? phraseAt(tokens, end, "of my|the|your|our? account|capital|equity|balance|portfolio|bankroll") : null;
  if (sizing !== null) return one({ k: "word", norm: "position size" }, i, sizing);
  return one({ k: "distance", unit, n: n.value, period: null }, i, end);
};
var moneyDistance = (tokens, i) => {
  const dollarSign = norm2(tokens, i) === "$";
  const n = readNumber(tokens, dollarSign ? i + 1 : i);
  if (!n || n.value <= 0) return null;
  let end = n.end;
  if (!dollarSign) {
    const j = pastHyphen2(tokens, n.end);
    if (!wordIn(tokens, j, MONEY_WORDS)) return null;
    end = j + 1;
  }
  const sizing = phraseAt(tokens, end, MONEY_SIZING);
  if (sizing !== null) return one({ k: "word", norm: "position size" }, i, sizing);
  return one({ k: "distance", unit: "usd", n: n.value, period: null }, i, end);
};
var rrWords = flat(["rr", "r : r", "r / r", "risk reward|rewards ratio?", "risk to reward ratio?", "risk / reward ratio?", "reward to risk ratio?", "reward : risk", "reward / risk"]);
function ratio(tokens, i) {
  const a = readNumber(tokens, i);
  if (!a || !a.digits || norm2(tokens, a.end) !== ":") return null;
  const b = readNumber(tokens, a.end + 1);
  if (!b || !b.digits) return null;
  if (a.value !== 1 && b.value !== 1) return null;
  const r = a.value === 1 ? b.value : a.value;
  return r > 0 ? { r, end: b.end } : null;
}
var rDistance = (tokens, i) => {
  const r = (n2, end) => one({ k: "distance", unit: "r", n: n2, period: null }, i, end);
  const lead = rrWords.longest(tokens, i);
  if (lead) {
    const j = skipWords(tokens, lead.end, ["of", "ratio", "is"]);
    const q2 = ratio(tokens, j);
    return q2 ? r(q2.r, q2.end) : null;
  }
  const q = ratio(tokens, i);
  if (q) return r(q.r, rrWords.longest(tokens, q.end)?.end ?? q.end);
  if (wordIn(tokens, i, ["twice", "double"])) {
    const end = phraseAt(tokens, i + 1, "my|the|your? risk");
    return end !== null ? r(2, end) : null;
  }
  const n = readNumber(tokens, i);
  if (!n || n.value <= 0) return null;
  if (wordIn(tokens, n.end, ["r", "rs", "rr"])) return r(n.value, n.end + 1);
  const times = phraseAt(tokens, n.end, "x|times my|the|your|initial? risk");
  return times !== null ? r(n.value, times) : null;
};
var rangeDistance = (tokens, i) => {
  let n;
  let j;
  if (wordIn(tokens, i, ["twice", "double"])) {
    n = 2;
    j = i + 1;
  } else {
    const a = readNumber(tokens, i);
    if (!a || !(a.value > 0)) return null;
    j = a.end;
    n = a.value;
    const pct = norm2(tokens, j) === "%" ? j + 1 : phraseAt(tokens, j, "percent|pct");
    if (pct !== null) {
      const of = phraseAt(tokens, pct, "of");
      if (of === null) return null;
      n = a.value / 100;
      j = of;
    } else if (wordIn(tokens, j, ["x", "times"])) j += 1;
  }
  j = skipWords(tokens, j, ["the", "a", "full", "whole"]);
  const said2 = minutesAt(tokens, j);
  if (said2) j = said2.end;
  const range = phraseAt(tokens, j, "opening? range|ranges");
  if (range === null || wordIn(tokens, range, ["bar", "bars", "high", "low"])) return null;
  let end = phraseAt(tokens, range, "height|size|width") ?? range;
  const first = phraseAt(tokens, end, "of the? first");
  const after = said2 === null && first !== null ? minutesAt(tokens, first) : null;
  if (after) end = after.end;
  return one({ k: "distance", unit: "range", n, period: null, minutes: said2?.minutes ?? after?.minutes ?? null }, i, end);
};

// engine/reader/lex-levels.ts
var HIGH = ["high", "highs", "hi", "top", "tops", "peak"];
var LOW = ["low", "lows", "lo", "bottom", "bottoms", "trough"];
var fieldAt = (tokens, i) => wordIn(tokens, i, HIGH) ? "high" : wordIn(tokens, i, LOW) ? "low" : null;
var BAR_WORDS = ["bar", "bars", "candle", "candles", "candlestick", "candlesticks"];
function strengthAfter(tokens, i) {
  let j = i;
  const paren = norm2(tokens, j) === "(";
  if (paren) j += 1;
  if (wordIn(tokens, j, ["with", "of"])) j += 1;
  let n = readNumber(tokens, j);
  if (wordIn(tokens, j, ["strength"])) {
    n = readNumber(tokens, j + 1);
    if (!isLength(n)) return null;
    j = n.end;
  } else {
    if (!isLength(n) || !wordIn(tokens, pastHyphen2(tokens, n.end), BAR_WORDS)) return null;
    const side = phraseAt(tokens, pastHyphen2(tokens, n.end) + 1, "on|to? either|each|both side|sides");
    if (side === null) return null;
    j = side;
  }
  if (paren) {
    if (norm2(tokens, j) !== ")") return null;
    j += 1;
  }
  return n.value <= MAX_SWING_STRENGTH ? { n: n.value, end: j } : null;
}
var SWING_LEAD = "most? recent|last|latest|prior|previous|nearest|closest";
var swing = (tokens, i) => {
  let j = phraseAt(tokens, i, SWING_LEAD) ?? i;
  let strength2 = null;
  let even = false;
  const bars = readNumber(tokens, j);
  if (isLength(bars) && wordIn(tokens, pastHyphen2(tokens, bars.end), ["bar", "candle"])) {
    const k = pastHyphen2(tokens, bars.end) + 1;
    if (!wordIn(tokens, k, ["swing", "pivot", "fractal"])) return null;
    if (bars.value % 2 === 1 && bars.value >= 3) strength2 = (bars.value - 1) / 2;
    else even = true;
    j = k;
  }
  let field = null;
  if (wordIn(tokens, j, ["swing", "pivot", "fractal"])) {
    j += 1;
    if (wordIn(tokens, j, ["point"])) j += 1;
    field = fieldAt(tokens, j);
    if (field === null) return null;
    j += 1;
  } else if (strength2 === null && !even) {
    const structure = phraseAt(tokens, j, "higher low|lows") ?? phraseAt(tokens, j, "lower high|highs");
    if (structure === null) return null;
    field = wordIn(tokens, j, ["higher"]) ? "low" : "high";
    j = structure;
  } else return null;
  if (even || strength2 !== null && strength2 > MAX_SWING_STRENGTH) return one({ k: "word", norm: "swing of an even number of bars" }, i, j);
  const after = strength2 === null ? strengthAfter(tokens, j) : null;
  if (after) ({ n: strength2, end: j } = after);
  return one({ k: "operand", operand: { kind: "swing", field, strength: strength2 } }, i, j);
};
var BANDS = new Map([
  ...["upper", "top", "high"].map((w) => [w, "upper"]),
  ...["lower", "bottom", "low"].map((w) => [w, "lower"]),
  ...["middle", "mid", "center", "centre", "basis", "median"].map((w) => [w, "middle"])
]);
var bandAt = (tokens, i) => tokens[i]?.kind === "word" ? BANDS.get(tokens[i].norm) ?? null : null;
var CORE = table([
  ["bollinger band|bands|bb|bbs", true],
  ["bollinger", true],
  ["bb|bbs|bband|bbands", true]
]);
var DEVIATIONS = flat(["standard|std deviation|deviations|dev|devs", "sd|sds|std|stdev|stdevs|stddev|sigma|sigmas|deviation|deviations"]);
function widthAt(tokens, i) {
  const n = readNumber(tokens, i);
  if (!n || !(n.value > 0) || n.value > MAX_BAND_WIDTH) return null;
  const unit = DEVIATIONS.longest(tokens, pastHyphen2(tokens, n.end));
  return unit ? { k: n.value, end: unit.end } : null;
}
function paramsAt(tokens, i) {
  const paren = norm2(tokens, i) === "(";
  const j = paren ? i + 1 : i;
  const n = readNumber(tokens, j);
  if (!isLength(n) || n.value < 2 || !paren && !n.digits) return null;
  let end = n.end;
  let k = null;
  if ([",", "/"].includes(norm2(tokens, end) ?? "") || !paren && tokens[end]?.kind === "num") {
    const w = readNumber(tokens, [",", "/"].includes(norm2(tokens, end) ?? "") ? end + 1 : end);
    if (w && w.value > 0 && w.value <= MAX_BAND_WIDTH) {
      k = w.value;
      end = w.end;
    } else if (!paren) return null;
  } else if (!paren) return null;
  if (paren) {
    if (norm2(tokens, end) !== ")") return null;
    end += 1;
  }
  return { n: n.value, k, end };
}
var bollinger = (tokens, i) => {
  let j = i;
  let band = bandAt(tokens, j);
  let n = null;
  let k = null;
  if (band !== null) {
    j += 1;
    const of = phraseAt(tokens, j, "band|line of the?");
    if (of !== null && CORE.longest(tokens, of)) j = of;
  }
  const width = widthAt(tokens, j);
  if (width) ({ k, end: j } = width);
  const len = readNumber(tokens, j);
  if (isLength(len)) {
    const p = pastHyphen2(tokens, len.end);
    const unit = wordIn(tokens, p, ["period", "bar", "length"]) ? pastHyphen2(tokens, p + 1) : p;
    if (!CORE.longest(tokens, unit)) return null;
    n = len.value;
    j = unit;
  }
  if (band === null) {
    const b = bandAt(tokens, j);
    if (b !== null && CORE.longest(tokens, j + 1)) {
      band = b;
      j += 1;
    }
  }
  const core = CORE.longest(tokens, j);
  if (!core) return null;
  j = core.end;
  const params = paramsAt(tokens, j);
  if (params) {
    n ??= params.n;
    k ??= params.k;
    j = params.end;
  }
  if (band === null) {
    band = bandAt(tokens, j);
    if (band !== null) {
      j += 1;
      if (wordIn(tokens, j, ["band", "line"])) j += 1;
    }
  } else if (wordIn(tokens, j, ["band", "bands", "line"])) j += 1;
  const late = params === null ? paramsAt(tokens, j) : null;
  if (late) {
    n ??= late.n;
    k ??= late.k;
    j = late.end;
  }
  const w = k === null ? phraseAt(tokens, j, "at|of|with") !== null ? widthAt(tokens, phraseAt(tokens, j, "at|of|with")) : widthAt(tokens, j) : null;
  if (w) ({ k, end: j } = w);
  if (band === null) return one({ k: "word", norm: "bollinger bands without a band" }, i, j);
  return one({ k: "operand", operand: { kind: "bollinger", band, n, k } }, i, j);
};
var bandRefs = (tokens, i) => {
  const band = bandAt(tokens, i);
  if (band === null || !wordIn(tokens, i + 1, ["band"])) return null;
  return one({ k: "ref", ref: { kind: "band", band } }, i, i + 2);
};
var RANGE_BEFORE = ["the", "that", "this", "its", "below", "above", "under", "over", "at", "beyond", "past", "of", "to"];
var rangeRefs = (tokens, i) => {
  const ref = (field2, end) => one({ k: "ref", ref: { kind: "range", field: field2 } }, i, end);
  const lead = fieldAt(tokens, i);
  if (lead) {
    const of = phraseAt(tokens, i + 1, "of the|this|that range");
    return of !== null ? ref(lead, of) : null;
  }
  if (!wordIn(tokens, i, ["range"]) || !wordIn(tokens, i - 1, RANGE_BEFORE)) return null;
  const field = fieldAt(tokens, i + 1);
  return field ? ref(field, i + 2) : ref("range", i + 1);
};
var farSide = fromTable(
  flat([
    "other|opposite|far side of",
    "the other|opposite|far side of",
    "on|at|beyond|past|behind|outside|below|above|under|over the? other|opposite|far side of"
  ]),
  () => ({ k: "word", norm: "beyond" })
);

// engine/reader/lex-operands.ts
var operand = (o) => ({ k: "operand", operand: o });
var HIGH2 = ["high", "highs", "hi", "top"];
var LOW2 = ["low", "lows", "lo", "bottom"];
var fieldAt2 = (tokens, i) => wordIn(tokens, i, HIGH2) ? "high" : wordIn(tokens, i, LOW2) ? "low" : null;
function rangeMinutesAfter(tokens, i) {
  let j = phraseAt(tokens, i, "of|for|over|is|are|= the? first") ?? phraseAt(tokens, i, ": the? first") ?? (norm2(tokens, i) === "(" ? i + 1 : null);
  if (j === null) return null;
  const m = minutesAt(tokens, j);
  if (!m) return null;
  j = m.end;
  if (norm2(tokens, j) === ")") j += 1;
  return { minutes: m.minutes, end: j };
}
function otherRangeLength(tokens, i, minutes) {
  for (let x = i; x < tokens.length; x++) {
    const m = minutesAt(tokens, x);
    if (m && m.minutes !== minutes && (phraseAt(tokens, m.end, "opening range") !== null || wordIn(tokens, m.end, ["orb", "or"]))) return true;
  }
  return false;
}
var openingRange = (tokens, i, before2) => {
  const short2 = norm2(tokens, i);
  if (short2 === "orh" || short2 === "orl") return one(operand({ kind: "opening_range", field: short2 === "orh" ? "high" : "low", minutes: null }), i, i + 1);
  let field = "range";
  let j = i;
  const lead = fieldAt2(tokens, j);
  if (lead && norm2(tokens, j + 1) === "of") {
    const first = phraseAt(tokens, j + 1, "of the? first");
    const m2 = first !== null ? minutesAt(tokens, first) : null;
    if (m2) return one(operand({ kind: "opening_range", field: lead, minutes: m2.minutes }), i, m2.end);
    field = lead;
    j = skipWords(tokens, j + 2, ["the"]);
  }
  let minutes = null;
  const m = minutesAt(tokens, j);
  if (m) {
    const afterMarket = j === i && before2.length > 0 && before2[before2.length - 1].t1 === i && before2[before2.length - 1].body.k === "market";
    if (afterMarket && otherRangeLength(tokens, m.end, m.minutes)) return null;
    minutes = m.minutes;
    j = m.end;
  }
  let orb = false;
  const core = phraseAt(tokens, j, "opening range");
  if (core !== null) j = core;
  else if (norm2(tokens, j) === "or" && (tokens[j].text === "OR" || minutes !== null || norm2(tokens, j - 1) === "the") && fieldAt2(tokens, j + 1)) j += 1;
  else if (norm2(tokens, j) === "orb") {
    orb = true;
    j += 1;
  } else return null;
  if (field === "range") {
    const f = fieldAt2(tokens, j);
    if (f) {
      field = f;
      j += 1;
    }
  }
  const after = rangeMinutesAfter(tokens, j);
  if (after && minutes === null) ({ minutes, end: j } = after);
  if (orb && field === "range") {
    return { end: j, out: [{ body: { k: "cmp", op: "breaks" }, t0: i, t1: j }, { body: { k: "ref", ref: { kind: "orb", minutes } }, t0: i, t1: j }] };
  }
  if (!orb && wordIn(tokens, j, ["breakout", "breakouts"])) {
    if (field === "range") {
      return { end: j + 1, out: [{ body: { k: "cmp", op: "breaks" }, t0: i, t1: j + 1 }, { body: { k: "ref", ref: { kind: "orb", minutes } }, t0: i, t1: j + 1 }] };
    }
    return { end: j + 1, out: [{ body: { k: "cmp", op: "breaks" }, t0: j, t1: j + 1 }, { body: operand({ kind: "opening_range", field, minutes }), t0: i, t1: j }] };
  }
  return one(operand({ kind: "opening_range", field, minutes }), i, j);
};
var BARS = ["bars", "bar", "candles", "candle", "periods", "period"];
var BAR_NOUNS = ["bar", "bars", "candle", "candles", "candlestick", "candlesticks"];
var SIZE_UNITS = new Map([
  ...["minute", "minutes", "min", "mins", "m"].map((w) => [w, 1]),
  ...["hour", "hours", "hr", "hrs", "h"].map((w) => [w, 60])
]);
var BARE_SIZES = ["minute", "hour"];
var SESSION_TAIL = "of|after|in the? cash|regular|rth|us|ny|utc|trading? day|session|open|market";
var firstBar = (tokens, i) => {
  let j = i;
  let field = fieldAt2(tokens, j);
  if (field) {
    const of = phraseAt(tokens, j + 1, "of the?");
    if (of === null) return null;
    j = of;
  }
  if (!wordIn(tokens, j, ["first", "opening"])) return null;
  j += 1;
  let minutes = null;
  const n = readNumber(tokens, j);
  if (isLength(n)) {
    const u = pastHyphen2(tokens, n.end);
    const per = tokens[u]?.kind === "word" ? SIZE_UNITS.get(tokens[u].norm) : void 0;
    if (per === void 0) return null;
    minutes = n.value * per;
    j = u + 1;
  } else if (wordIn(tokens, j, ["hourly"])) {
    minutes = 60;
    j += 1;
  } else if (wordIn(tokens, j, BARE_SIZES)) {
    minutes = SIZE_UNITS.get(tokens[j].norm);
    j += 1;
  }
  const noun = wordIn(tokens, j, BAR_NOUNS);
  if (noun) j += 1;
  if (!field) {
    field = fieldAt2(tokens, j);
    if (field) j += 1;
  }
  const tail = phraseAt(tokens, j, SESSION_TAIL);
  if (tail !== null) j = tail;
  const said2 = noun || minutes !== null && field !== null;
  if (!said2 || minutes === null && field === null && tail === null) return null;
  if (minutes === null) return one({ k: "ref", ref: { kind: "first_bar", field: field ?? "range" } }, i, j);
  if (minutes > 500) return null;
  return one(operand({ kind: "opening_range", field: field ?? "range", minutes }), i, j);
};
var extreme = (tokens, i) => {
  let j = i;
  const fresh = phraseAt(tokens, j, "make|makes|making|print|prints a? new|fresh");
  const lead = fresh ?? phraseAt(tokens, j, "new|fresh");
  if (lead !== null) j = skipWords(tokens, lead, ["the"]);
  let which = null;
  let n = null;
  let end = j;
  if (wordIn(tokens, j, ["highest", "lowest"])) {
    which = norm2(tokens, j) === "highest" ? "highest" : "lowest";
    let k = j + 1;
    if (wordIn(tokens, k, ["high", "low"])) k += 1;
    const over = phraseAt(tokens, k, "of|in|over|for the? last|past|previous|prior|preceding?");
    if (over === null) return null;
    n = readNumber(tokens, over);
    if (!isLength(n) || !wordIn(tokens, n.end, BARS)) return null;
    end = n.end + 1;
  } else if (fieldAt2(tokens, j) && norm2(tokens, j + 1) === "of") {
    const over = phraseAt(tokens, j + 2, "the? last|past|previous|prior|preceding");
    if (over === null) return null;
    n = readNumber(tokens, over);
    if (!isLength(n) || !wordIn(tokens, n.end, BARS)) return null;
    which = fieldAt2(tokens, j) === "high" ? "highest" : "lowest";
    end = n.end + 1;
  } else {
    n = readNumber(tokens, j);
    if (!isLength(n)) return null;
    const k = pastHyphen2(tokens, n.end);
    if (!wordIn(tokens, k, ["bar", "candle", "period"])) return null;
    const f = fieldAt2(tokens, k + 1);
    if (!f) return null;
    which = f === "high" ? "highest" : "lowest";
    end = k + 2;
  }
  const read2 = { body: operand({ kind: which, n: n.value }), t0: lead !== null ? j : i, t1: end };
  if (lead === null) return { end, out: [read2] };
  return { end, out: [{ body: { k: "cmp", op: "breaks" }, t0: i, t1: lead }, read2] };
};
var priorDayEntries = ["high", "low", "close"].flatMap((field) => {
  const w = field === "high" ? "high|hi" : field === "low" ? "low|lo" : "close|settle|settlement";
  return [
    [`prior|previous|prev day|days|session|sessions ${w}`, field],
    [`yesterday day|session? ${w}`, field],
    [`${w} of the? prior|previous|prev day|session`, field],
    [`${w} of yesterday`, field]
  ];
});
var priorDay = fromTable(
  table([...priorDayEntries, ["prior|previous|prev day|days|session|sessions closing price", "close"], ["pdh", "high"], ["pdl", "low"], ["pdc", "close"]]),
  (field) => operand({ kind: "prior_day", field })
);
var marks = fromTable(
  table([
    ["my|our key|support|resistance|drawn|marked? level|levels|line|lines", "level"],
    ["my|our support|resistance", "level"],
    ["my|our key|drawn|marked? zone|zones|box|boxes|area|areas", "zone"],
    ["my|our mark|marks", "any"],
    ["marked level|levels|line|lines", "level"],
    ["marked zone|zones|area|areas", "zone"]
  ]),
  (shape) => operand({ kind: "mark", shape })
);
var markRefs = fromTable(
  table([
    ["the|that|this level|levels|line", "level"],
    ["the|that|this zone|zones|box|area", "zone"]
  ]),
  (shape) => ({ k: "ref", ref: { kind: "mark", shape } })
);
var thatBar = fromTable(
  table(
    ["high", "low"].flatMap((field) => [
      [`its ${field}`, { field, bar: false }],
      [`that|this|same bar|candle|candlestick ${field}`, { field, bar: true }],
      [`${field} of that|this|same bar|candle|candlestick`, { field, bar: true }],
      [`${field} of the same bar|candle|candlestick`, { field, bar: true }]
    ])
  ),
  (v) => ({ k: "ref", ref: { kind: "that", ...v } })
);
var wholeBars = table([
  ["signal|entry|trigger|setup bar|candle|candlestick", "signal"],
  ["prior|previous|preceding bar|candle|candlestick", "previous"]
]);
var wholeBar = (tokens, i) => {
  const m = wholeBars.longest(tokens, i);
  if (!m || wordIn(tokens, m.end, ["close", "closes", "closing", "open", "opens", "opening"])) return null;
  return one({ k: "ref", ref: { kind: "bar", bar: m.value } }, i, m.end);
};
var barOperands = fromTable(
  table(
    ["high", "low"].flatMap((field) => [
      [`signal|entry|trigger|setup bar|candle|candlestick ${field}`, { bar: "signal", field }],
      [`prior|previous|last|preceding bar|candle|candlestick ${field}`, { bar: "previous", field }],
      [`${field} of the signal|entry|trigger|setup bar|candle|candlestick`, { bar: "signal", field }],
      [`${field} of the prior|previous|last|preceding bar|candle|candlestick`, { bar: "previous", field }]
    ])
  ),
  ({ bar, field }) => operand({ kind: "bar", bar, field })
);
var IND = table([
  ["ema|emas", "ema"],
  ["exponential moving average|averages", "ema"],
  ["exponential ma", "ema"],
  ["sma|smas", "sma"],
  ["simple moving average|averages", "sma"],
  ["simple ma", "sma"],
  ["rsi", "rsi"],
  ["atr", "atr"],
  ["ma|mas", "ma"],
  ["moving average|averages", "ma"]
]);
var indicator = (tokens, i) => {
  const n = readNumber(tokens, i);
  if (isLength(n)) {
    const sep = norm2(tokens, n.end);
    if (sep === "/" || sep === "and") {
      const m = readNumber(tokens, n.end + 1);
      const kind3 = isLength(m) ? IND.longest(tokens, m.end) : null;
      if (isLength(m) && kind3 && kind3.value !== "atr" && kind3.value !== "rsi") {
        return {
          end: kind3.end,
          out: [
            { body: operand({ kind: kind3.value, n: n.value }), t0: i, t1: n.end },
            { body: operand({ kind: kind3.value, n: m.value }), t0: n.end + 1, t1: kind3.end }
          ]
        };
      }
    }
    let j = pastHyphen2(tokens, n.end);
    const period = wordIn(tokens, j, ["period", "length", "bar"]);
    if (period) j = pastHyphen2(tokens, j + 1);
    const kind2 = IND.longest(tokens, j);
    if (!kind2 || kind2.value === "atr" && !period) return null;
    return one(operand({ kind: kind2.value, n: n.value }), i, kind2.end);
  }
  const kind = IND.longest(tokens, i);
  if (!kind) return null;
  const after = lengthAfter(tokens, kind.end) ?? (() => {
    const j = pastHyphen2(tokens, kind.end);
    const m = readNumber(tokens, j);
    return isLength(m) && m.digits && norm2(tokens, m.end) !== "%" && !DISTANCE_UNITS.has(norm2(tokens, m.end) ?? "") ? { n: m.value, end: m.end } : null;
  })();
  return one(operand({ kind: kind.value, n: after?.n ?? null }), i, after?.end ?? kind.end);
};
var vwap = (tokens, i) => wordIn(tokens, i, ["vwap", "vwaps"]) ? one(operand({ kind: "vwap" }), i, i + 1) : null;
var priceTable = table([
  ["price", false],
  ["last price", false],
  ["closing price", true],
  ["close|closes|closing", true]
]);
var price = (tokens, i) => {
  const m = priceTable.longest(tokens, i);
  return m ? one({ k: "operand", operand: { kind: "price", field: "close" }, closing: m.value }, i, m.end) : null;
};
var otherTimeframeIndicator = (tokens, i) => {
  const n = readNumber(tokens, i);
  if (!n) return null;
  const j = pastHyphen2(tokens, n.end);
  if (tokens[j]?.kind !== "word" || !TIME_UNITS.has(tokens[j].norm)) return null;
  const end = IND.longest(tokens, j + 1)?.end ?? (wordIn(tokens, j + 1, ["vwap"]) ? j + 2 : null);
  return end !== null ? one({ k: "word", norm: UNREAD_INDICATOR }, i, end) : null;
};

// engine/reader/clock.ts
var clockOf = (minutes) => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
var minutesOf = (clock) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3));

// engine/reader/lex-times.ts
var time = (tokens, i) => {
  const t = tokens[i];
  let minutes;
  let j = i + 1;
  const meridiem = () => {
    const w = norm2(tokens, j);
    if (w === "am" || w === "pm") {
      j += 1;
      return w;
    }
    return null;
  };
  if (t.kind === "time") {
    minutes = t.value;
    const m = meridiem();
    const h = Math.floor(minutes / 60);
    if (m !== null && (h < 1 || h > 12)) return null;
    if (m === "pm" && h < 12) minutes += 12 * 60;
    if (m === "am" && h === 12) minutes -= 12 * 60;
  } else if (t.kind === "num" && Number.isInteger(t.value) && t.value >= 1 && t.value <= 12) {
    const m = meridiem();
    if (m === null) return null;
    minutes = t.value % 12 * 60 + (m === "pm" ? 12 * 60 : 0);
  } else if (wordIn(tokens, i, ["noon"])) minutes = 12 * 60;
  else if (wordIn(tokens, i, ["midnight"])) minutes = 0;
  else return null;
  const out = [{ body: { k: "time", clock: clockOf(minutes) }, t0: i, t1: j }];
  if (wordIn(tokens, j, ["z"]) && !tokens[j].spaced) {
    out.push({ body: { k: "zone", zone: "UTC" }, t0: j, t1: j + 1 });
    j += 1;
  }
  return { end: j, out };
};
var SESSION_OF = "of? the? cash|regular|rth|us|ny? session|open|day|market";
var firstOrLast = (tokens, i) => {
  if (!wordIn(tokens, i, ["first", "opening", "last", "final"])) return null;
  const n = readNumber(tokens, i + 1);
  if (!isLength(n)) return null;
  const unit = norm2(tokens, pastHyphen2(tokens, n.end));
  const per = unit === "hour" || unit === "hours" ? 60 : unit === "minute" || unit === "minutes" || unit === "min" || unit === "mins" ? 1 : 0;
  if (per === 0 || n.value * per > 390) return null;
  let end = pastHyphen2(tokens, n.end) + 1;
  end = phraseAt(tokens, end, SESSION_OF) ?? end;
  const open2 = 9 * 60 + 30;
  const close = 16 * 60;
  const first = wordIn(tokens, i, ["first", "opening"]);
  const [from, to] = first ? [open2, open2 + n.value * per] : [close - n.value * per, close];
  const session = { kind: "windows", zone: "America/New_York", windows: [{ from: clockOf(from), to: clockOf(to) }] };
  return one({ k: "named", session, name: first ? "the first minutes" : "the last minutes" }, i, end);
};
var TF = /* @__PURE__ */ new Map([
  [15, "15s"],
  [60, "1m"],
  [300, "5m"],
  [3600, "1h"]
]);
var PERIODS = /* @__PURE__ */ new Map([
  ["daily", 86400],
  ["weekly", 604800],
  ["monthly", 2592e3]
]);
var BARE_UNITS = ["minute", "min", "hour", "hr"];
function chartWordAt(tokens, i) {
  for (const w of CHART_WORDS) {
    const end = phraseAt(tokens, i, w);
    if (end !== null) return end;
  }
  return null;
}
var timeframe = (tokens, i, before2) => {
  const emit = (seconds2, end) => {
    const tf = TF.get(seconds2);
    const chart = chartWordAt(tokens, end);
    const to = chart ?? end;
    const body = tf ? { k: "tf", tf } : { k: "tf_unserved" };
    return one(body, i, to);
  };
  if (wordIn(tokens, i, ["m", "h"])) {
    const t = tokens[i + 1];
    if (t && t.kind === "num" && !t.spaced && Number.isInteger(t.value) && t.value > 0) return emit(TIME_UNITS.get(tokens[i].norm) * t.value, i + 2);
    return null;
  }
  if (wordIn(tokens, i, ["hourly"])) return emit(3600, i + 1);
  if (wordIn(tokens, i, BARE_UNITS) && tokens[i - 1]?.kind !== "num" && chartWordAt(tokens, i + 1) !== null) return emit(TIME_UNITS.get(tokens[i].norm), i + 1);
  const lead = () => {
    let k = i - 1;
    while (wordIn(tokens, k, ["the", "a"])) k -= 1;
    if (wordIn(tokens, k, CHART_LEADS)) return true;
    while (tokens[k]?.kind === "punct" && ["-", "\u2013", "\u2014", ":", ","].includes(tokens[k].norm)) k -= 1;
    return before2.some((o) => o.t1 === k + 1 && o.body.k === "market");
  };
  const period = PERIODS.get(norm2(tokens, i) ?? "");
  if (period !== void 0) return chartWordAt(tokens, i + 1) !== null || lead() ? emit(period, i + 1) : null;
  const n = readNumber(tokens, i);
  if (!n || !Number.isInteger(n.value) || n.value <= 0) return null;
  const hyphen = norm2(tokens, n.end) === "-";
  const u = hyphen ? n.end + 1 : n.end;
  const unit = tokens[u];
  const seconds = unit && unit.kind === "word" ? TIME_UNITS.get(unit.norm) : void 0;
  if (unit === void 0 || seconds === void 0) return null;
  const compact2 = n.digits && !unit.spaced && !hyphen;
  if (!(compact2 || hyphen || chartWordAt(tokens, u + 1) !== null || lead())) return null;
  return emit(seconds * n.value, u + 1);
};
var duration = (tokens, i) => {
  const n = readNumber(tokens, i);
  if (!n || !Number.isInteger(n.value) || n.value <= 0) return null;
  const j = pastHyphen2(tokens, n.end);
  const unit = DURATION_UNITS.get(norm2(tokens, j) ?? "");
  return unit ? one({ k: "duration", n: n.value, unit }, i, j + 1) : null;
};

// engine/reader/lexer.ts
var notSides = fromTable(flat(NOT_SIDES), () => ({ k: "word", norm: "when" }));
var viceVersa = fromTable(flat(VICE_VERSA), () => ({ k: "vice_versa" }));
var fromEntry = fromTable(flat(FROM_ENTRY), () => ({ k: "word", norm: "from entry" }));
var firstComes = fromTable(flat(FIRST_COMES), () => ({ k: "word", norm: FIRST_COMES_WORD }));
var negated = fromTable(flat(NEGATED_TRADING), () => ({ k: "not" }));
var closeExit = fromTable(flat(CLOSE_EXITS), () => ({ k: "close_exit" }));
var named = fromTable(table(NAMED_SESSIONS), (v) => ({ k: "named", session: v.session, name: v.name }));
var zones = fromTable(table(ZONE_WORDS), (zone) => ({ k: "zone", zone }));
var markets = fromTable(
  table([
    ...MARKET_NAMES.map(([p, market]) => [p, { market, micro: false }]),
    ...MICRO_MARKET_NAMES.map(([p, market]) => [p, { market, micro: true }])
  ]),
  (v) => ({ k: "market", ...v })
);
var anchors = fromTable(table(ANCHORS), (anchor) => ({ k: "anchor", anchor }));
var sides = fromTable(table(SIDE_WORDS), (s) => ({ k: "side", ...s }));
var unserved = fromTable(flat(UNSERVED_MARKETS), () => ({ k: "unserved_market" }));
var comparison = fromTable(table(COMPARISONS), (op) => ({ k: "cmp", op }));
var outExit = (tokens, i) => wordIn(tokens, i, ["out"]) && wordIn(tokens, i + 1, ["by", "at", "after", "on", "when", "if", "before"]) ? one({ k: "anchor", anchor: "exit" }, i, i + 1) : null;
var DISTANCES = [rangeDistance, rDistance, atrDistance, moneyDistance, plainDistance];
var TAKE = ["take", "takes", "taking", "bank", "banks", "banking", "book", "books", "booking", "grab"];
var takeAmount = (tokens, i, before2) => {
  if (!wordIn(tokens, i, TAKE)) return null;
  const j = phraseAt(tokens, i + 1, "it|them|profit|profits|gains at|@") ?? i + 1;
  const amount2 = DISTANCES.some((r) => r(tokens, j, before2)?.out.some((o) => o.body.k === "distance"));
  return amount2 ? one({ k: "anchor", anchor: "target" }, i, j) : null;
};
var HOLD = ["hold", "holding", "keep", "keeping", "max", "maximum"];
var HOLD_FILLER = ["it", "them", "the", "a", "trade", "trades", "position", "positions", "for", "up", "to", "at", "most", "no", "more", "than", "of", "max", "maximum", "hold"];
var holdFor = (tokens, i, before2) => {
  if (!wordIn(tokens, i, HOLD)) return null;
  let j = i + 1;
  while (wordIn(tokens, j, HOLD_FILLER)) j++;
  return duration(tokens, j, before2) ? one({ k: "anchor", anchor: "exit" }, i, j) : null;
};
var conj = (tokens, i) => {
  const w = norm2(tokens, i);
  if (w === "and" || w === "&" || w === "plus") return one({ k: "conj", conj: "and" }, i, i + 1);
  if (w === "or") return one({ k: "conj", conj: "or" }, i, i + 1);
  return null;
};
var SEPARATORS = /* @__PURE__ */ new Set([".", ";", "!", "?", "\n"]);
var DASHES = /* @__PURE__ */ new Set(["-", "\u2013", "\u2014"]);
var plain = (tokens, i) => {
  const t = tokens[i];
  if (t.kind === "num") return one({ k: "num", value: t.value, digits: true }, i, i + 1);
  if (t.kind === "word") {
    const n = readNumber(tokens, i);
    if (n && n.value > 0) return one({ k: "num", value: n.value, digits: false }, i, n.end);
    return one({ k: "word", norm: t.norm }, i, i + 1);
  }
  if (SEPARATORS.has(t.norm)) return one({ k: "sep" }, i, i + 1);
  if (t.norm === ",") return one({ k: "comma" }, i, i + 1);
  if (DASHES.has(t.norm)) return one({ k: "dash" }, i, i + 1);
  return { end: i + 1, out: [] };
};
var RECOGNIZERS = [
  notSides,
  viceVersa,
  fromEntry,
  firstComes,
  negated,
  closeExit,
  takeAmount,
  holdFor,
  rDistance,
  rangeDistance,
  farSide,
  firstBar,
  firstOrLast,
  named,
  zones,
  time,
  markets,
  unserved,
  openingRange,
  swing,
  bollinger,
  extreme,
  priorDay,
  marks,
  markRefs,
  thatBar,
  barOperands,
  wholeBar,
  rangeRefs,
  bandRefs,
  atrDistance,
  moneyDistance,
  plainDistance,
  otherTimeframeIndicator,
  timeframe,
  duration,
  indicator,
  vwap,
  outExit,
  anchors,
  comparison,
  price,
  sides,
  conj,
  plain
];
var PHRASE_MARKS = /* @__PURE__ */ new Set(["<", ">", "&", "$"]);
function lex(tokens) {
  const outs = [];
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i];
    for (const recognize of t.kind === "punct" && !PHRASE_MARKS.has(t.norm) ? [plain] : RECOGNIZERS) {
      const read2 = recognize(tokens, i, outs);
      if (read2) {
        outs.push(...read2.out);
        i = read2.end;
        break;
      }
    }
  }
  return outs.map(({ body, t0, t1 }) => Object.assign(body, { from: tokens[t0].from, to: tokens[t1 - 1].to, ctx: "entry", seg: 0, also: [] }));
}

// engine/reader/market.ts
function readMarket(lx, text) {
  const named2 = lx.filter(is("market")).map((l) => ({ value: l.market, at: [{ from: l.from, to: l.to }] }));
  const unserved2 = lx.filter(is("unserved_market"));
  if (named2.length > 0) return decide(text, named2);
  if (unserved2.length === 0) return missing();
  const said2 = [...new Set(unserved2.map((l) => text.slice(l.from, l.to)))].join(", ");
  return missing(`names ${said2}, which the tape does not serve (it serves ${MARKETS.join(", ")})`, mergeSpans(text, unserved2));
}

// engine/reader/references.ts
var word = (l, norm3) => ({ k: "word", norm: norm3, from: l.from, to: l.to, ctx: l.ctx, seg: l.seg, also: l.also });
var cite = (l) => ({ from: l.from, to: l.to });
var isRange = (l) => is("operand")(l) && l.operand.kind === "opening_range";
var isOrb = (l) => is("ref")(l) && l.ref.kind === "orb";
var minutesOf2 = (l) => isRange(l) && l.operand.kind === "opening_range" ? l.operand.minutes : isOrb(l) ? l.ref.minutes : null;
var isRangeRef = (l) => is("ref")(l) && l.ref.kind === "range";
var isRangeDistance = (l) => is("distance")(l) && l.unit === "range";
function comparedSides(lexemes) {
  return lexemes.some((l, k) => {
    const side = isRange(l) && l.operand.kind === "opening_range" ? l.operand.field !== "range" : isRangeRef(l) && l.ref.field !== "range";
    if (!side) return false;
    let j = k - 1;
    while (j >= 0 && lexemes[j].k === "word") j--;
    return is("cmp")(lexemes[j]);
  });
}
function bandSettings(lexemes) {
  const bands = lexemes.flatMap((l) => is("operand")(l) && l.operand.kind === "bollinger" ? [{ l, o: l.operand }] : []);
  const one2 = (key) => {
    const said2 = bands.filter((b) => b.o[key] !== null);
    const values = new Set(said2.map((b) => b.o[key]));
    return values.size === 1 ? { value: [...values][0], at: said2[0].l } : null;
  };
  return { n: one2("n"), k: one2("k"), named: bands.length > 0 };
}
function resolveReferences(lexemes) {
  const ranges = lexemes.filter(isRange);
  const sources = lexemes.filter((l) => minutesOf2(l) !== null || isRangeDistance(l) && l.minutes != null);
  const lengths = new Set(sources.map((l) => isRangeDistance(l) ? l.minutes : minutesOf2(l)));
  const length = lengths.size === 1 ? { minutes: [...lengths][0], at: cite(sources[0]) } : null;
  const rangeNamed = ranges.length > 0 || lexemes.some(isOrb) || sources.length > 0;
  const setup = comparedSides(lexemes);
  const bands = bandSettings(lexemes);
  const marks2 = lexemes.filter(is("operand")).filter((l) => l.operand.kind === "mark");
  const markets2 = lexemes.filter(is("market"));
  const micros = markets2.filter((l) => l.micro);
  const theRange = (l, field) => operandAt(l, { kind: "opening_range", field, minutes: length?.minutes ?? null }, length ? [length.at] : []);
  return settleBars(lexemes.flatMap((l, k) => {
    if (isOrb(l)) {
      if (setup) return [word(l, "orb")];
      const minutes = l.ref.minutes ?? length?.minutes ?? null;
      const also = l.ref.minutes === null && length ? [cite(l), length.at] : [];
      return [{ k: "operand", operand: { kind: "opening_range", field: "range", minutes }, from: l.from, to: l.to, ctx: l.ctx, seg: l.seg, also }];
    }
    if (is("cmp")(l) && isOrb(lexemes[k + 1]) && setup) return [word(l, "orb")];
    if (isRangeRef(l)) return [rangeNamed ? theRange(l, l.ref.field) : word(l, "range")];
    if (isRangeDistance(l) && l.minutes == null) {
      if (!rangeNamed) return [word(l, "a multiple of which range")];
      return [{ ...l, minutes: length?.minutes ?? null, also: [...l.also, ...length ? [length.at] : []] }];
    }
    if (is("ref")(l) && l.ref.kind === "band") {
      if (!bands.named) return [word(l, "band")];
      const also = [bands.n?.at, bands.k?.at].filter((x) => x !== void 0).map(cite);
      return [operandAt(l, { kind: "bollinger", band: l.ref.band, n: bands.n?.value ?? null, k: bands.k?.value ?? null }, also)];
    }
    if (is("operand")(l) && l.operand.kind === "bollinger" && (l.operand.n === null || l.operand.k === null)) {
      const o = l.operand;
      const fill = [o.n === null ? bands.n : null, o.k === null ? bands.k : null];
      const also = fill.filter((x) => x !== null).map((x) => cite(x.at));
      return [{ ...l, operand: { ...o, n: o.n ?? bands.n?.value ?? null, k: o.k ?? bands.k?.value ?? null }, also: [...l.also, ...also] }];
    }
    if (isRange(l) && l.operand.kind === "opening_range" && l.operand.minutes === null && length) {
      return [{ ...l, operand: { ...l.operand, minutes: length.minutes }, also: [...l.also, length.at] }];
    }
    if (is("distance")(l) && l.unit === "usd" && micros.length > 0) {
      if (micros.length < markets2.length) return [word(l, "dollars on which contract")];
      return [{ ...l, micro: true, also: [...l.also, ...micros.map(cite)] }];
    }
    if (is("ref")(l) && l.ref.kind === "mark") {
      const shape = l.ref.shape;
      const named2 = marks2.find((m) => m.operand.kind === "mark" && (m.operand.shape === shape || m.operand.shape === "any"));
      if (!named2) return [word(l, "the")];
      return [{ k: "operand", operand: { kind: "mark", shape }, from: l.from, to: l.to, ctx: l.ctx, seg: l.seg, also: [cite(named2)] }];
    }
    return [l];
  }));
}
var BEFORE_A_BAR = ["just", "right", "slightly", "the", "a"];
var HIGH_SIDE = /* @__PURE__ */ new Set(["above", "crosses_above", "breaks_above"]);
var LOW_SIDE = /* @__PURE__ */ new Set(["below", "crosses_below", "breaks_below"]);
var operandAt = (l, operand2, also) => ({
  k: "operand",
  operand: operand2,
  from: l.from,
  to: l.to,
  ctx: l.ctx,
  seg: l.seg,
  also: [...l.also, ...also]
});
function settleBars(lexemes) {
  const tfs = [...new Set(lexemes.filter(is("tf")).map((l) => l.tf))];
  const tf = tfs.length === 1 ? lexemes.find(is("tf")) : null;
  const tfMinutes = tf && TIMEFRAME_SECONDS[tf.tf] % 60 === 0 ? TIMEFRAME_SECONDS[tf.tf] / 60 : null;
  const out = [];
  let bar = null;
  let level2 = null;
  for (const l of lexemes) {
    let got = l;
    if (is("ref")(l) && l.ref.kind === "first_bar") {
      got = operandAt(l, { kind: "opening_range", field: l.ref.field, minutes: tfMinutes }, tfMinutes !== null ? [cite(tf)] : []);
    } else if (is("ref")(l) && l.ref.kind === "bar") {
      let k = out.length - 1;
      while (k >= 0 && out[k].k === "word" && BEFORE_A_BAR.includes(out[k].norm)) k--;
      const before2 = out[k];
      const field = is("cmp")(before2) ? HIGH_SIDE.has(before2.op) ? "high" : LOW_SIDE.has(before2.op) ? "low" : null : null;
      got = field ? operandAt(l, { kind: "bar", bar: l.ref.bar, field }, []) : word(l, "bar");
    } else if (is("ref")(l) && l.ref.kind === "that") {
      const { field } = l.ref;
      const named2 = l.ref.bar ? bar : level2;
      const o = named2?.operand;
      if (o && (o.kind === "opening_range" || o.kind === "bar" || o.kind === "prior_day")) got = operandAt(l, { ...o, field }, [cite(named2)]);
      else got = l.ref.bar ? operandAt(l, { kind: "bar", bar: "signal", field }, []) : word(l, "its");
    }
    out.push(got);
    if (is("operand")(got)) {
      const o = got.operand;
      if (o.kind === "bar" || o.kind === "opening_range") bar = got;
      if (o.kind === "bar" || o.kind === "opening_range" || o.kind === "prior_day") level2 = got;
    }
  }
  return out;
}

// engine/reader/session.ts
var DAY = 24 * 60;
var RANGE_WORDS = ["to", "till", "until", "through", "thru"];
var FROM_WORDS = ["after", "from", "since"];
var UNTIL_WORDS = ["before", "until", "till", "by"];
var FILLER = ["about", "around", "roughly", "the"];
function timeOf(l, bareHour) {
  if (is("time")(l)) return minutesOf(l.clock);
  if (bareHour && is("num")(l) && Number.isInteger(l.value) && l.value >= 0 && l.value <= 24) return l.value * 60;
  return null;
}
var isWord = (l, words) => l !== void 0 && l.k === "word" && words.includes(l.norm);
function pieces(lx, market, taken) {
  const out = [];
  const unknown = [];
  const zonesFor = (z9) => zoneOptions(z9, lx, market);
  let negated2 = null;
  for (let i = 0; i < lx.length; i++) {
    const l = lx[i];
    if (l.k === "sep") negated2 = null;
    if (l.k === "not") negated2 = l;
    if (l.k === "named") {
      if (l.session === null) unknown.push(l);
      else
        out.push({
          shape: l.session.kind === "always" ? { kind: "always" } : { kind: "window", from: minutesOf(l.session.windows[0].from), to: minutesOf(l.session.windows[0].to) },
          zones: l.session.kind === "always" ? [{ zone: "UTC", also: [] }] : [{ zone: l.session.zone, also: [] }],
          at: phrase([l])
        });
      continue;
    }
    if (taken.has(l) || l.k !== "time" && l.k !== "num") continue;
    const inExit = l.ctx === "exit";
    let j = i + 1;
    const z1 = is("zone")(lx[j]) ? lx[j++] : void 0;
    const link = lx[j];
    const lead = is("word")(lx[i - 1]) && ["between", "from"].includes(lx[i - 1].norm) ? lx[i - 1] : void 0;
    const linked = link !== void 0 && (link.k === "dash" || isWord(link, RANGE_WORDS) || is("conj")(link) && link.conj === "and" && isWord(lead, ["between"]));
    if (linked) {
      const z22 = is("zone")(lx[j + 2]) ? lx[j + 2] : void 0;
      const from = timeOf(l, z22 !== void 0);
      const to = timeOf(lx[j + 1], z22 !== void 0 || l.k === "time");
      if (from !== null && to !== null && from !== to) {
        const used2 = [lead, l, z1, link, lx[j + 1], z22].filter((x) => x !== void 0);
        used2.forEach((u) => taken.add(u));
        out.push({ shape: { kind: "window", from, to }, zones: zonesFor(z22 ?? z1), at: phrase(used2) });
        i = j + (z22 ? 2 : 1);
        continue;
      }
    }
    if (inExit || l.k !== "time" || l.ctx !== "entry") continue;
    let w = i - 1;
    while (isWord(lx[w], FILLER)) w -= 1;
    const word2 = lx[w];
    const after = isWord(word2, FROM_WORDS);
    const before2 = isWord(word2, UNTIL_WORDS) || negated2 !== null && isWord(word2, ["at"]);
    if (!after && !before2) continue;
    const at2 = minutesOf(l.clock);
    const starts = !isWord(word2, ["at"]) && after !== (negated2 !== null);
    const shape = starts ? { kind: "from", at: at2 } : { kind: "until", at: at2 };
    const used = [...negated2 ? [negated2] : [], word2, l, ...z1 ? [z1] : []];
    used.forEach((u) => taken.add(u));
    out.push({ shape, zones: zonesFor(z1), at: phrase(used) });
  }
  return { pieces: out, unknown };
}
function combine(ps, zone) {
  if (ps.every((p) => p.shape.kind === "always")) return { kind: "always" };
  if (ps.some((p) => p.shape.kind === "always")) return null;
  const bounded = ps.flatMap((p) => p.shape.kind === "window" ? [{ from: p.shape.from, to: p.shape.to }] : []);
  const lo = Math.max(0, ...ps.flatMap((p) => p.shape.kind === "from" ? [p.shape.at] : []));
  const hi = Math.min(DAY, ...ps.flatMap((p) => p.shape.kind === "until" ? [p.shape.at] : []));
  const halves = ps.length - bounded.length;
  if (bounded.some((w) => w.from > w.to)) return bounded.length === 1 && halves === 0 ? win(zone, bounded) : null;
  const merged = [];
  for (const w of [...bounded].sort((a, b) => a.from - b.from)) {
    const last = merged[merged.length - 1];
    if (last && w.from < last.to) {
      last.from = Math.max(last.from, w.from);
      last.to = Math.min(last.to, w.to);
    } else merged.push({ ...w });
  }
  const cut = (merged.length > 0 ? merged : [{ from: lo, to: hi }]).map((w) => ({ from: Math.max(w.from, lo), to: Math.min(w.to, hi) })).filter((w) => w.from < w.to);
  return cut.length > 0 ? win(zone, cut) : null;
}
var win = (zone, ws) => ({
  kind: "windows",
  zone,
  windows: ws.map((w) => ({ from: clockOf(w.from), to: clockOf(w.to) }))
});
function readSession(lx, text, market, taken) {
  const { pieces: ps, unknown } = pieces(lx, market, taken);
  if (ps.length === 0) {
    if (unknown.length === 0) return missing();
    const names = [...new Set(unknown.map((l) => l.name))].join(", ");
    return missing(`names ${names}, whose hours the reader does not know`, mergeSpans(text, unknown));
  }
  const choices = ps.some((p) => p.zones.length > 1) ? ps.find((p) => p.zones.length > 1).zones.map((z9) => z9.zone) : [null];
  const candidates = [];
  for (const choice of choices) {
    const placed = ps.map((p) => {
      const option = p.zones.find((z9) => z9.zone === choice) ?? p.zones[0];
      return { piece: p, zone: option.zone, at: [...p.at, ...option.also] };
    });
    const zones2 = [...new Set(placed.filter((p) => p.piece.shape.kind !== "always").map((p) => p.zone))];
    const together = zones2.length <= 1 ? combine(ps, zones2[0] ?? "UTC") : null;
    if (together) candidates.push({ value: together, at: placed.flatMap((p) => p.at) });
    else for (const p of placed) {
      const alone = combine([p.piece], p.zone);
      if (alone) candidates.push({ value: alone, at: p.at });
    }
  }
  return decide(text, candidates);
}

// engine/reader/side.ts
function readSide(lx, text, triggered) {
  const words = lx.filter(is("side")).filter((l) => l.ctx === "entry");
  const turned = lx.filter((l) => l.k === "vice_versa");
  const of = (side) => words.filter((l) => l.side === side);
  const cite2 = (ls) => ls.flatMap((l) => phrase([l]));
  if (triggered.has("long") && triggered.has("short") || of("both").length > 0) {
    return { status: "read", value: "both", spans: mergeSpans(text, cite2([...words, ...turned])) };
  }
  const candidates = ["long", "short"].filter((s) => of(s).length > 0).map((s) => ({ value: s, at: cite2(of(s)) }));
  candidates.sort((a, b) => a.at[0].from - b.at[0].from);
  return candidates.length > 0 ? decide(text, candidates) : missing();
}

// engine/reader/stop.ts
var BEYOND = ["beyond", "past", "behind", "outside", "through"];
function whereOf(l, level2) {
  if (is("cmp")(l)) {
    if (l.op === "above" || l.op === "crosses_above" || l.op === "breaks_above") return "above";
    if (l.op === "below" || l.op === "crosses_below" || l.op === "breaks_below") return "below";
    return "at";
  }
  if (l?.k === "word" && BEYOND.includes(l.norm) && level2) {
    const edge = edgeOf(level2);
    return edge === "high" ? "above" : edge === "low" ? "below" : "beyond";
  }
  return null;
}
function readClause(clause) {
  const anchor = clause.filter((l) => l.k === "anchor");
  const items = clause.filter((l) => l.k !== "word" || BEYOND.includes(l.norm) || l.norm === "from entry");
  const out = [];
  const cite2 = (ls) => phrase([...anchor, ...ls.filter((l) => l !== void 0)]);
  for (let i = 0; i < items.length; i++) {
    const l = items[i];
    const next = items[i + 1];
    const after = items[i + 2];
    if (is("distance")(l)) {
      const distance = stopDistance(l);
      if (!distance) continue;
      const where = is("operand")(after) ? whereOf(next, after.operand) : null;
      const lvl = is("operand")(after) ? level(after.operand) : null;
      if (where && lvl) {
        out.push({ value: { kind: "level", where, level: lvl, offset: distance }, at: cite2([l, next, after]) });
        i += 2;
      } else out.push({ value: { kind: "distance", distance }, at: cite2([l]) });
    } else if (is("operand")(next) && whereOf(l, next.operand)) {
      const lvl = level(next.operand);
      if (lvl) out.push({ value: { kind: "level", where: whereOf(l, next.operand), level: lvl }, at: cite2([l, next]) });
      i += 1;
    } else if (is("operand")(l)) {
      const lvl = level(l.operand);
      if (lvl) out.push({ value: { kind: "level", where: "at", level: lvl }, at: cite2([l]) });
    } else if (is("num")(l)) {
      for (const distance of unitless(l.value)) out.push({ value: { kind: "distance", distance }, at: cite2([l]) });
    }
  }
  return out;
}
function fromTrail(trail) {
  if (trail.status !== "read" || trail.value === null) return [];
  const t = trail.value;
  const value = t.kind === "distance" ? { kind: "distance", distance: t.distance } : { kind: "level", where: "at", level: t.level };
  return [{ value, at: trail.spans }];
}
function readStop(lx, text, trail) {
  const said2 = clauses(lx, "stop").flatMap((c) => phrase(c));
  const stated = clauses(lx, "stop").flatMap(readClause);
  const trailing = stated.length === 0 && said2.length === 0 ? fromTrail(trail) : [];
  const candidates = [...stated, ...trailing];
  const moves = clauses(lx, "breakeven").flatMap((clause) => {
    const d = clause.find(is("distance"));
    return d ? [{ value: targetDistance(d), at: phrase(clause.filter((l) => l === d || l.k === "anchor")) }] : [];
  });
  const breakeven = decide(text, moves);
  if (candidates.length === 0) {
    if (breakeven.status !== "missing") return missing("only a move to breakeven is stated, not where the rule is wrong", breakeven.spans);
    return said2.length > 0 ? missing("a stop is named, but its words are not ones the reader knows", mergeSpans(text, said2)) : missing();
  }
  const withMove = breakeven.status === "read" ? candidates.map((c) => ({ value: { ...c.value, breakeven: breakeven.value }, at: [...c.at, ...breakeven.spans] })) : candidates;
  const notes2 = [
    ...trailing.length > 0 ? ["a trailing stop and no other: the stop starts where the trail does, and the exit's trail moves it"] : [],
    ...[unstatedNote(withMove.map((c) => c.value))].filter((n) => n !== void 0)
  ];
  return decide(text, withMove, notes2.length > 0 ? notes2.join("; ") : void 0);
}

// engine/reader/timeframe.ts
function readTimeframe(lx, text) {
  const served = lx.filter(is("tf")).map((l) => ({ value: l.tf, at: [{ from: l.from, to: l.to }] }));
  const unserved2 = lx.filter(is("tf_unserved"));
  const note = unserved2.length > 0 ? `names ${[...new Set(unserved2.map((l) => text.slice(l.from, l.to)))].join(", ")}, a timeframe the tape does not serve (it serves ${TIMEFRAMES.join(", ")})` : void 0;
  if (served.length > 0) return decide(text, served, note);
  return unserved2.length > 0 ? missing(note, mergeSpans(text, unserved2)) : missing();
}

// engine/reader/tokens.ts
var SCAN = /(\s+)|(\d{1,2}):(\d{2})(?!\d)|(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)|([A-Za-z]+(?:['’][A-Za-z]+)*)|([^\s\w])/y;
var wordNorm = (w) => w.toLowerCase().replace(/['’]s$/, "").replace(/['’]/g, "");
function tokenize(text) {
  const tokens = [];
  let spaced = true;
  const push = (kind, t, norm3, from, value = 0) => {
    tokens.push({ kind, text: t, norm: norm3, from, to: from + t.length, spaced, value });
    spaced = false;
  };
  SCAN.lastIndex = 0;
  let at2 = 0;
  while (at2 < text.length) {
    SCAN.lastIndex = at2;
    const m = SCAN.exec(text);
    if (!m) {
      push("punct", text[at2], text[at2], at2);
      at2 += 1;
      continue;
    }
    const [all, space, hh, mm, num3, word2] = m;
    if (space !== void 0) {
      const nl = space.indexOf("\n");
      if (nl >= 0) push("punct", "\n", "\n", at2 + nl);
      spaced = true;
    } else if (hh !== void 0 && mm !== void 0) {
      const h = Number(hh);
      const min = Number(mm);
      if (h <= 24 && min <= 59 && (h < 24 || min === 0)) push("time", all, all, at2, h * 60 + min);
      else {
        push("num", hh, hh, at2, h);
        push("punct", ":", ":", at2 + hh.length);
        push("num", mm, mm, at2 + hh.length + 1, min);
      }
    } else if (num3 !== void 0) push("num", all, all, at2, Number(num3.replace(/,/g, "")));
    else if (word2 !== void 0) push("word", all, wordNorm(all), at2);
    else push("punct", all, all, at2);
    at2 += all.length;
  }
  return tokens;
}

// engine/reader/read.ts
function readRule(text) {
  const lx = place(resolveReferences(lex(tokenize(text))));
  const market = readMarket(lx, text);
  const taken = /* @__PURE__ */ new Set();
  const session = readSession(lx, text, market, taken);
  const entry = readEntry(lx, text, taken);
  return withHints(withDefaults({
    market,
    timeframe: readTimeframe(lx, text),
    session,
    side: readSide(lx, text, entry.sides),
    entry: entry.part,
    stop: readStop(lx, text, readTrail(lx, text)),
    exit: readExit(lx, text, market, taken)
  }));
}

// engine/reader/citations.ts
function citationProblems(text, reading) {
  const parsed = RuleReadingSchema.safeParse(reading);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join(".") || "reading"}: ${i.message}`);
  const problems = [];
  const check = (where, s) => {
    if (s.to > text.length) problems.push(`${where}: span ${s.from}-${s.to} runs past the text (${text.length} characters)`);
    else if (text.slice(s.from, s.to) !== s.text) problems.push(`${where}: span ${s.from}-${s.to} is not the words it quotes`);
  };
  const r = parsed.data;
  for (const p of PARTS) {
    r[p].spans.forEach((s, i) => check(`${p}.spans.${i}`, s));
    (r[p].readings ?? []).forEach((reading2, k) => reading2.spans.forEach((s, i) => check(`${p}.readings.${k}.spans.${i}`, s)));
  }
  return [...problems, ...defaultProblems(r)];
}

// engine/reader/account.ts
import { z as z3 } from "zod";
var ClauseAccountSchema = z3.strictObject({
  span: SpanSchema,
  parts: z3.array(z3.enum(PARTS)).describe("the parts that cite words of this clause"),
  unused: z3.array(z3.strictObject({ span: SpanSchema, why: z3.string().min(1), hint: z3.string().min(1).optional() })).describe("words of this clause that carry a meaning no part took: why each was not used, and words that would read")
}).refine((c) => c.parts.length > 0 || c.unused.length > 0, { message: "a clause lands in a part or says why it was not used" });
var UNREAD_WORDS = {
  [FIRST_COMES_WORD]: { why: "every way out is read as whichever comes first already" },
  "position size": { why: "position sizing: the rule trades one contract or coin, and the reader does not read sizing" },
  [UNREAD_INDICATOR]: { why: "an indicator of another timeframe, which the reader does not read", hint: "use the chart's own: 'the 20 SMA', 'RSI(14)'" },
  range: { why: "names a range, but the rule names no opening range it could be", hint: "say which range: 'the 15-minute opening range'" },
  "a multiple of which range": { why: "a multiple of a range, but the rule names no opening range it could be", hint: "say which range: 'twice the 15-minute opening range'" },
  band: { why: "names a band, but the rule names no Bollinger bands", hint: "say which band: 'the lower Bollinger band'" },
  "bollinger bands without a band": { why: "names the Bollinger bands without saying which band", hint: "say 'the upper Bollinger band', 'the middle band' or 'the lower band'" },
  "swing of an even number of bars": { why: "an even number of bars has no middle bar to swing", hint: "'the 5-bar swing low' or 'the swing low (2 bars either side)'" },
  "dollars on which contract": { why: "dollars, with the market named both as the E-mini and as the micro", hint: "name one contract: 'NQ' or 'MNQ'" },
  bar: { why: "a bar without its high or low, whose side the words do not give", hint: "say 'below the signal bar's low'" },
  its: { why: '"its" with no bar or level named before it', hint: "name it: 'the opening range low', 'the signal bar's high'" }
};
var MEANINGFUL = /* @__PURE__ */ new Set(["market", "unserved_market", "tf", "tf_unserved", "num", "time", "zone", "operand", "ref", "distance", "duration", "cmp", "side", "anchor", "named", "close_exit", "vice_versa", "not"]);
var ANCHOR_HINTS = {
  stop: "say where: 'stop 10 points', 'stop below the swing low'",
  target: "say how far: 'target 2R', 'take 40 points', 'target the prior day's close'",
  trail: "say by how much: 'trail by 2 ATR(14)', 'trailing stop 1%'",
  exit: "say when: 'exit after 12 bars', 'exit at 11:30 ET', 'exit when price tags the upper Bollinger band'",
  breakeven: "say when: 'move the stop to breakeven at 1R'"
};
function unusedOf(l) {
  const where = l.ctx === "entry" ? "in a trigger's clause" : `in a ${l.ctx} clause`;
  switch (l.k) {
    case "word":
      return UNREAD_WORDS[l.norm] ?? { why: "not read" };
    case "anchor":
      return { why: `names a ${l.anchor === "exit" ? "way out" : l.anchor}, but nothing after it reads as one`, hint: ANCHOR_HINTS[l.anchor] };
    case "distance":
      return l.ctx === "entry" ? { why: "an amount with no stop, target or trail word before it", hint: "say what it is: 'stop 10 points', 'target 10 points'" } : { why: `an amount ${where} that its part did not take` };
    case "duration":
      return { why: `a length of time ${where}, which is no way out there`, hint: `say it as a way out: 'exit after ${l.n} ${l.unit}'` };
    case "time":
      return { why: `a time of day ${where} that is neither a window's nor a way out's`, hint: "'between 09:45 and 11:30 ET', or 'exit at 11:30 ET'" };
    case "zone":
      return { why: "names a clock, but no time read is on it", hint: "say the time with it: 'between 09:45 and 15:30 Chicago'" };
    case "operand":
    case "cmp":
    case "num":
      return { why: `${l.k === "num" ? "a number" : l.k === "cmp" ? "a comparison" : "a level or indicator"} ${where} that no part took`, hint: "say it as a condition ('when price closes above VWAP') or with its unit ('10 points')" };
    case "side":
      return { why: `a side ${where}, which the side part does not read there` };
    case "not":
      return { why: "no time follows the words that stop trading", hint: "'no new trades after 15:00 ET'" };
    default:
      return { why: `${where}, not taken by any part` };
  }
}
var SPLITS = /* @__PURE__ */ new Set(["sep", "comma"]);
var LINKS = /* @__PURE__ */ new Set(["word", "conj", "dash"]);
function clausesOf(lx) {
  const out = [];
  let run = [];
  const flush = () => {
    if (run.length > 0) out.push(run);
    run = [];
  };
  for (const l of lx) {
    if (SPLITS.has(l.k)) {
      flush();
      continue;
    }
    if (run.length > 0 && l.seg !== run[run.length - 1].seg && run.some((x) => !LINKS.has(x.k))) flush();
    run.push(l);
  }
  flush();
  return out;
}
function citedBy(part) {
  return [...part.spans, ...(part.readings ?? []).flatMap((r) => r.spans)];
}
var overlaps = (a, b) => a.from < b.to && b.from < a.to;
var meaningful = (l) => l.k === "word" ? Object.hasOwn(UNREAD_WORDS, l.norm) : MEANINGFUL.has(l.k) && !(l.k === "anchor" && l.anchor === "entry");
function accountClauses(text, reading) {
  const lx = place(resolveReferences(lex(tokenize(text))));
  const cited = PARTS.map((p) => ({ p, spans: citedBy(reading[p]) }));
  return clausesOf(lx).map((clause) => {
    const whole = span(text, clause[0].from, Math.max(...clause.map((l) => l.to)));
    const parts = cited.filter((c) => c.spans.some((s) => clause.some((l) => overlaps(s, l)))).map((c) => c.p);
    const unused = clause.filter((l) => meaningful(l) && !cited.some((c) => c.spans.some((s) => overlaps(s, l)))).map((l) => ({ span: span(text, l.from, l.to), ...unusedOf(l) }));
    if (parts.length === 0 && unused.length === 0) unused.push({ span: whole, why: "none of these words is one the reader reads" });
    return { span: whole, parts, unused: unused.map((u) => u.hint === void 0 ? { span: u.span, why: u.why } : u) };
  });
}

// core/json.ts
var written = /* @__PURE__ */ new WeakMap();
function jsonOf(value) {
  if (typeof value !== "object" || value === null || !Object.isFrozen(value)) return JSON.stringify(value);
  let json = written.get(value);
  if (json === void 0) written.set(value, json = JSON.stringify(value));
  return json;
}
function parseJsonBody(bytes) {
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (text.charCodeAt(0) === 65279) text = text.slice(1);
  return text.length === 0 ? {} : JSON.parse(text);
}

// engine/decider/canonical.ts
import { createHash } from "node:crypto";
function canonicalJson(value) {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`canonical JSON has no form for ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== void 0).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
}
var seedHash = (ir, version) => createHash("sha256").update(`${canonicalJson(ir)}
${version}`).digest("hex");

// engine/decider/watermark.ts
var HEX64 = /^[0-9a-f]{64}$/;
var VERSION_PATTERN = /^[A-Za-z0-9._:/+-]{1,64}$/;
function sealWords(seedHash2) {
  if (!HEX64.test(seedHash2)) throw new RangeError("a seed hash is 64 lowercase hex digits");
  return Array.from({ length: 8 }, (_, i) => Number.parseInt(seedHash2.slice(i * 8, i * 8 + 8), 16));
}
var wordsToHash = (words) => words.map((w) => w.toString(16).padStart(8, "0")).join("");
function literal(text) {
  const s = text.trim().replaceAll("_", "");
  if (!/^(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|\d+)$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) && n >= 0 && n <= 4294967295 ? n : null;
}
function sealOf(code) {
  const m = /\bSEAL\b[^=]*=\s*\[([^\]]*)\]/.exec(code);
  if (!m) return null;
  const words = m[1].split(",").map((x) => x.trim()).filter((x) => x !== "").map(literal);
  if (words.length !== 8 || words.some((w) => w === null)) return null;
  return wordsToHash(words);
}
var stringConst = (code, name, body) => new RegExp(`\\b${name}\\b[^=]*=\\s*(['"\`])(${body})\\1`).exec(code)?.[2] ?? null;
function verifyWatermark(code) {
  const sealed = sealOf(code);
  const stated = stringConst(code, "SEED_HASH", "[0-9a-f]{64}");
  const version = stringConst(code, "VERSION", "[A-Za-z0-9._:/+-]{1,64}");
  if (sealed === null || version === null) return null;
  if (stated !== null && stated !== sealed) return null;
  return { seed_hash: sealed, version };
}

// engine/decider/contract.ts
var PHASE = { FLAT: 0, ARMED: 1, IN_LONG: 2, IN_SHORT: 3, EXITING: 4, CLOSING: 5 };
var STATES = ["flat", "armed", "in_long", "in_short", "exiting", "closing"];
var EXIT_WHY = [
  "stop",
  "breakeven",
  "trail",
  "target",
  "exit_rule",
  "time",
  "clock",
  "session_close",
  "session_end",
  "end_of_data",
  "hold"
];
var WHY = Object.fromEntries(EXIT_WHY.map((w, i) => [w, i]));
function freshState() {
  return {
    phase: PHASE.FLAT,
    dir: 0,
    signal: -1,
    fill: -1,
    entry: NaN,
    stop: NaN,
    stopWhy: WHY.stop,
    target: NaN,
    risk: NaN,
    best: NaN,
    beAt: NaN,
    deadline: Infinity,
    deadlineWhy: 0,
    lastBar: Infinity,
    why: 0,
    seal: 0
  };
}

// engine/decider/codegen.ts
var num = (x) => x < 0 ? `(${JSON.stringify(x)})` : JSON.stringify(x);
var whyConst = (w) => `WHY_${w.toUpperCase()}`;
var stateConst = (s) => s.toUpperCase();
var Renderer = class {
  constructor(ir, typed) {
    this.ir = ir;
    this.typed = typed;
    this.held = new Set(ir.series.filter((x) => x.kind === "prior_day" || x.kind === "opening_range").map((x) => x.id));
  }
  ir;
  typed;
  helpers = [];
  whys = /* @__PURE__ */ new Set();
  marks = 0;
  /** The series that hold one level for a whole trading day or session: the prior day's, the opening range's. */
  held;
  /** A piece of type syntax: written in the TypeScript rendition only. */
  t(s) {
    return this.typed ? s : "";
  }
  why(w) {
    this.whys.add(w);
    return whyConst(w);
  }
  at(array, idx) {
    return `s.${array}[${idx}]${this.t("!")}`;
  }
  value(v, idx, ctx) {
    switch (v.src) {
      case "bar":
        return this.at(v.field, idx);
      case "series":
        return this.at(v.id, idx);
      case "constant":
        return num(v.value);
      case "signal_bar":
        return ctx === "trade" ? this.at(v.field, "st.signal") : this.at(v.field, idx);
      case "previous_bar":
        return this.at(v.field, `${idx} - 1`);
    }
  }
  /** An operand as an interval; a mark reads the loop's lo and hi. */
  interval(o, ctx) {
    if (o.kind === "mark") return { lo: () => "lo", hi: () => "hi" };
    if (o.kind === "zone") return { lo: (idx) => this.value(o.lo, idx, ctx), hi: (idx) => this.value(o.hi, idx, ctx) };
    const v = (idx) => this.value(o.at, idx, ctx);
    return { lo: v, hi: v };
  }
  /**
   * Where a break or a cross reads an operand for the bar before the one decided. A line that moves bar by bar (a
   * bar's price, an average, VWAP, the N-bar high, the previous bar) is read as it stood at that bar. A level held for
   * a day or a session (the prior day, the opening range), a number and a mark are the level in force for the bar
   * decided, and the bar before is held to that same level: on a new day's first bar the prior day's high is the day
   * just ended, and the bar before (that day's last) is compared with it, not with the day before's.
   */
  before(o) {
    if (o.kind === "mark") return "i";
    const values = o.kind === "zone" ? [o.lo, o.hi] : [o.at];
    return values.every((v) => v.src === "constant" || v.src === "series" && this.held.has(v.id)) ? "i" : "i - 1";
  }
  shapeTest(shape) {
    return shape === "any" ? "" : `s.markShape[m] === ${shape === "zone" ? 1 : 0} && `;
  }
  /** A helper that holds a leaf reading the trader's marks: true when some mark satisfies it. */
  markHelper(shape, test) {
    const name = `someMark${this.marks++}`;
    const n = this.t(": number");
    this.helpers.push(
      [
        `function ${name}(i${n}, st${this.t(": State")}, s${this.t(": Series")})${this.t(": boolean")} {`,
        `  for (let m = 0; m < s.markLo.length; m++) {`,
        .../\blo\b/.test(test) ? [`    const lo = ${this.at("markLo", "m")};`] : [],
        .../\bhi\b/.test(test) ? [`    const hi = ${this.at("markHi", "m")};`] : [],
        `    if (${this.shapeTest(shape)}${test}) return true;`,
        `  }`,
        `  return false;`,
        `}`
      ].join("\n")
    );
    return `${name}(i, st, s)`;
  }
  cond(c, ctx) {
    if ("args" in c) return `(${c.args.map((a) => this.cond(a, ctx)).join(c.op === "and" ? " && " : " || ")})`;
    let test;
    let mark;
    if ("level" in c) {
      const z9 = this.interval(c.level, ctx);
      if (c.level.kind === "mark") mark = c.level;
      const was = this.before(c.level);
      const up = `${this.at("h", "i")} > ${z9.hi("i")} && ${this.at("h", "i - 1")} <= ${z9.hi(was)}`;
      const down = `${this.at("l", "i")} < ${z9.lo("i")} && ${this.at("l", "i - 1")} >= ${z9.lo(was)}`;
      test = c.op === "breaks_above" ? `(${up})` : c.op === "breaks_below" ? `(${down})` : c.op === "breaks" ? `((${up}) || (${down}))` : `(${this.at("l", "i")} <= ${z9.hi("i")} && ${this.at("h", "i")} >= ${z9.lo("i")})`;
    } else {
      const l = this.interval(c.left, ctx);
      const r = this.interval(c.right, ctx);
      mark = [c.left, c.right].find((o) => o.kind === "mark");
      const [lw, rw] = [this.before(c.left), this.before(c.right)];
      const up = `${l.lo("i")} > ${r.hi("i")} && ${l.lo(lw)} <= ${r.hi(rw)}`;
      const down = `${l.hi("i")} < ${r.lo("i")} && ${l.hi(lw)} >= ${r.lo(rw)}`;
      test = c.op === "above" ? `${l.lo("i")} > ${r.hi("i")}` : c.op === "below" ? `${l.hi("i")} < ${r.lo("i")}` : c.op === "crosses_above" ? `(${up})` : c.op === "crosses_below" ? `(${down})` : `((${up}) || (${down}))`;
    }
    return mark?.kind === "mark" ? this.markHelper(mark.shape, test) : test;
  }
  /** A distance in price at index idx; `base` is what a fraction is of. */
  distance(d, idx, base) {
    switch (d.unit) {
      case "price":
        return num(d.value);
      case "fraction":
        return `${base} * ${num(d.value)}`;
      case "atr":
        return `${num(d.mult)} * ${this.at(d.series, idx)}`;
      case "range":
        return `${num(d.mult)} * (${this.at(d.hi, idx)} - ${this.at(d.lo, idx)})`;
      case "r":
        return `${num(d.value)} * st.risk`;
    }
  }
  /**
   * The price a level operand stands for at index idx, from the trade's side: a zone's near edge for a target
   * (lo long, hi short), its far edge for a stop or trail (lo long, hi short too: the side the trade leaves by).
   * Marks: the nearest one on the given side of `ref` (below it long, above it short for a stop or trail; beyond
   * it for a target); NaN when there is none.
   */
  levelPrice(o, idx, ctx, ref, role) {
    if (o.kind === "point") return this.value(o.at, idx, ctx);
    if (o.kind === "zone") return `(st.dir > 0 ? ${this.value(o.lo, idx, ctx)} : ${this.value(o.hi, idx, ctx)})`;
    const name = `nearestMark${this.marks++}`;
    const n = this.t(": number");
    const beyond = role === "protect" ? "d * (ref - x) > 0" : "d * (x - ref) > 0";
    const nearer = role === "protect" ? "d * (x - best) > 0" : "d * (best - x) > 0";
    const shape = o.shape === "any" ? [] : [`    if (s.markShape[m] !== ${o.shape === "zone" ? 1 : 0}) continue;`];
    this.helpers.push(
      [
        `function ${name}(st${this.t(": State")}, s${this.t(": Series")}, ref${n})${this.t(": number")} {`,
        `  const d = st.dir;`,
        `  let best = NaN;`,
        `  for (let m = 0; m < s.markLo.length; m++) {`,
        ...shape,
        `    const x = d > 0 ? ${this.at("markLo", "m")} : ${this.at("markHi", "m")};`,
        `    if (${beyond} && (best !== best || ${nearer})) best = x;`,
        `  }`,
        `  return best;`,
        `}`
      ].join("\n")
    );
    return `${name}(st, s, ${ref})`;
  }
  /** The initial stop at the fill; a level stop with an offset reads `base`, the level fill() has just read. */
  stopAtFill() {
    const stop = this.ir.stop;
    if (stop.kind === "distance") {
      const d = stop.distance;
      return d.unit === "fraction" ? `q(price * (1 - d * ${num(d.value)}))` : `q(price - d * ${this.distance(d, "k", "price")})`;
    }
    if (stop.where === "at") return `q(${this.levelPrice(stop.level, "k", "trade", "price", "protect")})`;
    const away = stop.where === "below" ? "-" : stop.where === "above" ? "+" : "- d *";
    return `q(base ${away} ${this.distance(stop.offset, "k", "base")})`;
  }
  targetAtFill() {
    const target = this.ir.target;
    if (target === null) return "NaN";
    if (target.kind === "level") return "targetAt(k, st, s)";
    const d = target.distance;
    return d.unit === "fraction" ? `q(price * (1 + d * ${num(d.value)}))` : `q(price + d * ${this.distance(d, "k", "price")})`;
  }
  breakevenAtFill() {
    const be = this.ir.breakeven;
    if (be === null) return "NaN";
    return be.unit === "fraction" ? `q(price * (1 + d * ${num(be.value)}))` : `q(price + d * ${this.distance(be, "k", "price")})`;
  }
  trailCandidate() {
    const trail = this.ir.trail;
    if (trail === null) return null;
    if (trail.kind === "level") return `q(${this.levelPrice(trail.level, "i", "trade", this.at("c", "i"), "protect")})`;
    const d = trail.distance;
    return d.unit === "fraction" ? `q(st.best * (1 - d * ${num(d.value)}))` : `q(st.best - d * ${this.distance(d, "i", "st.best")})`;
  }
  deadlines() {
    const ir = this.ir;
    const lines = [];
    const earliest = (instant, why) => {
      lines.push(`  deadline(st, ${instant}, ${this.why(why)});`);
    };
    if (ir.flat_at_session_end && ir.session.kind === "windows") earliest(this.at(ir.session.end, "k"), "session_end");
    for (const t of ir.time) {
      if (t.kind === "seconds") earliest(`${this.at("t", "f")} + ${t.n}`, "time");
      if (t.kind === "clock") earliest(this.at(t.series, "f"), "clock");
      if (t.kind === "session_close") earliest(this.at(t.series, t.series === "session_end" ? "k" : "f"), "session_close");
    }
    return lines;
  }
  render(seed, version) {
    if (!VERSION_PATTERN.test(version)) throw new RangeError(`a version is 1 to 64 of A-Z a-z 0-9 . _ : / + -, got ${JSON.stringify(version)}`);
    const ir = this.ir;
    const t = (s) => this.t(s);
    const n = t(": number");
    const ex = this.typed ? "export " : "";
    const sig = `i${n}, st${t(": State")}, s${t(": Series")}`;
    const conditions = [];
    const condFn = (name, c, ctx) => conditions.push(`function ${name}(${sig})${t(": boolean")} {
  return ${this.cond(c, ctx)};
}`);
    if (ir.entry.long) condFn("enterLong", ir.entry.long, "entry");
    if (ir.entry.short) condFn("enterShort", ir.entry.short, "entry");
    if (ir.exit_when) condFn("exitRule", ir.exit_when, "trade");
    if (ir.target?.kind === "level") {
      const x = this.levelPrice(ir.target.level, "i", "trade", "st.entry", "target");
      conditions.push(
        [
          `/** The level target read at bar i: active only while it lies beyond the entry. */`,
          `function targetAt(${sig})${t(": number")} {`,
          `  const x = ${x};`,
          `  return st.dir * (x - st.entry) > 0 ? q(x) : NaN;`,
          `}`
        ].join("\n")
      );
    }
    const fill = [
      `${ex}function fill(f${n}, price${n}, st${t(": State")}, s${t(": Series")})${t(": boolean")} {`
    ];
    if (ir.stop.kind === "level" && ir.stop.where !== "at") {
      fill.push(`  const base = ${this.levelPrice(ir.stop.level, "k", "trade", "price", "protect")};`);
    }
    fill.push(
      `  const stop = ${this.stopAtFill()};`,
      `  if (!(d * (price - stop) > 0)) {`,
      `    st.phase = FLAT;`,
      `    return false;`,
      `  }`,
      `  st.phase = d > 0 ? IN_LONG : IN_SHORT;`,
      `  st.fill = f;`,
      `  st.entry = price;`,
      `  st.stop = stop;`,
      `  st.stopWhy = ${this.why("stop")};`,
      `  st.risk = d * (price - stop);`,
      `  st.best = price;`,
      `  st.target = ${this.targetAtFill()};`,
      `  st.beAt = ${this.breakevenAtFill()};`,
      `  st.lastBar = ${ir.time.find((x) => x.kind === "bars") ? `f + ${ir.time.find((x) => x.kind === "bars").n - 1}` : "Infinity"};`,
      `  st.deadline = Infinity;`,
      `  st.deadlineWhy = 0;`,
      ...this.deadlines(),
      `  return true;`,
      `}`
    );
    const fillBody = fill.slice(1).join("\n");
    fill.splice(1, 0, `  const d = st.dir;`, .../\bk\b/.test(fillBody) ? [`  const k = st.signal;`] : []);
    const decide2 = [`${ex}function decide(${sig})${t(": void")} {`, `  if (st.phase === FLAT) {`];
    if (ir.session.kind === "windows") decide2.push(`    if (${this.at(ir.session.gate, "i")} !== 1) return;`);
    const longTest = ir.entry.long ? "enterLong(i, st, s)" : "false";
    const shortTest = ir.entry.short ? "enterShort(i, st, s)" : "false";
    if (ir.entry.long && ir.entry.short) {
      decide2.push(
        `    const long = ${longTest};`,
        `    const short = ${shortTest};`,
        `    // Both at once say nothing about the direction: neither is taken.`,
        `    if (long !== short) arm(i, st, long ? 1 : -1);`
      );
    } else {
      decide2.push(`    if (${ir.entry.long ? longTest : shortTest}) arm(i, st, ${ir.entry.long ? 1 : -1});`);
    }
    decide2.push(
      `    return;`,
      `  }`,
      `  if (st.phase !== IN_LONG && st.phase !== IN_SHORT) return;`
    );
    const held = decide2.length;
    if (ir.breakeven || ir.trail?.kind === "distance") {
      decide2.push(`  const reach = d > 0 ? ${this.at("h", "i")} : ${this.at("l", "i")};`, `  if (d * (reach - st.best) > 0) st.best = reach;`);
    }
    if (ir.breakeven) {
      decide2.push(
        `  if (st.beAt === st.beAt && d * (st.best - st.beAt) >= 0) {`,
        `    if (d * (st.entry - st.stop) > 0) {`,
        `      st.stop = st.entry;`,
        `      st.stopWhy = ${this.why("breakeven")};`,
        `    }`,
        `    st.beAt = NaN;`,
        `  }`
      );
    }
    const trail = this.trailCandidate();
    if (trail) {
      decide2.push(
        `  const trail = ${trail};`,
        `  if (d * (trail - st.stop) > 0) {`,
        `    st.stop = trail;`,
        `    st.stopWhy = ${this.why("trail")};`,
        `  }`
      );
    }
    if (ir.target?.kind === "level") decide2.push(`  st.target = targetAt(i, st, s);`);
    if (ir.time.some((x) => x.kind === "bars")) {
      decide2.push(`  if (i >= st.lastBar) {`, `    st.phase = CLOSING;`, `    st.why = ${this.why("time")};`, `    return;`, `  }`);
    }
    if (ir.time.some((x) => x.kind !== "bars") || ir.flat_at_session_end) {
      decide2.push(
        `  if (${this.at("t", "i")} + TF >= st.deadline) {`,
        `    st.phase = CLOSING;`,
        `    st.why = st.deadlineWhy;`,
        `    return;`,
        `  }`
      );
    }
    if (ir.exit_when) {
      decide2.push(`  if (exitRule(i, st, s)) {`, `    st.phase = EXITING;`, `    st.why = ${this.why("exit_rule")};`, `  }`);
    }
    const manages = decide2.length > held;
    if (/\bd\b/.test(decide2.slice(held).join("\n"))) decide2.splice(held, 0, `  const d = st.dir;`);
    decide2.push(`}`);
    const arm = [
      `${ex}function arm(i${n}, st${t(": State")}, dir${n})${t(": void")} {`,
      `  st.phase = ARMED;`,
      `  st.dir = dir;`,
      `  st.signal = i;`,
      `  st.seal = SEAL[i & 7]${t("!")};`,
      `}`
    ];
    const usesDeadline = fill.some((l) => l.includes("deadline(st,"));
    const deadlineFn = usesDeadline ? [
      `/** Keeps the earliest scheduled exit and why it happens. */`,
      `function deadline(st${t(": State")}, instant${n}, why${n})${t(": void")} {`,
      `  if (instant < st.deadline) {`,
      `    st.deadline = instant;`,
      `    st.deadlineWhy = why;`,
      `  }`,
      `}`
    ].join("\n") : null;
    const seriesIds = ir.series.map((x) => x.id);
    const types = this.typed ? [
      `export interface State {`,
      ...[
        "phase",
        "dir",
        "signal",
        "fill",
        "entry",
        "stop",
        "stopWhy",
        "target",
        "risk",
        "best",
        "beAt",
        "deadline",
        "deadlineWhy",
        "lastBar",
        "why",
        "seal"
      ].map((f) => `  ${f}: number;`),
      `}`,
      "",
      `export interface Series {`,
      ...["t", "o", "h", "l", "c", "v", "markLo", "markHi", ...seriesIds].map((f) => `  readonly ${f}: Float64Array;`),
      `  readonly markShape: Uint8Array;`,
      `}`,
      ""
    ] : [];
    const used = (name) => [...fill, ...decide2, ...conditions, ...this.helpers].some((l) => new RegExp(`\\b${name}\\b`).test(l));
    const states = STATES.map((s, i) => [stateConst(s), i]).filter(([c]) => c === "ARMED" || used(c));
    const whys = EXIT_WHY.map((w, i) => [w, i]).filter(([w]) => this.whys.has(w));
    const words = sealWords(seed);
    const lines = [
      `/**`,
      ` * Decider generated by the deck's forge from a decider IR (${ir.ir}): ${ir.market} ${ir.timeframe}, side ${ir.side}.`,
      ` * seed_hash: ${seed}`,
      ` * version: ${version}`,
      ` * Pure: decide(i, st, s) at the close of bar i; arm(i, st, dir) on a signal bar; fill(f, price, st, s) at the`,
      ` * open of the fill bar, false when the stop is not beyond the fill. They read the bars and series handed in`,
      ` * and write only the state; nothing here reads a bar after the one it is called for.`,
      ` */`,
      "",
      `${ex}const SEED_HASH = '${seed}';`,
      `${ex}const VERSION = '${version}';`,
      `/** Whether decide moves, re-reads or ends an open trade; when false it reads only flat bars. */`,
      `${ex}const MANAGES = ${manages};`,
      `/** The watermark: the seed hash in eight 32-bit words, written into the state on every arm. */`,
      `const SEAL${t(": readonly number[]")} = [${words.map((w) => `0x${w.toString(16).padStart(8, "0")}`).join(", ")}];`,
      "",
      ...states.map(([c, i]) => `const ${c} = ${i};`),
      ...whys.map(([w, i]) => `const ${whyConst(w)} = ${i};`),
      ...used("TF") ? [`/** Bar length in seconds. */`, `const TF = ${ir.tf_seconds};`] : [],
      `/** The market's tick as 1 / tick: prices are kept on the tick grid. */`,
      `const INV_TICK = ${Math.round(1 / ir.tick)};`,
      "",
      ...types,
      `const q = (x${n})${n} => Math.round(x * INV_TICK) / INV_TICK;`,
      "",
      ...[...conditions, ...this.helpers].flatMap((h) => [h, ""]),
      ...deadlineFn ? [deadlineFn, ""] : [],
      ...arm,
      "",
      ...decide2,
      "",
      ...fill,
      ...this.typed ? [] : ["", "return { SEED_HASH, VERSION, MANAGES, decide, arm, fill };"]
    ];
    return `${lines.join("\n")}
`;
  }
};
var codeOf = (ir, seedHash2, version) => new Renderer(ir, true).render(seedHash2, version);
var jsOf = (ir, seedHash2, version) => new Renderer(ir, false).render(seedHash2, version);

// engine/decider/compile.ts
var FLAT_SCAN = `
const decide = decider.decide;
function scan(from, end, st, s) {
  for (let i = from; i < end; i++) {
    decide(i, st, s);
    if (st.phase !== ${PHASE.FLAT}) return i;
  }
  return -1;
}
return { ...decider, scan };
`;
function compileDecider(ir, seedHash2, version) {
  return new Function(`const decider = (() => {
${jsOf(ir, seedHash2, version)}})();
${FLAT_SCAN}`)();
}

// engine/decider/ir.ts
var IR_VERSION = "decider.v1";
var DeciderRefusal = class extends Error {
  constructor(part, message, hint) {
    super(`${part}: ${message}`);
    this.part = part;
    this.hint = hint;
    this.name = "DeciderRefusal";
  }
  part;
  hint;
};
var MINUTE = 60;
var DAY2 = 86400;
var CASH_OPEN = 9 * 60 + 30;
var CASH_CLOSE = 16 * 60;
var minuteOf = (clock) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
var slug = (zone) => zone.toLowerCase().replace("/", "_");
var clockId = (minute, zone) => `clock_${String(Math.floor(minute / 60)).padStart(2, "0")}_${String(minute % 60).padStart(2, "0")}_${slug(zone)}`;
var byCanonical = (a, b) => {
  const x = canonicalJson(a);
  const y = canonicalJson(b);
  return x < y ? -1 : x > y ? 1 : 0;
};
var Resolver = class {
  constructor(script) {
    this.script = script;
    this.tf = TIMEFRAME_SECONDS[script.timeframe];
    this.tick = MARKET_SPECS[script.market].tick;
    this.day = MARKET_SPECS[script.market].kind === "cme" ? "cme" : "utc";
  }
  script;
  series = /* @__PURE__ */ new Map();
  tf;
  tick;
  day;
  add(spec) {
    this.series.set(spec.id, spec);
    return spec.id;
  }
  length(n, what, part) {
    if (n === null) throw new DeciderRefusal(part, `the ${what}'s length is not stated`, "give its length: 'the 20 EMA', 'RSI(14)', 'the 15-minute opening range'");
    return n;
  }
  atr(period, part) {
    const n = this.length(period, "ATR", part);
    return this.add({ id: `atr_${n}`, kind: "atr", params: { n }, source: "high,low,close" });
  }
  /** Ticks as a price: n / (1 / tick), which lands on the nearest double to the decimal price. */
  ticks(n) {
    return n / Math.round(1 / this.tick);
  }
  distance(d, part) {
    switch (d.unit) {
      case "range": {
        const range = this.operand({ kind: "opening_range", field: "range", minutes: d.of.minutes }, part);
        if (range.kind !== "zone" || range.lo.src !== "series" || range.hi.src !== "series") throw new DeciderRefusal(part, "a multiple of a range needs the range");
        return { unit: "range", mult: d.n, lo: range.lo.id, hi: range.hi.id };
      }
      case "points":
        return { unit: "price", value: d.n };
      case "ticks":
        return { unit: "price", value: this.ticks(d.n) };
      case "percent":
        return { unit: "fraction", value: d.n / 100 };
      case "atr":
        return { unit: "atr", mult: d.n, series: this.atr(d.period, part) };
      case "usd": {
        const value = pointsOfDollars(this.script.market, d.n, d.micro === true);
        if (value === null) throw new DeciderRefusal(part, `a micro contract is a futures contract; ${this.script.market} has none`);
        return { unit: "price", value };
      }
    }
  }
  targetDistance(d, part) {
    return d.unit === "r" ? { unit: "r", value: d.n } : this.distance(d, part);
  }
  operand(o, part) {
    const point = (at2) => ({ kind: "point", at: at2 });
    const series = (spec) => point({ src: "series", id: this.add(spec) });
    switch (o.kind) {
      case "price":
        return point({ src: "bar", field: o.field === "open" ? "o" : o.field === "high" ? "h" : o.field === "low" ? "l" : "c" });
      case "ema":
      case "sma":
      case "rsi": {
        const n = this.length(o.n, o.kind.toUpperCase(), part);
        return series({ id: `${o.kind}_${n}`, kind: o.kind, params: { n }, source: "close" });
      }
      case "atr":
        return point({ src: "series", id: this.atr(o.n, part) });
      case "vwap":
        return series({ id: "vwap", kind: "vwap", params: { day: this.day }, source: "hlc3,volume" });
      case "highest":
        return series({ id: `highest_${o.n}`, kind: "highest", params: { n: o.n }, source: "high" });
      case "lowest":
        return series({ id: `lowest_${o.n}`, kind: "lowest", params: { n: o.n }, source: "low" });
      case "prior_day":
        return series({ id: `prior_day_${o.field}`, kind: "prior_day", params: { field: o.field, day: this.day }, source: o.field });
      case "opening_range": {
        const minutes = this.length(o.minutes, "opening range", part);
        if (minutes * MINUTE < this.tf || minutes * MINUTE % this.tf !== 0) {
          throw new DeciderRefusal(
            part,
            `an opening range of ${minutes} minutes cannot be built from ${this.script.timeframe} bars`,
            `give the range in whole ${this.script.timeframe} bars: a multiple of ${this.tf / MINUTE >= 1 ? `${this.tf / MINUTE} minute${this.tf === MINUTE ? "" : "s"}` : "a minute"}`
          );
        }
        const open2 = this.day === "cme" ? { zone: "America/New_York", open: CASH_OPEN } : { zone: "UTC", open: 0 };
        const side = (field) => ({
          src: "series",
          id: this.add({ id: `opening_range_${minutes}_${field}`, kind: "opening_range", params: { field, minutes, ...open2 }, source: field })
        });
        if (o.field === "range") return { kind: "zone", lo: side("low"), hi: side("high") };
        return point(side(o.field));
      }
      case "mark":
        return { kind: "mark", shape: o.shape };
      case "bar":
        return point({ src: o.bar === "signal" ? "signal_bar" : "previous_bar", field: o.field === "high" ? "h" : "l" });
      case "swing": {
        if (o.strength === null) throw new DeciderRefusal(part, "the swing's bars on each side are not stated");
        return series({ id: `swing_${o.field}_${o.strength}`, kind: "swing", params: { field: o.field, strength: o.strength }, source: o.field });
      }
      case "bollinger": {
        const n = this.length(o.n, "Bollinger bands", part);
        if (o.k === null) throw new DeciderRefusal(part, "the Bollinger bands' width is not stated");
        return series({ id: `bollinger_${n}_${String(o.k).replace(".", "p")}_${o.band}`, kind: "bollinger", params: { band: o.band, n, k: o.k }, source: "close" });
      }
      case "constant":
        return point({ src: "constant", value: o.value });
    }
  }
  /** A condition with its operands resolved; `dir` turns crosses and breaks to a trigger's side. */
  cond(c, part, dir) {
    if ("args" in c) {
      const args = c.args.flatMap((a) => {
        const r = this.cond(a, part, dir);
        return r.op === c.op ? r.args : [r];
      });
      return { op: c.op, args: args.sort(byCanonical) };
    }
    if ("level" in c) {
      const op2 = c.op === "breaks" && dir !== 0 ? dir > 0 ? "breaks_above" : "breaks_below" : c.op;
      return { op: op2, level: this.operand(c.level, part) };
    }
    const op = c.op === "crosses" && dir !== 0 ? dir > 0 ? "crosses_above" : "crosses_below" : c.op;
    return { op, left: this.operand(c.left, part), right: this.operand(c.right, part) };
  }
  sessionSeries(zone, windows, until) {
    const params = { zone, windows };
    return {
      gate: this.add({ id: "session_gate", kind: "session_gate", params: until.length > 0 ? { ...params, until } : params, source: "time" }),
      end: this.add({ id: "session_end", kind: "session_end", params, source: "time" })
    };
  }
  clock(minute, zone) {
    return this.add({ id: clockId(minute, zone), kind: "next_clock", params: { zone, minute }, source: "time" });
  }
};
var undirected = (c) => "args" in c ? c.args.some(undirected) : c.op === "crosses" || c.op === "breaks";
function entryOf(script, r) {
  const entry = { long: null, short: null };
  const take = (side, when2) => {
    if (script.side !== "both" && script.side !== side) throw new DeciderRefusal("entry", `a ${side} trigger, but the side is ${script.side}`);
    if (entry[side] !== null) throw new DeciderRefusal("entry", `two triggers take the ${side} side; join them with and / or`);
    entry[side] = r.cond(when2, "entry", side === "long" ? 1 : -1);
  };
  for (const trigger of script.entry.triggers) {
    if (trigger.side !== null) take(trigger.side, trigger.when);
    else if (script.side !== "both") take(script.side, trigger.when);
    else if (!undirected(trigger.when)) {
      throw new DeciderRefusal("entry", "a trigger names no side and its condition gives no direction; say which side it takes");
    } else {
      take("long", trigger.when);
      take("short", trigger.when);
    }
  }
  if (entry.long === null && entry.short === null) throw new DeciderRefusal("entry", "no trigger takes a side the rule trades");
  return entry;
}
function stopOf(script, r, entry) {
  const stop = script.stop;
  if (stop.kind === "distance") return { kind: "distance", distance: r.distance(stop.distance, "stop") };
  const either = "or 'beyond' it, which is below for a long and above for a short";
  if (entry.long && stop.where === "above") throw new DeciderRefusal("stop", "a stop above a level does not protect a long", `say the stop below its level, ${either}`);
  if (entry.short && stop.where === "below") throw new DeciderRefusal("stop", "a stop below a level does not protect a short", `say the stop above its level, ${either}`);
  const offset = stop.offset ? r.distance(stop.offset, "stop") : { unit: "price", value: stop.where === "at" ? 0 : r.tick };
  return { kind: "level", where: stop.where, level: r.operand(stop.level, "stop"), offset };
}
function timeOf2(script, r, session) {
  const one2 = (t) => {
    switch (t.kind) {
      case "bars":
        return { kind: "bars", n: t.n };
      case "minutes":
        return { kind: "seconds", n: t.n * MINUTE };
      case "hours":
        return { kind: "seconds", n: t.n * 3600 };
      case "clock":
        return { kind: "clock", series: r.clock(minuteOf(t.at), t.zone) };
      case "session_close":
        if (session.kind === "windows") return { kind: "session_close", series: session.end };
        return {
          kind: "session_close",
          series: r.day === "cme" ? r.clock(CASH_CLOSE, "America/New_York") : r.clock(0, "UTC")
        };
    }
  };
  const seen = /* @__PURE__ */ new Map();
  for (const t of script.exit.time ?? []) {
    const ir = one2(t);
    seen.set(canonicalJson(ir), ir);
  }
  return [...seen.values()].sort(byCanonical);
}
function warmUpOf(series, tf, readsPreviousBar) {
  const days = (n) => Math.ceil(n * DAY2 / tf);
  let bars = readsPreviousBar ? 2 : 1;
  for (const s of series) {
    const need = s.kind === "ema" || s.kind === "rsi" || s.kind === "atr" ? 3 * s.params.n + 1 : s.kind === "sma" || s.kind === "highest" || s.kind === "lowest" || s.kind === "bollinger" ? s.params.n + 1 : s.kind === "swing" ? swingWarmUp(s.params.strength) : s.kind === "prior_day" ? days(2) : s.kind === "vwap" || s.kind === "opening_range" ? days(1) : 0;
    bars = Math.max(bars, need);
  }
  return bars;
}
var swingWarmUp = (strength2) => 10 * (2 * strength2 + 1);
function machineOf(ir) {
  const t = [];
  const sides2 = [...ir.entry.long ? ["long"] : [], ...ir.entry.short ? ["short"] : []];
  for (const side of sides2) {
    const held = side === "long" ? "in_long" : "in_short";
    t.push({ from: "flat", to: "armed", on: `${side}_trigger` });
    t.push({ from: "armed", to: held, on: "fill" });
    t.push({ from: held, to: "flat", on: "stop" });
    t.push({ from: held, to: "flat", on: "end_of_data" });
    if (ir.target) t.push({ from: held, to: "flat", on: "target" });
    if (ir.exit_when) t.push({ from: held, to: "exiting", on: "exit_rule" });
    if (ir.time.length > 0 || ir.flat_at_session_end) t.push({ from: held, to: "closing", on: "time" });
  }
  t.push({ from: "armed", to: "flat", on: "stop_not_beyond_fill" });
  if (ir.exit_when) t.push({ from: "exiting", to: "flat", on: "next_open" });
  if (ir.time.length > 0 || ir.flat_at_session_end) t.push({ from: "closing", to: "flat", on: "this_close" });
  const used = new Set(t.flatMap((x) => [x.from, x.to]));
  return { states: STATES.filter((s) => used.has(s)), transitions: t.sort(byCanonical) };
}
function clockExitsOf(script) {
  const clocks = (script.exit.time ?? []).flatMap((t) => t.kind === "clock" ? [{ zone: t.zone, minute: minuteOf(t.at) }] : []);
  return clocks.filter((c, i) => clocks.findIndex((x) => x.zone === c.zone && x.minute === c.minute) === i).sort(byCanonical);
}
function irOf(script) {
  const r = new Resolver(script);
  let session = { kind: "always" };
  if (script.session.kind === "windows") {
    const windows = script.session.windows.map((w) => ({ from: minuteOf(w.from), to: minuteOf(w.to) })).filter((w, i, all) => all.findIndex((x) => x.from === w.from && x.to === w.to) === i).sort((a, b) => a.from - b.from || a.to - b.to);
    if (windows.some((w) => w.from === w.to)) throw new DeciderRefusal("session", "a window that ends where it starts holds no time");
    const until = clockExitsOf(script);
    const { zone } = script.session;
    session = { kind: "windows", zone, windows, ...until.length > 0 ? { until } : {}, ...r.sessionSeries(zone, windows, until) };
  }
  const entry = entryOf(script, r);
  const stop = stopOf(script, r, entry);
  const breakeven = script.stop.breakeven ? r.targetDistance(script.stop.breakeven, "stop") : null;
  const exit = script.exit;
  const target = !exit.target ? null : exit.target.kind === "distance" ? { kind: "distance", distance: r.targetDistance(exit.target.distance, "exit") } : { kind: "level", level: r.operand(exit.target.level, "exit") };
  const trail = !exit.trail ? null : exit.trail.kind === "distance" ? { kind: "distance", distance: r.distance(exit.trail.distance, "exit") } : { kind: "level", level: r.operand(exit.trail.level, "exit") };
  const time2 = timeOf2(script, r, session);
  const exitWhen = exit.when ? r.cond(exit.when, "exit", 0) : null;
  const flat2 = session.kind === "windows" && !time2.some((t) => t.kind === "clock" || t.kind === "session_close");
  const series = [...r.series.values()].sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const body = {
    ir: IR_VERSION,
    market: script.market,
    timeframe: script.timeframe,
    tf_seconds: r.tf,
    tick: r.tick,
    side: script.side,
    session,
    flat_at_session_end: flat2,
    series,
    entry,
    stop,
    breakeven,
    target,
    trail,
    time: time2,
    exit_when: exitWhen,
    warm_up_bars: warmUpOf(series, r.tf, JSON.stringify([entry, stop, target, trail, exitWhen]).includes('"previous_bar"'))
  };
  return { ...body, ...machineOf(body) };
}

// engine/bars.ts
var windowOf = (b, start, end) => ({
  length: end - start,
  t: b.t.subarray(start, end),
  o: b.o.subarray(start, end),
  h: b.h.subarray(start, end),
  l: b.l.subarray(start, end),
  c: b.c.subarray(start, end),
  v: b.v.subarray(start, end)
});
function allocBars(length, shared = false) {
  const f = () => shared ? new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT)) : new Float64Array(length);
  return { length, t: f(), o: f(), h: f(), l: f(), c: f(), v: f() };
}
function put(b, i, t, o, h, l, c, v) {
  b.t[i] = t;
  b.o[i] = o;
  b.h[i] = h;
  b.l[i] = l;
  b.c[i] = c;
  b.v[i] = v;
}
function barsFromRows(rows) {
  const b = allocBars(rows.length);
  rows.forEach((r, i) => put(b, i, r.t, r.o, r.h, r.l, r.c, r.v));
  return b;
}
function barsToRows(b) {
  const rows = new Array(b.length);
  for (let i = 0; i < b.length; i++) rows[i] = { t: b.t[i], o: b.o[i], h: b.h[i], l: b.l[i], c: b.c[i], v: b.v[i] };
  return rows;
}
function barsFromTuples(rows) {
  const b = allocBars(rows.length);
  rows.forEach((r, i) => put(b, i, ...r));
  return b;
}
function tuplesFromBars(b) {
  const rows = new Array(b.length);
  for (let i = 0; i < b.length; i++) rows[i] = [b.t[i], b.o[i], b.h[i], b.l[i], b.c[i], b.v[i]];
  return rows;
}
var BARS_CSV_HEADER = "t,o,h,l,c,v";
function readBarsCsv(text, tfSeconds) {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  if (lines[0]?.trim() !== BARS_CSV_HEADER) return { ok: false, refused: [{ line: 1, reason: `the header must be ${BARS_CSV_HEADER}` }] };
  const bars = allocBars(lines.length - 1);
  const refused = [];
  let prev = -Infinity;
  for (let i = 1; i < lines.length; i++) {
    const reason = rowProblem(lines[i], bars, i - 1, prev, tfSeconds);
    if (reason) refused.push({ line: i + 1, reason });
    else prev = bars.t[i - 1];
  }
  return refused.length ? { ok: false, refused } : { ok: true, bars };
}
function rowProblem(line, bars, i, prev, tfSeconds) {
  const cells = line.split(",");
  if (cells.length !== 6) return `expected 6 fields, found ${cells.length}`;
  const [t, o, h, l, c, v] = cells.map((s) => s.trim() === "" ? NaN : Number(s));
  if (![t, o, h, l, c, v].every(Number.isFinite)) return "every field must be a number";
  if (!Number.isInteger(t)) return "t must be whole unix seconds";
  if (t <= prev) return `t must increase (${t} follows ${prev})`;
  if (tfSeconds && t % tfSeconds !== 0) return `t must be a multiple of ${tfSeconds}`;
  if (!(o > 0 && h > 0 && l > 0 && c > 0)) return "prices must be above zero";
  if (!(l <= Math.min(o, c) && Math.max(o, c) <= h)) return "needs l <= min(o, c) <= max(o, c) <= h";
  if (v < 0) return "volume must not be negative";
  put(bars, i, t, o, h, l, c, v);
  return void 0;
}
function firstAtOrAfter(t, at2) {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = lo + hi >>> 1;
    if (t[mid] < at2) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
function barAt(t, at2) {
  const i = firstAtOrAfter(t, at2);
  return i < t.length && t[i] === at2 ? i : -1;
}
function concatBars(parts, shared = false) {
  const b = allocBars(parts.reduce((n, p) => n + p.length, 0), shared);
  let at2 = 0;
  for (const p of parts) {
    for (const k of ["t", "o", "h", "l", "c", "v"]) b[k].set(p[k], at2);
    at2 += p.length;
  }
  return b;
}
function barsWhere(b, keep) {
  const at2 = [];
  for (let i = 0; i < b.length; i++) if (keep(b.t[i])) at2.push(i);
  const out = allocBars(at2.length);
  for (const k of ["t", "o", "h", "l", "c", "v"]) {
    const from = b[k];
    const to = out[k];
    for (let j = 0; j < at2.length; j++) to[j] = from[at2[j]];
  }
  return out;
}

// engine/calendar.ts
var HOUR = 3600;
var DAY3 = 86400;
var CHICAGO = { std: -6 * HOUR };
var NEW_YORK = { std: -5 * HOUR };
function daysFromCivil(year, month, day) {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
function yearOfDay(days) {
  let y = Math.floor(days / 365.2425) + 1970;
  while (daysFromCivil(y, 1, 1) > days) y--;
  while (daysFromCivil(y + 1, 1, 1) <= days) y++;
  return y;
}
var weekday = (days) => ((days + 4) % 7 + 7) % 7;
function nthSunday(year, month, n) {
  const first = daysFromCivil(year, month, 1);
  return first + (7 - weekday(first)) % 7 + 7 * (n - 1);
}
var dstStartWall = (year) => nthSunday(year, 3, 2) * DAY3 + 2 * HOUR;
var dstEndWall = (year) => nthSunday(year, 11, 1) * DAY3 + 2 * HOUR;
function utcOffset(zone, t) {
  const year = yearOfDay(Math.floor((t + zone.std) / DAY3));
  const start = dstStartWall(year) - zone.std;
  const end = dstEndWall(year) - zone.std - HOUR;
  return t >= start && t < end ? zone.std + HOUR : zone.std;
}
function wallToUtc(zone, wall) {
  const year = yearOfDay(Math.floor(wall / DAY3));
  const dst = wall >= dstStartWall(year) && wall < dstEndWall(year);
  return wall - (dst ? zone.std + HOUR : zone.std);
}
function wallClock(zone, t) {
  const wall = t + utcOffset(zone, t);
  const days = Math.floor(wall / DAY3);
  return { weekday: weekday(days), second: wall - days * DAY3 };
}
var BREAK_FROM = 16 * HOUR;
var BREAK_TO = 17 * HOUR;
function isOpen(market, t) {
  if (MARKET_SPECS[market].kind === "crypto") return true;
  const { weekday: d, second: s } = wallClock(CHICAGO, t);
  if (d === 6) return false;
  if (d === 0) return s >= BREAK_TO;
  if (d === 5) return s < BREAK_FROM;
  return s < BREAK_FROM || s >= BREAK_TO;
}
function closedSpans(market, from, to) {
  if (MARKET_SPECS[market].kind === "crypto" || from >= to) return [];
  const spans = [];
  const first = Math.floor((from + CHICAGO.std) / DAY3) - 3;
  const last = Math.floor((to + CHICAGO.std + HOUR) / DAY3);
  for (let day = first; day <= last; day++) {
    const d = weekday(day);
    let span2;
    if (d >= 1 && d <= 4) {
      span2 = { from: wallToUtc(CHICAGO, day * DAY3 + BREAK_FROM), to: wallToUtc(CHICAGO, day * DAY3 + BREAK_TO), why: "daily_break" };
    } else if (d === 5) {
      span2 = { from: wallToUtc(CHICAGO, day * DAY3 + BREAK_FROM), to: wallToUtc(CHICAGO, (day + 2) * DAY3 + BREAK_TO), why: "weekend" };
    }
    if (span2 && span2.to > from && span2.from < to) {
      spans.push({ from: Math.max(span2.from, from), to: Math.min(span2.to, to), why: span2.why });
    }
  }
  return spans;
}
function openSeconds(market, from, to) {
  if (from >= to) return 0;
  let closed = 0;
  for (const s of closedSpans(market, from, to)) closed += s.to - s.from;
  return to - from - closed;
}
function warmStart(market, from, seconds, len) {
  let start = from - seconds;
  for (let open2 = openSeconds(market, start, from); open2 < seconds; open2 = openSeconds(market, start, from)) start -= seconds - open2;
  return Math.floor(start / len) * len;
}
var closedEnd = (to, len) => Math.floor(to / len) * len;
function expectedBars(market, tfSeconds, from, to) {
  if (!Number.isInteger(tfSeconds) || tfSeconds <= 0) throw new RangeError(`bar length must be a positive integer, got ${tfSeconds}`);
  const start = Math.ceil(from / tfSeconds) * tfSeconds;
  if (start >= to) return new Float64Array(0);
  const out = new Float64Array(Math.ceil((to - start) / tfSeconds));
  const halts = closedSpans(market, start, to + tfSeconds);
  let n = 0;
  let h = 0;
  for (let t = start; t < to; t += tfSeconds) {
    while (h < halts.length && halts[h].to <= t) h++;
    const halt = halts[h];
    if (halt && halt.from < t + tfSeconds) continue;
    out[n++] = t;
  }
  return out.slice(0, n);
}

// engine/indicators/bollinger.ts
function bollinger2(x, n, k) {
  checkLength(n, "bb");
  if (!(k > 0) || !Number.isFinite(k)) throw new RangeError(`bb: the width must be a positive number of deviations, got ${k}`);
  const middle = warmingUp(x.length, n - 1);
  const upper = warmingUp(x.length, n - 1);
  const lower = warmingUp(x.length, n - 1);
  for (let i = n - 1; i < x.length; i++) {
    let sum = 0;
    for (let j = i - n + 1; j <= i; j++) sum += x[j];
    const mean = sum / n;
    let squares = 0;
    for (let j = i - n + 1; j <= i; j++) {
      const d = x[j] - mean;
      squares += d * d;
    }
    const width = k * Math.sqrt(squares / n);
    middle[i] = mean;
    upper[i] = mean + width;
    lower[i] = mean - width;
  }
  return { middle, upper, lower };
}

// engine/indicators/ema.ts
function seedOf(x, n) {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i];
  return sum / n;
}
function ema(x, n) {
  checkLength(n, "ema");
  const out = warmingUp(x.length, n - 1);
  if (x.length < n) return out;
  let prev = seedOf(x, n);
  out[n - 1] = prev;
  const alpha = 2 / (n + 1);
  const keep = 1 - alpha;
  for (let i = n; i < x.length; i++) {
    prev = alpha * x[i] + keep * prev;
    out[i] = prev;
  }
  return out;
}
function emaPair(x, n1, n2) {
  checkLength(n1, "ema");
  checkLength(n2, "ema");
  if (x.length < Math.max(n1, n2) || n1 === n2) return [ema(x, n1), ema(x, n2)];
  const pair = [warmingUp(x.length, n1 - 1), warmingUp(x.length, n2 - 1)];
  const [a, b, short2, long2] = n1 < n2 ? [pair[0], pair[1], n1, n2] : [pair[1], pair[0], n2, n1];
  const alphaA = 2 / (short2 + 1);
  const keepA = 1 - alphaA;
  const alphaB = 2 / (long2 + 1);
  const keepB = 1 - alphaB;
  let prevA = seedOf(x, short2);
  a[short2 - 1] = prevA;
  for (let i = short2; i < long2; i++) {
    prevA = alphaA * x[i] + keepA * prevA;
    a[i] = prevA;
  }
  let prevB = seedOf(x, long2);
  b[long2 - 1] = prevB;
  for (let i = long2; i < x.length; i++) {
    const v = x[i];
    prevA = alphaA * v + keepA * prevA;
    a[i] = prevA;
    prevB = alphaB * v + keepB * prevB;
    b[i] = prevB;
  }
  return pair;
}

// engine/indicators/extremes.ts
var highest = (x, n) => extreme2(x, n, 1, "hi");
var lowest = (x, n) => extreme2(x, n, -1, "lo");
function extreme2(x, n, sign, what) {
  checkLength(n, what);
  const out = warmingUp(x.length, n - 1);
  const ring = new Int32Array(n);
  let head = 0;
  let size2 = 0;
  for (let i = 0; i < x.length; i++) {
    if (size2 > 0 && ring[head] <= i - n) {
      head = head + 1 === n ? 0 : head + 1;
      size2--;
    }
    const v = sign * x[i];
    while (size2 > 0) {
      const back = (head + size2 - 1) % n;
      if (sign * x[ring[back]] > v) break;
      size2--;
    }
    ring[(head + size2) % n] = i;
    size2++;
    if (i >= n - 1) out[i] = x[ring[head]];
  }
  return out;
}

// engine/indicators/rsi.ts
function rsi(close, n) {
  checkLength(n, "rsi");
  const out = warmingUp(close.length, n);
  if (close.length <= n) return out;
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= n; i++) {
    const d = close[i] - close[i - 1];
    if (d > 0) gain += d;
    else loss -= d;
  }
  gain /= n;
  loss /= n;
  out[n] = strength(gain, loss);
  const w = 1 / n;
  const keep = 1 - w;
  for (let i = n + 1; i < close.length; i++) {
    const d = close[i] - close[i - 1];
    gain = w * (d > 0 ? d : 0) + keep * gain;
    loss = w * (d < 0 ? -d : 0) + keep * loss;
    out[i] = strength(gain, loss);
  }
  return out;
}
var strength = (gain, loss) => loss === 0 ? gain === 0 ? 50 : 100 : 100 - 100 / (1 + gain / loss);

// engine/indicators/sma.ts
function sma(x, n) {
  checkLength(n, "sma");
  const out = warmingUp(x.length, n - 1);
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    sum += x[i];
    if (i >= n) sum -= x[i - n];
    if (i >= n - 1) out[i] = sum / n;
  }
  return out;
}

// engine/indicators/vwap.ts
var utcDay = (t) => Math.floor(t / 86400);
function vwap2(t, high, low, close, volume, anchor = utcDay) {
  const out = new Float64Array(close.length);
  let session = NaN;
  let pv = 0;
  let vol = 0;
  for (let i = 0; i < close.length; i++) {
    const key = anchor(t[i]);
    if (key !== session) {
      session = key;
      pv = 0;
      vol = 0;
    }
    const v = volume[i];
    pv += (high[i] + low[i] + close[i]) / 3 * v;
    vol += v;
    out[i] = vol > 0 ? pv / vol : NaN;
  }
  return out;
}

// engine/indicators/series.ts
function indicatorLines(spec, bars, anchor = utcDay) {
  const one2 = (values) => [{ name: spec.text, values }];
  switch (spec.kind) {
    case "ema":
      return one2(ema(bars.c, spec.n));
    case "sma":
      return one2(sma(bars.c, spec.n));
    case "rsi":
      return one2(rsi(bars.c, spec.n));
    case "atr":
      return one2(atr(bars.h, bars.l, bars.c, spec.n));
    case "hi":
      return one2(highest(bars.h, spec.n));
    case "lo":
      return one2(lowest(bars.l, spec.n));
    case "vwap":
      return one2(vwap2(bars.t, bars.h, bars.l, bars.c, bars.v, anchor));
    case "bb": {
      const b = bollinger2(bars.c, spec.n, spec.k);
      return [
        { name: `${spec.text}.upper`, values: b.upper },
        { name: `${spec.text}.middle`, values: b.middle },
        { name: `${spec.text}.lower`, values: b.lower }
      ];
    }
  }
}
var warmUpBars = (spec) => spec.kind === "vwap" ? 0 : spec.kind === "ema" ? 5 * spec.n : spec.kind === "atr" || spec.kind === "rsi" ? 10 * spec.n : spec.n;

// engine/indicators/spec.ts
var MAX_LOOKBACK = 500;
var MAX_BB_WIDTH = 10;
var IndicatorSpecError = class extends Error {
  constructor(indicator2, reason, message) {
    super(message);
    this.indicator = indicator2;
    this.reason = reason;
    this.name = "IndicatorSpecError";
  }
  indicator;
  reason;
};
var WHOLE = /^[1-9][0-9]*$/;
var DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;
var shapes = {
  ema: "ema:N",
  sma: "sma:N",
  atr: "atr:N",
  rsi: "rsi:N",
  hi: "hi:N",
  lo: "lo:N",
  bb: "bb:N:K",
  vwap: "vwap"
};
var isKind = (name) => Object.hasOwn(shapes, name);
function parseIndicator(text) {
  const [name = "", ...args] = text.split(":");
  if (!isKind(name)) {
    throw new IndicatorSpecError(text, "unknown", `unknown indicator '${text}': use one of ${Object.values(shapes).join(", ")}`);
  }
  const malformed = () => new IndicatorSpecError(text, "malformed", `indicator '${text}' is malformed: write it as ${shapes[name]}`);
  if (name === "vwap") {
    if (args.length > 0) throw malformed();
    return { kind: "vwap", text };
  }
  const expected = name === "bb" ? 2 : 1;
  if (args.length !== expected || !WHOLE.test(args[0])) throw malformed();
  const n = Number(args[0]);
  if (n > MAX_LOOKBACK) {
    throw new IndicatorSpecError(text, "out_of_bounds", `indicator '${text}': N must be from 1 to ${MAX_LOOKBACK}`);
  }
  if (name !== "bb") return { kind: name, n, text };
  if (!DECIMAL.test(args[1])) throw malformed();
  const k = Number(args[1]);
  if (!(k > 0 && k <= MAX_BB_WIDTH)) {
    throw new IndicatorSpecError(text, "out_of_bounds", `indicator '${text}': K must be above 0 and at most ${MAX_BB_WIDTH}`);
  }
  return { kind: "bb", n, k, text: `bb:${n}:${k}` };
}
function parseIndicators(texts) {
  const specs = texts.map(parseIndicator);
  const seen = /* @__PURE__ */ new Set();
  for (const spec of specs) {
    if (seen.has(spec.text)) throw new IndicatorSpecError(spec.text, "repeated", `indicator '${spec.text}' is named twice`);
    seen.add(spec.text);
  }
  return specs;
}
var paneOf = (spec) => spec.kind === "atr" || spec.kind === "rsi" ? "lower" : "price";

// engine/decider/zones.ts
var DAY4 = 86400;
var HOUR2 = 3600;
function lastSunday(year, month) {
  const last = Date.UTC(year, month + 1, 0) / 1e3;
  const weekday2 = new Date(last * 1e3).getUTCDay();
  return last - weekday2 * DAY4 + HOUR2;
}
function beforeFirstSunday(year, month) {
  const first = Date.UTC(year, month, 1) / 1e3;
  const weekday2 = new Date(first * 1e3).getUTCDay();
  return first + (7 - weekday2) % 7 * DAY4 - 8 * HOUR2;
}
function euSummer(t) {
  const year = new Date(t * 1e3).getUTCFullYear();
  return t >= lastSunday(year, 2) && t < lastSunday(year, 9) ? HOUR2 : 0;
}
function sydneySummer(t) {
  const year = new Date(t * 1e3).getUTCFullYear();
  return t < beforeFirstSunday(year, 3) || t >= beforeFirstSunday(year, 9) ? HOUR2 : 0;
}
function zoneOffset(zone, t) {
  switch (zone) {
    case "UTC":
      return 0;
    case "America/New_York":
      return utcOffset(NEW_YORK, t);
    case "America/Chicago":
      return utcOffset(CHICAGO, t);
    case "Europe/London":
      return euSummer(t);
    case "Europe/Berlin":
    case "Europe/Paris":
    case "Europe/Zurich":
      return HOUR2 + euSummer(t);
    case "Asia/Tokyo":
      return 9 * HOUR2;
    case "Asia/Hong_Kong":
    case "Asia/Singapore":
      return 8 * HOUR2;
    case "Australia/Sydney":
      return 10 * HOUR2 + sydneySummer(t);
  }
}
function offsetReader(zone) {
  let hour = NaN;
  let offset = 0;
  return (t) => {
    const h = Math.floor(t / HOUR2);
    if (h !== hour) {
      hour = h;
      offset = zoneOffset(zone, h * HOUR2);
    }
    return offset;
  };
}
var localDay = (t, offset) => Math.floor((t + offset) / DAY4);
function instantAt(zone, day, minute) {
  const wall = day * DAY4 + minute * 60;
  const first = wall - zoneOffset(zone, wall);
  return wall - zoneOffset(zone, first);
}

// engine/decider/series.ts
function tradingDay(day) {
  if (day === "utc") return (t) => Math.floor(t / DAY4);
  const chicago = offsetReader("America/Chicago");
  return (t) => Math.floor((t + chicago(t) + 7 * HOUR2) / DAY4);
}
function before(x) {
  const out = new Float64Array(x.length);
  out[0] = NaN;
  out.set(x.subarray(0, x.length - 1), 1);
  return out;
}
function dayBefore(day) {
  if (day === "utc") return (k) => k - 1;
  return (k) => ((k + 4) % 7 + 7) % 7 === 1 ? k - 3 : k - 1;
}
function priorDay2(bars, field, tf, day) {
  const key = tradingDay(day);
  const previous = dayBefore(day);
  const out = new Float64Array(bars.length);
  let prior = NaN;
  let current = bars.length > 0 ? key(bars.t[0]) : 0;
  let complete = bars.length > 0 && key(bars.t[0] - tf) !== current;
  let hi = -Infinity;
  let lo = Infinity;
  let close = NaN;
  for (let i = 0; i < bars.length; i++) {
    const k = key(bars.t[i]);
    if (k !== current) {
      prior = complete && current === previous(k) ? field === "high" ? hi : field === "low" ? lo : close : NaN;
      current = k;
      complete = true;
      hi = -Infinity;
      lo = Infinity;
    }
    out[i] = prior;
    if (bars.h[i] > hi) hi = bars.h[i];
    if (bars.l[i] < lo) lo = bars.l[i];
    close = bars.c[i];
  }
  return out;
}
function openingRange2(bars, spec, tf) {
  const { field, minutes, zone, open: open2 } = spec.params;
  const weekdaysOnly = zone !== "UTC";
  const offset = offsetReader(zone);
  const out = new Float64Array(bars.length);
  let value = NaN;
  let day = NaN;
  let end = NaN;
  let forming = false;
  let acc = NaN;
  for (let i = 0; i < bars.length; i++) {
    const t = bars.t[i];
    const d = localDay(t, offset(t));
    const weekday2 = ((d + 4) % 7 + 7) % 7;
    if (d !== day && !(weekdaysOnly && (weekday2 === 0 || weekday2 === 6))) {
      const start = instantAt(zone, d, open2);
      if (t >= start) {
        day = d;
        end = start + minutes * 60;
        value = NaN;
        forming = t < end;
        acc = field === "high" ? -Infinity : Infinity;
      }
    }
    if (forming && t >= end) {
      value = acc;
      forming = false;
    }
    if (forming && t < end) {
      const x = field === "high" ? bars.h[i] : bars.l[i];
      if (field === "high" ? x > acc : x < acc) acc = x;
      if (t + tf >= end) {
        value = acc;
        forming = false;
      }
    }
    out[i] = value;
  }
  return out;
}
function clockAfter(c, after) {
  const d = localDay(after, zoneOffset(c.zone, after));
  const today = instantAt(c.zone, d, c.minute);
  return today > after ? today : instantAt(c.zone, d + 1, c.minute);
}
function sessionWindows(bars, { zone, windows, until = [] }, tf, want) {
  const offset = offsetReader(zone);
  const out = new Float64Array(bars.length);
  let cachedDay = NaN;
  const at2 = windows.map(() => ({ endToday: 0, endTomorrow: 0, cutToday: Infinity, cutYesterday: Infinity }));
  const cutAfter = (open2) => until.reduce((cut, c) => Math.min(cut, clockAfter(c, open2)), Infinity);
  for (let i = 0; i < bars.length; i++) {
    const close = bars.t[i] + tf;
    const off = offset(close);
    const d = localDay(close, off);
    if (d !== cachedDay) {
      cachedDay = d;
      windows.forEach((w, k) => {
        at2[k].endToday = instantAt(zone, d, w.to);
        at2[k].endTomorrow = instantAt(zone, d + 1, w.to);
        if (until.length > 0) {
          at2[k].cutToday = cutAfter(instantAt(zone, d, w.from));
          at2[k].cutYesterday = cutAfter(instantAt(zone, d - 1, w.from));
        }
      });
    }
    const minute = (close + off - d * DAY4) / 60;
    let gate = 0;
    let end = -Infinity;
    for (let k = 0; k < windows.length; k++) {
      const w = windows[k];
      let e = NaN;
      let cut = Infinity;
      if (w.from < w.to) {
        if (minute >= w.from && minute < w.to) [e, cut] = [at2[k].endToday, at2[k].cutToday];
      } else if (minute >= w.from) {
        [e, cut] = [at2[k].endTomorrow, at2[k].cutToday];
      } else if (minute < w.to) {
        [e, cut] = [at2[k].endToday, at2[k].cutYesterday];
      }
      if (e === e) {
        if (close < cut) gate = 1;
        if (e > end) end = e;
      }
    }
    out[i] = want === "gate" ? gate : end > -Infinity ? end : Infinity;
  }
  return out;
}
var sessionGate = (bars, params, tf) => sessionWindows(bars, params, tf, "gate");
function swing2(bars, field, strength2) {
  const x = field === "high" ? bars.h : bars.l;
  const sign = field === "high" ? 1 : -1;
  const out = new Float64Array(bars.length);
  let last = NaN;
  for (let i = 0; i < bars.length; i++) {
    const j = i - strength2;
    if (j - strength2 >= 0) {
      const v = sign * x[j];
      let pivot = true;
      for (let m = j - strength2; m < j && pivot; m++) if (sign * x[m] >= v) pivot = false;
      for (let m = j + 1; m <= i && pivot; m++) if (sign * x[m] > v) pivot = false;
      if (pivot) last = x[j];
    }
    out[i] = last;
  }
  return out;
}
function nextClock(bars, zone, minute) {
  const offset = offsetReader(zone);
  const out = new Float64Array(bars.length);
  let cachedDay = NaN;
  let today = 0;
  let tomorrow = 0;
  for (let i = 0; i < bars.length; i++) {
    const t = bars.t[i];
    const d = localDay(t, offset(t));
    if (d !== cachedDay) {
      cachedDay = d;
      today = instantAt(zone, d, minute);
      tomorrow = instantAt(zone, d + 1, minute);
    }
    out[i] = today > t ? today : tomorrow;
  }
  return out;
}
function compute(spec, bars, tf) {
  switch (spec.kind) {
    case "ema":
      return ema(bars.c, spec.params.n);
    case "sma":
      return sma(bars.c, spec.params.n);
    case "rsi":
      return rsi(bars.c, spec.params.n);
    case "atr":
      return atr(bars.h, bars.l, bars.c, spec.params.n);
    case "vwap":
      return vwap2(bars.t, bars.h, bars.l, bars.c, bars.v, tradingDay(spec.params.day));
    case "highest":
      return before(highest(bars.h, spec.params.n));
    case "lowest":
      return before(lowest(bars.l, spec.params.n));
    case "prior_day":
      return priorDay2(bars, spec.params.field, tf, spec.params.day);
    case "opening_range":
      return openingRange2(bars, spec, tf);
    case "session_gate":
      return sessionWindows(bars, spec.params, tf, "gate");
    case "session_end":
      return sessionWindows(bars, spec.params, tf, "end");
    case "next_clock":
      return nextClock(bars, spec.params.zone, spec.params.minute);
    case "swing":
      return swing2(bars, spec.params.field, spec.params.strength);
    case "bollinger":
      return bollinger2(bars.c, spec.params.n, spec.params.k)[spec.params.band];
  }
}
function seriesOf(ir, bars, marks2 = [], known = /* @__PURE__ */ new Map()) {
  const s = {
    t: bars.t,
    o: bars.o,
    h: bars.h,
    l: bars.l,
    c: bars.c,
    v: bars.v,
    markLo: Float64Array.from(marks2, (m) => m.kind === "zone" ? Math.min(m.price, m.price2) : m.price),
    markHi: Float64Array.from(marks2, (m) => m.kind === "zone" ? Math.max(m.price, m.price2) : m.price),
    markShape: Uint8Array.from(marks2, (m) => m.kind === "zone" ? 1 : 0)
  };
  const emas = ir.series.filter((spec) => spec.kind === "ema" && !known.has(spec.id));
  for (let k = 0; k + 1 < emas.length; k += 2) {
    const [a, b] = emaPair(bars.c, emas[k].params.n, emas[k + 1].params.n);
    known.set(emas[k].id, a).set(emas[k + 1].id, b);
  }
  for (const spec of ir.series) {
    let x = known.get(spec.id);
    if (!x) known.set(spec.id, x = compute(spec, bars, ir.tf_seconds));
    s[spec.id] = x;
  }
  return s;
}

// engine/stepper/costs.ts
var DEFAULT_COSTS = {
  NQ: { slippage_ticks: 1, fee: { per_side: 0.1, unit: "points" } },
  ES: { slippage_ticks: 1, fee: { per_side: 0.04, unit: "points" } },
  YM: { slippage_ticks: 1, fee: { per_side: 0.4, unit: "points" } },
  BTC: { slippage_ticks: 50, fee: { per_side: 5, unit: "bps" } },
  ETH: { slippage_ticks: 5, fee: { per_side: 5, unit: "bps" } },
  SOL: { slippage_ticks: 1, fee: { per_side: 5, unit: "bps" } }
};
var slippageOf = (market, costs) => costs.slippage_ticks / Math.round(1 / MARKET_SPECS[market].tick);
var feePerSide = (fee, price2) => fee.unit === "points" ? fee.per_side : price2 * fee.per_side / 1e4;

// engine/stepper/envelope.ts
import { z as z5 } from "zod";

// engine/verdict/schema.ts
import { z as z4 } from "zod";
var VERDICT_VERSION = "verdict.v1";
var LABELS = ["no_trades", "look_ahead", "no_edge", "likely_luck", "likely_overfit", "mixed", "holds_up"];
var P = z4.number().min(0).max(1);
var Figure = z4.number().finite().nullable();
var Bands = z4.strictObject({ p05: z4.number(), p50: z4.number(), p95: z4.number() });
var VerdictSchema = z4.strictObject({
  version: z4.literal(VERDICT_VERSION),
  label: z4.enum(LABELS).describe("what the figures below say together"),
  words: z4.string().describe("the verdict in one sentence: about these past bars, never a forecast, never advice"),
  deflated_sharpe: z4.strictObject({
    sharpe: Figure.describe("the rule's Sharpe ratio per trade, in R (mean over population standard deviation)"),
    trades: z4.number().int().nonnegative(),
    skewness: Figure,
    kurtosis: Figure.describe("not excess: 3 for normal returns"),
    trials: z4.strictObject({
      n: z4.number().int().min(1).describe("this rule and the other rules you forged or rehearsed on this market and timeframe"),
      market: z4.enum(MARKETS),
      timeframe: z4.enum(TIMEFRAMES),
      others_rehearsed: z4.number().int().nonnegative().describe("the other rules whose Sharpe ratio the record holds"),
      variance: Figure.describe("the variance of the trials' Sharpe ratios"),
      variance_from: z4.enum(["record", "neighbourhood"]).nullable().describe("record: the rehearsed rules' Sharpe ratios; neighbourhood: the neighbours' (fewer than two rehearsed)")
    }).describe("the trials the Sharpe ratio is deflated for, from your own record"),
    probabilistic_sharpe: Figure.describe("the chance the true Sharpe ratio is above 0"),
    expected_max_sharpe: Figure.describe("SR0: the Sharpe ratio the best of n trials would show by luck"),
    dsr: Figure.describe("the chance the true Sharpe ratio is above SR0")
  }).describe("Bailey and L\xF3pez de Prado (2014)"),
  neighbourhood: z4.strictObject({
    numbers: z4.array(z4.strictObject({ name: z4.string(), value: z4.number(), values: z4.array(z4.number()) })).describe("the rule's numbers and the values the grid gives each"),
    rules: z4.number().int().min(1).describe("rules stepped: the rule itself first"),
    left_out: z4.number().int().nonnegative().describe("grid rules the decider refused or that were the same rule as one before"),
    positive: z4.number().int().nonnegative(),
    share_positive: P,
    total_r: Bands,
    results: z4.array(z4.strictObject({ values: z4.array(z4.number()), trades: z4.number().int().nonnegative(), total_r: z4.number() })),
    pbo: z4.strictObject({
      splits: z4.number().int(),
      combinations: z4.number().int(),
      periods: z4.number().int(),
      pbo: P,
      oos_loss: P.describe("the share of splits whose in-sample best lost out of sample"),
      median_logit: z4.number()
    }).nullable().describe("the probability of backtest overfitting by CSCV (Bailey, Borwein, L\xF3pez de Prado and Zhu); null for too short a window or no trades")
  }).describe("the same rule with each of its numbers moved to nearby values"),
  search: z4.strictObject({
    rules: z4.number().int(),
    periods: z4.number().int(),
    block: z4.number().int().describe("the mean block length of the stationary bootstrap, in periods"),
    draws: z4.number().int(),
    null_draws: z4.number().int().describe("random entries drawn for each neighbour's random-entry mean"),
    rule_null_mean_r: Figure.describe("the rule's random-entry mean per trade (its null's)"),
    statistic: z4.number(),
    p: P.describe("Hansen's SPA, consistent p-value"),
    p_lower: P,
    p_upper: P,
    reality_check: z4.strictObject({ statistic: z4.number(), p: P }).describe("White's Reality Check")
  }).nullable().describe("the neighbourhood against random entries, corrected for the search (Hansen 2005; White 2000)"),
  monte_carlo: z4.strictObject({
    paths: z4.number().int(),
    order: z4.strictObject({ final_r: z4.number(), max_drawdown_r: Bands }),
    skipped: z4.strictObject({ share: P, final_r: Bands, max_drawdown_r: Bands })
  }).nullable().describe("the rule's trades reordered, and skipped by chance"),
  costs: z4.strictObject({
    market: z4.enum(MARKETS),
    fee: z4.strictObject({ per_side: z4.number().nonnegative(), unit: z4.enum(["points", "bps"]) }),
    slippage_ticks: z4.number().nonnegative(),
    per_trade: z4.strictObject({ price: z4.number(), dollars: z4.number(), r: z4.number() }).nullable(),
    expectancy_r: z4.strictObject({ before_costs: z4.number(), after_costs: z4.number() }).nullable(),
    break_even: z4.strictObject({ price: z4.number(), dollars: z4.number(), ticks: z4.number(), r: z4.number(), times_current: z4.number().nullable() }).nullable().describe("the cost per round trip at which the total R is zero; null when the trades lose before costs")
  }).describe("the market's fees and slippage per trade, and the break-even cost"),
  bias: z4.strictObject({
    look_ahead: z4.strictObject({
      cuts: z4.number().int(),
      decisions: z4.number().int(),
      changed: z4.number().int(),
      series_values: z4.number().int(),
      series_changed: z4.number().int(),
      first: z4.strictObject({ t: z4.number().int(), what: z4.string() }).nullable()
    }),
    warm_up: z4.array(
      z4.strictObject({ factor: z4.number().int(), warm_up_bars: z4.number().int(), trades_changed: z4.number().int(), total_r_delta: z4.number() })
    )
  })
});

// engine/stepper/envelope.ts
var REHEARSAL_VERSION = "rehearsal.v1";
var Ratio = z5.number().finite().nullable();
var RStatsSchema = z5.strictObject({
  n: z5.number().int().nonnegative(),
  long: z5.number().int().nonnegative(),
  short: z5.number().int().nonnegative(),
  wins: z5.number().int().nonnegative(),
  losses: z5.number().int().nonnegative(),
  win_rate: Ratio,
  expectancy: Ratio,
  total_r: z5.number().finite(),
  max_drawdown_r: z5.number().finite().nonnegative(),
  profit_factor: Ratio,
  avg_win_r: Ratio,
  avg_loss_r: Ratio
});
var RehearsalSchema = z5.strictObject({
  version: z5.literal(REHEARSAL_VERSION),
  market: z5.enum(MARKETS),
  timeframe: z5.enum(TIMEFRAMES),
  window: z5.strictObject({
    from: z5.number().int(),
    to: z5.number().int(),
    bars: z5.number().int(),
    warm_up_bars: z5.number().int(),
    ready_at: z5.number().int().nullable().describe("the open of the first bar of the window the rule could decide on (at its close); null when none"),
    idle: z5.strictObject({ warm_up: z5.number().int().nonnegative(), session: z5.number().int().nonnegative(), gaps: z5.number().int().nonnegative() }).describe("bars of the window that could not trade: warm_up, a series an entry reads had no value yet; session, the bar's close fell outside the rule's session; gaps, bar slots of open market the tape holds no bar for")
  }),
  costs: z5.strictObject({
    slippage_ticks: z5.number().nonnegative(),
    slippage: z5.number().nonnegative(),
    fee: z5.strictObject({ per_side: z5.number().nonnegative(), unit: z5.enum(["points", "bps"]) })
  }),
  trades: z5.array(
    z5.strictObject({
      side: z5.enum(["long", "short"]),
      entry_t: z5.number().int(),
      entry: z5.number().positive(),
      stop: z5.number().finite(),
      target: z5.number().finite().nullable(),
      exit_t: z5.number().int(),
      exit: z5.number().finite(),
      r: z5.number().finite(),
      why: z5.enum(EXIT_WHY)
    })
  ),
  skipped: z5.number().int().nonnegative(),
  stats: RStatsSchema,
  null: z5.strictObject({
    runs: z5.number().int().nonnegative(),
    seed: z5.string(),
    matched: z5.strictObject({
      trades: z5.number().int(),
      long: z5.number().int(),
      short: z5.number().int(),
      holding_bars: z5.strictObject({ min: z5.number().int(), median: z5.number().int(), max: z5.number().int() }).nullable()
    }),
    eligible: z5.strictObject({ long: z5.number().int(), short: z5.number().int() }),
    rule_total_r: z5.number().finite(),
    total_r: z5.strictObject({ mean: z5.number(), p05: z5.number(), p50: z5.number(), p95: z5.number() }).nullable(),
    k: z5.number().int().nonnegative(),
    percentile: z5.number().min(0).max(100).nullable(),
    p: z5.number().gt(0).max(1).nullable(),
    histogram: z5.strictObject({ from: z5.number(), width: z5.number().positive(), counts: z5.array(z5.number().int().nonnegative()) }).nullable().describe("the runs' total R in equal bins of width R from from, over a range holding the rule's total and its neighbours'; null without runs")
  }),
  folds: z5.array(z5.strictObject({ fold: z5.number().int(), from: z5.number().int(), to: z5.number().int(), bars: z5.number().int(), stats: RStatsSchema })).nullable(),
  verdict: VerdictSchema.optional(),
  summary: z5.string()
});

// engine/stepper/stats.ts
var round4 = (x) => Math.round(x * 1e4) / 1e4 || 0;
var nearestRank = (sorted, q) => sorted[Math.round(q * (sorted.length - 1))];
function statsOf(trades) {
  let wins = 0;
  let losses = 0;
  let long2 = 0;
  let won = 0;
  let lost = 0;
  let total = 0;
  let peak = 0;
  let drawdown = 0;
  for (const { dir, r } of trades) {
    if (dir > 0) long2++;
    if (r > 0) {
      wins++;
      won += r;
    } else if (r < 0) {
      losses++;
      lost -= r;
    }
    total += r;
    if (total > peak) peak = total;
    if (peak - total > drawdown) drawdown = peak - total;
  }
  const n = trades.length;
  return {
    n,
    long: long2,
    short: n - long2,
    wins,
    losses,
    win_rate: n ? round4(wins / n) : null,
    expectancy: n ? round4(total / n) : null,
    total_r: round4(total),
    max_drawdown_r: round4(drawdown),
    profit_factor: losses ? round4(won / lost) : null,
    avg_win_r: wins ? round4(won / wins) : null,
    avg_loss_r: losses ? round4(-lost / losses) : null
  };
}

// engine/stepper/folds.ts
var MAX_FOLDS = 20;
function foldsOf(trades, t, tf, start, end, k) {
  const folds = [];
  const bars = end - start;
  for (let j = 0; j < k; j++) {
    const a = start + Math.floor(j * bars / k);
    const b = start + Math.floor((j + 1) * bars / k);
    if (b <= a) continue;
    folds.push({ fold: j + 1, from: t[a], to: t[b - 1] + tf, bars: b - a, stats: statsOf(trades.filter((x) => x.fill >= a && x.fill < b)) });
  }
  return folds;
}

// engine/stepper/machine.ts
var { FLAT, ARMED, IN_LONG, IN_SHORT, EXITING, CLOSING } = PHASE;
var TARGET = WHY.target;
var END_OF_DATA = WHY.end_of_data;
var AT_OPEN = 0;
var IN_RANGE = 1;
var AT_CLOSE = 2;
var fillOf = (ir, costs = DEFAULT_COSTS[ir.market]) => ({
  tf: ir.tf_seconds,
  tick: ir.tick,
  slippage: slippageOf(ir.market, costs),
  fee: costs.fee
});
var TradeRecord = class {
  constructor(dir, fill, entry, stop, target, exitBar, exitT, exit, r, why) {
    this.dir = dir;
    this.fill = fill;
    this.entry = entry;
    this.stop = stop;
    this.target = target;
    this.exitBar = exitBar;
    this.exitT = exitT;
    this.exit = exit;
    this.r = r;
    this.why = why;
  }
  dir;
  fill;
  entry;
  stop;
  target;
  exitBar;
  exitT;
  exit;
  r;
  why;
};
var Machine = class {
  constructor(decider, s, fills) {
    this.decider = decider;
    this.s = s;
    this.fills = fills;
    this.inv = Math.round(1 / fills.tick);
    this.feeFixed = fills.fee.unit === "points" ? fills.fee.per_side : 0;
    this.feeRate = fills.fee.unit === "bps" ? fills.fee.per_side / 1e4 : 0;
    this.slip = fills.slippage;
    ({ t: this.t, o: this.o, h: this.h, l: this.l, c: this.c } = s);
  }
  decider;
  s;
  fills;
  st = freshState();
  /** 1 / tick: prices are put on the tick grid as round(x * inv) / inv. */
  inv;
  /** A side's fee is feeFixed + price * feeRate. */
  feeFixed;
  feeRate;
  /** Slippage in price, read every bar of a trade. */
  slip;
  t;
  o;
  h;
  l;
  c;
  /** The stop placed at the fill: the risk's other end. */
  initialStop = NaN;
  /** The target placed at the fill. */
  initialTarget = NaN;
  /** The last exit: its bar, where in it, time, price, R. */
  exitBar = -1;
  exitWhere = AT_OPEN;
  exitT = NaN;
  exitPx = NaN;
  exitR = NaN;
  q(x) {
    return Math.round(x * this.inv) / this.inv;
  }
  /** R of a trade (side, entry fill, risk) leaving at `price`, which is first put on the tick grid. */
  rOf(dir, entry, risk, price2) {
    const exit = Math.round(price2 * this.inv) / this.inv;
    return (dir * (exit - entry) - 2 * this.feeFixed - (entry + exit) * this.feeRate) / risk;
  }
  exit(i, price2, at2, why) {
    const st = this.st;
    this.exitBar = i;
    this.exitWhere = at2;
    this.exitT = at2 === AT_CLOSE ? this.t[i] + this.fills.tf : this.t[i];
    this.exitPx = this.q(price2);
    this.exitR = this.rOf(st.dir, st.entry, st.risk, price2);
    st.why = why;
    st.phase = FLAT;
    return true;
  }
  /** Fills the armed entry at the open of bar f; false when the decider refused the stop. */
  enter(f) {
    const st = this.st;
    const price2 = this.q(this.o[f] + st.dir * this.fills.slippage);
    if (!this.decider.fill(f, price2, st, this.s)) return false;
    this.initialStop = st.stop;
    this.initialTarget = this.q(st.target);
    return true;
  }
  /** The pending rule exit, at the open of bar i. */
  exitAtOpen(i) {
    return this.exit(i, this.o[i] - this.st.dir * this.fills.slippage, AT_OPEN, this.st.why);
  }
  /**
   * Steps an open trade (in a position, or exiting at the next open) through bars [from, last): answers the bar it
   * ended in, its exit recorded, or -1 when it is still open at the close of bar last - 1. Each bar: a pending rule exit
   * at the open; else the open, the range, then the close. One loop with the bars in hand: a trade's
   * bars are most of the bars the stepper steps.
   */
  step(from, last) {
    if (!this.decider.MANAGES) return this.hold(from, last);
    const st = this.st;
    const { o, h, l, t, c, slip, decider, s } = this;
    for (let i = from; i < last; i++) {
      if (st.phase === EXITING) {
        this.exitAtOpen(i);
        return i;
      }
      const d = st.dir;
      const open2 = o[i];
      const stop = st.stop;
      const target = st.target;
      if (d * (open2 - stop) <= 0) return this.exitAt(i, open2 - d * slip, AT_OPEN, st.stopWhy);
      if (d * (open2 - target) >= 0) return this.exitAt(i, open2, AT_OPEN, TARGET);
      if (t[i] >= st.deadline) return this.exitAt(i, open2 - d * slip, AT_OPEN, st.deadlineWhy);
      if (d > 0 ? l[i] <= stop : h[i] >= stop) return this.exitAt(i, stop - d * slip, IN_RANGE, st.stopWhy);
      if (d > 0 ? h[i] >= target : l[i] <= target) return this.exitAt(i, target, IN_RANGE, TARGET);
      decider.decide(i, st, s);
      if (st.phase === CLOSING) return this.exitAt(i, c[i] - d * slip, AT_CLOSE, st.why);
    }
    return -1;
  }
  /**
   * step for a decider that does nothing while a trade is open: the stop and the target stay where the fill put them
   * (only decide moves them), no rule exit is ever pending, and there is no deadline (every scheduled exit is met in
   * decide, so a rule with one manages its trades). So the stop and target are read once and the bars are checked at
   * the open and in the range only, with the same fills in the same order as step.
   */
  hold(from, last) {
    const st = this.st;
    const { o, h, l, slip } = this;
    const d = st.dir;
    const stop = st.stop;
    const target = st.target;
    for (let i = from; i < last; i++) {
      const open2 = o[i];
      if (d * (open2 - stop) <= 0) return this.exitAt(i, open2 - d * slip, AT_OPEN, st.stopWhy);
      if (d * (open2 - target) >= 0) return this.exitAt(i, open2, AT_OPEN, TARGET);
      if (d > 0 ? l[i] <= stop : h[i] >= stop) return this.exitAt(i, stop - d * slip, IN_RANGE, st.stopWhy);
      if (d > 0 ? h[i] >= target : l[i] <= target) return this.exitAt(i, target, IN_RANGE, TARGET);
    }
    return -1;
  }
  exitAt(i, price2, at2, why) {
    this.exit(i, price2, at2, why);
    return i;
  }
  /** Ends an open trade at the close of bar i (the data ran out). */
  endAt(i) {
    return this.exit(i, this.c[i] - this.st.dir * this.fills.slippage, AT_CLOSE, END_OF_DATA);
  }
  record() {
    const st = this.st;
    return new TradeRecord(st.dir, st.fill, st.entry, this.initialStop, this.initialTarget, this.exitBar, this.exitT, this.exitPx, this.exitR, st.why);
  }
  /**
   * The rule itself over bars [start, end): decisions from bar max(start, 1) (a cross reads the bar before), the
   * bars before start only warm the series. Answers the trades and how many entries were skipped.
   */
  run(start, end) {
    const st = this.st;
    Object.assign(st, freshState());
    const trades = [];
    let skipped = 0;
    let i = start > 1 ? start : 1;
    while (i < end) {
      if (st.phase === FLAT) {
        const armed = this.decider.scan(i, end, st, this.s);
        if (armed < 0) break;
        i = armed + 1;
        continue;
      }
      if (st.phase === ARMED && !this.enter(i)) {
        skipped++;
        continue;
      }
      const ended = this.step(i, end);
      if (ended < 0) break;
      trades.push(this.record());
      i = ended;
      if (this.exitWhere === AT_CLOSE) i++;
    }
    if (st.phase === IN_LONG || st.phase === IN_SHORT || st.phase === EXITING) {
      this.endAt(end - 1);
      trades.push(this.record());
    }
    return { trades, skipped };
  }
};

// engine/stepper/prng.ts
import { createHash as createHash2 } from "node:crypto";
var Prng = class {
  s = new Int32Array(4);
  constructor(seed) {
    const h = createHash2("sha256").update(seed).digest();
    for (let i = 0; i < 4; i++) this.s[i] = h.readInt32LE(4 * i);
    if ((this.s[0] | this.s[1] | this.s[2] | this.s[3]) === 0) this.s[0] = 1;
  }
  /** The next unsigned 32-bit integer. */
  next() {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] = s[2] ^ s[0];
    s[3] = s[3] ^ s[1];
    s[1] = s[1] ^ s[2];
    s[0] = s[0] ^ s[3];
    s[2] = s[2] ^ t;
    s[3] = rotl(s[3], 11);
    return result;
  }
  /** A uniform integer in [0, n), n >= 1, by multiply-and-shift (bias below n / 2^32, nothing at these sizes). */
  below(n) {
    return Math.floor(this.next() / 4294967296 * n);
  }
};
var rotl = (x, k) => x << k | x >>> 32 - k;

// engine/stepper/null.ts
var { IN_LONG: IN_LONG2, IN_SHORT: IN_SHORT2, EXITING: EXITING2 } = PHASE;
var NullSide = class {
  constructor(dir, m, decider, s, gate, start, end, cap, lazy = false) {
    this.dir = dir;
    this.m = m;
    this.decider = decider;
    this.gate = gate;
    this.end = end;
    this.cap = cap;
    this.data = new Float64Array(4 * s.t.length);
    this.first = Math.max(start, 1);
    this.checked = lazy ? new Int8Array(s.t.length) : null;
    this.eligible = lazy ? new Int32Array(0) : this.scan();
  }
  dir;
  m;
  decider;
  gate;
  end;
  cap;
  /**
   * Per bar i, four numbers side by side (one cache line for a random draw): at 4i the bars the natural trade held
   * (exit bar - fill bar + 1; 0 not yet run; cap + 1 still open after `cap` bars), then its R, its entry fill and
   * its risk.
   */
  data;
  /** Lazy: per bar, 0 not yet checked, 1 the side may arm there, -1 it may not. */
  checked;
  first;
  eligible;
  /** Whether the side may arm at bar i (the gate open, and a fill at the next open that leaves the stop beyond it). */
  admits(i) {
    if (this.gate && this.gate[i] !== 1) return false;
    const st = this.m.st;
    this.decider.arm(i, st, this.dir);
    if (!this.m.enter(i + 1)) return false;
    this.data[4 * i + 2] = st.entry;
    this.data[4 * i + 3] = st.risk;
    return true;
  }
  scan() {
    const eligible = new Int32Array(Math.max(0, this.end - this.first));
    let count2 = 0;
    for (let i = this.first; i + 1 < this.end; i++) if (this.admits(i)) eligible[count2++] = i;
    return eligible.subarray(0, count2);
  }
  /** A bar drawn uniformly from those the side may arm at; -1 when there is none. */
  draw(rng) {
    const checked = this.checked;
    if (checked && this.eligible.length === 0) {
      const span2 = this.end - 1 - this.first;
      for (let tries = 0; tries < 64 && span2 > 0; tries++) {
        const i = this.first + rng.below(span2);
        if (checked[i] === 0) checked[i] = this.admits(i) ? 1 : -1;
        if (checked[i] === 1) return i;
      }
      this.eligible = this.scan();
    }
    return this.eligible.length ? this.eligible[rng.below(this.eligible.length)] : -1;
  }
  /** Runs the trade armed at bar i to its natural end, or for `cap` bars. */
  natural(i) {
    const { m, cap, end, data } = this;
    const st = m.st;
    this.decider.arm(i, st, this.dir);
    m.enter(i + 1);
    const f = i + 1;
    const last = Math.min(end, f + cap);
    const k = m.step(f, last);
    if (k >= 0) {
      data[4 * i] = k - f + 1;
      data[4 * i + 1] = m.exitR;
      return;
    }
    if (last === end && (st.phase === IN_LONG2 || st.phase === IN_SHORT2 || st.phase === EXITING2)) {
      m.endAt(end - 1);
      data[4 * i] = end - f;
      data[4 * i + 1] = m.exitR;
      return;
    }
    data[4 * i] = cap + 1;
  }
  /**
   * The R of the random trade armed at bar i and held at most h bars: its natural end when that comes within h bars,
   * else the close of its h-th bar, slippage against.
   */
  heldR(i, h, close, slip) {
    const { data, dir, m } = this;
    const at2 = 4 * i;
    if (data[at2] === 0) this.natural(i);
    return data[at2] <= h ? data[at2 + 1] : m.rOf(dir, data[at2 + 2], data[at2 + 3], close[i + h] - dir * slip);
  }
  /** Total R of one run's trades on this side: one random entry per holding time in `caps`. */
  total(caps, rng, close, slip) {
    const { eligible } = this;
    const choices = eligible.length;
    let total = 0;
    for (let j = 0; j < caps.length; j++) total += this.heldR(eligible[rng.below(choices)], caps[j], close, slip);
    return total;
  }
};
function randomNull(input) {
  const { machine, decider, series, ir, trades, start, end, runs, seed, slippage } = input;
  const holds = trades.map((t) => t.exitBar - t.fill + 1);
  const ruleTotal = trades.reduce((sum, t) => sum + t.r, 0);
  const sortedHolds = [...holds].sort((a, b) => a - b);
  const capsOf = (dir) => Int32Array.from(holds.filter((_, j) => trades[j].dir === dir));
  const longCaps = capsOf(1);
  const shortCaps = capsOf(-1);
  const report = {
    runs: 0,
    seed,
    matched: {
      trades: trades.length,
      long: longCaps.length,
      short: shortCaps.length,
      holding_bars: holds.length ? { min: sortedHolds[0], median: sortedHolds[Math.floor((holds.length - 1) / 2)], max: sortedHolds.at(-1) } : null
    },
    eligible: { long: 0, short: 0 },
    rule_total_r: round4(ruleTotal),
    total_r: null,
    k: 0,
    percentile: null,
    p: null
  };
  if (trades.length === 0 || runs < 1) return report;
  const cap = sortedHolds.at(-1);
  const gate = ir.session.kind === "windows" ? series[ir.session.gate] : null;
  const side = (dir) => new NullSide(dir, machine, decider, series, gate, start, end, cap);
  const long2 = longCaps.length ? side(1) : null;
  const short2 = shortCaps.length ? side(-1) : null;
  report.eligible = { long: long2?.eligible.length ?? 0, short: short2?.eligible.length ?? 0 };
  const rng = new Prng(seed);
  const totals = new Float64Array(runs);
  let k = 0;
  for (let run = 0; run < runs; run++) {
    const total = (long2 ? long2.total(longCaps, rng, series.c, slippage) : 0) + (short2 ? short2.total(shortCaps, rng, series.c, slippage) : 0);
    totals[run] = total;
    if (total >= ruleTotal) k++;
  }
  input.totals?.(totals);
  const sorted = totals.slice().sort();
  const mean = totals.reduce((a, b) => a + b, 0) / runs;
  return {
    ...report,
    runs,
    total_r: { mean: round4(mean), p05: round4(nearestRank(sorted, 0.05)), p50: round4(nearestRank(sorted, 0.5)), p95: round4(nearestRank(sorted, 0.95)) },
    k,
    percentile: Math.round(1e3 * (runs - k) / runs) / 10,
    p: round4((k + 1) / (runs + 1))
  };
}

// engine/stepper/null-bins.ts
var NULL_BINS = 40;
var PAD = 0.05;
function nullBins(totals, marks2) {
  if (totals.length === 0) return null;
  let lo = Infinity;
  let hi = -Infinity;
  for (const values of [totals, marks2]) {
    for (let i = 0; i < values.length; i++) {
      lo = Math.min(lo, values[i]);
      hi = Math.max(hi, values[i]);
    }
  }
  const span2 = hi - lo || 1;
  const from = lo - PAD * span2;
  const width = (hi - lo + 2 * PAD * span2) / NULL_BINS;
  const counts = new Array(NULL_BINS).fill(0);
  for (let i = 0; i < totals.length; i++) counts[Math.min(NULL_BINS - 1, Math.floor((totals[i] - from) / width))]++;
  return { from, width, counts };
}

// engine/stepper/readiness.ts
var IDLE = { DECIDES: 0, WARM_UP: 1, SESSION: 2 };
function operandSeries(o, out) {
  if (o.kind === "point") {
    if (o.at.src === "series") out.add(o.at.id);
  } else if (o.kind === "zone") {
    if (o.lo.src === "series") out.add(o.lo.id);
    if (o.hi.src === "series") out.add(o.hi.id);
  }
}
function condSeries(c, out = /* @__PURE__ */ new Set()) {
  if (c === null) return out;
  if ("args" in c) for (const a of c.args) condSeries(a, out);
  else if ("level" in c) operandSeries(c.level, out);
  else {
    operandSeries(c.left, out);
    operandSeries(c.right, out);
  }
  return out;
}
function idleOf(ir, s, start, end) {
  const read2 = [...condSeries(ir.entry.long, condSeries(ir.entry.short))].sort().map((id) => s[id]);
  const gate = ir.session.kind === "windows" ? s[ir.session.gate] : null;
  const out = new Uint8Array(end - start);
  for (let i = start; i < end; i++) {
    const unset = i < 1 || read2.some((x) => Number.isNaN(x[i]));
    out[i - start] = unset ? IDLE.WARM_UP : gate !== null && gate[i] === 0 ? IDLE.SESSION : IDLE.DECIDES;
  }
  return out;
}
function readinessOf(ir, bars, s, start, end) {
  const idle = idleOf(ir, s, start, end);
  const first = idle.indexOf(IDLE.DECIDES);
  let warmUp2 = 0;
  let session = 0;
  for (const x of idle) {
    if (x === IDLE.WARM_UP) warmUp2++;
    else if (x === IDLE.SESSION) session++;
  }
  const expected = expectedBars(ir.market, ir.tf_seconds, bars.t[start], bars.t[end - 1] + ir.tf_seconds);
  let held = 0;
  for (let e = 0, i = start; e < expected.length && i < end; ) {
    if (expected[e] < bars.t[i]) e++;
    else if (expected[e] > bars.t[i]) i++;
    else [held, e, i] = [held + 1, e + 1, i + 1];
  }
  return { ready_at: first < 0 ? null : bars.t[start + first], idle: { warm_up: warmUp2, session, gaps: expected.length - held } };
}
function rehearsedSeries(ir, given, window2) {
  const from = firstAtOrAfter(given.t, window2.from);
  if (given.t[from] !== window2.from || from < window2.warm_up_bars || from + window2.bars > given.length) {
    throw new RangeError("these are not the bars the rehearsal ran over: its window or the warm-up before it is not among them");
  }
  const bars = windowOf(given, from - window2.warm_up_bars, from + window2.bars);
  return { bars, start: window2.warm_up_bars, end: window2.warm_up_bars + window2.bars, series: seriesOf(ir, bars) };
}
var hhmm = (minute) => `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
function sessionWords(ir) {
  const s = ir.session;
  if (s.kind === "always") return "always";
  const until = s.until && s.until.length > 0 ? `, entries until ${s.until.map((c) => `${hhmm(c.minute)}${c.zone === s.zone ? "" : ` ${c.zone}`}`).join(" or ")}` : "";
  return `${s.windows.map((w) => `${hhmm(w.from)}-${hhmm(w.to)}`).join(", ")} ${s.zone}${until}`;
}

// engine/stepper/summary.ts
var when = (t) => `${new Date(t * 1e3).toISOString().slice(0, 16).replace("T", " ")} UTC`;
var count = (n) => n.toLocaleString("en-US");
var signed = (r) => `${r > 0 ? "+" : ""}${r.toFixed(2)}R`;
var ordinal = (n) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
};
function readinessWords(ir, w) {
  const { warm_up: warm, session, gaps } = w.idle;
  const reasons = [
    ...warm > 0 ? [`${count(warm)} while a series an entry reads had no value yet (warm-up)`] : [],
    ...session > 0 ? [`${count(session)} outside its session (${sessionWords(ir)})`] : []
  ];
  const why = reasons.length === 1 ? `, all ${reasons[0].replace(/^[\d,]+ /, "")}` : `: ${reasons.join(", ")}`;
  const first = w.ready_at === null ? `It could decide on none of the window's ${count(w.bars)} bars${why}.` : `${warm === 0 ? "Its indicators were warm from the window's first bar" : "Its indicators warmed up inside the window"}; it could first decide at the close of the bar opening ${when(w.ready_at)}` + (reasons.length > 0 ? `, and ${count(warm + session)} of the ${count(w.bars)} bars could not trade${why}.` : ", and every bar could trade.");
  const gap = gaps > 0 ? ` The tape holds no bar for ${count(gaps)} ${ir.timeframe} slot${gaps === 1 ? "" : "s"} of open market in the window (no trade printed, or none kept).` : "";
  return first + gap;
}
function summaryOf(x) {
  const s = x.stats;
  const w = x.window;
  const over = `Over ${count(w.bars)} ${x.ir.timeframe} bars of ${x.ir.market} from ${when(w.from)} to ${when(w.to)}`;
  const ready = readinessWords(x.ir, w);
  const past = "This is evidence about how the rule would have fared on these past bars, never a forecast of what it will do.";
  if (s.n === 0) return `${over} the rule took no trades, so there is nothing to weigh against a random null. ${ready} ${past}`;
  const trades = `the rule took ${count(s.n)} trade${s.n === 1 ? "" : "s"} (${count(s.long)} long, ${count(s.short)} short)`;
  const figures = [
    `win rate ${(100 * s.win_rate).toFixed(1)}%`,
    `expectancy ${signed(s.expectancy)} a trade`,
    `total ${signed(s.total_r)}`,
    `max drawdown ${s.max_drawdown_r.toFixed(2)}R`,
    s.profit_factor === null ? "no losing trade" : `profit factor ${s.profit_factor.toFixed(2)}`
  ].join(", ");
  const n = x.null;
  const versus = n.runs > 0 ? `Against ${count(n.runs)} random-entry runs matched on trade count, side mix and holding time under the same stop and exit rules, its total R ranks at the ${ordinal(Math.floor(n.percentile))} percentile (${count(n.k)} runs did as well or better; p = ${n.p.toFixed(3)}).` : "No random null was run.";
  return `${over} ${trades}: ${figures}. ${ready} ${versus}${x.verdict ? ` ${x.verdict}` : ""} ${past}`;
}

// engine/verdict/bias.ts
var LOOK_AHEAD_CUTS = 8;
var WARM_UP_FACTORS = [2, 4];
var LONGEST_WARM_UP = WARM_UP_FACTORS.at(-1);
var sameEntry = (a, b, shift = 0) => a.dir === b.dir && a.fill === b.fill + shift && a.entry === b.entry && a.stop === b.stop;
var sameExit = (a, b, shift = 0) => a.exitBar === b.exitBar + shift && a.exit === b.exit && a.r === b.r && a.why === b.why;
var same = (x, y) => x === y || x !== x && y !== y;
function cutsOf(trades, start, end) {
  const cuts = /* @__PURE__ */ new Set();
  const picked = Math.min(LOOK_AHEAD_CUTS, trades.length);
  for (let j = 0; j < picked; j++) cuts.add(trades[Math.floor((j + 0.5) * trades.length / picked)].fill);
  for (let j = 1; cuts.size < LOOK_AHEAD_CUTS && j <= LOOK_AHEAD_CUTS; j++) cuts.add(start + Math.floor(j * (end - start) / (LOOK_AHEAD_CUTS + 1)));
  return [...cuts].filter((c) => c >= start + 2 && c < end).sort((a, b) => a - b);
}
function lookAheadOf(x) {
  const full = x.series;
  const report = { cuts: 0, decisions: 0, changed: 0, series_values: 0, series_changed: 0, first: null };
  const differ = (i, what) => {
    report.changed++;
    if (!report.first || x.bars.t[i] < report.first.t) report.first = { t: x.bars.t[i], what };
  };
  for (const cut of cutsOf(x.trades, x.start, x.end)) {
    report.cuts++;
    const series = seriesOf(x.ir, windowOf(x.bars, 0, cut), x.marks);
    for (const spec of x.ir.series) {
      const a = full[spec.id];
      const b = series[spec.id];
      for (let i = 0; i < cut; i++) {
        report.series_values++;
        if (!same(a[i], b[i])) {
          report.series_changed++;
          if (!report.first || x.bars.t[i] < report.first.t) report.first = { t: x.bars.t[i], what: `the ${spec.id} series` };
          break;
        }
      }
    }
    const machine = new Machine(x.decider, series, x.fill);
    const { trades } = machine.run(x.start, cut);
    const armed = x.trades.find((t) => t.fill === cut);
    if (armed) {
      report.decisions++;
      const st = machine.st;
      if (!(st.phase === PHASE.ARMED && st.signal === cut - 1 && st.dir === armed.dir)) differ(cut - 1, "an entry signal");
    }
    const before2 = x.trades.filter((t) => t.fill < cut);
    for (let j = 0; j < before2.length; j++) {
      const a = before2[j];
      const b = trades[j];
      report.decisions++;
      if (!b || !sameEntry(a, b)) {
        differ(a.fill, "an entry");
        continue;
      }
      if (a.exitBar < cut - 1) {
        report.decisions++;
        if (!sameExit(a, b)) differ(a.exitBar, "an exit");
      }
    }
    if (trades.filter((t) => t.fill < cut).length > before2.length) differ(trades[before2.length].fill, "an entry");
  }
  return report;
}
function warmUpsOf(x) {
  const tf = x.ir.tf_seconds;
  const total = x.trades.reduce((s, t) => s + t.r, 0);
  return WARM_UP_FACTORS.map((factor) => {
    const at2 = Math.min(x.first, firstAtOrAfter(x.longBars.t, warmStart(x.ir.market, x.from, factor * x.ir.warm_up_bars * tf, tf)));
    const shift = x.first - at2;
    const bars = windowOf(x.longBars, at2, x.longBars.length);
    const { trades } = new Machine(x.decider, seriesOf(x.ir, bars, x.marks), x.fill).run(x.start + shift, x.end + shift);
    let changed = Math.abs(trades.length - x.trades.length);
    for (let j = 0; j < Math.min(trades.length, x.trades.length); j++) {
      if (!sameEntry(trades[j], x.trades[j], shift) || !sameExit(trades[j], x.trades[j], shift)) changed++;
    }
    const longTotal = trades.reduce((s, t) => s + t.r, 0);
    return { factor, warm_up_bars: x.start + shift, trades_changed: changed, total_r_delta: longTotal - total };
  });
}

// engine/verdict/bands.ts
function bandsOf(values) {
  const sorted = values.slice().sort();
  return { p05: round4(nearestRank(sorted, 0.05)), p50: round4(nearestRank(sorted, 0.5)), p95: round4(nearestRank(sorted, 0.95)) };
}

// engine/verdict/costs.ts
function costsOf(trades, market, costs, slippage) {
  const spec = MARKET_SPECS[market];
  const fixed = costs.fee.unit === "points" ? costs.fee.per_side : 0;
  const rate = costs.fee.unit === "bps" ? costs.fee.per_side / 1e4 : 0;
  const base = { market, fee: costs.fee, slippage_ticks: costs.slippage_ticks };
  const n = trades.length;
  if (n === 0) return { ...base, per_trade: null, expectancy_r: null, break_even: null };
  let price2 = 0;
  let costR = 0;
  let gross = 0;
  let net = 0;
  let perRisk = 0;
  for (const x of trades) {
    const risk = Math.abs(x.entry - x.stop);
    const paid = 2 * fixed + (x.entry + x.exit) * rate + slippage * (x.why === WHY.target ? 1 : 2);
    price2 += paid;
    costR += paid / risk;
    gross += x.r + paid / risk;
    net += x.r;
    perRisk += 1 / risk;
  }
  const meanPrice = price2 / n;
  const even = gross / perRisk;
  return {
    ...base,
    per_trade: { price: round4(meanPrice), dollars: round4(meanPrice * spec.point_value), r: round4(costR / n) },
    expectancy_r: { before_costs: round4(gross / n), after_costs: round4(net / n) },
    break_even: gross > 0 ? { price: round4(even), dollars: round4(even * spec.point_value), ticks: round4(even / spec.tick), r: round4(gross / n), times_current: meanPrice > 0 ? round4(even / meanPrice) : null } : null
  };
}

// engine/verdict/cscv.ts
var sharpe = (sum, sq, n) => {
  const mean = sum / n;
  const variance = sq / n - mean * mean;
  if (variance > 1e-24) return mean / Math.sqrt(variance);
  return mean === 0 ? 0 : mean > 0 ? Infinity : -Infinity;
};
function pboOf(returns, strategies, rows, splits) {
  if (!(splits >= 2 && splits % 2 === 0 && rows % splits === 0 && rows >= splits)) throw new RangeError("pbo: rows must be a multiple of an even number of splits");
  if (strategies < 2) throw new RangeError("pbo: two strategies or more");
  const per = rows / splits;
  const sums = new Float64Array(strategies * splits);
  const squares = new Float64Array(strategies * splits);
  for (let n = 0; n < strategies; n++) {
    for (let s = 0; s < splits; s++) {
      let sum = 0;
      let sq = 0;
      for (let t = s * per; t < (s + 1) * per; t++) {
        const x = returns[n * rows + t];
        sum += x;
        sq += x * x;
      }
      sums[n * splits + s] = sum;
      squares[n * splits + s] = sq;
    }
  }
  const half = splits / 2;
  const inSample = new Uint8Array(splits);
  const oos = new Float64Array(strategies);
  const logits = [];
  let overfit = 0;
  let lost = 0;
  for (let mask = 0; mask < 1 << splits; mask++) {
    let bits = 0;
    for (let s = 0; s < splits; s++) bits += inSample[s] = mask >> s & 1;
    if (bits !== half) continue;
    let best = -1;
    let bestIs = -Infinity;
    for (let n = 0; n < strategies; n++) {
      let is2 = 0;
      let isSq = 0;
      let os = 0;
      let osSq = 0;
      for (let s = 0; s < splits; s++) {
        const k = n * splits + s;
        if (inSample[s]) {
          is2 += sums[k];
          isSq += squares[k];
        } else {
          os += sums[k];
          osSq += squares[k];
        }
      }
      const isSharpe = sharpe(is2, isSq, half * per);
      oos[n] = sharpe(os, osSq, half * per);
      if (isSharpe > bestIs) {
        bestIs = isSharpe;
        best = n;
      }
    }
    const mine = oos[best];
    let below = 0;
    let equal = 0;
    for (let n = 0; n < strategies; n++) {
      if (oos[n] < mine) below++;
      else if (oos[n] === mine) equal++;
    }
    const rank = below + (equal + 1) / 2;
    const omega = rank / (strategies + 1);
    const logit = Math.log(omega / (1 - omega));
    logits.push(logit);
    if (logit <= 0) overfit++;
    if (mine < 0) lost++;
  }
  logits.sort((a, b) => a - b);
  const c = logits.length;
  const median = c % 2 ? logits[(c - 1) / 2] : (logits[c / 2 - 1] + logits[c / 2]) / 2;
  return { pbo: overfit / c, splits, combinations: c, oos_loss: lost / c, median_logit: median };
}

// engine/verdict/normal.ts
var LOG_ROOT_TWO_PI = 0.9189385332046728;
var ROOT_TWO_PI = 2.5066282746310007;
function normalCdf(x) {
  if (Number.isNaN(x)) return NaN;
  if (x < -8) return 0;
  if (x > 8) return 1;
  const q = x * x;
  let s = x;
  let t = 0;
  let b = x;
  for (let i = 1; s !== t; ) {
    t = s;
    i += 2;
    b *= q / i;
    s = t + b;
  }
  return 0.5 + s * Math.exp(-0.5 * q - LOG_ROOT_TWO_PI);
}
var A = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
var B = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
var C = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
var D = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
var P_LOW = 0.02425;
function normalQuantile(p) {
  if (!(p >= 0 && p <= 1)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  let x;
  if (p < P_LOW || p > 1 - P_LOW) {
    const q = Math.sqrt(-2 * Math.log(p < P_LOW ? p : 1 - p));
    const v = (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1);
    x = p < P_LOW ? v : -v;
  } else {
    const q = p - 0.5;
    const r = q * q;
    x = (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1);
  }
  const u = (normalCdf(x) - p) * ROOT_TWO_PI * Math.exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

// engine/verdict/deflated-sharpe.ts
var EULER_GAMMA = 0.5772156649015329;
function momentsOf(x) {
  const n = x.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i];
  const mean = n ? sum / n : NaN;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (let i = 0; i < n; i++) {
    const d = x[i] - mean;
    const d2 = d * d;
    m2 += d2;
    m3 += d2 * d;
    m4 += d2 * d2;
  }
  m2 /= n;
  m3 /= n;
  m4 /= n;
  const sd = Math.sqrt(m2);
  return { n, mean, sd, skewness: m2 > 0 ? m3 / (m2 * sd) : NaN, kurtosis: m2 > 0 ? m4 / (m2 * m2) : NaN };
}
var sharpeOf = (m) => m.n >= 2 && m.sd > 0 ? m.mean / m.sd : NaN;
function expectedMaxSharpe(trials, variance) {
  if (trials <= 1) return 0;
  return Math.sqrt(variance) * ((1 - EULER_GAMMA) * normalQuantile(1 - 1 / trials) + EULER_GAMMA * normalQuantile(1 - 1 / (trials * Math.E)));
}
function probabilisticSharpe(sr, benchmark, t, skewness, kurtosis) {
  const spread = 1 - skewness * sr + (kurtosis - 1) / 4 * sr * sr;
  if (!(spread > 0) || t < 2) return NaN;
  return normalCdf((sr - benchmark) * Math.sqrt(t - 1) / Math.sqrt(spread));
}
function deflatedSharpe(input) {
  const expected_max = expectedMaxSharpe(input.trials, input.variance);
  return { expected_max, dsr: probabilisticSharpe(input.sr, expected_max, input.t, input.skewness, input.kurtosis) };
}

// engine/verdict/monte-carlo.ts
function drawdownOf(r, keep) {
  let total = 0;
  let peak = 0;
  let drawdown = 0;
  for (let i = 0; i < r.length; i++) {
    if (keep && !keep[i]) continue;
    total += r[i];
    if (total > peak) peak = total;
    else if (peak - total > drawdown) drawdown = peak - total;
  }
  return { total, drawdown };
}
function monteCarloOf(r, paths, skipShare, rng) {
  const shuffled = r.slice();
  const orderDrawdown = new Float64Array(paths);
  const skipFinal = new Float64Array(paths);
  const skipDrawdown = new Float64Array(paths);
  const keep = new Uint8Array(r.length);
  const skipBelow = skipShare * 4294967296;
  let final = 0;
  for (let i = 0; i < r.length; i++) final += r[i];
  for (let p = 0; p < paths; p++) {
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = rng.below(i + 1);
      const x = shuffled[i];
      shuffled[i] = shuffled[j];
      shuffled[j] = x;
    }
    orderDrawdown[p] = drawdownOf(shuffled, null).drawdown;
    for (let i = 0; i < r.length; i++) keep[i] = rng.next() < skipBelow ? 0 : 1;
    const skipped = drawdownOf(r, keep);
    skipFinal[p] = skipped.total;
    skipDrawdown[p] = skipped.drawdown;
  }
  return {
    paths,
    order: { final_r: final, max_drawdown_r: bandsOf(orderDrawdown) },
    skipped: { share: skipShare, final_r: bandsOf(skipFinal), max_drawdown_r: bandsOf(skipDrawdown) }
  };
}

// engine/verdict/grid.ts
var MAX_NEIGHBOURS = 201;
var sig3 = (x) => Number(x.toPrecision(3));
function stepsOf(slot, tfMinutes) {
  const v = slot.value;
  switch (slot.kind) {
    case "length": {
      const s = Math.max(1, Math.round(v / 10));
      return [v - s, v + s].filter((x) => x >= 1 && x <= 500);
    }
    case "minutes": {
      const s = tfMinutes * Math.max(1, Math.round(v / 10 / tfMinutes));
      return [v - s, v + s].filter((x) => x >= tfMinutes && x <= 500);
    }
    case "ticks": {
      const s = Math.max(1, Math.round(v / 4));
      return [v - s, v + s].filter((x) => x > 0);
    }
    case "amount":
      return [sig3(v * 0.75), sig3(v * 1.25)].filter((x) => x > 0 && x !== v);
    case "level":
      return [v - 5, v + 5].filter((x) => x > 0 && x < 100);
  }
}
function slotsOf(copy) {
  const slots = [];
  const operand2 = (o) => {
    if ((o.kind === "ema" || o.kind === "sma" || o.kind === "rsi" || o.kind === "atr") && o.n !== null) {
      slots.push({ key: `${o.kind}:${o.n}`, name: `${o.kind.toUpperCase()} length ${o.n}`, kind: "length", holder: o, field: "n", value: o.n });
    } else if (o.kind === "highest" || o.kind === "lowest") {
      slots.push({ key: `${o.kind}:${o.n}`, name: `${o.kind} of ${o.n} bars`, kind: "length", holder: o, field: "n", value: o.n });
    } else if (o.kind === "opening_range" && o.minutes !== null) {
      slots.push({ key: `opening_range:${o.minutes}`, name: `opening range ${o.minutes} minutes`, kind: "minutes", holder: o, field: "minutes", value: o.minutes });
    }
  };
  const condition = (c) => {
    if ("args" in c) return c.args.forEach(condition);
    if ("level" in c) return operand2(c.level);
    operand2(c.left);
    operand2(c.right);
    for (const [a, b] of [[c.left, c.right], [c.right, c.left]]) {
      if (a.kind === "constant" && b.kind === "rsi") slots.push({ key: `rsi_level:${a.value}`, name: `RSI level ${a.value}`, kind: "level", holder: a, field: "value", value: a.value });
    }
  };
  const distance = (where, d) => {
    const ticks = d.unit === "ticks";
    slots.push({ key: `${where}:${d.unit}:${d.n}`, name: `${where} ${d.n} ${d.unit}`, kind: ticks ? "ticks" : "amount", holder: d, field: "n", value: d.n });
    if (d.unit === "atr" && typeof d.period === "number") slots.push({ key: `atr:${d.period}`, name: `ATR length ${d.period}`, kind: "length", holder: d, field: "period", value: d.period });
  };
  const level2 = (where, x) => {
    if (x.kind === "level") operand2(x.level);
    else distance(where, x.distance);
  };
  for (const t of copy.entry.triggers) condition(t.when);
  const stop = copy.stop;
  if (stop.kind === "distance") distance("stop", stop.distance);
  else {
    operand2(stop.level);
    if (stop.offset) distance("stop offset", stop.offset);
  }
  if (stop.breakeven) distance("breakeven", stop.breakeven);
  const exit = copy.exit;
  if (exit.target) level2("target", exit.target);
  if (exit.trail) level2("trail", exit.trail);
  for (const t of exit.time ?? []) {
    if (t.kind === "bars" || t.kind === "minutes" || t.kind === "hours") {
      slots.push({ key: `time:${t.kind}:${t.n}`, name: `time exit ${t.n} ${t.kind}`, kind: "length", holder: t, field: "n", value: t.n });
    }
  }
  if (exit.when) condition(exit.when);
  return slots;
}
function numbersOf(script, tfMinutes) {
  const seen = /* @__PURE__ */ new Map();
  for (const slot of slotsOf(structuredClone(script))) {
    if (seen.has(slot.key)) continue;
    const [lower, upper] = [stepsOf(slot, tfMinutes).filter((x) => x < slot.value), stepsOf(slot, tfMinutes).filter((x) => x > slot.value)];
    seen.set(slot.key, { name: slot.name, value: slot.value, values: [...lower, slot.value, ...upper] });
  }
  return [...seen.values()].filter((n) => n.values.length > 1);
}
function moved(script, numbers, values, tfMinutes) {
  const copy = structuredClone(script);
  const byKey = new Map(numbers.map((n, i) => [n.name, values[i]]));
  for (const slot of slotsOf(copy)) {
    const to = byKey.get(slot.name);
    if (to !== void 0) slot.holder[slot.field] = to;
  }
  void tfMinutes;
  return copy;
}
function gridOf(script, tfMinutes) {
  const numbers = numbersOf(script, tfMinutes);
  const own = numbers.map((n) => n.value);
  const choices = [own];
  const others = (k) => numbers[k].values.filter((v) => v !== numbers[k].value);
  for (let a = 0; a < numbers.length; a++) for (const x of others(a)) choices.push(own.map((v, i) => i === a ? x : v));
  for (let a = 0; a < numbers.length; a++) {
    for (let b = a + 1; b < numbers.length; b++) {
      for (const x of others(a)) for (const y of others(b)) choices.push(own.map((v, i) => i === a ? x : i === b ? y : v));
    }
  }
  return { numbers, rules: choices.slice(0, MAX_NEIGHBOURS).map((values) => ({ values, script: moved(script, numbers, values, tfMinutes) })) };
}

// engine/verdict/neighbourhood.ts
var SERIES_REFS = /* @__PURE__ */ new Set(["id", "series", "gate", "end"]);
function shapeOf(ir) {
  const kinds = new Map(ir.series.map((x) => [x.id, x.kind]));
  const ids = [];
  const walk2 = (v, key) => {
    if (typeof v === "string" && SERIES_REFS.has(key) && kinds.has(v)) {
      let k = ids.indexOf(v);
      if (k < 0) k = ids.push(v) - 1;
      return `#${k}:${kinds.get(v)}`;
    }
    if (Array.isArray(v)) return v.map((x) => walk2(x, ""));
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk2(x, k)]));
    return v;
  };
  const { series: _series, warm_up_bars: _warm, ...rest } = ir;
  const shape = canonicalJson(walk2(rest, ""));
  for (const x of ir.series) if (!ids.includes(x.id)) ids.push(x.id);
  return { shape: `${shape}|${ir.series.length}`, ids };
}
function neighbourhoodOf(input) {
  const { script, bars, marks: marks2, costs, start, end, known } = input;
  const grid = gridOf(script, input.rule.ir.tf_seconds / 60);
  const runs = [{ values: grid.rules[0].values, ...input.rule }];
  const seen = /* @__PURE__ */ new Set([canonicalJson(input.rule.ir)]);
  const ruleShape = shapeOf(input.rule.ir);
  const compiled2 = /* @__PURE__ */ new Map([[ruleShape.shape, { decider: input.rule.decider, ids: ruleShape.ids, series: input.rule.series }]]);
  let refused = 0;
  for (const rule of grid.rules.slice(1)) {
    let ir;
    try {
      ir = irOf({ ...rule.script, market: input.rule.ir.market });
    } catch (error) {
      if (!(error instanceof DeciderRefusal)) throw error;
      refused++;
      continue;
    }
    const canonical = canonicalJson(ir);
    if (seen.has(canonical)) {
      refused++;
      continue;
    }
    seen.add(canonical);
    const { shape, ids } = shapeOf(ir);
    const own = seriesOf(ir, bars, marks2, known);
    let shared = compiled2.get(shape);
    if (!shared) compiled2.set(shape, shared = { decider: compileDecider(ir, seedHash(ir, input.version), input.version), ids, series: own });
    const series = { ...shared.series };
    shared.ids.forEach((id, k) => series[id] = own[ids[k]]);
    const decider = shared.decider;
    const { trades } = new Machine(decider, series, fillOf(ir, costs)).run(start, end);
    runs.push({ values: rule.values, ir, decider, series, trades });
  }
  return { numbers: grid.numbers, runs, refused };
}
var exitKey = (ir) => canonicalJson({ stop: ir.stop, breakeven: ir.breakeven, target: ir.target, trail: ir.trail, time: ir.time, exit_when: ir.exit_when, session: ir.session, flat: ir.flat_at_session_end });
function nullMeansOf(runs, costs, start, end, draws, seed) {
  const means = new Float64Array(runs.length).fill(NaN);
  const groups = /* @__PURE__ */ new Map();
  runs.forEach((run, k) => {
    if (run.trades.length === 0) return;
    const key = exitKey(run.ir);
    const list = groups.get(key);
    if (list) list.push(k);
    else groups.set(key, [k]);
  });
  const rng = new Prng(seed);
  for (const members of groups.values()) {
    const first = runs[members[0]];
    let cap = 0;
    for (const k of members) for (const t of runs[k].trades) cap = Math.max(cap, t.exitBar - t.fill + 1);
    const fill = fillOf(first.ir, costs);
    const machine = new Machine(first.decider, first.series, fill);
    const gate = first.ir.session.kind === "windows" ? first.series[first.ir.session.gate] : null;
    const sides2 = /* @__PURE__ */ new Map();
    const sideOf = (dir) => {
      let side = sides2.get(dir);
      if (!side) sides2.set(dir, side = new NullSide(dir, machine, first.decider, first.series, gate, start, end, cap, true));
      return side;
    };
    const close = first.series.c;
    for (const k of members) {
      const trades = runs[k].trades;
      let sum = 0;
      for (let d = 0; d < draws; d++) {
        const t = trades[rng.below(trades.length)];
        const side = sideOf(t.dir);
        const i = side.draw(rng);
        if (i >= 0) sum += side.heldR(i, t.exitBar - t.fill + 1, close, fill.slippage);
      }
      means[k] = sum / draws;
    }
  }
  return means;
}

// engine/verdict/spa.ts
function spaOf(d, strategies, periods, draws, block, rng) {
  const K = strategies;
  const T3 = periods;
  if (K < 1 || T3 < 2 || draws < 1) throw new RangeError("spa: one strategy or more, two periods or more, one draw or more");
  const root = Math.sqrt(T3);
  const mean = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    let s = 0;
    for (let t = 0; t < T3; t++) s += d[k * T3 + t];
    mean[k] = s / T3;
  }
  const boot = new Float64Array(draws * K);
  const at2 = new Int32Array(T3);
  const restart = 4294967296 / block;
  for (let b = 0; b < draws; b++) {
    let i = rng.below(T3);
    at2[0] = i;
    for (let t = 1; t < T3; t++) {
      i = rng.next() < restart ? rng.below(T3) : i + 1 === T3 ? 0 : i + 1;
      at2[t] = i;
    }
    for (let k = 0; k < K; k++) {
      const row = k * T3;
      let s = 0;
      for (let t = 0; t < T3; t++) s += d[row + at2[t]];
      boot[b * K + k] = s / T3;
    }
  }
  const omega = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    let v = 0;
    for (let b = 0; b < draws; b++) {
      const x = root * (boot[b * K + k] - mean[k]);
      v += x * x;
    }
    omega[k] = Math.sqrt(v / draws);
  }
  const studentised = (k, x) => omega[k] > 0 ? root * x / omega[k] : x > 0 ? Infinity : x < 0 ? -Infinity : 0;
  let statistic = 0;
  let rc = -Infinity;
  for (let k = 0; k < K; k++) {
    statistic = Math.max(statistic, studentised(k, mean[k]));
    rc = Math.max(rc, root * mean[k]);
  }
  const threshold = -Math.sqrt(2 * Math.log(Math.log(T3)));
  const lower = Float64Array.from(mean, (m) => Math.max(m, 0));
  const consistent = Float64Array.from(mean, (m, k) => studentised(k, m) >= threshold ? m : 0);
  let overC = 0;
  let overL = 0;
  let overU = 0;
  let overRc = 0;
  for (let b = 0; b < draws; b++) {
    let c = 0;
    let l = 0;
    let u = 0;
    let v = -Infinity;
    for (let k = 0; k < K; k++) {
      const x = boot[b * K + k];
      c = Math.max(c, studentised(k, x - consistent[k]));
      l = Math.max(l, studentised(k, x - lower[k]));
      u = Math.max(u, studentised(k, x - mean[k]));
      v = Math.max(v, root * (x - mean[k]));
    }
    if (c >= statistic) overC++;
    if (l >= statistic) overL++;
    if (u >= statistic) overU++;
    if (v >= rc) overRc++;
  }
  return {
    draws,
    block,
    statistic,
    p_consistent: overC / draws,
    p_lower: overL / draws,
    p_upper: overU / draws,
    reality_check: { statistic: rc, p: overRc / draws }
  };
}

// engine/verdict/words.ts
var fixed2 = (x) => x.toFixed(2);
function labelOf(v) {
  if (v.deflated_sharpe.trades === 0) return "no_trades";
  if (v.bias.look_ahead.changed > 0 || v.bias.look_ahead.series_changed > 0) return "look_ahead";
  if (v.costs.expectancy_r && v.costs.expectancy_r.after_costs <= 0) return "no_edge";
  const dsr = v.deflated_sharpe.dsr;
  const p = v.search?.p ?? null;
  const pbo = v.neighbourhood.pbo?.pbo ?? null;
  const share = v.neighbourhood.rules > 1 ? v.neighbourhood.share_positive : null;
  if (dsr !== null && dsr < 0.5 || p !== null && p > 0.1) return "likely_luck";
  if (pbo !== null && pbo >= 0.5 || share !== null && share < 0.5) return "likely_overfit";
  const warm = v.bias.warm_up.every((w) => w.trades_changed === 0);
  if (dsr !== null && dsr >= 0.95 && p !== null && p <= 0.05 && (pbo === null || pbo < 0.25) && (share === null || share >= 2 / 3) && warm) return "holds_up";
  return "mixed";
}
var OPENING = {
  no_trades: "No verdict",
  look_ahead: "Look-ahead found",
  no_edge: "No edge",
  likely_luck: "Likely luck",
  likely_overfit: "Likely overfit",
  mixed: "Mixed evidence",
  holds_up: "Holds up on these bars"
};
function wordsOf(v) {
  const label = labelOf(v);
  if (label === "no_trades") return { label, words: "No verdict: the rule took no trades on these bars, so there is nothing to weigh against luck." };
  const la = v.bias.look_ahead;
  if (label === "look_ahead") {
    return { label, words: `Look-ahead found: cutting the future off changed ${la.changed + la.series_changed} decision(s) or series, so none of these figures can be trusted.` };
  }
  const d = v.deflated_sharpe;
  const h = v.neighbourhood;
  const parts = [];
  if (h.rules > 1) parts.push(`${h.positive} of ${h.rules} neighbours keep a positive total R`);
  if (label === "no_edge") parts.push(`the rule's ${v.deflated_sharpe.trades} trades lost ${fixed2(-(v.monte_carlo?.order.final_r ?? 0))}R in all after costs`);
  if (d.dsr !== null) parts.push(`deflated Sharpe ${fixed2(d.dsr)} after your ${d.trials.n} trial${d.trials.n === 1 ? "" : "s"} on ${d.trials.market} ${d.trials.timeframe}`);
  if (h.pbo) parts.push(`PBO ${fixed2(h.pbo.pbo)}`);
  if (v.search) parts.push(`SPA p ${fixed2(v.search.p)} against random entries`);
  const be = v.costs.break_even;
  parts.push(be ? `the edge is gone at ${fixed2(be.r)}R of cost a trade (${fixed2(be.times_current ?? 0)} times today's costs)` : "the trades lose before any cost");
  const warm = v.bias.warm_up.filter((w) => w.trades_changed > 0);
  if (warm.length) parts.push(`a longer warm-up changes ${Math.max(...warm.map((w) => w.trades_changed))} trade(s)`);
  return { label, words: `${OPENING[label]}: ${parts.join(", ")}.` };
}

// engine/verdict/verdict.ts
var SPLITS2 = 16;
var PERIODS2 = 128;
var MC_PATHS = 1e3;
var SKIP_SHARE = 0.1;
var SPA_DRAWS = 1e3;
var NULL_MEAN_DRAWS = 4e3;
var orNull = (x) => Number.isFinite(x) ? round4(x) : null;
function varianceOf(xs) {
  const v = xs.filter(Number.isFinite);
  if (v.length < 2) return NaN;
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  return v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1);
}
function perPeriod(runs, benchmark, start, end, periods) {
  const out = new Float64Array(runs.length * periods);
  const bars = end - start;
  runs.forEach((run, k) => {
    const less = benchmark ? benchmark[k] : 0;
    for (const t of run.trades) out[k * periods + Math.min(periods - 1, Math.floor((t.exitBar - start) * periods / bars))] += t.r - (less === less ? less : 0);
  });
  return out;
}
function verdictOf(x) {
  const r = Float64Array.from(x.trades, (t) => t.r);
  const moments = momentsOf(r);
  const sr = sharpeOf(moments);
  const rng = (what) => new Prng(`${x.seed}/verdict/${what}`);
  const known = /* @__PURE__ */ new Map();
  for (const spec of x.ir.series) known.set(spec.id, x.series[spec.id]);
  const hood = neighbourhoodOf({
    script: x.script,
    version: x.version,
    bars: x.bars,
    marks: x.marks,
    costs: x.costs,
    start: x.start,
    end: x.end,
    rule: { ir: x.ir, decider: x.decider, series: x.series, trades: x.trades },
    known
  });
  const totals = hood.runs.map((run) => run.trades.reduce((s, t) => s + t.r, 0));
  const sharpes = hood.runs.map((run) => sharpeOf(momentsOf(Float64Array.from(run.trades, (t) => t.r))));
  const positive2 = totals.filter((t) => t > 0).length;
  const n = x.trials.rules + 1;
  const recorded = [...x.trials.sharpes, sr];
  let variance = varianceOf(recorded);
  let from = Number.isFinite(variance) ? "record" : null;
  if (!from && n > 1) {
    variance = varianceOf(sharpes);
    from = Number.isFinite(variance) ? "neighbourhood" : null;
  }
  const dsr = Number.isFinite(sr) && (n === 1 || from) ? deflatedSharpe({ sr, t: moments.n, skewness: moments.skewness, kurtosis: moments.kurtosis, trials: n, variance: n === 1 ? 0 : variance }) : null;
  const bars = x.end - x.start;
  const splits = bars >= PERIODS2 ? SPLITS2 : bars >= 32 ? 8 : 0;
  const periods = splits ? Math.min(PERIODS2, bars - bars % splits) : 0;
  const anyTrades = hood.runs.some((run) => run.trades.length > 0);
  const pbo = splits && hood.runs.length >= 2 && anyTrades ? pboOf(perPeriod(hood.runs, null, x.start, x.end, periods), hood.runs.length, periods, splits) : null;
  let search2 = null;
  if (periods && anyTrades) {
    const means = nullMeansOf(hood.runs, x.costs, x.start, x.end, NULL_MEAN_DRAWS, `${x.seed}/verdict/null-means`);
    if (x.nullTotals.length > 0 && x.trades.length > 0) means[0] = x.nullTotals.reduce((a, b) => a + b, 0) / x.nullTotals.length / x.trades.length;
    const block = Math.max(1, Math.round(Math.cbrt(periods)));
    const spa = spaOf(perPeriod(hood.runs, means, x.start, x.end, periods), hood.runs.length, periods, SPA_DRAWS, block, rng("spa"));
    search2 = {
      rules: hood.runs.length,
      periods,
      block,
      draws: SPA_DRAWS,
      null_draws: NULL_MEAN_DRAWS,
      rule_null_mean_r: orNull(means[0]),
      statistic: round4(spa.statistic),
      p: spa.p_consistent,
      p_lower: spa.p_lower,
      p_upper: spa.p_upper,
      reality_check: { statistic: round4(spa.reality_check.statistic), p: spa.reality_check.p }
    };
  }
  const cut = { ir: x.ir, decider: x.decider, bars: x.bars, series: x.series, marks: x.marks, fill: x.fill, start: x.start, end: x.end, trades: x.trades };
  const lookAhead2 = lookAheadOf(cut);
  const warmUps = warmUpsOf({ ...cut, longBars: x.longBars, first: x.first, from: x.bars.t[x.start] });
  const verdict = {
    version: VERDICT_VERSION,
    deflated_sharpe: {
      sharpe: orNull(sr),
      trades: moments.n,
      skewness: orNull(moments.skewness),
      kurtosis: orNull(moments.kurtosis),
      trials: { n, market: x.ir.market, timeframe: x.ir.timeframe, others_rehearsed: x.trials.sharpes.length, variance: n > 1 ? orNull(variance) : null, variance_from: n > 1 ? from : null },
      probabilistic_sharpe: Number.isFinite(sr) ? orNull(probabilisticSharpe(sr, 0, moments.n, moments.skewness, moments.kurtosis)) : null,
      expected_max_sharpe: dsr ? orNull(dsr.expected_max) : null,
      dsr: dsr ? orNull(dsr.dsr) : null
    },
    neighbourhood: {
      numbers: hood.numbers,
      rules: hood.runs.length,
      left_out: hood.refused,
      positive: positive2,
      share_positive: round4(positive2 / hood.runs.length),
      total_r: bandsOf(Float64Array.from(totals)),
      results: hood.runs.map((run, k) => ({ values: run.values, trades: run.trades.length, total_r: round4(totals[k]) })),
      pbo: pbo ? { splits: pbo.splits, combinations: pbo.combinations, periods, pbo: round4(pbo.pbo), oos_loss: round4(pbo.oos_loss), median_logit: round4(pbo.median_logit) } : null
    },
    search: search2,
    monte_carlo: r.length > 0 ? monteCarloOf(r, MC_PATHS, SKIP_SHARE, rng("monte-carlo")) : null,
    costs: costsOf(x.trades, x.ir.market, x.costs, x.fill.slippage),
    bias: {
      look_ahead: lookAhead2,
      warm_up: warmUps.map((w) => ({ ...w, total_r_delta: round4(w.total_r_delta) }))
    }
  };
  if (verdict.monte_carlo) verdict.monte_carlo.order.final_r = round4(verdict.monte_carlo.order.final_r);
  return { ...wordsOf(verdict), ...verdict };
}
var neighboursOf = (v) => v ? v.neighbourhood.results.slice(1).map((x) => x.total_r) : [];

// engine/stepper/rehearse.ts
var DEFAULT_NULL_RUNS = 1e3;
var tradeOf = (x, t) => ({
  side: x.dir > 0 ? "long" : "short",
  entry_t: t[x.fill],
  entry: x.entry,
  stop: x.stop,
  target: Number.isNaN(x.target) ? null : x.target,
  exit_t: x.exitT,
  exit: x.exit,
  r: round4(x.r),
  why: EXIT_WHY[x.why]
});
function rehearse(ir, decider, given, options) {
  const costs = options.costs ?? DEFAULT_COSTS[ir.market];
  const fill = fillOf(ir, costs);
  const { slippage } = fill;
  const first = options.verdict && options.from !== void 0 ? firstAtOrAfter(given.t, warmStart(ir.market, options.from, ir.warm_up_bars * ir.tf_seconds, ir.tf_seconds)) : 0;
  const bars = first > 0 ? windowOf(given, first, given.length) : given;
  const series = seriesOf(ir, bars, options.marks);
  const machine = new Machine(decider, series, fill);
  const start = options.from === void 0 ? 0 : firstAtOrAfter(bars.t, options.from);
  const end = bars.length;
  if (end - start < 2) throw new RangeError("a rehearsal needs at least two bars in its window");
  const phase = options.phase ?? (() => {
  });
  phase({ phase: "stepping", bars: end - start });
  const { trades, skipped } = machine.run(start, end);
  const stats = statsOf(trades);
  let totals = new Float64Array(0);
  const runs = options.nullRuns ?? DEFAULT_NULL_RUNS;
  phase({ phase: "null", runs });
  const nullReport = randomNull({
    machine,
    decider,
    series,
    ir,
    trades,
    start,
    end,
    slippage,
    runs,
    seed: options.seed,
    totals: (t) => {
      totals = t;
      options.nullTotals?.(t);
    }
  });
  const k = options.folds;
  if (k !== void 0 && !(Number.isInteger(k) && k >= 2 && k <= MAX_FOLDS)) throw new RangeError(`folds: 2 to ${MAX_FOLDS}`);
  const window2 = { from: bars.t[start], to: bars.t[end - 1] + ir.tf_seconds, bars: end - start, warm_up_bars: start, ...readinessOf(ir, bars, series, start, end) };
  const ask = options.verdict;
  if (ask) phase({ phase: "verdict" });
  const verdict = ask ? verdictOf({
    ...ask,
    ir,
    decider,
    bars,
    series,
    longBars: given,
    first,
    marks: options.marks ?? [],
    costs,
    fill,
    start,
    end,
    trades,
    nullTotals: totals,
    seed: options.seed
  }) : void 0;
  if (k !== void 0) phase({ phase: "folds", folds: k });
  const folds = k === void 0 ? null : foldsOf(trades, bars.t, ir.tf_seconds, start, end, k);
  return {
    version: REHEARSAL_VERSION,
    market: ir.market,
    timeframe: ir.timeframe,
    window: window2,
    costs: { ...costs, slippage },
    trades: trades.map((x) => tradeOf(x, bars.t)),
    skipped,
    stats,
    null: { ...nullReport, histogram: nullBins(totals, [nullReport.rule_total_r, ...neighboursOf(verdict)]) },
    folds,
    ...verdict ? { verdict } : {},
    summary: summaryOf({ ir, window: window2, stats, null: nullReport, verdict: verdict?.words })
  };
}

// engine/decider/plain.ts
var FLAT_AT_WINDOW_END = "a trade still open when its session window ends is closed at the close of the bar that ends the window (flat at window end)";
var num2 = (x) => JSON.stringify(x);
var hhmm2 = (minute) => `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
var dayStart = (day) => day === "cme" ? "17:00 America/Chicago" : "00:00 UTC";
var FIELD = { o: "open", h: "high", l: "low", c: "close" };
var ordinal2 = (n) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
};
var untilWords = (until) => until && until.length > 0 ? ` and before ${until.map((c) => `${hhmm2(c.minute)} ${c.zone}`).join(" or ")} has come round since the window opened (the clock exit closes its entries)` : "";
var Words = class {
  constructor(ir) {
    this.ir = ir;
    this.specs = new Map(ir.series.map((s) => [s.id, s]));
  }
  ir;
  specs;
  series(id) {
    const s = this.specs.get(id);
    if (!s) return `the series ${id}`;
    switch (s.kind) {
      case "ema":
        return `the ${s.params.n}-bar EMA of the closes`;
      case "sma":
        return `the ${s.params.n}-bar SMA of the closes`;
      case "rsi":
        return `RSI(${s.params.n}) of the closes`;
      case "atr":
        return `ATR(${s.params.n})`;
      case "vwap":
        return `the VWAP of the trading day (volume-weighted typical price since ${dayStart(s.params.day)})`;
      case "highest":
        return `the highest high of the ${s.params.n} bars before`;
      case "lowest":
        return `the lowest low of the ${s.params.n} bars before`;
      case "prior_day":
        return `the prior trading day's ${s.params.field} (trading days from ${dayStart(s.params.day)})`;
      case "opening_range":
        return `the opening range ${s.params.field} (the ${s.params.field === "high" ? "highest high" : "lowest low"} of the bars opening in the first ${s.params.minutes} minutes from ${hhmm2(s.params.open)} ${s.params.zone}${s.params.zone === "UTC" ? "" : " on weekdays"}, known from the close of its last bar)`;
      case "session_gate":
      case "session_end":
        return "the session window";
      case "next_clock":
        return `${hhmm2(s.params.minute)} ${s.params.zone}`;
      case "swing":
        return `the most recent swing ${s.params.field} (the ${s.params.field} of a bar that the ${s.params.strength} bars before it do not reach and the ${s.params.strength} bars after it do not pass, known at the close of the last of them)`;
      case "bollinger":
        return s.params.band === "middle" ? `the middle Bollinger band (the ${s.params.n}-bar SMA of the closes)` : `the ${s.params.band} Bollinger band (the ${s.params.n}-bar SMA of the closes ${s.params.band === "upper" ? "plus" : "less"} ${num2(s.params.k)} population standard deviations of them)`;
    }
  }
  value(v, ctx) {
    switch (v.src) {
      case "bar":
        return `the bar's ${FIELD[v.field]}`;
      case "series":
        return this.series(v.id);
      case "constant":
        return num2(v.value);
      case "signal_bar":
        return ctx === "entry" ? `this bar's ${FIELD[v.field]}` : `the signal bar's ${FIELD[v.field]}`;
      case "previous_bar":
        return `the ${FIELD[v.field]} of the bar before`;
    }
  }
  marks(shape) {
    return `one of the trader's ${shape === "any" ? "" : `${shape} `}marks`;
  }
  /** An operand as one thing, and at its top and bottom edge (the same words for a single price). */
  operand(o, ctx) {
    if (o.kind === "point") {
      const w = this.value(o.at, ctx);
      return { whole: w, top: w, bottom: w };
    }
    if (o.kind === "zone") {
      const top = this.value(o.hi, ctx);
      const bottom = this.value(o.lo, ctx);
      return { whole: `the zone from ${bottom} to ${top}`, top, bottom };
    }
    const whole = this.marks(o.shape);
    return o.shape === "level" ? { whole, top: whole, bottom: whole } : { whole, top: `the top of ${whole}`, bottom: `the bottom of ${whole}` };
  }
  cond(c, ctx) {
    if ("args" in c) return `(${c.args.map((a2) => this.cond(a2, ctx)).join(c.op === "and" ? " and " : " or ")})`;
    const fill = (template, slots) => template.replace(/\{(\w+)\}/g, (_, k) => slots[k] ?? k);
    if ("level" in c) {
      const level2 = this.operand(c.level, ctx);
      return fill(CONDITION_MEANINGS[c.op], { level: level2.whole, top: level2.top, bottom: level2.bottom });
    }
    const left = this.operand(c.left, ctx);
    const right = this.operand(c.right, ctx);
    const [a, b] = c.op === "above" || c.op === "crosses_above" ? [left.bottom, right.top] : c.op === "below" || c.op === "crosses_below" ? [left.top, right.bottom] : [left.whole, right.whole];
    return fill(CONDITION_MEANINGS[c.op], { a, b });
  }
  /** A distance in price, `of` naming what a fraction is of and `when` when an ATR is read. */
  distance(d, of, when2) {
    switch (d.unit) {
      case "price": {
        const ticks = d.value / this.ir.tick;
        const whole = Math.round(ticks);
        if (Math.abs(ticks - whole) > 1e-9) return `${num2(d.value)} points`;
        return `${num2(d.value)} points (${whole} tick${whole === 1 ? "" : "s"} of ${num2(this.ir.tick)})`;
      }
      case "fraction":
        return `${num2(Math.round(d.value * 1e10) / 1e8)}% of ${of}`;
      case "atr":
        return `${num2(d.mult)} x ${this.series(d.series)} at ${when2}`;
      case "range":
        return `${num2(d.mult)} x the height of the range from ${this.series(d.lo)} to ${this.series(d.hi)} at ${when2}`;
      case "r":
        return `${num2(d.value)}R (${num2(d.value)} times the distance from the entry fill to the initial stop)`;
    }
  }
  /** A level a trade reads. Marks: the nearest one on the losing side of `ref` (protect) or beyond it (target). */
  level(o, ref, role) {
    if (o.kind === "mark") {
      const where = role === "protect" ? `below ${ref} for a long, above it for a short` : `above ${ref} for a long, below it for a short`;
      return `the nearest of ${this.marks(o.shape).replace(/^one of /, "")} ${where} (a mark's bottom edge for a long, its top edge for a short)`;
    }
    if (o.kind === "zone") return `${this.value(o.lo, "trade")} for a long, ${this.value(o.hi, "trade")} for a short`;
    return this.value(o.at, "trade");
  }
  stop() {
    const s = this.ir.stop;
    if (s.kind === "distance") {
      return `Stop: ${this.distance(s.distance, "the entry fill price", "the signal bar's close")} from the entry fill, below a long and above a short, placed when the entry fills.`;
    }
    const level2 = `${this.level(s.level, "the entry fill", "protect")}, as it stood at the signal bar's close`;
    if (s.where === "at") return `Stop: at ${level2}.`;
    const where = s.where === "beyond" ? "beyond (below for a long, above for a short)" : s.where;
    return `Stop: ${this.distance(s.offset, "the level", "the signal bar's close")} ${where} ${level2}.`;
  }
  lines() {
    const ir = this.ir;
    const out = [];
    const sides2 = ir.side === "both" ? "long and short" : `${ir.side} only`;
    out.push(`What the forged code does (${ir.ir}): it trades ${ir.market} on ${ir.timeframe} bars, ${sides2}, one trade at a time.`);
    out.push(
      ir.session.kind === "always" ? "When: at any time; every decision is made at a bar's close." : `When: it may enter only when a bar's close falls inside ${ir.session.windows.map((w) => `${hhmm2(w.from)}-${hhmm2(w.to)}`).join(" or ")} ${ir.session.zone} (a window is [from, to); one whose from is later than its to runs through midnight)${untilWords(ir.session.until)}; every decision is made at a bar's close.`
    );
    for (const side of ["long", "short"]) {
      const c = ir.entry[side];
      if (c) out.push(`Enter ${side} when ${this.cond(c, "entry")}; the entry fills at the next bar's open.`);
    }
    if (ir.entry.long && ir.entry.short) out.push("When the long and the short trigger hold on the same bar, neither is taken.");
    out.push(this.stop());
    out.push("An entry whose stop would not lie beyond its fill (on the losing side) is skipped.");
    if (ir.breakeven) {
      out.push(
        `Breakeven: once the best price since the entry (the highest high long, the lowest low short) reaches ${this.distance(ir.breakeven, "the entry fill price", "the signal bar's close")} beyond the entry fill, the stop moves to the entry at that bar's close.`
      );
    }
    const t = ir.target;
    if (t?.kind === "distance") out.push(`Target: ${this.distance(t.distance, "the entry fill price", "the signal bar's close")} beyond the entry fill.`);
    if (t?.kind === "level") out.push(`Target: at ${this.level(t.level, "the entry", "target")}, read again at each bar's close and counted only while it lies beyond the entry.`);
    const tr = ir.trail;
    if (tr?.kind === "distance") {
      out.push(`Trailing stop: ${this.distance(tr.distance, "the best price", "each bar's close")} behind the best price since the entry, moved at each bar's close, only ever tightening the stop.`);
    }
    if (tr?.kind === "level") out.push(`Trailing stop: at ${this.level(tr.level, "the bar's close", "protect")} as it stands at each bar's close, only ever tightening the stop.`);
    for (const x of ir.time) {
      if (x.kind === "bars") out.push(`Time exit: at the close of the ${ordinal2(x.n)} bar of the trade (the entry bar is the first).`);
      if (x.kind === "seconds") out.push(`Time exit: at the close of the first bar that closes ${num2(x.n / 60)} minutes or more after the entry fill.`);
      if (x.kind === "clock") out.push(`Clock exit: at the close of the bar that reaches the first ${this.series(x.series)} after the entry.`);
      if (x.kind === "session_close") {
        out.push(
          x.series === (ir.session.kind === "windows" ? ir.session.end : null) ? "Close exit: at the close of the bar that ends the session window." : `Close exit: at the close of the bar that reaches the first ${this.series(x.series)} after the entry (${MARKET_SPECS[ir.market].kind === "cme" ? "the cash session's close" : "the end of the UTC day"}).`
        );
      }
    }
    if (ir.exit_when) out.push(`Exit rule: at the next bar's open after a bar where ${this.cond(ir.exit_when, "trade")}.`);
    if (ir.flat_at_session_end) out.push(`Session end: ${FLAT_AT_WINDOW_END}; the rule names no clock or close exit of its own.`);
    out.push(
      "Fills (the stepper's): entries and rule exits at the next bar's open; a stop or target inside a bar at its price, the stop first when both are in the bar's range; an open at or beyond the stop or the target at that open; time, clock and session exits at the bar's close; a trade still open when the bars run out at the last close."
    );
    return out;
  }
};
var inWords2 = (ir) => `${new Words(ir).lines().join("\n")}
`;

// engine/decider/script.ts
import { z as z6 } from "zod";
var SCRIPT_VERSION = "script.v1";
var ScriptSchema = z6.strictObject({
  version: z6.literal(SCRIPT_VERSION),
  market: MarketSchema,
  timeframe: TimeframeSchema,
  session: SessionSchema,
  side: SideSchema,
  entry: EntrySchema,
  stop: StopSchema,
  exit: ExitSchema
});
function scriptOfReading(reading) {
  const refused = [];
  for (const part of PARTS) {
    const { status, hint } = reading[part];
    if (!isSettled(status)) refused.push({ part, status, ...hint !== void 0 ? { hint } : {} });
  }
  if (refused.length > 0) {
    const message = `a script needs all seven parts read: ${refused.map((r) => `${r.part} is ${r.status}`).join(", ")}`;
    return { ok: false, refused, message };
  }
  const value = (part) => reading[part].value;
  return {
    ok: true,
    script: {
      version: SCRIPT_VERSION,
      market: value("market"),
      timeframe: value("timeframe"),
      session: value("session"),
      side: value("side"),
      entry: value("entry"),
      stop: value("stop"),
      exit: value("exit")
    }
  };
}
var trialSession = (market, given) => given ?? defaultSession(market).session;

// engine/decider/outlive.ts
var WEEKS = [Date.UTC(2024, 0, 8) / 1e3, Date.UTC(2024, 6, 8) / 1e3];
var WEEK = 7 * 86400;
function referenceBars(step) {
  const per = WEEK / step;
  const bars = allocBars(per * WEEKS.length);
  WEEKS.forEach((monday, w) => {
    for (let k = 0; k < per; k++) bars.t[w * per + k] = monday + k * step;
  });
  return bars;
}
function clockClosesEntries(session, tf) {
  if (!session.until || session.until.length === 0) return false;
  const step = Math.max(tf, 60);
  const bars = referenceBars(step);
  const open2 = sessionGate(bars, { zone: session.zone, windows: session.windows }, step);
  const gated = sessionGate(bars, session, step);
  return open2.some((g, i) => g === 1 && gated[i] === 0);
}
function outlivingEntry(session, clocks, day, tf) {
  if (clocks.length === 0) return null;
  const step = Math.max(tf, 60);
  const bars = referenceBars(step);
  const gate = "windows" in session ? sessionGate(bars, session, step) : null;
  const key = tradingDay(day);
  for (let i = 0; i < bars.length; i++) {
    if (gate !== null && gate[i] !== 1) continue;
    const fill = bars.t[i] + step;
    let exit = Infinity;
    let clock = clocks[0];
    for (const c of clocks) {
      const at2 = clockAfter(c, fill);
      if (at2 < exit) [exit, clock] = [at2, c];
    }
    if (key(exit - 1) !== key(fill)) return { fill, exit, clock };
  }
  return null;
}
var hhmm3 = (t, offset) => {
  const m = Math.floor(((t + offset) % 86400 + 86400) % 86400 / 60);
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
};
function outlivingWords({ fill, exit, clock }) {
  const [f, x] = [zoneOffset(clock.zone, fill), zoneOffset(clock.zone, exit)];
  const days = localDay(exit, x) - localDay(fill, f);
  const when2 = days === 1 ? "the next day" : `${days} days later`;
  return `entries outlive the clock exit: a trade filled at ${hhmm3(fill, f)} ${clock.zone} is held to ${hhmm3(exit, x)} ${clock.zone} ${when2}`;
}
var clockText = (c) => `${String(Math.floor(c.minute / 60)).padStart(2, "0")}:${String(c.minute % 60).padStart(2, "0")} ${c.zone}`;
var clockClosingWords = (clocks) => `a clock exit closes the entry window too: no trade opens in a window once ${clocks.map(clockText).join(" or ")} has come round in it`;

// engine/decider/unsaid.ts
var minuteOf2 = (at2) => Number(at2.slice(0, 2)) * 60 + Number(at2.slice(3, 5));
function notes(reading, session) {
  const time2 = reading.exit.value?.time ?? [];
  const clocks = time2.flatMap((t) => t.kind === "clock" ? [{ zone: t.zone, minute: minuteOf2(t.at) }] : []);
  const out = [];
  if (session.kind === "windows" && !time2.some((t) => t.kind === "clock" || t.kind === "session_close")) {
    out.push(`as forged, ${FLAT_AT_WINDOW_END}: the words name no time to be out`);
  }
  if (clocks.length === 0) return out;
  const market = reading.market.status === "read" ? reading.market.value : null;
  const tf = reading.timeframe.status === "read" ? reading.timeframe.value : null;
  if (market === null || tf === null) return out;
  const gate = session.kind === "windows" ? { zone: session.zone, windows: session.windows.map((w) => ({ from: minuteOf2(w.from), to: minuteOf2(w.to) })), until: clocks } : session;
  if ("windows" in gate && clockClosesEntries(gate, TIMEFRAME_SECONDS[tf])) out.push(`as forged, ${clockClosingWords(clocks)}`);
  const outliving = outlivingEntry(gate, clocks, MARKET_SPECS[market].kind === "cme" ? "cme" : "utc", TIMEFRAME_SECONDS[tf]);
  if (outliving) out.push(`as forged, ${outlivingWords(outliving)}: give a window that ends at the exit time to trade only before it`);
  return out;
}
function noteUnsaid(reading) {
  const session = reading.session.value;
  if (session === null) return reading;
  const said2 = notes(reading, session);
  if (said2.length === 0) return reading;
  const note = [...reading.session.note ? [reading.session.note] : [], ...said2].join("; ");
  return { ...reading, session: { ...reading.session, note } };
}

// engine/decider/index.ts
var DECIDER_VERSION = "forge.decider.v1";

// engine/forge/review.ts
import { z as z7 } from "zod";

// engine/forge/code.ts
var PUNCT = ["===", "!==", ">>>", "...", "=>", ">=", "<=", "==", "!=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "??", "?."];
var NUMBER = /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/;
var NAME = /^[A-Za-z_$][\w$]*/;
function lex2(code) {
  const out = [];
  let line = 1;
  let i = 0;
  const push = (kind, text) => {
    out.push({ kind, text, line });
    line += text.split("\n").length - 1;
    i += text.length;
  };
  while (i < code.length) {
    const ch = code[i];
    const rest = code.slice(i, i + 200);
    if (ch === "\n") {
      line++;
      i++;
    } else if (/\s/.test(ch)) {
      i++;
    } else if (code.startsWith("//", i)) {
      const end = code.indexOf("\n", i);
      push("comment", code.slice(i, end === -1 ? code.length : end));
    } else if (code.startsWith("/*", i)) {
      const end = code.indexOf("*/", i + 2);
      push("comment", code.slice(i, end === -1 ? code.length : end + 2));
    } else if (ch === "'" || ch === '"' || ch === "`") {
      let j = i + 1;
      while (j < code.length && code[j] !== ch) j += code[j] === "\\" ? 2 : 1;
      push("string", code.slice(i, Math.min(j + 1, code.length)));
    } else if (/[\d.]/.test(ch) && NUMBER.test(rest) && !(ch === "." && !/^\.\d/.test(rest))) {
      push("number", NUMBER.exec(rest)[0]);
    } else if (NAME.test(rest)) {
      push("name", NAME.exec(rest)[0]);
    } else {
      push("punct", PUNCT.find((p) => code.startsWith(p, i)) ?? ch);
    }
  }
  return out;
}
function closing(tokens, open2) {
  const pair = { "(": ")", "[": "]", "{": "}" };
  const want = pair[tokens[open2].text];
  let depth = 0;
  for (let j = open2; j < tokens.length; j++) {
    const t = tokens[j].text;
    if (t === tokens[open2].text) depth++;
    else if (t === want && --depth === 0) return j;
  }
  return tokens.length - 1;
}
function readCode(code) {
  const all = lex2(code);
  const comments = all.filter((t) => t.kind === "comment");
  const tokens = all.filter((t, k) => t.kind !== "comment" && !(t.text === "!" && all[k - 1]?.text === "]"));
  const functions = [];
  for (let k = 0; k < tokens.length; k++) {
    if (tokens[k].text !== "function" || tokens[k + 1]?.kind !== "name") continue;
    const body = tokens.findIndex((t, j) => j > k && t.text === "{");
    if (body === -1) continue;
    const end = closing(tokens, body);
    functions.push({ name: tokens[k + 1].text, line: tokens[k].line, end: tokens[end].line, from: body + 1, to: end });
  }
  const fnAt = (k) => functions.find((f) => k >= f.from && k < f.to)?.name ?? null;
  const reads = [];
  for (let k = 0; k + 3 < tokens.length; k++) {
    const [s, dot, array, open2] = [tokens[k], tokens[k + 1], tokens[k + 2], tokens[k + 3]];
    if (s.text !== "s" || dot.text !== "." || array.kind !== "name" || open2.text !== "[") continue;
    if (tokens[k - 1]?.text === ".") continue;
    const end = closing(tokens, k + 3);
    const index = tokens.slice(k + 4, end).map((t) => t.text).join(" ");
    reads.push({ line: s.line, array: array.text, index, fn: fnAt(k), at: k });
  }
  return { lines: code.split("\n"), tokens, comments, functions, reads };
}
function lineOf(model, pattern, fn) {
  const span2 = fn === void 0 ? null : model.functions.find((f) => f.name === fn);
  if (fn !== void 0 && !span2) return null;
  const from = span2 ? span2.line : 1;
  const to = span2 ? span2.end : model.lines.length;
  for (let n = from; n <= to; n++) if (pattern.test(model.lines[n - 1])) return n;
  return null;
}
function linesOf(model, pattern) {
  return model.lines.flatMap((l, k) => pattern.test(l) ? [k + 1] : []);
}

// engine/forge/review.ts
var REVIEW_CLASSES = [
  "look-ahead",
  "repainting",
  "missing stop",
  "unreachable state",
  "indicator warm-up",
  "same-bar stop and target order",
  "session leak",
  "unit mismatch",
  "unbounded state"
];
var FindingSchema = z7.strictObject({ line: z7.number().int().min(1), message: z7.string().min(1) });
var ReviewSchema = z7.strictObject({
  classes: z7.array(
    z7.strictObject({
      name: z7.enum(REVIEW_CLASSES),
      status: z7.enum(["passed", "flagged"]),
      findings: z7.array(FindingSchema)
    })
  ).length(REVIEW_CLASSES.length),
  notes: z7.array(FindingSchema)
});
var leaves = (c) => "args" in c ? c.args.flatMap(leaves) : [c];
var operandsOf2 = (c) => "level" in c ? [c.level] : [c.left, c.right];
var valuesOf = (o) => o.kind === "point" ? [o.at] : o.kind === "zone" ? [o.lo, o.hi] : [];
var conditionsOf = (ir) => [
  ...ir.entry.long ? [{ fn: "enterLong", cond: ir.entry.long }] : [],
  ...ir.entry.short ? [{ fn: "enterShort", cond: ir.entry.short }] : [],
  ...ir.exit_when ? [{ fn: "exitRule", cond: ir.exit_when }] : []
];
var levelsOf = (ir) => [
  ...ir.stop?.kind === "level" ? [{ what: "stop", level: ir.stop.level, at: /const (stop|base) = / }] : [],
  ...ir.target?.kind === "level" ? [{ what: "target", level: ir.target.level, at: /const x = |st\.target = / }] : [],
  ...ir.trail?.kind === "level" ? [{ what: "trail", level: ir.trail.level, at: /const trail = / }] : []
];
var HELD = ["in_long", "in_short"];
var MARK_ARRAYS = /* @__PURE__ */ new Set(["markLo", "markHi", "markShape"]);
var BAR_ARRAYS = /* @__PURE__ */ new Set(["t", "o", "h", "l", "c", "v"]);
var escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
function assignmentsTo(m, path) {
  const parts = path.split(".");
  const out = [];
  const toks = m.tokens;
  for (let k = 0; k + 2 * parts.length - 1 < toks.length; k++) {
    if (toks[k - 1]?.text === ".") continue;
    const names = [];
    let j = k;
    let ok = true;
    for (let p = 0; p < parts.length; p++) {
      const t = toks[j];
      if (!t || t.kind !== "name" || parts[p] !== "*" && t.text !== parts[p]) ok = false;
      else names.push(t.text);
      j++;
      if (p < parts.length - 1) {
        if (toks[j]?.text !== ".") ok = false;
        j++;
      }
      if (!ok) break;
    }
    const op = toks[j]?.text ?? "";
    if (!ok || !["=", "+=", "-=", "*=", "/=", "++", "--"].includes(op)) continue;
    let end = j + 1;
    let depth = 0;
    while (end < toks.length) {
      const t = toks[end].text;
      if ("([{".includes(t)) depth++;
      else if (")]}".includes(t)) {
        if (depth === 0) break;
        depth--;
      } else if ((t === ";" || t === ",") && depth === 0) break;
      end++;
    }
    const rhs = toks.slice(j + 1, end).map((t) => t.text).join(" ");
    const fn = m.functions.find((f) => k >= f.from && k < f.to)?.name ?? null;
    out.push({ line: toks[k].line, fn, rhs, op, target: names.join(".") });
  }
  return out;
}
function callsOf(m, name) {
  const out = [];
  const toks = m.tokens;
  for (let k = 0; k + 1 < toks.length; k++) {
    if (toks[k].text !== name || toks[k + 1].text !== "(" || toks[k - 1]?.text === "function" || toks[k - 1]?.text === ".") continue;
    const end = closing(toks, k + 1);
    const args = toks.slice(k + 2, end);
    const comma = args.findIndex((t) => t.text === ",");
    const first = (comma === -1 ? args : args.slice(0, comma)).map((t) => t.text).join(" ");
    out.push({ line: toks[k].line, fn: m.functions.find((f) => k >= f.from && k < f.to)?.name ?? null, first });
  }
  return out;
}
function lagOf(index, base) {
  const re = new RegExp(`^${escape(base)}((?: - \\d+)*)$`);
  const m = re.exec(index);
  if (!m) return null;
  return m[1].split(" - ").slice(1).reduce((a, b) => a + Number(b), 0);
}
var lookAhead = ({ ir, m, specs, at: at2, fnLine }) => {
  const out = [];
  const clockOnly = (array) => array === "t" || specs.get(array)?.source === "time";
  for (const r of m.reads) {
    if (MARK_ARRAYS.has(r.array)) {
      if (r.index !== "m") out.push({ line: r.line, message: `${r.array} is read at ${r.index}: the marks are read by a mark's index` });
      continue;
    }
    if (r.index.includes("+")) {
      out.push({ line: r.line, message: `${r.array} is read at ${r.index}: a bar after the one being decided` });
    } else if (r.index === "f") {
      if (!clockOnly(r.array)) {
        out.push({ line: r.line, message: `${r.array} is read at the fill bar f, whose prices are not known at its open` });
      }
    } else if (r.index === "m") {
      out.push({ line: r.line, message: `${r.array} is read at a mark's index m` });
    } else if (!["i", "k", "st . signal", "f"].some((b) => lagOf(r.index, b) !== null)) {
      out.push({ line: r.line, message: `${r.array} is read at ${r.index}, which cannot be shown to be at or before the bar being decided` });
    }
  }
  for (const f of m.functions.filter((x) => new RegExp(`function ${escape(x.name)}\\(i\\b`).test(m.lines[x.line - 1]))) {
    for (const call of callsOf(m, f.name)) {
      if (call.first !== "i" && call.first !== "k" && call.first !== "st . signal") {
        out.push({ line: call.line, message: `${f.name} is called at ${call.first}, not at the bar being decided or the signal bar` });
      }
    }
  }
  for (const t of ir.transitions) {
    if (t.from === "flat" && t.to !== "armed") {
      out.push({ line: at2(fnLine("arm")), message: `flat goes to ${t.to} on ${t.on}: an entry must wait, armed, for the next bar's open` });
    }
    if (t.from === "exiting" && t.on !== "next_open") {
      out.push({ line: at2(fnLine("decide")), message: `exiting leaves on ${t.on}: a rule exit decided at a close fills at the next open` });
    }
  }
  for (const side of ["long", "short"]) {
    const held = side === "long" ? "in_long" : "in_short";
    if (ir.entry[side] && !ir.transitions.some((t) => t.from === "armed" && t.to === held && t.on === "fill")) {
      out.push({ line: at2(fnLine("fill")), message: `no armed to ${held} move on fill: the ${side} entry does not fill at the next open` });
    }
  }
  for (const a of assignmentsTo(m, "st.phase")) {
    if (/\bIN_(LONG|SHORT)\b/.test(a.rhs) && a.fn !== "fill") {
      out.push({ line: a.line, message: `${a.fn ?? "module code"} enters a position: only fill, at the next open, may` });
    }
    if (/\bARMED\b/.test(a.rhs) && a.fn !== "arm") out.push({ line: a.line, message: `${a.fn ?? "module code"} arms an entry: only arm may` });
  }
  for (const a of assignmentsTo(m, "st.entry")) {
    if (a.fn !== "fill") out.push({ line: a.line, message: `${a.fn ?? "module code"} sets the entry price: only fill, at the next open, may` });
  }
  return out;
};
var SOURCE = {
  ema: "close",
  sma: "close",
  rsi: "close",
  atr: "high,low,close",
  vwap: "hlc3,volume",
  highest: "high",
  lowest: "low",
  prior_day: null,
  opening_range: null,
  session_gate: "time",
  session_end: "time",
  next_clock: "time",
  swing: null,
  bollinger: "close"
};
var sourceOf = (s) => s.kind === "prior_day" || s.kind === "opening_range" || s.kind === "swing" ? s.params.field : SOURCE[s.kind];
var firstRead = (m, array) => m.reads.find((r) => r.array === array)?.line ?? lineOf(m, new RegExp(`\\b${escape(array)}\\b`));
var repainting = ({ ir, m, at: at2 }) => {
  const out = [];
  const day = MARKET_SPECS[ir.market]?.kind === "cme" ? "cme" : "utc";
  for (const s of ir.series) {
    const line = at2(firstRead(m, s.id));
    if (!Object.hasOwn(SOURCE, s.kind)) {
      out.push({ line, message: `${s.id} is a ${String(s.kind)}, which has no causal definition: its past values may change` });
      continue;
    }
    if (s.source !== sourceOf(s)) out.push({ line, message: `${s.id} reads ${s.source}, not what a ${s.kind} is made of (${sourceOf(s)})` });
    if ("n" in s.params && !(Number.isInteger(s.params.n) && s.params.n >= 1)) {
      out.push({ line, message: `${s.id} has a length of ${s.params.n}, not a whole number of bars` });
    }
    if (s.kind === "opening_range") {
      const seconds = s.params.minutes * 60;
      if (seconds < ir.tf_seconds || seconds % ir.tf_seconds !== 0) {
        out.push({ line, message: `${s.id}: ${s.params.minutes} minutes are not whole ${ir.timeframe} bars, so the range would close inside a bar` });
      }
    }
    if (s.kind === "prior_day" && s.params.day !== day) {
      out.push({ line, message: `${s.id} counts days on the ${s.params.day} clock, not ${ir.market}'s trading day: a "prior" day may not have closed` });
    }
  }
  const declared = new Set(ir.series.map((s) => s.id));
  for (const r of m.reads) {
    if (!declared.has(r.array) && !BAR_ARRAYS.has(r.array) && !MARK_ARRAYS.has(r.array)) {
      out.push({ line: r.line, message: `${r.array} is read but the IR does not define it: nothing shows its values stay put` });
    }
  }
  for (let k = 0; k + 4 < m.tokens.length; k++) {
    const [s, dot, name] = [m.tokens[k], m.tokens[k + 1], m.tokens[k + 2]];
    if (s.text !== "s" || dot.text !== "." || name.kind !== "name" || m.tokens[k - 1]?.text === ".") continue;
    let j = k + 3;
    if (m.tokens[j]?.text === "[") j = closing(m.tokens, j) + 1;
    if (["=", "+=", "-=", "*=", "/=", "++", "--"].includes(m.tokens[j]?.text ?? "")) {
      out.push({ line: s.line, message: `the code writes into the series ${name.text}: a value already read may change` });
    }
  }
  const tradeSignal = [
    ...ir.exit_when ? leaves(ir.exit_when).flatMap(operandsOf2) : [],
    ...levelsOf(ir).map((l) => l.level)
  ].flatMap(valuesOf);
  for (const v of tradeSignal) {
    if (v.src !== "signal_bar") continue;
    if (!m.reads.some((r) => r.array === v.field && (r.index === "st . signal" || r.index === "k"))) {
      out.push({ line: at2(lineOf(m, /function (exitRule|fill)\b/)), message: `the signal bar's ${v.field} is never read at the signal bar: the level would move with each bar` });
    }
  }
  return out;
};
var size = (d) => "mult" in d ? d.mult : d.value;
var positive = (d) => size(d) > 0;
var missingStop = ({ ir, m, at: at2, fnLine }) => {
  const out = [];
  const fill = m.functions.find((f) => f.name === "fill");
  const fillLine = at2(fnLine("fill"));
  const stopLine = at2(lineOf(m, /const stop = /, "fill"), fillLine);
  if (!ir.stop) out.push({ line: stopLine, message: "the IR places no stop" });
  else if (ir.stop.kind === "distance" && !positive(ir.stop.distance)) {
    out.push({ line: stopLine, message: "the stop distance is not positive: the stop is not on the losing side of the fill" });
  } else if (ir.stop.kind === "level" && !(size(ir.stop.offset) >= 0)) {
    out.push({ line: stopLine, message: "the stop is offset towards the fill, not beyond its level" });
  }
  for (const held of ir.states.filter((s) => HELD.includes(s))) {
    if (!ir.transitions.some((t) => t.from === held && t.to === "flat" && t.on === "stop")) {
      out.push({ line: fillLine, message: `${held} has no stop exit` });
    }
  }
  if (ir.states.includes("armed") && !ir.transitions.some((t) => t.from === "armed" && t.to === "flat" && t.on === "stop_not_beyond_fill")) {
    out.push({ line: fillLine, message: "an armed entry whose stop is not beyond the fill has no way back to flat" });
  }
  if (!fill) {
    out.push({ line: 1, message: "the code has no fill function: no entry places a stop" });
    return out;
  }
  const guard = lineOf(m, /if \(!\(d \* \(price - stop\) > 0\)\) \{/, "fill");
  const refuses = guard !== null && /st\.phase = FLAT;/.test(m.lines[guard]) && /return false;/.test(m.lines[guard + 1]);
  if (!refuses) out.push({ line: stopLine, message: "fill does not refuse (flat, false) a stop that is not beyond the fill, NaN included" });
  const set = assignmentsTo(m, "st.stop").filter((a) => a.fn === "fill");
  const entered = assignmentsTo(m, "st.phase").find((a) => a.fn === "fill" && /\bIN_(LONG|SHORT)\b/.test(a.rhs));
  if (!set.some((a) => a.rhs === "stop")) out.push({ line: fillLine, message: "fill never sets st.stop to the stop it checked" });
  if (guard !== null && entered && entered.line < guard) out.push({ line: entered.line, message: "fill enters the position before it checks the stop" });
  for (let n = fill.line; n <= fill.end; n++) {
    if (!/\breturn true\b/.test(m.lines[n - 1])) continue;
    if (!set.some((a) => a.rhs === "stop" && a.line < n)) out.push({ line: n, message: "fill answers true before it sets the stop" });
  }
  for (const a of assignmentsTo(m, "st.stop")) {
    if (a.fn === "fill") continue;
    const test = new RegExp(`if \\(d \\* \\(${escape(a.rhs.replace(/ \. /g, "."))} - st\\.stop\\) > 0\\)`);
    const guarded = a.op === "=" && ["st . entry", "trail"].includes(a.rhs) && a.line > 1 && test.test(m.lines[a.line - 2]);
    if (!guarded) out.push({ line: a.line, message: `the stop is moved to ${a.rhs || a.op} without a test that it only tightens: it could be loosened or lost` });
  }
  return out;
};
var unreachableState = ({ ir, m, at: at2, fnLine }) => {
  const out = [];
  const listed = new Set(ir.states);
  const constLine = (s) => at2(lineOf(m, new RegExp(`^const ${s.toUpperCase()} = `)), fnLine("decide"));
  for (const s of ir.states) if (!STATES.includes(s)) out.push({ line: constLine(s), message: `${s} is not a state of the machine` });
  for (const t of ir.transitions) {
    for (const end of [t.from, t.to]) {
      if (!listed.has(end)) out.push({ line: constLine(end), message: `the move ${t.from} -> ${t.to} on ${t.on} names ${end}, which the IR does not list` });
    }
  }
  const reach = (from, edges2) => {
    const seen = /* @__PURE__ */ new Set([from]);
    const queue = [from];
    while (queue.length > 0) {
      const x = queue.shift();
      for (const [a, b] of edges2) {
        if (a !== x || seen.has(b)) continue;
        seen.add(b);
        queue.push(b);
      }
    }
    return seen;
  };
  const edges = ir.transitions.map((t) => [t.from, t.to]);
  const forward = reach("flat", edges);
  const back = reach("flat", edges.map(([a, b]) => [b, a]));
  if (!listed.has("flat")) out.push({ line: at2(fnLine("decide")), message: "the IR does not list flat, where every rule starts" });
  for (const s of ir.states) {
    if (!forward.has(s)) out.push({ line: constLine(s), message: `${s} cannot be reached from flat` });
    else if (!back.has(s)) out.push({ line: constLine(s), message: `${s} never leads back to flat` });
  }
  for (const side of ["long", "short"]) {
    if (ir.entry[side] && !ir.transitions.some((t) => t.from === "flat" && t.on === `${side}_trigger`)) {
      out.push({ line: at2(lineOf(m, new RegExp(`function enter${side === "long" ? "Long" : "Short"}\\b`)), fnLine("decide")), message: `the ${side} trigger has no move out of flat` });
    }
  }
  const entered = new Set(assignmentsTo(m, "st.phase").flatMap((a) => a.rhs.match(/\b[A-Z_]+\b/g) ?? []));
  for (const s of ir.states) {
    if (s !== "flat" && !entered.has(s.toUpperCase())) out.push({ line: constLine(s), message: `the code never enters ${s}` });
  }
  for (const s of ["armed", "exiting", "closing"]) {
    if (entered.has(s.toUpperCase()) && !listed.has(s)) {
      const line = assignmentsTo(m, "st.phase").find((a) => new RegExp(`\\b${s.toUpperCase()}\\b`).test(a.rhs)).line;
      out.push({ line, message: `the code enters ${s}, which the IR's machine does not have` });
    }
  }
  return out;
};
function warmOf(s, tf) {
  const days = (n) => ({ bars: Math.ceil(n * 86400 / tf), days: true });
  switch (s.kind) {
    case "ema":
    case "rsi":
    case "atr":
      return { bars: 3 * s.params.n, days: false };
    case "sma":
    case "bollinger":
      return { bars: s.params.n - 1, days: false };
    case "swing":
      return { bars: 2 * s.params.strength, days: false };
    case "highest":
    case "lowest":
      return { bars: s.params.n, days: false };
    case "prior_day":
      return days(2);
    case "vwap":
    case "opening_range":
      return days(1);
    default:
      return { bars: 0, days: false };
  }
}
var warmUp = ({ ir, m, specs, at: at2 }) => {
  const out = [];
  const w = ir.warm_up_bars;
  if (!(Number.isInteger(w) && w >= 0)) out.push({ line: at2(lineOf(m, /^export function decide\b/)), message: `warm_up_bars is ${w}, not a count of bars` });
  const lag = /* @__PURE__ */ new Map();
  for (const r of m.reads) {
    const back = lagOf(r.index, "i");
    if (back === null) continue;
    const had = lag.get(r.array);
    if (!had || back > had.lag) lag.set(r.array, { lag: back, line: r.line });
  }
  for (const [array, { lag: back, line }] of lag) {
    if (MARK_ARRAYS.has(array)) continue;
    if (BAR_ARRAYS.has(array)) {
      if (back > w) out.push({ line, message: `${array} is read ${back} bars back; warm_up_bars is ${w}` });
      continue;
    }
    const spec = specs.get(array);
    if (!spec) {
      out.push({ line, message: `${array} is read but the IR does not list it, so warm_up_bars cannot cover it` });
      continue;
    }
    const warm = warmOf(spec, ir.tf_seconds);
    const need = warm.days ? warm.bars : warm.bars + back;
    if (w < need) out.push({ line, message: `${array} needs ${need} bars of history${back ? ` (read ${back} back)` : ""}; warm_up_bars is ${w}` });
  }
  for (const s of ir.series) {
    const need = warmOf(s, ir.tf_seconds).bars;
    if (!lag.has(s.id) && w < need) out.push({ line: at2(firstRead(m, s.id)), message: `${s.id} needs ${need} bars of history; warm_up_bars is ${w}` });
  }
  for (const f of m.functions.filter((x) => x.name === "enterLong" || x.name === "enterShort")) {
    const tests = new Set(
      m.tokens.slice(f.from, f.to).filter((t, k, body) => ["===", "!==", "==", "!="].includes(t.text) || t.text === "!" && body[k + 1]?.text === "(").map((t) => t.line)
    );
    for (const line of tests) {
      const series = m.reads.filter((r) => r.line === line && specs.has(r.array)).map((r) => r.array);
      if (series.length > 0) {
        out.push({ line, message: `${f.name} tests ${[...new Set(series)].join(", ")} with a negation or an equality, which holds while a series still reads NaN` });
      }
    }
  }
  return out;
};
var sameBarOrder = ({ ir, m, at: at2, fnLine }) => {
  const out = [];
  for (const n of linesOf(m, /\bWHY_TARGET\b/)) {
    if (!/^const /.test(m.lines[n - 1])) out.push({ line: n, message: "the code ends a trade at its target itself, ahead of the stepper, which checks the stop first" });
  }
  const decide2 = m.functions.find((f) => f.name === "decide");
  if (decide2) {
    for (let n = decide2.line; n <= decide2.end; n++) {
      if (/\bif \(.*\bst\.target\b/.test(m.lines[n - 1])) out.push({ line: n, message: "decide acts on the target inside the bar, where the stepper settles the stop first" });
    }
  }
  const set = (field) => assignmentsTo(m, `st.${field}`).filter((a) => a.fn === "fill");
  const stopRhs = assignmentsTo(m, "stop").find((a) => a.fn === "fill");
  const losing = /price - d \*|\( 1 - d \*/;
  const winning = /price \+ d \*|\( 1 \+ d \*/;
  if (ir.stop?.kind === "distance" && stopRhs && !losing.test(stopRhs.rhs)) {
    out.push({ line: stopRhs.line, message: "the stop is not placed on the losing side of the fill" });
  }
  if (ir.stop?.kind === "level" && ir.stop.where !== "at" && stopRhs) {
    const away = ir.stop.where === "below" ? "-" : ir.stop.where === "above" ? "+" : "- d *";
    if (!new RegExp(`^q \\( base ${escape(away)} `).test(stopRhs.rhs)) {
      out.push({ line: stopRhs.line, message: `the stop is not placed ${ir.stop.where} its level, as the IR says` });
    }
  }
  if (ir.target?.kind === "distance") {
    if (!positive(ir.target.distance)) out.push({ line: at2(set("target")[0]?.line, fnLine("fill")), message: "the target distance is not positive: it sits at or behind the fill" });
    for (const a of set("target")) if (!winning.test(a.rhs)) out.push({ line: a.line, message: "the target is not placed beyond the fill, away from the stop" });
  }
  if (ir.breakeven) {
    if (!positive(ir.breakeven)) out.push({ line: at2(set("beAt")[0]?.line, fnLine("fill")), message: "the breakeven trigger is not beyond the fill" });
    for (const a of set("beAt")) if (!winning.test(a.rhs)) out.push({ line: a.line, message: "the breakeven trigger is not placed beyond the fill" });
  }
  if (ir.target?.kind === "level" && lineOf(m, /return st\.dir \* \(x - st\.entry\) > 0 \? q\(x\) : NaN;/, "targetAt") === null) {
    out.push({ line: at2(fnLine("targetAt"), fnLine("fill")), message: "a level target is not held to the far side of the entry" });
  }
  return out;
};
var sessionLeak = ({ ir, m, at: at2, fnLine }) => {
  const out = [];
  const session = ir.session;
  const decideLine = at2(fnLine("decide"));
  if (session.kind !== "windows") {
    if (ir.flat_at_session_end) out.push({ line: decideLine, message: "flat_at_session_end with no session window to end" });
    return out;
  }
  const gateRead = m.reads.find((r) => r.fn === "decide" && r.array === session.gate && r.index === "i");
  const firstArm = callsOf(m, "arm").find((c) => c.fn === "decide");
  if (!gateRead || !/!== 1\) return;/.test(m.lines[gateRead.line - 1])) {
    out.push({ line: at2(firstArm?.line, decideLine), message: "entries are not gated by the session: a trade may open outside its windows" });
  } else if (firstArm && firstArm.line < gateRead.line) {
    out.push({ line: firstArm.line, message: "decide may arm before it reads the session gate" });
  }
  const params = { zone: session.zone, windows: session.windows };
  const until = session.until ?? [];
  for (const [id, kind, want] of [
    [session.gate, "session_gate", until.length > 0 ? { ...params, until } : params],
    [session.end, "session_end", params]
  ]) {
    const spec = ir.series.find((s) => s.id === id);
    if (!spec || spec.kind !== kind || canonicalJson(spec.params) !== canonicalJson(want)) {
      out.push({ line: at2(firstRead(m, id), decideLine), message: `${id} is not the ${kind.replace("_", " ")} of the session's windows` });
    }
  }
  const clocks = clockExitsOf2(ir);
  if (canonicalJson(clocks) !== canonicalJson(until)) {
    out.push({
      line: at2(firstRead(m, session.gate), decideLine),
      message: `the session gate's entries close at ${until.length > 0 ? until.map(clockWords).join(", ") : "no clock"}, not at the rule's clock exits (${clocks.map(clockWords).join(", ") || "none"}): a trade opened after its own exit time is held to the next day's`
    });
  }
  const ruled = ir.time.some((t) => t.kind === "clock" || t.kind === "session_close");
  if (!ir.flat_at_session_end && !ruled) {
    out.push({ line: at2(lineOf(m, /st\.deadline = Infinity;/, "fill"), fnLine("fill")), message: "a trade opened in a window may stay open past its end: no session-end exit, and the rule names no clock or close" });
  }
  if (ir.flat_at_session_end && lineOf(m, new RegExp(`deadline\\(st, s\\.${escape(session.end)}\\[k\\]!?, WHY_SESSION_END\\);`), "fill") === null) {
    out.push({ line: at2(lineOf(m, /st\.deadline = Infinity;/, "fill"), fnLine("fill")), message: "fill does not schedule the close at the end of the window" });
  }
  if ((ir.flat_at_session_end || ruled) && lineOf(m, /if \(s\.t\[i\]!? \+ TF >= st\.deadline\) \{/, "decide") === null) {
    out.push({ line: decideLine, message: "decide never closes a trade whose deadline (the window end, a clock, the close) has come" });
  }
  return out;
};
var clockWords = (c) => `${String(Math.floor(c.minute / 60)).padStart(2, "0")}:${String(c.minute % 60).padStart(2, "0")} ${c.zone}`;
function clockExitsOf2(ir) {
  const clocks = ir.time.flatMap((t) => {
    const spec = t.kind === "clock" ? ir.series.find((s) => s.id === t.series) : void 0;
    return spec?.kind === "next_clock" ? [{ zone: spec.params.zone, minute: spec.params.minute }] : [];
  });
  return clocks.sort((a, b) => canonicalJson(a) < canonicalJson(b) ? -1 : canonicalJson(a) > canonicalJson(b) ? 1 : 0);
}
var an = (u) => `${/^[aeiou]/.test(u) ? "an" : "a"} ${u}`;
var unitMismatch = ({ ir, m, specs, at: at2, fnLine }) => {
  const out = [];
  const spec = MARKET_SPECS[ir.market];
  const tickLine = at2(lineOf(m, /^const INV_TICK = /));
  if (!spec || ir.tick !== spec.tick) out.push({ line: tickLine, message: `the tick is ${ir.tick}, not ${ir.market}'s` });
  const inv = /^const INV_TICK = (\S+);/.exec(m.lines[tickLine - 1] ?? "");
  if (!inv || Number(inv[1]) !== Math.round(1 / ir.tick)) out.push({ line: tickLine, message: `INV_TICK is not 1 / ${ir.tick}` });
  const tfLine = lineOf(m, /^const TF = /);
  if (ir.tf_seconds !== TIMEFRAME_SECONDS[ir.timeframe]) {
    out.push({ line: at2(tfLine), message: `tf_seconds is ${ir.tf_seconds}, not the ${ir.timeframe} bar's length` });
  }
  const tf = tfLine === null ? null : /^const TF = (\S+);/.exec(m.lines[tfLine - 1]);
  if (tfLine !== null && Number(tf?.[1]) !== ir.tf_seconds) out.push({ line: tfLine, message: `TF is ${tf?.[1]}, not ${ir.tf_seconds} seconds` });
  const unitOf = (v) => {
    if (v.src === "constant") return "number";
    if (v.src !== "series") return "price";
    const s = specs.get(v.id);
    if (!s) return null;
    return s.kind === "rsi" ? "oscillator" : s.kind === "atr" ? "range" : s.source === "time" ? "time" : "price";
  };
  const name = (v) => v.src === "series" ? v.id : v.src === "constant" ? String(v.value) : `${v.src} ${v.field}`;
  const where = (fn, v) => at2(v.src === "series" ? lineOf(m, new RegExp(`s\\.${escape(v.id)}\\[`), fn) : null, fnLine(fn), fnLine("decide"));
  const bounds = (v, other, fn) => {
    if (v.src === "constant" && unitOf(other) === "oscillator" && (v.value < 0 || v.value > 100)) {
      out.push({ line: where(fn, other), message: `${name(other)} runs from 0 to 100, and is compared with ${v.value}` });
    }
  };
  for (const { fn, cond } of conditionsOf(ir)) {
    for (const leaf2 of leaves(cond)) {
      if ("level" in leaf2) {
        for (const v of valuesOf(leaf2.level)) {
          const u = unitOf(v);
          if (u && u !== "price" && u !== "number") out.push({ line: where(fn, v), message: `${leaf2.op} compares the bar's prices with ${name(v)}, ${an(u)}, not a price` });
        }
        continue;
      }
      for (const l of valuesOf(leaf2.left)) {
        for (const r of valuesOf(leaf2.right)) {
          const [a, b] = [unitOf(l), unitOf(r)];
          if (a && b && a !== b && a !== "number" && b !== "number") {
            out.push({ line: where(fn, l), message: `${leaf2.op} compares ${name(l)} (${a}) with ${name(r)} (${b})` });
          }
          if ((a === "time" || b === "time") && a !== b) out.push({ line: where(fn, l), message: `${leaf2.op} compares a price with a clock series` });
          bounds(l, r, fn);
          bounds(r, l, fn);
        }
      }
    }
  }
  for (const { what, level: level2, at: construct } of levelsOf(ir)) {
    for (const v of valuesOf(level2)) {
      const u = unitOf(v);
      if (u && u !== "price" && u !== "number") out.push({ line: at2(lineOf(m, construct), fnLine("fill")), message: `the ${what} sits at ${name(v)}, ${an(u)}, not a price` });
    }
  }
  const distances = [
    ...ir.stop?.kind === "distance" ? [{ what: "stop", d: ir.stop.distance, construct: /const stop = / }] : [],
    ...ir.stop?.kind === "level" ? [{ what: "stop offset", d: ir.stop.offset, construct: /const stop = / }] : [],
    ...ir.target?.kind === "distance" ? [{ what: "target", d: ir.target.distance, construct: /st\.target = / }] : [],
    ...ir.trail?.kind === "distance" ? [{ what: "trail", d: ir.trail.distance, construct: /const trail = / }] : [],
    ...ir.breakeven ? [{ what: "breakeven", d: ir.breakeven, construct: /st\.beAt = / }] : []
  ];
  for (const { what, d, construct } of distances) {
    const line = at2(lineOf(m, construct), fnLine("fill"));
    if (d.unit === "atr") {
      const s = specs.get(d.series);
      if (!s || s.kind !== "atr") out.push({ line, message: `the ${what} is in ATRs of ${d.series}, which is not an ATR series of the IR` });
      else if (!new RegExp(`s\\.${escape(d.series)}\\[`).test(m.lines[line - 1])) out.push({ line, message: `the ${what} in ATRs does not read ${d.series}` });
    }
    if (d.unit === "r") {
      if (what === "stop" || what === "stop offset" || what === "trail") {
        out.push({ line, message: `the ${what} is in R, but R is measured from the stop` });
      } else if (lineOf(m, /st\.risk = d \* \(price - stop\);/, "fill") === null) {
        out.push({ line, message: `the ${what} is in R, but fill never sets the risk from the stop` });
      }
    }
    if (d.unit === "fraction" && (what === "stop" || what === "trail") && !(d.value > 0 && d.value < 1)) {
      out.push({ line, message: `the ${what} is ${d.value} of the price: a fraction of the price lies between 0 and 1 (percent not divided by 100?)` });
    }
  }
  const seconds = ir.time.flatMap((t) => t.kind === "seconds" ? [t.n] : []);
  for (const n of seconds) {
    if (!(Number.isInteger(n) && n > 0 && n % 60 === 0)) out.push({ line: at2(fnLine("fill")), message: `a time exit of ${n} seconds is not whole minutes` });
  }
  for (const n of linesOf(m, /deadline\(st, s\.t\[f\]!? \+ /)) {
    const x = Number(/s\.t\[f\]!? \+ ([^,]+),/.exec(m.lines[n - 1])?.[1]);
    if (!seconds.includes(x)) out.push({ line: n, message: `the code closes ${x} seconds after the fill; the IR's time exits say ${seconds.join(", ") || "none"}` });
  }
  const bars = ir.time.flatMap((t) => t.kind === "bars" ? [t.n] : []);
  for (const n of linesOf(m, /st\.lastBar = f \+ /)) {
    const x = Number(/st\.lastBar = f \+ ([^;]+);/.exec(m.lines[n - 1])?.[1]);
    if (!bars.includes(x + 1)) out.push({ line: n, message: `the code holds a trade ${x + 1} bars; the IR's bar exits say ${bars.join(", ") || "none"}` });
  }
  return out;
};
var PER_TRADE = ["fill", "entry", "stop", "stopWhy", "risk", "best", "target", "beAt", "lastBar", "deadline", "deadlineWhy"];
var PER_ARM = ["phase", "dir", "signal", "seal"];
var unboundedState = ({ m, at: at2, fnLine }) => {
  const out = [];
  const fields = new Set(Object.keys(freshState()));
  const state = lineOf(m, /^export interface State \{/);
  if (state !== null) {
    for (let n = state + 1; n <= m.lines.length && !/^\}/.test(m.lines[n - 1]); n++) {
      const f = /^\s*(\w+)\s*:/.exec(m.lines[n - 1])?.[1];
      if (f && !fields.has(f)) out.push({ line: n, message: `the state has a field ${f} beyond the contract's, which no one resets` });
    }
  }
  for (const a of assignmentsTo(m, "st.*")) {
    const field = a.target.split(".")[1];
    if (!fields.has(field)) out.push({ line: a.line, message: `st.${field} is not a field of the contract's state` });
    if (a.op !== "=") out.push({ line: a.line, message: `st.${field} is counted (${a.op}), with nothing that bounds or resets it` });
  }
  const toks = m.tokens;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    const fn = m.functions.find((f) => k >= f.from && k < f.to)?.name ?? null;
    if ((t.text === "let" || t.text === "var") && fn === null) {
      out.push({ line: t.line, message: `a module-level ${toks[k + 1]?.text ?? "variable"} keeps state outside the contract's, carried across trades and runs` });
    }
    if (t.text === "new" && toks[k + 1]?.kind === "name") out.push({ line: t.line, message: `the code makes a new ${toks[k + 1].text}` });
    if (t.text === "[" && ["=", "(", ",", "return", "?", ":", "=>"].includes(toks[k - 1]?.text ?? "") && !/^const SEAL\b/.test(m.lines[t.line - 1])) {
      out.push({ line: t.line, message: "the code makes an array" });
    }
    if (t.text === "{" && ["=", "(", ",", "return", "?", ":"].includes(toks[k - 1]?.text ?? "") && fn !== null) {
      out.push({ line: t.line, message: "the code makes an object" });
    }
    if (t.text === "." && ["push", "unshift", "splice", "concat", "set", "add"].includes(toks[k + 1]?.text ?? "") && toks[k + 2]?.text === "(") {
      out.push({ line: t.line, message: `the code grows a collection (.${toks[k + 1].text})` });
    }
    if (t.text === "while" || t.text === "do" && toks[k + 1]?.text === "{") out.push({ line: t.line, message: `a ${t.text} loop has no bound` });
    if (t.text === "for" && toks[k + 1]?.text === "(") {
      const head = toks.slice(k + 2, closing(toks, k + 1)).map((x) => x.text).join(" ");
      if (!/^let (\w+) = 0 ; \1 < s \. \w+ \. length ; \1 \+\+$/.test(head)) out.push({ line: t.line, message: "a loop is not bounded by the marks it walks" });
    }
  }
  const setIn = (fn) => new Set(assignmentsTo(m, "st.*").filter((a) => a.fn === fn).map((a) => a.target.split(".")[1]));
  const inFill = setIn("fill");
  const inArm = setIn("arm");
  const missingFill = PER_TRADE.filter((f) => !inFill.has(f));
  const missingArm = PER_ARM.filter((f) => !inArm.has(f));
  if (missingFill.length > 0) out.push({ line: at2(fnLine("fill")), message: `fill does not reset ${missingFill.join(", ")} for each trade` });
  if (missingArm.length > 0) out.push({ line: at2(fnLine("arm")), message: `arm does not set ${missingArm.join(", ")} on each arming` });
  return out;
};
var CHECKS = {
  "look-ahead": lookAhead,
  repainting,
  "missing stop": missingStop,
  "unreachable state": unreachableState,
  "indicator warm-up": warmUp,
  "same-bar stop and target order": sameBarOrder,
  "session leak": sessionLeak,
  "unit mismatch": unitMismatch,
  "unbounded state": unboundedState
};
var clockIdOf = (ir, c) => ir.series.find((s) => s.kind === "next_clock" && s.params.zone === c.zone && s.params.minute === c.minute)?.id ?? "";
function review(ir, code) {
  const m = readCode(code);
  const specs = new Map(ir.series.map((s) => [s.id, s]));
  const ctx = {
    ir,
    m,
    specs,
    at: (...candidates) => candidates.find((c) => typeof c === "number") ?? 1,
    fnLine: (name) => m.functions.find((f) => f.name === name)?.line ?? null
  };
  const notes2 = [];
  if (ir.flat_at_session_end && ir.session.kind === "windows") {
    const line = lineOf(m, new RegExp(`deadline\\(st, s\\.${escape(ir.session.end)}\\[k\\]`), "fill");
    notes2.push({ line: ctx.at(line, ctx.fnLine("fill")), message: `${FLAT_AT_WINDOW_END}: the rule names no clock or close exit of its own` });
  }
  if (ir.session.kind === "windows" && clockClosesEntries(ir.session, ir.tf_seconds)) {
    const line = lineOf(m, new RegExp(`if \\(s\\.${escape(ir.session.gate)}\\[i\\]`), "decide");
    notes2.push({ line: ctx.at(line, ctx.fnLine("decide")), message: `${clockClosingWords(ir.session.until ?? [])}: the rule's words name the exit time, not the end of its entries` });
  }
  const outliving = outlivingEntry(ir.session, clockExitsOf2(ir), MARKET_SPECS[ir.market]?.kind === "cme" ? "cme" : "utc", ir.tf_seconds);
  if (outliving) {
    const { clock } = outliving;
    const line = lineOf(m, new RegExp(`deadline\\(st, s\\.${escape(clockIdOf(ir, clock))}\\[f\\]`), "fill");
    notes2.push({ line: ctx.at(line, ctx.fnLine("fill")), message: `${outlivingWords(outliving)}: a clock exit closes a session window's entries, and this rule's entries fall outside any window it closes` });
  }
  return {
    classes: REVIEW_CLASSES.map((name) => {
      const seen = /* @__PURE__ */ new Set();
      const findings = CHECKS[name](ctx).filter((f) => !seen.has(`${f.line}
${f.message}`) && seen.add(`${f.line}
${f.message}`)).sort((a, b) => a.line - b.line || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
      return { name, status: findings.length > 0 ? "flagged" : "passed", findings };
    }),
    notes: notes2
  };
}

// engine/forge/scan.ts
import { z as z8 } from "zod";
var SCAN_KINDS = ["number", "indicator", "market", "time", "side"];
var token = { line: z8.number().int().min(1), token: z8.string().min(1), kind: z8.enum(SCAN_KINDS) };
var ScanSchema = z8.strictObject({
  clean: z8.boolean(),
  traced: z8.array(
    z8.strictObject({
      ...token,
      from: z8.union([
        z8.strictObject({ spans: z8.array(SpanSchema) }),
        z8.strictObject({ default: z8.enum(DEFAULT_RULES) }),
        z8.strictObject({ script: z8.string().min(1) })
      ])
    })
  ),
  invented: z8.array(z8.strictObject({ ...token, message: z8.string().min(1) }))
});
var slug2 = (zone) => zone.toLowerCase().replace("/", "_");
var clockKey = (at2, zone) => `series:clock_${at2.slice(0, 2)}_${at2.slice(3, 5)}_${slug2(zone)}`;
var Catalog = class {
  constructor(market, values, defaults = {}) {
    this.market = market;
    this.values = values;
    this.defaults = defaults;
    this.tick = market ? MARKET_SPECS[market].tick : null;
    for (const part of PARTS) if (values[part] !== void 0 && values[part] !== null) this.part(part, values[part]);
  }
  market;
  values;
  defaults;
  facts = /* @__PURE__ */ new Map();
  tick;
  /** The default that supplied the value at the path (a default at a path covers everything under it). */
  defaultAt(part, path) {
    const under = (d) => path === d.path || path.startsWith(`${d.path}.`) || path.startsWith(`${d.path}[`);
    return (this.defaults[part] ?? []).find(under)?.rule;
  }
  /** The first fact of a key stands, unless it came from a default and the words say it too. */
  add(key, kind, part, path, words, exempt) {
    const rule = this.defaultAt(part, path);
    const had = this.facts.get(key);
    if (had && !(had.default !== void 0 && rule === void 0)) return;
    this.facts.set(key, { kind, part, path, words, ...exempt ? { exempt } : {}, ...rule ? { default: rule } : {} });
  }
  operand(o, part, path) {
    switch (o.kind) {
      case "ema":
      case "sma":
      case "rsi":
      case "atr":
        if (o.n !== null) this.add(`series:${o.kind}_${o.n}`, "indicator", part, `${path}.n`, String(o.n));
        return;
      case "highest":
      case "lowest":
        this.add(`series:${o.kind}_${o.n}`, "indicator", part, `${path}.n`, String(o.n));
        return;
      case "vwap":
        this.add("series:vwap", "indicator", part, path, null);
        return;
      case "prior_day":
        this.add(`series:prior_day_${o.field}`, "indicator", part, `${path}.field`, null);
        return;
      case "opening_range":
        if (o.minutes === null) return;
        for (const field of o.field === "range" ? ["high", "low"] : [o.field]) {
          this.add(`series:opening_range_${o.minutes}_${field}`, "indicator", part, `${path}.minutes`, String(o.minutes));
        }
        return;
      case "mark":
        this.add("series:mark", "indicator", part, path, null);
        return;
      case "swing":
        if (o.strength !== null) this.add(`series:swing_${o.field}_${o.strength}`, "indicator", part, `${path}.strength`, String(o.strength));
        return;
      case "bollinger":
        if (o.n !== null && o.k !== null) {
          this.add(`series:bollinger_${o.n}_${String(o.k).replace(".", "p")}_${o.band}`, "indicator", part, `${path}.n`, String(o.n));
        }
        return;
      case "constant":
        this.add(`constant:${o.value}`, "number", part, `${path}.value`, String(o.value));
        return;
      case "price":
      case "bar":
        return;
    }
  }
  cond(c, part, path) {
    if ("args" in c) c.args.forEach((a, k) => this.cond(a, part, `${path}.args[${k}]`));
    else if ("level" in c) this.operand(c.level, part, `${path}.level`);
    else {
      this.operand(c.left, part, `${path}.left`);
      this.operand(c.right, part, `${path}.right`);
    }
  }
  /**
   * A distance keyed by what it places (stop, target, trail, breakeven) and in the IR's units: price (points; ticks
   * times the tick), fraction (percent / 100), atr, r.
   */
  distance(d, role, part, path) {
    const n = `${path}.n`;
    switch (d.unit) {
      case "points":
        this.add(`distance.price.${role}:${d.n}`, "number", part, n, String(d.n));
        return;
      case "ticks":
        if (this.tick !== null) this.add(`distance.price.${role}:${d.n / Math.round(1 / this.tick)}`, "number", part, n, String(d.n));
        return;
      case "percent":
        this.add(`distance.fraction.${role}:${d.n / 100}`, "number", part, n, String(d.n));
        return;
      case "atr":
        this.add(`distance.atr.${role}:${d.n}`, "number", part, n, String(d.n));
        if (d.period !== null) this.add(`series:atr_${d.period}`, "indicator", part, `${path}.period`, String(d.period));
        return;
      case "r":
        this.add(`distance.r.${role}:${d.n}`, "number", part, n, String(d.n));
        return;
      case "range":
        this.add(`distance.range.${role}:${d.n}`, "number", part, n, String(d.n));
        this.operand(d.of, part, `${path}.of`);
        return;
      case "usd": {
        const points = this.market ? pointsOfDollars(this.market, d.n, d.micro === true) : null;
        if (points !== null) this.add(`distance.price.${role}:${points}`, "number", part, n, String(d.n));
        return;
      }
    }
  }
  part(part, value) {
    const v = value;
    switch (part) {
      case "market":
        this.add(`market:${String(v)}`, "market", part, "", String(v));
        return;
      case "timeframe":
        if (typeof v === "string" && isTimeframe(v)) {
          this.add(`timeframe:${v}`, "time", part, "", null);
          this.add(`tf:${TIMEFRAME_SECONDS[v]}`, "time", part, "", null);
        }
        return;
      case "side":
        this.add(`side:${String(v)}`, "side", part, "", null);
        if (v === "both") for (const s of ["long", "short"]) this.add(`side:${s}`, "side", part, "", null);
        return;
      case "session": {
        const s = value;
        if (s.kind === "windows") for (const id of ["session_gate", "session_end"]) this.add(`series:${id}`, "time", part, ".windows", null);
        return;
      }
      case "entry":
        value.triggers.forEach((t, k) => {
          if (t.side !== null) this.add(`side:${t.side}`, "side", part, `.triggers[${k}].side`, null);
          this.cond(t.when, part, `.triggers[${k}].when`);
        });
        return;
      case "stop": {
        const s = value;
        if (s.kind === "distance") this.distance(s.distance, "stop", part, ".distance");
        else {
          this.operand(s.level, part, ".level");
          if (s.offset) this.distance(s.offset, "stop", part, ".offset");
          else if (s.where !== "at" && this.tick !== null) this.add(`distance.price.stop:${this.tick}`, "number", part, ".where", null, true);
        }
        if (s.breakeven) this.distance(s.breakeven, "breakeven", part, ".breakeven");
        return;
      }
      case "exit": {
        const e = value;
        if (e.target?.kind === "distance") this.distance(e.target.distance, "target", part, ".target.distance");
        if (e.target?.kind === "level") this.operand(e.target.level, part, ".target.level");
        if (e.trail?.kind === "distance") this.distance(e.trail.distance, "trail", part, ".trail.distance");
        if (e.trail?.kind === "level") this.operand(e.trail.level, part, ".trail.level");
        (e.time ?? []).forEach((t, k) => this.time(t, `.time[${k}]`));
        if (e.when) this.cond(e.when, part, ".when");
        return;
      }
    }
  }
  time(t, path) {
    switch (t.kind) {
      case "bars":
        this.add(`bars:${t.n}`, "time", "exit", `${path}.n`, String(t.n));
        return;
      case "minutes":
        this.add(`seconds:${t.n * 60}`, "time", "exit", `${path}.n`, String(t.n));
        return;
      case "hours":
        this.add(`seconds:${t.n * 3600}`, "time", "exit", `${path}.n`, String(t.n));
        return;
      case "clock":
        this.add(clockKey(t.at, t.zone), "time", "exit", `${path}.at`, null);
        return;
      case "session_close": {
        const session = this.values.session;
        if (session?.kind === "windows") this.add("series:session_end", "time", "exit", path, null);
        else if (this.market) {
          const key = MARKET_SPECS[this.market].kind === "cme" ? clockKey("16:00", "America/New_York") : clockKey("00:00", "UTC");
          this.add(key, "time", "exit", path, null);
        }
        return;
      }
    }
  }
};
var SERIES_ID = /^(?:(?:ema|sma|rsi|atr|highest|lowest)_\d+|vwap|prior_day_(?:high|low|close)|opening_range_\d+_(?:high|low)|swing_(?:high|low)_\d+|bollinger_\d+_\d+(?:p\d+)?_(?:upper|middle|lower)|session_(?:gate|end)|clock_\d\d_\d\d_[a-z_]+)$/;
var BARS2 = /* @__PURE__ */ new Set(["t", "o", "h", "l", "c", "v"]);
var MARK_ARRAYS2 = /* @__PURE__ */ new Set(["markLo", "markHi", "markShape"]);
var UNARY_AFTER = /* @__PURE__ */ new Set(["(", ",", "=", "?", ":", "return", ">", "<", ">=", "<=", "===", "!==", "&&", "||", "[", "*", "+", "-"]);
var COMPARE = /* @__PURE__ */ new Set([">", "<", ">=", "<="]);
function seriesName(name) {
  if (BARS2.has(name)) return null;
  if (MARK_ARRAYS2.has(name)) return { key: "series:mark", kind: "indicator" };
  if (!SERIES_ID.test(name)) return { invented: `${name} is no series the forge makes from a rule`, kind: "indicator" };
  return { key: `series:${name}`, kind: /^(session_|clock_)/.test(name) ? "time" : "indicator" };
}
function roleAt(toks, k) {
  let j = k;
  while (j > 0 && ![";", "{", "}"].includes(toks[j - 1].text)) j--;
  const head = toks.slice(j, j + 4).map((t) => t.text).join(" ");
  if (head.startsWith("const stop =")) return "stop";
  if (head.startsWith("st . target =")) return "target";
  if (head.startsWith("const trail =")) return "trail";
  if (head.startsWith("st . beAt =")) return "breakeven";
  return null;
}
function numberReading(m, k, value, left, right, market) {
  const toks = m.tokens;
  const p = (n) => toks[left - n]?.text;
  const a = (n) => toks[right + n]?.text;
  const line = m.lines[toks[k].line - 1];
  if (/^const SEAL\b/.test(line)) return { exempt: true };
  if (p(1) === "=" && p(3) === "const") {
    const name = p(2);
    if (Object.hasOwn(PHASE, name)) {
      return PHASE[name] === value ? { exempt: true } : { invented: `${name} is ${value}, not the contract's state number`, kind: "number" };
    }
    if (name.startsWith("WHY_")) {
      const why = name.slice(4).toLowerCase();
      return Object.hasOwn(WHY, why) && WHY[why] === value ? { exempt: true } : { invented: `${name} is ${value}, not the contract's exit reason`, kind: "number" };
    }
    if (name === "INV_TICK") {
      return market && Math.round(1 / MARKET_SPECS[market].tick) === value ? { exempt: true } : { invented: `INV_TICK is ${value}, not 1 / the tick of ${market ?? "a market the rule names"}`, kind: "number" };
    }
    if (name === "TF") return { key: `tf:${value}`, kind: "time" };
    if (name === "base" || name === "x") return { key: `constant:${value}`, kind: "number" };
    return { invented: `${name} = ${value} is no constant the forge writes`, kind: "number" };
  }
  let j = left - 1;
  while (j >= 0 && (toks[j].kind === "name" || toks[j].kind === "number" || ["-", "&", "."].includes(toks[j].text))) j--;
  if (toks[j]?.text === "[" && toks[j - 1]?.kind === "name") {
    if (p(1) === "-" && value === 1) return { exempt: true };
    if (p(1) === "&" && p(2) === "i" && value === 7 && toks[j - 1].text === "SEAL") return { exempt: true };
    return { invented: `${value} in an index is no bar back the forge writes`, kind: "number" };
  }
  if (p(1) === "," && p(2) === "st" && p(3) === "," && p(4) === "i" && p(5) === "(" && p(6) === "arm") {
    return value === 1 || value === -1 ? { key: `side:${value > 0 ? "long" : "short"}`, kind: "side" } : { invented: `arm is handed ${value}, no direction`, kind: "side" };
  }
  if (p(1) === "?" && p(2) === "long" && value === 1) return { key: "side:long", kind: "side" };
  if (p(1) === ":" && p(2) === "1" && p(3) === "?" && p(4) === "long" && value === -1) return { key: "side:short", kind: "side" };
  if ((p(1) === "===" || p(1) === "!==") && (value === 0 || value === 1) && p(2) === "]") {
    if (p(3) === "m" && p(5) === "markShape" || p(3) === "i" && p(5) === "session_gate") return { exempt: true };
  }
  if (value === 0 && p(1) === "=" && p(3) === "let" && p(4) === "(" && p(5) === "for") return { exempt: true };
  if (value === 0 && p(1) && COMPARE.has(p(1))) return { exempt: true };
  if (value === 0 && p(1) === "=" && p(2) === "deadlineWhy") return { exempt: true };
  if (value === 1 && p(1) === "(" && (a(1) === "-" || a(1) === "+") && a(2) === "d" && a(3) === "*") return { exempt: true };
  if (p(1) === "+" && p(2) === "f" && p(3) === "=" && p(4) === "lastBar") return { key: `bars:${value + 1}`, kind: "time" };
  if (p(1) === "+" && p(2) === "]" && p(3) === "f" && p(4) === "[" && p(5) === "t" && p(6) === "." && p(7) === "s") return { key: `seconds:${value}`, kind: "time" };
  const unit = a(1) === "*" && a(2) === "st" && a(3) === "." && a(4) === "risk" ? "r" : a(1) === "*" && a(2) === "s" && a(3) === "." ? "atr" : a(1) === "*" && a(2) === "(" && a(3) === "s" && a(4) === "." ? "range" : p(1) === "*" && (p(2) === "d" && (p(3) === "-" || p(3) === "+") && p(4) === "1" && p(5) === "(" || p(2) === "base") ? "fraction" : p(1) === "*" && p(2) === "d" || (p(1) === "-" || p(1) === "+") && p(2) === "base" ? "price" : null;
  if (unit) {
    const role = roleAt(toks, k);
    return role ? { key: `distance.${unit}.${role}:${value}`, kind: "number" } : { invented: `${value} is a distance that places no stop, target, trail or breakeven`, kind: "number" };
  }
  if (COMPARE.has(p(1) ?? "") || COMPARE.has(a(1) ?? "") || p(1) === "(" && p(2) === "q") return { key: `constant:${value}`, kind: "number" };
  return { invented: `${value} sits where the forge writes no number`, kind: "number" };
}
function said(key) {
  const [what, v] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
  const [head, unit, role] = what.split(".");
  switch (head) {
    case "constant":
      return `the number ${v}`;
    case "distance":
      return unit === "price" ? `a ${role} distance of ${v} in price (points, or ticks times the tick)` : unit === "fraction" ? `a ${role} distance of ${v} of the price (${Number(v) * 100} percent)` : unit === "atr" ? `a ${role} distance of ${v} ATRs` : unit === "range" ? `a ${role} distance of ${v} times the range` : `a ${role} distance of ${v}R`;
    case "bars":
      return `a time exit of ${v} bars`;
    case "seconds":
      return `a time exit of ${v} seconds`;
    case "tf":
      return `a bar of ${v} seconds`;
    case "series":
      return v === "mark" ? "the trader's marks" : `the series ${v}`;
    case "side":
      return `the ${v} side`;
    case "market":
      return `the market ${v}`;
    default:
      return `the ${v} timeframe`;
  }
}
var mentions = (text, words) => new RegExp(`(?<![\\d.])${words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\d])`).test(text);
function saysNumber(text, words) {
  if (mentions(text, words)) return true;
  const tokens = tokenize(text);
  const n = Number(words);
  if (n === 1 && tokens.some((t) => t.kind === "word" && (t.norm === "a" || t.norm === "an"))) return true;
  return tokens.some((_, i) => readNumber(tokens, i)?.value === n);
}
function saysMinutes(text, minutes) {
  if (saysNumber(text, minutes)) return true;
  const hours = Number(minutes) / 60;
  if (!Number.isInteger(hours) || !tokenize(text).some((t) => t.kind === "word" && HOUR_WORDS.has(t.norm))) return false;
  return hours === 1 || saysNumber(text, String(hours));
}
var HOUR_WORDS = /* @__PURE__ */ new Set(["hour", "hours", "hourly", "hr", "hrs", "h"]);
var saysStrength = (text, strength2) => saysNumber(text, strength2) || saysNumber(text, String(2 * Number(strength2) + 1));
function saysMultiple(text, n) {
  if (saysNumber(text, n)) return true;
  if (Number(n) === 2 && tokenize(text).some((t) => t.kind === "word" && (t.norm === "twice" || t.norm === "double"))) return true;
  return saysNumber(text, String(Math.round(Number(n) * 100 * 1e6) / 1e6));
}
function scan(code, source) {
  const byScript = "script" in source;
  const values = {};
  const defaults = {};
  for (const part of PARTS) {
    if (byScript) values[part] = source.script[part];
    else if (isSettled(source.parts[part].status)) {
      values[part] = source.parts[part].value;
      defaults[part] = source.parts[part].defaults ?? [];
    }
  }
  const market = typeof values.market === "string" && isMarket(values.market) ? values.market : null;
  const catalog = new Catalog(market, values, defaults);
  const m = readCode(code);
  const traced = [];
  const invented = [];
  const seen = /* @__PURE__ */ new Set();
  const settle = (line, tokenText, r) => {
    if ("exempt" in r) return;
    const once = `${line}
${tokenText}
${r.kind}`;
    if (seen.has(once)) return;
    seen.add(once);
    if ("invented" in r) {
      invented.push({ line, token: tokenText, kind: r.kind, message: r.invented });
      return;
    }
    const fact = catalog.facts.get(r.key);
    if (fact?.exempt) return;
    if (!fact) {
      invented.push({ line, token: tokenText, kind: r.kind, message: `${said(r.key)} is not in the ${byScript ? "script" : "words"}` });
      return;
    }
    if (byScript) {
      traced.push({ line, token: tokenText, kind: r.kind, from: { script: `$.${fact.part}${fact.path}` } });
      return;
    }
    if (fact.default !== void 0) {
      traced.push({ line, token: tokenText, kind: r.kind, from: { default: fact.default } });
      return;
    }
    const spans = source.parts[fact.part].spans.filter((s) => source.text.slice(s.from, s.to) === s.text);
    if (spans.length === 0) {
      invented.push({ line, token: tokenText, kind: r.kind, message: `the reading's ${fact.part} cites no words of the text for ${said(r.key)}` });
      return;
    }
    if (fact.words === null || !Number.isFinite(Number(fact.words))) {
      const naming = fact.words === null ? [] : spans.filter((s) => mentions(s.text, fact.words));
      traced.push({ line, token: tokenText, kind: r.kind, from: { spans: naming.length > 0 ? naming : spans } });
      return;
    }
    const says = fact.path.endsWith(".minutes") ? saysMinutes : fact.path.endsWith(".strength") ? saysStrength : r.key.startsWith("distance.range.") ? saysMultiple : saysNumber;
    const saying = spans.filter((s) => says(s.text, fact.words));
    if (saying.length === 0) {
      invented.push({ line, token: tokenText, kind: r.kind, message: `the reading's ${fact.part} says ${fact.words}, which none of the words it cites say` });
      return;
    }
    traced.push({ line, token: tokenText, kind: r.kind, from: { spans: saying } });
  };
  const toks = m.tokens;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (t.kind === "number") {
      let value = Number(t.text.replaceAll("_", ""));
      let left = k;
      let right = k;
      if (toks[k - 1]?.text === "-" && UNARY_AFTER.has(toks[k - 2]?.text ?? "")) {
        value = -value;
        left = k - 1;
        if (toks[left - 1]?.text === "(" && toks[k + 1]?.text === ")" && toks[left - 2]?.kind !== "name") {
          left -= 1;
          right = k + 1;
        }
      }
      const text = toks.slice(left, right + 1).map((x) => x.text).join("");
      settle(t.line, text, numberReading(m, k, value, left, right, market));
    } else if (t.kind === "name") {
      const read2 = toks[k - 1]?.text === "." && toks[k - 2]?.text === "s" && toks[k - 3]?.text !== ".";
      const declared = toks[k - 1]?.text === "readonly" && toks[k + 1]?.text === ":" && !MARK_ARRAYS2.has(t.text);
      if (read2 || declared) {
        const r = seriesName(t.text);
        if (r) settle(t.line, t.text, r);
      } else if (t.text === "enterLong" || t.text === "enterShort") {
        settle(t.line, t.text, { key: `side:${t.text === "enterLong" ? "long" : "short"}`, kind: "side" });
      } else if (MARKETS.includes(t.text)) {
        settle(t.line, t.text, { key: `market:${t.text}`, kind: "market" });
      }
    }
  }
  for (const c of m.comments) header(c, settle);
  const order = (x) => x.sort((a, b) => a.line - b.line || (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));
  return { clean: invented.length === 0, traced: order(traced), invented: order(invented) };
}
function header(c, settle) {
  const found = /decider IR \([^)]*\): (\S+) (\S+), side (\S+)\./.exec(c.text);
  if (!found) return;
  const line = c.line + c.text.slice(0, found.index).split("\n").length - 1;
  const [, market, timeframe2, side] = found;
  settle(line, market, isMarket(market) ? { key: `market:${market}`, kind: "market" } : { invented: `${market} is no market the deck serves`, kind: "market" });
  settle(line, timeframe2, { key: `timeframe:${timeframe2}`, kind: "time" });
  settle(line, side, { key: `side:${side}`, kind: "side" });
}

export {
  __export,
  MARKETS,
  TIMEFRAMES,
  TIMEFRAME_SECONDS,
  MARKET_SPECS,
  DEFAULT_COSTS,
  slippageOf,
  feePerSide,
  round4,
  statsOf,
  windowOf,
  allocBars,
  barsFromRows,
  barsToRows,
  barsFromTuples,
  tuplesFromBars,
  readBarsCsv,
  firstAtOrAfter,
  barAt,
  concatBars,
  barsWhere,
  isOpen,
  closedSpans,
  openSeconds,
  warmStart,
  closedEnd,
  expectedBars,
  VerdictSchema,
  RehearsalSchema,
  MAX_FOLDS,
  indicatorLines,
  warmUpBars,
  IndicatorSpecError,
  parseIndicators,
  paneOf,
  tradingDay,
  NULL_BINS,
  IDLE,
  condSeries,
  idleOf,
  rehearsedSeries,
  sessionWords,
  readinessWords,
  LONGEST_WARM_UP,
  canonicalJson,
  seedHash,
  verifyWatermark,
  codeOf,
  compileDecider,
  DeciderRefusal,
  irOf,
  neighboursOf,
  rehearse,
  HORIZON,
  TOUCH_ATR,
  TOUCH_WITHIN,
  TOUCHES,
  FORECAST_TIMEFRAMES,
  EnvelopeSchema,
  compactOf,
  touchMask,
  MODEL,
  MODEL_REV,
  DEVICE,
  DEFAULT_OPTIONS,
  lookbackBars,
  ForecastError,
  lastClosedBar,
  runIssueJob,
  issuedOf,
  inWords2 as inWords,
  MarketSchema,
  SessionSchema,
  STATUSES,
  isSettled,
  PARTS,
  RuleReadingSchema,
  DEFAULT_WORDS,
  withDefaults,
  ScriptSchema,
  scriptOfReading,
  trialSession,
  noteUnsaid,
  DECIDER_VERSION,
  ReviewSchema,
  review,
  ScanSchema,
  scan,
  withHints,
  readRule,
  citationProblems,
  ClauseAccountSchema,
  accountClauses,
  jsonOf,
  parseJsonBody
};
//# sourceMappingURL=chunk-3FLKLLHA.js.map
