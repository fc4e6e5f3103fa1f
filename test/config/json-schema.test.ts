import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tmpdir } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Ajv from 'ajv';
import { parseYaml } from '../../src/config/yaml';
import { runFw } from '../helpers/cli';

const ROOT = join(__dirname, '..', '..', '..');
const SERVICE_FILES = ['fw.yml', 'fw.yaml', 'fw.json', 'serverless.yml', 'serverless.yaml', 'serverless.json'];

/**
 * Fixtures fw does not take as they are (besides those whose expected/error.txt says why), each
 * with the reason; the test below checks that the schema refuses them too.
 */
const NOT_ACCEPTED: Record<string, string> = {
  // fw refuses the bare `- alexaSkill` (test/synth/golden.test.ts DEVIATIONS).
  'test/fixtures/events/alexaSkill-no-app-id/serverless.yml': '/functions/mySkill/events/0: must be object',
  // fw warns "at resources.Resources.HelloLambdaFunction.Type: expected a value", as v3 does.
  'test/fixtures/golden/resources-overrides/serverless.yml': "/resources/Resources/HelloLambdaFunction: must have required property 'Type'",
  // Plugins add these keys and event types: fw validates them once the plugin is loaded; `fw schema` knows fw's own.
  'test/fixtures/plugins/event-type/fw.yml': '/functions/report/events/0: must NOT have additional properties (cronJob)',
  'test/fixtures/plugins/v3-service/serverless.yml': '/functions/reader: must NOT have additional properties (iamRoleStatementsInherit)',
};

/** Every service file of the examples, templates and test fixtures, with whether fw accepts it. */
function serviceFiles(): Array<{ file: string; accepted: boolean }> {
  const found: Array<{ file: string; accepted: boolean }> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'expected' || entry.name === '.serverless') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SERVICE_FILES.includes(entry.name)) {
        const file = relative(ROOT, path);
        const refused = existsSync(join(dir, 'expected', 'error.txt')) || Object.hasOwn(NOT_ACCEPTED, file);
        found.push({ file, accepted: !refused });
      }
    }
  };
  for (const folder of ['examples', 'templates', join('test', 'fixtures')]) walk(join(ROOT, folder));
  return found.sort((a, b) => a.file.localeCompare(b.file));
}

function parse(file: string): unknown {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return file.endsWith('.json') ? JSON.parse(text) : parseYaml(text, file);
}

let validate: ReturnType<Ajv['compile']>;
const schema = suite('fw schema');

schema.before(async () => {
  const { code, stdout, stderr } = await runFw(['schema'], tmpdir());
  assert.is(stderr, '');
  assert.is(code, 0);
  validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(stdout));
});

/** `validate`'s errors as `path: message` lines. */
const problems = (value: unknown): string[] =>
  validate(value) ? [] : (validate.errors ?? []).map(error => `${error.instancePath || '/'}: ${error.message}${error.params && 'additionalProperty' in error.params ? ` (${error.params.additionalProperty})` : ''}`);

schema('prints a draft-07 JSON Schema of the whole service file', async () => {
  const { stdout } = await runFw(['schema'], tmpdir());
  const printed = JSON.parse(stdout);
  assert.is(printed.$schema, 'http://json-schema.org/draft-07/schema#');
  assert.equal(printed.required, ['service', 'provider']);
  assert.equal(Object.keys(printed.properties).sort(), [
    'addConstructs', 'app', 'configValidationMode', 'console', 'custom', 'dashboard', 'deprecationNotificationMode', 'disabledDeprecations',
    'frameworkVersion', 'functions', 'layers', 'org', 'outputs', 'package', 'params', 'plugins', 'projectDir', 'provider', 'resources',
    'service', 'tenant', 'unresolvedVariablesNotificationMode', 'useDotenv', 'variablesResolutionMode',
  ]);
  // Each value position also takes a `${…}` variable (and a shape's key null): the alternative of the wanted type.
  const ofType = (node: { anyOf?: Array<{ type?: string }> }, type: string) => node.anyOf!.find(alternative => alternative.type === type) as Record<string, any>;
  const fn = ofType(ofType(printed.properties.functions, 'object').additionalProperties, 'object');
  const events = ofType(fn.properties.events, 'array').items.anyOf;
  assert.equal(events.filter((event: { $ref?: string }) => !event.$ref).map((event: { required: string[] }) => event.required[0]).sort(), [
    'activemq', 'alb', 'alexaSkill', 'alexaSmartHome', 'cloudFront', 'cloudwatchEvent', 'cloudwatchLog', 'cognitoUserPool', 'eventBridge',
    'http', 'httpApi', 'iot', 'iotFleetProvisioning', 'kafka', 'msk', 'rabbitmq', 's3', 'schedule', 'sns', 'sqs', 'stream', 'websocket',
  ]);
});

