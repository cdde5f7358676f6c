import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../engine/stepper/prng.js';
import { EMA_CROSS } from './fixtures/scripts.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { spawnDeck, testDeck, type SpawnedDeck } from './support/deck.js';
import { runCli, writeCsv } from './support/cli.js';
import { holders, outOfStep, principalsOnDisk } from './support/identity-files.js';
import { grantsFile } from './support/mcp.js';

// The crash suite. Rounds of concurrent writes of every kind (joins, key rotations, logins, marks, plates, forges,
// studio moves, meter spends), each round cut by SIGKILL: at a random moment, or by the deck itself right after a
// named document is written (DECK_CRASH_AT, the store's test hook), with the other writes still in flight. Then the
// deck restarts on the same data, and must hold every acknowledged write, whole files and unbroken hash chains, no
// burned name and nobody locked out.
//
// DECK_CRASH_ROUNDS sets how many rounds (kills) run; the default runs each round below once. DECK_CRASH_SEED
// changes the writes chosen and the random kill moments.

type Kind = 'join' | 'rotate' | 'login' | 'mark' | 'plate' | 'forge' | 'studio' | 'meter';
const KINDS: readonly Kind[] = ['join', 'rotate', 'login', 'mark', 'plate', 'forge', 'studio', 'meter'];

/** The kinds that write each document a round can be cut at. */
const WRITERS: Record<string, readonly Kind[]> = {
  door: ['join', 'rotate'],
  accounts: ['join', 'rotate'],
  sessions: ['login'],
  marks: ['mark'],
  'plate-seals': ['plate'],
  forges: ['forge'],
  meter: ['forge', 'meter'],
  studio: ['studio'],
};

interface Round {
  /** The document whose first write kills the deck, or null for a SIGKILL at a random moment. */
  crashAt: string | null;
  /** The kind the round leans on (a cut round runs no other writer of its document). */
  focus: Kind | null;
}

const ROUNDS: readonly Round[] = [
  { crashAt: null, focus: null },
  { crashAt: 'door', focus: 'join' },
  { crashAt: 'accounts', focus: 'join' },
  { crashAt: null, focus: 'join' },
  { crashAt: 'door', focus: 'rotate' },
  { crashAt: 'accounts', focus: 'rotate' },
  { crashAt: null, focus: 'rotate' },
  { crashAt: 'marks', focus: 'mark' },
  { crashAt: 'plate-seals', focus: 'plate' },
  { crashAt: 'forges', focus: 'forge' },
  { crashAt: 'meter', focus: 'meter' },
  { crashAt: 'studio', focus: 'studio' },
  { crashAt: 'sessions', focus: 'login' },
  { crashAt: null, focus: null },
];
const ROUND_COUNT = Number(process.env.DECK_CRASH_ROUNDS ?? ROUNDS.length);
const prng = new Prng(process.env.DECK_CRASH_SEED ?? 'the deck crash suite');

const PERSONS = 8;
/** Marks and plate seals a person sends at most (under the 60 marks and the 40 seals a day the deck allows). */
const MARKS_SENT_CAP = 54;
const PLATES_SENT_CAP = 36;
const MARK_MARKETS = ['NQ', 'ES', 'YM', 'BTC', 'ETH', 'SOL'] as const;
/** Plates are drawn over the shipped BTC minutes, 90 minutes from an hour of a day every minute of which traded. */
const PLATE_HOURS = ['2017-09-03', '2017-09-04', '2017-12-17', '2018-04-05', '2018-04-06'].flatMap((day) =>
  Array.from({ length: 22 }, (_, h) => Date.parse(`${day}T00:00:00Z`) / 1000 + h * 3600),
);
const WORDS = 'Long BTC on the 1 minute chart when the 9 EMA crosses above the 21 EMA; stop 2 ATR, target 2R.';

const env = { DECK_JOIN_PER_CLIENT: '100000', DECK_JOIN_PER_DAY: '100000' };
const json = { 'content-type': 'application/json' };
const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Person {
  name: string;
  key: string;
  /** The session the person acts with; null after a rotation, until a login. */
  session: string | null;
  /** A session made at the start and never used to write: it must outlive every crash, until a rotation ends it. */
  idle: string | null;
  /** The key and session an unanswered rotation was asked with, until a restart says whether it took. */
  rotation: { key: string; session: string } | null;
  /** Why the person acts no more: locked out, the suite's failure. */
  out: string | null;
  marks: string[];
  marksSent: number;
  plates: string[];
  platesSent: number;
  forges: string[];
  studio: { strategy: string; text: string }[];
  units: { acked: number; sent: number };
}

