import { z } from 'zod';
import { MandateRecordSchema } from '../../store/mandates.js';
import { answer } from '../schemas.js';
import { IsoTime } from '../../core/schemas.js';

/** An EIP-712 payload as the wallet signed it, with its signature: what mandate_add takes, and the record keeps. */
export const TypedData = z
  .object({
    domain: z.record(z.string(), z.unknown()),
    types: z.record(z.string(), z.array(z.object({ name: z.string().min(1), type: z.string().min(1) }).strict())),
    primaryType: z.string().min(1),
    // Every key is kept as sent, so keys the types do not declare can be seen and refused.
    message: z.record(z.string(), z.unknown()),
    signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'a 65-byte signature: 0x and 130 hex digits'),
  })
  .strict();

/** A house mandate as the mandates ledger keeps it (without whose it is). */
export const MandateEntry = MandateRecordSchema.omit({ principal_id: true }).extend({ typed_data: TypedData.describe('the EIP-712 payload as signed') });

export const MandateAnswer = answer({
  mandate: MandateEntry.extend({
    seq: z.number().int().min(1).describe('where it is chained in the mandates ledger'),
    hash: z.string().describe('its hash in the ledger'),
    recorded_at: IsoTime,
  }),
});
