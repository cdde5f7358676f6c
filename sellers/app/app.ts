// The MCP App page's script, run in the host's sandboxed frame: it speaks the MCP Apps protocol through the ext-apps
// package's App (never a bridge of its own), takes the tool's structured result as the host hands it over and draws
// it with the studio's viewer. Candles come from the deck's own tape tool, called through the host. The package's
// browser build (app-with-deps: its SDK and zod inside) is what the page inlines: 388 KB against 534 KB rebundled.
import { App } from '@modelcontextprotocol/ext-apps/app-with-deps';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { showCandles, showRehearsal, type Candle, type RehearsalEnvelope } from './view.js';

const view = document.getElementById('view')!;
const status = document.getElementById('status')!;
const app = new App({ name: 'the deck: rehearsal', version: '1.0.0' }, {}, { autoResize: true });
let input: Record<string, unknown> = {};

const say = (words: string) => void (status.textContent = words);

/** The window's candles, read with the tape tool through the host (the deck's own tool, your own session). */
async function candlesOf(market: string, tf: string, from: number, to: number): Promise<Candle[]> {
  const got = await app.callServerTool({ name: 'tape', arguments: { market, tf, from, to, limit: 20_000 } });
  const body = got.structuredContent as { candles?: Candle[] } | undefined;
  if (got.isError || !body?.candles) throw new Error(textOf(got) || 'the tape answered no candles');
  return body.candles;
}

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join(' ').trim();

async function show(result: CallToolResult): Promise<void> {
  const body = result.structuredContent as Record<string, unknown> | undefined;
  if (result.isError || !body) return say(`The deck refused: ${textOf(result)}`);
  if (Array.isArray(body.trades)) {
    const r = body as unknown as RehearsalEnvelope;
    say(`Rehearsal of ${r.market} ${r.timeframe}: reading the candles…`);
    // The null is drawn from the envelope's percentiles: the frame reaches the deck only through the host's tool calls.
    showRehearsal(view, r, await candlesOf(r.market, r.timeframe, r.window.from, r.window.to));
    return say(`Rehearsal of ${r.market} ${r.timeframe}: ${r.stats.n} trades. Evidence about the past, never a forecast.`);
  }
  if (typeof body.png === 'string') {
    const { market, tf, from, to } = input as { market?: string; tf?: string; from?: number | string; to?: number | string };
    const seconds = (t: number | string | undefined) => (typeof t === 'number' ? t : Date.parse(String(t)) / 1000);
    if (!market || !tf) return say(`Plate ${String(body.id)} sealed.`);
    showCandles(view, await candlesOf(market, tf, seconds(from), seconds(to)));
    return say(`Plate ${String(body.id)} sealed: ${market} ${tf}.`);
  }
  say('This answer holds nothing to draw.');
}

app.ontoolinput = (p) => void (input = p.arguments ?? {});
app.ontoolresult = (result) => void show(result).catch((e: unknown) => say(`Could not draw it: ${e instanceof Error ? e.message : String(e)}`));
void app.connect().then(
  () => say('Waiting for the tool’s answer…'),
  (e: unknown) => say(`Could not reach the host: ${e instanceof Error ? e.message : String(e)}`),
);
