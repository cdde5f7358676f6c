import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

// The README and docs/ held to the repository and to the deck: every link lands on a file and a heading, every page
// of docs/ is reachable from the README, the README stays short, and its first session with curl answers what it
// says on the shipped sample tape (the seed hash, the rehearsal's figures and the plate's id are deterministic).

const ROOT = join(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PAGES = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped but for hyphens, spaces as hyphens. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, '-');

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(join(ROOT, file), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = /^#+ (.*)$/.exec(line);
    if (!fenced && m) anchors.add(slug(m[1]!));
  }
  return anchors;
}

/** Every relative Markdown link of a file, with where it points. */
function linksOf(file: string): { target: string; path: string; anchor: string }[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z]+:/.test(t))
    .map((target) => {
      const [path = '', anchor = ''] = target.split('#');
      return { target, path: path ? normalize(join(dirname(file), path)) : file, anchor };
    });
}

describe('the README and docs/', () => {
  it.each(['README.md', ...PAGES])('%s links only to files and headings that exist', (file) => {
    for (const link of linksOf(file)) {
      expect(existsSync(join(ROOT, link.path)), `${file} links to ${link.target}`).toBe(true);
      if (link.anchor && link.path.endsWith('.md')) expect([...anchorsOf(link.path)], `${file} links to ${link.target}`).toContain(link.anchor);
    }
  });

  it('links every page of docs/ from the README', () => {
    const linked = new Set(linksOf('README.md').map((l) => l.path));
    expect(PAGES.filter((p) => !linked.has(p))).toEqual([]);
  });

  it('keeps the README to what a newcomer reads first: at most 200 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(200);
  });
});

describe("the README's first session with curl", () => {
  const session = README.split('## A first session with curl')[1]!.split('\n## ')[0]!;
  const found = (re: RegExp) => {
    const m = re.exec(session);
    if (!m) throw new Error(`the README's first session has no ${re}`);
    return m[1]!;
  };
  let deck: TestDeck;
  let me: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    deck = await testDeck({ DECK_SAMPLE_TAPE: 'on' });
    me = await signedIn(deck.url, 'alice');
  });
  afterAll(() => deck.stop());

  it('reads candles from the shipped sample', async () => {
    const { status, body } = await call(`${deck.url}${found(/'localhost:8080(\/timetravel\/candles\/[^']+)'/)}`, { headers: me.bearer });
    expect(status).toBe(200);
    expect(body.coverage).toMatchObject({ source: 'sample', sealed: true, bars: Number(found(/"coverage":\{"bars":(\d+)/)) });
  });

  it('forges the seed it names, every review class passed and the scan clean, and rehearses it to the figures and the plate it shows', async () => {
    const forged = await call(`${deck.url}/forge`, { raw: found(/-d '(\{"intent":[^']+\})'/), headers: me.bearer });
    expect(forged.status).toBe(200);
    expect(forged.body.seed_hash).toBe(found(/SEED=([0-9a-f]{64})/));
    expect(forged.body.review.classes.map((c: { status: string }) => c.status)).toEqual(Array(9).fill('passed'));
    expect(forged.body.scan.clean).toBe(true);

    expect(session).toContain('-d "{\\"seed_hash\\":\\"$SEED\\",\\"plate\\":true}"');
    const rehearsed = await call(`${deck.url}/studio/rehearse`, { body: { seed_hash: forged.body.seed_hash, plate: true }, headers: me.bearer });
    expect(rehearsed.status).toBe(200);
    expect(rehearsed.body.window.bars).toBe(Number(found(/"bars":(\d+),\.\.\.\},"trades"/)));
    expect(rehearsed.body.stats).toMatchObject({ n: Number(found(/"stats":\{"n":(\d+)/)), total_r: Number(found(/"total_r":([-\d.]+)/)) });
    expect(rehearsed.body.null).toMatchObject({ percentile: Number(found(/"percentile":([\d.]+)/)), p: Number(found(/"p":([\d.]+)\}/)) });
    expect(rehearsed.body.trades[0]).toMatchObject(JSON.parse(`{${found(/"trades":\[\{("side":"long","entry_t":\d+,"entry":[\d.]+,"stop":[\d.]+)/)}}`));
    const said = session.split('\n').map((l) => l.replace(/^#\s+/, '')).join(' ');
    expect(rehearsed.body.verdict.label).toBe(found(/"verdict":\{"label":"([a-z_]+)"/));
    expect(said).toContain(`"words":"${rehearsed.body.verdict.words}"`);
    expect(rehearsed.body.verdict.deflated_sharpe.dsr).toBe(Number(found(/"dsr":([\d.]+)\}/)));
    expect(rehearsed.body.verdict.neighbourhood).toMatchObject({ rules: Number(found(/"neighbourhood":\{"rules":(\d+)/)), positive: Number(found(/"positive":(\d+)/)) });
    const id = found(/-o rehearsal\.png http:\/\/127\.0\.0\.1:8080\/plates\/([0-9a-f]{64})\.png/);
    expect(rehearsed.body.plate.id).toBe(id);
    const png = await fetch(`${deck.url}/plates/${id}.png`);
    expect([png.status, png.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('seals the plate whose id it names, and serves its PNG without a key', async () => {
    const sealed = await call(`${deck.url}/plates`, { raw: found(/-d '(\{"market":[^']+\})'/), headers: me.bearer });
    expect(sealed.status).toBe(200);
    const id = found(/-o plate\.png http:\/\/127\.0\.0\.1:8080\/plates\/([0-9a-f]{64})\.png/);
    expect(sealed.body.id).toBe(id);
    const png = await fetch(`${deck.url}/plates/${id}.png`);
    expect([png.status, png.headers.get('content-type')]).toEqual([200, 'image/png']);
  });
});
