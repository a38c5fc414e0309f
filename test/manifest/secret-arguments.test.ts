import { describe, expect, it } from 'vitest';
import { findSecretInArguments, findSecretInText } from '../../src/manifest/secret-arguments.js';
import { isSensitiveKeyName, matchUrlCredentials } from '../../src/manifest/secret-patterns.js';

// Vendor-shaped samples are assembled at run time so that no file holds a scannable token.
const join = (...parts: string[]) => parts.join('');
const GITHUB = join('gh', 'p_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8');
const AWS = join('AK', 'IA', 'Z7Y6X5W4V3U2T1S0');

describe('findSecretInArguments', () => {
  it.each([
    [['git', 'clone', `https://${GITHUB}@github.com/org/repo`], 2, 'GitHub token'],
    [['aws', 's3', 'ls', '--access-key', AWS], 4, 'AWS access key id'],
    [['sh', '-c', `curl -fsS https://api.example.com/x | sh && echo ${GITHUB}`], 2, 'GitHub token'],
    [['psql', 'postgres://app:hunter2@db.internal/app', '-c', 'select 1'], 1, 'URL with a password'],
    [['sh', '-c', 'pg_dump "postgresql://app:hunter2@db/app" > /tmp/x'], 2, 'URL with a password'],
    [['node', 'sync.js', 'DSN=mongodb+srv://svc:s3cret@cluster0.example.net/db'], 2, 'URL with a password'],
    [['redis-cli', '-u', 'redis://:p4ssw0rd@cache:6379'], 2, 'URL with a password'],
    [['backup', '--password=hunter2'], 1, 'value of an option named like a credential (password)'],
    [['backup', '--db-password', 'hunter2'], 2, 'value of an option named like a credential (db-password)'],
    [['backup', 'password=hunter2'], 1, 'value of an option named like a credential (password)'],
    [['sh', '-c', 'API_TOKEN=abc123def backup --quiet'], 2, 'value of an option named like a credential (API_TOKEN)'],
    [['curl', '-H', 'Authorization: Bearer abc123def456'], 2, 'authorization credential'],
    [['curl', '-H', 'X-Api-Key: abc123def456'], 2, 'value of a header named like a credential (X-Api-Key)'],
    [['sh', '-c', "curl -H 'Authorization: Token abc123def456' https://x"], 2, 'authorization credential'],
    [['mysqldump', '-uroot', '-phunter2', 'app'], 2, 'MySQL password option'],
    [['sh', '-c', 'mysql -uapp -phunter2 app < q.sql'], 2, 'MySQL password option'],
  ])('%j: argument %i, %s', (args, index, kind) => {
    const found = findSecretInArguments(args);
    expect({ index: found?.index, kind: found?.match.kind }).toEqual({ index, kind });
    expect(JSON.stringify(found)).not.toMatch(/hunter2|s3cret|p4ssw0rd|abc123|A1b2C3|Z7Y6X5/);
  });

  it.each([
    [['node', 'jobs/daily-report.js', '--date', '{{businessDate}}']],
    [['backup', '--password-file', '/run/secrets/db']],
    [['backup', '--password', '$DB_PASSWORD']],
    [['backup', '--password=${DB_PASSWORD}']],
    [['sh', '-c', 'backup --token "$API_TOKEN" --password="$(cat /run/secrets/pw)"']],
    [['curl', '-H', 'Authorization: Bearer $API_TOKEN', 'https://example.com']],
    [['curl', '-H', 'Authorization: Bearer {{runId}}']],
    [['psql', '--password', 'reports', '-c', 'select 1']],
    [['mysql', '--password', 'app']],
    [['psql', '--no-password', '-h', 'db']],
    [['mkdir', '-p', '/tmp/x']],
    [['server', '-p8080']],
    [['psql', 'postgres://app@db.internal/app']],
    [['sh', '-c', 'curl -s https://api.example.com/healthz?page=2']],
    [['backup', '--token-url', 'https://auth.example.com/token']],
    [['python', 'train.py', '--max-tokens', '4096']],
    [['echo', 'password reset mail sent']],
  ])('leaves %j alone', (args) => {
    expect(findSecretInArguments(args)).toBeUndefined();
  });
});

describe('findSecretInText', () => {
  it.each([
    ['grant_type=client_credentials&client_secret=abc123def', 'value of an option named like a credential (client_secret)'],
    ['{"user":"svc","password":"hunter2"}', 'value of a field named like a credential (password)'],
    ['{"items":[{"apiKey":12345678}]}', 'value of a field named like a credential (apiKey)'],
    [`token: ${GITHUB}`, 'GitHub token'],
  ])('%s', (text, kind) => {
    expect(findSecretInText(text)?.kind).toBe(kind);
  });

  it.each(['{"date":"{{businessDate}}","password":"{{runId}}"}', 'date={{businessDate}}&mode=full', 'refresh the reports', '{"token":"$TOKEN"}'])('leaves %s alone', (text) => {
    expect(findSecretInText(text)).toBeUndefined();
  });
});

describe('URLs and names', () => {
  it.each([
    ['https://api.example.com/x?api_key=abc', 'URL with a credential parameter "api_key"'],
    ['https://api.example.com/x?token=abc', 'URL with a credential parameter "token"'],
    ['https://blob.example.com/x?sv=2024&sig=abcdef', 'URL with a credential parameter "sig"'],
    ['https://N4wq8ZkT1pRb7YcV2mXs@git.example.com/r.git', 'URL with a token as user name'],
  ])('%s', (url, kind) => {
    expect(matchUrlCredentials(url)?.kind).toBe(kind);
  });

  it.each([['PGPASSWORD', true], ['MYSQL_PWD', true], ['DB_PWD', true], ['PWD', false], ['OLDPWD', false]])('%s → %s', (name, expected) => {
    expect(isSensitiveKeyName(name)).toBe(expected);
  });
});
