import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIF_1PX, jpegBase64, pngBase64, WEBP_1PX } from './fixtures/images.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';

import { callAnswered } from './support/answers.js';

let deck: TestDeck;
const attach = (headers: Record<string, string>, body: unknown) => callAnswered(`${deck.url}/studio/image`, { body, headers });

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'deck-grants-'));
  await writeFile(join(dir, 'grants.json'), JSON.stringify({ grants: [{ name: 'studio-house', tier: 'house', why: 'test' }] }));
  deck = await testDeck({ DECK_GRANTS: join(dir, 'grants.json') });
});
afterAll(() => deck.stop());

describe('POST /studio/image', () => {
  it('needs a session', async () => {
    expect((await callAnswered(`${deck.url}/studio/image`, { body: { data: GIF_1PX } })).status).toBe(401);
  });

  it('takes PNG, JPEG, WebP and GIF by their bytes, and counts the free ceiling of 3 a day (429)', async () => {
    const me = await signedIn(deck.url, 'painter');
    const png = await attach(me.bearer, { data: pngBase64() });
    expect(png.status).toBe(200);
    expect(png.body).toMatchObject({ ok: true, tier: 'free', left_today: 2 });
    expect(png.body.id).toMatch(/^im_[0-9a-f]{16}$/);
    expect((await attach(me.bearer, { data: `data:image/jpeg;base64,${jpegBase64()}` })).body.left_today).toBe(1);
    expect((await attach(me.bearer, { data: WEBP_1PX })).body.left_today).toBe(0);
    const over = await attach(me.bearer, { data: GIF_1PX });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: 'ceiling_reached', ceiling: 3 });
    expect(over.body.retry_after_s).toBeLessThanOrEqual(86_400);
    expect(over.headers.get('retry-after')).toBe(String(over.body.retry_after_s));
    const kept = await readdir(join(deck.dataDir, 'images'));
    expect(kept.filter((f) => f.startsWith(png.body.id))).toEqual([`${png.body.id}.png`]);
    expect(await readFile(join(deck.dataDir, 'images', `${png.body.id}.png`))).toEqual(Buffer.from(pngBase64(), 'base64'));
  });

  it('records each attachment on the meter (image, 1 unit), and nothing for a refused one', async () => {
    const me = await signedIn(deck.url, 'metered-painter');
    const spent = async () => (await callAnswered(`${deck.url}/meter`, { headers: me.bearer })).body.spent;
    expect(await spent()).toBe(0);
    expect((await attach(me.bearer, { data: pngBase64() })).status).toBe(200);
    expect(await spent()).toBe(1);
    expect((await attach(me.bearer, { data: Buffer.from('just words').toString('base64') })).status).toBe(415);
    expect((await attach(me.bearer, { data: '' })).status).toBe(422);
    expect(await spent()).toBe(1);
    expect((await attach(me.bearer, { data: GIF_1PX })).status).toBe(200);
    expect((await attach(me.bearer, { data: WEBP_1PX })).status).toBe(200);
    expect((await attach(me.bearer, { data: GIF_1PX })).status).toBe(429);
    expect(await spent()).toBe(3);
  });

  it('gives the house tier 200 a day', async () => {
    const house = await signedIn(deck.url, 'studio-house');
    expect((await attach(house.bearer, { data: GIF_1PX })).body).toMatchObject({ tier: 'house', left_today: 199 });
  });

  it('sniffs the type from the bytes: a PDF labelled as PNG is 415', async () => {
    const me = await signedIn(deck.url, 'sniffer');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF').toString('base64');
    const res = await attach(me.bearer, { data: `data:image/png;base64,${pdf}` });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ error: 'unsupported_image', found: 'application/pdf' });
    expect((await attach(me.bearer, { data: Buffer.from('just words').toString('base64') })).status).toBe(415);
  });

  it('refuses no image and non-base64 with 422 naming data, and a missing body with 400', async () => {
    const me = await signedIn(deck.url, 'blank');
    // Text that is not ASCII is not base64, whatever its bytes (it crosses to the pool as UTF-8).
    for (const body of [{ data: '' }, { data: '***' }, {}, { data: `${GIF_1PX}é` }, { data: `\ud800${GIF_1PX}` }, { data: 'ÿÿÿÿ' }]) {
      const res = await attach(me.bearer, body);
      expect(res.status).toBe(422);
      expect(res.body.problems[0].field).toBe('data');
    }
    expect((await callAnswered(`${deck.url}/studio/image`, { method: 'POST', headers: me.bearer })).status).toBe(400);
  });

  it('refuses an image over the 5 MiB cap with 413, and counts nothing', async () => {
    const me = await signedIn(deck.url, 'bigframe');
    const big = Buffer.concat([Buffer.from(pngBase64(), 'base64'), Buffer.alloc(5 * 1024 * 1024)]).toString('base64');
    const res = await attach(me.bearer, { data: big });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('too_large');
    const huge = await callAnswered(`${deck.url}/studio/image`, { raw: JSON.stringify({ data: 'A'.repeat(9 * 1024 * 1024) }), headers: me.bearer });
    expect(huge.status).toBe(413);
    expect((await attach(me.bearer, { data: GIF_1PX })).body.left_today).toBe(2);
  });
});
