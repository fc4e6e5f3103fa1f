import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GetTemplateCommand } from '@aws-sdk/client-cloudformation';
import { DeleteObjectCommand, ListBucketsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetFunctionCommand, GetFunctionConfigurationCommand, LambdaClient, ListFunctionsCommand } from '@aws-sdk/client-lambda';
import { LOCAL_CREDENTIALS, startTestService, type TestService } from '../helpers/local-cloud';

/** v3's deploy, rollback, invoke and metrics commands against the local cloud, each checked by its effect. */
const SERVICE = (functions: string) => `service: shelf
provider:
  name: aws
  runtime: nodejs20.x
functions:
${functions}`;
const HELLO = `  hello:
    handler: handler.main
`;
const EXTRA = `  extra:
    handler: handler.main
`;
const handler = (version: string) =>
  `exports.main = async (event, context) => ({ version: ${JSON.stringify(version)}, event, clientContext: context.clientContext ?? null });\n`;

type Context = TestService & { lambda: LambdaClient; timestamps: string[] };
const v3 = suite<Context>('Serverless v3 deploy, rollback, invoke and metrics commands');

v3.before(async context => {
  Object.assign(context, await startTestService({ 'serverless.yml': SERVICE(HELLO), 'handler.js': handler('one') }));
  context.lambda = new LambdaClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  context.timestamps = [];
});

v3.after(async context => {
  await context.stop();
});

