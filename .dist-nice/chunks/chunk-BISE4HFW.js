import {
  DECIDER_VERSION,
  DeciderRefusal,
  __export,
  codeOf,
  compileDecider,
  irOf,
  parseJsonBody,
  readRule,
  rehearse,
  review,
  runIssueJob,
  scan,
  seedHash,
  verifyWatermark
} from "./chunk-3FLKLLHA.js";

// core/pool/worker.ts
var worker_exports = {};
__export(worker_exports, {
  forecasting: () => forecasting,
  forging: () => forging,
  imaging: () => imaging,
  parsing: () => parsing,
  reading: () => reading,
  rehearsal: () => rehearsal
});
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { isMainThread } from "node:worker_threads";

// core/image.ts
import { createHash } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
async function readImage(base64, cap) {
  const bytes = Buffer.from(base64, "base64");
  if (bytes.length === 0) return { ok: false, why: "empty", bytes: 0 };
  if (bytes.length > cap) return { ok: false, why: "too_large", bytes: bytes.length };
  const sniffed = await fileTypeFromBuffer(bytes);
  return { ok: true, bytes, mime: sniffed?.mime ?? null, sha256: createHash("sha256").update(bytes).digest("hex") };
}

// engine/forge/job.ts
var StepFailed = class extends Error {
  constructor(step2, message) {
    super(message);
    this.step = step2;
  }
  step;
};
function step(what, run) {
  try {
    return run();
  } catch (error) {
    if (error instanceof DeciderRefusal || error instanceof StepFailed) throw error;
    throw new StepFailed(what, `${what} failed: ${error.message}`);
  }
}
function runForgeJob({ script, source }) {
  try {
    const ir = step("the decider IR", () => irOf(script));
    const seed_hash = step("the seed hash", () => seedHash(ir, DECIDER_VERSION));
    const code = step("the code generator", () => codeOf(ir, seed_hash, DECIDER_VERSION));
    const watermark = verifyWatermark(code);
    if (!watermark || watermark.seed_hash !== seed_hash || watermark.version !== DECIDER_VERSION) {
      throw new StepFailed("the watermark", "the generated code does not carry its own watermark");
    }
    const reviewed = step("the self-review", () => review(ir, code));
    const scanned = step("the scan", () => scan(code, source));
    return { ok: true, forged: { ir, seed_hash, version: DECIDER_VERSION, code, watermark, review: reviewed, scan: scanned } };
  } catch (error) {
    if (error instanceof DeciderRefusal) return { ok: false, refused: { part: error.part, message: error.message, ...error.hint !== void 0 ? { hint: error.hint } : {} } };
    if (error instanceof StepFailed) return { ok: false, failed: { step: error.step, message: error.message } };
    throw error;
  }
}

// engine/stepper/job.ts
function runRehearsalJob(job, phase) {
  return rehearse(job.ir, compileDecider(job.ir, job.seed, job.version), job.bars, { ...job.options, seed: job.seed, ...phase ? { phase } : {} });
}

// core/pool/worker.ts
if (!isMainThread) {
  try {
    setPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()), 10);
  } catch {
  }
}
var toldOn = (port) => port ? (step2) => port.postMessage(step2) : void 0;
var rehearsal = (job, tell = toldOn(job.port)) => runRehearsalJob(job.input, tell);
var forging = ({ input }) => runForgeJob(input);
var reading = ({ input }) => readRule(input);
var parsing = ({ input }) => parseJsonBody(input);
var imaging = ({ input }) => readImage(input.base64, input.cap);
var forecasting = ({ input }) => runIssueJob(input);

export {
  rehearsal,
  forging,
  reading,
  parsing,
  imaging,
  forecasting,
  worker_exports
};
//# sourceMappingURL=chunk-BISE4HFW.js.map
