import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';

// The deck driven by an independent client: the MCP inspector's command line (inspector-cli, the version the README
// names, which runs on Node 20: the inspector 2.x needs Node 22), and the README's inspector commands as written.
const run = promisify(execFile);
const pkg = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json');
const { version, bin } = JSON.parse(readFileSync(pkg, 'utf8')) as { version: string; bin: Record<string, string> };
const CLI = join(dirname(pkg), bin['mcp-inspector-cli']!);
const README = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

/** Runs the inspector in CLI mode and parses the JSON it prints. It must run asynchronously: the deck answers from this same process. */
async function inspector(args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, [CLI, '--cli', ...args], { encoding: 'utf8', timeout: 30_000 });
  return JSON.parse(stdout) as unknown;
}

/** The README's inspector commands: each `npx -y <package>@<version> ...` line (continuations joined), its words as a shell reads them. */
function readmeCommands(): { spec: string; args: string[] }[] {
  const lines = README.replace(/\\\n\s*/g, ' ').split('\n').filter((l) => l.startsWith('npx -y @modelcontextprotocol/inspector'));
  return lines.map((line) => {
    const [, , spec, ...args] = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    return { spec: spec!, args };
  });
}

let deck: TestDeck;
let bearer: string;
let key: string;
beforeAll(async () => {
  // The README's call reads the shipped ES sample.
  deck = await testDeck({ DECK_SAMPLE_TAPE: 'on' });
  const signed = await signedIn(deck.url, 'inspected');
  bearer = signed.bearer.authorization;
  key = signed.key;
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

describe("the README's inspector commands", () => {
  const commands = readmeCommands();

  it('name the inspector-cli installed here, at a version that runs on Node 20', () => {
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const c of commands) expect(c.spec).toBe(`@modelcontextprotocol/inspector-cli@${version}`);
    const engines = (JSON.parse(readFileSync(pkg, 'utf8')) as { engines?: { node?: string } }).engines;
    expect(engines?.node, 'no engines field, or one Node 20 meets').toBeUndefined();
  });

  it('list the tools and call the tape as written, given the deck and a key', async () => {
    const asWritten = (args: string[]) => args.map((a) => a.replace('http://127.0.0.1:8080', deck.url).replace('deck_live_...', key));
    const [list, call] = commands;
    const listed = (await run(process.execPath, [CLI, ...asWritten(list!.args)], { encoding: 'utf8', timeout: 30_000 })).stdout;
    expect((JSON.parse(listed) as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['catalogue', 'tape', 'forge', 'rehearse']));
    const called = JSON.parse((await run(process.execPath, [CLI, ...asWritten(call!.args)], { encoding: 'utf8', timeout: 30_000 })).stdout) as { structuredContent: { candles: unknown[]; coverage: { source: string } } };
    expect(called.structuredContent.candles).toHaveLength(3);
    expect(called.structuredContent.coverage.source).toBe('sample');
  });
});
