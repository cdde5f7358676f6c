import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY } from '../tools/registry.js';
import { loadSkills, SKILLS } from '../services/skills/bank.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { grantsFile, httpRefusal, legacyClient, namesOf, refusalIn } from './support/mcp.js';

// The skill bank over real HTTP and MCP: GET /skills and GET /skills/:id, the skills and skill_read tools on the
// studio seller's endpoint, and the documents held to the deck they describe: every tool they name exists, every
// route they call is served, every example rule forges, and what they call not built is not served.

const IDS = ['backtest', 'rule-parsing', 'strategy-compile', 'trading-workflow', 'walk-forward'];

interface Listed {
  id: string;
  title: string;
  summary: string;
  tools: string[];
}

let deck: TestDeck;
let grants: string;
let me: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  // The plan tier casts more than the free tier's three forges a day: the examples are forged below.
  grants = await grantsFile([{ name: 'skill_reader', tier: 'plan' }]);
  deck = await testDeck({ DECK_GRANTS: grants });
  me = await signedIn(deck.url, 'skill_reader');
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});

describe('GET /skills and GET /skills/:id', () => {
  it('need a session', async () => {
    expect((await call(`${deck.url}/skills`)).status).toBe(401);
    expect((await call(`${deck.url}/skills/backtest`)).status).toBe(401);
  });

  it("lists the studio card's skills, each with its id, title, summary and tools", async () => {
    const { status, body } = await call(`${deck.url}/skills`, { headers: me.bearer });
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    const listed = body.skills as Listed[];
    expect(listed.map((s) => s.id)).toEqual(IDS);
    for (const s of listed) {
      expect(Object.keys(s)).toEqual(['id', 'title', 'summary', 'tools']);
      expect(s.title.length).toBeGreaterThan(0);
      expect(s.summary.length).toBeGreaterThan(0);
      expect(s.tools.length).toBeGreaterThan(0);
    }
    const card = (await call(`${deck.url}/cards/studio`)).body as { skills: string[] };
    expect([...card.skills].sort()).toEqual(IDS);
  });

  it.each(IDS)('reads %s: its title and its markdown after the front matter', async (id) => {
    const { status, body } = await call(`${deck.url}/skills/${id}`, { headers: me.bearer });
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['ok', 'id', 'title', 'text']);
    const listed = ((await call(`${deck.url}/skills`, { headers: me.bearer })).body.skills as Listed[]).find((s) => s.id === id)!;
    expect(body).toMatchObject({ ok: true, id, title: listed.title });
    expect(body.text).toMatch(/^# /);
    expect(body.text).not.toContain(`id: ${id}`);
    // A page at most.
    expect(body.text.split('\n').length).toBeLessThanOrEqual(60);
  });

  it('answers an unknown id 404 naming the ids', async () => {
    const { status, body } = await call(`${deck.url}/skills/nothing-here`, { headers: me.bearer });
    expect(status).toBe(404);
    expect(body).toMatchObject({ ok: false, error: 'not_found', skills: IDS });
    for (const id of IDS) expect(body.message).toContain(id);
  });
});

describe('the skills and skill_read tools on MCP', () => {
  it("are on the studio seller's card, behind a key", async () => {
    const card = (await call(`${deck.url}/cards/studio`)).body as { tools: string[]; tools_without_key: string[] };
    expect(card.tools).toEqual(expect.arrayContaining(['skills', 'skill_read']));
    expect(card.tools_without_key).not.toContain('skills');
    expect(card.tools_without_key).not.toContain('skill_read');
  });

  it.each(['/mcp/studio', '/mcp'])('%s serves them with the answers REST gives', async (path) => {
    const client = await legacyClient(`${deck.url}${path}`, me.bearer);
    expect(namesOf((await client.listTools()).tools)).toEqual(expect.arrayContaining(['skills', 'skill_read']));
    const listed = await client.callTool({ name: 'skills', arguments: {} });
    expect(listed.structuredContent).toEqual((await call(`${deck.url}/skills`, { headers: me.bearer })).body);
    for (const id of IDS) {
      const read = await client.callTool({ name: 'skill_read', arguments: { id } });
      expect(read.isError).toBeFalsy();
      expect(read.structuredContent).toEqual((await call(`${deck.url}/skills/${id}`, { headers: me.bearer })).body);
    }
    const unknown = await client.callTool({ name: 'skill_read', arguments: { id: 'nothing-here' } });
    expect(unknown.isError).toBe(true);
    expect(refusalIn(unknown)).toMatchObject({ status: 404, error: 'not_found', skills: IDS });
    await client.close();
  });

  it('answers a keyless call with -32001 naming the join step', async () => {
    const client = await legacyClient(`${deck.url}/mcp/studio`);
    for (const name of ['skills', 'skill_read']) {
      const refusal = httpRefusal(await client.callTool({ name, arguments: { id: 'backtest' } }).catch((e: unknown) => e));
      expect(refusal.status).toBe(401);
      expect(refusal.error.code).toBe(-32001);
      expect(refusal.error.data).toMatchObject({ next: { step: 'join' } });
    }
    await client.close();
  });
});

