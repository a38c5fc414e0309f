/**
 * Setup file of the `unit` project: pure code only. A unit test that starts a child process, opens
 * a socket (PostgreSQL, HTTP) or queries PGlite fails at once with a message naming the project it
 * belongs in, so the fast loop cannot slowly fill with I/O.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';

function refuse(what: string): never {
  throw new Error(`${what} in a unit test: move the test to the db project (databases) or the system project (processes, network) in vitest.config.ts`);
}

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
  (childProcess as unknown as Record<string, unknown>)[name] = () => refuse(`child_process.${name}`);
}
syncBuiltinESMExports();
net.Socket.prototype.connect = function connect() {
  return refuse('a network connection');
};
net.Server.prototype.listen = function listen() {
  return refuse('a listening socket');
};
for (const name of ['query', 'exec', 'transaction'] as const) {
  (PGlite.prototype as unknown as Record<string, unknown>)[name] = () => refuse('a PGlite database');
}
