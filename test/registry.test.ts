import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { REGISTRY_SCHEMA, registryEntries } from '../cards/registry-entry.js';
import { VERSION } from '../deck.js';
import { SELLER_ENDPOINTS } from '../sellers/endpoints.js';

// The deck's entries for the official MCP registry, validated against the registry's own server.json schema
// (test/fixtures/registry: the file as the registry publishes it, its source and licence noted beside it).

const ROOT = join(import.meta.dirname, '..');

async function validator() {
  const schema = JSON.parse(await readFile(join(ROOT, 'test/fixtures/registry/server.schema.json'), 'utf8')) as { $id: string };
  expect(schema.$id).toBe(REGISTRY_SCHEMA);
  // The schema carries OpenAPI's discriminator and example keywords, which a JSON Schema validator ignores.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

describe('server.json for the official MCP registry', () => {
  it('validates every entry against the registry schema: a remote streamable-http endpoint each, the deck and each seller that serves tools of its own', async () => {
    const valid = await validator();
    const entries = registryEntries('https://deck.example', VERSION);
    for (const e of entries) expect(valid(e), `${e.name}: ${JSON.stringify(valid.errors)}`).toBe(true);
    expect(entries.map((e) => [e.name, e.remotes[0]!.url])).toEqual([
      ['example.deck/deck', 'https://deck.example/mcp'],
      ['example.deck/studio', 'https://deck.example/mcp/studio'],
      ['example.deck/candles', 'https://deck.example/mcp/candles'],
      ['example.deck/copy', 'https://deck.example/mcp/copy'],
    ]);
    // A seller is listed once it serves tools of its own beside catalogue, plans and account.
    for (const id of ['studio', 'candles', 'copy']) expect(SELLER_ENDPOINTS.get(id)!.tools.length).toBeGreaterThan(3);
    for (const e of entries) expect(e.remotes[0]!.headers[0]).toMatchObject({ name: 'Authorization', isRequired: false, isSecret: true });
  });

  it('refuses what the registry refuses: a description over 100 characters, a name without its namespace', async () => {
    const valid = await validator();
    const [e] = registryEntries('https://deck.example', VERSION);
    expect(valid({ ...e, description: 'x'.repeat(101) })).toBe(false);
    expect(valid({ ...e, name: 'deck' })).toBe(false);
  });

  it('is written by npm run registry for the deck at DECK_PUBLIC_URL, and refused without an https one', async () => {
    const out = await mkdtemp(join(tmpdir(), 'deck-registry-'));
    try {
      const run = (env: Record<string, string | undefined>) =>
        spawnSync(process.execPath, ['--import', 'tsx', 'cli/registry.ts', out], { cwd: ROOT, env: { ...process.env, DECK_LOG: 'silent', ...env }, encoding: 'utf8' });
      const bare = run({ DECK_PUBLIC_URL: undefined });
      expect(bare.status).toBe(2);
      expect(bare.stderr).toMatch(/DECK_PUBLIC_URL=https:/);
      expect(run({ DECK_PUBLIC_URL: 'http://deck.example' }).status).toBe(2);
      const written = run({ DECK_PUBLIC_URL: 'https://mcp.deck.example' });
      expect(written.status).toBe(0);
      expect((await readdir(out)).sort()).toEqual(['candles', 'copy', 'deck', 'studio']);
      const valid = await validator();
      const candles = JSON.parse(await readFile(join(out, 'candles', 'server.json'), 'utf8')) as unknown;
      expect(valid(candles)).toBe(true);
      expect(candles).toMatchObject({ name: 'example.deck.mcp/candles', remotes: [{ type: 'streamable-http', url: 'https://mcp.deck.example/mcp/candles' }] });
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
