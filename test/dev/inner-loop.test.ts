import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateFunctionCommand, GetFunctionConfigurationCommand, InvokeCommand, LambdaClient, UpdateFunctionCodeCommand } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatSummary } from '../../src/deploy/summary';
import { runDevLoop } from '../../src/dev/loop';
import { codeDirectory, unpacked } from '../../src/local/runtime/code';
import { walkFiles } from '../../src/package/files';
import { WatchedFiles } from '../../src/package/watched-files';
import { writeZip, zipEntry } from '../../src/package/zip';
import { LOCAL_CREDENTIALS, startTestCloud, startTestService, type TestCloud, type TestService } from '../helpers/local-cloud';

/** Zip bytes of `files` (name → text), as fw writes them. */
function zipOf(files: Record<string, string>): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'fw-inner-loop-zip-'));
  try {
    writeZip(join(dir, 'code.zip'), Object.entries(files).map(([name, text]) => zipEntry(name, Buffer.from(text), false)));
    return readFileSync(join(dir, 'code.zip'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const handler = (answer: string) => `const dep = require('dep');\nexports.handler = async () => ${JSON.stringify(answer)} + ' ' + dep.value;\n`;
const DEP = { 'node_modules/dep/package.json': '{"name":"dep","main":"index.js"}', 'node_modules/dep/index.js': 'exports.value = "dep-1";\n', 'node_modules/dep/lib/more.js': '// more\n' };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');

const lambdaApi = suite<{ t: TestCloud; lambda: LambdaClient }>('the local Lambda takes in a package shared by several functions');
lambdaApi.before(async context => {
  context.t = await startTestCloud();
  context.lambda = new LambdaClient({ endpoint: context.t.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
});
lambdaApi.after(async context => {
  context.lambda.destroy();
  await context.t.stop();
});

lambdaApi('UpdateFunctionCode with S3Bucket/S3Key sets CodeSha256 and CodeSize, unpacks the object once for every function, and links unchanged folders', async ({ t, lambda }) => {
  const names = ['shared-a', 'shared-b', 'shared-c'];
  const first = zipOf({ 'index.js': handler('one'), ...DEP });
  await t.s3.send(new CreateBucketCommand({ Bucket: 'code' }));
  await t.s3.send(new PutObjectCommand({ Bucket: 'code', Key: 'v1/app.zip', Body: first }));
  for (const name of names) {
    await lambda.send(new CreateFunctionCommand({ FunctionName: name, Runtime: 'nodejs20.x', Role: 'arn:aws:iam::000000000000:role/r', Handler: 'index.handler', Code: { S3Bucket: 'code', S3Key: 'v1/app.zip' } }));
  }
  const invoke = async (name: string) => JSON.parse(new TextDecoder().decode((await lambda.send(new InvokeCommand({ FunctionName: name }))).Payload));
  assert.equal(await Promise.all(names.map(invoke)), ['one dep-1', 'one dep-1', 'one dep-1']);

  const second = zipOf({ 'index.js': handler('two'), ...DEP });
  await t.s3.send(new PutObjectCommand({ Bucket: 'code', Key: 'v2/app.zip', Body: second }));
  const before = unpacked.count;
  const updated = await Promise.all(names.map(name => lambda.send(new UpdateFunctionCodeCommand({ FunctionName: name, S3Bucket: 'code', S3Key: 'v2/app.zip' }))));
  assert.equal(
    updated.map(u => [u.FunctionName, u.CodeSha256, u.CodeSize, u.LastUpdateStatus]),
    names.map(name => [name, sha256(second), second.length, 'Successful']),
  );
  assert.is(unpacked.count - before, 1, 'one package, unpacked once for three functions');
  const configuration = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'shared-b' }));
  assert.equal([configuration.CodeSha256, configuration.CodeSize], [sha256(second), second.length]);

  // The data folder: node_modules of the new code is a link to the one unpacked with the first package.
  const dir = codeDirectory(t.dataDir, sha256(second));
  assert.ok(lstatSync(join(dir, 'node_modules')).isSymbolicLink());
  assert.is(realpathSync(join(dir, 'node_modules')), realpathSync(join(codeDirectory(t.dataDir, sha256(first)), 'node_modules')));
  assert.is(readlinkSync(join(dir, 'node_modules')).startsWith('..'), true, 'a relative link: the data folder can move');
  assert.ok(lstatSync(join(dir, 'index.js')).isFile());
  assert.equal(await Promise.all(names.map(invoke)), ['two dep-1', 'two dep-1', 'two dep-1']);

  // A module required through the link keeps its path under the function's folder (--preserve-symlinks), as under /var/task.
  const third = zipOf({ 'index.js': "exports.handler = async () => require.resolve('dep');\n", ...DEP });
  await t.s3.send(new PutObjectCommand({ Bucket: 'code', Key: 'v3/app.zip', Body: third }));
  await lambda.send(new UpdateFunctionCodeCommand({ FunctionName: 'shared-a', S3Bucket: 'code', S3Key: 'v3/app.zip' }));
  assert.is(await invoke('shared-a'), join(codeDirectory(t.dataDir, sha256(third)), 'node_modules', 'dep', 'index.js'));
});

lambdaApi.run();

const trust = suite('WatchedFiles: what packaging takes on the watcher\'s word');

trust('nothing is trusted until a package began with the watcher ready and finished; then only files without an event', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'fw-watched-')));
  try {
    writeFileSync(join(root, 'a.js'), 'a');
    writeFileSync(join(root, 'b.js'), 'b');
    mkdirSync(join(root, 'lib'));
    writeFileSync(join(root, 'lib', 'c.js'), 'c');
    symlinkSync(join(root, 'lib'), join(root, 'linked'));
    const watched = new WatchedFiles(root);
    let walks = 0;
    const walk = () => (walks++, walkFiles(root));
    const trusted = (t: ReturnType<WatchedFiles['begin']>['trust']) => t.walk('k', walk).filter(file => t.unchanged(file)).map(file => file.path);

    const first = watched.begin();
    assert.equal(trusted(first.trust), []);
    first.done(true);
    watched.note('change', join(root, 'a.js'));
    const second = watched.begin();
    assert.equal(trusted(second.trust), ['b.js', 'lib/c.js']);
    assert.is(walks, 1, 'the walk is reused: nothing was added or removed');
    second.done(true);

    watched.note('add', join(root, 'd.js'));
    const third = watched.begin();
    assert.equal(trusted(third.trust), ['a.js', 'b.js', 'lib/c.js']);
    assert.is(walks, 2, 'walked again after a file was added');
    third.done(false);

    const afterFailure = watched.begin();
    assert.equal(trusted(afterFailure.trust), [], 'after a failed package nothing is trusted');
    afterFailure.done(true);
    watched.fail();
    assert.equal(trusted(watched.begin().trust), [], 'after a watcher error nothing is trusted');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

trust.run();

const SERVICE = `service: shared
provider:
  name: aws
  runtime: nodejs20.x
functions:
${['a', 'b', 'c'].map(key => `  ${key}:\n    handler: handler.${key}\n    events:\n      - httpApi: 'GET /${key}'\n`).join('')}`;
const HANDLERS = (answer: string) => `const dep = require('dep');\n${['a', 'b', 'c'].map(key => `exports.${key} = async () => ({ statusCode: 200, body: '${key} ${answer} ' + dep.value });`).join('\n')}\n`;

interface Context extends TestService {
  out: string;
  controller: AbortController;
  loop: Promise<void>;
}

const dev = suite<Context>('fw dev: one edit reaches every function sharing the zip');

const eventually = async <T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> => {
  for (const until = Date.now() + ms; ; ) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Waited ${ms} ms for ${what}`);
    await new Promise(resolve => setTimeout(resolve, 50));
  }
};

dev.before(async context => {
  Object.assign(context, await startTestService({ 'fw.yml': SERVICE, 'handler.js': HANDLERS('one') }));
  mkdirSync(join(context.service, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(context.service, 'node_modules', 'dep', 'index.js'), 'exports.value = "dep-1";\n');
  context.out = '';
  context.controller = new AbortController();
  const write = (text: string) => void (context.out += text);
  context.loop = runDevLoop(
    { cwd: context.service, local: { port: Number(new URL(context.cloud.url).port) }, timings: true, logIntervalMs: 60_000 },
    { write, error: error => write(`ERROR ${(error as Error).message}\n`), reporter: { info: line => write(`${line}\n`), progress: () => undefined, event: () => undefined }, summary: r => formatSummary(r.summary, false) },
    context.controller.signal,
  );
});

dev.after(async context => {
  context.controller.abort();
  await context.loop;
  await context.stop();
});

dev('after one edit every function answers the new code, a dependency edited meanwhile included; each round says where its time went', async context => {
  const out = await eventually('the first deploy', () => (context.out.includes('Watching ') ? context.out : undefined));
  const base = /GET - (\S+)\/a\n/.exec(out)![1];
  const answers = (expected: string[]) =>
    eventually(`the functions to answer ${expected.join(', ')}`, async () => {
      const bodies = await Promise.all(['a', 'b', 'c'].map(key => fetch(`${base}/${key}`).then(r => r.text()).catch(() => '')));
      return JSON.stringify(bodies) === JSON.stringify(expected) ? bodies : undefined;
    });
  await answers(['a one dep-1', 'b one dep-1', 'c one dep-1']);

  let mark = context.out.length;
  const before = unpacked.count;
  writeFileSync(join(context.service, 'handler.js'), HANDLERS('two'));
  assert.equal(await answers(['a two dep-1', 'b two dep-1', 'c two dep-1']), ['a two dep-1', 'b two dep-1', 'c two dep-1']);
  const round = await eventually('the round to end', () => (/\nTimings: .*\n/.test(context.out.slice(mark)) ? context.out.slice(mark) : undefined));
  assert.match(round, /✔ Hotswapped a, b, c \(\d+\.\d s\)\n/);
  assert.match(round, /\nTimings: debounce \d+ ms, syntax \d+ ms, cleanup wait \d+ ms, package \d+ ms, package\/plugins \d+ ms, .*hotswap\/upload \d+ ms, hotswap\/update functions \d+ ms, hotswap\/state \d+ ms = \d+ ms\n/);
  assert.is(unpacked.count - before, 1, 'the shared zip is unpacked once for the three functions');

  // A change inside node_modules starts no round, but the next package does not take the old file on trust.
  writeFileSync(join(context.service, 'node_modules', 'dep', 'index.js'), 'exports.value = "dep-2";\n');
  await new Promise(resolve => setTimeout(resolve, 500));
  mark = context.out.length;
  writeFileSync(join(context.service, 'handler.js'), HANDLERS('three'));
  assert.equal(await answers(['a three dep-2', 'b three dep-2', 'c three dep-2']), ['a three dep-2', 'b three dep-2', 'c three dep-2']);
  assert.not.match(context.out, 'ERROR');
  assert.match(await eventually('the round to end', () => (context.out.slice(mark).includes('Timings: ') ? context.out.slice(mark) : undefined)), '\nChanged: handler.js\n');
});

dev.run();
