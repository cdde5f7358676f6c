import type { Backend } from './backend.js';
import type { Ledger, LedgerEntry } from './ledger.js';
import { z } from 'zod';
import { Address, Hex32 } from '../core/schemas.js';

/** A house mandate as recorded: who signed it, its EIP-712 hash, and whether its vault holds that hash on chain. */
export const MandateRecordSchema = z.strictObject({
  principal_id: z.string(),
  signer: Address.describe('who signed it'),
  chain_id: z.number().int().describe("the domain's chain"),
  eip712_hash: Hex32,
  primary_type: z.string(),
  vault: Address.describe('the vault the message names, checksummed'),
  vault_matches: z.boolean().describe("whether the vault's on-chain mandateHash() is this mandate's EIP-712 hash"),
  vault_hash: z.string().nullable().describe("the vault's mandateHash() when recorded; null when the address answers none"),
  typed_data: z.record(z.string(), z.unknown()).describe('the EIP-712 payload as signed'),
});
export type MandateRecord = z.infer<typeof MandateRecordSchema>;

/** Every mandate recorded, in a hash-chained ledger (mandates.jsonl). Recording moves no money. */
export class Mandates {
  private constructor(private readonly ledger: Ledger<MandateRecord>) {}

  /** Every entry of the ledger, in chain order (the records' history reads it). */
  get entries(): readonly LedgerEntry<MandateRecord>[] {
    return this.ledger.all;
  }

  static async open(backend: Backend): Promise<Mandates> {
    return new Mandates(await backend.ledger<MandateRecord>('mandates'));
  }

  record(mandate: MandateRecord, at: number): Promise<LedgerEntry<MandateRecord>> {
    return this.ledger.append(mandate, at);
  }
}
