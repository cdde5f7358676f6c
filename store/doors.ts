import type { Doc } from './doc.js';

/** The sign-in doors beside the key: an email address proved by a code or link, an X account proved by OAuth. */
export type DoorKind = 'email' | 'x';

/** A door linked to a principal: signing in through it is signing in as that principal. */
export interface DoorLink {
  principal_id: string;
  door: DoorKind;
  /** What the person sees of it: the address masked (a***@example.com), or @username on X. */
  label: string;
  linked_at: number;
}

/** An email sign-in waiting for its code or link, kept under the link token's digest. */
export interface EmailAsk {
  /** The address's key (keyed digest, never the address). */
  key: string;
  label: string;
  /** The code's keyed digest. */
  code: string;
  /** Wrong codes tried against it; at the limit it is dropped. */
  tries: number;
  expires_at: number;
}

/** A door proved but not linked yet (a first sign-in): it may join, or be linked by a signed-in principal. */
export interface DoorProof {
  door: DoorKind;
  key: string;
  label: string;
  expires_at: number;
}

/** A count of sends in a window that ends at `until`. */
export interface SendWindow {
  until: number;
  n: number;
}

export interface DoorsDoc {
  /** By door key: email:<keyed digest of the address> or x:<X user id>. */
  links: Record<string, DoorLink>;
  /** Email sign-ins waiting, by the digest of their link token. */
  asks: Record<string, EmailAsk>;
  /** X sign-ins waiting for X's answer, by the digest of their state. */
  states: Record<string, { expires_at: number }>;
  /** Doors proved and not linked, by the digest of their proof. */
  proofs: Record<string, DoorProof>;
  /** Mails sent per recipient key (to:) and per client (from:), in windows. */
  sends: Record<string, SendWindow>;
}

/**
 * The doors' records: links, sign-ins waiting and proofs, every secret (codes, link tokens, states, proofs) only as a
 * digest, and no email address at all (a keyed digest finds its link; a masked label is shown). What has expired is
 * dropped at every write, so the document holds only what is live.
 */
export class Doors {
  constructor(private readonly file: Doc<DoorsDoc>) {}

  static empty = (): DoorsDoc => ({ links: {}, asks: {}, states: {}, proofs: {}, sends: {} });

  get data(): Readonly<DoorsDoc> {
    return this.file.data;
  }

  /** Changes the document alone (see Doc.update), after dropping what expired and the windows that ended by `now`. */
  update<R>(now: number, change: (d: DoorsDoc) => R): Promise<R> {
    return this.file.update((d) => {
      for (const bag of [d.asks, d.states, d.proofs] as Record<string, { expires_at: number }>[]) {
        for (const [k, v] of Object.entries(bag)) if (v.expires_at <= now) delete bag[k];
      }
      for (const [k, w] of Object.entries(d.sends)) if (w.until <= now) delete d.sends[k];
      return change(d);
    });
  }
}
