import { readFile, rename, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Contract, getAddress, isAddress, isHexString, keccak256, Wallet, type ContractTransactionResponse, type JsonRpcProvider } from 'ethers';
import { z } from 'zod';
import { agentWalletRefusal, agentWalletTypedData, MAX_DEADLINE_S } from '../engine/erc8004/agent-wallet.js';
import { REPUTATION_ABI } from '../engine/erc8004/feedback.js';
import { readConfig } from '../config/env.js';
import { loadCards } from '../config/files.js';
import { SELLER_IDS } from '../config/sellers.js';
import { rpcProvider } from '../upstream/chain/provider.js';
import { callJson, expectOk } from '../upstream/http.js';

const USAGE =
  'usage: npm run cards -- register --seller <studio|candles|copy> --rpc <url> --registry <address> [--key-file <path>]\n' +
  '       npm run cards -- wallet --seller <id> --rpc <url> --registry <address> [--key-file <path>]\n' +
  '                        (--wallet-key-file <path> | --wallet <address> --typed-data | --wallet <address> --deadline <unix s> --signature <0x...>) [--deadline-s <1-300>]\n' +
  '       npm run cards -- feedback --rpc <url> --registry <reputation registry> --feedback <file.json> [--key-file <path>]\n' +
  "  the owner's key is read from --key-file or DECK_OWNER_KEY, the wallet's from --wallet-key-file or DECK_AGENT_WALLET_KEY,\n" +
  "  feedback's client key from --key-file or DECK_CLIENT_KEY, never from an argument;\n" +
  "  the card's URL is DECK_PUBLIC_URL/cards/<seller>";

/** ERC-8004's identity registry, as far as registering and the agentWallet go. */
const REGISTRY = [
  'function register(string agentURI) returns (uint256 agentId)',
  'event Registered(uint256 indexed agentId, string agentURI, address indexed owner)',
  'function ownerOf(uint256 agentId) view returns (address)',
  'function getAgentWallet(uint256 agentId) view returns (address)',
  'function setAgentWallet(uint256 agentId, address newWallet, uint256 deadline, bytes signature)',
];

const fail = (message: string, code = 1): number => {
  process.stderr.write(`${message}\n`);
  return code;
};

/** A key, from a file or the environment: an argument would leave it in the shell's history. */
async function keyOf(keyFile: string | undefined, env: 'DECK_OWNER_KEY' | 'DECK_AGENT_WALLET_KEY' | 'DECK_CLIENT_KEY'): Promise<string | null> {
  const raw = keyFile ? await readFile(keyFile, 'utf8') : process.env[env];
  return raw?.trim() || null;
}

/** A signer of the key, or why not (the key itself never appears). */
function walletOf(key: string, whose: string): Wallet | string {
  try {
    return new Wallet(key);
  } catch {
    return `the ${whose} key is not a private key (0x and 64 hex digits)`;
  }
}

/** Changes the cards file's fields `change` names and keeps everything else as written, in one rename. */
async function rewriteCards(path: string, change: (file: CardsJson) => void): Promise<void> {
  const file = JSON.parse(await readFile(path, 'utf8')) as CardsJson;
  change(file);
  await writeFile(`${path}.tmp`, `${JSON.stringify(file, null, 2)}\n`);
  await rename(`${path}.tmp`, path);
}
type CardsJson = Record<string, unknown> & { sellers: Record<string, Record<string, unknown>>; erc8004: Record<string, unknown> };

/** Why a transaction reverted, in the contract's own words when it gave them. */
const revertOf = (error: unknown): string => {
  const e = error as { reason?: string | null; shortMessage?: string; message?: string };
  return e.reason ?? e.shortMessage ?? e.message ?? String(error);
};

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

