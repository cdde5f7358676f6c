import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bombText, fitting, mutated, oddString, oddValue, PROTOTYPE_KEYS, type Schema } from './values.js';
import { FUZZ_TIMEOUT_MS, fuzzTarget, runs, SEED, stillAnswers, type FuzzTarget, type Shot } from './target.js';
import { restFaults, SLOWEST_MS, Tally } from './verdict.js';

/** One operation of /openapi.json, as the fuzzer reads it. */
interface Operation {
  method: string;
  path: string;
  params: { in: 'path' | 'query'; name: string; schema: Schema }[];
  body: Schema | null;
}

type Param = Operation['params'][number];

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: (Param | { $ref: string })[]; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { parameters?: Record<string, Param> };
}

/** Path segments that have broken routers: bad escapes, traversal, prototype names, the huge and the astral. */
const oddSegment = (secret: () => string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom('%zz', '%', '%E0%A4%A', '%00', '..', '%2e%2e%2f', ...PROTOTYPE_KEYS),
    fc.constant(null).map(() => `%zz${secret()}`),
    oddString.map((s) => encodeURIComponent(s.slice(0, 4_000))),
  );

/** Bodies that are not what a JSON route expects. */
const oddBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '{', '[]', 'null', '"text"', '{"a":', '\u0000', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}'),
  oddValue.map((v) => JSON.stringify(v) ?? 'null'),
  fc.integer({ min: 4_200_000, max: 5_000_000 }).map((n) => `{"intent":"${'a'.repeat(n)}"}`),
  bombText,
  bombText.map((t) => `{"name":"bomb","wallet":${t}}`),
);

/** How the body travels: the content type and encoding it claims. */
const TRANSPORTS: Record<string, Record<string, string>> = {
  json: { 'content-type': 'application/json' },
  plain: { 'content-type': 'text/plain' },
  form: { 'content-type': 'application/x-www-form-urlencoded' },
  none: {},
  gzipLie: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  deflateLie: { 'content-type': 'application/json', 'content-encoding': 'deflate' },
  unknownEncoding: { 'content-type': 'application/json', 'content-encoding': 'x-zip' },
  latin1: { 'content-type': 'application/json; charset=latin1' },
  noCharset: { 'content-type': 'application/json; charset' },
  emptyCharset: { 'content-type': 'application/json; charset=' },
  multipart: { 'content-type': 'multipart/form-data; boundary=x' },
};

function operations(doc: OpenApi): Operation[] {
  const ops: Operation[] = [];
  for (const [path, byMethod] of Object.entries(doc.paths)) {
    if (path.startsWith('/mcp')) continue; // the MCP fuzz covers these
    for (const [method, op] of Object.entries(byMethod)) {
      const body = op.requestBody?.content['application/json']?.schema ?? null;
      // A shared parameter is read through its reference (components.parameters).
      const params = (op.parameters ?? []).map((p) => ('$ref' in p ? doc.components.parameters![p.$ref.replace('#/components/parameters/', '')]! : p));
      ops.push({ method: method.toUpperCase(), path, params, body });
    }
  }
  return ops;
}

