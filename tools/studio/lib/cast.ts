import { codeOf, DECIDER_VERSION, DeciderRefusal, irOf, seedHash, verifyWatermark, type DeciderIR, type Script } from '../../../engine/decider/index.js';
import { DeckError } from '../../../core/errors.js';

/** The field a refusal of a script's part names: the one the caller can change (the words, the script block, ...). */
export type FieldOf = (part: string) => string;
export const fromWords: FieldOf = () => 'intent';
export const fromScript: FieldOf = (part) => `script.${part}`;

/** Runs one step of the engine: a refusal stays typed, anything else the engine throws is its failure (500, carried). */
export function engineStep<T>(what: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof DeckError) throw error;
    throw new DeckError(500, 'engine_failed', `${what} failed: ${(error as Error).message}`, { step: what });
  }
}

/** The decider IR of a script and its seed hash; a script the forge cannot run is 422 naming the part. */
export function deciderOf(script: Script, fieldOf: FieldOf): { ir: DeciderIR; seed_hash: string } {
  const ir = engineStep('the decider IR', () => {
    try {
      return irOf(script);
    } catch (error) {
      if (!(error instanceof DeciderRefusal)) throw error;
      const field = fieldOf(error.part);
      const hint = error.hint !== undefined ? { hint: error.hint } : {};
      throw new DeckError(422, 'bad_input', `${field}: ${error.message}`, { problems: [{ field, message: error.message }], part: error.part, ...hint });
    }
  });
  return { ir, seed_hash: engineStep('the seed hash', () => seedHash(ir, DECIDER_VERSION)) };
}

export interface Cast {
  seed_hash: string;
  version: string;
  code: string;
  watermark: { seed_hash: string; version: string };
  script: Script;
  ir: DeciderIR;
}

/** Script -> decider IR -> watermarked code. The watermark is read back from the code, so it is what the code carries. */
export function castOf(script: Script, fieldOf: FieldOf): Cast {
  const { ir, seed_hash } = deciderOf(script, fieldOf);
  const code = engineStep('the code generator', () => codeOf(ir, seed_hash, DECIDER_VERSION));
  const watermark = verifyWatermark(code);
  if (!watermark || watermark.seed_hash !== seed_hash || watermark.version !== DECIDER_VERSION) {
    throw new DeckError(500, 'engine_failed', 'the generated code does not carry its own watermark', { step: 'the watermark' });
  }
  return { seed_hash, version: DECIDER_VERSION, code, watermark, script, ir };
}
