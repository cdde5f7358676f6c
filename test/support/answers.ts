import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { REGISTRY, toolByName } from '../../tools/registry.js';
import { call } from './http.js';

/** The JSON Schema validator an MCP client checks structuredContent against a tool's outputSchema with. */
const VALIDATOR = new AjvJsonSchemaValidator();
const asJsonSchema = new Map<string, (input: unknown) => { valid: boolean; errorMessage?: string | undefined }>();

/**
 * A tool's answer (a REST body, or MCP structuredContent) parsed by the output schema the tool declares in the
 * registry, and held to that schema as JSON Schema (what OpenAPI readers and MCP clients are given); throws naming
 * every field that drifted from it (missing, renamed, of another type, or not declared).
 */
export function answered(tool: string, body: unknown): unknown {
  const declared = toolByName.get(tool);
  if (!declared) throw new Error(`no tool is named ${tool}`);
  const parsed = declared.output.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}${'keys' in i ? ` ${JSON.stringify(i.keys)}` : ''}`);
    throw new Error(`${tool} answered off its schema: ${problems.join('; ')}`);
  }
  let validate = asJsonSchema.get(tool);
  if (!validate) asJsonSchema.set(tool, (validate = VALIDATOR.getValidator(declared.outputSchema as never)));
  const checked = validate(body);
  if (!checked.valid) throw new Error(`${tool} answered off its schema as JSON Schema: ${checked.errorMessage}`);
  return parsed.data;
}

/** The routes of the registry, each as a pattern of its path, in the registry's order (the order routes are served in). */
const ROUTES = REGISTRY.flatMap((t) =>
  t.rest ? [{ tool: t, method: t.rest.method, pattern: new RegExp(`^${t.rest.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z_]+/g, '[^/]+')}$`) }] : [],
);

/** The tool a REST request reaches. */
export function toolOfRoute(method: string, url: string) {
  const path = new URL(url).pathname;
  return ROUTES.find((r) => r.method === method && r.pattern.test(path))?.tool ?? null;
}

/**
 * call() over real HTTP, and a success answered by a tool that declares its output parsed by that schema (the
 * test fails on an answer that drifted from it).
 */
export async function callAnswered(url: string, init: Parameters<typeof call>[1] = {}): ReturnType<typeof call> {
  const res = await call(url, init);
  const method = init.method ?? (init.body === undefined && init.raw === undefined ? 'GET' : 'POST');
  const tool = toolOfRoute(method, url);
  if (res.status >= 200 && res.status < 300 && tool) answered(tool.name, res.body);
  return res;
}

/**
 * Reads a principal's whole history and each of its acts as its ledger keeps it (history, then history_entry), every
 * answer parsed by its tool's schema; answers the ledgers the acts came from.
 */
export async function everyAct(url: string, headers: Record<string, string>): Promise<string[]> {
  const { status, body } = await callAnswered(`${url}/records/history?limit=200`, { headers });
  if (status !== 200) throw new Error(`history: ${status} ${JSON.stringify(body)}`);
  const acts = body.acts as { ledger: string; seq: number }[];
  for (const a of acts) {
    const entry = await callAnswered(`${url}/records/history/${a.ledger}/${a.seq}`, { headers });
    if (entry.status !== 200) throw new Error(`history_entry ${a.ledger} #${a.seq}: ${entry.status} ${JSON.stringify(entry.body)}`);
  }
  return [...new Set(acts.map((a) => a.ledger))].sort();
}
