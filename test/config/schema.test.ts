import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as t from 'typanion';
import { applyValidationMode, validateConfig } from '../../src/config/schema';
import { loadService } from '../../src/service/load';
import { ConfigError } from '../../src/errors';
import { errorOf, tempService } from './helpers';
import { synth } from '../helpers/synth';

const base = { service: 'app', provider: { name: 'aws' } };

const schema = suite('validateConfig');

schema('a valid service has no problems', () => {
  const config = {
    service: 'app',
    frameworkVersion: '3',
    configValidationMode: 'error',
    useDotenv: true,
    params: { default: { a: 1 }, prod: { a: 2 } },
    provider: {
      name: 'aws', stage: 'dev', region: 'eu-west-1', runtime: 'nodejs20.x', memorySize: 512, timeout: 10,
      environment: { TABLE: { Ref: 'Table' }, ARN: { 'Fn::GetAtt': ['T', 'Arn'] }, PORT: 3000 },
      iam: { role: { statements: [{ Effect: 'Allow', Action: ['s3:*'], Resource: { 'Fn::Join': ['', ['arn:aws:s3:::', { Ref: 'B' }]] } }] } },
      httpApi: { cors: true }, tracing: { lambda: true }, deploymentBucket: { name: 'b' },
    },
    functions: { hello: { handler: 'h.main', timeout: { Ref: 'Timeout' }, events: [{ httpApi: 'GET /' }, { schedule: 'rate(1 minute)' }, { anyPluginEvent: { x: 1 } }] } },
    package: { patterns: ['!tests/**'], individually: true },
    plugins: ['serverless-offline'],
    custom: { anything: { goes: [1, 'x'] } },
    resources: { Resources: { T: { Type: 'AWS::DynamoDB::Table', Properties: { X: 1 } } }, Outputs: { O: { Value: 1 } }, extensions: { HelloLambdaFunction: { Properties: {} } } },
    layers: { deps: { path: 'layer', compatibleRuntimes: ['nodejs20.x'] } },
  };
  assert.equal(validateConfig(config), []);
});

schema('every problem names its path and what was expected', () => {
  const problems = validateConfig({
    service: 'app',
    provider: { name: 'aws', memorySize: 'big', architecture: 'arm' },
    functions: { hello: { handler: 'h.main', timeout: 'x', events: [{ a: 1, b: 2 }] } },
    package: { individually: 'yes' },
    plugins: 'serverless-offline',
    resources: { Resources: { X: { Properties: {} } } },
  });
  assert.equal(problems, [
    'at "provider.memorySize": expected a number, got "big"',
    'at "provider.architecture": expected "x86_64" or "arm64", got "arm" (did you mean "arm64"?)',
    'at "functions.hello.timeout": expected a number, got "x"',
    'at "functions.hello.events[0]": expected one event type per list item, got {"a":1,"b":2}',
    'at "package.individually": expected true or false, got "yes"',
    'at "plugins": expected a list of plugin names or { localPath, modules }, got "serverless-offline"',
    'at "resources.Resources.X.Type": expected a value (it is required)',
  ]);
});

schema('a mistyped value of a closed list gets the closest listed value', () => {
  assert.equal(validateConfig({ ...base, provider: { name: 'aws', runtime: 'nodejs2.x', architecture: 'arm65', stage: 'dev' }, configValidationMode: 'wran' }), [
    'at "provider.runtime": expected "nodejs14.x", "nodejs16.x", "nodejs18.x", "nodejs20.x", "nodejs22.x", "nodejs24.x", "python3.7", "python3.8", "python3.9", "python3.10", "python3.11", "python3.12", "python3.13", "python3.14", "ruby2.7", "ruby3.2", "ruby3.3", "ruby3.4", "java8", "java8.al2", "java11", "java17", "java21", "java25", "dotnet6", "dotnet8", "dotnet10", "go1.x", "provided", "provided.al2" or "provided.al2023", got "nodejs2.x" (did you mean "nodejs20.x"?)',
    'at "provider.architecture": expected "x86_64" or "arm64", got "arm65" (did you mean "arm64"?)',
    'at "configValidationMode": expected "warn", "error" or "off", got "wran" (did you mean "warn"?)',
  ]);
});

schema('a mistyped event type or HTTP method gets the closest valid one', async () => {
  const mistakes: Array<[unknown, string]> = [
    [{ htpApi: 'GET /' }, `Invalid configuration in 'functions.hello.events[0]': unknown event type "htpApi"; did you mean "httpApi"?`],
    [{ httpApi: 'GTE /items' }, `Invalid configuration in 'functions.hello.events[0].httpApi': expected "METHOD /path" (or "*"), got "GTE /items" (did you mean "GET /items"?)`],
    [{ httpApi: { method: 'pots', path: '/items' } }, `Invalid configuration in 'functions.hello.events[0].httpApi.method': expected one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, ANY, *, got "pots" (did you mean "POST"?)`],
    [{ http: 'PTU items' }, `Invalid configuration in 'functions.hello.events[0].http.method': expected one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, ANY, got "PTU" (did you mean "PUT"?)`],
  ];
  for (const [event, expected] of mistakes) {
    const message = await errorOf(() => synth({ service: 'app', provider: { name: 'aws' }, functions: { hello: { handler: 'h.main', events: [event as never] } } }));
    assert.is(message.split(' (known: ')[0], expected);
  }
});

