import { z } from 'zod';
import { ModelRecordSchema } from '../../store/models.js';
import { RunRecordSchema } from '../../store/runs.js';
import { answer } from '../schemas.js';

// The agent rail's answers, each field as the tool answers it.

/** A model as its operator reads it: its record, named by owner/name instead of its owner. */
export const ModelView = ModelRecordSchema.omit({ owner: true }).extend({ id: z.string().describe('owner/name, as the copy seller names it') });

export const ModelAnswer = answer({ model: ModelView });
export const ModelsMineAnswer = answer({ models: z.array(ModelView) });
export const RunAnswer = answer({ run: RunRecordSchema });
export const RunsAnswer = answer({ runs: z.array(RunRecordSchema).describe('newest first') });
