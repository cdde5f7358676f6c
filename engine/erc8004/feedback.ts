import { getAddress, Interface, keccak256, toUtf8Bytes, ZeroHash } from 'ethers';
import type { Epoch, SeriesRecord } from '../series/types.js';

/** ERC-8004's reputation registry, as far as giving feedback goes (the standard's current giveFeedback). */
export const REPUTATION_ABI = [
  'function giveFeedback(uint256 agentId, int128 value, uint8 valueDecimals, string tag1, string tag2, string endpoint, string feedbackURI, bytes32 feedbackHash)',
  'event NewFeedback(uint256 indexed agentId, address indexed clientAddress, uint64 feedbackIndex, int128 value, uint8 valueDecimals, string indexed indexedTag1, string tag1, string tag2, string endpoint, string feedbackURI, bytes32 feedbackHash)',
];
const REPUTATION = new Interface(REPUTATION_ABI);

/** The value's decimals: a share of checks in percent with two decimals (66.67% is 6667). */
export const VALUE_DECIMALS = 2;

/** Where feedback is given: the chain, the identity registry the hired agent is on, and the reputation registry. */
export interface FeedbackRegistries {
  chainId: number;
  identity: string;
  reputation: string;
}

/** giveFeedback's arguments, in its order. */
export interface FeedbackArgs {
  agentId: string;
  value: number;
  valueDecimals: number;
  tag1: string;
  tag2: string;
  endpoint: string;
  feedbackURI: string;
  feedbackHash: string;
}

/**
 * The ERC-8004 feedback a hirer may give the seller for an epoch the layer ended with its verdict: unsigned, for the
 * client's own wallet to send, as the epoch's job plan is. The value is the share of the class's checks the verdict
 * passed (percent, two decimals), tag1 the job class (so a registry's summary by tag1 averages one class), tag2 the
 * verdict (pass or fail), the endpoint the seller's MCP endpoint. The off-chain file (the standard's MUST fields, and
 * the epoch it is about) needs the client's address, so it is made only for a client whose wallet is proven; it is
 * carried whole in a data: URI, so it needs no host and its keccak256 is the feedbackHash. null when the epoch has no
 * verdict, or the hired agent is on another chain than the registries named.
 */
export function epochFeedback(r: SeriesRecord, e: Epoch, endpoint: string, client: string | null, at: FeedbackRegistries) {
  if (e.state !== 'ended' || !e.verdict || e.ended_at === null || r.quote.agent.chainId !== at.chainId) return null;
  const { pass, checks } = e.verdict;
  const passed = checks.filter((c) => c.pass).length;
  const value = checks.length ? Math.round((passed * 10 ** (2 + VALUE_DECIMALS)) / checks.length) : pass ? 10 ** (2 + VALUE_DECIMALS) : 0;
  const tag1 = r.terms.class;
  const tag2 = pass ? 'pass' : 'fail';
  const agentRegistry = `eip155:${at.chainId}:${getAddress(at.identity)}`;
  const file = client
    ? {
        agentRegistry,
        // A number, as registrations carry it, while JSON holds it exactly; its decimal string beyond.
        agentId: Number.isSafeInteger(Number(r.quote.agent.agentId)) ? Number(r.quote.agent.agentId) : r.quote.agent.agentId,
        clientAddress: `eip155:${at.chainId}:${getAddress(client)}`,
        createdAt: new Date(e.ended_at * 1000).toISOString(),
        value,
        valueDecimals: VALUE_DECIMALS,
        tag1,
        tag2,
        endpoint,
        epoch: { class: r.terms.class, index: e.index, paymentRef: e.paymentRef, window: e.window, verdict: e.verdict },
      }
    : null;
  const bytes = file ? toUtf8Bytes(JSON.stringify(file)) : null;
  const args: FeedbackArgs = {
    agentId: r.quote.agent.agentId,
    value,
    valueDecimals: VALUE_DECIMALS,
    tag1,
    tag2,
    endpoint,
    feedbackURI: bytes ? `data:application/json;base64,${Buffer.from(bytes).toString('base64')}` : '',
    feedbackHash: bytes ? keccak256(bytes) : ZeroHash,
  };
  return {
    registry: `eip155:${at.chainId}:${getAddress(at.reputation)}`,
    agentRegistry,
    client: client ? getAddress(client) : null,
    args,
    file,
    unsigned: { chainId: at.chainId, to: getAddress(at.reputation), data: giveFeedbackData(args), value: '0' as const },
  };
}

export type EpochFeedback = NonNullable<ReturnType<typeof epochFeedback>>;

/** giveFeedback's calldata for these arguments. */
export const giveFeedbackData = (a: FeedbackArgs): string =>
  REPUTATION.encodeFunctionData('giveFeedback', [a.agentId, a.value, a.valueDecimals, a.tag1, a.tag2, a.endpoint, a.feedbackURI, a.feedbackHash]);
