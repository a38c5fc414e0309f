/**
 * Reading the plans of the statements a piece of code runs: a test replaces one of them with
 * EXPLAIN ANALYZE of itself (it still runs) and asserts how many rows each scan read, which does
 * not depend on the machine's speed.
 */
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../../src/db/client.js';

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Every node of a plan that reads `table` (a name, or a test of the name: a table's partitions). */
export function scansOf(node: PlanNode, table: string | RegExp): PlanNode[] {
  const name = node['Relation Name'];
  const own = name !== undefined && (typeof table === 'string' ? name === table : table.test(name)) ? [node] : [];
  return [...own, ...(node.Plans ?? []).flatMap((child) => scansOf(child, table))];
}

/** The most rows one node read: those it produced and those its filter dropped, over all its loops. */
export const rowsRead = (nodes: PlanNode[]) => Math.max(...nodes.map((node) => (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops']));

/**
 * `executor` with each statement matching `statement` run as EXPLAIN ANALYZE of itself, its plan
 * given to `onPlan`; the statement returns no rows to its caller.
 */
export function explainingExecutor<E extends Executor>(executor: E, statement: RegExp, onPlan: (plan: PlanNode) => void): E {
  return new Proxy(executor, {
    get(target, property, receiver) {
      if (property !== 'execute') return Reflect.get(target, property, receiver) as unknown;
      return async (query: SQL) => {
        const text = new PgDialect().sqlToQuery(query).sql;
        if (!statement.test(text)) return target.execute(query);
        const result = (await target.execute(sql`explain (analyze, format json) ${query}`)) as unknown as { rows: Array<{ 'QUERY PLAN': unknown }> };
        const json = result.rows[0]!['QUERY PLAN'];
        onPlan((typeof json === 'string' ? JSON.parse(json) : json)[0].Plan as PlanNode);
        return { rows: [] };
      };
    },
  });
}

/**
 * Runs `call` in a transaction (rolled back) with the statement matching `statement` replaced by
 * EXPLAIN ANALYZE of it; returns that plan.
 */
export async function explainStatement(database: Database, statement: RegExp, call: (executor: Executor) => Promise<unknown>): Promise<PlanNode> {
  let plan: PlanNode | undefined;
  await database.db
    .transaction(async (tx) => {
      await call(explainingExecutor(tx, statement, (found) => (plan = found)));
      tx.rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Error) || !/rollback/i.test(error.message)) throw error;
    });
  if (!plan) throw new Error(`no statement matched ${statement}`);
  return plan;
}

/** `database` whose transactions run on `wrap(tx)`. */
function wrappingTransactions(database: Database, wrap: (tx: Executor) => Executor): Database {
  const db = new Proxy(database.db, {
    get(target, property, receiver) {
      if (property !== 'transaction') return Reflect.get(target, property, receiver) as unknown;
      return <T>(work: (tx: Executor) => Promise<T>) => target.transaction((tx) => work(wrap(tx)));
    },
  });
  return new Proxy(database, { get: (target, property, receiver) => (property === 'db' ? db : (Reflect.get(target, property, receiver) as unknown)) });
}

/** `database` whose transactions explain the statements matching `statement` (explainingExecutor). */
export function explainingDatabase(database: Database, statement: RegExp, onPlan: (plan: PlanNode) => void): Database {
  return wrappingTransactions(database, (tx) => explainingExecutor(tx, statement, onPlan));
}

/**
 * `database` whose transactions tell `onStatement` when each of their statements starts and ends,
 * by its text: the order in which concurrent work reached the database.
 */
export function observedDatabase(database: Database, onStatement: (event: 'start' | 'end', text: string) => void): Database {
  return wrappingTransactions(database, (tx) =>
    new Proxy(tx, {
      get(target, property, receiver) {
        if (property !== 'execute') return Reflect.get(target, property, receiver) as unknown;
        return async (query: SQL) => {
          const text = new PgDialect().sqlToQuery(query).sql.trim();
          onStatement('start', text);
          try {
            return await target.execute(query);
          } finally {
            onStatement('end', text);
          }
        };
      },
    }),
  );
}