/** The figures the suite reports at its end. */
const figures = {
  kills: 0,
  /** Per kind: kills that cut a write of that kind, writes answered, writes cut. */
  kinds: Object.fromEntries(KINDS.map((k) => [k, { kills: 0, acked: 0, cut: 0 }])) as Record<Kind, { kills: number; acked: number; cut: number }>,
  ackedLost: 0,
  namesBurned: 0,
  lockouts: 0,
  joinsUndone: 0,
  joinsWholeAnswerLost: 0,
  rotationsUndone: 0,
  /** Rotations that took with their answer cut, mended by rotating again from the session that asked. */
  rotationsMended: 0,
  tempFilesLeft: 0,
  filesChecked: 0,
  chainEntries: 0,
};
const problems: string[] = [];
const lost = (what: string) => {
  figures.ackedLost += 1;
  problems.push(`acknowledged write lost: ${what}`);
};

let dataDir: string;
let grants: string;
let venue: VenueFixture;
const decks: SpawnedDeck[] = [];
const persons: Person[] = [];
const joins: { acked: { name: string; key: string }[]; cut: string[] } = { acked: [], cut: [] };
let forgeUnits = 0;
let plateUnits = 0;
let counter = 0;

afterAll(async () => {
  for (const d of decks) if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
  await Promise.all(decks.map((d) => d.exited));
  await venue?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (grants) await rm(dirname(grants), { recursive: true, force: true });
});

const spawned = async (extra: Record<string, string> = {}) => {
  const deck = await spawnDeck({ ...env, DECK_DATA: dataDir, DECK_GRANTS: grants, DECK_TAPE_URL: venue.url, ...extra });
  decks.push(deck);
  return deck;
};

/** A request whose answer counts only when it came whole: the status and the parsed body. */
async function ask(url: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${url}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { ...(init.body === undefined ? {} : json), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, cookie: res.headers.get('set-cookie') ?? '' };
}
const sessionOf = (cookie: string) => /deck_session=([^;]+)/.exec(cookie)?.[1] ?? null;

/** A forge script of its own: the fast EMA's length varies, so does the seed. */
const forgeScript = (n: number) => {
  const fast = { kind: 'ema', n: 3 + (n % 15) };
  const slow = EMA_CROSS.entry.triggers[0]!.when;
  if (!('right' in slow)) throw new Error('the EMA cross fixture changed shape');
  return {
    ...EMA_CROSS,
    entry: {
      triggers: [
        { side: 'long', when: { op: 'crosses_above', left: fast, right: slow.right } },
        { side: 'short', when: { op: 'crosses_below', left: fast, right: slow.right } },
      ],
    },
  };
};

/** The kinds a round draws from, its focus four times as likely. */
function mixOf(round: Round): Kind[] {
  const barred = round.crashAt ? WRITERS[round.crashAt]!.filter((k) => k !== round.focus) : [];
  const kinds = KINDS.filter((k) => !barred.includes(k));
  return round.focus ? [...kinds, round.focus, round.focus, round.focus] : kinds;
}

