import { FetchRequest, JsonRpcProvider, Network } from 'ethers';

/** An RPC that has not answered in this time is unreachable (503); nothing is recorded. */
export const RPC_TIMEOUT_MS = 5000;

/** The numeric id of a CAIP-2 eip155 chain id (eip155:8453 -> 8453). */
export const chainNumber = (caip2: string): number => Number(caip2.slice('eip155:'.length));

/**
 * A JSON-RPC provider for one chain. The network is static (no detection call, no retry loop when the RPC is
 * down) and nothing is cached (`cacheTimeout: -1`): the default 250 ms cache would serve a stale block number.
 * One request per call, so an RPC's error answers the call that caused it.
 */
export function rpcProvider(url: string, chainId: number): JsonRpcProvider {
  const request = new FetchRequest(url);
  request.timeout = RPC_TIMEOUT_MS;
  const network = Network.from(chainId);
  return new JsonRpcProvider(request, network, { staticNetwork: network, cacheTimeout: -1, batchMaxCount: 1 });
}
