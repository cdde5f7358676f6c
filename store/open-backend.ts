import type { Config } from '../config/env.js';
import type { Backend } from './backend.js';
import { jsonBackend } from './json-backend.js';
import { pgBackend } from './pg/pg-backend.js';

/**
 * The store's backend the configuration names: PostgreSQL when DECK_DATABASE_URL is set, else JSON files (`sweep`:
 * see jsonBackend; only the deck at its start asks for it).
 */
export const openBackend = (config: Pick<Config, 'dataDir' | 'databaseUrl'>, options: { sweep?: boolean } = {}): Promise<Backend> =>
  config.databaseUrl ? pgBackend(config.databaseUrl) : jsonBackend(config.dataDir, options);
