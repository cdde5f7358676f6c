// The rehearsal viewer, run in a browser: the studio page and the MCP App page both draw a rehearsal with it, so a
// person and an agent's user look at the same picture. It draws from the rehearsal envelope as the deck answers it
// (and the candles of its window); it computes nothing the envelope
// does not say. Plain DOM and SVG, no library: the pages load nothing from the network.

import type { Rehearsal, Trade } from '../../engine/stepper/envelope.js';

export interface Candle {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
}

/** What the viewer draws: the rehearsal envelope as the deck answers it (paged over MCP, with its plate when sealed). */
export type RehearsalEnvelope = Pick<Rehearsal, 'market' | 'timeframe' | 'window' | 'trades' | 'stats' | 'null' | 'verdict' | 'summary'> & {
  trades_page?: { total: number } | undefined;
  plate?: { png: string; json: string } | undefined;
};


const SVG = 'http://www.w3.org/2000/svg';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function svg(tag: string, attrs: Record<string, string | number> = {}, text?: string): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

const fmt = (n: number | null | undefined, digits = 2): string => (n === null || n === undefined || !Number.isFinite(n) ? '—' : n.toFixed(digits));
const signed = (n: number, digits = 2): string => `${n >= 0 ? '+' : ''}${n.toFixed(digits)}`;
/** A unix time as the UTC minute it names (the deck's times are UTC). */
export const when = (t: number): string => new Date(t * 1000).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

/** How a trade reads in words: its side, entry, stop and target (when it has one), exit, R and why it closed. */
export const tradeWords = (t: Trade): string =>
  `${t.side} at ${t.entry} on ${when(t.entry_t)}, stop ${t.stop}${t.target === null ? '' : `, target ${t.target}`}, out at ${t.exit} on ${when(t.exit_t)} (${t.why}): ${signed(t.r)}R`;

const WIDTH = 720;

/**
 * The candles with the trades over them: zoomed with the wheel, the buttons or + and -, panned by dragging or with
 * the arrow keys, each trade's words shown on hover or focus (and in the trade list under it, whose buttons bring
 * a trade into view).
 */
