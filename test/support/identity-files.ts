import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The principals a data directory holds: the deck's accounts and the embedded door's records, by principal id. */
export interface OnDisk {
  accounts: Record<string, { id: string; name: string; key_gen: number }>;
  door: Record<string, { id: string; name: string; key_gen: number; previous_hash?: string }>;
}

const read = async (dir: string, file: string) => JSON.parse(await readFile(join(dir, file), 'utf8'));

/** The deck's accounts (whichever door it uses). */
export const accountsOnDisk = async (dir: string): Promise<OnDisk['accounts']> => (await read(dir, 'accounts.json')).accounts;

/** The accounts and the embedded door's records. */
export const principalsOnDisk = async (dir: string): Promise<OnDisk> => ({ accounts: await accountsOnDisk(dir), door: (await read(dir, 'door.json')).principals });

/** Where the door and the accounts disagree (a principal one of them lacks, another key generation, a previous key kept); none when in step. */
export function outOfStep({ accounts, door }: OnDisk): string[] {
  const ids = new Set([...Object.keys(accounts), ...Object.keys(door)]);
  return [...ids].flatMap((id) => {
    const [a, d] = [accounts[id], door[id]];
    if (!a || !d) return [`${(a ?? d)!.name}: ${a ? 'no door record' : 'no account'}`];
    if (a.key_gen !== d.key_gen) return [`${a.name}: key generation ${d.key_gen} at the door, ${a.key_gen} in the account`];
    return d.previous_hash === undefined ? [] : [`${a.name}: the door keeps a previous key`];
  });
}

/** Whether `name` is held by the door, and by the accounts. */
export const holders = ({ accounts, door }: OnDisk, name: string): { door: boolean; accounts: boolean } => ({
  door: Object.values(door).some((p) => p.name === name),
  accounts: Object.values(accounts).some((a) => a.name === name),
});
