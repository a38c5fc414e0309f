/**
 * Issue 20 item 4, lever (a): would spawning command jobs from a small helper process bring real
 * jobs closer to the bare spawn('true') reference? Node's spawn is a fork of the whole calling
 * process, so its cost (page tables copied, then a copy-on-write fault for every page written
 * before and after the child execs) grows with the caller's written heap; a runner holds more of
 * one than the benchmark's reference loop does. Compared in the same run, rounds alternated,
 * each mode in a fresh process:
 *   small   — spawn('true') × N, 10 at a time, from a bare process (the benchmark's reference)
 *   large   — the same from a process holding HEAP MB of live objects and writing some of them
 *             and new garbage between spawns, as a runner does (its claims and outcomes)
 *   helper  — that large process asking a small child helper (over a pipe, newline-delimited
 *             JSON, one write per event-loop turn) to spawn; the helper reports pid, exit and the
 *             output's byte counts
 * Prints jobs/s per mode and the machine's CPU per job (/proc/stat, every process on it).
 *
 *   node bench/runner/spawn-helper-experiment.js [--count 2000] [--rounds 3] [--heap 150] [--churn 64]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
const CONCURRENCY = 10;

function option(argv, name, fallback) {
  const index = argv.indexOf(name);
  return index === -1 ? fallback : Number(argv[index + 1]);
}

/** Busy and total jiffies of the whole machine. */
function readMachineTicks() {
  const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
  const fields = cpu.split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + fields[4];
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/** The live heap of a runner-sized process: ~`megabytes` MB of small objects, kept. */
function allocateHeap(megabytes) {
  const objects = [];
  // ~100 bytes an object with its string and array slot.
  const count = Math.round((megabytes * 1024 * 1024) / 100);
  for (let i = 0; i < count; i += 1) objects.push({ id: i, name: `object-${i}`, value: i * 2 });
  return objects;
}

/** Per job, what a runner does to its heap: new garbage (`churnKb` KB) and writes to old objects. */
function churn(heap, churnKb) {
  if (heap.length === 0) return 0;
  let sum = 0;
  const garbage = [];
  for (let i = 0; i < churnKb * 10; i += 1) garbage.push({ at: i, text: `row-${i}` });
  for (let i = 0; i < 200; i += 1) {
    const object = heap[(Math.random() * heap.length) | 0];
    object.value += 1;
    sum += object.value;
  }
  return sum + garbage.length;
}

function spawnDirect() {
  return new Promise((resolve, reject) => {
    const child = spawn('true', [], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
}

/** The runner's side of the helper: one pipe each way, lines batched per event-loop turn. */
function startHelperClient() {
  const helper = spawn(process.execPath, [SELF, '--helper'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  let nextId = 0;
  let out = '';
  let scheduled = false;
  let pending = '';
  helper.stdout.setEncoding('utf8');
  helper.stdout.on('data', (chunk) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const message = JSON.parse(pending.slice(0, end));
      pending = pending.slice(end + 1);
      if (message.t === 'x') {
        waiting.get(message.id)(message.code);
        waiting.delete(message.id);
      }
    }
  });
  return {
    spawn(argv) {
      nextId += 1;
      const id = nextId;
      out += `${JSON.stringify({ id, argv, cwd: process.cwd(), env: { PATH: process.env.PATH } })}\n`;
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          helper.stdin.write(out);
          out = '';
        });
      }
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    stop() {
      helper.stdin.end();
      return new Promise((resolve) => helper.on('exit', resolve));
    },
    get pid() {
      return helper.pid;
    },
  };
}

/** The helper: spawns what it is asked to, reports pid, exit code and output sizes. */
function runHelper() {
  let pending = '';
  let out = '';
  let scheduled = false;
  const send = (message) => {
    out += `${JSON.stringify(message)}\n`;
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        process.stdout.write(out);
        out = '';
      });
    }
  };
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const { id, argv, cwd, env } = JSON.parse(pending.slice(0, end));
      pending = pending.slice(end + 1);
      const child = spawn(argv[0], argv.slice(1), { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      send({ t: 's', id, pid: child.pid });
      let bytes = 0;
      child.stdout.on('data', (data) => (bytes += data.length));
      child.stderr.on('data', (data) => (bytes += data.length));
      child.on('error', () => send({ t: 'x', id, code: null, bytes }));
      child.on('close', (code) => send({ t: 'x', id, code, bytes }));
    }
  });
}

