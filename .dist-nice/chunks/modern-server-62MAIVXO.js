import {
  KEY_REQUIRED,
  RESOURCE_NOT_FOUND,
  UNKNOWN_TOOL,
  callOnEndpoint,
  endpointResources,
  joinStep,
  listingFor,
  unknownToolMessage
} from "./chunk-R4KNNXXK.js";
import "./chunk-3FLKLLHA.js";

// sellers/modern-server.ts
import {
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  inputRequired,
  ProtocolError,
  Server
} from "@modelcontextprotocol/server";
var JOIN_REQUEST = "join";
var callOf = (auth) => auth.extra;
function declaresUrlElicitation(envelope) {
  const caps = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  return caps?.elicitation?.url !== void 0;
}
function modernHandler(version) {
  const factory = (rc) => {
    const call = callOf(rc.authInfo);
    const { ctx, endpoint: e, toolsets, instructions } = call;
    const server = new Server({ name: e.name, version }, { capabilities: { tools: { listChanged: false }, prompts: {}, resources: {} }, instructions });
    server.setRequestHandler("tools/list", () => ({ tools: [...listingFor(e, ctx.principal, toolsets)] }));
    server.setRequestHandler("prompts/list", () => ({ prompts: [] }));
    const resources = endpointResources(e);
    server.setRequestHandler("resources/list", () => resources.list);
    server.setRequestHandler("resources/read", async (req) => {
      const read = await resources.read(ctx, req.params.uri);
      if (read.kind === "contents") return read.result;
      if (read.kind === "not_found") throw new ProtocolError(RESOURCE_NOT_FOUND, read.message, { uri: req.params.uri });
      const { message, next } = joinStep(read.uri, ctx.urls);
      call.seen.keyRequired = true;
      throw new ProtocolError(KEY_REQUIRED, message, { next });
    });
    server.setRequestHandler("resources/templates/list", () => resources.templates);
    server.setRequestHandler("tools/call", async (req, hctx) => {
      const outcome = await callOnEndpoint(e, ctx, req.params.name, req.params.arguments ?? {}, req.params._meta);
      if (outcome.kind === "unknown_tool") throw new ProtocolError(UNKNOWN_TOOL, unknownToolMessage(e, outcome.name));
      if (outcome.kind === "result") return outcome.result;
      const { message, next } = joinStep(req.params.name, ctx.urls);
      const answered = hctx.mcpReq.inputResponses?.[JOIN_REQUEST] !== void 0;
      if (!answered && declaresUrlElicitation(hctx.mcpReq.envelope)) {
        return inputRequired({
          inputRequests: { [JOIN_REQUEST]: inputRequired.elicitUrl({ message, url: next.url }) },
          requestState: `join:${req.params.name}`
        });
      }
      call.seen.keyRequired = true;
      throw new ProtocolError(KEY_REQUIRED, message, { next });
    });
    return server;
  };
  return createMcpHandler(factory, { legacy: "reject", responseMode: "json" });
}
export {
  modernHandler
};
//# sourceMappingURL=modern-server-62MAIVXO.js.map
