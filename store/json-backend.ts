import { join } from 'node:path';
import { writeAtomic } from './atomic-file.js';
import type { Backend } from './backend.js';
import { BLOB_KINDS, FileBlobs, type BlobKind } from './blobs.js';
import { FileLedger } from './file-ledger.js';
import { JsonFile } from './json-file.js';
import { ledgerHeads, ledgerNames, walkLedger } from './ledger-files.js';
import { FileTapeDays } from './tape-days.js';
import { removeTempFiles } from './temp-files.js';
import { Turns } from './turns.js';

/**
 * The store as JSON files under one data directory, for one deck: its memory is the truth (nothing to catch up with),
 * and the in-process p-queues are its guards (every place held here is one the deck's own guard already counted).
 * `sweep` removes the temporary files a crash left: the deck does at its start; a command that may run beside a
 * deck (a tape import) must not, as the deck's own writes in flight are such files.
 */
export async function jsonBackend(dir: string, { sweep = false } = {}): Promise<Backend> {
  if (sweep) await removeTempFiles(dir);
  const released = () => Promise.resolve();
  const turns = new Turns();
  // One per kind, so writes of one name by this deck wait for each other.
  const blobs = Object.fromEntries(BLOB_KINDS.map((kind) => [kind, new FileBlobs(join(dir, kind))])) as Record<BlobKind, FileBlobs>;
  return {
    kind: 'json',
    shared: false,
    doc: (name, empty) => JsonFile.open(dir, name, empty),
    ledger: (name) => FileLedger.open(dir, name),
    tapeDays: new FileTapeDays(dir),
    blobs: (kind) => blobs[kind],
    ledgerNames: () => ledgerNames(dir),
    ledgerHeads: () => ledgerHeads(dir),
    walkLedger: (name) => walkLedger(dir, name),
    catchUp: () => Promise.resolve(),
    hold: () => Promise.resolve(released),
    // One at a time in this deck, and there is no other.
    alone: (name, work) => turns.run(name, work),
    // A probe written whole, synced and renamed, as every store write.
    probeWrite: (at) => writeAtomic(join(dir, '.ready'), String(at)),
    close: () => Promise.resolve(),
  };
}
