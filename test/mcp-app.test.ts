import { build } from 'esbuild';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBrowser, person } from './support/browser.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { legacyClient, modernClient } from './support/mcp.js';

// The rehearsal viewer as an MCP App (io.modelcontextprotocol/ui): what the endpoints declare and serve, and the page
// drawing a real rehearsal inside a frame driven by a host that speaks the protocol with the ext-apps package.
/** Where the browser tests leave their screenshots, when asked (DECK_SHOTS=<folder>): none otherwise. */
const SHOTS = process.env.DECK_SHOTS;
const URI = 'ui://deck/rehearsal.html';
const RULE = 'ES on the 5 minute chart, long and short, during the cash session: go long when the 9 EMA crosses above the 21 EMA, go short when the 9 EMA crosses below the 21 EMA. Stop 2 ATR(14). Target 2R.';

let deck: TestDeck;
let bearer: Record<string, string>;

beforeAll(async () => {
  deck = await testDeck({ DECK_SAMPLE_TAPE: 'on' });
  ({ bearer } = await signedIn(deck.url, 'app-host'));
});
afterAll(async () => {
  await closeBrowser();
  await deck.stop();
});

describe('the rehearsal app over MCP', () => {
  it('rehearse and plate_seal name the app in _meta.ui.resourceUri (and the older ui/resourceUri key); no other tool does', async () => {
    const client = await legacyClient(`${deck.url}/mcp?toolsets=all`, bearer);
    const { tools } = await client.listTools();
    const withApp = tools.filter((t) => t._meta?.ui !== undefined).map((t) => t.name).sort();
    expect(withApp).toEqual(['plate_seal', 'rehearse']);
    for (const name of withApp) {
      const meta = tools.find((t) => t.name === name)!._meta!;
      expect(meta).toMatchObject({ ui: { resourceUri: URI }, 'ui/resourceUri': URI });
    }
    await client.close();
  });

  it('lists the app where rehearse is served, in both protocol eras, and serves its page whole', async () => {
    for (const connect of [() => legacyClient(`${deck.url}/mcp/studio`), () => modernClient(`${deck.url}/mcp/studio`)]) {
      const client = await connect();
      const { resources } = await client.listResources();
      expect(resources).toEqual([expect.objectContaining({ uri: URI, mimeType: RESOURCE_MIME_TYPE, name: 'rehearsal' })]);
      const { contents } = await client.readResource({ uri: URI });
      expect(contents).toHaveLength(1);
      const page = contents[0] as { uri: string; mimeType: string; text: string; _meta: unknown };
      expect(page).toMatchObject({ uri: URI, mimeType: 'text/html;profile=mcp-app', _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } } });
      // One document: its script inline, nothing loaded from anywhere.
      expect(page.text).toMatch(/^<!doctype html>/);
      expect(/<script[^>]+src=|<link[^>]+href=|@import/i.test(page.text)).toBe(false);
      await expect(client.readResource({ uri: 'ui://deck/nothing.html' })).rejects.toThrow(/-32002|no resource ui:\/\/deck\/nothing\.html/);
      await client.close();
    }
    // An endpoint serving neither tool lists no app.
    const copy = await legacyClient(`${deck.url}/mcp/copy`);
    expect((await copy.listResources()).resources).toEqual([]);
    await copy.close();
  });

  it('leaves the tool answer as it was: a host without apps gets the same summary, links and structured result', async () => {
    const plain = await legacyClient(`${deck.url}/mcp`, bearer);
    const forge = (await plain.callTool({ name: 'forge', arguments: { intent: RULE } })) as CallToolResult;
    const seed = (forge.structuredContent as { seed_hash: string }).seed_hash;
    const a = (await plain.callTool({ name: 'rehearse', arguments: { seed_hash: seed } })) as CallToolResult;
    const body = a.structuredContent as { summary: string; rehearsal_digest: string };
    expect(a.content).toEqual([
      { type: 'text', text: expect.stringContaining(body.summary) },
      expect.objectContaining({ type: 'resource_link', uri: `deck://rehearsals/${body.rehearsal_digest}/trades` }),
    ]);
    await plain.close();
  });
});

/**
 * Frames the app's page in `page` with the package's own host side (AppBridge, bundled for the page), hands it a
 * tool's input and result, and answers its tool calls with `client`, a real client of the deck. Answers the names of
 * the tools the app called, as they come.
 */
async function hostApp(page: Page, client: Client, input: Record<string, unknown>, result: CallToolResult): Promise<string[]> {
  const html = ((await client.readResource({ uri: URI })).contents[0] as { text: string }).text;
  const host = await build({ entryPoints: ['test/support/app-host.ts'], bundle: true, write: false, format: 'iife', platform: 'browser', logLevel: 'silent' });
  const called: string[] = [];
  await page.exposeFunction('callTool', async (name: string, args: Record<string, unknown>) => {
    called.push(name);
    return client.callTool({ name, arguments: args });
  });
  await page.setContent('<!doctype html><html><body><h1>host</h1></body></html>');
  await page.addScriptTag({ content: host.outputFiles[0]!.text });
  await page.evaluate(([h, i, r]) => window.host(h, i, r), [html, input, result] as const);
  return called;
}

