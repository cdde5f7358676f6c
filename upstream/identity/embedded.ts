import { randomUUID } from 'node:crypto';
import { DeckError } from '../../core/errors.js';
import type { Backend } from '../../store/backend.js';
import type { Doc } from '../../store/doc.js';
import type { DoorPrincipal, IdentityDoor } from './door.js';
import { digest, newKey } from './keys.js';

interface DoorRecord extends DoorPrincipal {
  key_hash: string;
  /** Which key this is: 1 at the mint, one more at each rotation, counted as the deck's account counts it. */
  key_gen: number;
  /** The key before the last rotation, kept only until a start finds that rotation recorded in the account. */
  previous_hash?: string;
  created_at: number;
}

interface DoorDoc {
  principals: Record<string, DoorRecord>;
}

/** What settling found: the names whose join was undone, and those whose rotation was. */
export interface Settled {
  forgotten: string[];
  restored: string[];
}

/** The identity door the deck carries by default: its own file, keys kept only as digests. */
export class EmbeddedDoor implements IdentityDoor {
  readonly kind = 'embedded' as const;

  /** key digest -> principal id, so verifying a key is a lookup. */
  private readonly byHash = new Map<string, string>();
  /** The document the index was built from: another deck's write on a shared store brings a new one. */
  private indexed: Readonly<DoorDoc> | null = null;

  private constructor(
    private readonly file: Doc<DoorDoc>,
    private readonly keyPrefix: string,
    private readonly clock: () => number,
  ) {
    this.index();
  }

  static async open(backend: Backend, keyPrefix: string, clock: () => number): Promise<EmbeddedDoor> {
    return new EmbeddedDoor(await backend.doc<DoorDoc>('door', () => ({ principals: {} })), keyPrefix, clock);
  }

  private index(): void {
    if (this.indexed === this.file.data) return;
    this.indexed = this.file.data;
    this.byHash.clear();
    for (const p of Object.values(this.file.data.principals)) this.byHash.set(p.key_hash, p.id);
  }

  async mint({ name, wallet }: { name: string; wallet: string | null }) {
    const key = newKey(this.keyPrefix);
    const record: DoorRecord = { id: randomUUID(), name, wallet, key_hash: digest(key), key_gen: 1, created_at: this.clock() };
    await this.file.update((d) => {
      if (Object.values(d.principals).some((p) => p.name === name)) {
        throw new DeckError(409, 'name_taken', `the name ${name} is taken`, { field: 'name' });
      }
      d.principals[record.id] = record;
    });
    return { principal: { id: record.id, name, wallet }, key };
  }

  async verify(key: string) {
    this.index();
    const id = this.byHash.get(digest(key));
    const found = id ? this.file.data.principals[id] : undefined;
    return found ? { id: found.id, name: found.name, wallet: found.wallet } : null;
  }

  async rotate(principalId: string) {
    const key = newKey(this.keyPrefix);
    await this.file.update((d) => {
      const p = d.principals[principalId];
      if (!p) throw new DeckError(502, 'upstream_refused', 'the identity door does not know this principal', { upstream: 'identity door' });
      Object.assign(p, { key_hash: digest(key), key_gen: p.key_gen + 1, previous_hash: p.key_hash });
    });
    return key;
  }

  /**
   * Brings the door in step with the deck's accounts, whose write is the commit of a join or a rotation; run at
   * start, before any request. A principal no account names is a join cut before its commit, its key never shown:
   * it is forgotten and its name is free again. A key generation ahead of the account's is a rotation cut before
   * its commit (rotations of one principal run one at a time, so it is one ahead): the previous key is put back,
   * and the new one, never shown, is refused. Records from before key generations were kept take the account's.
   */
  async settle(keyGenOf: (principalId: string) => number | null): Promise<Settled> {
    const settled: Settled = { forgotten: [], restored: [] };
    const unsettled = (p: DoorRecord, gen: number | null) => gen === null || p.key_gen !== gen || p.previous_hash !== undefined;
    if (!Object.values(this.file.data.principals).some((p) => unsettled(p, keyGenOf(p.id)))) return settled;
    await this.file.update((d) => {
      for (const p of Object.values(d.principals)) {
        const gen = keyGenOf(p.id);
        if (gen === null) {
          delete d.principals[p.id];
          settled.forgotten.push(p.name);
          continue;
        }
        if ((p.key_gen ?? gen) > gen && p.previous_hash) {
          p.key_hash = p.previous_hash;
          settled.restored.push(p.name);
        }
        p.key_gen = gen;
        delete p.previous_hash;
      }
    });
    return settled;
  }
}