function priceChart(candles: Candle[], trades: Trade[], detail: HTMLElement): { root: HTMLElement; focusTrade(i: number): void } {
  const root = el('figure', { class: 'rv-price' });
  const caption = el('figcaption', {}, `Price${trades.length ? ', with each entry (triangle) and exit (circle)' : ''}. Drag or use the arrow keys to pan, the wheel or + and - to zoom.`);
  const tools = el('div', { class: 'rv-tools', role: 'group', 'aria-label': 'Zoom the candles' });
  const zoomIn = el('button', { type: 'button' }, 'Zoom in');
  const zoomOut = el('button', { type: 'button' }, 'Zoom out');
  const reset = el('button', { type: 'button' }, 'Show all');
  tools.append(zoomIn, zoomOut, reset);
  const H = 300;
  const chart = svg('svg', { viewBox: `0 0 ${WIDTH} ${H}`, class: 'rv-chart', tabindex: 0, role: 'img', 'aria-label': `${candles.length} candles and ${trades.length} trades; arrow keys pan, + and - zoom` }) as SVGSVGElement;
  root.append(caption, tools, chart);
  if (candles.length === 0) {
    chart.append(svg('text', { x: 12, y: 24, class: 'rv-muted' }, 'No candles to draw for this window.'));
    return { root, focusTrade() {} };
  }
  let from = 0;
  let to = candles.length; // the candles in view: [from, to)
  const minSpan = Math.min(candles.length, 10);
  const indexOf = (t: number): number => {
    let lo = 0;
    let hi = candles.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (candles[mid]!.t <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const draw = () => {
    chart.replaceChildren();
    const shown = candles.slice(from, to);
    const inView = trades.map((t, i) => ({ t, i })).filter(({ t }) => indexOf(t.exit_t) >= from && indexOf(t.entry_t) < to);
    let low = Math.min(...shown.map((c) => c.l), ...inView.flatMap(({ t }) => [t.entry, t.exit]));
    let high = Math.max(...shown.map((c) => c.h), ...inView.flatMap(({ t }) => [t.entry, t.exit]));
    if (high === low) [low, high] = [low - 1, high + 1];
    const pad = (high - low) * 0.05;
    const y = (p: number) => 12 + ((high + pad - p) / (high - low + 2 * pad)) * (H - 36);
    const step = (WIDTH - 70) / shown.length;
    const x = (i: number) => (i - from + 0.5) * step;
    // price axis: four levels
    for (let k = 0; k <= 3; k++) {
      const p = low + ((high - low) * k) / 3;
      chart.append(svg('line', { x1: 0, x2: WIDTH - 70, y1: y(p), y2: y(p), class: 'rv-grid' }), svg('text', { x: WIDTH - 66, y: y(p) + 4, class: 'rv-axis' }, p.toFixed(2)));
    }
    chart.append(svg('text', { x: 2, y: H - 6, class: 'rv-axis' }, when(shown[0]!.t)), svg('text', { x: WIDTH - 72, y: H - 6, class: 'rv-axis', 'text-anchor': 'end' }, when(shown[shown.length - 1]!.t)));
    // Trades that run past the view are cut at its edge, never drawn over the price axis.
    const clip = svg('clipPath', { id: 'rv-plot' });
    clip.append(svg('rect', { x: 0, y: 0, width: WIDTH - 70, height: H }));
    const plot = svg('g', { 'clip-path': 'url(#rv-plot)' });
    chart.append(clip, plot);
    const body = Math.max(1, step * 0.6);
    shown.forEach((c, k) => {
      const i = from + k;
      const up = c.c >= c.o;
      const g = svg('g', { class: up ? 'rv-up' : 'rv-down' });
      g.append(svg('line', { x1: x(i), x2: x(i), y1: y(c.h), y2: y(c.l) }));
      g.append(svg('rect', { x: x(i) - body / 2, width: body, y: y(Math.max(c.o, c.c)), height: Math.max(1, Math.abs(y(c.o) - y(c.c))) }));
      plot.append(g);
    });
    for (const { t, i } of inView) {
      const g = svg('g', { class: `rv-trade ${t.r >= 0 ? 'rv-win' : 'rv-loss'}`, tabindex: 0, role: 'button', 'aria-label': `Trade ${i + 1}: ${tradeWords(t)}` });
      const xe = x(indexOf(t.entry_t));
      const xx = x(indexOf(t.exit_t));
      const ye = y(t.entry);
      const dir = t.side === 'long' ? 1 : -1;
      g.append(svg('title', {}, `Trade ${i + 1}: ${tradeWords(t)}`));
      g.append(svg('line', { x1: xe, x2: xx, y1: ye, y2: y(t.exit), class: 'rv-path' }));
      g.append(svg('line', { x1: xe - 6, x2: xe + 6, y1: y(t.stop), y2: y(t.stop), class: 'rv-stop' }));
      g.append(svg('path', { d: `M${xe - 6},${ye + 8 * dir} L${xe + 6},${ye + 8 * dir} L${xe},${ye} Z`, class: 'rv-entry' }));
      g.append(svg('circle', { cx: xx, cy: y(t.exit), r: 4, class: 'rv-exit' }));
      const show = () => {
        detail.textContent = `Trade ${i + 1}: ${tradeWords(t)}`;
      };
      g.addEventListener('mouseenter', show);
      g.addEventListener('focus', show);
      plot.append(g);
    }
  };
  const zoom = (factor: number, centre = (from + to) / 2) => {
    const span = Math.max(minSpan, Math.min(candles.length, Math.round((to - from) * factor)));
    from = Math.max(0, Math.min(candles.length - span, Math.round(centre - span / 2)));
    to = from + span;
    draw();
  };
  const pan = (bars: number) => {
    const span = to - from;
    from = Math.max(0, Math.min(candles.length - span, from + bars));
    to = from + span;
    draw();
  };
  zoomIn.addEventListener('click', () => zoom(0.5));
  zoomOut.addEventListener('click', () => zoom(2));
  reset.addEventListener('click', () => zoom(Infinity));
  chart.addEventListener('keydown', (e) => {
    const moves: Record<string, () => void> = {
      ArrowLeft: () => pan(-Math.max(1, Math.round((to - from) / 5))),
      ArrowRight: () => pan(Math.max(1, Math.round((to - from) / 5))),
      '+': () => zoom(0.5),
      '=': () => zoom(0.5),
      '-': () => zoom(2),
      Home: () => zoom(Infinity),
    };
    const move = moves[e.key];
    if (!move || e.target !== chart) return;
    e.preventDefault();
    move();
  });
  chart.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const box = chart.getBoundingClientRect();
      const at = from + ((e.clientX - box.left) / box.width) * (WIDTH / (WIDTH - 70)) * (to - from);
      zoom(e.deltaY < 0 ? 0.8 : 1.25, at);
    },
    { passive: false },
  );
  let dragFrom: number | null = null;
  chart.addEventListener('pointerdown', (e) => {
    if ((e.target as Element).closest('.rv-trade')) return;
    dragFrom = e.clientX;
    chart.setPointerCapture(e.pointerId);
  });
  chart.addEventListener('pointermove', (e) => {
    if (dragFrom === null) return;
    const perBar = chart.getBoundingClientRect().width / (to - from);
    const bars = Math.trunc((dragFrom - e.clientX) / perBar);
    if (bars !== 0) {
      dragFrom -= bars * perBar;
      pan(bars);
    }
  });
  chart.addEventListener('pointerup', () => void (dragFrom = null));
  draw();
  return {
    root,
    focusTrade(i: number) {
      const t = trades[i]!;
      const span = Math.max(minSpan, Math.min(to - from, indexOf(t.exit_t) - indexOf(t.entry_t) + 40));
      const centre = (indexOf(t.entry_t) + indexOf(t.exit_t)) / 2;
      from = Math.max(0, Math.min(candles.length - span, Math.round(centre - span / 2)));
      to = from + span;
      draw();
      detail.textContent = `Trade ${i + 1}: ${tradeWords(t)}`;
    },
  };
}

