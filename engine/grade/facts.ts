import { irOf, ScriptSchema, verifyWatermark, type DeciderIR, type ExitWhy, type Script } from '../decider/index.js';
import type { Review, Scan } from '../forge/index.js';
import { MARKET_SPECS } from '../markets.js';
import { PARTS, type RuleReading } from '../reader/schema.js';
import type { KeptRehearsal, KeptTrade, ToJudge } from './kept.js';

/**
 * The facts code checks before any grader is asked (RUBRIC_v1.md lists them). A fact that does not hold makes a
 * grade a reject, and keeps its questions from being asked in a score.
 */
export interface Fact {
  name: string;
  held: boolean;
  detail: string;
}

/** What the facts read of a forge (the store keeps more). */
export interface ForgeFacts {
  id: string;
  version: string;
  script: unknown;
  code: string;
  review: Review;
  scan: Scan;
}

const fact = (name: string, held: boolean, detail: string): Fact => ({ name, held, detail });
const notChecked = (name: string, why: string): Fact => fact(name, false, `not checked: ${why}`);
const list = (xs: readonly string[], most = 3): string => xs.slice(0, most).join('; ') + (xs.length > most ? `; and ${xs.length - most} more` : '');

// ---- the rehearsal's trades ---------------------------------------------------------------------------------------

/** Slack for rounding: one tick in price, and R rounded to four decimals. */
const R_ROUNDING = 1e-4;

/**
 * Whether a trade kept to its stop: it lost at most 1R plus its costs (the exit's slippage, both fees, one tick of
 * rounding), or it left at the open of a bar that opened at or through its stop, where a gap fills (the stepper's
 * rule: a gap fills where the market is, not at the stop). A stop not on the losing side keeps to nothing.
 */
export function brokeStop(t: KeptTrade, r: Pick<KeptRehearsal, 'market' | 'costs'>): string | null {
  const d = t.side === 'long' ? 1 : -1;
  const risk = d * (t.entry - t.stop);
  if (!(risk > 0)) return `its stop ${t.stop} is not on the losing side of its entry ${t.entry}`;
  const tick = MARKET_SPECS[r.market].tick;
  const slip = r.costs.slippage;
  const fees = r.costs.fee.unit === 'points' ? 2 * r.costs.fee.per_side : ((t.entry + t.exit) * r.costs.fee.per_side) / 10_000;
  const floor = -1 - (slip + tick + fees) / risk - R_ROUNDING;
  if (t.r >= floor) return null;
  const gapped = t.exit_open !== null && d * (t.exit_open - t.stop) <= 0 && Math.abs(t.exit - (t.exit_open - d * slip)) <= tick;
  if (gapped) return null;
  return `it lost ${-t.r}R where its stop and costs allow at most ${Math.round(-floor * 1e4) / 1e4}R`;
}

/** The ways out a rule has: its stop (moved by its breakeven and trail), target, time exits, exit rule, session end. */
export function exitsOf(ir: DeciderIR): Set<ExitWhy> {
  const out = new Set<ExitWhy>(['stop', 'end_of_data']);
  if (ir.breakeven) out.add('breakeven');
  if (ir.trail) out.add('trail');
  if (ir.target) out.add('target');
  if (ir.exit_when) out.add('exit_rule');
  if (ir.time.some((t) => t.kind === 'bars' || t.kind === 'seconds')) out.add('time');
  if (ir.time.some((t) => t.kind === 'clock')) out.add('clock');
  if (ir.time.some((t) => t.kind === 'session_close')) out.add('session_close');
  if (ir.flat_at_session_end) out.add('session_end');
  return out;
}

const named = (t: KeptTrade, i: number) => `trade ${i + 1} (${t.side}, entry_t ${t.entry_t})`;

/** stop_obeyed, sides and exits: the kept rehearsal's trades against the rule's stop, side and ways out. */
export function tradeFacts(script: Script | null, kept: KeptRehearsal | null): Fact[] {
  const names = ['stop_obeyed', 'sides', 'exits'];
  if (!kept) return names.map((n) => notChecked(n, 'no rehearsal'));
  if (!script) return names.map((n) => notChecked(n, 'no valid script'));
  const n = kept.trades.length;

  const broken = kept.trades.flatMap((t, i) => {
    const why = brokeStop(t, kept);
    return why ? [`${named(t, i)}: ${why}`] : [];
  });
  const stop = broken.length
    ? fact('stop_obeyed', false, `${broken.length} of ${n} trades broke their stop: ${list(broken)}`)
    : fact('stop_obeyed', true, `each of the ${n} trades lost at most 1R plus costs, or left at an open that gapped through its stop`);

  const wrongSide = kept.trades.flatMap((t, i) => (script.side !== 'both' && t.side !== script.side ? [named(t, i)] : []));
  const sides = wrongSide.length
    ? fact('sides', false, `the rule is ${script.side} only, yet ${list(wrongSide)} went the other way`)
    : fact('sides', true, `every trade is ${script.side === 'both' ? 'long or short' : script.side}, as the rule allows`);

  let exits: Fact;
  try {
    const allowed = exitsOf(irOf({ ...script, market: kept.market }));
    const stray = kept.trades.flatMap((t, i) => (allowed.has(t.why) ? [] : [`${named(t, i)} left by ${t.why}`]));
    exits = stray.length
      ? fact('exits', false, `the rule leaves only by ${[...allowed].join(', ')}, yet ${list(stray)}`)
      : fact('exits', true, `every trade left by a way the rule has (${[...allowed].join(', ')})`);
  } catch (error) {
    exits = fact('exits', false, `the rule's ways out cannot be read: ${(error as Error).message}`);
  }
  return [stop, sides, exits];
}

