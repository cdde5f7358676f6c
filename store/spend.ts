import type { Ledger, LedgerEntry } from './ledger.js';

/** One recorded spend: what the principal did and what it cost in meter units. */
export interface Spend {
  principal_id: string;
  action: string;
  units: number;
  bars?: number;
  /** A payment per call (x402) that bought the act: the settlement's transaction and what it moved. */
  paid?: Paid;
  /**
   * A payment per call settled for an act that then failed (the work pool full or stopped, a store write): what the
   * operator owes back, the payment as `paid` had it with the refusal the payer got.
   */
  refund_due?: Paid & { status: number; error: string };
}

/** A settled payment per call as the meter keeps it. */
export interface Paid {
  network: string;
  transaction: string;
  payer: string;
  asset: string;
  amount: string;
  /** The EIP-3009 authorization's nonce: a payer's nonce buys one act. */
  nonce: string;
}

/** The last day asked for, kept: every call of a request, and most requests of a day, ask for the same one. */
let lastDay = { n: NaN, iso: '' };

export const utcDay = (ms: number): string => {
  const n = Math.floor(ms / 86_400_000);
  if (n !== lastDay.n) lastDay = { n, iso: new Date(ms).toISOString().slice(0, 10) };
  return lastDay.iso;
};

/** Seconds from `ms` until the next UTC day begins, when every per-day count starts again. */
export const secondsToNextUtcDay = (ms: number): number => Math.ceil((86_400_000 - (ms % 86_400_000)) / 1000);

const nonceKey = (payer: string, nonce: string) => `${payer.toLowerCase()}|${nonce.toLowerCase()}`;

/** The meter's ledger with a per-day index, so reading today's spend is a lookup, not a scan. */
export class SpendBook {
  private readonly byDay = new Map<string, number>();
  /** The payer|nonce of every payment per call recorded, so one is never taken twice. */
  private readonly paidNonces = new Set<string>();

  constructor(private readonly ledger: Ledger<Spend>) {
    ledger.follow((e) => this.count(e.entry, e.at));
  }

  private key = (principalId: string, day: string) => `${principalId}|${day}`;

  private count(s: Spend, at: number): void {
    const k = this.key(s.principal_id, utcDay(at));
    this.byDay.set(k, (this.byDay.get(k) ?? 0) + s.units);
    if (s.paid) this.paidNonces.add(nonceKey(s.paid.payer, s.paid.nonce));
  }

  /** Whether a payment per call with this payer's nonce is on the ledger. */
  paidWith(payer: string, nonce: string): boolean {
    return this.paidNonces.has(nonceKey(payer, nonce));
  }

  spentOn(principalId: string, day: string): number {
    return this.byDay.get(this.key(principalId, day)) ?? 0;
  }

  async record(spend: Spend, at: number): Promise<void> {
    await this.ledger.append(spend, at);
  }

  verify() {
    return this.ledger.verify();
  }

  /** Every spend as the ledger chains it, oldest first. */
  get entries(): readonly LedgerEntry<Spend>[] {
    return this.ledger.all;
  }
}
