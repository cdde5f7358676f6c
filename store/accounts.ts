import type { JsonFile } from './json-file.js';

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
}

export class Accounts {
  constructor(private readonly file: JsonFile<AccountsDoc>) {}

  static empty = (): AccountsDoc => ({ accounts: {} });

  byId(id: string): Account | null {
    return this.file.data.accounts[id] ?? null;
  }

  byName(name: string): Account | null {
    return Object.values(this.file.data.accounts).find((a) => a.name === name) ?? null;
  }

  all(): Account[] {
    return Object.values(this.file.data.accounts);
  }

  put(account: Account): Promise<Account> {
    return this.file.update((d) => {
      d.accounts[account.id] = account;
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
