import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/experimental/tasks';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgedEmaCross, signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient } from './support/mcp.js';

// Long tools as 2025-11-25 tasks (the SDK 1.x line's experimental tasks), over real HTTP with the SDK's own Client: a
// client that declares tasks gets a task for a rehearsal, follows it to its result or cancels it; a client that
// declares none is answered at once as before; a task is its principal's alone.

let deck: TestDeck;
let alice: Awaited<ReturnType<typeof signedIn>>;
let bob: Awaited<ReturnType<typeof signedIn>>;
let seed: string;

/** A client that declares the task requests it sends (tasks/list and tasks/cancel). */
async function taskClient(path: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'deck-test-tasks', version: '1.0.0' }, { capabilities: { tasks: { list: {}, cancel: {} } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${deck.url}${path}`), { requestInit: { headers } }));
  return client;
}

const rehearsal = () => ({ name: 'rehearse', arguments: { seed_hash: seed, market: 'ES' } });

beforeAll(async () => {
  // One pool thread, so a rehearsal can be made to wait behind another.
  deck = await testDeck({ DECK_SAMPLE_TAPE: 'on', DECK_PROFILE: 'local', DECK_WORKERS: '1' });
  alice = await signedIn(deck.url, 'alice');
  bob = await signedIn(deck.url, 'bob');
  seed = await forgedEmaCross(deck.url, alice.bearer);
}, 60_000);
afterAll(() => deck.stop());

describe('long tools as MCP tasks', () => {
  it('tells a client that declares tasks that the deck serves them, and one that does not nothing new', async () => {
    const tasks = await taskClient('/mcp/studio', alice.bearer);
    const plain = await legacyClient(`${deck.url}/mcp/studio`, alice.bearer);
    try {
      expect(tasks.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
      expect(plain.getServerCapabilities()).toEqual({ tools: { listChanged: false }, prompts: {}, resources: {} });
      // tools/list says which tools may run as tasks, to every client.
      const listed = (await plain.listTools()).tools;
      expect(listed.find((t) => t.name === 'rehearse')?.execution).toEqual({ taskSupport: 'optional' });
      expect(listed.find((t) => t.name === 'catalogue')).not.toHaveProperty('execution');
    } finally {
      await tasks.close();
      await plain.close();
    }
  });

  it('runs a rehearsal as a task: created at once, working with a status message, then completed with the very answer tools/call gives', { timeout: 60_000 }, async () => {
    const client = await taskClient('/mcp', alice.bearer);
    try {
      const seen: { type: string; status?: string; statusMessage?: string }[] = [];
      let result: unknown;
      for await (const m of client.experimental.tasks.callToolStream(rehearsal(), CallToolResultSchema, { task: { ttl: 60_000 } })) {
        if (m.type === 'taskCreated' || m.type === 'taskStatus') seen.push({ type: m.type, status: m.task.status, statusMessage: m.task.statusMessage });
        if (m.type === 'result') result = m.result;
        if (m.type === 'error') throw m.error;
      }
      expect(seen[0]).toMatchObject({ type: 'taskCreated', status: 'working' });
      expect(seen.some((s) => s.statusMessage === 'rehearse is running')).toBe(true);
      const answer = result as { structuredContent: Record<string, unknown>; _meta: Record<string, unknown> };
      const taskId = (answer._meta['io.modelcontextprotocol/related-task'] as { taskId: string }).taskId;
      // The same tool code answers: the task's result is the immediate call's, trade for trade.
      const at = (await client.callTool(rehearsal())) as { structuredContent: Record<string, unknown> };
      expect(answer.structuredContent).toEqual(at.structuredContent);
      expect(answer.structuredContent).toMatchObject({ ok: true, market: 'ES' });
      // The ended task is still listed and read with its status.
      const listed = await client.experimental.tasks.listTasks();
      expect(listed.tasks.map((t) => t.taskId)).toContain(taskId);
      expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'completed', ttl: 60_000 });
    } finally {
      await client.close();
    }
  });

  it('cancels a rehearsal task mid-way: its work stops and records nothing, it stays cancelled, has no result, and is not cancelled twice', { timeout: 60_000 }, async () => {
    const client = await taskClient('/mcp', alice.bearer);
    const spent = async () => (await call(`${deck.url}/meter`, { headers: alice.bearer })).body.spent as number;
    try {
      const before = await spent();
      // Bob's rehearsal holds the one thread, so Alice's waits in the work pool when it is cancelled.
      const bobs = await forgedEmaCross(deck.url, bob.bearer);
      const busy = call(`${deck.url}/studio/rehearse`, { body: { seed_hash: bobs, market: 'ES', folds: 4 }, headers: bob.bearer });
      while (deck.services.pool.depth() < 1) await new Promise((r) => setTimeout(r, 1));
      const { task } = await client.request({ method: 'tools/call', params: { ...rehearsal(), task: {} } }, CreateTaskResultSchema);
      while (deck.services.pool.depth() < 2 && (await client.experimental.tasks.getTask(task.taskId)).status === 'working') await new Promise((r) => setTimeout(r, 1));
      expect(task.status).toBe('working');
      const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
      expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
      const refused = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(McpError);
      expect((refused as McpError).message).toContain('was cancelled');
      // Its work has ended by now (tasks/result waited for it), and what it answered was dropped.
      expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'cancelled' });
      const again = await client.experimental.tasks.cancelTask(task.taskId).catch((e: unknown) => e);
      expect((again as McpError).message).toContain('terminal status: cancelled');
      expect((await busy).status).toBe(200);
      // The cancelled rehearsal was dropped from the pool before it ran: nothing of it is on the meter.
      expect(deck.services.pool.depth()).toBe(0);
      expect(await spent()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('answers a client that asks for no task at once, as before', { timeout: 60_000 }, async () => {
    const client = await legacyClient(`${deck.url}/mcp`, alice.bearer);
    try {
      const answer = (await client.callTool(rehearsal())) as { structuredContent: Record<string, unknown>; _meta?: unknown };
      expect(answer.structuredContent).toMatchObject({ ok: true, market: 'ES' });
      expect(answer._meta).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it("keeps a task to its principal: another cannot read, list, wait on or cancel it", { timeout: 60_000 }, async () => {
    const mine = await taskClient('/mcp', alice.bearer);
    const theirs = await taskClient('/mcp/studio', bob.bearer);
    try {
      const { task } = await mine.request({ method: 'tools/call', params: { ...rehearsal(), task: {} } }, CreateTaskResultSchema);
      for (const attempt of [
        () => theirs.experimental.tasks.getTask(task.taskId),
        () => theirs.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema),
        () => theirs.experimental.tasks.cancelTask(task.taskId),
      ]) {
        const refused = await attempt().catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(McpError);
        expect((refused as McpError).message).toContain(`Task not found: ${task.taskId}`);
      }
      expect((await theirs.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).not.toContain(task.taskId);
      // Its owner still has it whole, on any endpoint.
      const result = await mine.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      expect(result.structuredContent).toMatchObject({ ok: true });
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('keeps at most four tasks working for one principal, and counts no other principal\'s', { timeout: 60_000 }, async () => {
    const client = await taskClient('/mcp', alice.bearer);
    const other = await taskClient('/mcp', bob.bearer);
    try {
      const ask = (c: Client) => c.request({ method: 'tools/call', params: { ...rehearsal(), task: {} } }, CreateTaskResultSchema).catch((e: unknown) => e as McpError);
      const made = await Promise.all([ask(client), ask(client), ask(client), ask(client), ask(client)]);
      const refused = made.filter((m) => m instanceof McpError);
      expect(refused).toHaveLength(1);
      expect(refused[0]!.code).toBe(-32005);
      expect(refused[0]!.message).toContain('at most 4 tasks may be working at once for one principal');
      expect(await ask(other)).toMatchObject({ task: { status: 'working' } });
      for (const m of made) if (!(m instanceof McpError)) await client.experimental.tasks.cancelTask(m.task.taskId);
    } finally {
      await client.close();
      await other.close();
    }
  });

  it('refuses a task for a tool that runs at once, and a task without a principal', async () => {
    const client = await taskClient('/mcp', alice.bearer);
    const anonymous = await taskClient('/mcp', {});
    try {
      const refused = await client.request({ method: 'tools/call', params: { name: 'plans', arguments: {}, task: {} } }, CreateTaskResultSchema).catch((e: unknown) => e);
      expect((refused as McpError).message).toContain('Server does not support task creation (required for tools/call)');
      const keyless = await anonymous.request({ method: 'tools/call', params: { ...rehearsal(), task: {} } }, CreateTaskResultSchema).catch((e: unknown) => e);
      expect(String(keyless)).toContain('rehearse needs a key');
    } finally {
      await client.close();
      await anonymous.close();
    }
  });
});
