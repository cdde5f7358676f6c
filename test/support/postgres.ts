import { inject } from 'vitest';
import { databaseOn } from './database-on.js';

/** A new empty database on the test PostgreSQL server; answers its URL (the server is dropped whole at the end). */
export const freshDatabase = (): Promise<string> => databaseOn(inject('postgresUrl'));
