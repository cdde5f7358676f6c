import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doorServer, type DoorServer } from './fixtures/door-server.js';
import { signedIn, spawnDeck, type SpawnedDeck } from './support/deck.js';
import { call } from './support/http.js';
import { accountsOnDisk, outOfStep, principalsOnDisk } from './support/identity-files.js';

// A join or a key rotation cut by SIGKILL at each of its steps, with the embedded door and with a remote one; then
// the deck restarts on the same data. The deck cuts itself at a named step (DECK_CRASH_AT: right after that
// document's write is on disk, before anyone is answered); a remote door's step is cut by the door doing the write
// and the deck being killed before the answer reaches it.

/** Principals joined before any crash, one per case, all from this client. */
const KEEPERS = ['keeper_join_door', 'keeper_join_commit', 'keeper_rotate_door', 'keeper_rotate_commit'];
/** The client may join once more than the keepers: a join cut before its commit must give its count back. */
const LIMITS = { DECK_JOIN_PER_CLIENT: String(KEEPERS.length + 1), DECK_JOIN_PER_DAY: '1000' };

const temps: string[] = [];
const decks: SpawnedDeck[] = [];
afterAll(async () => {
  for (const d of decks) if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
  await Promise.all(decks.map((d) => d.exited));
  await Promise.all(temps.map((t) => rm(t, { recursive: true, force: true })));
});

const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'deck-identity-crash-'));
  temps.push(dir);
  return dir;
};
const spawned = async (env: Record<string, string>) => {
  const deck = await spawnDeck(env);
  decks.push(deck);
  return deck;
};

/** A keeper signed in twice: `session` (its bearer) asks for its rotations, `other` is a session made beside it. */
type Keeper = Awaited<ReturnType<typeof signedIn>> & { other: string };
const asBearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
const joinAs = (url: string, name: string) => call(`${url}/join`, { body: { name } });
const loginWith = (url: string, key: string) => call(`${url}/login`, { body: { key } });
const me = (url: string, credential: string) => call(`${url}/me`, { headers: asBearer(credential) });
const rotateWith = (url: string, keeper: Keeper) => fetch(`${url}/me/key`, { method: 'POST', headers: { 'content-type': 'application/json', ...keeper.bearer }, body: JSON.stringify({ confirm: 'rotate' }) });
const joinRequest = (url: string, name: string) => fetch(`${url}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });

const accountNamed = async (dir: string, name: string) => Object.values(await accountsOnDisk(dir)).find((a) => a.name === name) ?? null;

/** The embedded door and the accounts agree: the same principals, each at the same key generation, nothing pending. */
const inStep = async (dir: string) => expect(outOfStep(await principalsOnDisk(dir))).toEqual([]);

interface Door {
  env: Record<string, string>;
  /** The data directory the keepers joined in, copied for each case. */
  base: string;
  keepers: Record<string, Keeper>;
}

/** Joins and signs in every keeper on a fresh data directory, then stops that deck. */
async function prepared(env: Record<string, string>): Promise<Door> {
  const base = await tempDir();
  const deck = await spawned({ ...env, DECK_DATA: base });
  const keepers: Record<string, Keeper> = {};
  for (const name of KEEPERS) {
    const first = await signedIn(deck.url, name);
    const again = await fetch(`${deck.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: first.key }) });
    keepers[name] = { ...first, other: /deck_session=([^;]+)/.exec(again.headers.get('set-cookie') ?? '')![1]! };
  }
  await deck.stop();
  return { env, base, keepers };
}

/**
 * Copies the prepared data, starts a deck on it, makes `act` die with it (the deck kills itself at `crashAt`, or
 * `kill` kills it), checks nobody was answered, and starts a deck again on what the crash left.
 */
async function cutShort(door: Door, crashAt: string | null, act: (url: string) => Promise<Response>, kill?: (deck: SpawnedDeck) => Promise<void>) {
  const dir = await tempDir();
  await cp(door.base, dir, { recursive: true });
  const dying = await spawned({ ...door.env, DECK_DATA: dir, ...(crashAt ? { DECK_CRASH_AT: crashAt } : {}) });
  const answer = act(dying.url).then(
    (res) => res.status,
    () => null,
  );
  if (kill) await kill(dying);
  expect(await answer).toBeNull();
  expect(await dying.exited).toBeNull();
  expect(dying.child.signalCode).toBe('SIGKILL');
  const deck = await spawned({ ...door.env, DECK_DATA: dir });
  return { dir, url: deck.url };
}

/** Waits until `done` holds (the remote door has done the write the deck asked for), then kills the deck. */
const killWhen = (done: () => boolean) => async (deck: SpawnedDeck) => {
  const until = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > until) throw new Error('the door was never asked');
    await new Promise((r) => setTimeout(r, 10));
  }
  deck.child.kill('SIGKILL');
};

/** After a join that never completed: the name is free again, and the join gave its count back. */
async function joinUndone(url: string, name: string) {
  expect((await joinAs(url, name)).status, `${name} is free again`).toBe(201);
  expect((await joinAs(url, 'one_too_many')).status, 'the per-client limit holds exactly').toBe(429);
}

