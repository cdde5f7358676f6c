/** Why a plate cannot be drawn: no bars in the window, bars with a price that is not a number, or no price range at all. */
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