schema('ships the same schema in the package, as dist/schema/service.schema.json', async () => {
  const { stdout } = await runFw(['schema'], tmpdir());
  assert.is(readFileSync(join(ROOT, 'dist', 'schema', 'service.schema.json'), 'utf8'), stdout);
});

schema('validates every example, template and fixture service fw accepts', () => {
  const accepted = serviceFiles().filter(({ accepted }) => accepted);
  assert.ok(accepted.length > 90, `found only ${accepted.length} service files`);
  const failures = accepted.map(({ file }) => ({ file, problems: problems(parse(file)) })).filter(result => result.problems.length > 0);
  assert.equal(failures, []);
});

const base = { service: 'app', provider: { name: 'aws', runtime: 'nodejs20.x' } };
const withEvent = (event: unknown) => ({ ...base, functions: { hello: { handler: 'handler.hello', events: [event] } } });

schema('refuses the fixtures fw does not take as they are, saying why', () => {
  const refused = serviceFiles().filter(({ file }) => Object.hasOwn(NOT_ACCEPTED, file));
  assert.equal(refused.map(({ file }) => file), Object.keys(NOT_ACCEPTED).sort());
  for (const { file } of refused) assert.ok(problems(parse(file)).includes(NOT_ACCEPTED[file]), `${file}: ${problems(parse(file)).join('; ')}`);
});

schema('accepts ${…} variables where numbers, lists and objects go, and intrinsics where fw takes them', () => {
  const file = {
    ...base,
    provider: {
      name: 'aws',
      runtime: '${param:runtime}',
      timeout: '${self:custom.timeout}',
      environment: '${file(./env.yml)}',
      iam: { role: { statements: [{ Effect: 'Allow', Action: ['sqs:*'], Resource: { 'Fn::GetAtt': ['Queue', 'Arn'] } }] } },
      vpc: { securityGroupIds: { Ref: 'Groups' }, subnetIds: ['${ssm:/subnet}'] },
    },
    functions: {
      hello: {
        handler: 'handler.hello',
        memorySize: '${env:MEMORY, 512}',
        events: [{ sqs: { arn: { 'Fn::GetAtt': ['Queue', 'Arn'] }, batchSize: '${self:custom.batch}' } }, '${self:custom.extraEvent}'],
      },
    },
  };
  assert.equal(problems(file), []);
});

schema('refuses a misspelled event field', () => {
  assert.equal(problems(withEvent({ sqs: { arn: 'arn:aws:sqs:us-east-1:1:q', batchsize: 10 } })).includes('/functions/hello/events/0/sqs: must NOT have additional properties (batchsize)'), true);
  assert.equal(problems(withEvent({ sqs: { arn: 'arn:aws:sqs:us-east-1:1:q', batchSize: 10 } })), []);
});

schema('refuses an unknown top-level key, as fw does', () => {
  assert.equal(problems({ ...base, provder: { name: 'aws' } }), ['/: must NOT have additional properties (provder)']);
});

schema('refuses a wrong type and a value out of range', () => {
  assert.equal(problems({ ...base, functions: { hello: { handler: 'h.main', timeout: true } } }).includes('/functions/hello/timeout: must be number'), true);
  assert.equal(problems(withEvent({ sqs: { arn: 'arn:aws:sqs:us-east-1:1:q', batchSize: 20000 } })).includes('/functions/hello/events/0/sqs/batchSize: must be <= 10000'), true);
  assert.equal(problems({ ...base, provider: { name: 'aws', runtime: 'nodejs9.x' } }).includes('/provider/runtime: must be equal to one of the allowed values'), true);
});

schema('refuses an unknown event type', () => {
  assert.equal(problems(withEvent({ sqss: 'arn:aws:sqs:us-east-1:1:q' })).includes('/functions/hello/events/0: must NOT have additional properties (sqss)'), true);
});

schema.run();
