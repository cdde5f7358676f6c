import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema, type CallToolResult, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { readAnswers } from './answers.js';
import { listening } from './child.js';

// Baseline: a bare stateless MCP server as the SDK 1.x documents it: a new McpServer and transport per request, JSON
// answers, one tool answering what the deck's catalogue answers, and tools/list answering the deck's listing (set on
// the low-level server after the tool is registered, since McpServer would list the one tool in its own words).
const answers = readAnswers();
const { result: called } = JSON.parse(answers.mcpCall) as { result: CallToolResult };
const { result: listed } = JSON.parse(answers.mcpList) as { result: ListToolsResult };

const serverFor = () => {
  const server = new McpServer({ name: 'bare', version: '1.0.0' });
  server.registerTool('catalogue', { title: 'Catalogue', description: 'What the deck offers.' }, async () => called);
  server.server.setRequestHandler(ListToolsRequestSchema, () => listed);
  return server;
};

const app = createMcpExpressApp();
app.post('/mcp/candles', async (req, res) => {
  const server = serverFor();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});

const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address() as AddressInfo;
  listening(`http://${address}:${port}`);
});