/** One write by `p` (or an anonymous join), answering what to record when it is answered, or throwing. */
async function write(url: string, kind: Kind, p: Person): Promise<() => void> {
  const n = counter++;
  if (kind === 'join') {
    const name = `cj_${n}`;
    joins.cut.push(name);
    const a = await ask(url, '/join', { body: { name } });
    if (a.status !== 201) throw new Error(`join answered ${a.status}: ${JSON.stringify(a.body)}`);
    return () => {
      joins.cut.splice(joins.cut.indexOf(name), 1);
      joins.acked.push({ name, key: a.body.key });
    };
  }
  if (kind === 'login' || p.session === null) {
    const a = await ask(url, '/login', { body: { key: p.key } });
    const session = sessionOf(a.cookie);
    if (a.status !== 200 || !session) throw new Error(`login answered ${a.status}`);
    return () => void (p.session = session);
  }
  const headers = bearer(p.session);
  if (kind === 'rotate') {
    p.rotation = { key: p.key, session: p.session };
    const a = await ask(url, '/me/key', { body: { confirm: 'rotate' }, headers });
    if (a.status !== 200) throw new Error(`rotation answered ${a.status}: ${JSON.stringify(a.body)}`);
    return () => Object.assign(p, { key: a.body.api_key, session: null, idle: null, rotation: null });
  }
  if (kind === 'mark') {
    const note = `crash mark ${n}`;
    p.marksSent += 1;
    const a = await ask(url, '/me/marks', { body: { market: MARK_MARKETS[p.marksSent % MARK_MARKETS.length], kind: 'level', price: 100 + n, note }, headers });
    if (a.status !== 200) throw new Error(`mark answered ${a.status}: ${JSON.stringify(a.body)}`);
    return () => void p.marks.push(note);
  }
  if (kind === 'plate') {
    p.platesSent += 1;
    p.units.sent += plateUnits;
    const from = PLATE_HOURS[n % PLATE_HOURS.length]!;
    const a = await ask(url, '/plates', { body: { market: 'BTC', tf: '1m', from: iso(from), to: iso(from + 90 * 60), indicators: ['ema:9'] }, headers });
    if (a.status !== 200) throw new Error(`plate answered ${a.status}: ${JSON.stringify(a.body)}`);
    return () => {
      p.plates.push(a.body.id);
      // A plate sealed anew is spent on the meter; a re-seal (of a plate a cut call already sealed) is not.
      if (a.body.fresh) p.units.acked += plateUnits;
    };
  }
  if (kind === 'forge' || kind === 'meter') {
    p.units.sent += forgeUnits;
    const a =
      kind === 'forge'
        ? await ask(url, '/forge', { body: { intent: `crash forge ${n}`, script: forgeScript(n) }, headers })
        : await ask(url, '/meter', { body: { action: 'forge' }, headers });
    if (a.status !== 200) throw new Error(`${kind} answered ${a.status}: ${JSON.stringify(a.body).slice(0, 300)}`);
    return () => {
      p.units.acked += forgeUnits;
      if (kind === 'forge') p.forges.push(a.body.seed_hash);
    };
  }
  const strategy = `c${n}`;
  const text = `${WORDS} (${n})`;
  const a = await ask(url, '/studio/state', { body: { strategy, action: 'words', text }, headers });
  if (a.status !== 200) throw new Error(`studio move answered ${a.status}: ${JSON.stringify(a.body)}`);
  return () => void p.studio.push({ strategy, text });
}

/** The kind `p` writes next: drawn from the round's mix, less what the person may not send any more. */
function nextKind(mix: readonly Kind[], p: Person): Kind {
  for (;;) {
    const kind = mix[prng.below(mix.length)]!;
    if (kind === 'mark' && p.marksSent >= MARKS_SENT_CAP) continue;
    if (kind === 'plate' && p.platesSent >= PLATES_SENT_CAP) continue;
    return kind;
  }
}

/**
 * Writes from every person at once until the deck dies: killed by the test after a random number of answers, or by
 * itself at the round's named write. Every answer is recorded the moment it comes; a write in flight at the death is cut.
 */
async function burst(deck: SpawnedDeck, round: Round) {
  const mix = mixOf(round);
  const killAfter = 10 + prng.below(40);
  const cutKinds = new Set<Kind>();
  let answered = 0;
  let dead = false;
  const bound = setTimeout(() => {
    problems.push(`round cut at ${round.crashAt}: the deck never died`);
    deck.child.kill('SIGKILL');
  }, 30_000);

  const worker = async (p: Person) => {
    while (!dead && !p.out) {
      const kind = nextKind(mix, p);
      const shown: Kind = kind !== 'join' && p.session === null ? 'login' : kind;
      try {
        const record = await write(deck.url, kind, p);
        record();
        figures.kinds[shown].acked += 1;
        answered += 1;
        if (!round.crashAt && answered >= killAfter && !dead) {
          dead = true;
          deck.child.kill('SIGKILL');
        }
      } catch (error) {
        // A write refused while the deck lives fails the suite; one cut by the death is expected.
        if (!dead) {
          await Promise.race([deck.exited, sleep(3000)]);
          if (deck.child.signalCode === null) throw error;
          dead = true;
        }
        cutKinds.add(shown);
        figures.kinds[shown].cut += 1;
      }
    }
  };
  await Promise.all(persons.map(worker)).finally(() => clearTimeout(bound));
  expect(await deck.exited).toBeNull();
  expect(deck.child.signalCode).toBe('SIGKILL');
  figures.kills += 1;
  for (const k of cutKinds) figures.kinds[k].kills += 1;
  if (round.focus && round.crashAt) expect(cutKinds.has(round.focus), `a round cut at ${round.crashAt} cut a ${round.focus}`).toBe(true);
}

