import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { findChromium, NO_CHROMIUM } from './support/chromium.js';
import { signedIn } from './support/deck.js';
import { call } from './support/http.js';
import { spawnServer } from './support/spawn.js';

// What `npm start` and `npm test` do on a fresh clone: start builds the bundle once, saying so, and runs it; a
// built tree starts without building; the bundle finds every file the deck reads at run time. The tests install
// nothing: the browser tests find a browser, or are skipped saying how to get one.

const ROOT = join(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
const scripts = async () => (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

const events = (log: string) =>
  log
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { event: string; why?: string });

describe('npm start', () => {
  const dataDir = mkdtemp(join(tmpdir(), 'deck-start-'));
  afterAll(async () => rm(await dataDir, { recursive: true, force: true }));
  const start = async () => spawnServer('cli/start.mjs', { DECK_DATA: await dataDir, DECK_SAMPLE_TAPE: 'on' });

  it('builds once on a tree without a build, saying so, then serves every file it reads at run time from the bundle', async () => {
    expect((await scripts()).start).toBe('node cli/start.mjs');
    await rm(DIST, { recursive: true, force: true });
    const deck = await start();
    try {
      const said = events(deck.before);
      expect(said.map((e) => e.event).slice(0, 2)).toEqual(['building', 'built']);
      expect(said[0]!.why).toBe('dist/ holds no build yet');
      expect((await stat(join(DIST, 'main.js'))).isFile()).toBe(true);
      // ccxt stays a package of its own, imported by the one line that runs when DECK_TAPE_URL=ccxt:<exchange>.
      const files = ['main.js', ...(await readdir(join(DIST, 'chunks'))).map((f) => join('chunks', f))].filter((f) => f.endsWith('.js'));
      const bundled = (await Promise.all(files.map((f) => readFile(join(DIST, f), 'utf8')))).join('\n');
      expect(bundled.match(/import\("ccxt"\)/g)).toHaveLength(1);
      expect(bundled).not.toMatch(/from\s*"ccxt"|require\("ccxt"\)/);
      // The join page (rest/join-page.html), the plans (config/*.json), the skill documents (skills/), the sample
      // tape (tape/sample/) and the plate's fonts (in node_modules), each read by the bundle in dist/.
      const page = await fetch(`${deck.url}/join`, { headers: { accept: 'text/html' } });
      expect(await page.text()).toContain('Get my key');
      expect((await call(`${deck.url}/plans`)).status).toBe(200);
      const me = await signedIn(deck.url, 'starter');
      const skills = await call(`${deck.url}/skills`, { headers: me.bearer });
      expect(skills.body.skills.map((s: { id: string }) => s.id)).toContain('backtest');
      const plate = await call(`${deck.url}/plates`, { body: { market: 'ES', tf: '5m', from: '2013-10-08T13:00:00Z', to: '2013-10-08T21:00:00Z' }, headers: me.bearer });
      expect(plate.status).toBe(200);
      const png = PNG.sync.read(Buffer.from(await (await fetch(plate.body.png)).arrayBuffer()));
      expect([png.width, png.height]).toEqual([1200, 700]);
      // A rehearsal runs on the work pool's threads, which load the bundle's own worker (dist/pool-worker.js).
      const forged = await call(`${deck.url}/forge`, { body: { intent: 'ES on the 5 minute chart, long only: go long when the 9 EMA crosses above the 21 EMA. Stop 2 ATR(14). Target 2R.' }, headers: me.bearer });
      expect(forged.status).toBe(200);
      const rehearsal = await call(`${deck.url}/studio/rehearse`, { body: { seed_hash: forged.body.seed_hash, hours: 24, to: 1381525200 }, headers: me.bearer });
      expect(rehearsal.status, JSON.stringify(rehearsal.body).slice(0, 300)).toBe(200);
      expect((await stat(join(DIST, 'pool-worker.js'))).isFile()).toBe(true);
    } finally {
      await deck.stop();
    }
  });

  it('starts a built tree without building, and builds again once a source is newer than the build', async () => {
    const built = await start();
    await built.stop();
    expect(events(built.before).map((e) => e.event)).not.toContain('building');
    const past = new Date(Date.now() - 3600_000);
    await utimes(join(DIST, 'main.js'), past, past);
    const stale = await start();
    await stale.stop();
    const building = events(stale.before).find((e) => e.event === 'building');
    expect(building?.why).toMatch(/ changed since the last build$/);
  });
});

describe('npm test', () => {
  it('runs the suite and nothing else: no script around it installs anything', async () => {
    const all = await scripts();
    expect(all.test).toBe('vitest run');
    expect(all.pretest).toBeUndefined();
    expect(all.posttest).toBeUndefined();
  });

  it('exits non-zero when a test fails, with the test PostgreSQL server started and stopped around the run', async () => {
    // The fixture's one test fails on purpose; CI reads this exit code.
    const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn('npm', ['test', '--', '--dir', 'test/fixtures/failing-run'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b));
      child.stderr.on('data', (b: Buffer) => (out += b));
      child.once('exit', (code) => resolve({ code, out }));
    });
    expect(run.out).toContain('1 failed');
    expect(run.code).toBe(1);
  }, 120_000);

  it('finds the browser named by CHROMIUM_PATH, says how to get one when it is not there, and finds none on a machine without one', () => {
    expect(findChromium({ CHROMIUM_PATH: process.execPath })).toBe(process.execPath);
    expect(findChromium({}, ['/nonexistent/chromium', '/nonexistent/google-chrome'])).toBeNull();
    expect(NO_CHROMIUM).toContain('need Chromium and found none at /usr/bin/chromium, /usr/bin/chromium-browser, /usr/bin/google-chrome, /usr/bin/google-chrome-stable: install one (Debian or Ubuntu: sudo apt-get install chromium fonts-liberation) or set CHROMIUM_PATH');
    expect(() => findChromium({ CHROMIUM_PATH: '/nonexistent/chromium' })).toThrow(
      'CHROMIUM_PATH is /nonexistent/chromium, which is not an executable file: install one (Debian or Ubuntu: sudo apt-get install chromium fonts-liberation) or set CHROMIUM_PATH',
    );
  });
});
