import { Contract, getAddress, isAddress, type ContractTransactionResponse } from 'ethers';
import { readConfig } from '../../config/env.js';
import { loadCards } from '../../config/files.js';
import { SELLER_IDS } from '../../config/sellers.js';
import { rpcProvider } from '../../upstream/chain/provider.js';
import { chainIdOf, fail, IDENTITY_ABI, keyOf, rewriteCards, USAGE, walletOf } from './common.js';

/** npm run cards -- register: a seller's card registered on ERC-8004's identity registry (docs/cards.md). */
export async function register(values: { seller?: string; rpc?: string; registry?: string; 'key-file'?: string }): Promise<number> {
  const { seller, rpc, registry } = values;
  if (!seller || !(SELLER_IDS as string[]).includes(seller) || !rpc || !registry || !isAddress(registry)) return fail(USAGE, 2);
  const config = readConfig();
  if (!config.publicUrl) return fail('set DECK_PUBLIC_URL: the card URL registries reach is DECK_PUBLIC_URL/cards/<seller>');
  const key = await keyOf(values['key-file'], 'DECK_OWNER_KEY');
  if (!key) return fail("no owner key: put it in a file named by --key-file, or in DECK_OWNER_KEY");
  const owner = walletOf(key, 'owner');
  if (typeof owner === 'string') return fail(owner);

  const path = config.files.cards;
  const cards = loadCards(path);
  const entry = cards.sellers[seller];
  if (entry?.agent_id !== null && entry?.agent_id !== undefined) {
    return fail(`${seller} is registered already, as agent ${entry.agent_id} (tx ${entry.tx}); clear its entry in ${path} to register again`);
  }

  const chainId = await chainIdOf(rpc);
  const provider = rpcProvider(rpc, chainId);
  const agentURI = `${config.publicUrl}/cards/${seller}`;
  const contract = new Contract(getAddress(registry), IDENTITY_ABI, owner.connect(provider));
  const tx = (await contract.getFunction('register')(agentURI)) as ContractTransactionResponse;
  const receipt = await tx.wait();
  provider.destroy();
  if (!receipt) return fail(`the transaction ${tx.hash} was not mined`);
  const event = receipt.logs
    .filter((l) => l.address.toLowerCase() === registry.toLowerCase())
    .map((l) => contract.interface.parseLog(l))
    .find((e) => e?.name === 'Registered' && e.args[1] === agentURI);
  if (!event) return fail(`the transaction ${tx.hash} emitted no Registered event for ${agentURI}: is ${registry} an ERC-8004 identity registry on chain ${chainId}?`);
  const agentId = event.args[0] as bigint;
  if (agentId > BigInt(Number.MAX_SAFE_INTEGER)) return fail(`agent id ${agentId} is beyond what a JSON number holds exactly`);

  await rewriteCards(path, (file) => {
    file.sellers[seller] = { agent_id: Number(agentId), tx: tx.hash, block: receipt.blockNumber };
    file.erc8004 = { chain_id: chainId, registry: getAddress(registry) };
    file.owner ??= owner.address;
  });
  process.stdout.write(
    `${seller} registered as agent ${agentId} on eip155:${chainId}:${getAddress(registry)} (tx ${tx.hash}, block ${receipt.blockNumber}, owner ${owner.address}); ${path} updated\n`,
  );
  return 0;
}

