import type { Chain } from '../../config/files.js';
import { notConfigured } from '../../core/errors.js';
import { chainNumber, rpcProvider } from './provider.js';
import { ChainReader } from './reader.js';

/**
 * The chains of the plans file, each read through its own provider (made on first use). DECK_CHAIN_RPC is the
 * RPC of a deployment with one chain; a file with several chains names each one's rpc.
 */
export class Chains {
  private readonly readers = new Map<string, ChainReader>();
  private readonly rpcs: ReadonlyMap<string, string | null>;

  constructor(chains: readonly Chain[], override: string | null) {
    if (override && chains.length !== 1) {
      throw new Error(`DECK_CHAIN_RPC is the RPC of a deployment with one chain; the plans file lists ${chains.length}: set chains[].rpc instead`);
    }
    this.rpcs = new Map(chains.map((c) => [c.id, override ?? c.rpc]));
  }

  /** The reader of a listed chain; 503 naming what to set when the chain has no RPC. */
  reader(id: string): ChainReader {
    const known = this.readers.get(id);
    if (known) return known;
    const rpc = this.rpcs.get(id);
    if (!rpc) throw notConfigured(`the chain ${id}`, `chains[].rpc for ${id} in the plans file, or DECK_CHAIN_RPC`);
    const reader = new ChainReader(id, rpcProvider(rpc, chainNumber(id)));
    this.readers.set(id, reader);
    return reader;
  }
}
