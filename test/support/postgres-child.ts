import { startPostgres } from './postgres-server.js';

// Keeps the test run's PostgreSQL server (test/support/postgres-global.ts): says its URL on one line, then stops it and
// removes its files when its input closes.
const server = await startPostgres();
process.stdout.write(`${server.url}\n`);
process.stdin.on('end', () => void server.stop().then(() => process.exit(0), (error: unknown) => {
  process.stderr.write(`the test PostgreSQL server did not stop cleanly: ${String(error)}\n`);
  process.exit(1);
}));
process.stdin.resume();
