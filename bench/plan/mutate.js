/**
 * Copies a generated manifest repository and changes a fraction of its Schedules the way a busy
 * week of pull requests would: cron moves, timezone moves, retry and timeout tweaks, descriptions,
 * a few new schedules and a few removed files (archives). Deterministic for a seed.
 *
 * Removals stay at or under 10 so the mass-archive guard (more than 10 schedules or 20% at once,
 * SPEC §5) is not tripped: the benchmark times a plan, not a refusal.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRandom } from '../shared/seeded-random.js';

const ZONES = ['UTC', 'Asia/Seoul', 'Europe/Berlin', 'America/New_York', 'America/Los_Angeles', 'Australia/Sydney', 'Asia/Kolkata', 'America/Sao_Paulo', 'Europe/London', 'Asia/Tokyo'];
const MAX_REMOVALS = 10;
const DOCUMENT_SEPARATOR = '\n---\n';

function listYamlFiles(directory) {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.yaml'))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

/** Same cadence, other times: a daily job moves, an every-N-minutes job gets another N, a macro becomes explicit. */
function moveCron(cron, random) {
  const fields = cron.split(' ');
  if (cron.startsWith('@')) return { '@daily': '15 3 * * *', '@hourly': '20 * * * *', '@weekly': '0 6 * * MON', '@monthly': '0 4 2 * *' }[cron] ?? cron;
  const index = fields.length === 6 ? 1 : 0;
  const minute = fields[index];
  if (minute.startsWith('*/')) {
    fields[index] = `*/${random.pick(['5', '10', '15', '20', '30'].filter((n) => `*/${n}` !== minute))}`;
  } else {
    fields[index] = String((Number(minute) + random.int(1, 59)) % 60);
  }
  return fields.join(' ');
}

const KINDS = [
  ['cron', 0.3],
  ['timezone', 0.2],
  ['retry', 0.25],
  ['timeout', 0.1],
  ['description', 0.15],
];

function pickKind(random) {
  let roll = random.next();
  for (const [kind, weight] of KINDS) {
    if (roll < weight) return kind;
    roll -= weight;
  }
  return KINDS[0][0];
}

/** Returns the changed text and the kind of change actually made. */
function changeDocument(text, kind, random) {
  // dayMatch documents keep their cron: it must stay "both day fields restricted".
  if (kind === 'cron' && text.includes('\n  dayMatch:')) return changeDocument(text, 'timezone', random);
  return { kind, text: changeText(text, kind, random) };
}

function changeText(text, kind, random) {
  switch (kind) {
    case 'cron':
      return text.replace(/\n {2}cron: "([^"]+)"/, (_m, cron) => `\n  cron: "${moveCron(cron, random)}"`);
    case 'timezone':
      return text.replace(/\n {2}timezone: (\S+)/, (_m, zone) => `\n  timezone: ${random.pick(ZONES.filter((z) => z !== zone))}`);
    case 'retry':
      if (/maxAttempts: \d+/.test(text)) return text.replace(/maxAttempts: (\d+)/, (_m, n) => `maxAttempts: ${Number(n) + 1}`);
      return text.replace(/\n {2}timeout: (\S+)/, (line) => `${line}\n  retry: { maxAttempts: 3, backoff: exponential, initialDelay: 30s, maxDelay: 10m }`);
    case 'timeout':
      return text.replace(/\n {2}timeout: (\S+)/, (_m, timeout) => {
        const sameClass = ['30s', '2m', '4m'].includes(timeout) ? ['30s', '2m', '4m'] : ['5m', '20m', '1h'];
        return `\n  timeout: ${random.pick(sameClass.filter((t) => t !== timeout))}`;
      });
    default:
      return text.replace(/\n {2}description: ([^\n]+)/, (_m, description) => `\n  description: ${description}, revised`);
  }
}

/**
 * Copies `sourceDir` to `targetDir` and changes `Math.round(fraction × schedules)` of them.
 * Returns what was changed, per kind.
 */
export function writeChangedCopy(sourceDir, targetDir, { fraction, seed = 7 }) {
  rmSync(targetDir, { recursive: true, force: true });
  cpSync(sourceDir, targetDir, { recursive: true });
  const random = createRandom(seed);
  const files = listYamlFiles(targetDir).filter((file) => path.basename(file) !== 'policy.yaml');
  const documents = files.flatMap((file) => readFileSync(file, 'utf8').split(DOCUMENT_SEPARATOR).map((_, index) => ({ file, index })));
  const changeCount = Math.round(documents.length * fraction);
  // A partial Fisher–Yates shuffle picks the changed documents.
  for (let i = 0; i < changeCount; i += 1) {
    const j = random.int(i, documents.length - 1);
    [documents[i], documents[j]] = [documents[j], documents[i]];
  }
  const chosen = documents.slice(0, changeCount);
  const removals = Math.min(MAX_REMOVALS, Math.max(1, Math.round(changeCount * 0.008)));
  const creates = removals;
  const counts = { archive: 0, create: 0, cron: 0, timezone: 0, retry: 0, timeout: 0, description: 0 };
  const byFile = new Map();
  for (const document of chosen) byFile.set(document.file, [...(byFile.get(document.file) ?? []), document.index]);
  for (const [file, indexes] of byFile) {
    const parts = readFileSync(file, 'utf8').split(DOCUMENT_SEPARATOR);
    if (parts.length === 1 && counts.archive < removals) {
      rmSync(file);
      counts.archive += 1;
      continue;
    }
    for (const index of indexes) {
      if (counts.create < creates) {
        // A new schedule beside an old one: same body, a new name.
        parts.push(parts[index].replace(/^# yaml-language-server[^\n]*\n/, '').replace(/\n {2}name: (\S+)/, '\n  name: $1-v2').trimEnd());
        counts.create += 1;
        continue;
      }
      const { kind, text } = changeDocument(parts[index], pickKind(random), random);
      if (text === parts[index]) throw new Error(`a ${kind} change left a document of ${file} as it was`);
      parts[index] = text;
      counts[kind] += 1;
    }
    writeFileSync(file, parts.map((part) => part.trimEnd()).join(DOCUMENT_SEPARATOR) + '\n');
  }
  return { changed: Object.values(counts).reduce((a, b) => a + b, 0), counts };
}
