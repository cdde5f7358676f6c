import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readConfig } from '../config/env.js';
import type { Ctx } from '../services/context.js';
import { defineTool, EventStream, JsonBytes, WithImage } from '../tools/define.js';
import { DeckError } from '../core/errors.js';
import { driftOf } from '../tools/output.js';

// The drift check: a deck run with DECK_CHECK_OUTPUT=1 (every test deck) holds each answer to its tool's output
// schema. The tools here are defined in the test, so the deck's own never has to drift to prove the check works.

const Answer = z.object({ ok: z.literal(true), count: z.number().int(), items: z.array(z.object({ id: z.string(), note: z.string().nullable() })) });

/** A tool answering whatever the test hands it, declaring Answer as its output. */
const echo = (answer: () => unknown) =>
  defineTool({
    name: 'echo_answer',
    title: 'Echo',
    description: 'Answers what the test gives it, held to its declared output.',
    input: z.object({}).strict(),
    output: Answer,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    access: 'none',
    toolset: { id: 'test', default: false, description: 'tools made by a test' },
    // The answer's type is the test's to break: the check at run time is what is under test.
    run: async () => answer() as z.output<typeof Answer>,
  });

/** The least of a call context the check reads: the setting, the log and who calls. */
function ctxOf(check: boolean) {
  const logged: { event: string; fields?: Record<string, unknown> }[] = [];
  const ctx = {
    principal: null,
    config: { checkOutput: check },
    offer: { locks: new Map() },
    log: { debug() {}, info() {}, error: (event: string, fields?: Record<string, unknown>) => logged.push({ event, fields }) },
  } as unknown as Ctx;
  return { ctx, logged };
}

async function refusalOf(p: Promise<unknown>): Promise<DeckError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeckError);
  return error as DeckError;
}

const good = { ok: true, count: 1, items: [{ id: 'a', note: null }] };

describe('an answer held to its output schema (DECK_CHECK_OUTPUT=1)', () => {
  it('passes an answer that holds, as it is', async () => {
    const { ctx, logged } = ctxOf(true);
    expect(await echo(() => good).call(ctx, {})).toBe(good);
    expect(logged).toEqual([]);
  });

  it.each([
    ['a field renamed', { ok: true, count: 1, entries: [] }, 'items', /expected array/i],
    ['a field of the wrong type', { ...good, count: '1' }, 'count', /expected number/i],
    ['a field the schema does not name', { ...good, extra: 1 }, 'extra', /does not name/],
    ['a nested field the schema does not name', { ...good, items: [{ id: 'a', note: null, by: 'x' }] }, 'items.0.by', /does not name/],
    ['a nested field left out', { ...good, items: [{ id: 'a' }] }, 'items.0.note', /expected/i],
  ])('is a 500 and a logged output_drift naming the tool and the field: %s', async (_what, answer, field, message) => {
    const { ctx, logged } = ctxOf(true);
    const refusal = await refusalOf(echo(() => answer).call(ctx, {}));
    expect(refusal.status).toBe(500);
    expect(refusal.body()).toMatchObject({ ok: false, error: 'internal' });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ event: 'output_drift', fields: { tool: 'echo_answer', field } });
    expect(String(logged[0]!.fields!.message)).toMatch(message);
  });

  it('checks the JSON a sealed answer carries and the body beside a picture', async () => {
    const { ctx, logged } = ctxOf(true);
    const bytes = new JsonBytes(Buffer.from(JSON.stringify({ ...good, count: 1.5 })));
    expect((await refusalOf(echo(() => bytes).call(ctx, {}))).status).toBe(500);
    const picture = new WithImage({ ...good, stray: true }, new Uint8Array([1]));
    expect((await refusalOf(echo(() => picture).call(ctx, {}))).status).toBe(500);
    expect(logged.map((l) => l.fields!.field)).toEqual(['count', 'stray']);
    const sound = new JsonBytes(Buffer.from(JSON.stringify(good)));
    expect(await echo(() => sound).call(ctx, {})).toBe(sound);
  });

  it('checks a stream when its whole arrives, after the events it sent', async () => {
    const { ctx, logged } = ctxOf(true);
    const stream = new EventStream(
      (async function* () {
        yield { event: 'words', data: { text: 'hi' } };
        return { ...good, ok: false };
      })(),
    );
    const held = (await echo(() => stream).call(ctx, {})) as EventStream;
    expect(await held.events.next()).toEqual({ done: false, value: { event: 'words', data: { text: 'hi' } } });
    expect((await refusalOf(held.whole())).status).toBe(500);
    expect(logged[0]).toMatchObject({ event: 'output_drift', fields: { tool: 'echo_answer', field: 'ok' } });
  });

  it('lets a drifting answer through untouched when the setting is off (the default)', async () => {
    const drifting = { ...good, extra: 1 };
    const { ctx, logged } = ctxOf(false);
    expect(await echo(() => drifting).call(ctx, {})).toBe(drifting);
    expect(logged).toEqual([]);
    expect(readConfig({}).checkOutput).toBe(false);
    expect(readConfig({ DECK_CHECK_OUTPUT: '1' }).checkOutput).toBe(true);
    expect(() => readConfig({ DECK_CHECK_OUTPUT: 'yes' })).toThrow(/DECK_CHECK_OUTPUT/);
  });
});

describe('driftOf', () => {
  it('reads a union by the shape the answer has, and a record by its values', () => {
    const either = z.union([z.object({ a: z.number() }), z.object({ b: z.string() })]);
    expect(driftOf(either, { a: 1 })).toBeNull();
    expect(driftOf(either, { b: 'x' })).toBeNull();
    expect(driftOf(either, { a: 1, c: 2 })).toEqual({ field: 'c', message: 'a field the output schema does not name' });
    expect(driftOf(z.object({ m: z.record(z.string(), z.number()) }), { m: { x: 1, y: 2 } })).toBeNull();
  });
});

describe('a tool that declares an output', () => {
  it('states it as JSON Schema for OpenAPI and as an outline for tools/list', () => {
    const tool = echo(() => good);
    expect(tool.outputSchema).toMatchObject({ type: 'object', required: ['ok', 'count', 'items'], additionalProperties: false });
    expect(tool.outputSchema).not.toHaveProperty('$schema');
    expect(tool.listedOutputSchema).toEqual({ type: 'object', properties: { ok: { const: true }, count: { type: 'integer' }, items: { type: 'array' } } });
  });

  it('must answer an object: MCP structures nothing else', () => {
    expect(() =>
      defineTool({
        name: 'listing',
        title: 'A list',
        description: 'Answers a bare list, which MCP cannot structure.',
        input: z.object({}),
        output: z.array(z.string()) as unknown as z.ZodType<Record<string, unknown>>,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        access: 'none',
        toolset: { id: 'test', default: false, description: 'tools made by a test' },
        run: async () => ({}),
      }),
    ).toThrow(/an output is an object/);
  });
});
