import { readFile } from 'node:fs/promises';
import { Contract, getAddress, isAddress, keccak256, type ContractTransactionResponse } from 'ethers';
import { z } from 'zod';
import { REPUTATION_ABI } from '../../engine/erc8004/feedback.js';
import { rpcProvider } from '../../upstream/chain/provider.js';
import { chainIdOf, fail, keyOf, revertOf, USAGE, walletOf } from './common.js';

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
export async function giveFeedback(values: { rpc?: string; registry?: string; feedback?: string; 'key-file'?: string }): Promise<number> {
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

