/** The plate renderer, one import for the plates tool and the chart_image tool. */
export { PlateError, type Undrawable } from './error.js';
export { dayStart, plateLoadFrom, vwapAnchor } from './load.js';
export { PLATE_STYLE, renderPlate, type Plate } from './plate.js';
export { MAX_PLATE_BARS, type ChartState, type PlateInput, type PlateMark } from './view.js';
