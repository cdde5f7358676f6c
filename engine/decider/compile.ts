import { jsOf } from './codegen.js';
import type { Decider } from './contract.js';
import type { DeciderIR } from './ir.js';

/**
 * The decider the stepper runs: the generated module's own text (jsOf: codeOf's lines without their type syntax)
 * turned into functions. The text is the deck's own, built from a checked IR; no caller's text reaches it.
 */
export function compileDecider(ir: DeciderIR, seedHash: string, version: string): Decider {
  return new Function(jsOf(ir, seedHash, version))() as Decider;
}
