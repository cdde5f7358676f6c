import type { Config } from '../config/env.js';
import type { Backend } from './backend.js';
import { jsonBackend } from './json-backend.js';
import { pgBackend } from './pg/pg-backend.js';

/** The store's backend the configuration names: PostgreSQL when DECK_DATABASE_URL is set, else JSON files. */
export const openBackend = (config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Backend> =>
  config.databaseUrl ? pgBackend(config.databaseUrl) : jsonBackend(config.dataDir);
