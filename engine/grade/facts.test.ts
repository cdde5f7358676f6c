import { describe, expect, it } from 'vitest';
import { EMA_CROSS } from '../../test/fixtures/scripts.js';
import { editLine, FORGE_VERSION, forged, lineWith, VARIETY } from '../../test/support/forged.js';
import { sampleFile } from '../../test/support/tape-file.js';
import { closedSpans } from '../calendar.js';
import { compileDecider, irOf, seedHash, type Script } from '../decider/index.js';
import { review, scan } from '../forge/index.js';
import { DEFAULT_COSTS, rehearse } from '../stepper/index.js';
import { rehearseScript, toyBars } from '../stepper/toy-bars.js';
import { brokeStop, exitsOf, gradeFacts, rehearsedFacts, tradeFacts, type ForgeFacts } from './facts.js';
import { keptOf, pickRehearsal, type KeptRehearsal, type KeptTrade } from './kept.js';

/** A forge as the deck keeps one, from a script block. */
function forgeOf(script: Script): ForgeFacts {
  const { ir, code } = forged(script);
  return { id: seedHash(ir, FORGE_VERSION), version: FORGE_VERSION, script, code, review: review(ir, code), scan: scan(code, { script }) };
}

/** The rule rehearsed over real bars, kept as grading keeps it. */
function rehearsed(script: Script, tape: string): KeptRehearsal {
  const ir = irOf(script);
  const seed = seedHash(ir, FORGE_VERSION);
  const bars = sampleFile(tape);
  return keptOf(seed, 'e'.repeat(64), rehearse(ir, compileDecider(ir, seed, FORGE_VERSION), bars, { seed, nullRuns: 10 }), bars);
}

const names = (facts: { name: string; held: boolean }[]) => facts.filter((f) => !f.held).map((f) => f.name);

// The ema cross on ES trades around the clock, so trades are held through the daily breaks.
const ES_CROSS: Script = { ...EMA_CROSS, market: 'ES' };
const btc = rehearsed(EMA_CROSS, 'BTC-1m');
const es = rehearsed(ES_CROSS, 'ES-1m');

describe('the trades of a real rehearsal', () => {
  it('obey their stop, side and ways out, on BTC and on ES through its halts', () => {
    expect(btc.trades.length).toBeGreaterThan(100);
    expect(tradeFacts(EMA_CROSS, btc).every((f) => f.held)).toBe(true);
    // Some trade is held through a daily break.
    expect(es.trades.some((t) => closedSpans('ES', t.entry_t, t.exit_t).length > 0)).toBe(true);
    expect(tradeFacts(ES_CROSS, es).every((f) => f.held)).toBe(true);
  });

  it('include a trade that left at an open gapped through its stop for more than 1R, witnessed by that open', () => {
    // ES 1m: the close crosses 100 at bar 1, the long fills at 100.5 (one tick of slippage: 100.75) with a 2-point
    // stop; bar 3 opens at 97, through the stop.
    const rule: Script = {
      ...EMA_CROSS,
      market: 'ES',
      side: 'long',
      entry: { triggers: [{ side: 'long', when: { op: 'crosses_above', left: { kind: 'price', field: 'close' }, right: { kind: 'constant', value: 100 } } }] },
      stop: { kind: 'distance', distance: { unit: 'points', n: 2 } },
    };
    const rows = [[99, 99.5, 98.5, 99], [99, 100.5, 98.75, 100.25], [100.5, 101, 100, 100.75], [97, 97.5, 96.5, 97]] as const;
    const bars = toyBars(rows, Date.UTC(2024, 5, 3, 13, 29) / 1000);
    const kept = keptOf('c'.repeat(64), 'd'.repeat(64), rehearseScript(rule, bars, { costs: DEFAULT_COSTS.ES }), bars);
    const [gapped] = kept.trades;
    expect(gapped).toMatchObject({ why: 'stop', exit_open: 97, exit: 96.75 });
    expect(gapped!.r).toBeLessThan(-1.5);
    expect(tradeFacts(rule, kept).every((f) => f.held)).toBe(true);
    expect(brokeStop({ ...gapped!, exit_open: null }, kept)).toMatch(/lost .*R where its stop and costs allow at most/);
  });
});

