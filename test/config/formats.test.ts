import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadService } from '../../src/service/load';
import { errorOf, FIXTURES, tempService } from './helpers';

const EXPECTED = {
  service: 'formats',
  frameworkVersion: '3',
  provider: { name: 'aws', runtime: 'nodejs20.x', stage: 'prod', environment: { STAGE: 'prod' } },
  functions: { hello: { handler: 'handler.hello', events: [{ httpApi: 'GET /hello' }] } },
};

const formats = suite('service file formats');

for (const [folder, file] of [
  ['yml', 'fw.yml'], ['json', 'fw.json'], ['js-cjs', 'fw.js'], ['js-esm', 'fw.js'], ['mjs', 'fw.mjs'], ['cjs', 'fw.cjs'], ['ts', 'fw.ts'], ['serverless-yml', 'serverless.yml'],
]) {
  formats(`${folder}/${file} loads the same service`, async () => {
    const cwd = join(FIXTURES, 'formats', folder);
    const service = await loadService({ cwd, options: { stage: 'prod' }, warn: () => {} });
    assert.is(service.file.path, join(cwd, file));
    assert.equal(service.config, EXPECTED);
    assert.equal([service.stage, service.region], ['prod', 'us-east-1']);
  });
}

formats('a function export receives the CLI options', async () => {
  const folder = tempService({ 'fw.js': "module.exports = async ({ options }) => ({ service: 'svc-' + options.stage, provider: { name: 'aws' } });" });
  try {
    const service = await loadService({ cwd: folder.dir, options: { stage: 'qa' } });
    assert.is(service.config.service, 'svc-qa');
  } finally {
    folder.cleanup();
  }
});

formats('a fw.ts with top-level await loads as ESM', async () => {
  const folder = tempService({ 'fw.ts': "import { defineConfig } from 'fw';\nconst name: string = await Promise.resolve('tla');\nexport default defineConfig({ service: name, provider: { name: 'aws' } });\n" });
  try {
    const service = await loadService({ cwd: folder.dir });
    assert.is(service.config.service, 'tla');
  } finally {
    folder.cleanup();
  }
});

formats('a serverless.ts imports .ts files by relative path and through tsconfig.json paths (extends followed), each with its own __dirname, as ts-node with tsconfig-paths loads it for Serverless v3', async () => {
  const folder = tempService({
    'tsconfig.json': '{\n  // paths live in the extended file\n  "extends": "./tsconfig.paths.json",\n  "compilerOptions": { "target": "ES2020", },\n}\n',
    'tsconfig.paths.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@functions/*": ["src/functions/*"], "@libs/*": ["src/libs/*"] } } }\n',
    'src/libs/handler-path.ts': "export const handlerPath = (dir: string): string => dir.split(process.cwd())[1].substring(1).replace(/\\\\/g, '/');\n",
    'src/functions/hello/index.ts': "import { handlerPath } from '@libs/handler-path';\nimport schema from './schema';\nexport default { handler: `${handlerPath(__dirname)}/handler.main`, events: [{ http: { method: 'post', path: 'hello', request: { schemas: { 'application/json': schema } } } }] };\n",
    'src/functions/hello/schema.ts': "export default { type: 'object', required: ['name'] } as const;\n",
    'serverless.ts': "import hello from '@functions/hello';\nconst config: Record<string, unknown> = { service: 'typed', provider: { name: 'aws' }, functions: { hello } };\nmodule.exports = config;\n",
  });
  const cwd = process.cwd();
  process.chdir(folder.dir);
  try {
    const service = await loadService({ cwd: folder.dir });
    assert.equal(service.config.functions, {
      hello: { handler: 'src/functions/hello/handler.main', events: [{ http: { method: 'post', path: 'hello', request: { schemas: { 'application/json': { type: 'object', required: ['name'] } } } } }] },
    });
  } finally {
    process.chdir(cwd);
    folder.cleanup();
  }
});

formats('a YAML syntax error shows file, line and column', async () => {
  const folder = tempService({ 'fw.yml': 'service: app\nprovider:\n  name: aws\n  bad: [1, 2\n' });
  try {
    const message = await errorOf(() => loadService({ cwd: folder.dir }));
    // The parser notices the unclosed bracket at the end of the file; the caret points where it was opened.
    assert.match(
      message,
      /^Cannot parse .*fw\.yml:4:8: the list opened with "\[" here is never closed: end it with "\]" \(a line that goes on must be indented deeper than its key\)\n  2 \| provider:\n  3 \|   name: aws\n> 4 \|   bad: \[1, 2\n    \|        \^$/,
    );
  } finally {
    folder.cleanup();
  }
});

formats('a JSON syntax error shows file, line and column', async () => {
  const folder = tempService({ 'fw.json': '{\n  "service": "app",\n}\n' });
  try {
    assert.match(await errorOf(() => loadService({ cwd: folder.dir })), /^Cannot parse .*fw\.json:3:1: Expected double-quoted property name\n  1 \| {\n  2 \|   "service": "app",\n> 3 \| }\n    \| \^$/);
  } finally {
    folder.cleanup();
  }
});

formats('a JS config that throws shows the file and the error', async () => {
  const folder = tempService({ 'fw.js': "const x = 1;\nthrow new Error('boom');\n" });
  try {
    const message = await errorOf(() => loadService({ cwd: folder.dir }));
    assert.match(message, /^Cannot load .*fw\.js: boom \(.*fw\.js:2:7\)$/);
  } finally {
    folder.cleanup();
  }
});

formats('a JS function export that rejects shows the file and the error', async () => {
  const folder = tempService({ 'fw.mjs': "export default async () => {\n  throw new Error('nope');\n};\n" });
  try {
    const message = await errorOf(() => loadService({ cwd: folder.dir }));
    assert.match(message, /^Cannot load .*fw\.mjs: nope \(.*fw\.mjs:2:9\)$/);
  } finally {
    folder.cleanup();
  }
});

formats('a fw.ts syntax error shows file, line and column', async () => {
  const folder = tempService({ 'fw.ts': 'export default {\n  service: ,\n};\n' });
  try {
    const message = await errorOf(() => loadService({ cwd: folder.dir }));
    assert.match(message, /^Cannot parse .*fw\.ts:2:12: Unexpected ","\n  1 \| export default {\n> 2 \|   service: ,\n    \|            \^\n  3 \| };$/);
  } finally {
    folder.cleanup();
  }
});

formats('a top level that is not an object is an error', async () => {
  const folder = tempService({ 'fw.json': '[1]' });
  try {
    assert.match(await errorOf(() => loadService({ cwd: folder.dir })), /expected an object at the top level, got a list$/);
  } finally {
    folder.cleanup();
  }
});

const templates = suite('service file formats: templates');

templates('every format packages to the same template', async () => {
  const { packageService } = await import('../../src/package/service.js');
  const now = new Date('2024-01-01T00:00:00.000Z');
  const results: Record<string, string> = {};
  for (const folder of ['yml', 'json', 'js-cjs', 'js-esm', 'mjs', 'cjs', 'ts', 'serverless-yml']) {
    const work = mkdtempSync(join(tmpdir(), `fw-format-${folder}-`));
    try {
      cpSync(join(FIXTURES, 'formats', folder), work, { recursive: true });
      const packaged = await packageService({ cwd: work, options: { stage: 'prod' }, now });
      results[folder] = JSON.stringify(packaged.template);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  assert.ok(results.yml.includes('HelloLambdaFunction'));
  for (const [folder, template] of Object.entries(results)) assert.is(template, results.yml, `${folder} differs from yml`);
});

formats.run();
templates.run();
