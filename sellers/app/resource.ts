import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { pageOf } from './page.js';

/** The MCP App (io.modelcontextprotocol/ui) that draws a rehearsal, or a plate's candles, from the tool's result. */
export const REHEARSAL_APP_URI = 'ui://deck/rehearsal.html';

/** The tools whose results the app draws: a host that renders apps shows it beside their answer. */
export const APP_TOOLS: ReadonlyMap<string, string> = new Map([
  ['rehearse', REHEARSAL_APP_URI],
  ['plate_seal', REHEARSAL_APP_URI],
]);

/** A tool's `_meta` for the app it opens, in the current key and the one older hosts read; none for another tool. */
export const appMeta = (tool: string): { ui?: { resourceUri: string }; [RESOURCE_URI_META_KEY]?: string } => {
  const uri = APP_TOOLS.get(tool);
  return uri ? { ui: { resourceUri: uri }, [RESOURCE_URI_META_KEY]: uri } : {};
};

const RESOURCE = {
  uri: REHEARSAL_APP_URI,
  name: 'rehearsal',
  title: 'Rehearsal viewer',
  description: 'Draws a rehearsal (candles with zoom and pan, the trades and their reasons, the equity in R, the null with the rule marked, the verdict) or a sealed plate\'s candles, from the rehearse or plate_seal tool\'s result.',
  mimeType: RESOURCE_MIME_TYPE,
  // The page loads nothing and connects nowhere: it reaches the deck only by the host's tool calls.
  _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
} as const;

/** resources/list of an endpoint: the app, when the endpoint serves a tool that opens it. */
export const appResources = (serves: (tool: string) => boolean) => ([...APP_TOOLS.keys()].some(serves) ? [RESOURCE] : []);

/** resources/read of the app: its page, whole, with its policy; null for any other URI. */
export async function readAppResource(uri: string) {
  if (uri !== REHEARSAL_APP_URI) return null;
  const text = await pageOf('sellers/app/rehearsal.html', 'sellers/app/app.ts');
  return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text, _meta: RESOURCE._meta }] };
}
