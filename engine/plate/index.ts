/** The plate renderers, one import for the plates tools, the chart_image tool and the rehearsal's plate. */
export { PlateError, type Undrawable } from './error.js';
export { drawPlateJob, drawRehearsalPlateJob, type Drawn } from './job.js';
export { dayStart, furtherBack, plateLoadFrom, vwapAnchor } from './load.js';
export { PLATE_STYLE, renderPlate, type Plate } from './plate.js';
export { REHEARSAL_PLATE_STYLE, renderRehearsalPlate, type RehearsalPlate, type RehearsalPlateInput, type RehearsalPlateState } from './rehearsal.js';
export { MAX_PLATE_BARS, type ChartState, type PlateInput, type PlateMark } from './view.js';