/** Every file of the data directory, relative. */
const filesOf = async (): Promise<string[]> => (await readdir(dataDir, { recursive: true })).map(String);

/**
 * Straight after a kill: every JSON document parses and every whole line of every ledger does (a last line the kill
 * tore is the restart's to cut). Answers how many temporary files the kill left.
 */
async function whole(): Promise<number> {
  const files = await filesOf();
  for (const f of files.filter((n) => n.endsWith('.json'))) {
    const text = await readFile(join(dataDir, f), 'utf8');
    expect(() => JSON.parse(text), f).not.toThrow();
  }
  for (const f of files.filter((n) => n.endsWith('.jsonl'))) {
    const lines = (await readFile(join(dataDir, f), 'utf8')).split('\n');
    lines.pop();
    for (const line of lines) expect(() => JSON.parse(line), f).not.toThrow();
  }
  return files.filter((n) => n.endsWith('.tmp')).length;
}

/** Every ledger verifies from its first entry: contiguous seq, each prev the previous hash, each hash its content's. */
async function chainsHold() {
  for (const f of (await filesOf()).filter((n) => n.endsWith('.jsonl'))) {
    const lines = (await readFile(join(dataDir, f), 'utf8')).split('\n');
    expect(lines.pop(), `${f} ends with a whole line`).toBe('');
    let prev = '0'.repeat(64);
    lines.forEach((line, i) => {
      const e = JSON.parse(line) as { seq: number; at: number; prev: string; hash: string; entry: unknown };
      expect(e.seq, f).toBe(i + 1);
      expect(e.prev, f).toBe(prev);
      expect(e.hash, f).toBe(createHash('sha256').update(JSON.stringify([e.seq, e.at, e.prev, e.entry])).digest('hex'));
      prev = e.hash;
    });
    figures.chainEntries += lines.length;
  }
}

/** Whether the door and the accounts on disk are in step, so that a start has nothing to settle. */
const inStepOnDisk = async () => outOfStep(await principalsOnDisk(dataDir)).length === 0;

/** GET /me with a credential: does it still open the door? */
const opens = async (url: string, credential: string) => (await ask(url, '/me', { headers: bearer(credential) })).status === 200;

/**
 * On a restarted deck, before it is written to: no temporary file is left, every ledger verifies, the door and the
 * accounts are in step, and everything acknowledged is there. Only reads: the checks never write.
 */
