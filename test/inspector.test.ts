import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';

// The deck driven by an independent client: the MCP inspector's command line (inspector-cli 1.0.3).
const run = promisify(execFile);
const pkg = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json');
const bin = (JSON.parse(readFileSync(pkg, 'utf8')) as { bin: Record<string, string> }).bin['mcp-inspector-cli']!;
const CLI = join(dirname(pkg), bin);

/**
 * Runs the inspector in CLI mode and parses the JSON it prints. It must run asynchronously: the deck
 * answers from this same process. Its working directory is its own build folder because it reads its
 * package.json at ../package.json from where it runs.
 */
async function inspector(args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, [CLI, '--cli', ...args], { cwd: dirname(CLI), encoding: 'utf8', timeout: 30_000 });
  return JSON.parse(stdout) as unknown;
}

let deck: TestDeck;
let bearer: string;
beforeAll(async () => {
  deck = await testDeck();
  bearer = (await signedIn(deck.url, 'inspected')).bearer.authorization;
});
afterAll(() => deck.stop());

describe('the MCP inspector CLI', () => {
  it.each(['/mcp', '/mcp/studio'])('lists the tools of %s', async (path) => {
    const out = (await inspector([`${deck.url}${path}`, '--transport', 'http', '--method', 'tools/list'])) as { tools: { name: string }[] };
    type Described = { toolsets: Record<string, string[]>; listed_toolsets: string[]; tier_locked: Record<string, string> };
    const described = (await (await fetch(`${deck.url}${path}`)).json()) as Described;
    // Anonymous, tools/list leaves out what a tier locks; a bare URL lists its default toolsets.
    const listed = described.listed_toolsets.flatMap((set) => described.toolsets[set]!).filter((name) => !(name in described.tier_locked));
    expect(out.tools.map((t) => t.name).sort()).toEqual(listed.sort());
  });

  it('calls account with the session as bearer header and is answered as the principal', async () => {
    const out = await inspector([`${deck.url}/mcp`, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'account', '--header', `Authorization: ${bearer}`]);
    expect(out).toMatchObject({ structuredContent: { principal: { name: 'inspected', tier: 'free' } } });
  });

  it('fails a keyless call of account, naming -32001', async () => {
    const refused = await inspector([`${deck.url}/mcp`, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'account']).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Error);
    expect(String((refused as { stderr?: string }).stderr)).toContain('-32001');
  });
});