describe('stop_obeyed', () => {
  const long: KeptTrade = { side: 'long', entry_t: 0, entry: 100_000, stop: 99_800, exit_t: 600, exit: 99_799.5, r: -1.502, why: 'stop', exit_open: 99_950 };
  const costs = { market: 'BTC' as const, costs: btc.costs };

  it('holds for a stop filled in the bar, slippage and both fees within 1R plus costs', () => {
    expect(brokeStop(long, costs)).toBeNull();
  });

  it('fails for a loss beyond 1R plus costs that no gap explains', () => {
    const deep = { ...long, exit: 99_500, r: -2.9998 };
    expect(brokeStop(deep, costs)).toMatch(/lost 2.9998R where its stop and costs allow at most 1.5014R/);
    expect(brokeStop({ ...deep, exit_open: 99_500.5 }, costs)).toBeNull();
  });

  it('fails for a stop on the winning side', () => {
    expect(brokeStop({ ...long, stop: 100_100 }, costs)).toMatch(/not on the losing side/);
  });

  it('names the trades that broke it', () => {
    const kept = { ...btc, trades: [...btc.trades.slice(0, 5), { ...long, exit: 99_000, r: -5 }] };
    const [stop] = tradeFacts(EMA_CROSS, kept);
    expect(stop).toMatchObject({ name: 'stop_obeyed', held: false, detail: expect.stringMatching(/^1 of 6 trades broke their stop: trade 6 \(long/) });
  });
});

describe('sides and exits', () => {
  it('a long-only rule with a short trade fails sides', () => {
    const longOnly: Script = { ...EMA_CROSS, side: 'long', entry: { triggers: [EMA_CROSS.entry.triggers[0]!] } };
    const facts = tradeFacts(longOnly, btc);
    expect(names(facts)).toEqual(['sides']);
  });

  it('a trade leaving by a way the rule does not have fails exits', () => {
    const kept = { ...btc, trades: btc.trades.map((t, i) => (i === 3 ? { ...t, why: 'trail' as const } : t)) };
    const exits = tradeFacts(EMA_CROSS, kept)[2]!;
    expect(exits).toMatchObject({ name: 'exits', held: false });
    expect(exits.detail).toContain('trade 4');
  });

  it('the ways out are the rule\'s own: stop, target, trail, breakeven, time, clock, session end, rule exit', () => {
    expect([...exitsOf(irOf(EMA_CROSS))].sort()).toEqual(['end_of_data', 'stop', 'target']);
    expect([...exitsOf(irOf(VARIETY.priorDay!))].sort()).toEqual(['breakeven', 'clock', 'end_of_data', 'stop', 'target', 'time', 'trail']);
    expect([...exitsOf(irOf(VARIETY.marks!))].sort()).toEqual(['breakeven', 'end_of_data', 'exit_rule', 'session_end', 'stop', 'target', 'trail']);
    expect([...exitsOf(irOf(VARIETY.openingRange!))].sort()).toEqual(['end_of_data', 'session_close', 'stop', 'time', 'trail']);
  });
});

describe('the facts of a grade', () => {
  const forge = forgeOf(EMA_CROSS);
  const rehearsal = { ...btc, id: forge.id };
  const kept = { kept: rehearsal, chosen: 'latest_on_rule_market' as const };

  it('all hold for a whole forge with a clean review and scan, its watermark, and a rehearsal that obeys its stop', () => {
    const facts = gradeFacts(forge, kept);
    expect(facts.map((f) => f.name)).toEqual(['seven_parts', 'stop_present', 'review_clean', 'scan_clean', 'watermark', 'rehearsed', 'stop_obeyed', 'sides', 'exits']);
    expect(names(facts)).toEqual([]);
    expect(facts[5]!.detail).toBe(
      `rehearsal ${rehearsal.digest} (the latest of this seed on BTC, the rule's market): ${rehearsal.trades.length} trades on BTC 1m, ` +
        `${rehearsal.window.bars} bars from ${rehearsal.window.from} to ${rehearsal.window.to}`,
    );
    expect(gradeFacts(forge, { kept: rehearsal, chosen: 'named' })[5]!.detail).toMatch(/^rehearsal e{64} \(the one named\): /);
  });

  it('without a rehearsal: rehearsed fails and the trade facts are not checked', () => {
    const facts = gradeFacts(forge, pickRehearsal([], 'BTC', null)!);
    expect(names(facts)).toEqual(['rehearsed', 'stop_obeyed', 'sides', 'exits']);
    expect(facts[5]!.detail).toContain('POST /studio/rehearse');
    expect(facts[6]!.detail).toBe('not checked: no rehearsal');
  });

  it('a script missing a part fails seven_parts', () => {
    const { exit: _, ...noExit } = EMA_CROSS;
    expect(names(gradeFacts({ ...forge, script: noExit }, kept))).toEqual(['seven_parts', 'stop_present', 'stop_obeyed', 'sides', 'exits']);
  });

  it('a flagged review fails review_clean, and stop_present when the class is missing stop', () => {
    const classes = forge.review.classes.map((c) => (c.name === 'missing stop' ? { ...c, status: 'flagged' as const, findings: [{ line: 7, message: 'no stop' }] } : c));
    const facts = gradeFacts({ ...forge, review: { ...forge.review, classes } }, kept);
    expect(names(facts)).toEqual(['stop_present', 'review_clean']);
    expect(facts[2]!.detail).toBe('the self-review flags missing stop (line 7)');
  });

  it('an invented value fails scan_clean', () => {
    const invented = { line: 12, token: '42', kind: 'number' as const, message: 'not in the words' };
    expect(names(gradeFacts({ ...forge, scan: { ...forge.scan, clean: false, invented: [invented] } }, kept))).toEqual(['scan_clean']);
  });

  it('code whose watermark was altered fails watermark', () => {
    const line = lineWith(forge.code, 'SEED_HASH');
    const altered = editLine(forge.code, line, forge.id, 'f'.repeat(64));
    expect(names(gradeFacts({ ...forge, code: altered }, kept))).toEqual(['watermark']);
    expect(names(gradeFacts({ ...forge, version: 'forge.other.v1' }, kept))).toEqual(['watermark']);
  });
});

describe('the facts of a rehearsed score', () => {
  it('add traded: a rehearsal without trades has nothing to judge', () => {
    expect(names(rehearsedFacts(EMA_CROSS, btc))).toEqual([]);
    expect(names(rehearsedFacts(EMA_CROSS, { ...btc, trades: [] }))).toEqual(['traded']);
  });
});

describe('the rehearsal a grade judges', () => {
  const at = (digest: string, market: KeptRehearsal['market']): KeptRehearsal => ({ ...btc, digest: digest.repeat(64), market });
  const [a, b, c] = [at('a', 'BTC'), at('b', 'ETH'), at('c', 'BTC')];

  it('is the one named by its digest, whatever its market', () => {
    expect(pickRehearsal([a, b, c], 'BTC', b.digest)).toEqual({ kept: b, chosen: 'named' });
    expect(pickRehearsal([a, b, c], 'BTC', a.digest)).toEqual({ kept: a, chosen: 'named' });
  });

  it('is none when the one named is not kept', () => {
    expect(pickRehearsal([a, b], 'BTC', 'f'.repeat(64))).toBeNull();
  });

  it('without a name, is the latest on the rule\'s own market, never a later one moved to another market', () => {
    expect(pickRehearsal([a, c, b], 'BTC', null)).toEqual({ kept: c, chosen: 'latest_on_rule_market' });
    expect(pickRehearsal([a, b], 'BTC', null)).toEqual({ kept: a, chosen: 'latest_on_rule_market' });
    const elsewhere = pickRehearsal([b], 'BTC', null)!;
    expect(elsewhere.kept).toBeNull();
    expect(gradeFacts(forgeOf(EMA_CROSS), elsewhere)[5]).toEqual({
      name: 'rehearsed',
      held: false,
      detail: "no rehearsal of this seed on BTC, the rule's market, is kept (only on ETH): rehearse it on BTC, or name the rehearsal to judge by its rehearsal_digest",
    });
  });
});
