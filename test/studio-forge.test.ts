import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWatermark } from '../engine/decider/index.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, modernClient, refusalIn, rpc } from './support/mcp.js';
import { answered, callAnswered } from './support/answers.js';
import { REVIEW_CLASSES } from '../engine/forge/index.js';

// The forge over real HTTP and MCP: words or a script block become watermarked code, kept per principal for two
// hours by seed hash; the onboarded register, the reader lanes, the keyless strategy tools and workflow_read.

const EMA_CROSS =
  'BTC on the 1 minute chart, long and short, around the clock: go long when the 9 EMA crosses above the 21 EMA, go short when the 9 EMA crosses below the 21 EMA. Stop 2 ATR(14). Target 2R.';
const ORB =
  'Long NQ on the 5 minute chart when price breaks above the 30 minute opening range high, during the cash session. Stop at the opening range low. Exit at the session close.';

let deck: TestDeck;
let grants: string;
let house: Awaited<ReturnType<typeof signedIn>>;
let me: Awaited<ReturnType<typeof signedIn>>;
const forgeAs = (who: { bearer: Record<string, string> }, body: unknown) => callAnswered(`${deck.url}/forge`, { body, headers: who.bearer });

/** A script block the register holds, by name, as GET /forge?onboard answers it. */
async function onboardScript(name: string) {
  const { status, body } = await callAnswered(`${deck.url}/forge?onboard=${name}`, { headers: house.bearer });
  expect(status).toBe(200);
  return body as { intent: string; script: Record<string, unknown> };
}

beforeAll(async () => {
  grants = await grantsFile([{ name: 'forge_house', tier: 'house' }]);
  deck = await testDeck({ DECK_GRANTS: grants });
  house = await signedIn(deck.url, 'forge_house');
  me = await signedIn(deck.url, 'forger');
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});