// ---- grade -----------------------------------------------------------------------------------------------------

/**
 * The facts of a grade, every one of them, in order: seven_parts, stop_present, review_clean, scan_clean, watermark,
 * rehearsed, stop_obeyed, sides, exits.
 */
export function gradeFacts(forge: ForgeFacts, pick: ToJudge): Fact[] {
  const kept = pick.kept;
  const parsed = ScriptSchema.safeParse(forge.script);
  const script = parsed.success ? parsed.data : null;
  const sevenParts = script
    ? fact('seven_parts', true, `the script states all seven parts: ${PARTS.join(', ')}`)
    : fact('seven_parts', false, `the script is not a whole script.v1: ${list(parsed.error!.issues.map((i) => `${i.path.join('.') || 'script'}: ${i.message}`))}`);

  const missingStop = forge.review.classes.find((c) => c.name === 'missing stop');
  const stopPresent = !script
    ? notChecked('stop_present', 'no valid script')
    : missingStop?.status === 'passed'
      ? fact('stop_present', true, `the rule places a ${script.stop.kind === 'distance' ? `${script.stop.distance.unit} distance` : `level ${script.stop.where} its level`} stop, and the self-review's missing stop class passed`)
      : fact('stop_present', false, `the self-review's missing stop class is flagged: ${list((missingStop?.findings ?? []).map((f) => `line ${f.line}: ${f.message}`))}`);

  const flagged = forge.review.classes.filter((c) => c.status === 'flagged');
  const reviewClean = flagged.length
    ? fact('review_clean', false, `the self-review flags ${flagged.map((c) => `${c.name} (line ${c.findings[0]?.line ?? '?'})`).join(', ')}`)
    : fact('review_clean', true, `all ${forge.review.classes.length} classes of the self-review passed`);

  const scanClean =
    forge.scan.clean && forge.scan.invented.length === 0
      ? fact('scan_clean', true, `every one of the ${forge.scan.traced.length} values in the code is traced to the words, the script or a documented default`)
      : fact('scan_clean', false, `the scan finds invented values: ${list(forge.scan.invented.map((x) => `${x.kind} ${x.token} on line ${x.line}`))}`);

  const mark = verifyWatermark(forge.code);
  const watermark =
    mark && mark.seed_hash === forge.id && mark.version === forge.version
      ? fact('watermark', true, `the code carries this forge's watermark (${forge.version})`)
      : fact('watermark', false, mark ? `the code's watermark names another forge (${mark.seed_hash.slice(0, 12)}..., ${mark.version})` : 'the code carries no whole watermark');

  const rehearsed = pick.kept
    ? fact(
        'rehearsed',
        true,
        `rehearsal ${pick.kept.digest} (${pick.chosen === 'named' ? 'the one named' : `the latest of this seed on ${pick.kept.market}, the rule's market`}): ` +
          `${pick.kept.trades.length} trades on ${pick.kept.market} ${pick.kept.timeframe}, ${pick.kept.window.bars} bars from ${pick.kept.window.from} to ${pick.kept.window.to}`,
      )
    : fact('rehearsed', false, pick.why);

  return [sevenParts, stopPresent, reviewClean, scanClean, watermark, rehearsed, ...tradeFacts(script, kept)];
}

// ---- score -------------------------------------------------------------------------------------------------------

/**
 * The facts of a score of stage parts: each of the seven parts read or completed by a documented default (not
 * missing, not ambiguous), then citations (every span of the reading is the words it quotes). Spans are named by their character offsets, never quoted:
 * facts are kept in the score ledger, which keeps the words only as their digest.
 */
export function partFacts(reading: RuleReading, citationProblems: readonly string[]): Fact[] {
  const parts = PARTS.map((p) => {
    const part = reading[p];
    const citing = `citing characters ${part.spans.map((s) => `${s.from}-${s.to}`).join(', ')}`;
    if (part.status === 'read') return fact(p, true, `read, ${citing}`);
    if (part.status === 'defaulted') return fact(p, true, `defaulted by ${(part.defaults ?? []).map((d) => d.rule).join(', ')}, ${citing}`);
    if (part.status === 'ambiguous') return fact(p, false, `ambiguous: ${part.readings?.length ?? 0} readings compete`);
    return fact(p, false, 'missing');
  });
  const citations = citationProblems.length
    ? fact('citations', false, `${citationProblems.length} spans of the reading are not the words they quote`)
    : fact('citations', true, 'every span of the reading is the words it quotes');
  return [...parts, citations];
}

/** The facts of a score of stage rehearsed: the trade facts, then traded (the rehearsal holds a trade to judge). */
export function rehearsedFacts(script: Script | null, kept: KeptRehearsal): Fact[] {
  const traded = kept.trades.length
    ? fact('traded', true, `the rehearsal holds ${kept.trades.length} trades`)
    : fact('traded', false, 'the rehearsal holds no trade to judge: rehearse a window in which the rule trades');
  return [...tradeFacts(script, kept), traded];
}
