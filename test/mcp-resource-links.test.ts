import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgedEmaCross, signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient, modernClient, REHEARSAL_PARTS } from './support/mcp.js';

// A rehearsal's large parts as resource links (docs/mcp.md, "Large results as resource links"), over real HTTP with the
// SDK's Clients: the answer carries a summary and links beside the unchanged structuredContent, the owner reads each
// part with resources/read, anyone else is told it is not kept, whether it exists or not.

let deck: TestDeck;
let alice: Awaited<ReturnType<typeof signedIn>>;
let bob: Awaited<ReturnType<typeof signedIn>>;
let seed: string;

beforeAll(async () => {
  deck = await testDeck({ DECK_SAMPLE_TAPE: 'on', DECK_PROFILE: 'local' });
  alice = await signedIn(deck.url, 'alice');
  bob = await signedIn(deck.url, 'bob');
  seed = await forgedEmaCross(deck.url, alice.bearer);
}, 60_000);
afterAll(() => deck.stop());

type Link = { type: 'resource_link'; uri: string; name: string; mimeType: string };
const linksOf = (r: CallToolResult) => r.content.filter((c): c is Link => c.type === 'resource_link');

describe('a rehearsal\'s parts as resource links', () => {
  it('answers a summary and links beside structuredContent as REST answers it, and the owner reads every trade and the plate', { timeout: 60_000 }, async () => {
    const client = await legacyClient(`${deck.url}/mcp`, alice.bearer);
    try {
      const args = { seed_hash: seed, market: 'ES', plate: true, trades_limit: 3 };
      const r = (await client.callTool({ name: 'rehearse', arguments: args })) as CallToolResult;
      const body = r.structuredContent as { rehearsal_digest: string; summary: string; trades: unknown[]; trades_page: { total: number }; plate: { png: string } };
      // structuredContent is the answer as ever: REST's page of the same rehearsal, byte for byte.
      const rest = await call(`${deck.url}/studio/rehearse`, { body: args, headers: alice.bearer });
      expect(JSON.stringify(r.structuredContent)).toBe(JSON.stringify(rest.body));
      expect(body.trades_page.total).toBeGreaterThan(3);
      // The text is the summary, not the body's JSON; the links name the parts by the rehearsal's digest.
      const [text, ...rest2] = r.content;
      expect(text).toMatchObject({ type: 'text' });
      expect((text as { text: string }).text.startsWith(body.summary)).toBe(true);
      expect((text as { text: string }).text).toContain(body.rehearsal_digest);
      expect((text as { text: string }).text.length).toBeLessThan(JSON.stringify(body).length / 4);
      expect(rest2).toEqual(linksOf(r));
      const digest = body.rehearsal_digest;
      expect(linksOf(r).map((l) => [l.uri, l.mimeType])).toEqual([
        [`deck://rehearsals/${digest}/trades`, 'application/json'],
        [`deck://rehearsals/${digest}/plate`, 'image/png'],
      ]);

      // Every trade, as the answer gives them: the page is the start of the whole.
      const trades = (await client.readResource({ uri: `deck://rehearsals/${digest}/trades` })).contents[0] as { mimeType: string; text: string };
      expect(trades.mimeType).toBe('application/json');
      const kept = JSON.parse(trades.text) as { rehearsal_digest: string; seed_hash: string; market: string; trades: unknown[] };
      expect(kept).toMatchObject({ rehearsal_digest: digest, seed_hash: seed, market: 'ES' });
      expect(kept.trades).toHaveLength(body.trades_page.total);
      expect(kept.trades.slice(0, 3)).toEqual(body.trades);
      const whole = await client.callTool({ name: 'rehearse', arguments: { ...args, trades_limit: 10_000 } });
      expect(kept.trades).toEqual((whole.structuredContent as { trades: unknown[] }).trades);

      // The plate: the sealed PNG the answer names, as a blob with its type.
      const plate = (await client.readResource({ uri: `deck://rehearsals/${digest}/plate` })).contents[0] as { mimeType: string; blob: string };
      expect(plate.mimeType).toBe('image/png');
      const served = Buffer.from(await (await fetch(body.plate.png)).arrayBuffer());
      expect(Buffer.from(plate.blob, 'base64').equals(served)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('links only the trades of a rehearsal without a plate, and says so when its plate is read', { timeout: 60_000 }, async () => {
    const client = await modernClient(`${deck.url}/mcp/studio`, { headers: alice.bearer });
    try {
      const r = (await client.callTool({ name: 'rehearse', arguments: { seed_hash: seed, market: 'ES' } })) as CallToolResult;
      const digest = (r.structuredContent as { rehearsal_digest: string }).rehearsal_digest;
      expect(linksOf(r).map((l) => l.uri)).toEqual([`deck://rehearsals/${digest}/trades`]);
      const trades = JSON.parse(((await client.readResource({ uri: `deck://rehearsals/${digest}/trades` })).contents[0] as { text: string }).text);
      expect(trades.trades.length).toBe((r.structuredContent as { trades_page: { total: number } }).trades_page.total);
      await expect(client.readResource({ uri: `deck://rehearsals/${digest}/plate` })).rejects.toThrow(/drew no plate: rehearse with plate: true/);
    } finally {
      await client.close();
    }
  });

  it('refuses another principal in the words it answers a rehearsal never made, and a keyless reader with the join step', { timeout: 60_000 }, async () => {
    const owner = await legacyClient(`${deck.url}/mcp`, alice.bearer);
    const other = await legacyClient(`${deck.url}/mcp`, bob.bearer);
    const keyless = await legacyClient(`${deck.url}/mcp`);
    try {
      const r = (await owner.callTool({ name: 'rehearse', arguments: { seed_hash: seed, market: 'ES' } })) as CallToolResult;
      const digest = (r.structuredContent as { rehearsal_digest: string }).rehearsal_digest;
      const never = 'f'.repeat(64);
      const refusal = async (uri: string) => other.readResource({ uri }).then(() => 'read', (e: Error) => e.message);
      const theirs = await refusal(`deck://rehearsals/${digest}/trades`);
      expect(theirs).toMatch(/-32002/);
      expect(theirs).toMatch(/of yours is kept/);
      // The same words as a rehearsal no one made, but for the digest the reader itself sent.
      expect(theirs.replace(digest, 'D')).toBe((await refusal(`deck://rehearsals/${never}/trades`)).replace(never, 'D'));
      expect((await refusal(`deck://rehearsals/${digest}/plate`)).replace(digest, 'D')).toBe((await refusal(`deck://rehearsals/${never}/plate`)).replace(never, 'D'));
      await expect(other.readResource({ uri: 'deck://rehearsals/nope/trades' })).rejects.toThrow(/rehearsal_digest 64 lowercase hex digits/);
      await expect(keyless.readResource({ uri: `deck://rehearsals/${digest}/trades` })).rejects.toThrow(/needs a key/);
    } finally {
      await owner.close();
      await other.close();
      await keyless.close();
    }
  });

  it('lists the parts as templates where rehearse is served, and no rehearsal in resources/list', async () => {
    for (const path of ['/mcp', '/mcp/studio']) {
      const client = await legacyClient(`${deck.url}${path}`, alice.bearer);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(REHEARSAL_PARTS);
      expect(resourceTemplates.map((t) => t.mimeType)).toEqual(['application/json', 'image/png']);
      expect((await client.listResources()).resources.map((x) => x.uri)).toEqual(['ui://deck/rehearsal.html']);
      await client.close();
    }
    const candles = await legacyClient(`${deck.url}/mcp/candles`, alice.bearer);
    expect((await candles.listResourceTemplates()).resourceTemplates).toEqual([]);
    await expect(candles.readResource({ uri: `deck://rehearsals/${'f'.repeat(64)}/trades` })).rejects.toThrow(/no resource deck:\/\/rehearsals\/f+\/trades: this endpoint serves none/);
    await candles.close();
  });
});