describe('POST /forge', () => {
  it('needs a session', async () => {
    expect((await callAnswered(`${deck.url}/forge`, { body: { intent: EMA_CROSS } })).status).toBe(401);
  });

  it('forges words into watermarked code: the same intent gives the same seed_hash and the same code bytes', async () => {
    const first = await forgeAs(house, { intent: EMA_CROSS });
    expect(first.status).toBe(200);
    answered('forge', first.body);
    const { seed_hash, version, code, watermark, script } = first.body;
    // This deck holds no bars and has no venue: the forge warns that a rehearsal of its BTC rule would be refused.
    expect(Object.keys(first.body)).toEqual(['ok', 'seed_hash', 'version', 'code', 'watermark', 'script', 'review', 'scan', 'warnings']);
    expect(first.body.warnings).toEqual([{ code: 'market_not_held', message: expect.stringContaining('the tape holds no 1m bars of BTC') }]);
    expect(seed_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(watermark).toEqual({ seed_hash, version });
    expect(verifyWatermark(code)).toEqual({ seed_hash, version });
    expect(script).toMatchObject({ version: 'script.v1', market: 'BTC', timeframe: '1m', side: 'both' });
    const again = await forgeAs(house, { intent: EMA_CROSS, author: 'someone else' });
    expect(again.body.seed_hash).toBe(seed_hash);
    expect(Buffer.from(again.body.code).equals(Buffer.from(code))).toBe(true);
    expect(again.body.review).toEqual(first.body.review);
    const other = await forgeAs(house, { intent: ORB });
    expect(other.body.seed_hash).not.toBe(seed_hash);
  });

  it('reviews the code in nine named classes and traces what it carries to the words', async () => {
    const { body } = await forgeAs(house, { intent: EMA_CROSS });
    // The nine names are pinned to the list in engine/forge/review.test.ts.
    expect(body.review.classes.map((c: { name: string }) => c.name)).toEqual([...REVIEW_CLASSES]);
    for (const c of body.review.classes) expect(['passed', 'flagged']).toContain(c.status);
    expect(body.review.classes.find((c: { name: string }) => c.name === 'missing stop').status).toBe('passed');
    expect(body.scan).toMatchObject({ clean: true, invented: [] });
    // Every traced token cites words of the intent that say it (the 21 of the slow EMA, for one).
    const traced = body.scan.traced as { token: string; kind: string; from: { spans?: { from: number; to: number }[] } }[];
    const slow = traced.find((t) => t.kind === 'indicator' && /21/.test(t.token))!;
    expect(slow.from.spans!.map((sp) => EMA_CROSS.slice(sp.from, sp.to)).join(' ')).toMatch(/21 EMA/);
  });

  it('forges a script block as it is: the words and their script give one seed_hash', async () => {
    const { intent, script } = await onboardScript('ema-cross');
    const byScript = await forgeAs(house, { intent: 'the onboarded ema-cross', script });
    expect(byScript.status).toBe(200);
    answered('forge', byScript.body);
    expect(byScript.body.script).toEqual(script);
    // What the code carries is traced to the script block's paths, not to words.
    expect(byScript.body.scan.clean).toBe(true);
    expect(byScript.body.scan.traced.every((t: { from: { script?: string } }) => t.from.script?.startsWith('$.'))).toBe(true);
    const byWords = await forgeAs(house, { intent });
    expect(byWords.body.seed_hash).toBe(byScript.body.seed_hash);
  });

  it('refuses words that do not state all seven parts with 422 naming intent and the parts', async () => {
    const res = await forgeAs(house, { intent: 'Buy Bitcoin when RSI is oversold.' });
    expect(res.status).toBe(422);
    expect(res.body.problems.map((p: { field: string }) => p.field)).toEqual(['intent']);
    const parts = res.body.parts.map((p: { part: string }) => p.part);
    expect(parts).toEqual(expect.arrayContaining(['timeframe', 'stop', 'exit']));
    expect(parts).not.toContain('market');
    expect(res.body.message).toMatch(/stop is missing/);
    // each refused part carries the words that would read
    expect(res.body.parts).toContainEqual({ part: 'stop', status: 'missing', hint: "say where the rule is wrong: 'stop 10 points', 'stop 1.5 ATR(14)', 'stop below the swing low', 'trailing stop 2%'" });
    const zoneless = await forgeAs(house, { intent: 'ES 1m: buy when price crosses above VWAP, stop 4 points, exit at 11:30.' });
    expect(zoneless.status).toBe(422);
    expect(zoneless.body.parts).toEqual([{ part: 'exit', status: 'ambiguous', hint: 'write the zone: ET, New York time or UTC' }]);
  });

  it('forges a clock exit on an opening-range rule whose window closes at it, and says so in the review', async () => {
    const res = await forgeAs(house, { intent: 'ES 1m: buy a break above the 30-minute opening range high, stop at the opening range low, exit at 11:30 ET.' });
    expect(res.status).toBe(200);
    answered('forge', res.body);
    expect(res.body.review.classes.every((c: { status: string }) => c.status === 'passed')).toBe(true);
    expect(res.body.review.notes).toEqual([
      {
        line: (res.body.code as string).split('\n').findIndex((l) => l.includes('if (s.session_gate[i]! !== 1) return;')) + 1,
        message: "a clock exit closes the entry window too: no trade opens in a window once 11:30 America/New_York has come round in it: the rule's words name the exit time, not the end of its entries",
      },
    ]);
    expect(res.body.scan).toMatchObject({ clean: true, invented: [] });
  });

  it('forges a rule that states no session or no ATR length on the documented defaults, each traced to its rule', async () => {
    const crypto = await forgeAs(house, { intent: 'BTC 1m: go long when the close crosses above the 20 EMA. Stop 1.5 ATR(14) below entry. Take profit at 2R.' });
    expect(crypto.status).toBe(200);
    answered('forge', crypto.body);
    expect(crypto.body.script).toMatchObject({ market: 'BTC', session: { kind: 'always' } });
    expect(crypto.body.scan).toMatchObject({ clean: true, invented: [] });
    const futures = await forgeAs(house, { intent: 'NQ 5m: buy when price crosses above VWAP, stop 1 ATR, target 2R.' });
    expect(futures.status).toBe(200);
    answered('forge', futures.body);
    expect(futures.body.script).toMatchObject({
      session: { kind: 'windows', zone: 'America/New_York', windows: [{ from: '09:30', to: '16:00' }] },
      stop: { kind: 'distance', distance: { unit: 'atr', n: 1, period: 14 } },
    });
    expect(futures.body.scan).toMatchObject({ clean: true, invented: [] });
    const traced = futures.body.scan.traced as { token: string; from: { default?: string } }[];
    const rules = (token: string) => new Set(traced.filter((t) => t.token === token).map((t) => t.from.default));
    expect(rules('atr_14')).toEqual(new Set(['atr_length']));
    expect(rules('session_gate')).toEqual(new Set(['session_futures']));
    // With no market read there is no default to take: the session stays missing.
    const marketless = await forgeAs(house, { intent: 'On the 5m chart buy when price crosses above VWAP, stop 10 points, target 2R.' });
    expect(marketless.status).toBe(422);
    expect(marketless.body.parts).toEqual([
      { part: 'market', status: 'missing', hint: 'name the market: NQ, ES, YM, BTC, ETH or SOL' },
      { part: 'session', status: 'missing', hint: "name the market, whose session stands when none is said, or give a window: 'between 09:45 and 11:30 ET'" },
    ]);
  });

  it('refuses a script block by the path that fails its shape, and a script the forge cannot run by its part', async () => {
    const { script } = await onboardScript('ema-cross');
    const badShape = await forgeAs(house, { intent: 'x', script: { ...script, market: 'XAU' } });
    expect(badShape.status).toBe(422);
    expect(badShape.body.problems.map((p: { field: string }) => p.field)).toContain('script.market');
    const noPeriod = { ...script, stop: { kind: 'distance', distance: { unit: 'atr', n: 2, period: null } } };
    const refused = await forgeAs(house, { intent: 'x', script: noPeriod });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ part: 'stop', problems: [{ field: 'script.stop' }] });
    expect(refused.body.message).toMatch(/ATR's length is not stated/);
    const noIntent = await forgeAs(house, { script });
    expect(noIntent.status).toBe(422);
    expect(noIntent.body.problems.map((p: { field: string }) => p.field)).toEqual(['intent']);
  });

  it('publishes the script block\'s schema in OpenAPI', async () => {
    const doc = await (await fetch(`${deck.url}/openapi.json`)).json();
    const at = doc.paths['/forge'].post.requestBody.content['application/json'].schema.properties.script;
    // A shape the document states in several places (a script block is a forge's body and its answer) is one component.
    const script = at.$ref ? doc.components.schemas[at.$ref.replace('#/components/schemas/', '')] : at;
    expect(Object.keys(script.properties)).toEqual(['version', 'market', 'timeframe', 'session', 'side', 'entry', 'stop', 'exit']);
    expect(script.additionalProperties).toBe(false);
    // The recursive condition tree is one component the script refers to.
    const refs = [...JSON.stringify(script).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(doc.components.schemas[ref]).toBeDefined();
  });

  it('answers 400 for a body that is not JSON and 413 over 256 KB', async () => {
    expect((await callAnswered(`${deck.url}/forge`, { raw: '{"intent":', headers: house.bearer })).status).toBe(400);
    const big = await forgeAs(house, { intent: 'Long BTC. '.repeat(27_000) });
    expect(big.status).toBe(413);
    const justUnder = await forgeAs(house, { intent: `${EMA_CROSS} ${' '.repeat(250 * 1024)}` });
    expect(justUnder.status).toBe(200);
  });

  it('casts 3 forges a UTC day on the free tier (429 naming the limit); a refused cast and the house are not counted', async () => {
    const free = await signedIn(deck.url, 'three_forges');
    expect((await forgeAs(free, { intent: 'Buy Bitcoin when RSI is oversold.' })).status).toBe(422);
    for (let i = 0; i < 3; i++) expect((await forgeAs(free, { intent: EMA_CROSS })).status, `forge ${i}`).toBe(200);
    const fourth = await forgeAs(free, { intent: ORB });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toMatchObject({ error: 'forge_limit', tier: 'free', per_day: 3 });
    expect(fourth.body.retry_after_s).toBeLessThanOrEqual(86_400);
    expect(fourth.headers.get('retry-after')).toBe(String(fourth.body.retry_after_s));
    // A refused cast keeps nothing: the earlier forge is still there, the refused one is not.
    const kept = await forgeAs(house, { intent: ORB });
    expect((await callAnswered(`${deck.url}/studio/forge?seed=${kept.body.seed_hash}`, { headers: free.bearer })).status).toBe(404);
    for (let i = 0; i < 4; i++) expect((await forgeAs(house, { intent: EMA_CROSS })).status).toBe(200);
  });

  it('records each cast on the meter', async () => {
    const spender = await signedIn(deck.url, 'forge_spender');
    const before = (await callAnswered(`${deck.url}/meter`, { headers: spender.bearer })).body;
    const forgeUnits = before.prices.find((p: { action: string }) => p.action === 'forge').units;
    await forgeAs(spender, { intent: EMA_CROSS });
    const after = (await callAnswered(`${deck.url}/meter`, { headers: spender.bearer })).body;
    expect(after.spent - before.spent).toBe(forgeUnits);
    await forgeAs(spender, { intent: 'no rule here' });
    expect((await callAnswered(`${deck.url}/meter`, { headers: spender.bearer })).body.spent).toBe(after.spent);
  });

  it('is the forge tool on /mcp/studio, with the same seed_hash and code', async () => {
    const rest = await forgeAs(house, { intent: ORB });
    const client = await legacyClient(`${deck.url}/mcp/studio`, house.bearer);
    try {
      const result = await client.callTool({ name: 'forge', arguments: { intent: ORB } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(rest.body);
      answered('forge', result.structuredContent);
      const refused = await client.callTool({ name: 'forge', arguments: { intent: 'Buy Bitcoin when RSI is oversold.' } });
      expect(refused.isError).toBe(true);
      expect(refusalIn(refused)).toMatchObject({ status: 422, problems: [{ field: 'intent' }] });
    } finally {
      await client.close();
    }
  });
});

describe('one cast at a time', () => {
  it('refuses a second forge while one is casting for the principal (429), and casts again after', async () => {
    // The calls of one batch start one turn of the event loop apart; by then the first cast is waiting for its record
    // to be written to disk, which takes later turns, so the second always finds the first still running.
    const batch = [1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'forge', arguments: { intent: EMA_CROSS } } }));
    const answer = await rpc(`${deck.url}/mcp/studio`, batch, house.bearer);
    const results = (answer.body as { id: number; result: { isError?: boolean; structuredContent: Record<string, unknown> } }[]).sort((a, b) => a.id - b.id);
    expect(results[0]!.result.isError).toBeFalsy();
    expect(refusalIn(results[1]!.result)).toMatchObject({ status: 429, error: 'busy', guard: 'forge_cast', retry_after_s: 1 });
    expect((await forgeAs(house, { intent: EMA_CROSS })).status).toBe(200);
  });
});

