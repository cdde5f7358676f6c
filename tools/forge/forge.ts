import { z } from 'zod';
import { ScriptSchema } from '../../engine/decider/index.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { LaneInput } from '../../services/studio/forge-lanes.js';
import { ForgeAnswer } from '../../services/studio/answers.js';
import { FORGE_PAYLOAD_CAP, FORGES_PER_DAY, SCRIPT_LISTED, SCRIPT_BOUNDS, foreseeForge, cast } from '../../services/studio/forge.js';

export const forge = defineTool({
  name: 'forge',
  title: 'Forge a rule',
  description:
    'Forges a rule into a deterministic state machine: the words (intent) are read into seven parts and become a script block, or the script block you bring is used as it is (its schema is script.v1); ' +
    'the script becomes a decider IR and then the TypeScript source of a pure decide function, watermarked with the seed hash and version (verifiable from the code), with a self-review in nine named classes (each passed or flagged with its line) and a scan that traces every number, indicator, market, time and side in the code to the words or the script block and flags anything else as invented. ' +
    `seed_hash is the hash of the canonical IR and the version: the same intent gives the same seed_hash and the same code, byte for byte. Kept for you for two hours, looked up by seed_hash. Free tier: ${FORGES_PER_DAY.free} forges a day. One cast at a time. ` +
    'lane chooses who reads the intent: embedded (the default, deterministic) or model (an OpenAI-compatible reader, refused whole, 502, unless its reading passes the same schema and cites the intent; 503 when not configured, 402 when your tier does not fund it). Equal readings forge the same seed_hash.',
  input: z
    .object({
      intent: z.string().min(1, 'no words').describe('the rule in plain words'),
      author: z.string().min(1).max(120).optional().describe('who states the rule, kept with the forge'),
      script: ScriptSchema.optional().describe('a script block (script.v1) to forge instead of reading the words'),
      lane: LaneInput,
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: ForgeAnswer,
  listed: { properties: { script: SCRIPT_LISTED } },
  access: 'session',
  toolset: TOOLSETS.forge,
  rest: { method: 'POST', path: '/forge', maxBody: FORGE_PAYLOAD_CAP, bounds: SCRIPT_BOUNDS, errors: [402, 413, 429, 500, 502, 503] },
  guard: 'forge_cast',
  foresee: (ctx, input) => foreseeForge(ctx, input),
  run: (ctx, input, what) => cast(ctx, input, what),
});
