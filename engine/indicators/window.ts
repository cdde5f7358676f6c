/** The look-back every indicator takes: a whole number of bars, checked once so the loops need not. */
export function checkLength(n: number, what: string): void {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${what}: the look-back must be a whole number of bars >= 1, got ${n}`);
}

/** An answer of `length` values, NaN before index `first`: NaN is how warm-up reads. The loops write the rest. */
export const warmingUp = (length: number, first: number): Float64Array => new Float64Array(length).fill(NaN, 0, first);
