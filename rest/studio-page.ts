// The studio page's script, run in the browser. It calls the deck's own REST routes with the session cookie and
// nothing else: the reading, the forge, the rehearsal, the grade and the history are the routes' answers, shown.
import { showRehearsal, when, type Candle, type RehearsalEnvelope } from '../sellers/app/view.js';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
// The deck's routes sit beside this page (it is served at {base}/studio).
const api = (path: string) => new URL(location.pathname.replace(/studio\/?$/, '') + path, location.origin).href;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(path: string, body?: unknown): Promise<Answer> {
  const init: RequestInit = body === undefined ? { headers: { accept: 'application/json' } } : { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) };
  const res = await fetch(api(path), { ...init, credentials: 'same-origin' });
  const answer = { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
  // A session that ended while the page was open: back to the join page to sign in again.
  if (res.status === 401) location.assign(api('join'));
  return answer;
}

const said = (a: Answer): string => `${String(a.body.message ?? `the deck answered ${a.status}`)} (${a.status})`;

// --- 1. Reading, as the person types ---------------------------------------------------------------------------

const PARTS = ['market', 'timeframe', 'session', 'side', 'entry', 'stop', 'exit'] as const;
type PartName = (typeof PARTS)[number];
interface Span {
  from: number;
  to: number;
  text: string;
}
interface Part {
  status: 'read' | 'defaulted' | 'missing' | 'ambiguous';
  value: unknown;
  spans: Span[];
  hint?: string;
  note?: string;
}

