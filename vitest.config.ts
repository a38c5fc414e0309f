import { createRequire } from 'node:module';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Three projects, three speeds (test/README.md):
 * - unit: pure code, no database, process or socket (test/support/unit-guard.ts refuses them);
 * - db: PGlite and PostgreSQL, each test on a clone of one migrated image built per run;
 * - system: what must spawn processes, open sockets or run the built CLI.
 * A test file belongs to exactly one project: unit is everything the other two do not list.
 */
const db = [
  'test/db/**/*.test.ts',
  'test/commands/apply-invalid-cron.test.ts',
  'test/commands/runs/**/*.test.ts',
  'test/hostile/cli-injection.test.ts',
  'test/hostile/plan-invalid.test.ts',
  'test/hostile/plan-trust/export-import-links.test.ts',
  'test/hostile/plan-trust/history-visible-text.test.ts',
  'test/hostile/plan-trust/secrets-*.test.ts',
  'test/hostile/plan-trust/symlinked-manifests.test.ts',
  'test/hostile/plan-trust/policy-loosening.test.ts',
  'test/hostile/plan-trust/self-accepted-risk.test.ts',
  'test/hostile/sql-injection-*.test.ts',
  'test/operations/apply-large.test.ts',
  'test/operations/dev-session.test.ts',
  'test/operations/dev-quick-start.test.ts',
  'test/operations/plan-apply-*.test.ts',
  'test/operations/plan-missing-grant.test.ts',
  'test/operations/plan-pglite-from-source.test.ts',
  'test/operations/runs/**/*.test.ts',
  'test/runner/alerts/alert-replicas-postgres.test.ts',
  'test/runner/alerts/alert-rules.test.ts',
  'test/runner/attempt-times.test.ts',
  'test/runner/concurrency-postgres.test.ts',
  'test/runner/dependencies-postgres.test.ts',
  'test/runner/dependency-joins-postgres.test.ts',
  'test/runner/dependency-joins.test.ts',
  'test/runner/inputs-frozen.test.ts',
  'test/runner/deadline-slots.test.ts',
  'test/runner/definition-cache.test.ts',
  'test/runner/final-events.test.ts',
  'test/runner/lease-fencing.test.ts',
  'test/runner/local-queue.test.ts',
  'test/runner/loop-error-cause.test.ts',
  'test/runner/missing-secrets.test.ts',
  'test/runner/queue-handoff-postgres.test.ts',
  'test/runner/queue-handoff-other-database.test.ts',
  'test/runner/runner-flow.test.ts',
  'test/runner/run-items.test.ts',
  'test/runner/runner-lifecycle.test.ts',
  'test/runner/workflow-steps-postgres.test.ts',
];
const system = [
  'test/commands/command-table.test.ts',
  'test/commands/exit-codes-cli.test.ts',
  'test/commands/runs/run-details.test.ts',
  'test/commands/gitops/workflows.test.ts',
  'test/db/connection-loss-postgres.test.ts',
  'test/db/migrations-drift.test.ts',
  'test/db/pglite-server.test.ts',
  'test/db/pgbouncer.test.ts',
  'test/github/**/*.test.ts',
  'test/http/dashboard/dashboard-handler.test.ts',
  'test/http/dashboard/dashboard-browser.test.ts',
  'test/http/metrics-replicas.test.ts',
  'test/http/server.test.ts',
  'test/commands/runner-http.test.ts',
  'test/hostile/plan-trust/sticky-comment-hijack.test.ts',
  'test/commands/gitops/github-comment.test.ts',
  'test/manifest/schema-validator.test.ts',
  'test/operations/actor-git.test.ts',
  'test/operations/apply-concurrency.test.ts',
  'test/operations/database-startup.test.ts',
  'test/operations/embedded-database.test.ts',
  'test/operations/embedded-sharing.test.ts',
  'test/operations/embedded-lock-race.test.ts',
  'test/operations/plan-against-ref.test.ts',
  'test/hostile/plan-trust/attack-*.test.ts',
  'test/operations/plan-cli.test.ts',
  'test/runner/alerts/alert-delivery.test.ts',
  'test/runner/alerts/alert-takeover-postgres.test.ts',
  'test/runner/alerts/alert-sigkill.test.ts',
  'test/runner/executors/command-executor.test.ts',
  'test/runner/executors/http-executor.test.ts',
  'test/runner/redacted-tails.test.ts',
  'test/runner/sigkill-recovery.test.ts',
  'test/runner/job-reaper-lazy.test.ts',
  'test/runner/executors/process-group.test.ts',
  'test/runner/safety-guard.test.ts',
  'test/runner/workflow-sigkill.test.ts',
];
/** The CI-size chaos run: `npm run test:chaos`, after `npm test` in .ci/run. */
const chaos = ['test/chaos/**/*.test.ts'];

/**
 * graphile-worker and pg-boss are dev dependencies for the queue hand-off tests. Where they are
 * installed elsewhere (a machine whose node_modules is shared), CRONFORM_QUEUE_PEERS names that
 * prefix (`npm install --prefix DIR graphile-worker@0.17.3 pg-boss@10.4.2`) and they resolve from it.
 */
const queuePeers = process.env.CRONFORM_QUEUE_PEERS;
const queuePeerAlias = queuePeers
  ? Object.fromEntries(['graphile-worker', 'pg-boss'].map((name) => [name, createRequire(path.join(queuePeers, 'package.json')).resolve(name)]))
  : {};

export default defineConfig({
  resolve: { alias: queuePeerAlias },
  test: {
    // vitest's default is one worker less than the cores: a single worker on a 2-core machine, idle
    // while a test waits on PostgreSQL, a child process or a timer. Two keep both cores busy; the
    // database suites create their own databases and can share the server.
    pool: 'forks',
    maxWorkers: 2,
    // A 2-core CI host running both workers, PostgreSQL and the processes the tests start: a db or
    // system test that needs 20 s alone has been seen to need over 30 s there. The unit project
    // keeps a tighter bound below; these bound a hang, they do not measure speed.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // oclif prints through console.log; let it reach process.stdout so tests can capture it.
    disableConsoleIntercept: true,
    projects: [
      {
        extends: true,
        // Pure files share one module graph per worker (no per-file re-import): most of a pure file's
        // time was importing, not testing.
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...db, ...system, ...chaos], setupFiles: ['test/support/unit-guard.ts'], isolate: false, testTimeout: 30_000 },
      },
      {
        extends: true,
        test: { name: 'db', include: db, exclude: [...configDefaults.exclude, ...system], globalSetup: ['test/support/global-setup.ts'] },
      },
      {
        extends: true,
        test: { name: 'system', include: system, globalSetup: ['test/support/built-cli-setup.ts', 'test/support/global-setup.ts'] },
      },
      {
        extends: true,
        test: { name: 'chaos', include: chaos, globalSetup: ['test/support/built-cli-setup.ts'] },
      },
    ],
  },
});
