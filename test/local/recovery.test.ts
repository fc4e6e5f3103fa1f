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

/**
 * A stack with a bucket, then the state a crash in the middle of an operation on it leaves: its status
 * saved in progress, and the journal lines `journal` gives for its saved record.
 */
async function cutOff(
  context: { clouds: TestCloud[] },
  status: string,
  journal?: (saved: Record<string, unknown>) => object[],
  prepare?: (cloud: TestCloud) => Promise<void>,
): Promise<{ cloud: TestCloud; stackId: string }> {
  const first = await startTestCloud();
  await first.cfn.send(new CreateStackCommand({ StackName: 'crashed', TemplateBody: JSON.stringify(template) }));
  const { StackId } = await settle(first.cfn, 'crashed');
  await prepare?.(first);
  await first.stop({ keepData: true });
  const stateFile = join(first.dataDir, 'state', 'cloudformation.json');
  const stacks = JSON.parse(readFileSync(stateFile, 'utf8')) as Record<string, unknown>[];
  const saved = stacks.find((stack) => stack.stackId === StackId)!;
  const lines = journal?.({ ...saved }) ?? [];
  saved.status = status;
  writeFileSync(stateFile, JSON.stringify(stacks));
  if (lines.length > 0) {
    mkdirSync(join(first.dataDir, 'state', 'operations'), { recursive: true });
    writeFileSync(join(first.dataDir, 'state', 'operations', `${StackId!.split('/').pop()}.jsonl`), lines.map((line) => `${JSON.stringify({ stackId: StackId, ...line })}\n`).join(''));
  }
  const cloud = await startTestCloud(first.dataDir);
  context.clouds.push(cloud);
  return { cloud, stackId: StackId! };
}

async function bucketNames(cloud: TestCloud): Promise<string[]> {
  return ((await cloud.s3.send(new ListBucketsCommand({}))).Buckets ?? []).map((bucket) => bucket.Name!);
}

recovery('a delete cut off by a crash is finished', async (context) => {
  const { cloud, stackId } = await cutOff(context, 'DELETE_IN_PROGRESS', () => [{ kind: 'begin', action: 'DELETE' }]);
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

recovery('a named bucket whose creation the crash cut off is freed; one that was there before the operation is kept', async (context) => {
  let at = '';
  const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
  const { cloud } = await cutOff(
    context,
    'UPDATE_IN_PROGRESS',
    (saved) => {
      const { templateBody, parameters, tags, outputs, imports, description, capabilities, resources } = saved;
      const pending = (logicalId: string, name: string) => ({ kind: 'pending', logicalId, type: 'AWS::S3::Bucket', properties: { BucketName: name }, at });
      return [{ kind: 'begin', action: 'UPDATE', previous: { templateBody, parameters, tags, outputs, imports, description, capabilities, resources } }, pending('Other', 'made-before'), pending('Later', 'cut-off')];
    },
    async (first) => {
      await first.s3.send(new CreateBucketCommand({ Bucket: 'made-before' }));
      await pause();
      at = new Date().toISOString();
      await pause();
      await first.s3.send(new CreateBucketCommand({ Bucket: 'cut-off' }));
    },
  );
  assert.is((await settle(cloud.cfn, 'crashed')).StackStatus, 'UPDATE_ROLLBACK_COMPLETE');
  assert.equal((await bucketNames(cloud)).sort(), ['crash-files', 'made-before']);
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
