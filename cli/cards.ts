import { parseArgs } from 'node:util';
import { fail, USAGE } from './cards/common.js';
import { giveFeedback } from './cards/feedback.js';
import { register } from './cards/register.js';
import { setWallet } from './cards/wallet.js';

// npm run cards -- register | wallet | feedback: the deck's side of ERC-8004 (docs/cards.md, docs/series.md).

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
