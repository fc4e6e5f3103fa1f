import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  DescribeStackEventsCommand,
  DescribeStackResourcesCommand,
  ListChangeSetsCommand,
} from '@aws-sdk/client-cloudformation';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DiffCommand } from '../../src/cli/diff';
import { runFw } from '../helpers/cli';
import { startTestService, TEST_ENV, type TestService } from '../helpers/local-cloud';
import { signatureShaped } from '../local/helpers';
import { runCommands } from '../diff/run';


type Context = TestService;

const TABLE = `      Type: AWS::DynamoDB::Table
      Properties:
        BillingMode: PAY_PER_REQUEST
        AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]
        KeySchema: [{ AttributeName: id, KeyType: HASH }]`;

/** The service with the given `resources.Resources` body. */
const service = (resources: string) => `service: store
provider:
  name: aws
  runtime: nodejs20.x
functions:
  hello:
    handler: handler.main
resources:
  Resources:
${resources}
`;

const dataLoss = suite<Context>('fw deploy and fw diff with resources that hold data');

dataLoss.before(async context => {
  Object.assign(context, await startTestService({ 'handler.js': 'exports.main = async () => ({ statusCode: 200 });\n' }));
});

dataLoss.after(async context => {
  await context.stop();
});

const deploy = (context: Context, resources: string, ...args: string[]) => {
  writeFileSync(join(context.service, 'fw.yml'), service(resources));
  return runFw(['deploy', '--endpoint-url', context.cloud.url, ...args], context.service, TEST_ENV);
};

/** The stack's resources: logical id → physical id. */
async function resources(context: Context): Promise<Record<string, string>> {
  const answer = await context.cfn.send(new DescribeStackResourcesCommand({ StackName: 'store-dev' }));
  return Object.fromEntries((answer.StackResources ?? []).map(resource => [resource.LogicalResourceId!, resource.PhysicalResourceId!]));
}

/** DynamoDB DescribeTable on the local cloud: the table's status, or the error code. */
async function describeTable(context: Context, name: string): Promise<string> {
  const response = await fetch(context.cloud.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.DescribeTable', ...signatureShaped('dynamodb') },
    body: JSON.stringify({ TableName: name }),
  });
  const body = (await response.json()) as { Table?: { TableStatus: string }; __type?: string };
  return body.Table?.TableStatus ?? String(body.__type).split('#').pop()!;
}

/** What fw deploy prints on stderr when it refuses to delete the data of one resource. */
const refusal = (line: string, stack = 'store-dev', discarded = ' (the change set was deleted)') =>
  [
    `Error: Deploying stack ${stack} would delete data, so nothing was changed${discarded}:`,
    `  ${line}`,
    'Deploy with --allow-data-loss to accept this, or keep the resource with DeletionPolicy: Retain (UpdateReplacePolicy: Retain for a replacement).',
    '',
  ].join('\n');

dataLoss('a first deploy creates the table', async context => {
  const result = await deploy(context, `    Orders:\n${TABLE}`);
  assert.is(result.code, 0, result.stdout + result.stderr);
  assert.is(await describeTable(context, (await resources(context)).Orders), 'ACTIVE');
});

dataLoss('fw diff marks the removal of the renamed table as data loss', async context => {
  writeFileSync(join(context.service, 'fw.yml'), service(`    OrdersTable:\n${TABLE}`));
  const result = await runCommands([DiffCommand], ['diff', '--endpoint-url', context.cloud.url], context.service, TEST_ENV);
  assert.is(result.code, 2, result.stdout + result.stderr);
  assert.is(
    result.stdout,
    [
      'Changes to stack store-dev:',
      '+ OrdersTable (AWS::DynamoDB::Table)',
      '- Orders (AWS::DynamoDB::Table) [DATA LOSS: deleted with its data]',
      'Warning: this resource holds data that deploying would delete: Orders. fw deploy refuses it unless given --allow-data-loss.',
      '1 to add, 0 to change, 1 to remove',
      '',
    ].join('\n'),
  );
});

dataLoss('renaming the table’s logical id is refused: nothing changes and the change set is gone', async context => {
  const before = await resources(context);
  const result = await deploy(context, `    OrdersTable:\n${TABLE}`);
  assert.is(result.code, 1, result.stdout);
  assert.is(result.stderr, refusal('Orders (AWS::DynamoDB::Table) would be removed with its data'));
  assert.equal(await resources(context), before);
  assert.is(await describeTable(context, before.Orders), 'ACTIVE');
  const changeSets = (await context.cfn.send(new ListChangeSetsCommand({ StackName: 'store-dev' }))).Summaries ?? [];
  assert.equal(changeSets.map(changeSet => changeSet.ExecutionStatus), ['EXECUTE_COMPLETE'], 'only the first deploy’s executed change set is left');
});

