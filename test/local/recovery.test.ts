import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand, DescribeStacksCommand, ListStacksCommand } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, ListBucketsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { settle, startTestCloud, type TestCloud } from './helpers';

const recovery = suite<{ clouds: TestCloud[] }>('a restarted local cloud ends the operations a crash cut off');

recovery.before.each((context) => {
  context.clouds = [];
});

recovery.after.each(async (context) => {
  for (const cloud of context.clouds) await cloud.stop();
});

const template = { Resources: { Files: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'crash-files' } } } };

/** A stack with a bucket, then the state a crash in the middle of an operation on it leaves: its status saved in progress. */
async function cutOff(context: { clouds: TestCloud[] }, status: string, journal?: object): Promise<{ cloud: TestCloud; stackId: string }> {
  const first = await startTestCloud();
  await first.cfn.send(new CreateStackCommand({ StackName: 'crashed', TemplateBody: JSON.stringify(template) }));
  const { StackId } = await settle(first.cfn, 'crashed');
  await first.stop({ keepData: true });
  const stateFile = join(first.dataDir, 'state', 'cloudformation.json');
  const stacks = JSON.parse(readFileSync(stateFile, 'utf8')) as { stackId: string; status: string }[];
  stacks.find((stack) => stack.stackId === StackId)!.status = status;
  writeFileSync(stateFile, JSON.stringify(stacks));
  if (journal) {
    mkdirSync(join(first.dataDir, 'state', 'operations'), { recursive: true });
    writeFileSync(join(first.dataDir, 'state', 'operations', `${StackId!.split('/').pop()}.jsonl`), `${JSON.stringify({ stackId: StackId, ...journal })}\n`);
  }
  const cloud = await startTestCloud(first.dataDir);
  context.clouds.push(cloud);
  return { cloud, stackId: StackId! };
}

async function bucketNames(cloud: TestCloud): Promise<string[]> {
  return ((await cloud.s3.send(new ListBucketsCommand({}))).Buckets ?? []).map((bucket) => bucket.Name!);
}

recovery('a delete cut off by a crash is finished', async (context) => {
  const { cloud, stackId } = await cutOff(context, 'DELETE_IN_PROGRESS', { kind: 'begin', action: 'DELETE' });
  assert.is((await settle(cloud.cfn, stackId)).StackStatus, 'DELETE_COMPLETE');
  assert.equal(await bucketNames(cloud), []);
  const error = await cloud.cfn.send(new DescribeStacksCommand({ StackName: 'crashed' })).then(() => undefined, (failure: Error) => failure.message);
  assert.is(error, 'Stack with id crashed does not exist');
});

recovery('a creation saved in progress without a journal (an older fw) is rolled back with what it holds', async (context) => {
  const { cloud } = await cutOff(context, 'CREATE_IN_PROGRESS');
  const stack = await settle(cloud.cfn, 'crashed');
  assert.equal([stack.StackStatus, stack.StackStatusReason], ['ROLLBACK_COMPLETE', undefined]);
  assert.equal(await bucketNames(cloud), []);
});

recovery('an update saved in progress without a journal keeps its resources and takes updates again', async (context) => {
  const { cloud } = await cutOff(context, 'UPDATE_IN_PROGRESS');
  const stack = await settle(cloud.cfn, 'crashed');
  assert.equal([stack.StackStatus, stack.StackStatusReason], ['UPDATE_ROLLBACK_COMPLETE', 'The local cloud stopped while this operation ran']);
  assert.equal(await bucketNames(cloud), ['crash-files']);
});

recovery('a nested stack its parent does not list (the parent never recorded it) is deleted at start', async (context) => {
  const first = await startTestCloud();
  await first.s3.send(new CreateBucketCommand({ Bucket: 'templates' }));
  await first.s3.send(new PutObjectCommand({ Bucket: 'templates', Key: 'child.json', Body: JSON.stringify(template) }));
  const parent = { Resources: { Child: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'https://templates.s3.amazonaws.com/child.json' } } } };
  await first.cfn.send(new CreateStackCommand({ StackName: 'parent', TemplateBody: JSON.stringify(parent) }));
  assert.is((await settle(first.cfn, 'parent')).StackStatus, 'CREATE_COMPLETE');
  await first.stop({ keepData: true });
  const stateFile = join(first.dataDir, 'state', 'cloudformation.json');
  const stacks = JSON.parse(readFileSync(stateFile, 'utf8')) as { stackName: string; resources: Record<string, unknown> }[];
  delete stacks.find((stack) => stack.stackName === 'parent')!.resources.Child;
  writeFileSync(stateFile, JSON.stringify(stacks));

  const cloud = await startTestCloud(first.dataDir);
  context.clouds.push(cloud);
  let live: string[] = [];
  for (let i = 0; i < 100; i++) {
    const { StackSummaries } = await cloud.cfn.send(new ListStacksCommand({}));
    live = StackSummaries!.filter((summary) => summary.StackStatus !== 'DELETE_COMPLETE').map((summary) => summary.StackName!);
    if (live.length === 1) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(live, ['parent']);
  assert.equal(await bucketNames(cloud), ['templates']);
});

recovery.run();