/** The equity in R, trade by trade, from zero. */
function equityChart(trades: Trade[]): HTMLElement {
  const root = el('figure', { class: 'rv-equity' });
  root.append(el('figcaption', {}, 'Equity in R, trade by trade'));
  const H = 140;
  const chart = svg('svg', { viewBox: `0 0 ${WIDTH} ${H}`, role: 'img' });
  let sum = 0;
  const curve = [0, ...trades.map((t) => (sum += t.r))];
  const low = Math.min(0, ...curve);
  const high = Math.max(0, ...curve);
  const span = high - low || 1;
  const y = (r: number) => 10 + ((high - r) / span) * (H - 30);
  const x = (i: number) => 4 + (i / Math.max(1, curve.length - 1)) * (WIDTH - 74);
  chart.setAttribute('aria-label', `Equity in R over ${trades.length} trades, ending at ${signed(sum)}R`);
  chart.append(svg('line', { x1: 0, x2: WIDTH - 70, y1: y(0), y2: y(0), class: 'rv-grid' }), svg('text', { x: WIDTH - 66, y: y(0) + 4, class: 'rv-axis' }, '0R'));
  chart.append(svg('text', { x: WIDTH - 66, y: y(high) + 4, class: 'rv-axis' }, `${signed(high, 1)}R`), svg('text', { x: WIDTH - 66, y: y(low) + 4, class: 'rv-axis' }, `${signed(low, 1)}R`));
  chart.append(svg('polyline', { points: curve.map((r, i) => `${x(i)},${y(r)}`).join(' '), class: 'rv-curve' }));
  root.append(chart);
  return root;
}

