import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pngjs from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REHEARSAL_PLATE_STYLE } from '../engine/plate/index.js';
import { REHEARSAL_COLOURS, THEME } from '../engine/plate/theme.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';

import { legacyClient } from './support/mcp.js';
import { answered, callAnswered } from './support/answers.js';

// A rehearsal answers a plate of itself (plate: true): sealed in the plates store like POST /plates, served at its
// URLs, linked as a resource over MCP; the same rehearsal answers the same bytes. Over the sample tape a deck
// with no venue seeds itself with (ES 1m, October 2013).

/** Where the plate of the rehearsal without trades is left, when asked (DECK_SHOTS=<folder>): nowhere otherwise. */
const SHOTS = process.env.DECK_SHOTS;

let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;
let seed: string;
const ASK = { market: 'ES', hours: 24 };

/** The raw bytes of a rehearsal's answer: the same rehearsal must answer the same ones. */
async function rehearseRaw(body: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const res = await fetch(`${deck.url}/studio/rehearse`, { method: 'POST', headers: { 'content-type': 'application/json', ...me.bearer }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

const rgb = (hex: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
const pixelsOf = (image: pngjs.PNG, hex: string): number => {
  const [r, g, b] = rgb(hex);
  let count = 0;
  for (let i = 0; i < image.data.length; i += 4) if (image.data[i] === r && image.data[i + 1] === g && image.data[i + 2] === b) count++;
  return count;
};

beforeAll(async () => {
  deck = await testDeck({ DECK_SAMPLE_TAPE: 'on' });
  me = await signedIn(deck.url, 'plater');
  const words = (await callAnswered(`${deck.url}/forge?onboard=ema-cross`, { headers: me.bearer })).body.intent as string;
  seed = (await callAnswered(`${deck.url}/forge`, { body: { intent: words }, headers: me.bearer })).body.seed_hash as string;
});
afterAll(() => deck.stop());

describe('POST /studio/rehearse with plate: true', () => {
  it('answers a sealed plate of itself: a PNG with the trades, the equity and the null drawn, and the numbers it was drawn from', async () => {
    const { status, text } = await rehearseRaw({ seed_hash: seed, ...ASK, plate: true });
    expect(status).toBe(200);
    const body = JSON.parse(text);
    answered('rehearse', body);
    expect(Object.keys(body.plate)).toEqual(['id', 'path', 'png', 'json']);
    expect(body.plate).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{64}$/), path: `/plates/${body.plate.id}`, png: `${deck.url}/plates/${body.plate.id}.png` });
    const png = await fetch(body.plate.png);
    expect(png.headers.get('content-type')).toBe('image/png');
    const image = pngjs.PNG.sync.read(Buffer.from(await png.arrayBuffer()));
    expect([image.width, image.height]).toEqual([THEME.width, THEME.height]);
    expect(body.stats.long + body.stats.short).toBeGreaterThan(0);
    for (const colour of [REHEARSAL_COLOURS.equity, REHEARSAL_COLOURS.rule, THEME.up, THEME.down]) expect(pixelsOf(image, colour), colour).toBeGreaterThan(0);
    if (body.stats.long > 0) expect(pixelsOf(image, REHEARSAL_COLOURS.long)).toBeGreaterThan(0);
    if (body.stats.short > 0) expect(pixelsOf(image, REHEARSAL_COLOURS.short)).toBeGreaterThan(0);
    const state = await (await fetch(body.plate.json)).json();
    expect(state).toMatchObject({
      style: REHEARSAL_PLATE_STYLE,
      market: 'ES',
      tf: '1m',
      trades: { count: body.stats.n, wins: body.stats.wins, losses: body.stats.losses },
      equity: { final_r: body.stats.total_r },
      null: { runs: body.null.runs, rule_total_r: body.null.rule_total_r, percentile: body.null.percentile, p: body.null.p },
    });
  });

  it('answers the same bytes for the same rehearsal, and without plate the same envelope with no plate', async () => {
    const first = await rehearseRaw({ seed_hash: seed, ...ASK, plate: true });
    const again = await rehearseRaw({ seed_hash: seed, ...ASK, plate: true });
    expect(again.text).toBe(first.text);
    const plain = await rehearseRaw({ seed_hash: seed, ...ASK });
    const { plate, ...envelope } = JSON.parse(first.text);
    expect(plate).toBeDefined();
    expect(JSON.parse(plain.text)).toEqual(envelope);
  });

  it('refuses a plate that is not a boolean, naming the field', async () => {
    const { status, body } = await callAnswered(`${deck.url}/studio/rehearse`, { body: { seed_hash: seed, ...ASK, plate: 'yes' }, headers: me.bearer });
    expect(status).toBe(422);
    expect(body.problems.map((p: { field: string }) => p.field)).toEqual(['plate']);
  });

  it('links the very PNG it sealed over MCP, read by resources/read as a blob', async () => {
    const client = await legacyClient(`${deck.url}/mcp/studio`, me.bearer);
    try {
      const result = await client.callTool({ name: 'rehearse', arguments: { seed_hash: seed, ...ASK, plate: true } });
      const content = result.content as { type: string; uri?: string; mimeType?: string }[];
      const link = content.find((c) => c.type === 'resource_link' && c.mimeType === 'image/png')!;
      expect(content.some((c) => c.type === 'image')).toBe(false);
      const image = (await client.readResource({ uri: link.uri! })).contents[0] as { mimeType: string; blob: string };
      expect(image.mimeType).toBe('image/png');
      const plate = (result.structuredContent as { plate: { id: string; png: string } }).plate;
      answered('rehearse', result.structuredContent);
      const sealed = Buffer.from(await (await fetch(plate.png)).arrayBuffer());
      expect(Buffer.from(image.blob, 'base64').equals(sealed)).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe("a rehearsal that took no trade: its plate and summary say why", () => {
  // RSI(14) under 5 in the cash session is a dip the sample's ES day never makes, so the rule never fires; its plate
  // must still show what it read and why nothing fired.
  const WORDS = 'ES 1m, long only, during the cash session: go long when RSI(14) crosses above 5 and the close is above the 200 EMA. Stop 4 points. Target 8 points.';

  it('draws the RSI pane with its threshold, the EMA, the session, and the readiness the envelope states', async () => {
    const forged = await callAnswered(`${deck.url}/forge`, { body: { intent: WORDS }, headers: me.bearer });
    expect(forged.status).toBe(200);
    const { status, text } = await rehearseRaw({ seed_hash: forged.body.seed_hash, ...ASK, plate: true });
    expect(status).toBe(200);
    const body = JSON.parse(text);
    answered('rehearse', body);
    expect(body.stats.n).toBe(0);
    // The envelope says where the rule could first decide and why the other bars could not trade, and so does its summary.
    const { ready_at, idle } = body.window;
    expect(ready_at).toEqual(expect.any(Number));
    expect(idle.session).toBeGreaterThan(0);
    expect(body.summary).toContain(`could first decide at the close of the bar opening ${new Date(ready_at * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    // The deck loads the 200 EMA's warm-up before the window, so the session is the one reason.
    expect(idle.warm_up).toBe(0);
    expect(body.summary).toContain(`${idle.session.toLocaleString('en-US')} of the ${body.window.bars.toLocaleString('en-US')} bars could not trade, all outside its session (09:30-16:00 America/New_York)`);
    const state = await (await fetch(body.plate.json)).json();
    expect(state).toMatchObject({
      style: REHEARSAL_PLATE_STYLE,
      trades: { count: 0 },
      rule: {
        lines: [
          { label: 'EMA(200)', pane: 'price', ids: ['ema_200'] },
          { label: 'RSI(14)', pane: 'rsi', ids: ['rsi_14'] },
        ],
        thresholds: [{ pane: 'rsi', value: 5 }],
        stop: 'stop 4 points',
        target: 'target 8 points',
        session: '09:30-16:00 America/New_York',
      },
      readiness: { ready_at: new Date(ready_at * 1000).toISOString().replace('.000Z', 'Z'), idle },
      levels: { stops: 0, targets: 0 },
      null: null,
    });
    expect(state.readiness.shaded.session).toBeGreaterThan(0);
    const bytes = Buffer.from(await (await fetch(body.plate.png)).arrayBuffer());
    if (SHOTS) writeFileSync(join(SHOTS, 'deck-rehearsal-no-trade.png'), bytes);
    const image = pngjs.PNG.sync.read(bytes);
    for (const colour of [REHEARSAL_COLOURS.session, REHEARSAL_COLOURS.lines[0], REHEARSAL_COLOURS.lines[1], REHEARSAL_COLOURS.threshold]) {
      expect(pixelsOf(image, colour), colour).toBeGreaterThan(0);
    }
  });
});
