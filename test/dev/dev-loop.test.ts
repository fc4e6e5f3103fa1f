import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatSummary } from '../../src/deploy/summary';
import { runDevLoop } from '../../src/dev/loop';
import { isIgnored } from '../../src/dev/watch';
import { syntaxErrors } from '../../src/dev/syntax';
import { usersService } from './users-service';
import { startTestService, type TestService } from '../helpers/local-cloud';

const SERVICE = usersService('devloop');

const HANDLER = (greeting: string) => `
exports.users = async (event) => {
  console.log('users asked for', event.pathParameters.id);
  return { statusCode: 200, body: JSON.stringify({ greeting: ${JSON.stringify(greeting)}, id: event.pathParameters.id }) };
};
`;

/** Polls until `check` returns a value (not undefined), for at most `ms`; fails naming what it waited for. */
async function eventually<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 20000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Waited ${ms} ms for ${what}`);
    await new Promise(resolve => setTimeout(resolve, 100));
  }
}

/** The parsed body once the endpoint answers 200 with exactly `expected`. */
const answers = (url: string, expected: unknown) =>
  eventually(`${url} to answer ${JSON.stringify(expected)}`, async () => {
    const response = await fetch(url).catch(() => undefined);
    if (response?.status !== 200) return undefined;
    const body = await response.json();
    return JSON.stringify(body) === JSON.stringify(expected) ? body : undefined;
  });

interface Context extends TestService {
  out: string;
  errors: string[];
  controller: AbortController;
  loop: Promise<void>;
  url: string;
}

const dev = suite<Context>('fw dev against the local cloud (in process)');

/** The output without the functions' log lines, which come whenever the functions run. */
const withoutLogs = (out: string) => out.replace(/^\[users\] .*\n/gm, '');

/** The output written since `mark`, once it contains `text`. */
const printed = (context: Context, text: string, mark = 0) => eventually(`output to include ${JSON.stringify(text)}`, () => (context.out.slice(mark).includes(text) ? context.out.slice(mark) : undefined));

dev.before(async context => {
  Object.assign(context, await startTestService({ 'fw.yml': SERVICE, 'handler.js': HANDLER('hello') }));
  context.out = '';
  context.errors = [];
  context.controller = new AbortController();
  const port = Number(new URL(context.cloud.url).port);
  const write = (text: string) => void (context.out += text);
  context.loop = runDevLoop(
    { cwd: context.service, local: { port }, logIntervalMs: 200 },
    {
      write,
      error: error => context.errors.push((error as Error).message),
      reporter: { info: line => write(`${line}\n`), progress: () => undefined, event: () => undefined },
      summary: result => formatSummary(result.summary, false),
    },
    context.controller.signal,
  );
});

dev.after(async context => {
  context.controller.abort();
  await context.loop;
  await context.stop();
});

dev('deploys once, then watches the folder', async context => {
  const out = await printed(context, `Watching ${context.service} for changes (Ctrl-C to stop; what is deployed stays deployed)\n`);
  assert.match(out, /✔ Deployed stack devloop-dev \(\d+\.\d s\)\n/);
  context.url = /GET - (\S+)\/users\/\{id\}/.exec(out)![1];
  assert.equal(await answers(`${context.url}/users/1`, { greeting: 'hello', id: '1' }), { greeting: 'hello', id: '1' });
  assert.match(await printed(context, 'users asked for 1\n'), /\n\[users\] \S+\t[0-9a-f-]{36}\tINFO\tusers asked for 1\n/);
});

dev('editing a handler hotswaps it and the endpoint answers with the new code', async context => {
  const mark = context.out.length;
  writeFileSync(join(context.service, 'handler.js'), HANDLER('bonjour'));
  await answers(`${context.url}/users/2`, { greeting: 'bonjour', id: '2' });
  const out = withoutLogs(await printed(context, '✔ Hotswapped users', mark));
  assert.match(out, /^\nChanged: handler\.js\nDeploying devloop to stage dev in http:\/\/127\.0\.0\.1:\d+\nUpdated the code of devloop-dev-users\n✔ Hotswapped users \(\d+\.\d s\)\n/);
});

dev('a syntax error is printed, nothing is deployed, and the loop goes on to the fix', async context => {
  const mark = context.out.length;
  writeFileSync(join(context.service, 'handler.js'), 'exports.users = async (event) => {\n  return oops oops;\n};\n');
  assert.match(withoutLogs(await printed(context, 'waiting for a fix\n', mark)), '\nChanged: handler.js\nSyntax error in handler.js:2:15: Expected ";" but found "oops": not deployed, waiting for a fix\n');
  assert.equal(await answers(`${context.url}/users/3`, { greeting: 'bonjour', id: '3' }), { greeting: 'bonjour', id: '3' });
  writeFileSync(join(context.service, 'handler.js'), HANDLER('hola'));
  await answers(`${context.url}/users/4`, { greeting: 'hola', id: '4' });
});

dev('adding a route to the service file deploys through CloudFormation and the route answers', async context => {
  const mark = context.out.length;
  writeFileSync(join(context.service, 'fw.yml'), `${SERVICE}      - httpApi: 'GET /people/{id}'\n`);
  await answers(`${context.url}/people/5`, { greeting: 'hola', id: '5' });
  const out = await printed(context, '✔ Deployed stack devloop-dev', mark);
  assert.match(out, '\nChanged: fw.yml\n');
  assert.match(out, 'Hotswap not possible: HttpApiRouteGetPeopleIdVar (AWS::ApiGatewayV2::Route) added; deploying through CloudFormation\n');
});

dev('a mistake in the service file is printed and the loop goes on', async context => {
  writeFileSync(join(context.service, 'fw.yml'), SERVICE.replace('handler: handler.users', 'handler: 42'));
  await eventually('an error', () => context.errors[0]);
  assert.equal(context.errors, [
    "Invalid configuration in 'functions.users.handler': expected a handler like \"file.function\" (module path, a dot, the exported name), got 42",
  ]);
  writeFileSync(join(context.service, 'fw.yml'), SERVICE);
  await eventually('the service to deploy again', () => (/\n✔ Deployed stack devloop-dev \(\d+\.\d s\)\n[^]*$/.test(context.out.slice(context.out.lastIndexOf('Changed: fw.yml'))) ? true : undefined));
  assert.is((await fetch(`${context.url}/people/6`)).status, 404);
});

dev.run();

const again = suite('fw dev on a service already deployed as it is');

again('the first round deploys nothing and prints the endpoints, as after a deploy', async () => {
  const service = await startTestService({ 'fw.yml': SERVICE, 'handler.js': HANDLER('same') });
  const port = Number(new URL(service.cloud.url).port);
  const round = async () => {
    let out = '';
    const write = (text: string) => void (out += text);
    const controller = new AbortController();
    const loop = runDevLoop(
      { cwd: service.service, local: { port } },
      { write, error: error => write(`ERROR ${(error as Error).message}\n`), reporter: { info: line => write(`${line}\n`), progress: () => undefined, event: () => undefined }, summary: result => formatSummary(result.summary, false) },
      controller.signal,
    );
    await eventually('the loop to watch', () => (out.includes('Watching ') ? true : undefined));
    controller.abort();
    await loop;
    return out;
  };
  try {
    const first = await round();
    const endpoint = /GET - \S+\/users\/\{id\}/.exec(first)?.[0];
    assert.ok(endpoint, first);
    const second = await round();
    assert.match(second, /No changes to deploy/);
    assert.match(second, /✔ Stack devloop-dev already runs this code and template \(\d+\.\d s\)\n\n/);
    assert.ok(second.includes(endpoint!), second);
  } finally {
    await service.stop();
  }
});

again.run();

const parts = suite('fw dev: what it watches and checks');

parts('does not start on a stage named like production without --hotswap-production', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-dev-prod-'));
  writeFileSync(join(dir, 'fw.yml'), SERVICE);
  const output = { write: () => undefined, error: () => undefined, reporter: { info: () => undefined, progress: () => undefined, event: () => undefined }, summary: () => '' };
  const refused = await runDevLoop({ cwd: dir, stage: 'live', endpoint: 'http://127.0.0.1:9' }, output, new AbortController().signal).then(() => 'started', error => (error as Error).message);
  assert.is(
    refused,
    'Refusing to hotswap stage "live": it is named like production and a hotswap leaves its stack drifted from its template. Use fw deploy, or add --hotswap-production',
  );
  rmSync(dir, { recursive: true, force: true });
});

parts('ignores node_modules, .git, .serverless and packaging staging folders, nothing else', () => {
  const paths = ['handler.js', 'src/a.ts', 'node_modules/x/index.js', '.git/HEAD', '.serverless/state.json', '.serverless.tmp-12/a.zip', 'fw.yml', 'lib/node_modules_notes.md'];
  assert.equal(
    paths.filter(path => isIgnored('/srv', `/srv/${path}`)),
    ['node_modules/x/index.js', '.git/HEAD', '.serverless/state.json', '.serverless.tmp-12/a.zip'],
  );
});

parts('syntax errors name the file, line and column; TypeScript is checked as TypeScript; other files are not read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-syntax-'));
  writeFileSync(join(dir, 'good.ts'), 'export const f = (x: number): number => x + 1;\n');
  writeFileSync(join(dir, 'bad.mjs'), 'export const f = ;\n');
  writeFileSync(join(dir, 'notes.md'), 'not code {');
  assert.equal(await syntaxErrors(dir, ['good.ts', 'bad.mjs', 'notes.md', 'gone.js']), ['bad.mjs:1:18: Unexpected ";"']);
  rmSync(dir, { recursive: true, force: true });
});

parts.run();

const cli = suite('fw dev --local as a command');

cli('serves the deployed endpoint while it runs and exits 130 on Ctrl-C', async () => {
  const service = mkdtempSync(join(tmpdir(), 'fw-dev-cli-'));
  const data = mkdtempSync(join(tmpdir(), 'fw-dev-data-'));
  writeFileSync(join(service, 'fw.yml'), SERVICE);
  writeFileSync(join(service, 'handler.js'), HANDLER('hi'));
  const child = spawn(process.execPath, [join(__dirname, '..', '..', '..', 'bin', 'fw.js'), 'dev', '--local'], {
    cwd: service,
    env: { ...process.env, FW_LOCAL_PORT: '0', FW_LOCAL_DATA: data, NO_COLOR: '1' },
  });
  let out = '';
  child.stdout.on('data', chunk => (out += chunk));
  child.stderr.on('data', chunk => (out += chunk));
  const exited = new Promise<number | null>(resolve => child.on('exit', code => resolve(code)));
  try {
    await eventually('fw dev to watch', () => (out.includes('Watching ') ? true : undefined), 30000);
    const url = /GET - (\S+)\/users\/\{id\}/.exec(out)![1];
    assert.equal(await answers(`${url}/users/7`, { greeting: 'hi', id: '7' }), { greeting: 'hi', id: '7' });
    child.kill('SIGINT');
    assert.is(await exited, 130);
    assert.match(out, /\nStopped watching; what is deployed stays deployed\.\n$/);
  } finally {
    child.kill('SIGKILL');
    rmSync(service, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
});

cli.run();