/** Where the rule's total R falls among the random null's runs: their histogram, as the rehearsal states it, and the rule's mark. */
function nullChart(n: RehearsalEnvelope['null']): HTMLElement {
  const root = el('figure', { class: 'rv-null' });
  const said = n.percentile === null ? 'no percentile' : `percentile ${fmt(n.percentile, 1)}, p = ${fmt(n.p, 4)}`;
  root.append(el('figcaption', {}, `Random entries: ${n.runs} runs; the rule's ${signed(n.rule_total_r)}R is at ${said}`));
  const H = 150;
  const chart = svg('svg', { viewBox: `0 0 ${WIDTH} ${H}`, role: 'img', 'aria-label': `The random null's total R over ${n.runs} runs, with the rule's total R marked at ${signed(n.rule_total_r)}R` });
  root.append(chart);
  const bins = n.histogram;
  if (n.runs === 0 || !bins) {
    chart.append(svg('text', { x: 12, y: 24, class: 'rv-muted' }, 'No null: the rule made no trades to match.'));
    return root;
  }
  // The bins' range holds the rule's total and its neighbours', padded: the rule's mark always falls inside it.
  const lo = bins.from;
  const hi = bins.from + bins.width * bins.counts.length;
  const x = (r: number) => 4 + ((r - lo) / (hi - lo)) * (WIDTH - 8);
  const base = H - 24;
  const top = Math.max(1, ...bins.counts);
  bins.counts.forEach((c, i) => {
    const x0 = x(bins.from + i * bins.width);
    const h = (c / top) * (base - 16);
    chart.append(svg('rect', { x: x0, width: Math.max(1, x(bins.from + (i + 1) * bins.width) - x0 - 1), y: base - h, height: h, class: 'rv-bin' }, undefined));
  });
  chart.append(svg('line', { x1: 0, x2: WIDTH, y1: base, y2: base, class: 'rv-grid' }));
  chart.append(svg('line', { x1: x(n.rule_total_r), x2: x(n.rule_total_r), y1: 6, y2: base, class: 'rv-mark' }));
  const right = x(n.rule_total_r) > WIDTH * 0.7; // the label on the side with room for it
  chart.append(svg('text', { x: x(n.rule_total_r) + (right ? -4 : 4), y: 16, class: 'rv-mark-text', 'text-anchor': right ? 'end' : 'start' }, `the rule ${signed(n.rule_total_r)}R`));
  chart.append(svg('text', { x: 4, y: H - 6, class: 'rv-axis' }, `${fmt(lo, 1)}R`), svg('text', { x: WIDTH - 4, y: H - 6, class: 'rv-axis', 'text-anchor': 'end' }, `${fmt(hi, 1)}R`));
  return root;
}

/**
 * Draws a rehearsal into `root`: its verdict first (the sentence and its label), the stats, the candles with the
 * trades, the equity in R, the null with the rule's mark, and the trades listed. Answers nothing; replaces what
 * `root` held.
 */
