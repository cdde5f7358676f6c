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
 * How many compiled deciders a thread keeps, the least recently asked for let go first: a rule's verdict compiles one
 * for each shape of its neighbourhood (9 for the EMA cross, 33 with a breakeven and trail), so this keeps some 15 to 50
 * rules' worth, at about 10 KB of heap each before V8 optimises them.
 */
export const KEPT_DECIDERS = 512;
const kept = new Map<string, Decider>();

/**
 * The decider the stepper runs: the generated module's own text (jsOf: codeOf's lines without their type syntax)
 * turned into functions, with the flat-bar loop beside them. The text is the deck's own, built from a checked IR;
 * no caller's text reaches it.
 *
 * Kept by its text, and handed out again for the same text: a decider holds no state (it writes only the state it is
 * handed), and new functions start cold. Compiled afresh, a rehearsal's deciders (the rule's and its neighbourhood's)
 * went through V8's interpreter and optimising compiler again every time, over 100 ms of compiling a rehearsal and
 * its boxed numbers to collect; kept, they stay optimised from one rehearsal of a rule to the next.
 */
export function compileDecider(ir: DeciderIR, seedHash: string, version: string): Decider {
  const text = `const decider = (() => {\n${jsOf(ir, seedHash, version)}})();\n${FLAT_SCAN}`;
  let decider = kept.get(text);
  if (decider) kept.delete(text);
  else decider = Object.freeze(new Function(text)() as Decider);
  kept.set(text, decider);
  if (kept.size > KEPT_DECIDERS) kept.delete(kept.keys().next().value!);
  return decider;
}

/**
 * A generated module loaded some other way (the forge's TypeScript, imported) with the flat-bar loop beside it. The
 * loop's text is then the same for every module, so V8 may share one loop among them: for checking a module, not
 * for a deck's rehearsals.
 */
export function runnableDecider(module: DeciderModule): Decider {
  return new Function('decider', FLAT_SCAN)(module) as Decider;
}
