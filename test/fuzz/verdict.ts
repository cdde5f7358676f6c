/** What the deck answered one fuzzed request, timed from the first byte sent to the last byte read. */
export interface Answer {
  status: number;
  contentType: string;
  text: string;
  ms: number;
}

/** No answer may take longer than this, whatever was sent. */
export const SLOWEST_MS = 2_000;

/** No refusal may be longer than this: it names the first few problems, never every key a body held. */
const LONGEST_REFUSAL = 16 * 1024;

/** The spec's own 5xx: an upstream that did not answer or is not configured. */
const SPEC_5XX = new Set([502, 503]);

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** A 500's body, or any body, that leaks a file path or a stack frame. */
const leaksInternals = (text: string): boolean => /(\/[\w.-]+){2,}\.(ts|js)\b|\bat [\w.<>]+ \(|node:internal|ENOENT|EACCES/.test(text);

/** Whether a REST answer keeps the deck's promises to a client that sent something wrong. Empty means it does. */
export function restFaults(a: Answer): string[] {
  const faults: string[] = [];
  if (a.ms > SLOWEST_MS) faults.push(`took ${Math.round(a.ms)} ms`);
  if (a.status >= 500 && !SPEC_5XX.has(a.status)) faults.push(`answered ${a.status}`);
  if (a.status >= 400) faults.push(...refusalFaults(a));
  if (a.status >= 400 && a.text.length > LONGEST_REFUSAL) faults.push(`a ${a.status} of ${a.text.length} bytes`);
  return faults;
}

/** A refusal is JSON in the deck's one error form, names what was wrong, and carries nothing internal. */
function refusalFaults(a: Answer): string[] {
  if (!a.contentType.includes('application/json')) return [`a ${a.status} answered ${a.contentType || 'no content type'}`];
  const body = parsed(a.text) as { ok?: unknown; error?: unknown; message?: unknown; problems?: unknown } | undefined;
  if (!body || body.ok !== false || typeof body.error !== 'string' || typeof body.message !== 'string' || !body.message) {
    return [`a ${a.status} is not the error form: ${a.text.slice(0, 200)}`];
  }
  const faults: string[] = [];
  if (leaksInternals(a.text)) faults.push(`a ${a.status} carries internals: ${a.text.slice(0, 200)}`);
  if (body.error === 'bad_input') {
    const problems = body.problems;
    const named = Array.isArray(problems) && problems.length > 0 && problems.every((p: { field?: unknown }) => typeof p.field === 'string' && p.field.length > 0);
    if (!named) faults.push(`bad_input names no field: ${a.text.slice(0, 200)}`);
  }
  return faults;
}

interface RpcError {
  code?: unknown;
  message?: unknown;
}
interface RpcMessage {
  jsonrpc?: unknown;
  error?: RpcError;
  result?: { isError?: boolean; content?: { type?: unknown; text?: unknown }[] };
}

/** Whether an MCP answer keeps the deck's promises: JSON-RPC, no internal error, no 5xx refusal the spec does not name. */
export function mcpFaults(a: Answer): string[] {
  const faults: string[] = [];
  if (a.ms > SLOWEST_MS) faults.push(`took ${Math.round(a.ms)} ms`);
  if (a.status >= 500 && !SPEC_5XX.has(a.status)) faults.push(`answered HTTP ${a.status}`);
  if (a.status === 202 && a.text === '') return faults;
  const body = parsed(a.text);
  if (body === undefined) return [...faults, `HTTP ${a.status} is not JSON: ${a.text.slice(0, 200)}`];
  const messages = (Array.isArray(body) ? body : [body]) as RpcMessage[];
  for (const m of messages) {
    if (m.jsonrpc !== '2.0') {
      faults.push(`not a JSON-RPC answer: ${JSON.stringify(m).slice(0, 200)}`);
      continue;
    }
    const code = m.error?.code;
    if (code === -32603) faults.push(`internal error: ${String(m.error?.message).slice(0, 200)}`);
    if (m.error && (typeof m.error.message !== 'string' || !m.error.message)) faults.push('an error without a message');
    if (m.error && leaksInternals(String(m.error.message))) faults.push(`an error carries internals: ${String(m.error.message).slice(0, 200)}`);
    if (m.error && String(m.error.message).length > LONGEST_REFUSAL) faults.push(`an error message of ${String(m.error.message).length} characters`);
    // A refusal rides as its body's JSON text (never as structuredContent, which is the tool's output).
    const text = m.result?.isError ? m.result.content?.find((c) => c.type === 'text')?.text : undefined;
    if (typeof text === 'string' && text.length > LONGEST_REFUSAL) faults.push(`a refusal of ${text.length} characters`);
    const status = typeof text === 'string' ? (parsed(text) as { status?: unknown } | undefined)?.status : undefined;
    if (typeof status === 'number' && status >= 500 && !SPEC_5XX.has(status)) faults.push(`a tool answered ${status}: ${JSON.stringify(m.result).slice(0, 200)}`);
  }
  return faults;
}

/** The figures of one fuzz run: cases tried, and every fault kept (a run goes on past the first). */
export class Tally {
  cases = 0;
  readonly faults: string[] = [];
  private readonly kinds = new Map<string, number>();

  record(request: string, status: number, faults: string[]): void {
    this.cases++;
    for (const f of faults) {
      const kind = f.replace(/:.*$/s, '').replace(/\d+ ms/, 'slow');
      this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + 1);
      this.faults.push(`${request} -> ${status}: ${f}`);
    }
  }

  /** One line for the log: cases tried and faults by kind. */
  summary(name: string): string {
    const kinds = [...this.kinds].map(([k, n]) => `${n} ${k}`).join(', ');
    return `fuzz ${name}: ${this.cases} cases, ${this.faults.length} faults${kinds ? ` (${kinds})` : ''}`;
  }
}
