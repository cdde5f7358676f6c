/** The decider: script block -> decider IR -> watermarked code, and the same code compiled for the stepper. */
export { canonicalJson, seedHash } from './canonical.js';
export { codeOf, jsOf } from './codegen.js';
export { compileDecider } from './compile.js';
export {
  EXIT_WHY,
  freshState,
  PHASE,
  STATES,
  WHY,
  type Decider,
  type DeciderSeries,
  type DeciderState,
  type ExitWhy,
  type StateName,
} from './contract.js';
export { DeciderRefusal, IR_VERSION, irOf, type DeciderIR, type ScriptPart, type SeriesSpec } from './ir.js';
export { FLAT_AT_WINDOW_END, inWords } from './plain.js';
export { SCRIPT_VERSION, ScriptSchema, scriptOfReading, trialSession, type PartRefusal, type Script } from './script.js';
export { seriesOf, tradingDay, type MarkInput } from './series.js';
export { noteUnsaid } from './unsaid.js';
export { sealWords, verifyWatermark } from './watermark.js';

/** The version the forge stamps on what it makes from this IR and code generator. */
export const DECIDER_VERSION = 'forge.decider.v1';
