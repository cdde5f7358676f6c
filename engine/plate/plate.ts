import { rasterize } from './raster.js';
import { plateSvg } from './svg.js';
import { THEME } from './theme.js';
import { chartState, viewOf, type ChartState, type PlateInput } from './view.js';

/** Names the way plates are drawn; it changes whenever the same numbers would be drawn differently. */
export const PLATE_STYLE = 'plate/2 dark 1200x700 resvg-js 2.6 DejaVu Sans Mono 2.37';

export interface Plate {
  png: Buffer;
  chart_state: ChartState;
}

/**
 * Draws a candle chart: candles, volume, the overlays on the price (ema, sma, vwap, bb, hi, lo), a pane per
 * oscillator (atr, rsi), levels as lines and zones as bands, each labelled. The same input gives the same bytes.
 * Throws PlateError when there is no picture to draw.
 */
export function renderPlate(input: PlateInput): Plate {
  const view = viewOf(input);
  return { png: rasterize(plateSvg(view)), chart_state: chartState(view, PLATE_STYLE, { width: THEME.width, height: THEME.height }) };
}
