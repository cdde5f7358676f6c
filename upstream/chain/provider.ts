import { FetchRequest, JsonRpcProvider, makeError, Network, type FetchGetUrlFunc } from 'ethers';
import { undici } from '../undici.js';

/** An RPC that has not answered whole in this time is unreachable (503); nothing is recorded. */
export const RPC_TIMEOUT_MS = 5000;

/**
 * One RPC exchange over undici, held to one deadline from asking to the answer's last byte. ethers' own timeout is a
 * socket's idle time, which an RPC feeding its answer a byte at a time never reaches.
 */
const wholeExchange: FetchGetUrlFunc = async (req, cancel) => {
  const deadline = AbortSignal.timeout(RPC_TIMEOUT_MS);
  const cancelled = new AbortController();
  cancel?.addListener(() => cancelled.abort());
  // Asked plain (ethers asks for gzip, and undici hands the body back as it came).
  const { 'accept-encoding': _, ...headers } = req.headers;
  try {
    const res = await (await undici()).request(req.url, {
      method: req.method as 'POST',
      headers,
      body: req.body ? Buffer.from(req.body) : null,
      signal: AbortSignal.any([deadline, cancelled.signal]),
    });
    const body = new Uint8Array(await res.body.arrayBuffer());
    const answered = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    return { statusCode: res.statusCode, statusMessage: '', headers: answered, body };
  } catch (error) {
    if (deadline.aborted) throw makeError('request timeout', 'TIMEOUT');
    throw error;
  }
};

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
  request.getUrlFunc = wholeExchange;
  const network = Network.from(chainId);
  return new JsonRpcProvider(request, network, { staticNetwork: network, cacheTimeout: -1, batchMaxCount: 1 });
}
