/**
 * One document of the store (a collection): read from memory, changed only through `update`, which runs `change` on
 * the document as the store holds it now, alone, and keeps what it leaves or nothing when it throws. Every admit or
 * cap check written inside `change` therefore holds against every other write, in this process or (on PostgreSQL)
 * in any deck sharing the database.
 */
export interface Doc<T extends object> {
  /** The document as last kept or caught up with. Callers must not mutate it. */
  readonly data: Readonly<T>;
  update<R>(change: (draft: T) => R): Promise<R>;
}
