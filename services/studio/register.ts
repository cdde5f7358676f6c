import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { DeciderRefusal, irOf, ScriptSchema } from '../../engine/decider/index.js';
import type { Ctx } from '../context.js';
import { DeckError } from '../../core/errors.js';

/**
 * The onboarded register (config/register.json, or DECK_REGISTER): documented example algorithms, each with the
 * words that state it and its exact script block. A house strategy (house: true) is the house's own: it is sealed,
 * never listed, quoted or shown.
 */
const RegisterFile = z.strictObject({
  strategies: z.array(
    z.strictObject({
      name: z.string().regex(/^[a-z0-9-]{2,48}$/, '2 to 48 of a-z, 0-9 and -'),
      title: z.string().min(1),
      house: z.boolean(),
      /** Where the algorithm is documented, and how this script adapts it. */
      source: z.string().min(1),
      intent: z.string().min(1),
      script: ScriptSchema,
    }),
  ),
});
export type Onboarded = z.infer<typeof RegisterFile>['strategies'][number];

const loaded = new Map<string, readonly Onboarded[]>();

/** What is wrong inside a register that was read: said in the register's own terms, so the 500 may carry it. */
class RegisterProblem extends Error {}

/** Reads and checks the register once per path: every script must become a decider, and names are unique. */
function load(path: string): readonly Onboarded[] {
  const parsed = RegisterFile.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new RegisterProblem(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const { strategies } = parsed.data;
  for (const s of strategies) {
    if (strategies.filter((x) => x.name === s.name).length > 1) throw new RegisterProblem(`${s.name} is named twice`);
    try {
      irOf(s.script);
    } catch (error) {
      if (error instanceof DeciderRefusal) throw new RegisterProblem(`${s.name}: ${error.message}`);
      throw error;
    }
  }
  return strategies;
}

/**
 * The register this deck serves; a register that does not load is the deck's failure (500), naming what is wrong in
 * it. A file that cannot be read or parsed is logged with its path, and the answer names only DECK_REGISTER.
 */
export function register(ctx: Ctx): readonly Onboarded[] {
  const path = ctx.config.files.register;
  let got = loaded.get(path);
  if (!got) {
    try {
      got = load(path);
    } catch (error) {
      ctx.log.error('register_unreadable', { file: path, error: (error as Error).message });
      const why = error instanceof RegisterProblem ? `: ${error.message}` : ' (DECK_REGISTER could not be read as JSON)';
      throw new DeckError(500, 'register_unreadable', `the onboarded register did not load${why}`);
    }
    loaded.set(path, got);
  }
  return got;
}

/** A public strategy by name: 404 when there is none, and 404 sealed for the house's own (nothing of it shown). */
export function onboarded(ctx: Ctx, name: string): Onboarded {
  const found = register(ctx).find((s) => s.name === name);
  if (found?.house) throw new DeckError(404, 'sealed', `${name} is one of the house's own strategies: it is sealed`);
  if (!found) {
    const names = register(ctx).filter((s) => !s.house).map((s) => s.name);
    throw new DeckError(404, 'not_found', `no onboarded algorithm is named ${name}`, { names });
  }
  return found;
}
