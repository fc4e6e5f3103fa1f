import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { transformSync } from 'esbuild';
import { findTemplate, listTemplates, templatesRoot } from '../../src/create/templates';
import { writeService } from '../../src/create/write';
import { childEnv, removeTempDirs, repoRoot, tempDir, tree } from './helpers';
import { httpApiEvent, restApiEvent, s3PutEvent, scheduledEvent } from './sample-events';

type Handler = (event: unknown, context?: unknown) => Promise<any>;

/** Each template created once, as `fw create` would, into a temp folder. */
const created = new Map<string, string>();
function service(template: string): string {
  let dir = created.get(template);
  if (dir === undefined) {
    dir = join(tempDir('templates'), 'svc');
    writeService({ template: findTemplate(template), name: 'svc', dir });
    created.set(template, dir);
  }
  return dir;
}
function forgetServices(): void {
  created.clear();
  removeTempDirs();
}

function requireHandler(dir: string, file = 'handler.js'): Record<string, Handler> {
  return require(join(dir, file)) as Record<string, Handler>;
}

const json = (statusCode: number, body: unknown) => ({ statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const files = suite('template files');
files.after(forgetServices);

files('every template is a whole service: service file, handler, a test and a README', () => {
  const expected: Record<string, string[]> = {
    'node-http-api': ['.gitignore', 'README.md', 'fw.yml', 'handler.js', 'package.json', 'test/handler.test.js'],
    'node-rest-api': ['.gitignore', 'README.md', 'fw.yml', 'handler.js', 'package.json', 'test/handler.test.js'],
    'node-s3-upload': ['.gitignore', 'README.md', 'fw.yml', 'handler.js', 'package.json', 'test/handler.test.js'],
    'node-scheduled': ['.gitignore', 'README.md', 'fw.yml', 'handler.js', 'package.json', 'test/handler.test.js'],
    'node-typescript': ['.gitignore', 'README.md', 'fw.ts', 'package.json', 'src/handler.ts', 'test/handler.test.ts', 'tsconfig.json'],
    'python-http-api': ['.gitignore', 'README.md', 'fw.yml', 'handler.py', 'tests/__init__.py', 'tests/test_handler.py'],
    'queue-and-api-compose': ['.gitignore', 'README.md', 'api/fw.yml', 'api/handler.js', 'api/test/handler.test.js', 'fw-compose.yml', 'queue/fw.yml'],
  };
  assert.equal(Object.fromEntries(listTemplates().map((t) => [t.name, tree(service(t.name))])), expected);
});

files('leaves no placeholder in a created service', () => {
  for (const template of listTemplates()) {
    const dir = service(template.name);
    for (const file of tree(dir)) {
      assert.not.match(readFileSync(join(dir, file), 'utf8'), /__SERVICE_NAME/, `${template.name}/${file}`);
    }
  }
});

files('ships no build or cache output inside the templates', () => {
  const stray = tree(templatesRoot()).filter((file) => /(^|\/)(__pycache__|node_modules|\.serverless|\.build)\//.test(file));
  assert.equal(stray, []);
});

files('tells in each README how to deploy locally and to AWS', () => {
  for (const template of listTemplates()) {
    const readme = readFileSync(join(service(template.name), 'README.md'), 'utf8');
    assert.ok(readme.startsWith('# svc\n') && readme.includes('fw deploy --local') && readme.includes('fw deploy '), template.name);
  }
});

const handlers = suite('template handlers');
handlers.after(forgetServices);

handlers('node-http-api: lists the items and gets one by its path parameter (payload 2.0)', async () => {
  const { listItems, getItem } = requireHandler(service('node-http-api'));
  assert.equal(await listItems!(httpApiEvent('GET', '/items', '/items')), json(200, {
    items: [{ id: '1', name: 'Notebook', price: 4.5 }, { id: '2', name: 'Pencil', price: 1.2 }],
  }));
  assert.equal(await getItem!(httpApiEvent('GET', '/items/{id}', '/items/1', { id: '1' })), json(200, { id: '1', name: 'Notebook', price: 4.5 }));
  assert.equal(await getItem!(httpApiEvent('GET', '/items/{id}', '/items/7', { id: '7' })), json(404, { message: 'No item with id "7"' }));
});

handlers('node-rest-api: gets, creates and lists notes (payload 1.0)', async () => {
  const { listNotes, getNote, createNote } = requireHandler(service('node-rest-api'));
  assert.equal(await getNote!(restApiEvent('GET', '/notes/{id}', '/notes/1', { pathParameters: { id: '1' } })), json(200, { id: '1', text: 'Try fw deploy --local' }));
  assert.equal(await createNote!(restApiEvent('POST', '/notes', '/notes', { body: '{"text":"Ship it"}' })), json(201, { id: '2', text: 'Ship it' }));
  assert.equal(await createNote!(restApiEvent('POST', '/notes', '/notes')), json(400, { message: 'The body must be JSON: {"text": "..."}' }));
  assert.equal(await listNotes!(restApiEvent('GET', '/notes', '/notes')), json(200, {
    notes: [{ id: '1', text: 'Try fw deploy --local' }, { id: '2', text: 'Ship it' }],
  }));
});

handlers('node-scheduled: reports from the scheduler event and from a configured input', async () => {
  const { report } = requireHandler(service('node-scheduled'));
  const log = console.log;
  console.log = () => {};
  try {
    assert.equal(await report!(scheduledEvent('2024-05-06T09:00:00Z')), { kind: 'hourly', at: '2024-05-06T09:00:00Z', message: 'hourly report for 2024-05-06' });
    assert.is((await report!({ kind: 'morning' })).kind, 'morning');
  } finally {
    console.log = log;
  }
});

handlers('node-s3-upload: records the uploaded object, given a table to write to', async () => {
  const { makeHandler } = requireHandler(service('node-s3-upload')) as unknown as { makeHandler(save: (upload: unknown) => Promise<void>): Handler };
  const saved: unknown[] = [];
  const onUpload = makeHandler(async (upload) => { saved.push(upload); });
  const log = console.log;
  console.log = () => {};
  try {
    assert.equal(await onUpload(s3PutEvent('svc-dev-uploads', 'reports/q1+2024.pdf', 512)), { recorded: 1 });
  } finally {
    console.log = log;
  }
  assert.equal(saved, [{ key: 'reports/q1 2024.pdf', bucket: 'svc-dev-uploads', size: 512, uploadedAt: '2024-05-06T09:00:00.000Z' }]);
});

handlers('node-typescript: greets the name in the path', async () => {
  const dir = service('node-typescript');
  const compiled = join(dir, '.build-test', 'handler.js');
  mkdirSync(join(dir, '.build-test'));
  writeFileSync(compiled, transformSync(readFileSync(join(dir, 'src', 'handler.ts'), 'utf8'), { loader: 'ts', format: 'cjs' }).code);
  const { hello } = requireHandler(dir, join('.build-test', 'handler.js'));
  assert.equal(await hello!(httpApiEvent('GET', '/hello/{name}', '/hello/Ada', { name: 'Ada' })), json(200, { greeting: 'Hello, Ada.', path: '/hello/Ada' }));
});

handlers('python-http-api: lists the items and gets one by its path parameter (payload 2.0)', () => {
  const dir = service('python-http-api');
  const call = (fn: string, event: unknown) => {
    const run = spawnSync('python3', ['-c', `import json, sys, handler; print(json.dumps(handler.${fn}(json.loads(sys.argv[1]), None)))`, JSON.stringify(event)], {
      cwd: dir, encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    assert.is(run.status, 0, run.stderr);
    return JSON.parse(run.stdout);
  };
  assert.equal(call('get_item', httpApiEvent('GET', '/items/{id}', '/items/2', { id: '2' })), {
    statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"id": "2", "name": "Pencil", "price": 1.2}',
  });
  assert.is(call('list_items', httpApiEvent('GET', '/items', '/items')).statusCode, 200);
  assert.is(call('get_item', httpApiEvent('GET', '/items/{id}', '/items/x', { id: 'x' })).statusCode, 404);
});

const ownTests = suite("template's own tests");
ownTests.after(forgetServices);

const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * What `npm install` gives the TypeScript service: typescript and @types/node from this
 * repository, and fw itself (`fw-deploy`) as the package would be installed (this repository).
 */
function linkTypeScriptDependencies(dir: string): void {
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'), 'dir');
  if (fwDeclaresDefineConfig()) {
    symlinkSync(repoRoot, join(dir, 'node_modules', 'fw-deploy'), 'dir');
  } else {
    // Stand-in until src/index.ts exports defineConfig (another change): the same shape, loosely typed.
    mkdirSync(join(dir, 'node_modules', 'fw-deploy'));
    writeFileSync(join(dir, 'node_modules', 'fw-deploy', 'package.json'), '{ "name": "fw-deploy", "types": "index.d.ts" }\n');
    writeFileSync(join(dir, 'node_modules', 'fw-deploy', 'index.d.ts'), [
      'export interface ServiceConfig { service: string; provider: { name: "aws"; runtime?: string; region?: string; [key: string]: unknown };',
      '  functions?: Record<string, { handler: string; events?: Array<Record<string, unknown>>; [key: string]: unknown }>; [key: string]: unknown }',
      'export declare function defineConfig<T extends ServiceConfig>(config: T): T;',
      '',
    ].join('\n'));
  }
}

function fwDeclaresDefineConfig(): boolean {
  const declarations = join(repoRoot, 'dist', 'src', 'index.d.ts');
  return existsSync(declarations) && /\bdefineConfig\b/.test(readFileSync(declarations, 'utf8'));
}

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...childEnv(), PYTHONDONTWRITEBYTECODE: '1', NODE_TEST_CONTEXT: undefined } });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

for (const template of ['node-http-api', 'node-rest-api', 'node-scheduled', 'node-s3-upload']) {
  ownTests(`${template}: "node --test" passes`, () => {
    const result = run(process.execPath, ['--test'], service(template));
    assert.is(result.status, 0, result.output);
    assert.match(result.output, /# fail 0/);
  });
}

ownTests('queue-and-api-compose: "node --test api/test" passes', () => {
  const result = run(process.execPath, ['--test', 'api/test'], service('queue-and-api-compose'));
  assert.is(result.status, 0, result.output);
  assert.match(result.output, /# pass 1\n# fail 0/);
});

ownTests('python-http-api: "python3 -m unittest" passes', () => {
  const result = run('python3', ['-m', 'unittest'], service('python-http-api'));
  assert.is(result.status, 0, result.output);
  assert.match(result.output, /Ran 3 tests[\s\S]*OK/);
});

const typesLabel = fwDeclaresDefineConfig() ? "fw's own declarations" : 'a stand-in for defineConfig (dist/src/index.d.ts does not declare it yet)';

ownTests(`node-typescript: "tsc --noEmit" finds no type error, against ${typesLabel}`, () => {
  const dir = service('node-typescript');
  linkTypeScriptDependencies(dir);
  const result = run(process.execPath, [tsc, '--noEmit', '-p', dir], dir);
  assert.is(result.status, 0, result.output);
});

ownTests('node-typescript: its test compiles and passes ("npm test")', () => {
  const dir = service('node-typescript');
  if (!existsSync(join(dir, 'node_modules'))) linkTypeScriptDependencies(dir);
  const compile = run(process.execPath, [tsc, '-p', dir], dir);
  assert.is(compile.status, 0, compile.output);
  const result = run(process.execPath, ['--test', join('.build', 'test', 'handler.test.js')], dir);
  assert.is(result.status, 0, result.output);
  assert.match(result.output, /# pass 2/);
});

files.run();
handlers.run();
ownTests.run();
