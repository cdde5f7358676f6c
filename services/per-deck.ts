import type { Ctx } from './context.js';
import type { Offer } from './offer.js';

/**
 * An answer that depends only on what a deck was started with (its offer, configuration and addresses, which are made
 * together, once): built on a deck's first call and kept, frozen, for every call after. Frozen, it tells whoever
 * serves it that its serialization may be kept too (rest/json-answer.ts).
 */
export function perDeck<T extends object>(build: (ctx: Ctx) => T): (ctx: Ctx) => Readonly<T> {
  const built = new WeakMap<Offer, Readonly<T>>();
  return (ctx) => {
    let answer = built.get(ctx.offer);
    if (!answer) built.set(ctx.offer, (answer = Object.freeze(build(ctx))));
    return answer;
  };
}
