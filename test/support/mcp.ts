import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
  type ClientCapabilities,
  type ElicitRequestParams,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const MODERN_PROTOCOL = '2026-07-28';
export const SELLER_IDS = ['studio', 'candles', 'copy'] as const;
/** Every MCP endpoint the deck serves, by path. */
export const MCP_PATHS = ['/mcp', ...SELLER_IDS.map((id) => `/mcp/${id}`)] as const;
/** The endpoints that serve rehearse or plate_seal, so list the rehearsal app. */
export const APP_ON: ReadonlySet<string> = new Set(['/mcp', '/mcp/studio']);
/** The templates of a caller's rehearsal parts, listed where rehearse is served (the same endpoints as the app). */
export const REHEARSAL_PARTS = ['deck://rehearsals/{rehearsal_digest}/trades', 'deck://rehearsals/{rehearsal_digest}/plate'];

/** A 2025-era client (SDK 1.x) connected (initialize done) to one endpoint, with optional headers. */
export async function legacyClient(endpoint: string, headers: Record<string, string> = {}): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'deck-test-legacy', version: '1.0.0' });
  await client.connect(new LegacyTransport(new URL(endpoint), { requestInit: { headers } }));
  return client;
}

export interface ModernOptions {
  capabilities?: ClientCapabilities;
  headers?: Record<string, string>;
  /** Answers elicitation/create requests the deck embeds in an input_required result. */
  onElicit?: (params: ElicitRequestParams) => { action: 'accept' | 'decline' | 'cancel' };
  /** The fetch the transport sends with (the platform's unless told). */
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
}

/** A client pinned to protocol 2026-07-28 (SDK 2.x), connected to one endpoint. */
export async function modernClient(endpoint: string, o: ModernOptions = {}): Promise<ModernClient> {
  const client = new ModernClient(
    { name: 'deck-test-modern', version: '1.0.0' },
    { capabilities: o.capabilities ?? {}, versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } },
  );
  const onElicit = o.onElicit;
  if (onElicit) client.setRequestHandler('elicitation/create', (req) => onElicit(req.params));
  await client.connect(new ModernTransport(new URL(endpoint), { requestInit: { headers: o.headers ?? {} }, ...(o.fetch ? { fetch: o.fetch } : {}) }));
  return client;
}

export interface RpcAnswer {
  status: number;
  contentType: string | null;
  text: string;
  /** The parsed body; undefined when the body is empty. */
  body: unknown;
}

/** One raw POST to an MCP endpoint: the body is sent as given (a string is sent unparsed). */
export async function rpc(endpoint: string, body: unknown, headers: Record<string, string> = {}): Promise<RpcAnswer> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), text, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** A JSON-RPC error answer as the wire carries it. */
export interface RpcError {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string; data?: { next?: { step: string; url: string; message: string } } };
}

/** Writes a grants file (the operator's file under version control) in a new temporary directory; answers its path. */
export async function grantsFile(grants: { name: string; tier: 'free' | 'plan' | 'max' | 'house' }[]): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'deck-grants-')), 'grants.json');
  await writeFile(path, JSON.stringify({ grants: grants.map((g) => ({ ...g, why: 'test grant' })) }));
  return path;
}

/** The names a tools/list answered, sorted. */
export const namesOf = (tools: readonly { name: string }[]): string[] => tools.map((t) => t.name).sort();

/** A JSON-RPC error as an answer carries it. */
export interface RpcErrorBody {
  code: number;
  message: string;
  data?: { next?: { step: string; url: string; message: string } };
}

/**
 * The HTTP status and JSON-RPC error a client's failed call was answered with, when the answer was not a 2xx (a
 * keyless call of a gated tool is HTTP 401): SDK 1.x puts the body in the message of its StreamableHTTPError, SDK 2.x
 * in its SdkHttpError's data.
 */
export function httpRefusal(error: unknown): { status: number; error: RpcErrorBody } {
  const e = error as { code?: unknown; message?: string; data?: { status?: number; text?: string } };
  const text = e.data?.text ?? /Error POSTing to endpoint: (.*)$/s.exec(e.message ?? '')?.[1];
  const status = e.data?.status ?? (typeof e.code === 'number' ? e.code : NaN);
  if (!text) throw new Error(`not an HTTP refusal: ${String(e.message)}`);
  return { status, error: (JSON.parse(text) as { error: RpcErrorBody }).error };
}

/**
 * The refusal an isError tools/call result carries: its body, as its JSON text (a refusal is not the tool's output,
 * so it never rides in structuredContent, which MCP holds to the tool's outputSchema).
 */
export function refusalIn(answer: object): Record<string, any> {
  const result = answer as { isError?: unknown; structuredContent?: unknown; content?: unknown };
  if (result.isError !== true) throw new Error(`not a refusal: ${JSON.stringify(result).slice(0, 300)}`);
  if (result.structuredContent !== undefined) throw new Error('a refusal carries no structuredContent');
  const text = (result.content as { type: string; text?: string }[]).find((c) => c.type === 'text')?.text;
  return JSON.parse(text!) as Record<string, any>;
}