describe('GET /studio/forge', () => {
  it('answers your forge by seed, and 404 for an unknown seed or another principal\'s', async () => {
    const forged = await forgeAs(me, { intent: ORB });
    const mine = await callAnswered(`${deck.url}/studio/forge?seed=${forged.body.seed_hash}`, { headers: me.bearer });
    expect(mine.status).toBe(200);
    answered('forge_read', mine.body);
    expect(mine.body).toMatchObject({ ok: true, seed_hash: forged.body.seed_hash, code: forged.body.code });
    expect(mine.body.review).toEqual(forged.body.review);
    expect(mine.body.scan).toEqual(forged.body.scan);
    const stranger = await signedIn(deck.url, 'stranger');
    const theirs = await callAnswered(`${deck.url}/studio/forge?seed=${forged.body.seed_hash}`, { headers: stranger.bearer });
    expect(theirs.status).toBe(404);
    expect((await callAnswered(`${deck.url}/studio/forge?seed=${'0'.repeat(64)}`, { headers: me.bearer })).status).toBe(404);
    expect((await callAnswered(`${deck.url}/studio/forge?seed=nope`, { headers: me.bearer })).status).toBe(422);
    expect((await callAnswered(`${deck.url}/studio/forge?seed=${forged.body.seed_hash}`)).status).toBe(401);
  });
});