const write = (context: Context, name: string, text: string) => writeFileSync(join(context.service, name), text);
const invoked = async (context: Context, ...args: string[]) => {
  const result = await context.fw('invoke', '-f', 'hello', ...args);
  assert.is(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as { version: string; event: unknown; clientContext: unknown };
};

v3('two deploys publish versions 1 and 2; deploy list shows both deployments with their files', async context => {
  assert.is((await context.fw('deploy')).code, 0);
  write(context, 'serverless.yml', SERVICE(HELLO + EXTRA));
  write(context, 'handler.js', handler('two'));
  const second = await context.fw('deploy');
  assert.is(second.code, 0, second.stderr);
  const list = await context.fw('deploy', 'list');
  assert.is(list.code, 0, list.stderr);
  context.timestamps = [...list.stdout.matchAll(/^Timestamp: (\d+)$/gm)].map(match => match[1]);
  assert.is(context.timestamps.length, 2, list.stdout);
  const blocks = list.stdout.trim().split('\n\n');
  assert.equal(blocks[0].split('\n').slice(1), [`Timestamp: ${context.timestamps[0]}`, 'Files:', '  - compiled-cloudformation-template.json', '  - serverless-state.json', '  - shelf.zip']);
  assert.equal(blocks[1].split('\n').slice(1), [`Timestamp: ${context.timestamps[1]}`, 'Files:', '  - compiled-cloudformation-template.json', '  - serverless-state.json', '  - shelf.zip']);
  const functions = await context.fw('deploy', 'list', 'functions');
  assert.is(functions.stdout, 'hello (shelf-dev-hello): 1, 2\nextra (shelf-dev-extra): 1\n');
});

v3('invoke --qualifier runs the code of that version; --raw passes the data as a string; --context reaches the handler', async context => {
  assert.is((await invoked(context)).version, 'two');
  assert.is((await invoked(context, '--qualifier', '1')).version, 'one');
  assert.equal(await invoked(context, '--raw', '--data', '{"a":1}', '--context', '{"custom":{"k":"v"}}'), { version: 'two', event: '{"a":1}', clientContext: { custom: { k: 'v' } } });
  const missing = await context.fw('invoke', '-f', 'hello', '-q', '7');
  assert.is(missing.code, 1);
  assert.is(missing.stderr, 'Error: invoking shelf-dev-hello failed: ResourceNotFoundException: Function not found: arn:aws:lambda:us-east-1:000000000000:function:shelf-dev-hello:7\n');
  const badType = await context.fw('invoke', '-f', 'hello', '--type', 'Later');
  assert.is(badType.stderr, 'Error: Invalid --type "Later": expected RequestResponse, Event, DryRun\n');
});

v3('invoke --type Event runs the function without waiting; DryRun runs nothing; metrics count what ran', async context => {
  const before = await context.fw('metrics', '-f', 'hello');
  const count = (text: string) => Number(/^hello +(\d+)/m.exec(text)?.[1]);
  const event = await context.fw('invoke', '-f', 'hello', '--type', 'Event');
  assert.is(event.stdout, 'Invoked hello asynchronously (Event): Lambda accepted it (status 202)\n');
  const dryRun = await context.fw('invoke', '-f', 'hello', '-t', 'DryRun');
  assert.is(dryRun.stdout, 'Dry run: hello can be invoked (status 204)\n');
  let after = before;
  for (let i = 0; i < 50 && count(after.stdout) === count(before.stdout); i++) {
    await new Promise(resolve => setTimeout(resolve, 100));
    after = await context.fw('metrics', '-f', 'hello', '--startTime', '1h');
  }
  assert.is(count(after.stdout), count(before.stdout) + 1, after.stdout);
  const lines = after.stdout.split('\n');
  assert.is(lines[0], 'hello');
  assert.match(lines[1], /^\d{4}-\d\d-\d\dT[\d:.]+Z - \d{4}-\d\d-\d\dT[\d:.]+Z$/);
  assert.is(lines[3], 'function  invocations  errors  throttles  duration (avg.)  duration p50  duration p99');
  assert.match(lines[4], /^hello\s+\d+\s+0\s+0\s+[\d.]+ ms\s+[\d.]+ ms\s+[\d.]+ ms$/);
  const service = await context.fw('metrics', '--startTime', '2026-01-01', '--endTime', String(Math.floor(Date.now() / 1000) + 60));
  assert.is(service.code, 0, service.stderr);
  assert.match(service.stdout, /^Service wide metrics\n/);
  assert.match(service.stdout, /\nservice\s+\d+\s+0\s+0\s+[\d.]+ ms\s+-\s+-\n$/);
  const bad = await context.fw('metrics', '--startTime', 'yesterday');
  assert.is(bad.stderr, 'Error: Invalid --startTime "yesterday": expected a duration like 30m, 2h, 1d, a Unix time like 1469705761 or a date like 2026-11-21T10:00:00Z\n');
});

v3('rollback without a timestamp lists the deployments; with one it redeploys that template and it becomes the newest', async context => {
  const listed = await context.fw('rollback');
  assert.is(listed.code, 0, listed.stderr);
  assert.ok(listed.stdout.startsWith('Use a timestamp from the deploy list below to roll back to a specific version.\nRun "fw rollback -t YourTimeStampHere"\n\n'), listed.stdout);
  assert.ok(listed.stdout.includes(`Timestamp: ${context.timestamps[0]}\n`));
  const rolled = await context.fw('rollback', '-t', context.timestamps[0]);
  assert.is(rolled.code, 0, rolled.stderr);
  assert.ok(rolled.stdout.includes(`✔ Stack shelf-dev rolled back to the deployment ${context.timestamps[0]}\n`), rolled.stdout);
  const names = (await context.lambda.send(new ListFunctionsCommand({}))).Functions!.map(fn => fn.FunctionName).sort();
  assert.equal(names, ['shelf-dev-hello']);
  const template = JSON.parse((await context.cfn.send(new GetTemplateCommand({ StackName: 'shelf-dev' }))).TemplateBody!);
  assert.not.ok(template.Resources.ExtraLambdaFunction);
  assert.is((await invoked(context)).version, 'one');
  const after = await context.fw('deploy', 'list');
  assert.is([...after.stdout.matchAll(/^Timestamp: /gm)].length, 3);
  // The files have not changed since the second deploy, but the stack runs the first: deploy deploys.
  const redeploy = await context.fw('deploy');
  assert.is(redeploy.code, 0, redeploy.stderr);
  assert.ok(redeploy.stdout.includes('Service deployed to stack shelf-dev'), redeploy.stdout);
  assert.is((await invoked(context)).version, 'two');
  const unknown = await context.fw('rollback', '-t', '123');
  assert.is(unknown.code, 1);
  assert.match(unknown.stderr, /^Error: No deployment with timestamp 123 \(--timestamp\) in s3:\/\/shelf-dev-serverlessdeploymentbucket-[a-z0-9]+\/serverless\/shelf\/dev\/; stored: \d+, \d+, \d+, \d+\n$/);
});

v3('rollback function sets the code of an earlier version', async context => {
  const rolled = await context.fw('rollback', 'function', '-f', 'hello', '--function-version', '1');
  assert.is(rolled.code, 0, rolled.stderr);
  assert.is(rolled.stdout, '✔ Function hello rolled back to version 1\n');
  assert.is((await invoked(context)).version, 'one');
  const missing = await context.fw('rollback', 'function', '-f', 'hello', '--function-version', '99');
  assert.is(missing.stderr, 'Error: Function shelf-dev-hello has no version 99 (--function-version); "fw deploy list functions" lists its versions\n');
});

v3('rollback function to a version whose deployment folder was pruned uses the copy of the code Lambda kept, as AWS does', async context => {
  assert.is((await context.fw('rollback', 'function', '-f', 'hello', '--function-version', '2')).code, 0);
  assert.is((await invoked(context)).version, 'two');
  // What `deploymentBucket.maxPreviousDeploymentArtifacts` (or a user) does to the first deployment's folder.
  const { Buckets } = await context.s3.send(new ListBucketsCommand({}));
  const pruned: string[] = [];
  for (const { Name } of Buckets ?? []) {
    const { Contents } = await context.s3.send(new ListObjectsV2Command({ Bucket: Name }));
    for (const { Key } of Contents ?? []) {
      if (!Key?.includes(`/${context.timestamps[0]}-`)) continue;
      await context.s3.send(new DeleteObjectCommand({ Bucket: Name, Key }));
      pruned.push(Key.replace(/^.*\//, ''));
    }
  }
  assert.equal(pruned.sort(), ['compiled-cloudformation-template.json', 'serverless-state.json', 'shelf.zip']);
  const listed = await context.fw('deploy', 'list', 'functions');
  assert.match(listed.stdout, /^hello \(shelf-dev-hello\): 1, 2[,\n]/, listed.stdout + listed.stderr);
  const rolled = await context.fw('rollback', 'function', '-f', 'hello', '--function-version', '1');
  assert.is(rolled.stderr, '');
  assert.is(rolled.stdout, '✔ Function hello rolled back to version 1\n');
  assert.is((await invoked(context)).version, 'one');
});

v3("a version's Code.Location is its own permission, as Lambda's presigned URL: any HTTP client reads the zip, a changed signature is refused", async context => {
  const { Code } = await context.lambda.send(new GetFunctionCommand({ FunctionName: 'shelf-dev-hello', Qualifier: '1' }));
  const location = new URL(Code!.Location!);
  assert.equal([...location.searchParams.keys()], ['Expires', 'Signature']);
  const zip = await fetch(location);
  assert.is(zip.status, 200);
  assert.equal([...Buffer.from(await zip.arrayBuffer()).subarray(0, 4)], [0x50, 0x4b, 0x03, 0x04]);
  location.searchParams.set('Signature', '0'.repeat(64));
  const tampered = await fetch(location);
  assert.is(tampered.status, 403);
  assert.match(await tampered.text(), '<Code>AccessDenied</Code>');
});

v3('deploy -f updates one function; deploy function --update-config leaves the code', async context => {
  write(context, 'handler.js', handler('three'));
  const short = await context.fw('deploy', '-f', 'hello');
  assert.is(short.code, 0, short.stderr);
  assert.ok(short.stdout.endsWith('✔ Function hello updated (code)\n'), short.stdout);
  assert.is((await invoked(context)).version, 'three');
  write(context, 'handler.js', handler('four'));
  write(context, 'serverless.yml', SERVICE(`  hello:\n    handler: handler.main\n    memorySize: 512\n` + EXTRA));
  const configOnly = await context.fw('deploy', 'function', '-f', 'hello', '--update-config');
  assert.is(configOnly.code, 0, configOnly.stderr);
  assert.ok(configOnly.stdout.endsWith('✔ Function hello updated (configuration)\n'), configOnly.stdout);
  assert.is((await context.lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'shelf-dev-hello' }))).MemorySize, 512);
  assert.is((await invoked(context)).version, 'three');
  const both = await context.fw('deploy', '-f', 'hello', '--package', '.serverless');
  assert.is(both.stderr, 'Error: --function cannot be used with --package: "fw deploy -f" packages and updates one function\n');
});

