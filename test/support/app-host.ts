// A small MCP Apps host for the browser tests, run in the test's page: it frames an app's ui:// page (sandboxed,
// scripts only, as hosts frame it) and speaks the protocol to it with the ext-apps package's own host side
// (AppBridge), handing over a tool's input and result and answering the app's tool calls through `callTool`, which
// the test wires to a real MCP client of the deck.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

declare global {
  interface Window {
    callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
    host(html: string, input: Record<string, unknown>, result: CallToolResult): Promise<void>;
  }
}

window.host = async (html, input, result) => {
  const frame = document.createElement('iframe');
  frame.sandbox.add('allow-scripts');
  frame.title = 'The app';
  frame.style.cssText = 'width:100%;border:1px solid #999;height:400px';
  document.body.append(frame);
  const bridge = new AppBridge(null, { name: 'deck test host', version: '1.0.0' }, { serverTools: {} });
  bridge.oncalltool = (params) => window.callTool(params.name, params.arguments ?? {});
  bridge.onsizechange = ({ height }) => void (height && (frame.style.height = `${height}px`));
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: input }).then(() => bridge.sendToolResult(result));
  };
  // The bridge listens before the page loads, so the app's first message (initialize) is heard.
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.srcdoc = html;
};
