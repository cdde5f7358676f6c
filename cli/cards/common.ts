import { readFile, rename, writeFile } from 'node:fs/promises';
import { Wallet } from 'ethers';
import { callJson, expectOk } from '../../upstream/http.js';

// What npm run cards's commands share: the usage, the identity registry's ABI, keys, the cards file, the chain's id.

export const USAGE =
  'usage: npm run cards -- register --seller <studio|candles|copy> --rpc <url> --registry <address> [--key-file <path>]\n' +
  '       npm run cards -- wallet --seller <id> --rpc <url> --registry <address> [--key-file <path>]\n' +
  '                        (--wallet-key-file <path> | --wallet <address> --typed-data | --wallet <address> --deadline <unix s> --signature <0x...>) [--deadline-s <1-300>]\n' +
  '       npm run cards -- feedback --rpc <url> --registry <reputation registry> --feedback <file.json> [--key-file <path>]\n' +
  "  the owner's key is read from --key-file or DECK_OWNER_KEY, the wallet's from --wallet-key-file or DECK_AGENT_WALLET_KEY,\n" +
  "  feedback's client key from --key-file or DECK_CLIENT_KEY, never from an argument;\n" +
  "  the card's URL is DECK_PUBLIC_URL/cards/<seller>";

/** ERC-8004's identity registry, as far as registering and the agentWallet go. */
export const IDENTITY_ABI = [
  'function register(string agentURI) returns (uint256 agentId)',
  'event Registered(uint256 indexed agentId, string agentURI, address indexed owner)',
  'function ownerOf(uint256 agentId) view returns (address)',
  'function getAgentWallet(uint256 agentId) view returns (address)',
  'function setAgentWallet(uint256 agentId, address newWallet, uint256 deadline, bytes signature)',
];

export const fail = (message: string, code = 1): number => {
  process.stderr.write(`${message}\n`);
  return code;
};

/** A key, from a file or the environment: an argument would leave it in the shell's history. */
export async function keyOf(keyFile: string | undefined, env: 'DECK_OWNER_KEY' | 'DECK_AGENT_WALLET_KEY' | 'DECK_CLIENT_KEY'): Promise<string | null> {
  const raw = keyFile ? await readFile(keyFile, 'utf8') : process.env[env];
  return raw?.trim() || null;
}

/** A signer of the key, or why not (the key itself never appears). */
export function walletOf(key: string, whose: string): Wallet | string {
  try {
    return new Wallet(key);
  } catch {
    return `the ${whose} key is not a private key (0x and 64 hex digits)`;
  }
}

/** Changes the cards file's fields `change` names and keeps everything else as written, in one rename. */
export async function rewriteCards(path: string, change: (file: CardsJson) => void): Promise<void> {
  const file = JSON.parse(await readFile(path, 'utf8')) as CardsJson;
  change(file);
  await writeFile(`${path}.tmp`, `${JSON.stringify(file, null, 2)}\n`);
  await rename(`${path}.tmp`, path);
}
export type CardsJson = Record<string, unknown> & { sellers: Record<string, Record<string, unknown>>; erc8004: Record<string, unknown> };

/** Why a transaction reverted, in the contract's own words when it gave them. */
export const revertOf = (error: unknown): string => {
  const e = error as { reason?: string | null; shortMessage?: string; message?: string };
  return e.reason ?? e.shortMessage ?? e.message ?? String(error);
};

/** The chain's id, asked of the RPC itself, so the registration names the chain it was made on. */
export async function chainIdOf(rpc: string): Promise<number> {
  const answer = expectOk('the chain', await callJson('the chain', rpc, { method: 'POST', body: { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] } }));
  const result = (answer as { result?: unknown }).result;
  if (typeof result !== 'string') throw new Error(`the chain at ${rpc} did not answer eth_chainId: ${JSON.stringify(answer)}`);
  return Number(BigInt(result));
}

