import type { Backend } from './backend.js';
import type { Ledger, LedgerEntry } from './ledger.js';

/** A house mandate as recorded: who signed it, its EIP-712 hash, and whether its vault holds that hash on chain. */
export interface MandateRecord {
  principal_id: string;
  signer: string;
  chain_id: number;
  eip712_hash: string;
  primary_type: string;
  vault: string;
  vault_matches: boolean;
  /** The vault's mandateHash() when recorded (null: the address answers none). */
  vault_hash: string | null;
  typed_data: Record<string, unknown>;
}

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
