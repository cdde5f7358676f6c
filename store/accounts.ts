import { addCount, countsOn, noCounts, type DayCounts } from './counters.js';
import type { Doc } from './doc.js';

/** The deck's own record of a principal (the identity door keeps the key; the deck keeps no key). */
export interface Account {
  id: string;
  name: string;
  agent_id: string;
  wallet: string | null;
  /** Bumped on key rotation: sessions minted under an older generation stop at once. */
  key_gen: number;
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

  bumpKeyGen(id: string): Promise<number> {
    return this.file.update((d) => {
      const a = d.accounts[id];
      if (!a) throw new Error(`no account ${id}`);
      a.key_gen += 1;
      return a.key_gen;
    });
  }
}
