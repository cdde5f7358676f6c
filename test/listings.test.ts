import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, MCP_PATHS } from './support/mcp.js';

// What the deck tells clients about itself, kept under test/snapshots/ and reviewed in diffs: a renamed tool or field,
// or a changed schema, fails here until the snapshot is written again on purpose (npm run snapshots).
// Listed as the house tier sees it (every tool), from a deck whose address is replaced by one that never changes.

const BASE = 'http://deck.test';

let deck: TestDeck;
let grants: string;
let house: Record<string, string>;

beforeAll(async () => {
  grants = await grantsFile([{ name: 'reviewer', tier: 'house' }]);
  deck = await testDeck({ DECK_GRANTS: grants });
  house = (await signedIn(deck.url, 'reviewer')).bearer;
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});

const kept = (value: unknown) => `${JSON.stringify(value, null, 2).replaceAll(deck.url, BASE)}\n`;

/** A snapshot's file name for an endpoint: mcp, mcp.all, mcp.studio, ... */
const fileOf = (path: string) => path.slice(1).replace('/', '.').replace('?toolsets=all', '.all');

describe.each([...MCP_PATHS, '/mcp?toolsets=all'])('tools/list on %s', (path) => {
  it('is as reviewed', async () => {
    const client = await legacyClient(`${deck.url}${path}`, house);
    const { tools } = await client.listTools();
    await client.close();
    await expect(kept(tools)).toMatchFileSnapshot(`snapshots/tools-list/${fileOf(path)}.json`);
  });
});

describe('/openapi.json', () => {
  it('is as reviewed', async () => {
    const doc = (await (await fetch(`${deck.url}/openapi.json`)).json()) as unknown;
    await expect(kept(doc)).toMatchFileSnapshot('snapshots/openapi.json');
  });
});
