import { randomUUID } from 'node:crypto';
import { DeckError } from '../../tools/errors.js';
import { JsonFile } from '../../store/json-file.js';
import type { DoorPrincipal, IdentityDoor } from './door.js';
import { digest, newKey } from './keys.js';

interface DoorRecord extends DoorPrincipal {
  key_hash: string;
  created_at: number;
}

interface DoorDoc {
  principals: Record<string, DoorRecord>;
}

/** The identity door the deck carries by default: its own file, keys kept only as digests. */
export class EmbeddedDoor implements IdentityDoor {
  readonly kind = 'embedded' as const;

  /** key digest -> principal id, so verifying a key is a lookup. */
  private readonly byHash = new Map<string, string>();

  private constructor(
    private readonly file: JsonFile<DoorDoc>,
    private readonly keyPrefix: string,
    private readonly clock: () => number,
  ) {
    for (const p of Object.values(file.data.principals)) this.byHash.set(p.key_hash, p.id);
  }

  static async open(dir: string, keyPrefix: string, clock: () => number): Promise<EmbeddedDoor> {
    return new EmbeddedDoor(await JsonFile.open<DoorDoc>(dir, 'door', () => ({ principals: {} })), keyPrefix, clock);
  }

  async mint({ name, wallet }: { name: string; wallet: string | null }) {
    const key = newKey(this.keyPrefix);
    const record: DoorRecord = { id: randomUUID(), name, wallet, key_hash: digest(key), created_at: this.clock() };
    await this.file.update((d) => {
      if (Object.values(d.principals).some((p) => p.name === name)) {
        throw new DeckError(409, 'name_taken', `the name ${name} is taken`, { field: 'name' });
      }
      d.principals[record.id] = record;
    });
    this.byHash.set(record.key_hash, record.id);
    return { principal: { id: record.id, name, wallet }, key };
  }

  async verify(key: string) {
    const id = this.byHash.get(digest(key));
    const found = id ? this.file.data.principals[id] : undefined;
    return found ? { id: found.id, name: found.name, wallet: found.wallet } : null;
  }

  async rotate(principalId: string) {
    const key = newKey(this.keyPrefix);
    const old = await this.file.update((d) => {
      const p = d.principals[principalId];
      if (!p) throw new DeckError(502, 'upstream_refused', 'the identity door does not know this principal', { upstream: 'identity door' });
      const before = p.key_hash;
      p.key_hash = digest(key);
      return before;
    });
    this.byHash.delete(old);
    this.byHash.set(digest(key), principalId);
    return key;
  }
}
