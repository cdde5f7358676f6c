import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Contract, ContractFactory, FetchRequest, HDNodeWallet, JsonRpcProvider, Network, type InterfaceAbi, type Signer } from 'ethers';
import compiled from '../fixtures/contracts/compiled.json' with { type: 'json' };

const require = createRequire(import.meta.url);
const ROOT = join(import.meta.dirname, '..', '..');

/** anvil's dev accounts come from this mnemonic, each funded with 10,000 ether. */
const MNEMONIC = 'test test test test test test test test test test test junk';
export const CHAIN_ID = 31337;
export const CAIP2 = `eip155:${CHAIN_ID}`;

/** The anvil binary that ships inside the platform's npm package: nothing is downloaded. */
export function anvilBinary(): string {
  const arch = ({ x64: 'amd64', arm64: 'arm64' } as Record<string, string>)[process.arch] ?? process.arch;
  return join(dirname(require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`)), 'bin', 'anvil');
}

export type ContractName = keyof typeof compiled.contracts;

export interface LocalChain {
  rpc: string;
  provider: JsonRpcProvider;
  /** anvil's funded dev accounts, connected to the chain. */
  accounts: HDNodeWallet[];
  /** Deploys `name` from `from` (the first account), with its constructor's arguments. */
  deploy(name: ContractName, from?: Signer, args?: unknown[]): Promise<Contract>;
  /** A contract already deployed, as `from` sees it. */
  at(name: ContractName, address: string, from?: Signer): Contract;
  /** Mines `blocks` empty blocks (each a confirmation more for what came before). */
  mine(blocks?: number): Promise<void>;
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
  stop(): Promise<void>;
}

/** A real local chain: anvil on a free port, each transaction mined into its own block at once. */
export async function startChain(): Promise<LocalChain> {
  const child: ChildProcess = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(CHAIN_ID), '--accounts', '10', '--mnemonic', MNEMONIC], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let out = '';
  const rpc = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`anvil did not start: ${out.slice(-2000)}`)), 30_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Listening on ([\d.]+:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`http://${m[1]}`);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`anvil exited with ${code}: ${out.slice(-2000)}`)));
  });
  const network = Network.from(CHAIN_ID);
  const provider = new JsonRpcProvider(new FetchRequest(rpc), network, { staticNetwork: network, cacheTimeout: -1 });
  const accounts = Array.from({ length: 10 }, (_, i) => HDNodeWallet.fromPhrase(MNEMONIC, undefined, `m/44'/60'/0'/0/${i}`).connect(provider));
  const artifact = (name: ContractName) => compiled.contracts[name] as { abi: InterfaceAbi; bytecode: string };
  return {
    rpc,
    provider,
    accounts,
    async deploy(name, from = accounts[0]!, args = []) {
      const { abi, bytecode } = artifact(name);
      const contract = await new ContractFactory(abi, bytecode, from).deploy(...args);
      await contract.waitForDeployment();
      return contract as Contract;
    },
    at: (name, address, from = accounts[0]!) => new Contract(address, artifact(name).abi, from),
    async mine(blocks = 1) {
      await provider.send('anvil_mine', [`0x${blocks.toString(16)}`]);
    },
    snapshot: () => provider.send('evm_snapshot', []) as Promise<string>,
    async revert(id) {
      const reverted = (await provider.send('evm_revert', [id])) as boolean;
      if (!reverted) throw new Error(`evm_revert ${id} failed`);
    },
    async stop() {
      provider.destroy();
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * A plans file (the operator's catalogue) for a test: the repository's own, changed by `change`, written to a new
 * temporary directory. Answers its path.
 */
export async function plansFile(change: (plans: PlansJson) => void): Promise<string> {
  const plans = JSON.parse(await readFile(join(ROOT, 'config', 'plans.json'), 'utf8')) as PlansJson;
  change(plans);
  const path = join(await mkdtemp(join(tmpdir(), 'deck-plans-')), 'plans.json');
  await writeFile(path, JSON.stringify(plans));
  return path;
}

/** Pays plans on one chain only (the house's spot chain and payment per call are then on that chain too). */
export function onlyChain(plans: PlansJson, chain: Record<string, unknown> & { id: string }): void {
  plans.chains = [chain];
  if (plans.spot) plans.spot.chain = chain.id;
  if (plans.per_call) plans.per_call.chain = chain.id;
}

/** The plans file as JSON (the fields tests change). */
export interface PlansJson {
  chains: Record<string, unknown>[];
  treasury: string | null;
  holder: { allowance_per_nft: number; max_nfts: number } | null;
  spot: { chain: string; administrators: string[] } | null;
  per_call: { chain: string; max_timeout_s: number; tools: Record<string, string> } | null;
  [key: string]: unknown;
}
