import { codeOf, DECIDER_VERSION, DeciderRefusal, irOf, seedHash, verifyWatermark, type DeciderIR, type Script } from '../decider/index.js';
import { review, type Review } from './review.js';
import { scan, type Scan, type ScanSource } from './scan.js';

/** A forge's engine work as data alone, so it can run on another thread: the script, and what its scan traces to. */
export interface ForgeJob {
  script: Script;
  source: ScanSource;
}

/** A script forged: its IR and seed hash, the watermarked code, and the code's self-review and scan. */
export interface Forged {
  ir: DeciderIR;
  seed_hash: string;
  version: string;
  code: string;
  watermark: { seed_hash: string; version: string };
  review: Review;
  scan: Scan;
}

/** A part of the script the decider cannot run: which, why (the part named first), and words that would do. */
export interface ForgeRefusal {
  part: string;
  message: string;
  hint?: string;
}

/**
 * What came of a forge: the rule forged, a part of the script the decider refuses (the caller's to change), or the
 * engine step that failed and why (a failure of the engine's own, carried). Answered as data, since an error's class
 * and fields do not cross a thread.
 */
export type ForgeOutcome =
  | { ok: true; forged: Forged }
  | { ok: false; refused: ForgeRefusal }
  | { ok: false; failed: { step: string; message: string } };

class StepFailed extends Error {
  constructor(
    readonly step: string,
    message: string,
  ) {
    super(message);
  }
}

function step<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof DeciderRefusal || error instanceof StepFailed) throw error;
    throw new StepFailed(what, `${what} failed: ${(error as Error).message}`);
  }
}

/** Script -> decider IR -> watermarked code (the watermark read back from the code), then its review and scan. */
export function runForgeJob({ script, source }: ForgeJob): ForgeOutcome {
  try {
    const ir = step('the decider IR', () => irOf(script));
    const seed_hash = step('the seed hash', () => seedHash(ir, DECIDER_VERSION));
    const code = step('the code generator', () => codeOf(ir, seed_hash, DECIDER_VERSION));
    const watermark = verifyWatermark(code);
    if (!watermark || watermark.seed_hash !== seed_hash || watermark.version !== DECIDER_VERSION) {
      throw new StepFailed('the watermark', 'the generated code does not carry its own watermark');
    }
    const reviewed = step('the self-review', () => review(ir, code));
    const scanned = step('the scan', () => scan(code, source));
    return { ok: true, forged: { ir, seed_hash, version: DECIDER_VERSION, code, watermark, review: reviewed, scan: scanned } };
  } catch (error) {
    if (error instanceof DeciderRefusal) return { ok: false, refused: { part: error.part, message: error.message, ...(error.hint !== undefined ? { hint: error.hint } : {}) } };
    if (error instanceof StepFailed) return { ok: false, failed: { step: error.step, message: error.message } };
    throw error;
  }
}
