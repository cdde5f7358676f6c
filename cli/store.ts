import { parseArgs } from 'node:util';
import { copyToPostgres } from '../store/copy.js';

const USAGE = 'usage: npm run store -- copy --from <data directory> --to postgres://user:password@host:5432/database';

// `npm run store -- copy`: moves a JSON deployment into an empty PostgreSQL database and verifies every ledger there.
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { from: { type: 'string' }, to: { type: 'string' } } });
  if (positionals[0] !== 'copy' || positionals.length !== 1 || !values.from || !values.to || !/^postgres(ql)?:\/\/\S+$/.test(values.to)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    const copied = await copyToPostgres(values.from, values.to);
    const blobs = Object.entries(copied.blobs).map(([k, n]) => `${n} ${k}`).join(', ');
    process.stdout.write(
      `copied ${copied.documents.length} documents (${copied.documents.join(', ')}), ${copied.tapeDays} tape days, ${blobs}\n` +
        copied.ledgers.map((l) => `  ledger ${l.name}: ${l.entries} entries, verified, head ${l.head ?? 'none'}\n`).join('') +
        `every ledger verified in the database\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`copy refused: ${(error as Error).message}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