interface WalletArgs {
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
async function setWallet(values: WalletArgs): Promise<number> {
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
  const read = new Contract(c.registry, REGISTRY, c.provider);
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

  const contract = new Contract(c.registry, REGISTRY, owner.connect(c.provider));
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

/** An epoch's feedback as the deck prepared it (the epoch's `feedback` in a series read): what the command reads of it. */
const PreparedFeedback = z.object({
  registry: z.string().regex(/^eip155:\d+:0x[0-9a-fA-F]{40}$/),
  client: z.string().nullable(),
  args: z.object({
    agentId: z.string().regex(/^\d+$/),
    value: z.number().int(),
    valueDecimals: z.number().int().min(0).max(18),
    tag1: z.string(),
    tag2: z.string(),
    endpoint: z.string(),
    feedbackURI: z.string(),
    feedbackHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  }),
});

/** What a data: URI carries, as bytes; null for another URI (its content is not the command's to fetch). */
const dataUriBytes = (uri: string): Uint8Array | null => {
  const m = /^data:[^,]*;base64,(.*)$/s.exec(uri);
  return m ? Buffer.from(m[1]!, 'base64') : null;
};

/**
 * Gives an epoch's ERC-8004 feedback on a reputation registry, as the deck prepared it: signed by the client's key
 * (the wallet the feedback file names, when it names one), sent as giveFeedback with the prepared arguments, and
 * answered with the NewFeedback event's index. A chain, registry, client or file hash that does not match what was
 * prepared is refused before anything is sent; the registry's own refusal (its owner giving itself feedback) is said
 * in its words.
 */
async function giveFeedback(values: { rpc?: string; registry?: string; feedback?: string; 'key-file'?: string }): Promise<number> {
  const { rpc, registry } = values;
  if (!rpc || !registry || !isAddress(registry) || !values.feedback) return fail(USAGE, 2);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(values.feedback, 'utf8'));
  } catch (error) {
    return fail(`--feedback ${values.feedback} is not a JSON file: ${(error as Error).message}`);
  }
  const parsed = PreparedFeedback.safeParse(raw);
  if (!parsed.success) return fail(`--feedback is not an epoch's feedback as the deck answers it: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const { args, client } = parsed.data;
  const [, preparedChain, preparedRegistry] = parsed.data.registry.split(':') as [string, string, string];
  if (getAddress(preparedRegistry) !== getAddress(registry)) return fail(`the feedback was prepared for the reputation registry ${preparedRegistry}, not ${getAddress(registry)}`);
  const bytes = dataUriBytes(args.feedbackURI);
  if (bytes && keccak256(bytes) !== args.feedbackHash.toLowerCase()) return fail(`the feedback file's keccak256 is ${keccak256(bytes)}, not the feedbackHash ${args.feedbackHash}`);

  const key = await keyOf(values['key-file'], 'DECK_CLIENT_KEY');
  if (!key) return fail('no client key: put it in a file named by --key-file, or in DECK_CLIENT_KEY');
  const signer = walletOf(key, 'client');
  if (typeof signer === 'string') return fail(signer);
  if (client && getAddress(client) !== signer.address) return fail(`the feedback file names the client ${getAddress(client)}, but the key is ${signer.address}'s: send it from the wallet it names`);

  const chainId = await chainIdOf(rpc);
  if (String(chainId) !== preparedChain) return fail(`the feedback is for chain ${preparedChain}, but ${rpc} is chain ${chainId}`);
  const provider = rpcProvider(rpc, chainId);
  try {
    const contract = new Contract(getAddress(registry), REPUTATION_ABI, signer.connect(provider));
    let tx: ContractTransactionResponse;
    try {
      tx = (await contract.getFunction('giveFeedback')(args.agentId, args.value, args.valueDecimals, args.tag1, args.tag2, args.endpoint, args.feedbackURI, args.feedbackHash)) as ContractTransactionResponse;
    } catch (error) {
      return fail(`the registry refused giveFeedback: ${revertOf(error)}`);
    }
    const receipt = await tx.wait();
    if (!receipt) return fail(`the transaction ${tx.hash} was not mined`);
    const event = receipt.logs
      .filter((l) => getAddress(l.address) === getAddress(registry))
      .map((l) => contract.interface.parseLog(l))
      .find((e) => e?.name === 'NewFeedback');
    if (!event) return fail(`the transaction ${tx.hash} emitted no NewFeedback: is ${registry} an ERC-8004 reputation registry on chain ${chainId}?`);
    process.stdout.write(
      `feedback ${event.args.feedbackIndex} of ${signer.address} for agent ${args.agentId} on eip155:${chainId}:${getAddress(registry)}: ` +
        `${args.value} (${args.valueDecimals} decimals), ${args.tag1} ${args.tag2} (tx ${tx.hash}, block ${receipt.blockNumber})\n`,
    );
    return 0;
  } finally {
    provider.destroy();
  }
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        seller: { type: 'string' },
        rpc: { type: 'string' },
        registry: { type: 'string' },
        'key-file': { type: 'string' },
        'wallet-key-file': { type: 'string' },
        wallet: { type: 'string' },
        'typed-data': { type: 'boolean' },
        deadline: { type: 'string' },
        'deadline-s': { type: 'string' },
        signature: { type: 'string' },
        feedback: { type: 'string' },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`, 2);
  }
  const [command, ...rest] = parsed.positionals;
  if (rest.length > 0) return fail(USAGE, 2);
  if (command === 'register') return register(parsed.values);
  if (command === 'wallet') return setWallet(parsed.values);
  if (command === 'feedback') return giveFeedback(parsed.values);
  return fail(USAGE, 2);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`npm run cards failed: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
