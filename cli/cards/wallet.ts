import { Contract, getAddress, isAddress, isHexString, type ContractTransactionResponse, type JsonRpcProvider, type Wallet } from 'ethers';
import { agentWalletRefusal, agentWalletTypedData, MAX_DEADLINE_S } from '../../engine/erc8004/agent-wallet.js';
import { readConfig } from '../../config/env.js';
import { loadCards } from '../../config/files.js';
import { SELLER_IDS } from '../../config/sellers.js';
import { rpcProvider } from '../../upstream/chain/provider.js';
import { chainIdOf, fail, IDENTITY_ABI, keyOf, revertOf, rewriteCards, USAGE, walletOf } from './common.js';

export interface WalletArgs {
  seller?: string;
  rpc?: string;
  registry?: string;
  'key-file'?: string;
  'wallet-key-file'?: string;
  wallet?: string;
  'typed-data'?: boolean;
  deadline?: string;
  signature?: string;
  'deadline-s'?: string;
}

/**
 * Sets a seller's agentWallet on the identity registry as ERC-8004 asks: the wallet signs AgentWalletSet (EIP-712) with
 * a deadline, the agent's owner sends setAgentWallet with that signature. The wallet's key may sign here
 * (--wallet-key-file), or elsewhere: --typed-data prints what to sign, and --signature with --deadline sends what was
 * signed. A signature the registry would refuse (deadline passed or too far, another signer) is refused by name before
 * anything is sent; once set, the registry is read back and the cards file keeps the wallet, its tx and block.
 */
export async function setWallet(values: WalletArgs): Promise<number> {
  const { seller, rpc, registry } = values;
  if (!seller || !(SELLER_IDS as string[]).includes(seller) || !rpc || !registry || !isAddress(registry)) return fail(USAGE, 2);
  const deadlineS = Number(values['deadline-s'] ?? 240);
  if (!Number.isInteger(deadlineS) || deadlineS < 1 || deadlineS > MAX_DEADLINE_S) return fail(`--deadline-s is 1 to ${MAX_DEADLINE_S} seconds past the chain's time`, 2);
  const outside = values.signature !== undefined || values.deadline !== undefined;
  if (outside && (!values.signature || !isHexString(values.signature) || !/^\d+$/.test(values.deadline ?? ''))) return fail('--signature (0x and hex) and --deadline (unix seconds) go together', 2);
  if (values.wallet !== undefined && !isAddress(values.wallet)) return fail('--wallet is an address (0x and 40 hex digits)', 2);

  const path = readConfig().files.cards;
  const entry = loadCards(path).sellers[seller];
  if (entry?.agent_id === null || entry?.agent_id === undefined) return fail(`${seller} is not registered: run npm run cards -- register --seller ${seller} first`);
  const agentId = BigInt(entry.agent_id);

  let signer: Wallet | null = null;
  if (!values.wallet) {
    const key = await keyOf(values['wallet-key-file'], 'DECK_AGENT_WALLET_KEY');
    if (!key) return fail('no wallet: put its key in a file named by --wallet-key-file or in DECK_AGENT_WALLET_KEY, or name it with --wallet to sign elsewhere');
    const made = walletOf(key, 'wallet');
    if (typeof made === 'string') return fail(made);
    signer = made;
  } else if (!values['typed-data'] && !outside) return fail('--wallet signs elsewhere: print what to sign with --typed-data, then send it with --signature and --deadline', 2);
  const newWallet = getAddress(signer?.address ?? values.wallet!);

  const chainId = await chainIdOf(rpc);
  const provider = rpcProvider(rpc, chainId);
  try {
    return await submitWallet(values, { seller, path, registry: getAddress(registry), chainId, provider, agentId, newWallet, signer, deadlineS });
  } finally {
    provider.destroy();
  }
}

async function submitWallet(
  values: WalletArgs,
  c: { seller: string; path: string; registry: string; chainId: number; provider: JsonRpcProvider; agentId: bigint; newWallet: string; signer: Wallet | null; deadlineS: number },
): Promise<number> {
  const read = new Contract(c.registry, IDENTITY_ABI, c.provider);
  const agentOwner = getAddress((await read.getFunction('ownerOf')(c.agentId)) as string);
  const now = BigInt((await c.provider.getBlock('latest'))!.timestamp);
  const deadline = values.deadline !== undefined ? BigInt(values.deadline) : now + BigInt(c.deadlineS);
  const typed = agentWalletTypedData(c.chainId, c.registry, { agentId: c.agentId, newWallet: c.newWallet, owner: agentOwner, deadline });
  if (values['typed-data']) {
    process.stdout.write(`${JSON.stringify(typed, null, 2)}\n`);
    return 0;
  }
  const signature = values.signature ?? (await c.signer!.signTypedData(typed.domain, typed.types, typed.message));
  const refused = agentWalletRefusal(typed, signature, now);
  if (refused) return fail(`${refused.code}: ${refused.message}; nothing was sent`);

  const key = await keyOf(values['key-file'], 'DECK_OWNER_KEY');
  if (!key) return fail("no owner key: put it in a file named by --key-file, or in DECK_OWNER_KEY");
  const owner = walletOf(key, 'owner');
  if (typeof owner === 'string') return fail(owner);
  if (owner.address !== agentOwner) return fail(`the owner key is ${owner.address}'s, but agent ${c.agentId} is ${agentOwner}'s: only its owner (or an operator) sets its wallet`);

  const contract = new Contract(c.registry, IDENTITY_ABI, owner.connect(c.provider));
  let tx: ContractTransactionResponse;
  try {
    tx = (await contract.getFunction('setAgentWallet')(c.agentId, c.newWallet, deadline, signature)) as ContractTransactionResponse;
  } catch (error) {
    return fail(`the registry refused setAgentWallet: ${revertOf(error)}`);
  }
  const receipt = await tx.wait();
  if (!receipt) return fail(`the transaction ${tx.hash} was not mined`);
  const set = getAddress((await read.getFunction('getAgentWallet')(c.agentId)) as string);
  if (set !== c.newWallet) return fail(`the transaction ${tx.hash} was mined but the registry holds ${set} as agent ${c.agentId}'s wallet`);
  await rewriteCards(c.path, (file) => {
    file.sellers[c.seller] = { ...file.sellers[c.seller], wallet: { address: c.newWallet, tx: tx.hash, block: receipt.blockNumber } };
  });
  process.stdout.write(
    `${c.seller}'s agentWallet is ${c.newWallet} on eip155:${c.chainId}:${c.registry} (agent ${c.agentId}, tx ${tx.hash}, block ${receipt.blockNumber}); ${c.path} updated\n`,
  );
  return 0;
}