/** A part's value in a few words: the reading's own value, as JSON when it is not a word. */
const valueWords = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const words = typeof v === 'string' ? v : JSON.stringify(v).replace(/[{}"]/g, '').replace(/,/g, ', ');
  return words.length > 140 ? `${words.slice(0, 139)}…` : words;
};

/** The words with each part's spans marked in the part's colour, each mark titled with its part. */
function markWords(text: string, parts: Record<PartName, Part>) {
  const marks = PARTS.flatMap((name) => parts[name].spans.map((s) => ({ ...s, name }))).sort((a, b) => a.from - b.from || b.to - a.to);
  const out = $('words');
  out.replaceChildren();
  let at = 0;
  for (const m of marks) {
    if (m.from < at) continue; // a span inside one already marked (one part's words citing another's)
    out.append(document.createTextNode(text.slice(at, m.from)));
    const mark = document.createElement('mark');
    mark.className = `p-${m.name}`;
    mark.title = m.name;
    mark.textContent = text.slice(m.from, m.to);
    out.append(mark);
    at = m.to;
  }
  out.append(document.createTextNode(text.slice(at)));
}

function showParts(parts: Record<PartName, Part>) {
  const list = $('parts');
  list.replaceChildren(
    ...PARTS.map((name) => {
      const p = parts[name];
      const li = document.createElement('li');
      li.className = `p-${name}-edge`;
      li.dataset.part = name;
      li.style.borderLeftColor = `var(--${p.status === 'read' || p.status === 'defaulted' ? 'good' : 'bad'})`;
      const head = document.createElement('strong');
      head.textContent = name;
      const status = document.createElement('span');
      status.className = `status-${p.status}`;
      status.textContent = ` ${p.status}`;
      li.append(head, status);
      const value = valueWords(p.value);
      if (value) li.append(Object.assign(document.createElement('div'), { textContent: value }));
      if (p.hint) li.append(Object.assign(document.createElement('div'), { className: 'part-hint', textContent: `Write: ${p.hint}` }));
      if (p.note) li.append(Object.assign(document.createElement('div'), { className: 'hint', textContent: p.note }));
      return li;
    }),
  );
}

// What the tape holds, from GET /catalogue: a rehearsal's window must fall where it holds bars.
interface Held {
  market: string;
  tf: string;
  windows: { from: number; to: number; source: string }[];
}
let held: Held[] = [];
const HELD_HINT = $('held').textContent;

function showHeld(market: string | null) {
  const mine = held.filter((h) => h.market === market);
  const spans = (h: Held) => {
    const shown = h.windows.slice(0, 3).map((w) => `${when(w.from)} to ${when(w.to)} (${w.source})`);
    return `${h.tf}: ${shown.join(', ')}${h.windows.length > 3 ? ` and ${h.windows.length - 3} more` : ''}`;
  };
  $('held').textContent =
    market === null ? HELD_HINT : mine.length ? `The tape holds ${market} ${mine.map(spans).join('; ')}. ${HELD_HINT}` : `The tape holds nothing of ${market}: its rehearsal is refused until it does.`;
}

let readTimer = 0;
let readSeq = 0;
async function read() {
  const text = $<HTMLTextAreaElement>('rule').value;
  const seq = ++readSeq;
  $('read-error').textContent = '';
  if (!text.trim()) {
    $('reading').hidden = true;
    $<HTMLButtonElement>('forge').disabled = true;
    $('read-state').textContent = '';
    return;
  }
  const a = await call('studio/read', { text });
  if (seq !== readSeq) return; // a later keystroke's reading is on its way
  if (a.status !== 200) {
    $('read-error').textContent = said(a);
    return;
  }
  const parts = a.body.parts as Record<PartName, Part>;
  markWords(text, parts);
  showParts(parts);
  $('reading').hidden = false;
  const market = parts.market;
  showHeld(market.status === 'read' || market.status === 'defaulted' ? String(market.value) : null);
  const open = PARTS.filter((n) => parts[n].status === 'missing' || parts[n].status === 'ambiguous');
  $('read-state').textContent = open.length ? `Still to say: ${open.join(', ')}.` : 'All seven parts read: ready to forge.';
  $<HTMLButtonElement>('forge').disabled = open.length > 0;
}
$('rule').addEventListener('input', () => {
  clearTimeout(readTimer);
  readTimer = window.setTimeout(() => void read(), 250);
});

// --- 2. Forge ---------------------------------------------------------------------------------------------------

let seed: string | null = null;

interface Review {
  classes: { name: string; status: string; findings: { line?: number; message?: string }[] }[];
  notes: { line: number; message: string }[];
}

$('forge').addEventListener('click', async () => {
  const button = $<HTMLButtonElement>('forge');
  button.disabled = true;
  $('forge-error').textContent = '';
  const a = await call('forge', { intent: $<HTMLTextAreaElement>('rule').value });
  button.disabled = false;
  if (a.status !== 200) {
    const parts = (a.body.parts as { part: string; hint?: string }[] | undefined) ?? [];
    $('forge-error').textContent = [said(a), ...parts.map((p) => `${p.part}: ${p.hint ?? 'write it'}`)].join(' · ');
    return;
  }
  seed = a.body.seed_hash as string;
  const review = a.body.review as Review;
  const scan = a.body.scan as { clean: boolean; invented?: { line: number; token: string }[] };
  $('forge-seed').textContent = `Forged: seed ${seed.slice(0, 16)}…, kept for you for two hours. The same words always forge the same code.`;
  $('review').replaceChildren(
    ...review.classes.map((c) => {
      const li = document.createElement('li');
      li.className = c.status === 'passed' ? '' : 'flagged';
      li.textContent = `${c.name}: ${c.status}${c.findings.length ? ` (${c.findings.map((f) => `${f.line ? `line ${f.line}: ` : ''}${f.message ?? ''}`).join('; ')})` : ''}`;
      return li;
    }),
    ...review.notes.map((n) => Object.assign(document.createElement('li'), { textContent: `Note, line ${n.line}: ${n.message}` })),
  );
  const invented = scan.invented ?? [];
  $('scan').textContent = scan.clean
    ? 'Clean: every number, indicator, market, time and side in the code comes from your words (or a documented default).'
    : `Not clean: ${invented.map((i) => `${i.token} on line ${i.line}`).join(', ')} come from nowhere in your words.`;
  $('code').textContent = a.body.code as string;
  $('forged').hidden = false;
  $<HTMLButtonElement>('rehearse').disabled = false;
  $<HTMLButtonElement>('grade').disabled = false;
  void history();
});

// --- 3. Rehearse ------------------------------------------------------------------------------------------------

async function candlesOf(r: RehearsalEnvelope): Promise<Candle[]> {
  const a = await call(`timetravel/candles/${r.market}/${r.timeframe}?from=${r.window.from}&to=${r.window.to}`);
  return a.status === 200 ? (a.body.candles as Candle[]) : [];
}

$('rehearse').addEventListener('click', async () => {
  if (!seed) return;
  const button = $<HTMLButtonElement>('rehearse');
  button.disabled = true;
  $('rehearse-error').textContent = '';
  $('rehearse-state').textContent = 'Rehearsing: the rule, a thousand random entries and its neighbours…';
  const hours = Number($<HTMLInputElement>('hours').value || 168);
  const to = $<HTMLInputElement>('to').value;
  const a = await call('studio/rehearse', { seed_hash: seed, hours, plate: true, ...(to ? { to: `${to}:00Z` } : {}) });
  button.disabled = false;
  if (a.status !== 200) {
    $('rehearse-state').textContent = '';
    $('rehearse-error').textContent = said(a);
    return;
  }
  const r = a.body as unknown as RehearsalEnvelope;
  showRehearsal($('picture'), r, await candlesOf(r));
  $('rehearse-state').textContent = `Rehearsed ${r.market} ${r.timeframe} from ${when(r.window.from)} to ${when(r.window.to)}: ${r.stats.n} trades.`;
  if (r.plate) {
    const link = $('plate-link');
    link.replaceChildren(Object.assign(document.createElement('a'), { href: r.plate.png, textContent: 'The sealed plate (PNG)' }), document.createTextNode(': the same rehearsal always draws the same picture.'));
    link.hidden = false;
  }
  void history();
});

// --- 4. Grade ---------------------------------------------------------------------------------------------------

$('grade').addEventListener('click', async () => {
  if (!seed) return;
  $('grade-error').textContent = '';
  $('graded').textContent = 'Grading…';
  const a = await call('studio/grade', { seed_hash: seed });
  if (a.status !== 200) {
    $('graded').textContent = '';
    $('grade-error').textContent = a.status === 503 ? `No grader is configured on this deck, so nothing can grade it here: ${said(a)}` : said(a);
    return;
  }
  const receipt = a.body as { decision?: string; reasons?: string[] };
  $('graded').textContent = `Decision: ${receipt.decision ?? 'none'}${receipt.reasons?.length ? `. ${receipt.reasons.join(' ')}` : ''}`;
});

// --- Your forges and rehearsals -----------------------------------------------------------------------------------

interface Act {
  kind: string;
  what: { bars?: number | null };
  ledger: string;
  seq: number;
  at: string;
}

async function history() {
  const [forges, rehearsals] = await Promise.all([call('records/history?kind=forge&limit=200'), call('records/history?kind=rehearse&limit=200')]);
  const acts = [forges, rehearsals].flatMap((a) => (a.status === 200 ? (a.body.acts as Act[]) : [])).sort((a, b) => b.at.localeCompare(a.at));
  $('mine-state').textContent = acts.length ? `${acts.length} acts, newest first` : 'None yet: forge a rule to start.';
  $('mine').replaceChildren(
    ...acts.map((act) => {
      const tr = document.createElement('tr');
      for (const text of [act.at.slice(0, 16).replace('T', ' '), act.kind === 'forge' ? 'forge' : 'rehearsal', act.what.bars ? String(act.what.bars) : '', `${act.ledger} #${act.seq}`]) {
        tr.append(Object.assign(document.createElement('td'), { textContent: text }));
      }
      return tr;
    }),
  );
}
$('refresh').addEventListener('click', () => void history());

// --- Who is here --------------------------------------------------------------------------------------------------

void call('me').then((a) => {
  if (a.status !== 200) return; // 401: sent to the join page
  const p = a.body.principal as { name: string; tier: string };
  $('who').textContent = `Signed in as ${p.name} (${p.tier} tier)`;
  void history();
  void call('catalogue').then((c) => {
    held = c.status === 200 ? (c.body.tape as { held: Held[] }).held : [];
    if ($<HTMLTextAreaElement>('rule').value.trim()) void read();
  });
});