dataLoss('changing TableName is refused as a replacement', async context => {
  const before = await resources(context);
  const result = await deploy(context, `    Orders:\n${TABLE}\n        TableName: store-orders-v2`);
  assert.is(result.code, 1, result.stdout);
  assert.is(result.stderr, refusal('Orders (AWS::DynamoDB::Table) would be replaced: the old one is deleted with its data'));
  assert.is(await describeTable(context, before.Orders), 'ACTIVE');
  assert.is(await describeTable(context, 'store-orders-v2'), 'ResourceNotFoundException');
});

dataLoss('--allow-data-loss replaces the table, naming it as a warning', async context => {
  const before = await resources(context);
  const result = await deploy(context, `    Orders:\n${TABLE}\n        TableName: store-orders-v2`, '--allow-data-loss');
  assert.is(result.code, 0, result.stdout + result.stderr);
  assert.ok(
    result.stdout.split('\n').includes('Warning: Orders (AWS::DynamoDB::Table) would be replaced: the old one is deleted with its data (--allow-data-loss)'),
    result.stdout,
  );
  assert.is(await describeTable(context, before.Orders), 'ResourceNotFoundException');
  assert.is(await describeTable(context, 'store-orders-v2'), 'ACTIVE');
});

dataLoss('a table with DeletionPolicy: Retain may be renamed without --allow-data-loss, and is kept', async context => {
  const retained = `    Orders:\n      DeletionPolicy: Retain\n${TABLE.split('\n').slice(0).join('\n')}\n        TableName: store-orders-v2\n        Tags: [{ Key: kept, Value: 'yes' }]`;
  const first = await deploy(context, retained);
  assert.is(first.code, 0, first.stdout + first.stderr);
  const lastEvent = (await context.cfn.send(new DescribeStackEventsCommand({ StackName: 'store-dev' }))).StackEvents![0].EventId;
  const result = await deploy(context, retained.replace('    Orders:', '    OrdersV2:').replace('store-orders-v2', 'store-orders-v3'));
  assert.is(result.code, 0, result.stdout + result.stderr);
  assert.not.match(result.stdout, "Warning");
  const events = (await context.cfn.send(new DescribeStackEventsCommand({ StackName: 'store-dev' }))).StackEvents ?? [];
  const thisDeploy = events.slice(0, events.findIndex(event => event.EventId === lastEvent));
  const orders = thisDeploy.filter(event => event.LogicalResourceId === 'Orders');
  assert.equal(orders.map(event => event.ResourceStatus), ['DELETE_SKIPPED']);
});

dataLoss('a bucket that cannot be deleted in cleanup is a warning without --verbose', async context => {
  const table = `    OrdersV2:\n      DeletionPolicy: Retain\n${TABLE}\n        TableName: store-orders-v3\n        Tags: [{ Key: kept, Value: 'yes' }]`;
  const created = await deploy(context, `${table}\n    Photos:\n      Type: AWS::S3::Bucket`);
  assert.is(created.code, 0, created.stdout + created.stderr);
  const bucket = (await resources(context)).Photos;
  await context.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'cat.jpg', Body: 'meow' }));
  const result = await deploy(context, `${table}\n    Pictures:\n      Type: AWS::S3::Bucket`, '--allow-data-loss');
  assert.is(result.code, 0, result.stdout + result.stderr);
  const warnings = result.stdout.split('\n').filter(line => line.startsWith('Warning:'));
  assert.equal(warnings, [
    'Warning: Photos (AWS::S3::Bucket) would be removed with its data (--allow-data-loss)',
    `Warning: Photos (AWS::S3::Bucket) ${bucket} could not be deleted: Resource handler returned message: "The bucket you tried to delete is not empty (Service: S3, Status Code: 409)". ` +
      'It is no longer part of stack store-dev but still exists; delete it yourself when you no longer need it.',
  ]);
});

