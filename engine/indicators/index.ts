/** The indicators, one import for the stepper, the plate and the tools. */
export { atr } from './atr.js';
export { bollinger, type BollingerBands } from './bollinger.js';
export { ema, emaPair } from './ema.js';
export { highest, lowest } from './extremes.js';
export { rsi } from './rsi.js';
export { indicatorLines, warmUpBars, type IndicatorLine } from './series.js';
export { sma } from './sma.js';
export {
  IndicatorSpecError,
  MAX_BB_WIDTH,
  MAX_LOOKBACK,
  paneOf,
  parseIndicator,
  parseIndicators,
  type IndicatorKind,
  type IndicatorRefusal,
  type IndicatorSpec,
} from './spec.js';
export { utcDay, vwap, type Anchor } from './vwap.js';