describe('the documents hold to the deck they describe', () => {
  const agentTools = new Set(REGISTRY.filter((t) => t.surface === 'both').map((t) => t.name));

  it.each(IDS)('%s names in its tools only tools the deck serves to agents, and uses each in its text', (id) => {
    const skill = SKILLS.find((s) => s.id === id)!;
    for (const tool of skill.tools) {
      expect(agentTools, `${id} names ${tool}`).toContain(tool);
      // Said as `tool` or `tool { inputs }`.
      expect(skill.text, `${id} lists ${tool} but never says it`).toMatch(new RegExp(`\`${tool}[\` ]`));
    }
  });

  it('every route a document calls by method and path is served by the deck', async () => {
    const routes = new Set(SKILLS.flatMap((s) => [...s.text.matchAll(/\b(GET|POST|DELETE) (\/[A-Za-z0-9_./-]*)/g)].map((m) => `${m[1]} ${m[2]}`)));
    expect(routes.size).toBeGreaterThan(5);
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      const res = await fetch(`${deck.url}${path}`, { method, headers: me.bearer });
      const body = (await res.json()) as { message?: string };
      expect(body.message ?? '', route).not.toMatch(/^no route /);
    }
  });

  it('what a document calls not built yet is not served', async () => {
    const sections = SKILLS.map((s) => /## Not built yet\n([\s\S]*?)(\n## |$)/.exec(s.text)?.[1] ?? '');
    const unbuilt = sections.flatMap((section) => [...section.matchAll(/`(\/[a-z/]+)`/g)].map((m) => m[1]!));
    // A tool a document calls unbuilt is not served to agents.
    for (const [, tool] of sections.flatMap((section) => [...section.matchAll(/`([a-z_]+)`/g)])) expect(agentTools).not.toContain(tool);
    for (const path of unbuilt) {
      for (const method of ['GET', 'POST']) {
        const res = await fetch(`${deck.url}${path}`, { method, headers: me.bearer });
        const served = `${method} ${path} is served now: describe it in the skills and take it out of their Not built yet`;
        expect(res.status, served).toBe(404);
        expect(((await res.json()) as { message: string }).message, served).toMatch(/^no route /);
      }
    }
  });

  it('every example rule reads into seven parts and forges with a passed review and a clean scan', async () => {
    const rules = SKILLS.flatMap((s) => [...s.text.matchAll(/```rule\n([\s\S]*?)\n```/g)].map((m) => m[1]!));
    expect(rules.length).toBeGreaterThanOrEqual(2);
    const client = await legacyClient(`${deck.url}/mcp/studio`, me.bearer);
    for (const text of rules) {
      const read = (await client.callTool({ name: 'workflow_read', arguments: { text } })).structuredContent as {
        parts: Record<string, { status: string }>;
      };
      for (const [part, { status }] of Object.entries(read.parts)) expect(status, `${part} of: ${text}`).toBe('read');
      const forged = await client.callTool({ name: 'forge', arguments: { intent: text } });
      expect(forged.isError, text).toBeFalsy();
      const { review, scan } = forged.structuredContent as { review: { classes: { status: string }[] }; scan: { clean: boolean } };
      expect(review.classes.every((c) => c.status === 'passed'), text).toBe(true);
      expect(scan.clean, text).toBe(true);
    }
    await client.close();
  });
});

describe('loading the bank', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'deck-skills-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const GOOD = '---\nid: sample\ntitle: A sample\nsummary: One line.\ntools: forge, rehearse\n---\n\n# A sample\n\nText.\n';

  /** Loads a folder holding sample.md with the given content; answers the skill or the error's message. */
  async function loaded(content: string): Promise<string | { id: string; tools: string[]; text: string }> {
    await writeFile(join(dir, 'sample.md'), content);
    try {
      return loadSkills(dir)[0]!;
    } catch (error) {
      return (error as Error).message;
    }
  }

  it('reads a well-formed document', async () => {
    expect(await loaded(GOOD)).toEqual({ id: 'sample', title: 'A sample', summary: 'One line.', tools: ['forge', 'rehearse'], text: '# A sample\n\nText.\n' });
  });

  it.each([
    ['no front matter', '# A sample\n', /front matter between two --- lines/],
    ['a front matter never closed', '---\nid: sample\n', /front matter between two --- lines/],
    ['a line that is not key: value', GOOD.replace('title: A sample', 'A sample'), /is not "key: value"/],
    ['a key named twice', GOOD.replace('title: A sample', 'title: A sample\ntitle: Again'), /names title twice/],
    ['no summary', GOOD.replace('summary: One line.\n', ''), /summary/],
    ['an unknown key', GOOD.replace('title: A sample', 'title: A sample\nauthor: someone'), /author/],
    ['no tools', GOOD.replace('tools: forge, rehearse', 'tools: '), /tools: names no tool/],
    ['an id that is not the file name', GOOD.replace('id: sample', 'id: other'), /id other is not the file's name \(sample\)/],
    ['no text', GOOD.slice(0, GOOD.indexOf('\n# ')), /no text/],
  ])('refuses %s, naming the file', async (_what, content, why) => {
    const message = await loaded(content);
    expect(typeof message).toBe('string');
    expect(message).toContain(join(dir, 'sample.md'));
    expect(message).toMatch(why);
  });
});
