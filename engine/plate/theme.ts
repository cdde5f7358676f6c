/** How a plate looks: one dark theme, sized for a 1200 x 700 picture. Candle colours are used nowhere else, so a reader (or a test) can find the candles by colour. */
export const THEME = {
  width: 1200,
  height: 700,
  font: 'DejaVu Sans Mono',
  /** Advance of one DejaVu Sans Mono glyph, in em: label boxes are sized from it. */
  advance: 0.602,
  background: '#131722',
  grid: '#1f2433',
  separator: '#2a3042',
  text: '#d1d4dc',
  muted: '#8a91a5',
  up: '#26a69a',
  down: '#ef5350',
  volumeUp: '#1d5f5c',
  volumeDown: '#7a3238',
  level: '#ff9800',
  zone: '#3d7bfd',
  /** Overlay colours in the order indicators are asked for; none is a candle colour. */
  lines: ['#f7c948', '#4fa3f7', '#c77dff', '#a3e048', '#ff6fb5', '#5ee0d8', '#ffffff', '#b0b8c8'],
} as const;

/** Where the panes go, in pixels. */
export const LAYOUT = {
  left: 10,
  axis: 88,
  header: 58,
  footer: 26,
  volume: 84,
  lower: 96,
  gap: 6,
} as const;

/** A rehearsal's plate: entries by side, exits and their segments by outcome, the equity and the null, in colours no candle uses. */
export const REHEARSAL_COLOURS = {
  long: '#4fa3f7',
  short: '#c77dff',
  win: '#a3e048',
  loss: '#ff6fb5',
  equity: '#f7c948',
  /** Null runs below the rule's total R, and at or above it (the k of p = (k + 1) / (N + 1)). */
  below: '#3a4157',
  atLeast: '#8a91a5',
  rule: '#ffffff',
  /** The neighbourhood's rules (the verdict), each a tick at its total R under the null's runs. */
  neighbour: '#5ee0d8',
  /** Each trade's initial stop and the target its fill placed, from its entry to its exit. */
  stop: '#ff5252',
  target: '#69f0ae',
  /** Shading behind the candles: bars whose close fell outside the rule's session, and bars before its series had values. */
  session: '#1c2233',
  warmUp: '#2a1f33',
  /** A constant the rule compares a series with. */
  threshold: '#b0b8c8',
  /** The rule's own series, in the IR's order; none is a candle, trade or shading colour. */
  lines: ['#ff9800', '#00e5ff', '#eceff1', '#bcaaa4', '#ffab91', '#80cbc4', '#b39ddb', '#90a4ae'],
} as const;
