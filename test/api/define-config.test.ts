import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, readServiceFile, serviceFiles } from '../helpers/service-files';

/**
 * Type-checks `fw.ts` files with the TypeScript compiler, importing the package's published
 * types (dist/src/index.d.ts, as `fw-deploy` and as `fw`). Returns tsc's error lines.
 */
function typeCheck(files: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'fw-types-'));
  try {
    const types = join(ROOT, 'dist', 'src', 'index.d.ts');
    const compilerOptions = {
      strict: true, noEmit: true, target: 'ES2022', module: 'commonjs', moduleResolution: 'node', skipLibCheck: true, types: [],
      baseUrl: '.', paths: { 'fw-deploy': [types], fw: [types] },
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: Object.keys(files) }));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir, '--pretty', 'false'], { encoding: 'utf8' });
    return tsc.stdout.split('\n').filter(Boolean).map(line => line.replace(/^.*?([\w-]+\.ts\()/, '$1'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const asFwTs = (config: unknown) => `import { defineConfig } from 'fw-deploy';\nexport default defineConfig(${JSON.stringify(config, null, 2)});\n`;

const service = (functions: string, provider = "{ name: 'aws', runtime: 'nodejs20.x' }") =>
  `import { defineConfig } from 'fw-deploy';\nexport default defineConfig({\n  service: 'jobs',\n  provider: ${provider},\n  functions: ${functions},\n});\n`;

const CORRECT_EVENTS = `[
    { httpApi: 'GET /items' }, { http: { path: 'items/{id}', method: 'get', cors: true } },
    { sqs: { arn: { 'Fn::GetAtt': ['Jobs', 'Arn'] }, batchSize: 10, functionResponseType: 'ReportBatchItemFailures' } },
    { schedule: 'rate(1 hour)' }, { s3: { bucket: 'photos', event: 's3:ObjectCreated:*', rules: [{ suffix: '.jpg' }] } },
  ]`;

// A `${…}` variable is a string until fw resolves it, so fixtures using them are left out.
const fixtures = serviceFiles().filter(({ file }) => !readFileSync(join(ROOT, file), 'utf8').includes('${'));

/** One compiler run for every case (tsc takes seconds to start): tsc's error lines, by file. */
let errors: string[] = [];
const errorsOf = (prefix: string) => errors.filter(line => line.startsWith(prefix));

const types = suite('defineConfig types');

types.before(() => {
  const sources: Record<string, string> = {
    'wrong-event.ts': service(`{ worker: { handler: 'h.main', events: [{ sqs: { arn: 'arn:aws:sqs:us-east-1:123456789012:jobs', batchsize: 10 } }] } }`),
    'wrong-schedule.ts': service(`{ worker: { handler: 'h.main', events: [{ schedule: { rate: 'rate(1 hour)', enabld: false } }] } }`),
    'wrong-http.ts': service(`{ worker: { handler: 'h.main', events: [{ httpApi: { method: 'GET', pth: '/items' } }] } }`),
    'wrong-function.ts': service(`{ worker: { handler: 'h.main', timout: 10 } }`),
    'wrong-runtime.ts': service(`{}`, "{ name: 'aws', runtime: 'nodejs9.x' }"),
    'correct.ts': service(`{ worker: { handler: 'h.main', timeout: 10, runtime: 'python3.12', events: ${CORRECT_EVENTS} } }`),
  };
  for (const example of ['node-typescript', 'constructs-ts']) sources[`example-${example}.ts`] = readFileSync(join(ROOT, 'examples', example, 'fw.ts'), 'utf8');
  fixtures.forEach(({ file }, index) => (sources[`fixture-${index}.ts`] = asFwTs(readServiceFile(file))));
  errors = typeCheck(sources);
});

types('a misspelled event field, function key or runtime is a compile error naming it', () => {
  // The type text after "in type" is tsc's rendering of the whole type (its union order varies): left out.
  assert.equal(errorsOf('wrong-').map(line => line.replace(/ (in|to) type '.*$/s, '')).sort(), [
    `wrong-event.ts(5,111): error TS2353: Object literal may only specify known properties, and 'batchsize' does not exist`,
    `wrong-function.ts(5,45): error TS2561: Object literal may only specify known properties, but 'timout' does not exist`,
    `wrong-http.ts(5,82): error TS2561: Object literal may only specify known properties, but 'pth' does not exist`,
    `wrong-runtime.ts(4,28): error TS2820: Type '"nodejs9.x"' is not assignable`,
    `wrong-schedule.ts(5,90): error TS2561: Object literal may only specify known properties, but 'enabld' does not exist`,
  ]);
});

types('a correct service file and the TypeScript examples compile clean', () => {
  assert.equal(errorsOf('correct.ts'), []);
  assert.equal(errorsOf('example-'), []);
});

types('every fixture service fw accepts compiles clean as a fw.ts; those it refuses for their shape do not', () => {
  assert.ok(fixtures.length > 80, `only ${fixtures.length} files`);
  const failing = new Set(errorsOf('fixture-').map(line => fixtures[Number(/^fixture-(\d+)\.ts/.exec(line)![1])].file));
  assert.equal([...failing].sort(), [
    'test/fixtures/events/alexaSkill-no-app-id/serverless.yml',
    'test/fixtures/plugins/event-type/fw.yml',
    'test/fixtures/plugins/popular/appsync/serverless.yml',
    'test/fixtures/plugins/popular/lift/serverless.yml',
    'test/fixtures/plugins/v3-service/serverless.yml',
  ]);
});

types.run();
