import { PlateError, type Undrawable } from './error.js';
import { renderPlate, type Plate } from './plate.js';
import { renderRehearsalPlate, type RehearsalPlate, type RehearsalPlateInput } from './rehearsal.js';
import type { PlateInput } from './view.js';

/**
 * What came of drawing a plate, as data alone so it can cross a thread: the plate, or why there is no picture to draw
 * (a PlateError's class and fields do not cross).
 */
export type Drawn<P> = { ok: true; plate: P } | { ok: false; reason: Undrawable; message: string };

function drawn<P>(render: () => P): Drawn<P> {
  try {
    return { ok: true, plate: render() };
  } catch (error) {
    if (error instanceof PlateError) return { ok: false, reason: error.reason, message: error.message };
    throw error;
  }
}

/** A candle chart drawn (renderPlate), or why not. */
export const drawPlateJob = (input: PlateInput): Drawn<Plate> => drawn(() => renderPlate(input));

/** A rehearsal's plate drawn (renderRehearsalPlate), or why not. */
export const drawRehearsalPlateJob = (input: RehearsalPlateInput): Drawn<RehearsalPlate> => drawn(() => renderRehearsalPlate(input));
