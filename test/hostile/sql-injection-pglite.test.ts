import { createPgliteDatabase } from '../support/databases.js';
import { defineSqlInjectionSuite } from './sql-injection.suite.js';

defineSqlInjectionSuite('PGlite', async () => {
  const database = await createPgliteDatabase();
  return { database, cleanup: () => database.close() };
}, 80);