describe('a join or a rotation cut by SIGKILL, with the embedded door', () => {
  let door: Door;
  beforeAll(async () => {
    door = await prepared(LIMITS);
  }, 60_000);

  it('a join cut after the door minted and before the account was written never happened: the name is free, the count given back', { timeout: 60_000 }, async () => {
    const { dir, url } = await cutShort(door, 'door', (u) => joinRequest(u, 'newcomer'));
    expect(await accountNamed(dir, 'newcomer')).toBeNull();
    await joinUndone(url, 'newcomer');
    await inStep(dir);
  });

  it('a join cut after its account was written happened whole: the name is taken at the door and in the accounts', { timeout: 60_000 }, async () => {
    const { dir, url } = await cutShort(door, 'accounts', (u) => joinRequest(u, 'newcomer'));
    expect(await accountNamed(dir, 'newcomer')).not.toBeNull();
    expect((await joinAs(url, 'newcomer')).status).toBe(409);
    // It used the client's last join of the day.
    expect((await joinAs(url, 'one_too_many')).status).toBe(429);
    await inStep(dir);
  });

  it('a rotation cut after the door took the new key and before the account counted it never happened: the old key and sessions work', { timeout: 60_000 }, async () => {
    const keeper = door.keepers.keeper_rotate_door!;
    const { dir, url } = await cutShort(door, 'door', (u) => rotateWith(u, keeper));
    expect((await accountNamed(dir, 'keeper_rotate_door'))!.key_gen).toBe(1);
    expect((await loginWith(url, keeper.key)).status).toBe(200);
    expect((await me(url, keeper.session)).status).toBe(200);
    expect((await me(url, keeper.other)).status).toBe(200);
    expect((await me(url, keeper.key)).status).toBe(200);
    await inStep(dir);
  });

  it('a rotation cut after the account counted the new key took whole: the old key and the other sessions stop; rotating again from the one that asked mends the lost answer', { timeout: 60_000 }, async () => {
    const keeper = door.keepers.keeper_rotate_commit!;
    const { dir, url } = await cutShort(door, 'accounts', (u) => rotateWith(u, keeper));
    expect((await accountNamed(dir, 'keeper_rotate_commit'))!.key_gen).toBe(2);
    expect((await loginWith(url, keeper.key)).status).toBe(401);
    expect((await me(url, keeper.other)).status).toBe(401);
    // Every other keeper is untouched.
    expect((await loginWith(url, door.keepers.keeper_join_door!.key)).status).toBe(200);
    await inStep(dir);
    // The answer, the only place the new key was, died with the deck: the session that asked still holds.
    expect((await me(url, keeper.session)).status).toBe(200);
    const again = await call(`${url}/me/key`, { body: { confirm: 'rotate' }, headers: keeper.bearer });
    expect(again.status).toBe(200);
    expect((await loginWith(url, again.body.api_key)).status).toBe(200);
  });
});

describe('a join or a rotation cut by SIGKILL, with a remote door (DECK_DOOR_URL)', () => {
  let remote: DoorServer;
  let door: Door;
  beforeAll(async () => {
    remote = await doorServer('deck_live_');
    door = await prepared({ ...LIMITS, DECK_DOOR_URL: remote.url });
  }, 60_000);
  afterAll(async () => {
    await remote.close();
  });

  it('a join whose answer from the door never arrived records nothing and gives its count back; the door keeps the name', { timeout: 60_000 }, async () => {
    remote.mode = 'lost';
    const { dir, url } = await cutShort(door, null, (u) => joinRequest(u, 'far_newcomer'), killWhen(() => remote.names().includes('far_newcomer'))).finally(() => {
      remote.mode = 'answer';
    });
    expect(await accountNamed(dir, 'far_newcomer')).toBeNull();
    // The wire format has no verb to withdraw a principal, so the door keeps the name it minted (docs/identity.md).
    expect((await joinAs(url, 'far_newcomer')).status).toBe(409);
    expect((await joinAs(url, 'far_other')).status).toBe(201);
    expect((await joinAs(url, 'one_too_many')).status).toBe(429);
  });

  it('a join cut after its account was written happened whole', { timeout: 60_000 }, async () => {
    const { dir, url } = await cutShort(door, 'accounts', (u) => joinRequest(u, 'far_whole'));
    expect(await accountNamed(dir, 'far_whole')).not.toBeNull();
    expect(remote.names()).toContain('far_whole');
    expect((await joinAs(url, 'far_whole')).status).toBe(409);
  });

  it('a rotation whose answer from the door never arrived leaves the sessions open, and rotating again from one gives a key that works', { timeout: 60_000 }, async () => {
    const keeper = door.keepers.keeper_rotate_door!;
    const asked = remote.seen.length;
    remote.mode = 'lost';
    const { dir, url } = await cutShort(door, null, (u) => rotateWith(u, keeper), killWhen(() => remote.seen.slice(asked).some((r) => r.path.endsWith('/key')))).finally(() => {
      remote.mode = 'answer';
    });
    expect((await accountNamed(dir, 'keeper_rotate_door'))!.key_gen).toBe(1);
    // The door took a key nobody saw: it refuses the old one. The deck never counted the rotation: the session holds.
    expect((await loginWith(url, keeper.key)).status).toBe(401);
    expect((await me(url, keeper.session)).status).toBe(200);
    const again = await call(`${url}/me/key`, { body: { confirm: 'rotate' }, headers: keeper.bearer });
    expect(again.status).toBe(200);
    expect((await loginWith(url, again.body.api_key)).status).toBe(200);
    // The rotation that took keeps the session that asked for it, and ends the other.
    expect((await me(url, keeper.session)).status).toBe(200);
    expect((await me(url, keeper.other)).status).toBe(401);
  });

  it('a rotation cut after the account counted the new key took whole: the other sessions stop, the one that asked holds', { timeout: 60_000 }, async () => {
    const keeper = door.keepers.keeper_rotate_commit!;
    const { dir, url } = await cutShort(door, 'accounts', (u) => rotateWith(u, keeper));
    expect((await accountNamed(dir, 'keeper_rotate_commit'))!.key_gen).toBe(2);
    expect((await loginWith(url, keeper.key)).status).toBe(401);
    expect((await me(url, keeper.other)).status).toBe(401);
    expect((await me(url, keeper.session)).status).toBe(200);
  });
});
