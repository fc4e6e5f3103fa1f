import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { childEnv } from '../helpers/env';

const FW = join(__dirname, '..', '..', '..', 'bin', 'fw.js');


/** Runs `fw package` as a user would, in a fresh folder holding `serverless.yml`. */
function packageWith(yaml: string | undefined, args: string[] = []) {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-errors-'));
  if (yaml !== undefined) writeFileSync(join(cwd, 'serverless.yml'), yaml);
  writeFileSync(join(cwd, 'handler.js'), 'exports.hello = async () => ({ statusCode: 200 });\n');
  const run = spawnSync(process.execPath, [FW, 'package', ...args], { cwd, encoding: 'utf8', env: childEnv() });
  const wroteOutput = existsSync(join(cwd, '.serverless'));
  rmSync(cwd, { recursive: true, force: true });
  return { code: run.status, stderr: run.stderr, stdout: run.stdout, wroteOutput };
}

const base = (functions: string, extra = '') => `service: app
provider:
  name: aws
  runtime: nodejs18.x
functions:
${functions}
${extra}`;

const IMAGE = '000000000000.dkr.ecr.us-east-1.amazonaws.com/app@sha256:6bb600b4d6e1d7cf521097177dd0c4e9ea373edb91984a505333be8ac9455d38';

const errors = suite('fw package on bad input');

const cases: Array<[string, string | undefined, string]> = [
  [
    'an extension of the Type attribute',
    base('  hello:\n    handler: handler.hello', 'resources:\n  extensions:\n    HelloLogGroup:\n      Type: AWS::S3::Bucket'),
    `Error: Invalid configuration in 'resources.extensions.HelloLogGroup.Type': cannot extend the "Type" attribute; an extension may set Condition, CreationPolicy, DeletionPolicy, DependsOn, Metadata, Properties, UpdatePolicy, UpdateReplacePolicy\n`,
  ],
  [
    'an extension of an unknown logical id',
    base('  hello:\n    handler: handler.hello', 'resources:\n  extensions:\n    HeloLogGroup:\n      DeletionPolicy: Retain'),
    `Error: Invalid configuration in 'resources.extensions.HeloLogGroup': the template has no resource "HeloLogGroup" to extend (did you mean "HelloLogGroup"?)\n`,
  ],
  [
    'a handler without a dot',
    base('  hello:\n    handler: handler'),
    `Error: Invalid configuration in 'functions.hello.handler': expected a handler like "file.function" (module path, a dot, the exported name), got "handler"\n`,
  ],
  [
    'both a handler and an image',
    base(`  hello:\n    handler: handler.hello\n    image: ${IMAGE}`),
    `Error: Invalid configuration in 'functions.hello': either "handler" or "image" (not both) needs to be set on function "hello"\n`,
  ],
  [
    'an image name not defined in provider.ecr.images',
    `service: app\nprovider:\n  name: aws\n  ecr:\n    images:\n      baseimage:\n        uri: ${IMAGE}\nfunctions:\n  hello:\n    image:\n      name: otherimage\n`,
    `Error: Invalid configuration in 'functions.hello.image.name': "otherimage" is not defined in provider.ecr.images\n`,
  ],
  [
    'an image with both a uri and a path',
    `service: app\nprovider:\n  name: aws\n  ecr:\n    images:\n      appimage:\n        path: ./app\n        uri: ${IMAGE}\nfunctions:\n  hello:\n    image: appimage\n`,
    `Error: Invalid configuration in 'provider.ecr.images.appimage': set either "uri" or "path", not both\n`,
  ],
  [
    'build settings on an image given by uri',
    `service: app\nprovider:\n  name: aws\n  ecr:\n    images:\n      appimage:\n        uri: ${IMAGE}\n        buildArgs:\n          A: b\nfunctions:\n  hello:\n    image: appimage\n`,
    `Error: Invalid configuration in 'provider.ecr.images.appimage.buildArgs': only for an image built from "path", not with "uri"\n`,
  ],
  [
    'an image given by tag in another region',
    base('  hello:\n    image: 000000000000.dkr.ecr.eu-west-1.amazonaws.com/app:latest'),
    `Error: Invalid configuration in 'functions.hello.image': the image's region "eu-west-1" must be the provider region "us-east-1" (000000000000.dkr.ecr.eu-west-1.amazonaws.com/app:latest)\n`,
  ],
  [
    'an image URI that is not an ECR image',
    base('  hello:\n    image:\n      uri: nginx:latest'),
    `Error: Invalid configuration in 'functions.hello.image.uri': expected an ECR image URI like "<account>.dkr.ecr.<region>.amazonaws.com/<repository>@sha256:<digest>" (or ":<tag>"), got "nginx:latest"\n`,
  ],
  [
    'an httpApi string without a method',
    base("  hello:\n    handler: handler.hello\n    events:\n      - httpApi: '/users'"),
    `Error: Invalid configuration in 'functions.hello.events[0].httpApi': expected "METHOD /path" (or "*"), got "/users"\n`,
  ],
  [
    'two functions on the same route',
    base("  hello:\n    handler: handler.hello\n    events:\n      - httpApi: 'GET /users'\n  other:\n    handler: handler.hello\n    events:\n      - httpApi: 'GET /users'"),
    `Error: Invalid configuration in 'functions.other.events[0].httpApi': route "GET /users" is already used by 'functions.hello.events[0].httpApi'\n`,
  ],
  [
    'two functions on the same REST method',
    base('  hello:\n    handler: handler.hello\n    events:\n      - http: GET users\n  other:\n    handler: handler.hello\n    events:\n      - http: get /users/'),
    `Error: Invalid configuration in 'functions.other.events[0].http': route "GET /users" is already used by 'functions.hello.events[0].http'\n`,
  ],
  [
    'an unknown event type',
    base('  hello:\n    handler: handler.hello\n    events:\n      - htpApi: GET /'),
    `Error: Invalid configuration in 'functions.hello.events[0]': unknown event type "htpApi"`,
  ],
  [
    'a misspelled event field',
    base('  consumer:\n    handler: handler.hello\n    events:\n      - httpApi: GET /\n      - sqs:\n          arn: arn:aws:sqs:us-east-1:123456789012:q\n          batchsize: 10'),
    `Error: Invalid configuration in 'functions.consumer.events[1].sqs.batchsize': unknown property; did you mean "batchSize"?\n`,
  ],
  [
    'a wrong value type in an event',
    base('  consumer:\n    handler: handler.hello\n    events:\n      - httpApi: GET /\n      - sqs:\n          arn: arn:aws:sqs:us-east-1:123456789012:q\n          batchSize: ten'),
    `Error: Invalid configuration in 'functions.consumer.events[1].sqs.batchSize': expected an integer from 1 to 10000, got "ten"\n`,
  ],
];

