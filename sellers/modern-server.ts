import {
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  inputRequired,
  ProtocolError,
  Server,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import type { Ctx } from '../services/context.js';
import { listingFor, unknownToolMessage, type McpEndpoint } from './endpoints.js';
import { KEY_REQUIRED, RESOURCE_NOT_FOUND, UNKNOWN_TOOL } from './json-rpc.js';
import { endpointResources } from './resources.js';
import { callOnEndpoint, joinStep } from './tool-call.js';

/** The single input request a keyless call of a gated tool asks for: the join page, in URL mode. */
const JOIN_REQUEST = 'join';

/** What rides to the handlers in authInfo.extra: the call context and the endpoint it came to. */
export interface ModernCall {
  ctx: Ctx;
  endpoint: McpEndpoint;
  /** The toolsets tools/list shows (?toolsets=, the endpoint's default unless told). */
  toolsets: ReadonlySet<string>;
  /** What the endpoint tells this caller of itself (instructionsFor). */
  instructions: string;
  /** Marked when the answer is the -32001 of a call that needs a key: the bridge answers it with HTTP 401. */
  seen: { keyRequired: boolean };
}
const callOf = (auth: { extra?: Record<string, unknown> } | undefined): ModernCall => auth!.extra as unknown as ModernCall;

/** Whether the request's _meta declares URL-mode elicitation ({"elicitation": {"url": {}}}). */
function declaresUrlElicitation(envelope: Record<string, unknown> | undefined): boolean {
  const caps = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: { url?: unknown } } | undefined;
  return caps?.elicitation?.url !== undefined;
}

/**
 * Protocol 2026-07-28 (the SDK 2.x line), stateless, one JSON answer, one handler for every endpoint.
 * It builds a low-level Server per request (the v2 entry requires it); the handlers only read listings
 * built at start.
 */
export function modernHandler(version: string) {
  const factory = (rc: McpRequestContext) => {
    const call = callOf(rc.authInfo);
    const { ctx, endpoint: e, toolsets, instructions } = call;
    const server = new Server({ name: e.name, version }, { capabilities: { tools: { listChanged: false }, prompts: {}, resources: {} }, instructions });
    server.setRequestHandler('tools/list', () => ({ tools: [...listingFor(e, ctx.principal, toolsets)] }));
    server.setRequestHandler('prompts/list', () => ({ prompts: [] }));
    const resources = endpointResources(e);
    server.setRequestHandler('resources/list', () => resources.list);
    server.setRequestHandler('resources/read', async (req) => {
      const read = await resources.read(ctx, req.params.uri);
      if (read.kind === 'contents') return read.result as never;
      if (read.kind === 'not_found') throw new ProtocolError(RESOURCE_NOT_FOUND, read.message, { uri: req.params.uri });
      const { message, next } = joinStep(read.uri, ctx.urls);
      call.seen.keyRequired = true;
      throw new ProtocolError(KEY_REQUIRED, message, { next });
    });
    server.setRequestHandler('resources/templates/list', () => resources.templates as never);
    server.setRequestHandler('tools/call', async (req, hctx) => {
      const outcome = await callOnEndpoint(e, ctx, req.params.name, req.params.arguments ?? {}, req.params._meta);
      if (outcome.kind === 'unknown_tool') throw new ProtocolError(UNKNOWN_TOOL, unknownToolMessage(e, outcome.name));
      if (outcome.kind === 'result') return outcome.result;
      const { message, next } = joinStep(req.params.name, ctx.urls);
      // A client that can open a URL is sent to the join page once; when it comes back still without a
      // bearer (joined or not), the structured error tells it what to add.
      const answered = hctx.mcpReq.inputResponses?.[JOIN_REQUEST] !== undefined;
      if (!answered && declaresUrlElicitation(hctx.mcpReq.envelope as Record<string, unknown> | undefined)) {
        return inputRequired({
          inputRequests: { [JOIN_REQUEST]: inputRequired.elicitUrl({ message, url: next.url }) },
          requestState: `join:${req.params.name}`,
        });
      }
      call.seen.keyRequired = true;
      throw new ProtocolError(KEY_REQUIRED, message, { next });
    });
    return server;
  };
  return createMcpHandler(factory, { legacy: 'reject', responseMode: 'json' });
}

