import { readFile, rename, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Contract, getAddress, isAddress, Wallet, type ContractTransactionResponse } from 'ethers';
import { readConfig } from '../config/env.js';
import { loadCards } from '../config/files.js';
import { SELLER_IDS } from '../config/sellers.js';
import { rpcProvider } from '../upstream/chain/provider.js';
import { callJson, expectOk } from '../upstream/http.js';

const USAGE =
  'usage: npm run cards -- register --seller <studio|candles|copy> --rpc <url> --registry <address> [--key-file <path>]\n' +
  "  the owner's key is read from --key-file or DECK_OWNER_KEY, never from an argument; the card's URL is DECK_PUBLIC_URL/cards/<seller>";

/** ERC-8004's identity registry, as far as registering goes. */
const REGISTRY = [
  'function register(string agentURI) returns (uint256 agentId)',
  'event Registered(uint256 indexed agentId, string agentURI, address indexed owner)',
];

const fail = (message: string, code = 1): number => {
  process.stderr.write(`${message}\n`);
  return code;
};

/** The owner's key, from a file or the environment: an argument would leave it in the shell's history. */
async function ownerKey(keyFile: string | undefined): Promise<string | null> {
  const raw = keyFile ? await readFile(keyFile, 'utf8') : process.env.DECK_OWNER_KEY;
  return raw?.trim() || null;
}

/** The chain's id, asked of the RPC itself, so the registration names the chain it was made on. */
async function chainIdOf(rpc: string): Promise<number> {
  const answer = expectOk('the chain', await callJson('the chain', rpc, { method: 'POST', body: { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] } }));
  const result = (answer as { result?: unknown }).result;
  if (typeof result !== 'string') throw new Error(`the chain at ${rpc} did not answer eth_chainId: ${JSON.stringify(answer)}`);
  return Number(BigInt(result));
}

async function register(values: { seller?: string; rpc?: string; registry?: string; 'key-file'?: string }): Promise<number> {
  const { seller, rpc, registry } = values;
  if (!seller || !(SELLER_IDS as string[]).includes(seller) || !rpc || !registry || !isAddress(registry)) return fail(USAGE, 2);
  const config = readConfig();
  if (!config.publicUrl) return fail('set DECK_PUBLIC_URL: the card URL registries reach is DECK_PUBLIC_URL/cards/<seller>');
  const key = await ownerKey(values['key-file']);
  if (!key) return fail("no owner key: put it in a file named by --key-file, or in DECK_OWNER_KEY");
  let owner: Wallet;
  try {
    owner = new Wallet(key);
  } catch {
    return fail('the owner key is not a private key (0x and 64 hex digits)');
  }

  const path = config.files.cards;
  const cards = loadCards(path);
  const entry = cards.sellers[seller];
  if (entry?.agent_id !== null && entry?.agent_id !== undefined) {
    return fail(`${seller} is registered already, as agent ${entry.agent_id} (tx ${entry.tx}); clear its entry in ${path} to register again`);
  }

  const chainId = await chainIdOf(rpc);
  const provider = rpcProvider(rpc, chainId);
  const agentURI = `${config.publicUrl}/cards/${seller}`;
  const contract = new Contract(getAddress(registry), REGISTRY, owner.connect(provider));
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

  // Only these fields change; everything else in the file is kept as written.
  const file = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown> & { sellers: Record<string, unknown>; erc8004: Record<string, unknown> };
  file.sellers[seller] = { agent_id: Number(agentId), tx: tx.hash, block: receipt.blockNumber };
  file.erc8004 = { chain_id: chainId, registry: getAddress(registry) };
  file.owner ??= owner.address;
  await writeFile(`${path}.tmp`, `${JSON.stringify(file, null, 2)}\n`);
  await rename(`${path}.tmp`, path);
  process.stdout.write(
    `${seller} registered as agent ${agentId} on eip155:${chainId}:${getAddress(registry)} (tx ${tx.hash}, block ${receipt.blockNumber}, owner ${owner.address}); ${path} updated\n`,
  );
  return 0;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { seller: { type: 'string' }, rpc: { type: 'string' }, registry: { type: 'string' }, 'key-file': { type: 'string' } },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`, 2);
  }
  if (parsed.positionals[0] !== 'register' || parsed.positionals.length !== 1) return fail(USAGE, 2);
  return register(parsed.values);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`npm run cards failed: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