for (const [name, yaml, message] of cases) {
  errors(`${name}: one line naming the path, exit 1, nothing written`, () => {
    const result = packageWith(yaml);
    assert.is(result.code, 1);
    assert.ok(result.stderr.startsWith(message), `stderr was: ${result.stderr}`);
    assert.is(result.stderr.trim().split('\n').length, 1, `one line, got: ${result.stderr}`);
    assert.not.match(result.stderr, /\n\s+at /);
    assert.is(result.wroteOutput, false);
  });
}

errors('a YAML syntax error names the file, line and column and shows the line with a caret, exit 1, nothing written', () => {
  const result = packageWith('service: app\nprovider:\n  name: aws\n functions: [\n');
  assert.is(result.code, 1);
  assert.is(
    result.stderr,
    [
      'Error: Cannot parse serverless.yml:4:2: bad indentation of a mapping entry: "functions" does not line up with the entries around it ("name" above is at column 3, this one at column 2)',
      '  2 | provider:',
      '  3 |   name: aws',
      '> 4 |  functions: [',
      '    |  ^',
      '',
    ].join('\n'),
  );
  assert.is(result.wroteOutput, false);
});

errors('a missing service file is named, exit 1', () => {
  const result = packageWith(undefined);
  assert.is(result.code, 1);
  assert.match(result.stderr, /^Error: No service file in .+: expected one of fw\.yml, fw\.yaml, fw\.json \(or serverless\.yml\); run "fw" to create a service\n$/);
  assert.is(result.wroteOutput, false);
});

errors('a --config file that does not exist is named', () => {
  const result = packageWith(base('  hello:\n    handler: handler.hello'), ['--config', 'missing.yml']);
  assert.is(result.code, 1);
  assert.is(result.stderr, 'Error: Service file "missing.yml" (--config) does not exist\n');
});

errors.run();