async function verify(url: string) {
  expect((await filesOf()).filter((n) => n.endsWith('.tmp')), 'temporary files left after the restart').toEqual([]);
  await chainsHold();
  figures.filesChecked += (await filesOf()).filter((n) => n.endsWith('.json') || n.endsWith('.jsonl')).length;

  const onDisk = await principalsOnDisk(dataDir);
  expect(outOfStep(onDisk), 'the door and the accounts in step').toEqual([]);

  for (const j of joins.acked) {
    const me = await ask(url, '/me', { headers: bearer(j.key) });
    if (me.status !== 200 || me.body.principal.name !== j.name) lost(`join ${j.name}: its key answers ${me.status}`);
  }
  for (const name of joins.cut) {
    const held = holders(onDisk, name);
    if (held.door && held.accounts) figures.joinsWholeAnswerLost += 1;
    else if (!held.door && !held.accounts) figures.joinsUndone += 1;
    else {
      figures.namesBurned += 1;
      problems.push(`name ${name} burned: door ${held.door}, accounts ${held.accounts}`);
    }
  }
  joins.cut.length = 0;

  await Promise.all(
    persons.map(async (p) => {
      if (p.out) return;
      if (p.rotation) {
        const [key, session] = [await opens(url, p.rotation.key), await opens(url, p.rotation.session)];
        if (key && session) figures.rotationsUndone += 1;
        else if (!key && session) {
          // The rotation took and its answer (the only place the new key is) was cut: the session that asked for it is
          // kept, so rotating again from it mends it.
          const again = await ask(url, '/me/key', { body: { confirm: 'rotate' }, headers: bearer(p.rotation.session) });
          if (again.status !== 200) {
            figures.lockouts += 1;
            problems.push(`${p.name} locked out: rotating again from the session that asked answered ${again.status}`);
            p.out = 'locked out';
            return;
          }
          figures.rotationsMended += 1;
          Object.assign(p, { key: again.body.api_key, session: null, idle: null });
        } else {
          figures.lockouts += 1;
          problems.push(`${p.name} locked out: old key ${key ? 'opens' : 'refused'}, old session refused`);
          p.out = 'locked out';
          return;
        }
        p.rotation = null;
      }
      if (!(await opens(url, p.key))) {
        figures.lockouts += 1;
        problems.push(`${p.name} locked out: the key last shown is refused`);
        p.out = 'locked out';
        return;
      }
      for (const s of [p.session, p.idle]) if (s && !(await opens(url, s))) lost(`${p.name}: a session acknowledged is refused`);
      const who = bearer(p.key);
      const notes = new Set(((await ask(url, '/me/marks', { headers: who })).body.marks as { note?: string }[]).map((m) => m.note));
      for (const note of p.marks) if (!notes.has(note)) lost(`${p.name}: mark ${note}`);
      for (const id of p.plates) {
        const state = await fetch(`${url}/plates/${id}.json`);
        const png = await fetch(`${url}/plates/${id}.png`);
        const signature = Buffer.from(await png.arrayBuffer()).subarray(0, 8).toString('hex');
        const parsed = state.status === 200 && (await state.json().then(() => true, () => false));
        if (!parsed || png.status !== 200 || signature !== '89504e470d0a1a0a') lost(`${p.name}: plate ${id}`);
      }
      for (const seed of p.forges) if ((await ask(url, `/studio/forge?seed=${seed}`, { headers: who })).status !== 200) lost(`${p.name}: forge ${seed}`);
      for (const s of p.studio) {
        const state = await ask(url, `/studio/state?strategy=${s.strategy}`, { headers: who });
        if (state.body?.record?.words !== s.text) lost(`${p.name}: studio words of ${s.strategy}`);
      }
      const { spent } = (await ask(url, '/meter', { headers: who })).body as { spent: number };
      if (spent < p.units.acked) lost(`${p.name}: ${p.units.acked - spent} units acknowledged, not on the meter`);
      expect(spent, `${p.name}: more spent than was sent`).toBeLessThanOrEqual(p.units.sent);
    }),
  );
  expect(problems).toEqual([]);
}

