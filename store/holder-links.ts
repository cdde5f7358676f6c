import type { Backend } from './backend.js';
import type { Ledger, LedgerEntry } from './ledger.js';

/** A collection holder's wallet linked to a principal for one UTC day, with the NFTs it held when linked. */
export interface HolderLink {
  day: string;
  wallet: string;
  principal_id: string;
  chain: string;
  collection: string;
  nfts: number;
  /** The block balanceOf was read at. */
  block: number;
}

const walletKey = (day: string, wallet: string) => `${day}|${wallet.toLowerCase()}`;
const principalKey = (day: string, principalId: string) => `${day}|${principalId}`;

/**
 * Holder links in a hash-chained ledger (holder-links.jsonl). A wallet links to one principal a day (decided and
 * appended alone, among every deck on a shared store); a principal stands on the last wallet it linked that day.
 */
export class HolderLinks {
  private readonly byWallet = new Map<string, string>();
  private readonly byPrincipal = new Map<string, LedgerEntry<HolderLink>>();

  private constructor(
    private readonly backend: Backend,
    private readonly ledger: Ledger<HolderLink>,
  ) {
    ledger.follow((e) => this.index(e));
  }

  /** Every entry of the ledger, in chain order (the records' history reads it). */
  get entries(): readonly LedgerEntry<HolderLink>[] {
    return this.ledger.all;
  }

  static async open(backend: Backend): Promise<HolderLinks> {
    return new HolderLinks(backend, await backend.ledger<HolderLink>('holder-links'));
  }

  private index(e: LedgerEntry<HolderLink>): void {
    this.byWallet.set(walletKey(e.entry.day, e.entry.wallet), e.entry.principal_id);
    this.byPrincipal.set(principalKey(e.entry.day, e.entry.principal_id), e);
  }

  /** The principal a wallet is linked to on a day, if any. */
  holderOf(day: string, wallet: string): string | null {
    return this.byWallet.get(walletKey(day, wallet)) ?? null;
  }

  /** The link a principal stands on for a day. */
  linkOf(principalId: string, day: string): LedgerEntry<HolderLink> | null {
    return this.byPrincipal.get(principalKey(day, principalId)) ?? null;
  }

  /** Records a link after `admit` has seen who holds the wallet that day (it throws to refuse). */
  link(link: HolderLink, admit: (holder: string | null) => void, at: number): Promise<LedgerEntry<HolderLink>> {
    return this.backend.alone('holder-links', async () => {
      admit(this.holderOf(link.day, link.wallet));
      return this.ledger.append(link, at);
    });
  }
}
