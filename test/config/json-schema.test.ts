import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Ajv from 'ajv';
import { isDescribed } from '../../src/config/json-schema';
import { builtInEventTypes } from '../../src/constructs/events/registry';
import { runFw } from '../helpers/cli';
import { NOT_ACCEPTED, ROOT, readServiceFile, serviceFiles } from '../helpers/service-files';

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
    'addConstructs', 'app', 'build', 'configValidationMode', 'console', 'custom', 'dashboard', 'deprecationNotificationMode', 'disabledDeprecations',
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

schema("describes every built-in event type's schema, with a line for the editor's hover", () => {
  assert.equal(builtInEventTypes().filter(eventType => !isDescribed(eventType.schema) || !eventType.description).map(eventType => eventType.type), []);
});

schema('ships the same schema in the package, as dist/schema/service.schema.json', async () => {
  const { stdout } = await runFw(['schema'], tmpdir());
  assert.is(readFileSync(join(ROOT, 'dist', 'schema', 'service.schema.json'), 'utf8'), stdout);
});

schema('validates every example, template and fixture service fw accepts', () => {
  const accepted = serviceFiles().filter(({ accepted }) => accepted);
  assert.ok(accepted.length > 90, `found only ${accepted.length} service files`);
  const failures = accepted.map(({ file }) => ({ file, problems: problems(readServiceFile(file)) })).filter(result => result.problems.length > 0);
  assert.equal(failures, []);
});

const base = { service: 'app', provider: { name: 'aws', runtime: 'nodejs20.x' } };
const withEvent = (event: unknown) => ({ ...base, functions: { hello: { handler: 'handler.hello', events: [event] } } });

schema('refuses the fixtures fw does not take as they are, saying why', () => {
  const refused = serviceFiles().filter(({ file }) => Object.hasOwn(NOT_ACCEPTED, file));
  assert.equal(refused.map(({ file }) => file), Object.keys(NOT_ACCEPTED).sort());
  for (const { file } of refused) assert.ok(problems(readServiceFile(file)).includes(NOT_ACCEPTED[file]), `${file}: ${problems(readServiceFile(file)).join('; ')}`);
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

schema('refuses a function name that cannot form a logical id, as fw does', () => {
  assert.equal(problems({ ...base, functions: { 'say hi': { handler: 'h.main' } } }).includes('/functions: property name must be valid'), true);
  assert.equal(problems({ ...base, functions: { 'say-hi_2': { handler: 'h.main' } } }), []);
});

schema('refuses an unknown event type', () => {
  assert.equal(problems(withEvent({ sqss: 'arn:aws:sqs:us-east-1:1:q' })).includes('/functions/hello/events/0: must NOT have additional properties (sqss)'), true);
});

schema('with --plugins, the keys and event types of the service plugins are in the schema too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-schema-plugins-'));
  try {
    cpSync(join(ROOT, 'test', 'fixtures', 'plugins', 'event-type'), dir, { recursive: true });
    const { code, stdout, stderr } = await runFw(['schema', '--plugins'], dir);
    assert.is(stderr, '');
    assert.is(code, 0);
    const withPlugins = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(stdout));
    assert.is(withPlugins(readServiceFile('test/fixtures/plugins/event-type/fw.yml')), true, JSON.stringify(withPlugins.errors));
    // The plugin's own JSON Schema for its event: `schedule` is required.
    assert.is(withPlugins(withEvent({ cronJob: { enabled: true } })), false);
    assert.is(withPlugins(withEvent({ cronJob: { schedule: 'rate(1 day)' } })), true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

schema.run();
