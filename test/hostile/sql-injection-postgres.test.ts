import { describe } from 'vitest';
import { migrateDatabase } from '../../src/db/migrate.js';
import { createPostgresDatabase, postgresServerUrl } from '../support/databases.js';
import { defineSqlInjectionSuite } from './sql-injection.suite.js';

describe.runIf(postgresServerUrl)('PostgreSQL', () => {
  defineSqlInjectionSuite('PostgreSQL', async () => {
    const server = await createPostgresDatabase();
    try {
      const database = await server.open();
      await migrateDatabase(database);
      return { database, cleanup: () => server.drop() };
    } catch (error) {
      await server.drop();
      throw error;
    }
  }, 80);
});