dataLoss('UpdateReplacePolicy: Retain in the new template lets a replacement through and keeps the old table', async context => {
  const table = (name: string, policy: string) =>
    `    OrdersV2:\n      DeletionPolicy: Retain\n${policy}${TABLE}\n        TableName: ${name}\n        Tags: [{ Key: kept, Value: 'yes' }]\n    Pictures:\n      Type: AWS::S3::Bucket`;
  const lastEvent = (await context.cfn.send(new DescribeStackEventsCommand({ StackName: 'store-dev' }))).StackEvents![0].EventId;
  const result = await deploy(context, table('store-orders-v4', '      UpdateReplacePolicy: Retain\n'));
  assert.is(result.code, 0, result.stdout + result.stderr);
  assert.equal(result.stdout.split('\n').filter(line => line.startsWith('Warning: OrdersV2')), [], result.stdout);
  const events = (await context.cfn.send(new DescribeStackEventsCommand({ StackName: 'store-dev' }))).StackEvents ?? [];
  const thisDeploy = events.slice(0, events.findIndex(event => event.EventId === lastEvent));
  const deletions = thisDeploy.filter(event => event.LogicalResourceId === 'OrdersV2' && event.ResourceStatus?.startsWith('DELETE'));
  assert.equal(deletions.map(event => [event.ResourceStatus, event.PhysicalResourceId]), [['DELETE_SKIPPED', 'store-orders-v3']]);
  assert.is(await describeTable(context, 'store-orders-v4'), 'ACTIVE');
});

dataLoss('a bucket in a nested stack (stack splitting) is judged there and named with its stack', async context => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-data-loss-nested-'));
  writeFileSync(join(dir, 'handler.js'), 'exports.main = async () => ({ statusCode: 200 });\n');
  // Per function, the bucket of an s3 event moves into the function's nested stack.
  const nested = (bucket: string) =>
    `service: nest\nprovider:\n  name: aws\n  runtime: nodejs20.x\n  stackSplitting: per-function\n` +
    `functions:\n  hello:\n    handler: handler.main\n    events:\n      - s3: ${bucket}\n`;
  try {
    writeFileSync(join(dir, 'fw.yml'), nested('photos'));
    const created = await runFw(['deploy', '--endpoint-url', context.cloud.url], dir, TEST_ENV);
    assert.is(created.code, 0, created.stdout + created.stderr);
    writeFileSync(join(dir, 'fw.yml'), nested('pictures'));
    const refused = await runFw(['deploy', '--endpoint-url', context.cloud.url], dir, TEST_ENV);
    assert.is(refused.code, 1, refused.stdout);
    assert.is(
      refused.stderr,
      refusal('S3BucketPhotos (AWS::S3::Bucket) in HelloNestedStack would be removed with its data', 'nest-dev'),
    );
    const allowed = await runFw(['deploy', '--endpoint-url', context.cloud.url, '--allow-data-loss'], dir, TEST_ENV);
    assert.is(allowed.code, 0, allowed.stdout + allowed.stderr);
    assert.ok(allowed.stdout.includes('Warning: S3BucketPhotos (AWS::S3::Bucket) in HelloNestedStack would be removed with its data (--allow-data-loss)\n'), allowed.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

dataLoss('with deploymentMethod: direct (no change set) the removal is refused before the stack is updated', async context => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-data-loss-direct-'));
  writeFileSync(join(dir, 'handler.js'), 'exports.main = async () => ({ statusCode: 200 });\n');
  const direct = (resources: string) => service(resources).replace('service: store', 'service: straight').replace('  runtime: nodejs20.x\n', '  runtime: nodejs20.x\n  deploymentMethod: direct\n');
  try {
    writeFileSync(join(dir, 'fw.yml'), direct(`    Orders:\n${TABLE}`));
    const created = await runFw(['deploy', '--endpoint-url', context.cloud.url], dir, TEST_ENV);
    assert.is(created.code, 0, created.stdout + created.stderr);
    writeFileSync(join(dir, 'fw.yml'), direct(`    Ledger:\n${TABLE}`));
    const refused = await runFw(['deploy', '--endpoint-url', context.cloud.url], dir, TEST_ENV);
    assert.is(refused.code, 1, refused.stdout);
    assert.is(refused.stderr, refusal('Orders (AWS::DynamoDB::Table) would be removed with its data', 'straight-dev', ''));
    const stack = (await context.cfn.send(new DescribeStackResourcesCommand({ StackName: 'straight-dev' }))).StackResources ?? [];
    assert.equal(stack.filter(resource => resource.ResourceType === 'AWS::DynamoDB::Table').map(resource => resource.LogicalResourceId), ['Orders']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

dataLoss.run();
