import { Interface, keccak256, ZeroHash } from 'ethers';
import { describe, expect, it } from 'vitest';
import type { Epoch, SeriesRecord } from '../series/types.js';
import { epochFeedback, REPUTATION_ABI } from './feedback.js';

const AT = { chainId: 84532, identity: '0x8004a818bfb912233c491871b3d84c89a494bd9e', reputation: '0x8004b663056a597dffe9eccc1965a193b7388713' };
const CLIENT = '0x1111111111111111111111111111111111111111';
const ENDPOINT = 'https://deck.example/mcp/copy';
const verdict = { pass: false, checks: [{ n: 1, pass: true, why: 'inside caps' }, { n: 2, pass: true, why: 'on the venue' }, { n: 3, pass: false, why: 'over max_position' }] };
const epoch: Epoch = {
  index: 2,
  window: { from: 1_900_000_000, to: 1_900_003_600 },
  paymentRef: `0x${'ab'.repeat(32)}`,
  state: 'ended',
  handshake_id: 'hs_1',
  opened_at: 1_900_000_000,
  ended_at: 1_900_003_700,
  verdict,
  unsigned: null,
  job: null,
};
const series = { quote: { agent: { chainId: 84532, agentId: '42', seller: 'copy' } }, terms: { class: 'trading.mandate.external.v1' } } as unknown as SeriesRecord;

describe('an epoch\'s ERC-8004 feedback', () => {
  it('values the share of checks passed in percent with two decimals, tags the class and the verdict', () => {
    const f = epochFeedback(series, epoch, ENDPOINT, CLIENT, AT)!;
    expect(f.args).toMatchObject({ agentId: '42', value: 6667, valueDecimals: 2, tag1: 'trading.mandate.external.v1', tag2: 'fail', endpoint: ENDPOINT });
    expect(f.registry).toBe('eip155:84532:0x8004B663056A597Dffe9eCcC1965A193B7388713');
    expect(epochFeedback(series, { ...epoch, verdict: { pass: true, checks: [] } }, ENDPOINT, CLIENT, AT)!.args).toMatchObject({ value: 10000, tag2: 'pass' });
  });

  it('carries the file in a data: URI whose keccak256 is the hash, and the same bytes every time', () => {
    const f = epochFeedback(series, epoch, ENDPOINT, CLIENT, AT)!;
    const bytes = Buffer.from(f.args.feedbackURI.slice('data:application/json;base64,'.length), 'base64');
    expect(keccak256(bytes)).toBe(f.args.feedbackHash);
    expect(JSON.parse(bytes.toString())).toEqual(f.file);
    expect(f.file).toMatchObject({ agentId: 42, clientAddress: `eip155:84532:${CLIENT}`, createdAt: '2030-03-17T18:48:20.000Z' });
    expect(epochFeedback(series, epoch, ENDPOINT, CLIENT, AT)).toEqual(f);
    const decoded = new Interface(REPUTATION_ABI).decodeFunctionData('giveFeedback', f.unsigned.data);
    expect(decoded.map(String)).toEqual(['42', '6667', '2', f.args.tag1, 'fail', ENDPOINT, f.args.feedbackURI, f.args.feedbackHash]);
  });

  it('makes no file without a client, and nothing before the verdict or for an agent on another chain', () => {
    const f = epochFeedback(series, epoch, ENDPOINT, null, AT)!;
    expect(f).toMatchObject({ client: null, file: null, args: { feedbackURI: '', feedbackHash: ZeroHash } });
    expect(epochFeedback(series, { ...epoch, state: 'submitted', verdict: null, ended_at: null }, ENDPOINT, CLIENT, AT)).toBeNull();
    expect(epochFeedback(series, epoch, ENDPOINT, CLIENT, { ...AT, chainId: 8453 })).toBeNull();
  });
});