async function runMode(mode, count, heapMb, churnKb) {
  const heap = mode === 'small' ? [] : allocateHeap(heapMb);
  const helper = mode === 'helper' ? startHelperClient() : null;
  const spawnTrue = helper ? () => helper.spawn(['true']) : spawnDirect;
  // One spawn first: the helper (or the process) is started and warm before the clock starts.
  await spawnTrue();
  const helperCpuBefore = helper ? readProcessCpuMs(helper.pid) : 0;
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  let sink = 0;
  const lane = async () => {
    while (next < count) {
      next += 1;
      sink += churn(heap, churnKb);
      await spawnTrue();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpuBefore);
  const helperCpuMs = helper ? readProcessCpuMs(helper.pid) - helperCpuBefore : 0;
  if (helper) await helper.stop();
  return { elapsedMs, selfCpuMs: (cpu.user + cpu.system) / 1000, helperCpuMs, rssMb: process.memoryUsage().rss / 2 ** 20, sink };
}

function readProcessCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function runChild(mode, count, heapMb, churnKb) {
  return new Promise((resolve, reject) => {
    const before = readMachineTicks();
    const child = spawn(process.execPath, [SELF, '--mode', mode, String(count), String(heapMb), String(churnKb)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (data) => (text += data));
    child.on('error', reject);
    child.on('close', (code) => {
      const after = readMachineTicks();
      if (code !== 0) return reject(new Error(`${mode} exited with ${code}`));
      // Ticks are 10 ms on Linux, summed over the cores.
      resolve({ ...JSON.parse(text), machineCpuMs: (after.busy - before.busy) * 10 });
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(argv) {
  const count = option(argv, '--count', 2000);
  const rounds = option(argv, '--rounds', 3);
  const heapMb = option(argv, '--heap', 150);
  const churnKb = option(argv, '--churn', 64);
  const modes = ['small', 'large', 'helper'];
  console.log(`spawn('true') × ${count}, ${CONCURRENCY} at a time; large heap ${heapMb} MB, ${churnKb} KB of garbage a job; ${rounds} rounds; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const results = new Map(modes.map((mode) => [mode, []]));
  for (let round = 1; round <= rounds; round += 1) {
    for (const mode of modes) {
      const result = await runChild(mode, count, heapMb, churnKb);
      results.get(mode).push(result);
      console.log(
        `  round ${round} ${mode.padEnd(6)} ${(count / (result.elapsedMs / 1000)).toFixed(0).padStart(5)}/s  process CPU ${((result.selfCpuMs * 1000) / count).toFixed(0)} µs/job` +
          `  helper ${((result.helperCpuMs * 1000) / count).toFixed(0)} µs/job  machine ${((result.machineCpuMs * 1000) / count).toFixed(0)} µs/job  RSS ${result.rssMb.toFixed(0)} MB`,
      );
    }
  }
  const small = median(results.get('small').map((r) => count / (r.elapsedMs / 1000)));
  console.log('\n| mode | jobs/s (median) | vs small | process CPU µs/job | helper CPU µs/job | machine CPU µs/job |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const mode of modes) {
    const rows = results.get(mode);
    const rate = median(rows.map((r) => count / (r.elapsedMs / 1000)));
    const perJob = (key) => median(rows.map((r) => (r[key] * 1000) / count)).toFixed(0);
    console.log(`| ${mode} | ${rate.toFixed(0)} | ${(rate / small).toFixed(2)}× | ${perJob('selfCpuMs')} | ${perJob('helperCpuMs')} | ${perJob('machineCpuMs')} |`);
  }
  console.log(`load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

const argv = process.argv.slice(2);
if (argv[0] === '--helper') runHelper();
else if (argv[0] === '--mode') {
  const [, mode, count, heapMb, churnKb] = argv;
  const result = await runMode(mode, Number(count), Number(heapMb), Number(churnKb));
  process.stdout.write(JSON.stringify(result));
} else await main(argv);
