import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DeckError } from '../core/errors.js';
import { restRoutes } from '../rest/adapter.js';
import { errorHandler } from '../rest/errors.js';
import { defineTool, type Tool } from '../tools/define.js';
import { TOOLSETS } from '../tools/toolsets.js';
import { REGISTRY } from '../tools/registry.js';
import { doorServer } from './fixtures/door-server.js';
import { testDeck, type TestDeck } from './support/deck.js';

// Every status a route can answer is in its OpenAPI responses and in docs/statuses.md, so a client built from the
// document meets no surprise: the table is generated from the document (npm run snapshots writes it), a tool's own
// refusals are read from its file, and a test deck holds every refusal to its route's statuses (status_drift).
let deck: TestDeck;
let doc: { security: unknown[]; paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown>; summary?: string }>> };
beforeAll(async () => {
  deck = await testDeck();
  doc = await (await fetch(`${deck.url}/openapi.json`)).json();
});
afterAll(() => deck.stop());

const REASON: Record<string, string> = {
  '302': 'redirect', '400': 'not JSON, bad path or encoding, or (quote) bad input', '401': 'sign in first, or a credential refused',
  '402': 'no funding', '403': 'Origin refused, or upgrade_required', '404': 'not found (of yours)', '405': 'no stream', '409': 'conflict',
  '413': 'over the size cap', '415': 'unsupported media type or encoding', '422': 'an input failed its rule, or a named refusal',
  '429': 'a limit (Retry-After)', '500': 'the deck failed', '502': 'an upstream refused or answered nonsense',
  '503': 'an upstream not configured or unreachable',
};