describe('the two-hour window', () => {
  it('reads a forge past its expiry as 404 and prunes it at the next cast', async () => {
    const data = await mkdtemp(join(tmpdir(), 'deck-forge-expiry-'));
    try {
      let d = await testDeck({ DECK_DATA: data });
      const who = await signedIn(d.url, 'expiring');
      const old = await callAnswered(`${d.url}/forge`, { body: { intent: ORB }, headers: who.bearer });
      expect((await callAnswered(`${d.url}/studio/forge?seed=${old.body.seed_hash}`, { headers: who.bearer })).status).toBe(200);
      await d.stop();
      // Two hours and a minute later, as the kept record sees it.
      const file = join(data, 'forges.json');
      const doc = JSON.parse(await readFile(file, 'utf8'));
      for (const list of Object.values(doc.by_principal) as { expires_at: number; created_at: number }[][]) {
        for (const r of list) {
          r.created_at -= 121 * 60_000;
          r.expires_at -= 121 * 60_000;
        }
      }
      await writeFile(file, JSON.stringify(doc));
      d = await testDeck({ DECK_DATA: data });
      try {
        expect((await callAnswered(`${d.url}/studio/forge?seed=${old.body.seed_hash}`, { headers: who.bearer })).status).toBe(404);
        await callAnswered(`${d.url}/forge`, { body: { intent: EMA_CROSS }, headers: who.bearer });
        const kept = async () => (Object.values(JSON.parse(await readFile(file, 'utf8')).by_principal) as { id: string }[][]).flat().map((r) => r.id);
        expect(await kept()).not.toContain(old.body.seed_hash);
        expect(await kept()).toHaveLength(1);
        // Casting the same seed again replaces the kept forge.
        await callAnswered(`${d.url}/forge`, { body: { intent: EMA_CROSS }, headers: who.bearer });
        expect(await kept()).toHaveLength(1);
      } finally {
        await d.stop();
      }
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  });
});

describe('GET /forge?onboard and the register', () => {
  it('answers the intent and exact script of an onboarded algorithm', async () => {
    const { status, body } = await callAnswered(`${deck.url}/forge?onboard=opening-range-breakout`, { headers: me.bearer });
    answered('forge_onboard', body);
    expect(status).toBe(200);
    const register = JSON.parse(await readFile(new URL('../config/register.json', import.meta.url), 'utf8'));
    const entry = register.strategies.find((s: { name: string }) => s.name === 'opening-range-breakout');
    expect(body).toMatchObject({ ok: true, name: entry.name, intent: entry.intent, source: entry.source });
    expect(body.script).toEqual(entry.script);
  });

  it('keeps the house\'s own strategies sealed (404 sealed, nothing of them shown) and answers 404 for an unknown name', async () => {
    const register = JSON.parse(await readFile(new URL('../config/register.json', import.meta.url), 'utf8'));
    const own = register.strategies.find((s: { house: boolean }) => s.house);
    const sealed = await callAnswered(`${deck.url}/forge?onboard=${own.name}`, { headers: me.bearer });
    expect(sealed.status).toBe(404);
    expect(Object.keys(sealed.body)).toEqual(['ok', 'error', 'message']);
    expect(sealed.body.error).toBe('sealed');
    expect(JSON.stringify(sealed.body)).not.toContain(own.intent);
    const unknown = await callAnswered(`${deck.url}/forge?onboard=no-such-algo`, { headers: me.bearer });
    expect(unknown.status).toBe(404);
    expect(unknown.body.names).toContain('ema-cross');
    expect(unknown.body.names).not.toContain(own.name);
    expect((await callAnswered(`${deck.url}/forge`, { headers: me.bearer })).status).toBe(422);
  });

  it('forges every public register entry from its words to its own script', async () => {
    const register = JSON.parse(await readFile(new URL('../config/register.json', import.meta.url), 'utf8'));
    for (const s of register.strategies.filter((x: { house: boolean }) => !x.house)) {
      const byWords = await forgeAs(house, { intent: s.intent });
      expect(byWords.status, s.name).toBe(200);
      expect(byWords.body.script, s.name).toEqual(s.script);
    }
  });

  it('answers 500 naming the register when the register does not load', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-register-'));
    const path = join(dir, 'register.json');
    await writeFile(path, JSON.stringify({ strategies: [{ name: 'broken', title: 't', house: false, source: 's', intent: 'i', script: { version: 'script.v1' } }] }));
    const d = await testDeck({ DECK_REGISTER: path });
    try {
      const who = await signedIn(d.url, 'register_reader');
      const res = await callAnswered(`${d.url}/forge?onboard=broken`, { headers: who.bearer });
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ error: 'register_unreadable' });
      expect(res.body.message).toMatch(/strategies\.0\.script\.market/);
      // The file is named by its variable, never by where it sits on the machine.
      expect(res.body.message).not.toContain(dir);
    } finally {
      await d.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the keyless strategies and strategy_quote tools', () => {
  it('list the public register and quote a forge and a rehearsal from the price list, without a key', async () => {
    const client = await legacyClient(`${deck.url}/mcp`);
    try {
      const listed = await client.callTool({ name: 'strategies', arguments: {} });
      answered('strategies', listed.structuredContent);
      const names = (listed.structuredContent as { strategies: { name: string; market: string }[] }).strategies.map((s) => s.name);
      expect(names).toEqual(['ema-cross', 'opening-range-breakout', 'rsi2-pullback', 'donchian-breakout']);
      const quote = await client.callTool({ name: 'strategy_quote', arguments: { name: 'ema-cross' } });
      answered('strategy_quote', quote.structuredContent);
      const prices = (await callAnswered(`${deck.url}/price`)).body.prices as { action: string; units: number; per_1000_bars?: number }[];
      const forge = prices.find((p) => p.action === 'forge')!;
      const rehearse = prices.find((p) => p.action === 'rehearse')!;
      // 168 hours of 1m bars (10,080) and an EMA(21)'s warm-up of 64 bars.
      const bars = 10_080 + 64;
      const rehearseUnits = rehearse.units + Math.ceil((rehearse.per_1000_bars! * bars) / 1000);
      expect(quote.structuredContent).toMatchObject({
        ok: true,
        market: 'BTC',
        timeframe: '1m',
        window: { hours: 168, bars_at_most: bars },
        meter: { forge: forge.units, rehearse: rehearseUnits, total: forge.units + rehearseUnits },
      });
      const sealed = await client.callTool({ name: 'strategy_quote', arguments: { name: 'house-one' } });
      expect(sealed.isError).toBe(true);
      expect(refusalIn(sealed)).toMatchObject({ status: 404, error: 'sealed' });
    } finally {
      await client.close();
    }
  });
});

describe('GET /forge/lanes', () => {
  it('lists the embedded lane as available and the model lane as unavailable with its reason', async () => {
    const { status, body } = await callAnswered(`${deck.url}/forge/lanes`, { headers: me.bearer });
    answered('forge_lanes', body);
    expect(status).toBe(200);
    expect(body.lanes).toEqual([
      expect.objectContaining({ id: 'embedded', available: true }),
      expect.objectContaining({ id: 'model', available: false, reason: expect.stringMatching(/DECK_READER_URL/) }),
    ]);
    expect((await callAnswered(`${deck.url}/forge/lanes`)).status).toBe(401);
  });
});

describe('the workflow_read tool', () => {
  it('reads a rule into seven parts on /mcp/studio, in both protocol eras alike', async () => {
    const legacy = await legacyClient(`${deck.url}/mcp/studio`, me.bearer);
    const modern = await modernClient(`${deck.url}/mcp/studio`, { headers: me.bearer });
    try {
      const a = await legacy.callTool({ name: 'workflow_read', arguments: { text: EMA_CROSS } });
      const b = await modern.callTool({ name: 'workflow_read', arguments: { text: EMA_CROSS } });
      answered('workflow_read', b.structuredContent);
      expect(b.structuredContent).toEqual(a.structuredContent);
      const { parts } = a.structuredContent as { parts: Record<string, { status: string; value: unknown; spans: { from: number; to: number }[] }> };
      expect(Object.keys(parts)).toEqual(['market', 'timeframe', 'session', 'side', 'entry', 'stop', 'exit']);
      expect(parts.market).toMatchObject({ status: 'read', value: 'BTC' });
      expect(parts.stop!.value).toEqual({ kind: 'distance', distance: { unit: 'atr', n: 2, period: 14 } });
      const cited = parts.stop!.spans.map((s) => EMA_CROSS.slice(s.from, s.to)).join(' ');
      expect(cited).toMatch(/2 ATR\(14\)/);
      // Around the clock is said; a rule that says nothing of the session takes its market's default, and says so.
      expect(parts.session).toMatchObject({ status: 'read', value: { kind: 'always' } });
      const quiet = await legacy.callTool({ name: 'workflow_read', arguments: { text: 'ES 5m: buy above VWAP, stop 4 points, target 2R.' } });
      const read = (quiet.structuredContent as { parts: Record<string, { status: string; defaults?: unknown; note?: string }> }).parts;
      answered('workflow_read', quiet.structuredContent);
      expect(read.session).toMatchObject({ status: 'defaulted', defaults: [{ path: '', rule: 'session_futures' }], note: expect.stringMatching(/cash session/) });
    } finally {
      await legacy.close();
      await modern.close();
    }
  });

  it('accounts for every clause of the words, and hints at the words that would read, on MCP and over the studio', async () => {
    const text = 'YM 1m. Long when price crosses above VWAP. Take profit 1.1 percent; close after 2 hours. Risk $500 per trade, stop 40 points, exit at 11:30.';
    const client = await legacyClient(`${deck.url}/mcp/studio`, me.bearer);
    try {
      const got = await client.callTool({ name: 'workflow_read', arguments: { text } });
      answered('workflow_read', got.structuredContent);
      const { parts, clauses } = got.structuredContent as {
        parts: Record<string, { status: string; value: unknown; hint?: string }>;
        clauses: { span: { text: string }; parts: string[]; unused: { span: { text: string }; why: string; hint?: string }[] }[];
      };
      expect(clauses.map((c) => [c.span.text, c.parts])).toEqual([
        ['YM 1m', ['market', 'timeframe', 'session']],
        ['Long when price crosses above VWAP', ['side', 'entry']],
        ['Take profit 1.1 percent', ['exit']],
        ['close after 2 hours', ['exit']],
        ['Risk $500 per trade', []],
        ['stop 40 points', ['stop']],
        ['exit at 11:30', ['exit']],
      ]);
      expect(clauses[4]!.unused.map((u) => u.span.text)).toEqual(['Risk', '$500 per trade']);
      expect(clauses[4]!.unused[1]!.why).toMatch(/position sizing/);
      // the target and the time exit both stand; the clock, said without a zone, is ambiguous and hints
      expect(parts.exit).toMatchObject({ status: 'ambiguous', hint: 'write the zone: ET, New York time or UTC' });
    } finally {
      await client.close();
    }
    // the studio's read answers the same, the record keeping the parts
    const act = (body: Record<string, unknown>) => callAnswered(`${deck.url}/studio/state`, { body: { strategy: 'clauses', ...body }, headers: me.bearer });
    expect((await act({ action: 'words', text })).status).toBe(200);
    const read = await act({ action: 'read' });
    expect(read.status).toBe(200);
    expect(read.body.record.state).toBe('unclear');
    expect(read.body.answer.clauses.map((c: { span: { text: string } }) => c.span.text)).toContain('close after 2 hours');
    expect(read.body.record.reading.exit.hint).toBe('write the zone: ET, New York time or UTC');
  });

  it('says in the reading, and in the forge\'s review, that a session window with no time exit closes a trade at its end', async () => {
    const words = 'Long NQ on the 1 minute chart during the cash session when the 9 EMA crosses above the 21 EMA. Stop 20 points. Target 2R.';
    const client = await legacyClient(`${deck.url}/mcp/studio`, me.bearer);
    try {
      const read = async (text: string) =>
        ((await client.callTool({ name: 'workflow_read', arguments: { text } })).structuredContent as { parts: Record<string, { note?: string }> }).parts;
      expect((await read(words)).session!.note).toBe(
        'as forged, a trade still open when its session window ends is closed at the close of the bar that ends the window (flat at window end): the words name no time to be out',
      );
      // Words that give the time to be out, or a rule around the clock, leave nothing unsaid.
      expect((await read(words.replace('Target 2R.', 'Exit at the close.'))).session!.note).toBeUndefined();
      expect((await read(EMA_CROSS)).session!.note).toBeUndefined();
    } finally {
      await client.close();
    }
    const { body } = await forgeAs(house, { intent: words });
    expect(body.review.classes.every((c: { status: string }) => c.status === 'passed')).toBe(true);
    expect(body.review.notes).toEqual([
      {
        line: (body.code as string).split('\n').findIndex((l) => l.includes('deadline(st, s.session_end[k]!, WHY_SESSION_END);')) + 1,
        message: 'a trade still open when its session window ends is closed at the close of the bar that ends the window (flat at window end): the rule names no clock or close exit of its own',
      },
    ]);
  });

  it('refuses words over the 4,000-character cap with 413 and needs a key', async () => {
    const client = await legacyClient(`${deck.url}/mcp/studio`, me.bearer);
    try {
      const over = await client.callTool({ name: 'workflow_read', arguments: { text: 'x'.repeat(4001) } });
      expect(over.isError).toBe(true);
      expect(refusalIn(over)).toMatchObject({ status: 413, cap_chars: 4000 });
      const at = await client.callTool({ name: 'workflow_read', arguments: { text: `${EMA_CROSS}${' '.repeat(4000 - EMA_CROSS.length)}` } });
      expect(at.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const keyless = await legacyClient(`${deck.url}/mcp/studio`);
    try {
      await expect(keyless.callTool({ name: 'workflow_read', arguments: { text: EMA_CROSS } })).rejects.toThrow();
    } finally {
      await keyless.close();
    }
  });
});