describe('the crash suite: SIGKILL during writes of every kind, then a restart', () => {
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'deck-crash-'));
    const names = Array.from({ length: PERSONS }, (_, i) => `crash_${i}`);
    grants = await grantsFile(names.map((name) => ({ name, tier: 'house' as const })));
    venue = await startVenue({ 'BTC/1m': sampleRows('BTC-1m') });
  });

  it(`keeps every acknowledged write through ${ROUND_COUNT} kills`, { timeout: 60_000 + ROUND_COUNT * 45_000 }, async () => {
    let deck = await spawned();
    for (let i = 0; i < PERSONS; i++) {
      const name = `crash_${i}`;
      const joined = await ask(deck.url, '/join', { body: { name } });
      expect(joined.status).toBe(201);
      const [a, b] = [await ask(deck.url, '/login', { body: { key: joined.body.key } }), await ask(deck.url, '/login', { body: { key: joined.body.key } })];
      persons.push({
        name,
        key: joined.body.key,
        session: sessionOf(a.cookie),
        idle: sessionOf(b.cookie),
        rotation: null,
        out: null,
        marks: [],
        marksSent: 0,
        plates: [],
        platesSent: 0,
        forges: [],
        studio: [],
        units: { acked: 0, sent: 0 },
      });
    }
    const prices = (await ask(deck.url, '/meter', { headers: bearer(persons[0]!.key) })).body.prices as { action: string; units: number }[];
    forgeUnits = prices.find((p) => p.action === 'forge')!.units;
    plateUnits = prices.find((p) => p.action === 'plate')!.units;

    for (let r = 0; r < ROUND_COUNT; r++) {
      const round = ROUNDS[r % ROUNDS.length]!;
      const hook: Record<string, string> = round.crashAt ? { DECK_CRASH_AT: round.crashAt } : {};
      // The named write must be the burst's: the checks only read, and a start writes the door only to settle it.
      const direct = round.crashAt !== 'door' || (await inStepOnDisk());
      if (r > 0) {
        // A start that dies names the round: a start must write none of the documents a round is cut at.
        deck = await spawned(direct ? hook : {}).catch((error: Error) => {
          throw new Error(`round ${r} (cut at ${round.crashAt ?? 'a random moment'}, ${direct ? 'hooked' : 'unhooked'} start after round ${r - 1}): ${error.message}`);
        });
        await verify(deck.url);
      }
      if (round.crashAt && (r === 0 || !direct)) {
        await deck.stop();
        // The checks may have rotated a key again (mending an answer the last round cut), and the door keeps a
        // rotation's previous key until a start settles it: one start more settles it before the hooked one.
        if (round.crashAt === 'door' && !(await inStepOnDisk())) {
          await (await spawned()).stop();
          expect(await inStepOnDisk(), 'the door settled by a start').toBe(true);
        }
        deck = await spawned(hook);
      }
      await burst(deck, round);
      figures.tempFilesLeft += await whole();
      expect(persons.some((p) => !p.out), 'someone is left to write').toBe(true);
    }
    deck = await spawned();
    await verify(deck.url);
    await deck.stop();

    process.stdout.write(`crash suite figures (DECK_CRASH_ROUNDS=${ROUND_COUNT}): ${JSON.stringify(figures, null, 1)}\n`);
    expect(figures.kills).toBe(ROUND_COUNT);
    expect([figures.ackedLost, figures.namesBurned, figures.lockouts]).toEqual([0, 0, 0]);
    for (const k of KINDS) if (ROUND_COUNT >= ROUNDS.length) expect(figures.kinds[k].kills, `kills that cut a ${k}`).toBeGreaterThan(0);
  });
});

describe('temporary files a crash left', () => {
  it('are removed at start, and nothing else in the data directory is', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-temps-'));
    const theirs = ['.accounts.json.tmp', 'plates/.ab12.png.tmp', 'plates/.ab12.png.0123456789ab.tmp', 'images/.cd34.webp.a1b2c3d4e5f6.tmp', 'plates/.ab12.json.tmp', 'images/.cd34.webp.tmp', 'tape/BTC/1m/.2018-04-05.json.tmp'];
    const others = ['notes.tmp', '.notes.txt.tmp', 'accounts.json.tmp', 'plates/ab12.png', 'keep/.x.tmp', 'plates/.ab12.png.xyz.tmp'];
    for (const f of [...theirs, ...others]) {
      await mkdir(dirname(join(dir, f)), { recursive: true });
      await writeFile(join(dir, f), '{"torn": ');
    }
    const deck = await testDeck({ DECK_DATA: dir });
    try {
      const left = (await readdir(dir, { recursive: true })).map(String);
      for (const f of theirs) expect(left, f).not.toContain(f);
      for (const f of others) expect(left, f).toContain(f);
      expect((await fetch(`${deck.url}/join`)).status).toBe(200);
    } finally {
      await deck.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('are left alone by a command that may run beside a deck (a tape import), as they may be its writes in flight', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-temps-'));
    try {
      const inFlight = ['.accounts.json.tmp', 'plates/.ab12.png.0123456789ab.tmp'];
      for (const f of inFlight) {
        await mkdir(dirname(join(dir, f)), { recursive: true });
        await writeFile(join(dir, f), '{"half": ');
      }
      const csv = await writeCsv(dir, 'bars.csv', [[1_741_000_020, 1, 2, 0.5, 1.5, 10]]);
      const done = await runCli('tape', ['import', csv, '--market', 'BTC', '--tf', '1m'], dir);
      expect(done.code, done.stderr).toBe(0);
      const left = (await readdir(dir, { recursive: true })).map(String);
      for (const f of inFlight) expect(left, f).toContain(f);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
