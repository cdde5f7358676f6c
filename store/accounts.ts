import type { WalletStatus } from '../core/principal.js';
import { addCount, countsOn, noCounts, type DayCounts } from './counters.js';
import type { Doc } from './doc.js';

/** A wallet's proof: its signature of a challenge the deck issued (the signature itself proves nothing more kept). */
export interface WalletProof {
  /** The wallet the signature came from, checksummed: the proof holds while it is the account's wallet. */
  wallet: string;
  /** When the challenge signed was issued: a later proof must sign a challenge issued after it (each is used once). */
  issued_at: number;
  proven_at: number;
}

/** The deck's own record of a principal (the identity door keeps the key; the deck keeps no key). */
export interface Account {
  id: string;
  name: string;
  agent_id: string;
  /** The wallet named at join, or the last one proven. */
  wallet: string | null;
  /** Absent until a wallet is proven (so every account written before proofs existed reads as unproven). */
  wallet_proof?: WalletProof;
  /** Bumped on key rotation: sessions minted under an older generation stop at once, but `kept_session`. */
  key_gen: number;
  /**
   * The digest of the session that asked for the last rotation, which the rotation keeps: when its answer (the only
   * place the new key is) is lost, rotating again from it mends that. Absent when the key itself asked.
   */
  kept_session?: string;
  created_at: number;
}

export interface AccountsDoc {
  accounts: Record<string, Account>;
  /** The day's joins, counted in the write that records each account (absent from files written before). */
  joins?: DayCounts;
}

/**
 * The accounts, and the day's join counts beside them. Writing an account is the one commit of a join and bumping
 * its key generation the one commit of a rotation: whatever a crash cuts before that write did not happen here, and
 * the embedded identity door settles its own half to these records at the next start.
 */
export class Accounts {
  constructor(private readonly file: Doc<AccountsDoc>) {}

  static empty = (): AccountsDoc => ({ accounts: {}, joins: noCounts() });

  byId(id: string): Account | null {
    return this.file.data.accounts[id] ?? null;
  }

  byName(name: string): Account | null {
    return Object.values(this.file.data.accounts).find((a) => a.name === name) ?? null;
  }

  all(): Account[] {
    return Object.values(this.file.data.accounts);
  }

  /** The joins recorded on `day`: everyone's, and `client`'s. */
  joinsOn(day: string, client: string): { total: number; client: number } {
    return countsOn(this.file.data.joins ?? noCounts(), day, client);
  }

  /** Records a principal that joined and counts the join for `client` on `day`, in one write. */
  join(account: Account, day: string, client: string): Promise<Account> {
    return this.file.update((d) => {
      d.accounts[account.id] = account;
      addCount((d.joins ??= noCounts()), day, client, 1);
      return account;
    });
  }

  /**
   * Records a wallet's proof: it becomes the account's wallet, proven. `admit` sees the proof already kept (it throws
   * to refuse, as for a challenge older than the last one used), in the write itself.
   */
  proveWallet(id: string, proof: WalletProof, admit: (kept: WalletProof | null) => void): Promise<Account> {
    return this.file.update((d) => {
      const a = d.accounts[id];
      if (!a) throw new Error(`no account ${id}`);
      admit(a.wallet_proof ?? null);
      a.wallet = proof.wallet;
      a.wallet_proof = proof;
      return a;
    });
  }

  /** A rotation's commit: the next key generation, keeping the session that asked for it (its digest), if one did. */
  bumpKeyGen(id: string, keptSession: string | null): Promise<number> {
    return this.file.update((d) => {
      const a = d.accounts[id];
      if (!a) throw new Error(`no account ${id}`);
      a.key_gen += 1;
      if (keptSession) a.kept_session = keptSession;
      else delete a.kept_session;
      return a.key_gen;
    });
  }
}

/** A wallet's standing, read from the account alone: proven while the proof names the account's wallet. */
export const walletStatusOf = (a: Pick<Account, 'wallet' | 'wallet_proof'>): WalletStatus =>
  a.wallet === null ? null : a.wallet_proof?.wallet === a.wallet ? 'proven' : 'unproven';
