import { Contract, id as topicOf, Interface, isError, type JsonRpcProvider } from 'ethers';
import type { Transfer } from '../../engine/plans/payment.js';
import { DeckError, refusedBy, unreachable } from '../../core/errors.js';
import { RPC_TIMEOUT_MS } from './provider.js';

const ERC20 = new Interface(['event Transfer(address indexed from, address indexed to, uint256 value)']);
const TRANSFER = topicOf('Transfer(address,address,uint256)');
const ERC721 = ['function balanceOf(address owner) view returns (uint256)'];
const VAULT = ['function mandateHash() view returns (bytes32)'];

/** A mined transaction as the deck reads it: whether it succeeded, its block and its ERC-20 transfers. */
export interface Receipt {
  status: number;
  block: number;
  transfers: Transfer[];
}

/**
 * Maps what a chain read threw to the deck's refusals: no answer in time or no connection is 503 (nothing is
 * recorded), an RPC error or an HTTP error is 502 carrying what the RPC answered.
 */
function refusal(upstream: string, error: unknown): DeckError {
  if (error instanceof DeckError) return error;
  if (isError(error, 'TIMEOUT')) return unreachable(upstream, `no answer in ${RPC_TIMEOUT_MS / 1000} s`);
  const e = error as { code?: unknown; syscall?: unknown; message?: string; error?: unknown; info?: { responseStatus?: string; responseBody?: string } };
  // A failure below HTTP (refused or reset connection, unknown host) is a Node system error.
  if (e.syscall !== undefined || (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code))) return unreachable(upstream, e.message ?? String(e.code));
  if (e.error !== undefined) return refusedBy(upstream, e.error);
  if (isError(error, 'SERVER_ERROR') && e.info) return refusedBy(upstream, { status: e.info.responseStatus, body: e.info.responseBody ?? null });
  return refusedBy(upstream, { message: (error as Error).message });
}

/** Reads from one chain through its provider; every failure is one of the deck's refusals. */
export class ChainReader {
  private readonly upstream: string;

  constructor(
    readonly id: string,
    private readonly provider: JsonRpcProvider,
  ) {
    this.upstream = `the chain ${id}`;
  }

  private async read<T>(how: () => Promise<T>): Promise<T> {
    try {
      return await how();
    } catch (error) {
      throw refusal(this.upstream, error);
    }
  }

  /** The receipt of a mined transaction; null when none is mined under that hash. */
  receipt(txHash: string): Promise<Receipt | null> {
    return this.read(async () => {
      const r = await this.provider.getTransactionReceipt(txHash);
      if (!r) return null;
      const transfers = r.logs
        // An ERC-721 Transfer has the token id as a fourth topic; only ERC-20's three-topic form is a payment.
        .filter((l) => l.topics.length === 3 && l.topics[0] === TRANSFER)
        .map((l) => {
          const parsed = ERC20.parseLog(l)!;
          return { token: l.address, from: parsed.args[0] as string, to: parsed.args[1] as string, amount: parsed.args[2] as bigint };
        });
      return { status: r.status ?? 0, block: r.blockNumber, transfers };
    });
  }

  /** Whether the chain knows the transaction at all (sent, perhaps not mined yet). */
  knows(txHash: string): Promise<boolean> {
    return this.read(async () => (await this.provider.getTransaction(txHash)) !== null);
  }

  /** The latest block's number. */
  head(): Promise<number> {
    return this.read(() => this.provider.getBlockNumber());
  }

  /** A block's time, in unix milliseconds. */
  blockTime(block: number): Promise<number> {
    return this.read(async () => {
      const b = await this.provider.getBlock(block);
      if (!b) throw refusedBy(this.upstream, { message: `block ${block} of a mined receipt is unknown` });
      return b.timestamp * 1000;
    });
  }

  /** ERC-721 balanceOf(owner) on a collection, at a block. */
  nftsHeld(collection: string, owner: string, block: number): Promise<bigint> {
    return this.read(() => new Contract(collection, ERC721, this.provider).getFunction('balanceOf')(owner, { blockTag: block }) as Promise<bigint>);
  }

  /**
   * A vault's on-chain mandateHash(), at the latest block; null when the address answers none (no code there,
   * or the call reverts): such a vault matches no mandate.
   */
  mandateHash(vault: string): Promise<string | null> {
    return this.read(async () => {
      try {
        return (await new Contract(vault, VAULT, this.provider).getFunction('mandateHash')()) as string;
      } catch (error) {
        if (isError(error, 'CALL_EXCEPTION') || isError(error, 'BAD_DATA')) return null;
        throw error;
      }
    });
  }
}