describe('the rehearsal app in a host frame', () => {
  it('draws a rehearsal from the tool result: candles it zooms and pans, the trades with their reasons, equity, null and verdict', async (ctx) => {
    const { context, page } = await person(ctx, new URL(deck.url).origin);
    const client = await legacyClient(`${deck.url}/mcp`, bearer);
    try {
      const forge = (await client.callTool({ name: 'forge', arguments: { intent: RULE } })) as CallToolResult;
      const input = { seed_hash: (forge.structuredContent as { seed_hash: string }).seed_hash };
      const result = (await client.callTool({ name: 'rehearse', arguments: input })) as CallToolResult;
      const called = await hostApp(page, client, input, result);
      const app = page.frameLocator('iframe[title="The app"]');
      await app.getByRole('heading', { name: 'Verdict: likely luck' }).waitFor({ timeout: 30_000 });
      expect(await app.locator('.rv-verdict').textContent()).toMatch(/Likely luck: 36 of 51 neighbours keep a positive total R/);
      await app.getByText(/Rehearsal of ES 5m: 14 trades/).waitFor();
      expect(called).toEqual(['tape']); // the candles, read through the host with the deck's own tool
      const candles = app.locator('.rv-price .rv-up, .rv-price .rv-down');
      const all = await candles.count();
      expect(all).toBe(1365);
      expect(await app.locator('.rv-price .rv-trade').count()).toBe(14);
      await app.locator('.rv-price .rv-trade').first().locator('.rv-entry').hover();
      await expect.poll(() => app.locator('.rv-detail').textContent()).toBe(
        'Trade 1: long at 1671.75 on 2013-10-07 13:45 UTC, stop 1669.25, target 1676.75, out at 1676.75 on 2013-10-07 14:10 UTC (target): +1.97R',
      );
      expect(await app.locator('.rv-equity polyline').count()).toBe(1);
      expect(await app.locator('.rv-null .rv-mark').count()).toBe(1);
      // The null's histogram, from the envelope's own bins.
      expect(await app.locator('.rv-null .rv-bin').count()).toBeGreaterThan(5);
      expect(await app.locator('.rv-null figcaption').textContent()).toMatch(/1000 runs; the rule's \+2\.21R is at percentile 93\.4/);
      // Zoom in with the button, pan with the keyboard, then a trade from the list brought into view.
      await app.getByRole('button', { name: 'Zoom in' }).click();
      expect(await candles.count()).toBeLessThan(all);
      await app.getByText('The trades (14)').click();
      await app.getByRole('button', { name: /^short at/ }).first().click();
      await expect.poll(() => app.locator('.rv-detail').textContent()).toMatch(/^Trade \d+: short at/);
      await page.setViewportSize({ width: 900, height: 2200 });
      if (SHOTS) await page.locator('iframe').screenshot({ path: `${SHOTS}/app-rehearsal.png` });
    } finally {
      await client.close();
      await context.close();
    }
  });

  it('draws a sealed plate\'s window from plate_seal\'s input, and reads on a phone', async (ctx) => {
    const { context, page } = await person(ctx, new URL(deck.url).origin);
    const client = await legacyClient(`${deck.url}/mcp`, bearer);
    try {
      await page.setViewportSize({ width: 390, height: 800 });
      const input = { market: 'ES', tf: '5m', from: '2013-10-08T13:30:00Z', to: '2013-10-08T20:00:00Z', indicators: ['ema:9'] };
      const result = (await client.callTool({ name: 'plate_seal', arguments: input })) as CallToolResult;
      const id = (result.structuredContent as { id: string }).id;
      const called = await hostApp(page, client, input, result);
      const app = page.frameLocator('iframe[title="The app"]');
      await app.getByText(`Plate ${id} sealed: ES 5m.`).waitFor({ timeout: 30_000 });
      expect(called).toEqual(['tape']);
      // The cash session of 8 October 2013, 13:30 to 20:00 UTC: 78 bars of 5 minutes.
      expect(await app.locator('.rv-price .rv-up, .rv-price .rv-down').count()).toBe(78);
      // Nothing in the frame reaches past its right edge.
      const beyond = await page.frames()[1]!.evaluate(() => {
        const width = document.documentElement.clientWidth;
        return Array.from(document.querySelectorAll('*')).filter((e) => e.getBoundingClientRect().right > width + 0.5).map((e) => e.tagName);
      });
      expect(beyond).toEqual([]);
      if (SHOTS) await page.locator('iframe').screenshot({ path: `${SHOTS}/app-plate-phone.png` });
    } finally {
      await client.close();
      await context.close();
    }
  });
});
