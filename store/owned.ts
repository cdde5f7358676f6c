import type { Doc } from './doc.js';

export interface OwnedDoc<T> {
  by_principal: Record<string, T[]>;
}

/**
 * Records that belong to a principal. Every lookup is by (principal, id), so another principal's id
 * reads exactly like an id that does not exist.
 */
export class Owned<T extends { id: string }> {
  constructor(protected readonly file: Doc<OwnedDoc<T>>) {}

  static empty = <T>(): OwnedDoc<T> => ({ by_principal: {} });

  list(principalId: string): readonly T[] {
    return this.file.data.by_principal[principalId] ?? [];
  }

  get(principalId: string, id: string): T | null {
    return this.list(principalId).find((r) => r.id === id) ?? null;
  }

  /** Adds a record after `admit` has seen the principal's current records (it throws to refuse). */
  add(principalId: string, record: T, admit: (mine: readonly T[]) => void = () => {}): Promise<readonly T[]> {
    return this.file.update((d) => {
      const mine = (d.by_principal[principalId] ??= []);
      admit(mine);
      mine.push(record);
      return mine;
    });
  }

  /** Removes the record; null when the principal has no such record. */
  async remove(principalId: string, id: string): Promise<readonly T[] | null> {
    if (!this.get(principalId, id)) return null;
    return this.file.update((d) => {
      const mine = d.by_principal[principalId] ?? [];
      const at = mine.findIndex((r) => r.id === id);
      if (at < 0) return null;
      mine.splice(at, 1);
      return mine;
    });
  }
}
