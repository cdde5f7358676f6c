import { z } from 'zod';
import { DeckError } from '../../core/errors.js';

/** The studio words cap: the most characters of a trader's rule the studio reads at once. */
export const WORDS_CAP = 4000;

/** A rule in words: over the cap is 413, not a shape failure, so the length is checked where the tool runs. */
export const RuleWords = z.string().min(1, 'no words').describe(`the rule in plain words, at most ${WORDS_CAP} characters`);

/** Refuses words over the studio words cap (413, naming the cap). */
export function withinWordsCap(text: string, field: string): string {
  if (text.length > WORDS_CAP) {
    throw new DeckError(413, 'too_large', `${field} is ${text.length} characters; the studio words cap is ${WORDS_CAP}`, { field, cap_chars: WORDS_CAP });
  }
  return text;
}
