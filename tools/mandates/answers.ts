import { z } from 'zod';
import { Address, answer, IsoTime } from '../schemas.js';

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
export const MandateEntry = z.strictObject({
  signer: Address.describe('who signed it'),
  chain_id: z.number().int().describe("the domain's chain"),
  eip712_hash: z.string().regex(/^0x[0-9a-f]{64}$/),
  primary_type: z.string(),
  vault: Address.describe('the vault the message names, checksummed'),
  vault_matches: z.boolean().describe("whether the vault's on-chain mandateHash() is this mandate's EIP-712 hash"),
  vault_hash: z.string().nullable().describe("the vault's mandateHash() when recorded; null when the address answers none"),
  typed_data: TypedData.describe('the payload as signed'),
});

export const MandateAnswer = answer({
  mandate: MandateEntry.extend({
    seq: z.number().int().min(1).describe('where it is chained in the mandates ledger'),
    hash: z.string().describe('its hash in the ledger'),
    recorded_at: IsoTime,
  }),
});
