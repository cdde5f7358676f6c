import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient } from './support/mcp.js';

// POST /studio/read: workflow_read's REST binding, so a person with curl reads words into the seven parts as an agent does.
let deck: TestDeck;
let grants: string;
let bearer: Record<string, string>;

const WORDS = 'ES 5m: buy above VWAP, stop 4 points, target 2R.';

beforeAll(async () => {
  grants = await grantsFile([{ name: 'read_free', tier: 'free' }]);
  deck = await testDeck({ DECK_GRANTS: grants, DECK_SAMPLE_TAPE: 'on' });
  bearer = (await signedIn(deck.url, 'read_free')).bearer;
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});

const read = (body: unknown, headers: Record<string, string> = bearer) =>
  fetch(`${deck.url}/studio/read`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('POST /studio/read', () => {
  it('answers the seven parts and the clauses, the same as workflow_read over MCP', async () => {
    const r = await read({ text: WORDS });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { ok: boolean; parts: Record<string, { status: string; value: unknown }>; clauses: unknown[] };
    expect(body.ok).toBe(true);
    expect(body.parts.market).toMatchObject({ status: 'read', value: 'ES' });
    expect(body.parts.timeframe).toMatchObject({ status: 'read', value: '5m' });
    expect(body.clauses.length).toBeGreaterThan(0);
    const client = await legacyClient(`${deck.url}/mcp`, bearer);
    const viaMcp = await client.callTool({ name: 'workflow_read', arguments: { text: WORDS } });
    await client.close();
    expect(viaMcp.structuredContent).toEqual(body);
  });

  it('needs a key (401), names a missing text (422) or one over the cap (413), and says how to open the model lane (503)', async () => {
    expect((await read({ text: WORDS }, {})).status).toBe(401);
    const missing = await read({});
    expect(missing.status).toBe(422);
    expect(JSON.stringify(await missing.json())).toContain('text');
    const over = await read({ text: 'x'.repeat(4001) });
    expect(over.status).toBe(413);
    const model = await read({ text: WORDS, lane: 'model' });
    expect(model.status).toBe(503);
    expect(((await model.json()) as { message: string }).message).toContain('DECK_READER_URL');
  });

  it('is documented in the OpenAPI document under studio', async () => {
    const doc = (await (await fetch(`${deck.url}/openapi.json`)).json()) as { paths: Record<string, { post?: { tags?: string[]; requestBody?: unknown } }> };
    expect(doc.paths['/studio/read']?.post?.tags).toEqual(['studio']);
    expect(JSON.stringify(doc.paths['/studio/read']!.post!.requestBody)).toContain('"text"');
  });
});