/** The table of docs/statuses.md, from the OpenAPI document of a deck on the shipped configuration. */
function table(): string {
  const rows = Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })))
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
    .map(({ path, method, op }) => {
      const codes = Object.keys(op.responses).sort();
      const ok = codes.filter((c) => Number(c) < 400);
      const refused = codes.filter((c) => Number(c) >= 400);
      // An operation without its own security has the document's.
      const own = op.security ?? doc.security;
      const security = own.length === 0 ? 'none' : own.some((s) => Object.keys(s as object).length === 0) ? 'optional' : 'session';
      return `| \`${method} ${path}\` | ${security} | ${ok.join(', ')} | ${refused.join(', ')} |`;
    });
  return [
    '# Statuses, route by route',
    '',
    'Every status each route can answer, as the OpenAPI document (`GET /openapi.json`) lists it on a deck running the',
    'shipped configuration. Each deck\'s document follows its own configuration: a tool the plans file locks on a tier',
    'adds 403 `upgrade_required`, and a remote identity door (`DECK_DOOR_URL`) adds 502 and 503 to every route that reads',
    'a credential (the tools\' routes, `POST /mcp`, `GET /auth/x`, `GET /metrics`): a key presented while the door is down',
    'or answers nonsense cannot be read as refused. The contract\'s tables name most of them; the others are where the',
    'deck is right to answer them, and a client built from the document meets no other. `test/statuses.test.ts` writes',
    'this table from the document (`npm run snapshots`) and fails when they differ, and a tool\'s own file is read for the',
    'statuses it throws. A deck run with `DECK_CHECK_OUTPUT=1` (every test deck) answers a refusal its route\'s document',
    'does not list as a 500 with a `status_drift` log line naming the tool, the status and the code, so a test that',
    'reaches one fails.',
    '',
    'What each refusal means: ' + Object.entries(REASON).map(([c, r]) => `${c} ${r}`).join('; ') + '. The error body is',
    '`{ ok: false, error, message, ...details }` (`problems` naming each field for 422 `bad_input`; `retry_after_s` for 429).',
    'Statuses the deck answers beyond the contract\'s tables, each where it is right: 403 `upgrade_required` on REST (a',
    'tool locked on a tier), 429 `forge_limit` (the free tier\'s forges a day), 422 for a revoke without `why` (the',
    'contract\'s request names it), 415 and 413 on every JSON body, 502 and 503 on the ladder (each live book is brought',
    'up to now from the venue\'s tape first, as `GET /copy/models` does), 500 on any route for a failure inside the deck.',
    '',
    '| Route | Security | Success | Refusals |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

describe('the statuses of every route', () => {
  it('are tabled in docs/statuses.md as the OpenAPI document lists them', async () => {
    await expect(table()).toMatchFileSnapshot('../docs/statuses.md');
  });

  it('list every status a tool throws in its own file (DeckError and the refusal helpers)', async () => {
    const TOOLS = join(import.meta.dirname, '..', 'tools');
    const HELPERS: [RegExp, number][] = [[/limitReached\(/g, 429], [/notConfigured\(/g, 503], [/unreachable\(/g, 503], [/refusedBy\(/g, 502], [/didNotAnswer\(/g, 502]];
    const missing: string[] = [];
    for (const area of (await readdir(TOOLS, { withFileTypes: true })).filter((d) => d.isDirectory())) {
      for (const file of (await readdir(join(TOOLS, area.name))).filter((f) => f.endsWith('.ts'))) {
        const path = join(TOOLS, area.name, file);
        const text = await readFile(path, 'utf8');
        const exported = Object.values((await import(path)) as Record<string, unknown>);
        const tools = REGISTRY.filter((t: Tool) => exported.includes(t) && t.rest);
        const thrown = [...text.matchAll(/new DeckError\((\d{3})/g)].map((m) => Number(m[1]));
        for (const [re, status] of HELPERS) if (re.test(text)) thrown.push(status);
        // A file of several tools (a read and its list) names a status when one of them lists it.
        for (const s of thrown) if (tools.length && !tools.some((t) => t.statuses.has(s))) missing.push(`${tools.map((t) => t.name).join(', ')} throw ${s} (tools/${area.name}/${file})`);
      }
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it('follow the deck\'s door: a remote one adds 502 and 503 to every route that reads a credential', async () => {
    const door = await doorServer('deck_live_');
    const remote = await testDeck({ DECK_DOOR_URL: door.url });
    try {
      const theirs: typeof doc = await (await fetch(`${remote.url}/openapi.json`)).json();
      const reading = [
        ...REGISTRY.filter((t) => t.rest).map((t) => [t.rest!.path.replace(/:(\w+)/g, '{$1}'), t.rest!.method.toLowerCase()] as const),
        ...(['/mcp', '/mcp/{seller}'] as const).map((path) => [path, 'post'] as const),
        ['/auth/x', 'get'],
        ['/metrics', 'get'],
      ] as const;
      for (const [path, method] of reading) {
        const codes = Object.keys(theirs.paths[path]![method]!.responses);
        expect([path, method, codes.includes('502') && codes.includes('503')]).toEqual([path, method, true]);
      }
      // The shipped deck's door is its own: a key read there is never an upstream's failure.
      expect(Object.keys(doc.paths['/me']!.get!.responses)).not.toContain('503');
    } finally {
      await remote.stop();
      await door.close();
    }
  });

  it.each([
    ['answers a refusal its route does not list as a 500 with a status_drift line', true, 409, 500],
    ['answers a refusal its route lists as it is', true, 404, 404],
    ['answers every refusal as it is when the deck does not check its answers', false, 409, 409],
  ] as const)('%s, over HTTP', async (_what, checkOutput, thrown, answered) => {
    const lines: { event: string; fields?: Record<string, unknown> }[] = [];
    const log = { debug() {}, info() {}, error: (event: string, fields?: Record<string, unknown>) => void lines.push({ event, fields }) };
    const surprising = defineTool({
      name: 'surprise',
      title: 'surprise',
      description: 'refuses with the status the test names',
      input: z.object({}).strict(),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      access: 'none',
      output: z.object({ ok: z.literal(true) }),
      toolset: TOOLSETS.records,
      rest: { method: 'GET', path: '/surprise', errors: [404] },
      run: async () => {
        throw new DeckError(thrown, thrown === 404 ? 'not_found' : 'conflict', 'as the test says');
      },
    });
    expect([...surprising.statuses].sort()).toEqual([404, 422, 500]);
    // The deck's own services, its routes replaced by the one under test.
    const app = express();
    restRoutes(app, { ...deck.services, log, config: { ...deck.services.config, checkOutput } }, [surprising]);
    app.use(errorHandler(log));
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/surprise`);
      expect(res.status).toBe(answered);
      expect((await res.json()).error).toBe(answered === 500 ? 'internal' : thrown === 404 ? 'not_found' : 'conflict');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(lines).toEqual(answered === 500 ? [{ event: 'status_drift', fields: { tool: 'surprise', status: 409, code: 'conflict' } }] : []);
  });
});
