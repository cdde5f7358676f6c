/**
 * Why a plate cannot be drawn: no bars in the window, more than a plate can show, a bar or mark whose price is
 * not a number (or a bar whose high and low do not hold its open and close), or no price range at all.
 */
export type Undrawable = 'no_bars' | 'too_many_bars' | 'not_finite' | 'flat';

/** A picture that cannot be drawn: the tool layer answers 422 with the reason. */
export class PlateError extends Error {
  constructor(
    readonly reason: Undrawable,
    message: string,
  ) {
    super(message);
    this.name = 'PlateError';
  }
}
