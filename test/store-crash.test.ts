import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signedIn, spawnDeck, type SpawnedDeck } from './support/deck.js';

// A burst of concurrent writes of three kinds (marks, meter spends, joins), a SIGKILL while some are still
// in flight, then a restart on the same data: every write the deck acknowledged must still be there.

const PRINCIPALS = 4;
const IN_FLIGHT = 24;
/** The kill lands when this many writes are acknowledged, while IN_FLIGHT more are under way. */
const KILL_AFTER = 150;
const MARKETS = ['NQ', 'ES', 'YM', 'BTC', 'ETH', 'SOL'] as const;

const env = { DECK_JOIN_PER_CLIENT: '10000', DECK_JOIN_PER_DAY: '100000' };
const json = (headers: Record<string, string> = {}) => ({ 'content-type': 'application/json', ...headers });

let dataDir: string;
const decks: SpawnedDeck[] = [];
afterAll(async () => {
  for (const d of decks) if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
  await Promise.all(decks.map((d) => d.exited));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

type Principal = Awaited<ReturnType<typeof signedIn>>;

interface Acks {
  marks: { who: number; note: string }[];
  forges: number[];
  joins: { name: string; key: string | null }[];
}

/** Writes until the deck dies; each 2xx answer is recorded before anything else can happen. */
async function burst(url: string, principals: Principal[], kill: (inFlight: number) => void) {
  const acks: Acks = { marks: [], forges: [], joins: [] };
  const sentForges = principals.map(() => 0);
  let next = 0;
  let inFlight = 0;
  let unanswered = 0;
  let dead = false;
  const acked = () => acks.marks.length + acks.forges.length + acks.joins.length;

  const write = async (i: number) => {
    const who = i % PRINCIPALS;
    const { bearer } = principals[who]!;
    const kind = i % 3;
    const name = `burst_${i}`;
    const note = `burst write ${i}`;
    if (kind === 1) sentForges[who]! += 1;
    const req =
      kind === 0
        ? { path: '/me/marks', headers: json(bearer), body: { market: MARKETS[Math.floor(i / 12) % MARKETS.length], kind: 'level', price: 100 + i, note } }
        : kind === 1
          ? { path: '/meter', headers: json(bearer), body: { action: 'forge' } }
          : { path: '/join', headers: json(), body: { name } };
    const res = await fetch(`${url}${req.path}`, { method: 'POST', headers: req.headers, body: JSON.stringify(req.body) });
    if (res.status < 200 || res.status > 299) throw new Error(`${req.path} answered ${res.status}: ${await res.text()}`);
    if (kind === 0) acks.marks.push({ who, note });
    if (kind === 1) acks.forges.push(who);
    const joined = kind === 2 ? { name, key: null as string | null } : null;
    if (joined) acks.joins.push(joined);
    if (!dead && acked() >= KILL_AFTER) {
      dead = true;
      kill(inFlight - 1);
    }
    // The key rides in the body; should the kill cut the body short, the name alone is checked.
    if (joined) joined.key = ((await res.json().catch(() => ({}))) as { key?: string }).key ?? null;
  };

  const worker = async () => {
    while (!dead) {
      inFlight += 1;
      try {
        await write(next++);
      } catch (error) {
        // Before the kill every write must be acknowledged; after it, a refused connection is expected.
        if (!dead) throw error;
        unanswered += 1;
      } finally {
        inFlight -= 1;
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { acks, sentForges, unanswered };
}

/** Every *.json file under `dir` (the data directory keeps one per collection). */
async function jsonFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true });
  return names.filter((n) => n.endsWith('.json')).map((n) => join(dir, n));
}

/** Checks the meter ledger from its first entry: contiguous seq, each prev the previous hash, each hash its content's. */
function chainOf(text: string) {
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  let prev = '0'.repeat(64);
  return lines.map((line, i) => {
    const e = JSON.parse(line) as { seq: number; at: number; prev: string; hash: string; entry: { action: string } };
    expect(e.seq).toBe(i + 1);
    expect(e.prev).toBe(prev);
    expect(e.hash).toBe(createHash('sha256').update(JSON.stringify([e.seq, e.at, e.prev, e.entry])).digest('hex'));
    prev = e.hash;
    return e;
  });
}

describe('a deck killed mid-burst', () => {
  it('keeps every acknowledged write, whole files and an unbroken meter ledger', { timeout: 90_000 }, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'deck-crash-'));
    const first = await spawnDeck({ ...env, DECK_DATA: dataDir });
    decks.push(first);
    const principals: Principal[] = [];
    for (let p = 0; p < PRINCIPALS; p++) principals.push(await signedIn(first.url, `crash_${p}`));

    let inFlightAtKill = -1;
    // Bounded in time: should the acknowledgements not come, the deck is killed all the same and the burst fails.
    const bounded = setTimeout(() => first.child.kill('SIGKILL'), 20_000);
    const { acks, sentForges, unanswered } = await burst(first.url, principals, (inFlight) => {
      inFlightAtKill = inFlight;
      first.child.kill('SIGKILL');
    })
      .catch((error: Error) => {
        throw new Error(`the burst stopped before ${KILL_AFTER} writes were acknowledged: ${error.message}`);
      })
      .finally(() => clearTimeout(bounded));
    expect(await first.exited).toBeNull();
    expect(first.child.signalCode).toBe('SIGKILL');

    // The kill landed mid-burst: writes were in flight and some were never answered.
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(unanswered).toBeGreaterThan(0);
    expect(acks.marks.length).toBeGreaterThan(0);
    expect(acks.forges.length).toBeGreaterThan(0);
    expect(acks.joins.length).toBeGreaterThan(0);

    // Straight after the kill: no document is torn.
    const files = await jsonFiles(dataDir);
    expect(files.map((f) => f.slice(dataDir.length + 1)).sort()).toEqual(expect.arrayContaining(['accounts.json', 'marks.json', 'sessions.json']));
    for (const f of files) {
      const text = await readFile(f, 'utf8');
      expect(() => JSON.parse(text), f).not.toThrow();
    }

    const second = await spawnDeck({ ...env, DECK_DATA: dataDir });
    decks.push(second);
    const url = second.url;
    const { prices } = (await (await fetch(`${url}/meter`, { headers: principals[0]!.bearer })).json()) as { prices: { action: string; units: number }[] };
    const forgeUnits = prices.find((p) => p.action === 'forge')!.units;
    expect(forgeUnits).toBeGreaterThan(0);

    for (const [who, p] of principals.entries()) {
      // Sessions survive the crash: the session bearer still reads the marks.
      const marks = await fetch(`${url}/me/marks`, { headers: p.bearer });
      expect(marks.status).toBe(200);
      const notes = new Set(((await marks.json()) as { marks: { note?: string }[] }).marks.map((m) => m.note));
      for (const m of acks.marks.filter((a) => a.who === who)) expect(notes, m.note).toContain(m.note);

      // Every acknowledged spend is on the meter; a spend answered by no one may or may not be.
      const meter = await fetch(`${url}/meter`, { headers: { authorization: `Bearer ${p.key}` } });
      expect(meter.status).toBe(200);
      const { spent } = (await meter.json()) as { spent: number };
      const acked = acks.forges.filter((a) => a === who).length;
      expect(spent).toBeGreaterThanOrEqual(acked * forgeUnits);
      expect(spent).toBeLessThanOrEqual(sentForges[who]! * forgeUnits);
    }

    for (const { name, key } of acks.joins) {
      if (key) {
        const login = await fetch(`${url}/login`, { method: 'POST', headers: json(), body: JSON.stringify({ key }) });
        expect(login.status, name).toBe(200);
        expect(((await login.json()) as { name: string }).name).toBe(name);
      } else {
        const again = await fetch(`${url}/join`, { method: 'POST', headers: json(), body: JSON.stringify({ name }) });
        expect(again.status, name).toBe(409);
      }
    }

    // The restarted deck appends onto the chain, which verifies from the first entry.
    const after = await fetch(`${url}/meter`, { method: 'POST', headers: json(principals[0]!.bearer), body: JSON.stringify({ action: 'forge' }) });
    expect(after.status).toBe(200);
    const chain = chainOf(await readFile(join(dataDir, 'meter.jsonl'), 'utf8'));
    expect(chain.length).toBeGreaterThanOrEqual(acks.forges.length + 1);
    expect(chain.length).toBeLessThanOrEqual(sentForges.reduce((a, b) => a + b, 0) + 1);
    expect(chain.every((e) => e.entry.action === 'forge')).toBe(true);
  });
});