schema('a misspelled top-level or provider key gets the closest valid name', () => {
  assert.equal(validateConfig({ service: 'app', provder: {}, provider: { name: 'aws', runtme: 'nodejs20.x', regoin: 'x' }, fuctions: {} }), [
    'at "provder": unknown property (did you mean "provider"?)',
    'at "provider.runtme": unknown property (did you mean "runtime"?)',
    'at "provider.regoin": unknown property (did you mean "region"?)',
    'at "fuctions": unknown property (did you mean "functions"?)',
    'at "provider": expected a value (it is required)',
  ].filter((line) => !line.startsWith('at "provider": ')));
});

schema('missing service and provider are reported', () => {
  assert.equal(validateConfig({}), ['at "service": expected a value (it is required)', 'at "provider": expected a value (it is required)']);
});

schema('event schemas plug in per event type; other types accept anything', () => {
  const eventSchemas = { httpApi: t.isOneOf([t.isString(), t.isObject({ method: t.isString(), path: t.isString() })]) };
  const config = { ...base, functions: { hello: { handler: 'h.x', events: [{ httpApi: 1 }, { sqs: 'arn' }] } } };
  assert.equal(validateConfig(config, { eventSchemas }).length, 1);
  assert.match(validateConfig(config, { eventSchemas })[0], /^at "functions\.hello\.events\[0\]\.httpApi/);
});

schema('plugins may extend the schema', () => {
  const extend = { topLevel: { stepFunctions: t.isObject({}, { extra: t.isUnknown() }) }, provider: { myFlag: t.isBoolean() }, function: { warmup: t.isBoolean() } };
  assert.equal(validateConfig({ ...base, provider: { name: 'aws', myFlag: true }, stepFunctions: {}, functions: { f: { handler: 'h.x', warmup: true } } }, { extend }), []);
});

schema('off mode checks nothing', () => {
  assert.equal(validateConfig({ nonsense: 1 }, { mode: 'off' }), []);
});

schema.run();

schema('an unknown runtime is reported with the known ones; FW_EXTRA_RUNTIMES accepts newer ones', () => {
  const config = { ...base, provider: { name: 'aws', runtime: 'nodejs26.x' } };
  const [problem] = validateConfig(config);
  assert.ok(problem.startsWith('at "provider.runtime": expected "nodejs14.x", "nodejs16.x",'), problem);
  assert.ok(problem.endsWith('"provided.al2" or "provided.al2023", got "nodejs26.x"'), problem);
  const saved = process.env.FW_EXTRA_RUNTIMES;
  process.env.FW_EXTRA_RUNTIMES = 'nodejs26.x, python3.15';
  try {
    assert.equal(validateConfig(config), []);
  } finally {
    if (saved === undefined) delete process.env.FW_EXTRA_RUNTIMES;
    else process.env.FW_EXTRA_RUNTIMES = saved;
  }
});

const modes = suite('configValidationMode');

modes('warn prints every problem and goes on', async () => {
  const folder = tempService({ 'fw.yml': 'service: app\nprovider:\n  name: aws\n  runtme: x\n  timeout: slow\n' });
  try {
    const lines: string[] = [];
    const loaded = await loadService({ cwd: folder.dir, warn: (line) => lines.push(line) });
    assert.is(loaded.config.service, 'app');
    assert.equal(lines, [
      'Warning: invalid configuration at "provider.runtme": unknown property (did you mean "runtime"?)',
      'Warning: invalid configuration at "provider.timeout": expected a number, got "slow"',
    ]);
  } finally {
    folder.cleanup();
  }
});

modes('error prints all problems in one error', async () => {
  const folder = tempService({ 'fw.yml': 'service: app\nconfigValidationMode: error\nprovider:\n  name: aws\n  runtme: x\n  timeout: slow\n' });
  try {
    assert.is(await errorOf(() => loadService({ cwd: folder.dir })), [
      'Invalid configuration (configValidationMode: error):',
      '  - at "provider.runtme": unknown property (did you mean "runtime"?)',
      '  - at "provider.timeout": expected a number, got "slow"',
    ].join('\n'));
  } finally {
    folder.cleanup();
  }
});

modes('off says nothing', async () => {
  const folder = tempService({ 'fw.yml': 'service: app\nconfigValidationMode: off\nprovider:\n  name: aws\n  runtme: x\n' });
  try {
    const lines: string[] = [];
    await loadService({ cwd: folder.dir, warn: (line) => lines.push(line) });
    assert.equal(lines, []);
  } finally {
    folder.cleanup();
  }
});

modes('applyValidationMode throws a ConfigError in error mode', () => {
  try {
    applyValidationMode(['at "a": expected a string, got 1'], 'error', () => {});
    assert.unreachable();
  } catch (error) {
    assert.instance(error, ConfigError);
  }
});

modes.run();
