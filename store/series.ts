import type { Changed, Move, SeriesRecord } from '../engine/series/index.js';
import type { Backend } from './backend.js';
import type { Doc } from './doc.js';
import type { Ledger, LedgerEntry } from './ledger.js';
import type { OwnedDoc } from './owned.js';

/** One move as the series ledger chains it: the move and whose series it moved. */
export interface SeriesLedgerEntry extends Move {
  series_id: string;
  principal_id: string;
}

/** A handshake the layer opened for an epoch, kept before the series is written, so a read can adopt it. */
export interface RecoveryEntry {
  series_id: string;
  principal_id: string;
  epoch: number;
  paymentRef: string;
  handshake_id: string;
  opened_at: number;
}

/** Whether the moves a write made are on the series ledger yet ('behind': they will be chained at the next write or start). */
export type Chained = 'chained' | 'behind';

/**
 * The series: every principal's series in `series.json` (looked up by principal and id, so another principal's id is
 * not found), every move in the hash-chained `series.jsonl`, and the handshakes the layer opened in
 * `series-recovery.jsonl`.
 *
 * A move is made when `series.json` holds it (one atomic update, decided on the record as it is then); its entries are
 * chained after. Each record lists its moves, so moves a crash kept off the ledger are chained when the store opens
 * and before the series' next move, in order: the ledger holds every move once.
 */
export class SeriesBook {
  /** Moves on the ledger, per series. */
  private readonly chainedCount = new Map<string, number>();
  private readonly recovered = new Map<string, RecoveryEntry[]>();

  private constructor(
    private readonly backend: Backend,
    private readonly file: Doc<OwnedDoc<SeriesRecord>>,
    private readonly ledger: Ledger<SeriesLedgerEntry>,
    private readonly recovery: Ledger<RecoveryEntry>,
  ) {
    ledger.follow((e) => this.chainedCount.set(e.entry.series_id, (this.chainedCount.get(e.entry.series_id) ?? 0) + 1));
    recovery.follow((e) => this.remember(e.entry));
  }

  /** Every entry of the ledger, in chain order (the records' history reads it). */
  get entries(): readonly LedgerEntry<SeriesLedgerEntry>[] {
    return this.ledger.all;
  }

  static async open(backend: Backend): Promise<SeriesBook> {
    const book = new SeriesBook(
      backend,
      await backend.doc<OwnedDoc<SeriesRecord>>('series', () => ({ by_principal: {} })),
      await backend.ledger<SeriesLedgerEntry>('series'),
      await backend.ledger<RecoveryEntry>('series-recovery'),
    );
    for (const [principalId, records] of Object.entries(book.file.data.by_principal)) for (const r of records) await book.chain(principalId, r);
    return book;
  }

  list(principalId: string): readonly SeriesRecord[] {
    return this.file.data.by_principal[principalId] ?? [];
  }

  /** Every principal's series, house-wide (the records' finished epochs read them, naming no one). */
  everySeries(): SeriesRecord[] {
    return Object.values(this.file.data.by_principal).flat();
  }

  get(principalId: string, id: string): SeriesRecord | null {
    return this.list(principalId).find((r) => r.id === id) ?? null;
  }

  /** Keeps a new series; a write that fails keeps nothing. */
  async create(principalId: string, record: SeriesRecord): Promise<Chained> {
    await this.file.update((d) => void (d.by_principal[principalId] ??= []).push(record));
    return this.chain(principalId, record);
  }

  /**
   * Applies `change` to the series as it is when the write runs (serialized with every other write), and keeps what
   * it answers. `change` may throw to refuse; then nothing is written. Null when the principal has no such series.
   */
  async apply(principalId: string, id: string, change: (now: SeriesRecord) => Changed): Promise<(Changed & { chained: Chained }) | null> {
    const changed = await this.file.update((d) => {
      const mine = d.by_principal[principalId] ?? [];
      const at = mine.findIndex((r) => r.id === id);
      if (at < 0) return null;
      const c = change(mine[at]!);
      mine[at] = c.record;
      return c;
    });
    if (!changed) return null;
    return { ...changed, chained: await this.chain(principalId, changed.record) };
  }

  /** Chains the moves of `record` the ledger does not hold yet, in order (alone among every deck on a shared store). */
  private chain(principalId: string, record: SeriesRecord): Promise<Chained> {
    return this.backend
      .alone('series', async () => {
        for (let n = this.chainedCount.get(record.id) ?? 0; n < record.moves.length; n++) {
          await this.ledger.append({ ...record.moves[n]!, series_id: record.id, principal_id: principalId }, record.moves[n]!.at);
        }
      })
      .then(
        (): Chained => 'chained',
        (): Chained => 'behind',
      );
  }

  /** Keeps the handshake the layer opened, before the series is written (appended with fsync). */
  async keepHandshake(entry: RecoveryEntry, at: number): Promise<void> {
    await this.recovery.append(entry, at);
  }

  /** The handshakes kept for a series, oldest first. */
  handshakesKept(seriesId: string): readonly RecoveryEntry[] {
    return this.recovered.get(seriesId) ?? [];
  }

  private remember(entry: RecoveryEntry): void {
    const list = this.recovered.get(entry.series_id) ?? [];
    list.push(entry);
    this.recovered.set(entry.series_id, list);
  }
}
