import { jsOf } from './codegen.js';
import { PHASE, type Decider, type DeciderModule } from './contract.js';
import type { DeciderIR } from './ir.js';

/**
 * The stepper's loop over flat bars, compiled beside each decider's functions rather than written once in the
 * stepper: a loop that every decider in a running deck shares calls many decides from one place, and V8 then stops
 * inlining them (a rule's Machine.run took 0.29 ms instead of 0.21 once four other rules had run in the process).
 * Compiled with the decider's own text, the loop's one call is only ever to that decider's decide.
 */
const FLAT_SCAN = `
const decide = decider.decide;
function scan(from, end, st, s) {
  for (let i = from; i < end; i++) {
    decide(i, st, s);
    if (st.phase !== ${PHASE.FLAT}) return i;
  }
  return -1;
}
return { ...decider, scan };
`;

/**
 * The decider the stepper runs: the generated module's own text (jsOf: codeOf's lines without their type syntax)
 * turned into functions, with the flat-bar loop beside them. The text is the deck's own, built from a checked IR;
 * no caller's text reaches it.
 */
export function compileDecider(ir: DeciderIR, seedHash: string, version: string): Decider {
  return new Function(`const decider = (() => {\n${jsOf(ir, seedHash, version)}})();\n${FLAT_SCAN}`)() as Decider;
}

/**
 * A generated module loaded some other way (the forge's TypeScript, imported) with the flat-bar loop beside it. The
 * loop's text is then the same for every module, so V8 may share one loop among them: for checking a module, not
 * for a deck's rehearsals.
 */
export function runnableDecider(module: DeciderModule): Decider {
  return new Function('decider', FLAT_SCAN)(module) as Decider;
}
