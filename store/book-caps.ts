import type { Caps } from '../engine/book/index.js';
import type { Doc } from './doc.js';

export interface BookCapsDoc {
  by_principal: Record<string, Caps>;
}

/** The caps each principal set on its own book (none set: the house's limits alone). */
export class BookCaps {
  constructor(private readonly file: Doc<BookCapsDoc>) {}

  static empty = (): BookCapsDoc => ({ by_principal: {} });

  get(principal: string): Caps {
    return this.file.data.by_principal[principal] ?? {};
  }

  set(principal: string, caps: Caps): Promise<void> {
    return this.file.update((d) => void (d.by_principal[principal] = caps));
  }
}