export function showRehearsal(root: HTMLElement, r: RehearsalEnvelope, candles: Candle[]): void {
  const verdict = el('section', { class: 'rv-verdict', 'aria-label': 'Verdict' });
  verdict.append(el('h3', {}, r.verdict ? `Verdict: ${r.verdict.label.replace(/_/g, ' ')}` : 'No verdict'));
  if (r.verdict) verdict.append(el('p', {}, r.verdict.words));
  if (r.summary) verdict.append(el('p', { class: 'rv-muted' }, r.summary));
  const s = r.stats;
  const stats = el('dl', { class: 'rv-stats' });
  const shownTrades = r.trades_page && r.trades_page.total > r.trades.length ? `${r.trades.length} of ${r.trades_page.total} shown` : null;
  for (const [k, v] of [
    ['Market', `${r.market} ${r.timeframe}`],
    ['Window', `${when(r.window.from)} to ${when(r.window.to)}, ${r.window.bars} bars`],
    ['Trades', `${s.n}${shownTrades ? ` (${shownTrades})` : ''}`],
    ['Win rate', s.win_rate === null ? '—' : `${(s.win_rate * 100).toFixed(1)}%`],
    ['Total R', signed(s.total_r)],
    ['Expectancy', s.expectancy === null ? '—' : `${signed(s.expectancy, 3)}R`],
    ['Max drawdown', `${fmt(s.max_drawdown_r)}R`],
    ['Profit factor', fmt(s.profit_factor)],
  ] as const) {
    const pair = el('div');
    pair.append(el('dt', {}, k), el('dd', {}, v));
    stats.append(pair);
  }
  const detail = el('p', { class: 'rv-detail', 'aria-live': 'polite' }, 'Hover over or focus a trade to read it.');
  const price = priceChart(candles, r.trades, detail);
  const list = el('details', { class: 'rv-trades' });
  list.append(el('summary', {}, `The trades (${r.trades.length})`));
  const ol = el('ol');
  r.trades.forEach((t, i) => {
    const li = el('li');
    const b = el('button', { type: 'button', class: 'rv-link' }, tradeWords(t));
    b.addEventListener('click', () => price.focusTrade(i));
    li.append(b);
    ol.append(li);
  });
  list.append(ol);
  root.replaceChildren(verdict, stats, price.root, detail, equityChart(r.trades), nullChart(r.null), list);
}

/** Draws candles alone (a plate's window), zoomable and pannable as a rehearsal's are. */
export function showCandles(root: HTMLElement, candles: Candle[]): void {
  const detail = el('p', { class: 'rv-detail', 'aria-live': 'polite' });
  root.replaceChildren(priceChart(candles, [], detail).root);
}

/** The viewer's look, shared by both pages (each page inlines it in its own style element). */
export const VIEW_CSS = `
.rv-verdict{border-left:4px solid #0b5394;padding:.25rem .75rem;margin:1rem 0}
.rv-verdict h3{margin:.25rem 0}
.rv-stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.25rem .75rem;margin:.5rem 0}
.rv-stats dt{font-size:.8rem;color:#555}.rv-stats dd{margin:0;font-weight:600}
figure{margin:.75rem 0}figcaption{font-size:.85rem;color:#444;margin-bottom:.25rem}
figure svg{width:100%;height:auto;background:#fff;border:1px solid #ddd;border-radius:4px;touch-action:none}
.rv-tools{display:flex;gap:.5rem;margin:.25rem 0}
.rv-grid{stroke:#e3e3e3}.rv-axis{font:11px sans-serif;fill:#555}.rv-muted{color:#555;fill:#555;font-size:.9rem}
.rv-up,.rv-down{pointer-events:none}
.rv-up line,.rv-up rect{stroke:#1b7f3b;fill:#1b7f3b}.rv-down line,.rv-down rect{stroke:#b3261e;fill:#b3261e}
.rv-trade{cursor:pointer}.rv-trade:focus{outline:none}.rv-trade:focus .rv-entry,.rv-trade:hover .rv-entry{stroke:#000;stroke-width:2}
.rv-path{stroke-dasharray:4 3;stroke-width:1.5}.rv-win .rv-path{stroke:#0b5394}.rv-loss .rv-path{stroke:#8a5a00}
.rv-entry{fill:#0b5394}.rv-loss .rv-entry{fill:#8a5a00}.rv-exit{fill:#fff;stroke:#222;stroke-width:1.5}.rv-stop{stroke:#b3261e;stroke-width:2}
.rv-curve{fill:none;stroke:#0b5394;stroke-width:2}.rv-bin{fill:#9fb7d3}.rv-median{stroke:#333}
.rv-mark{stroke:#b3261e;stroke-width:2.5}.rv-mark-text{font:12px sans-serif;fill:#b3261e}
.rv-detail{min-height:1.5em;font-size:.9rem}
.rv-link{background:none;border:0;padding:.1rem 0;color:#0b5394;text-align:left;font:inherit;cursor:pointer;text-decoration:underline}
.rv-chart:focus{outline:3px solid #0b5394}
`;
