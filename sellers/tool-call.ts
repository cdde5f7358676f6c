import type { Ctx, PerCallPayment } from '../services/context.js';
import type { Principal } from '../core/principal.js';
import { EventStream, JsonBytes, WithImage, WithLinks, type ResourceLink } from '../tools/define.js';
import { jsonOf } from '../core/json.js';
import { DeckError, internalFailure } from '../core/errors.js';
import { outcomeOfStatus } from '../services/plane/metrics.js';
import type { McpEndpoint } from './endpoints.js';
import { paidAs, perCallFor } from '../services/pay/payment.js';

/**
 * A tools/call result in the shape both protocol eras share. A refusal (isError) carries its body as the JSON text
 * only: structuredContent is the tool's output, which MCP holds to the tool's outputSchema (the 2025-era SDK client
 * checks it on an isError result too), and a refusal's body is not that output.
 */
export interface ToolResult {
  [key: string | symbol]: unknown;
  content: ({ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string } | ({ type: 'resource_link' } & ResourceLink))[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What became of a tools/call: each era's adapter turns the last two into its own form. */
export type CallOutcome = { kind: 'result'; result: ToolResult } | { kind: 'join_required' } | { kind: 'unknown_tool'; name: string };

/** Where a result keeps its body's JSON, which is its text: a symbol, so no serializer or schema sees it. */
const BODY_JSON = Symbol('the body as JSON');

/** The JSON of the plain result carrying a frozen body (see jsonOf), kept with the body. */
const writtenResults = new WeakMap<object, string>();

const asResult = (body: Record<string, unknown>, isError: boolean, png?: Uint8Array): ToolResult => {
  const text = jsonOf(body);
  return {
    content: [...(png ? [{ type: 'image' as const, data: Buffer.from(png).toString('base64'), mimeType: 'image/png' }] : []), { type: 'text', text }],
    ...(isError ? { isError: true } : { structuredContent: body }),
    [BODY_JSON]: text,
  };
};

/**
 * A result's JSON, the very bytes JSON.stringify writes for it, with the body serialized once: the text already holds
 * the body's JSON, and structuredContent is that same body.
 */
export function resultJson(r: ToolResult): string {
  const body = r[BODY_JSON] as string | undefined;
  // A result with _meta (a payment's settlement) is written whole.
  if (body === undefined || r._meta !== undefined) return JSON.stringify(r);
  const structured = r.structuredContent;
  const keep = r.content.length === 1 && structured !== undefined && Object.isFrozen(structured);
  const kept = keep ? writtenResults.get(structured) : undefined;
  if (kept !== undefined) return kept;
  const image = r.content.length > 1 ? `${JSON.stringify(r.content[0])},` : '';
  const json = `{"content":[${image}{"type":"text","text":${JSON.stringify(body)}}],${r.isError ? '"isError":true' : `"structuredContent":${body}`}}`;
  if (keep) writtenResults.set(structured, json);
  return json;
}

/**
 * An answer whose large parts are linked: the body stays the structuredContent, byte for byte, and the text is its
 * summary beside a resource_link to each part, in place of the body's JSON (MCP asks that text for clients that read no
 * structuredContent; here those clients read the summary and fetch the parts they need).
 */
const linkedResult = (out: WithLinks): ToolResult => ({
  content: [{ type: 'text', text: out.summary }, ...out.links.map((l) => ({ type: 'resource_link' as const, ...l }))],
  structuredContent: out.body,
});

/** A tool's answer as the body MCP structures (sealed bytes are read back; a picture rides beside it; a stream is read whole). */
async function resultOf(out: unknown): Promise<ToolResult> {
  if (out instanceof EventStream) return asResult(await out.whole(), false);
  if (out instanceof WithImage) return asResult(out.body, false, out.png);
  if (out instanceof WithLinks) return linkedResult(out);
  if (out instanceof JsonBytes) return asResult(JSON.parse(out.bytes.toString('utf8')) as Record<string, unknown>, false);
  return asResult(out as Record<string, unknown>, false);
}

/**
 * Calls a tool as the signed-in principal. A refusal (DeckError) is a tool result with isError and the
 * refusal's body, upgrade_required among them; a failure inside the deck is one too, saying only that it failed
 * (what failed goes to the log, as REST's 500 does); only "who are you" leaves as a protocol-level outcome.
 */
export async function callOnEndpoint(e: McpEndpoint, given: Ctx, name: string, args: unknown, meta?: unknown, paying?: Paying): Promise<CallOutcome> {
  const tool = e.byName.get(name);
  if (!tool) return { kind: 'unknown_tool', name };
  let ctx = given;
  // Without a key, a tool the plans file prices per call (x402) asks for its payment instead of a key.
  const perCall = perCallFor(ctx, tool);
  if (tool.access === 'session' && !ctx.principal && !perCall) return { kind: 'join_required' };
  const started = performance.now();
  try {
    if (perCall) {
      const sent = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)[PAYMENT] : undefined;
      const admitted = await paidAs(ctx, perCall, name, `${ctx.urls.base}/mcp#${name}`, sent);
      ctx = { ...ctx, ...admitted, payment: paying ? paying(admitted.payment!, admitted.principal!) : admitted.payment };
    }
    const withDefaults = tool.mcpDefaults && typeof args === 'object' && args !== null ? { ...tool.mcpDefaults, ...args } : args;
    const result = await resultOf(await tool.call(ctx, withDefaults));
    if (ctx.payment?.settled) result._meta = { [PAYMENT_RESPONSE]: ctx.payment.settled };
    ctx.plane.toolCall(name, 'mcp', 'ok', (performance.now() - started) / 1000);
    return { kind: 'result', result };
  } catch (error) {
    const refusal = error instanceof DeckError ? error : internalFailure();
    if (refusal !== error) ctx.log.error('tool_failed', { tool: name, error: (error as Error).message });
    ctx.plane.toolCall(name, 'mcp', outcomeOfStatus(refusal.status), (performance.now() - started) / 1000);
    // x402's MCP transport: a payment asked for or refused is the PaymentRequired itself, structured and as the text.
    const required = refusal.status === 402 ? (refusal.details.x402 as Record<string, unknown> | undefined) : undefined;
    if (required) return { kind: 'result', result: { content: [{ type: 'text', text: JSON.stringify(required) }], structuredContent: required, isError: true } };
    const result = asResult({ ...refusal.body(), status: refusal.status }, true);
    // A call refused after its payment settled still says it was paid, as a served one does.
    if (ctx.payment?.settled) result._meta = { [PAYMENT_RESPONSE]: ctx.payment.settled };
    return { kind: 'result', result };
  }
}

/**
 * What a caller of a paid call may wrap its payment in, to act at its settlement (a task is made once it is settled,
 * and asks first whether the payer may start one more).
 */
export type Paying = (payment: PerCallPayment, payer: Principal) => PerCallPayment;

/** Where x402's MCP transport carries the payment (request _meta) and the settlement (result _meta). */
const PAYMENT = 'x402/payment';
const PAYMENT_RESPONSE = 'x402/payment-response';

/** What a keyless call of a gated tool is told in both eras: the words, and the join step as data. */
export function joinStep(tool: string, urls: { base: string; join: string }) {
  const how =
    `Open ${urls.join}, pick a name and keep the key you are shown once; then sign in with POST ${urls.base}/login ` +
    `and send the deck_session value (or the key) as "Authorization: Bearer ...".`;
  return { message: `${tool} needs a key. ${how}`, next: { step: 'join', url: urls.join, message: how } };
}
