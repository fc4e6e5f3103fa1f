import { createHash } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateFunctionCommand, GetFunctionCommand, GetFunctionConfigurationCommand, InvokeCommand, LambdaClient, UpdateFunctionCodeCommand } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatSummary } from '../../src/deploy/summary';
import { runDevLoop } from '../../src/dev/loop';
import { codeDirectory, unpacked } from '../../src/local/runtime/code';
import { walkFiles } from '../../src/package/files';
import { WatchedFiles } from '../../src/package/watched-files';
import { writeZip, zipEntry } from '../../src/artifacts/zip';
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

/** An endpoint in front of the local cloud that passes everything on and records each Lambda call (`GET /2015-03-31/functions/name`). */
async function lambdaRecorder(target: string): Promise<{ url: string; calls: string[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  const calls: string[] = [];
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/2015-03-31/functions/') && !req.url.includes('/invocations')) calls.push(`${req.method} ${req.url.split('?')[0]}`);
    const forwarded = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, response => {
      res.writeHead(response.statusCode ?? 500, response.headers);
      response.pipe(res);
    });
    forwarded.on('error', error => res.destroy(error));
    req.pipe(forwarded);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise(resolve => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const TWO = `service: known
provider:
  name: aws
  runtime: nodejs20.x
functions:
  a:
    handler: handler.a
  b:
    handler: handler.b
`;
const TWO_HANDLERS = (answer: string) => `exports.a = async () => 'a ${answer}';\nexports.b = async () => 'b ${answer}';\n`;

const known = suite<Context & { recorder: Awaited<ReturnType<typeof lambdaRecorder>>; lambda: LambdaClient }>('fw dev remembers what its Lambda calls answered');

// fw dev at an endpoint signs with the environment's credentials, as it would for AWS.
const savedCredentials = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
const restore = (name: string, value: string | undefined) => (value === undefined ? delete process.env[name] : (process.env[name] = value));

known.before(async context => {
  process.env.AWS_ACCESS_KEY_ID = LOCAL_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = LOCAL_CREDENTIALS.secretAccessKey;
  Object.assign(context, await startTestService({ 'fw.yml': TWO, 'handler.js': TWO_HANDLERS('one') }));
  context.recorder = await lambdaRecorder(context.cloud.url);
  context.lambda = new LambdaClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  context.out = '';
  context.controller = new AbortController();
  const write = (text: string) => void (context.out += text);
  context.loop = runDevLoop(
    { cwd: context.service, endpoint: context.recorder.url, logIntervalMs: 60_000 },
    { write, error: error => write(`ERROR ${(error as Error).message}\n`), reporter: { info: line => write(`${line}\n`), progress: () => undefined, event: () => undefined }, summary: r => formatSummary(r.summary, false) },
    context.controller.signal,
  );
});

known.after(async context => {
  context.controller.abort();
  await context.loop;
  context.lambda.destroy();
  await context.recorder.close();
  await context.stop();
  restore('AWS_ACCESS_KEY_ID', savedCredentials.id);
  restore('AWS_SECRET_ACCESS_KEY', savedCredentials.secret);
});

known('only the first hotswap asks for the functions (GetFunction); later rounds update them from what the last one answered, and each runs its new code', async context => {
  await eventually('the first deploy', () => (context.out.includes('Watching ') ? context.out : undefined));
  const invoke = async (name: string) => JSON.parse(new TextDecoder().decode((await context.lambda.send(new InvokeCommand({ FunctionName: name }))).Payload));
  const round = async (answer: string, count: number) => {
    context.recorder.calls.length = 0;
    writeFileSync(join(context.service, 'handler.js'), TWO_HANDLERS(answer));
    await eventually(`hotswap ${count} in:\n${context.out}`, () => (context.out.split('✔ Hotswapped').length - 1 === count ? true : undefined));
    assert.equal([await invoke('known-dev-a'), await invoke('known-dev-b')], [`a ${answer}`, `b ${answer}`]);
    return [...context.recorder.calls].sort();
  };
  assert.equal(await round('two', 1), [
    'GET /2015-03-31/functions/known-dev-a',
    'GET /2015-03-31/functions/known-dev-b',
    'PUT /2015-03-31/functions/known-dev-a/code',
    'PUT /2015-03-31/functions/known-dev-b/code',
  ]);
  assert.equal(await round('three', 2), ['PUT /2015-03-31/functions/known-dev-a/code', 'PUT /2015-03-31/functions/known-dev-b/code']);
  // What the functions report is what AWS would: the hash and size of the zip the round uploaded.
  const zip = readFileSync(join(context.service, '.serverless', 'known.zip'));
  const reported = await context.lambda.send(new GetFunctionCommand({ FunctionName: 'known-dev-b' }));
  assert.equal([reported.Configuration?.CodeSha256, reported.Configuration?.CodeSize], [sha256(zip), zip.length]);
  assert.not.match(context.out, 'ERROR');
});

known.run();
