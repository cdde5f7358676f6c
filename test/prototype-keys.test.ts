import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '../tools/define.js';
import { REGISTRY } from '../tools/registry.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

/** Names every plain JavaScript object answers to without holding them. */
const MEMBERS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

/** The answers a request may get: anything but the deck's own failure (the spec's 502 and 503 are an upstream's). */
const isClientAnswer = (status: number) => status < 500 || status === 502 || status === 503;

/** Input that carries a move far enough to reach the store, so a name given beside it is looked up there. */
const REACHING: Record<string, Record<string, unknown>> = { studio_act: { action: 'words', text: 'Buy BTC when the 9 EMA crosses above the 21 EMA.' } };

let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  // Every request here comes from one address: refused keys at /login must not rest it mid-sweep.
  deck = await testDeck({ DECK_LOGIN_REFUSALS: '100000' });
  me = await signedIn(deck.url, 'prototypal');
  // The principal holds records in the stores a lookup may read (studio, marks), so no lookup starts from nothing.
  expect((await call(`${deck.url}/studio/state`, { body: REACHING.studio_act, headers: me.bearer })).status).toBe(200);
  expect((await call(`${deck.url}/me/marks`, { body: { market: 'NQ', kind: 'level', price: 18000 }, headers: me.bearer })).status).toBe(200);
});
afterAll(() => deck.stop());

/** One request of a tool's route with `input`: path params in the path, the rest as the query (GET, DELETE) or the body. */
function send(tool: Tool, input: Record<string, unknown>) {
  const rest = tool.rest!;
  const left = { ...input };
  const path = rest.path.replace(/:(\w+)/g, (_m, name: string) => {
    const v = String(left[name] ?? 'x');
    delete left[name];
    return encodeURIComponent(v);
  });
  if (rest.method === 'POST') return call(`${deck.url}${path}`, { method: 'POST', raw: JSON.stringify(left), headers: me.bearer });
  const query = new URLSearchParams(Object.entries(left).map(([k, v]) => [k, String(v)])).toString();
  return call(`${deck.url}${path}${query ? `?${query}` : ''}`, { method: rest.method, headers: me.bearer });
}

const routed = REGISTRY.filter((t) => t.rest);

describe('names every plain object answers to, as input anywhere', () => {
  it.each(routed.map((t) => [`${t.rest!.method} ${t.rest!.path}`, t] as const))('%s: as the value of each field, never a 5xx of the deck', async (_route, tool) => {
    const fields = Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>);
    for (const field of fields) {
      for (const name of MEMBERS) {
        const res = await send(tool, { ...REACHING[tool.name], [field]: name });
        expect(isClientAnswer(res.status), `${field}=${name}: ${res.status} ${JSON.stringify(res.body)}`).toBe(true);
      }
    }
  });

  it.each(routed.map((t) => [`${t.rest!.method} ${t.rest!.path}`, t] as const))('%s: as field names, never a 5xx of the deck', async (_route, tool) => {
    // Parsed from JSON, so "__proto__" is a field of its own as a request body's would be, not the prototype.
    const named = JSON.parse(`{${MEMBERS.map((name) => `${JSON.stringify(name)}:{"polluted":true}`).join(',')}}`) as Record<string, unknown>;
    const res = await send(tool, { ...REACHING[tool.name], ...named });
    expect(isClientAnswer(res.status), `${res.status} ${JSON.stringify(res.body)}`).toBe(true);
    // Nothing leaked onto every object of the process.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
