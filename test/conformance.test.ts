import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDeck, type TestDeck } from './support/deck.js';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '..', 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
// The scenarios of the MCP conformance suite that apply to a tools-only stateless server.
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'prompts-list', 'resources-list'];

let deck: TestDeck;
beforeAll(async () => {
  deck = await testDeck();
});
afterAll(() => deck.stop());

describe('the MCP conformance suite', () => {
  it.each(['/mcp', '/mcp/candles'].flatMap((path) => SCENARIOS.map((s) => [path, s])))('%s passes %s', async (path, scenario) => {
    // Run asynchronously: the deck answering it lives in this process.
    const { stdout } = await run(process.execPath, [CLI, 'server', '--url', `${deck.url}${path}`, '--scenario', scenario], { timeout: 30_000 });
    expect(stdout).toMatch(/Passed: 1\/1, 0 failed/);
  });
});