function shotOf(target: FuzzTarget, op: Operation): fc.Arbitrary<Shot> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const segment = (p: Param) =>
    fc.oneof({ weight: 2, arbitrary: fitting(p.schema).map((v) => encodeURIComponent(String(v))) }, { weight: 1, arbitrary: oddSegment(() => target.key) });
  const queryValue = (p: Param) =>
    fc.oneof(fitting(p.schema).map((v) => `${p.name}=${encodeURIComponent(String(v))}`), oddString.map((s) => `${p.name}=${encodeURIComponent(s.slice(0, 2_000))}`), fc.constant(`${p.name}=%zz`), fc.constant(`${p.name}=1&${p.name}=2`), fc.constant(`${p.name}[a]=1`));
  return fc.record({
    segments: fc.tuple(...pathParams.map(segment)),
    query: fc.tuple(...queryParams.map((p) => fc.option(queryValue(p), { nil: undefined }))),
    extraQuery: fc.option(fc.constantFrom('__proto__=1', 'constructor=x', 'a=%zz'), { nil: undefined }),
    body: op.body ? fc.oneof({ weight: 3, arbitrary: mutated(op.body).map((v) => JSON.stringify(v) ?? 'null') }, { weight: 1, arbitrary: oddBody }) : fc.option(oddBody, { nil: undefined }),
    transport: fc.constantFrom(...Object.keys(TRANSPORTS)),
    auth: fc.constantFrom('anonymous', 'bearer', 'cookie', 'cookie-foreign-origin', 'bogus-bearer'),
  }).map(({ segments, query, extraQuery, body, transport, auth }) => {
    let i = 0;
    const path = op.path.replace(/\{[^}]+\}/g, () => segments[i++] ?? '');
    const qs = [...query.filter((q): q is string => q !== undefined), ...(extraQuery ? [extraQuery] : [])].join('&');
    const headers: Record<string, string> = { accept: 'application/json' };
    if (auth === 'bearer') headers.authorization = `Bearer ${target.session}`;
    if (auth === 'cookie') headers.cookie = `deck_session=${target.session}`;
    if (auth === 'cookie-foreign-origin') Object.assign(headers, { cookie: `deck_session=${target.session}`, origin: 'https://evil.example' });
    if (auth === 'bogus-bearer') headers.authorization = 'Bearer deck_live_0000000000000000000000000000000000';
    const sendsBody = op.method !== 'GET' && op.method !== 'DELETE' && body !== undefined;
    if (sendsBody) Object.assign(headers, TRANSPORTS[transport]);
    return { method: op.method, path: qs ? `${path}?${qs}` : path, headers, body: sendsBody ? body : undefined };
  });
}

describe('fuzzed REST requests derived from /openapi.json', () => {
  let target: FuzzTarget;
  let ops: Operation[];
  const secrets = new Set<string>();

  beforeAll(async () => {
    target = await fuzzTarget();
    const doc = (await (await fetch(`${target.url}/openapi.json`)).json()) as OpenApi;
    ops = operations(doc);
  });
  afterAll(async () => {
    await target?.stop();
  });

  it('never answers a 5xx the spec does not name, never stalls, names what was wrong, and keeps answering', async () => {
    expect(ops.length).toBeGreaterThan(30);
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ops).chain((op) => shotOf(target, op).map((shot) => ({ op, shot }))),
        async ({ op, shot }) => {
          secrets.add(target.key).add(target.session);
          const answer = await target.send(shot);
          const faults = restFaults(answer);
          // A fuzzed call may rotate the key or end the session; the fuzzer signs in again and goes on.
          if (op.path === '/me/key' && answer.status === 200) await target.refresh((JSON.parse(answer.text) as { api_key: string }).api_key);
          if (op.path === '/logout' && answer.status === 200) await target.refresh();
          if (tally.cases % 25 === 24) {
            const alive = await stillAnswers(target);
            if (alive.status !== 200 || alive.ms > SLOWEST_MS) faults.push(`the deck stopped answering: ${alive.status} in ${Math.round(alive.ms)} ms`);
          }
          tally.record(`${shot.method} ${shot.path.slice(0, 160)} ${JSON.stringify(shot.headers)} body ${String(shot.body ?? '').slice(0, 120)}`, answer.status, faults);
        },
      ),
      { seed: SEED, numRuns: runs(400) },
    );
    console.log(tally.summary('REST'));
    expect(tally.faults.slice(0, 12)).toEqual([]);
    expect((await stillAnswers(target)).status).toBe(200);
  }, FUZZ_TIMEOUT_MS);

  it('never writes a key or a session token to the log, whatever path or field carried it', () => {
    const log = target.log();
    expect(log.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(log.includes(secret), 'a secret reached the log').toBe(false);
  });
});