v3('deploy --conceal hides output values; --aws-s3-accelerate on a local endpoint says it is ignored; --app says fw ignores it', async context => {
  const result = await context.fw('deploy', '--conceal', '--verbose', '--aws-s3-accelerate', '--enforce-hash-update', '--force', '--app', 'shop');
  assert.is(result.code, 0, result.stderr);
  assert.is(
    result.stderr,
    '--app: Serverless Dashboard option, ignored (fw has no dashboard)\n' +
      "--enforce-hash-update: nothing to do, fw's function version hashes already change with every change of code or configuration\n" +
      `--aws-s3-accelerate: ignored, this deploy goes to ${context.cloud.url} (S3 Transfer Acceleration exists on AWS only)\n`,
  );
  const outputs = result.stdout.slice(result.stdout.indexOf('outputs:\n')).split('\n').slice(1).filter(line => line.startsWith('  '));
  assert.ok(outputs.length >= 3, result.stdout);
  for (const line of outputs) assert.match(line, /^ {2}\w+: \*{5}$/);
  const template = JSON.parse((await context.cfn.send(new GetTemplateCommand({ StackName: 'shelf-dev' }))).TemplateBody!);
  assert.is(template.Resources.ServerlessDeploymentBucket.Properties.AccelerateConfiguration, undefined);
  const info = await context.fw('info', '--conceal', '--verbose');
  assert.ok(info.stdout.includes('  ServerlessDeploymentBucketName: *****\n'), info.stdout);
  // --debug turns on --verbose: info lists the outputs.
  const debug = await context.fw('info', '--debug');
  assert.ok(debug.stdout.includes('outputs:\n  ServerlessDeploymentBucketName: shelf-dev-serverlessdeploymentbucket-'), debug.stdout);
  const plain = await context.fw('info');
  assert.not.ok(plain.stdout.includes('outputs:'), plain.stdout);
});

v3.run();
