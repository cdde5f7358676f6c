import type { Backend } from './backend.js';
import type { Ledger, LedgerEntry } from './ledger.js';

/** A plan paid on chain, as claimed: the transaction, who it bound to, what it bought and when that runs. */
export interface PlanClaim {
  chain: string;
  /** Lower case: one transaction, one claim, however its hash was written. */
  tx_hash: string;
  principal_id: string;
  agent_id: string;
  plan: string;
  tier: string;
  price_usdc: number;
  token: string;
  token_address: string;
  /** What the payer sent the treasury, in whole tokens (a decimal string: no float ever rounds it). */
  amount: string;
  payer: string;
  /**
   * How the payer is bound to the principal: its proven wallet, or the payer's signature. joined_wallet: a claim
   * recorded before wallets were proven, bound by the wallet named at join (the ledger keeps it as it was).
   */
  proof: 'proven_wallet' | 'payer_signature' | 'joined_wallet';
  block: number;
  block_time: string;
  period: { start: string; end: string };
}

/** The outcome of a claim: recorded now, or already recorded (by this principal or another). */
export type Claimed = { fresh: boolean; entry: LedgerEntry<PlanClaim> };

const keyOf = (chain: string, txHash: string) => `${chain}|${txHash.toLowerCase()}`;

/**
 * Every plan claim, in a hash-chained ledger (plan-claims.jsonl), indexed by transaction and by principal.
 * Deciding a claim and appending it run alone (among every deck on a shared store), so a transaction claims once for
 * anyone.
 */
export class PlanClaims {
  private readonly byTx = new Map<string, LedgerEntry<PlanClaim>>();
  private readonly byPrincipal = new Map<string, PlanClaim[]>();

  private constructor(
    private readonly backend: Backend,
    private readonly ledger: Ledger<PlanClaim>,
  ) {
    ledger.follow((e) => this.index(e));
  }

  /** Every entry of the ledger, in chain order (the records' history reads it). */
  get entries(): readonly LedgerEntry<PlanClaim>[] {
    return this.ledger.all;
  }

  static async open(backend: Backend): Promise<PlanClaims> {
    return new PlanClaims(backend, await backend.ledger<PlanClaim>('plan-claims'));
  }

  private index(e: LedgerEntry<PlanClaim>): void {
    this.byTx.set(keyOf(e.entry.chain, e.entry.tx_hash), e);
    const mine = this.byPrincipal.get(e.entry.principal_id) ?? [];
    mine.push(e.entry);
    this.byPrincipal.set(e.entry.principal_id, mine);
  }

  /** The claim of a transaction, whoever made it. */
  of(chain: string, txHash: string): LedgerEntry<PlanClaim> | null {
    return this.byTx.get(keyOf(chain, txHash)) ?? null;
  }

  /** A principal's claims, in the order they were made. */
  mine(principalId: string): readonly PlanClaim[] {
    return this.byPrincipal.get(principalId) ?? [];
  }

  /** Records the claim `build` makes from the principal's claims so far, unless the transaction is claimed already. */
  claim(chain: string, txHash: string, principalId: string, build: (mine: readonly PlanClaim[]) => PlanClaim, at: number): Promise<Claimed> {
    return this.backend.alone('plan-claims', async (): Promise<Claimed> => {
      const known = this.of(chain, txHash);
      if (known) return { fresh: false, entry: known };
      const entry = await this.ledger.append(build(this.mine(principalId)), at);
      return { fresh: true, entry };
    });
  }
}
