import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { Ctx } from '../tools/context.js';
import { listingFor, type McpEndpoint } from './endpoints.js';
import { KEY_REQUIRED, UNKNOWN_TOOL } from './json-rpc.js';
import { MuxTransport } from './mux-transport.js';
import { callOnEndpoint, joinStep } from './tool-call.js';

/** A JSON-RPC error sent as written: the SDK's McpError would put "MCP error <code>: " before the message. */
class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The call context and the toolsets the caller listed ride to the handlers in authInfo.extra (the SDK's per-message channel). */
const extraOf = (extra: { authInfo?: { extra?: Record<string, unknown> } }) => extra.authInfo!.extra! as { ctx: Ctx; toolsets: ReadonlySet<string> };
const ctxOf = (extra: { authInfo?: { extra?: Record<string, unknown> } }): Ctx => extraOf(extra).ctx;

/**
 * 2025-era MCP (the SDK 1.x maintenance line): one Server per endpoint, built at start, behind a
 * MuxTransport, answering JSON. Protocol versions up to 2025-11-25 negotiate here.
 */
export async function legacyServer(e: McpEndpoint, version: string) {
  const server = new Server(
    { name: e.name, version },
    { capabilities: { tools: { listChanged: false }, prompts: {}, resources: {} }, instructions: `The deck's ${e.id} endpoint.` },
  );
  server.setRequestHandler(ListToolsRequestSchema, (_req, extra) => ({ tools: [...listingFor(e, ctxOf(extra).principal, extraOf(extra).toolsets)] }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const ctx = ctxOf(extra);
    const outcome = await callOnEndpoint(e, ctx, req.params.name, req.params.arguments ?? {});
    if (outcome.kind === 'unknown_tool') throw new Refusal(UNKNOWN_TOOL, `unknown tool ${outcome.name} on ${e.path}`);
    if (outcome.kind === 'join_required') {
      const { message, next } = joinStep(req.params.name, ctx.urls);
      throw new Refusal(KEY_REQUIRED, message, { next });
    }
    return outcome.result;
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [] }));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  const transport = new MuxTransport();
  await server.connect(transport);
  return {
    dispatch: (message: JSONRPCMessage, ctx: Ctx, toolsets: ReadonlySet<string>) =>
      transport.dispatch(message, { authInfo: { token: '', clientId: 'deck', scopes: [], extra: { ctx, toolsets } } }),
  };
}

export type LegacyServer = Awaited<ReturnType<typeof legacyServer>>;
