import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  CancelUpdateStackCommand,
  ContinueUpdateRollbackCommand,
  CreateStackCommand,
  DescribeStackEventsCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  ListStackResourcesCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { eventLines, failure, outputsOf, settle, startTestCloud, zip, type TestCloud } from './helpers';

interface Context {
  t: TestCloud;
  lambda: LambdaClient;
}

const operations = suite<Context>('CancelUpdateStack, ContinueUpdateRollback and wait conditions in the local cloud');

operations.before(async (context) => {
  context.t = await startTestCloud();
  context.lambda = new LambdaClient({ ...context.t.config, maxAttempts: 1 });
  await context.t.s3.send(new CreateBucketCommand({ Bucket: 'code' }));
});

operations.after(async (context) => {
  context.lambda.destroy();
  await context.t.stop();
});

const WAIT = {
  Handle: { Type: 'AWS::CloudFormation::WaitConditionHandle' },
  Wait: { Type: 'AWS::CloudFormation::WaitCondition', Properties: { Handle: { Ref: 'Handle' }, Timeout: '300', Count: 1 } },
};
const topic = { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'kept-topic' } };

/** The handle's URL, once the stack lists it (the operation is then waiting on it). */
async function handleUrl(t: TestCloud, stackName: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const { StackResources } = await t.cfn.send(new DescribeStackResourcesCommand({ StackName: stackName }));
    const handle = StackResources!.find((resource) => resource.LogicalResourceId === 'Handle');
    if (handle?.ResourceStatus === 'CREATE_COMPLETE') return handle.PhysicalResourceId!;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${stackName} never made its wait condition handle`);
}

async function resourceIds(t: TestCloud, stackName: string): Promise<string[]> {
  const { StackResourceSummaries } = await t.cfn.send(new ListStackResourcesCommand({ StackName: stackName }));
  return StackResourceSummaries!.map((summary) => summary.LogicalResourceId!).sort();
}

operations('a wait condition holds the operation until its handle is signalled, and exposes the data', async ({ t }) => {
  const template = { Resources: WAIT, Outputs: { Data: { Value: { 'Fn::GetAtt': ['Wait', 'Data'] } } } };
  await t.cfn.send(new CreateStackCommand({ StackName: 'waits', TemplateBody: JSON.stringify(template) }));
  const url = await handleUrl(t, 'waits');
  assert.match(url, new RegExp(`^${t.cloud.url.replace(/\./g, '\\.')}/_fw/wait-condition/[a-z0-9]{20}$`));
  const { Stacks } = await t.cfn.send(new DescribeStacksCommand({ StackName: 'waits' }));
  assert.is(Stacks![0].StackStatus, 'CREATE_IN_PROGRESS');
  const response = await fetch(url, { method: 'PUT', body: JSON.stringify({ Status: 'SUCCESS', UniqueId: 'setup', Data: 'ready', Reason: 'done' }) });
  assert.is(response.status, 200);
  const stack = await settle(t.cfn, 'waits');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE');
  assert.equal(outputsOf(stack), { Data: '{"setup":"ready"}' });
});

operations('a FAILURE signal fails the wait condition with its reason and rolls the creation back', async ({ t }) => {
  await t.cfn.send(new CreateStackCommand({ StackName: 'refused', TemplateBody: JSON.stringify({ Resources: WAIT }) }));
  const url = await handleUrl(t, 'refused');
  await fetch(url, { method: 'PUT', body: JSON.stringify({ Status: 'FAILURE', UniqueId: 'setup', Reason: 'disk full' }) });
  assert.is((await settle(t.cfn, 'refused')).StackStatus, 'ROLLBACK_COMPLETE');
  const { StackEvents } = await t.cfn.send(new DescribeStackEventsCommand({ StackName: 'refused' }));
  const failed = StackEvents!.find((event) => event.ResourceStatus === 'CREATE_FAILED');
  assert.is(failed?.ResourceStatusReason, "WaitCondition received failed message: 'disk full' for uniqueId: setup");
});

operations('CancelUpdateStack stops an update and rolls it back to the previous resources', async ({ t }) => {
  await t.cfn.send(new CreateStackCommand({ StackName: 'cancelled', TemplateBody: JSON.stringify({ Resources: { Topic: topic } }) }));
  assert.is((await settle(t.cfn, 'cancelled')).StackStatus, 'CREATE_COMPLETE');
  await t.cfn.send(new UpdateStackCommand({ StackName: 'cancelled', TemplateBody: JSON.stringify({ Resources: { Topic: topic, ...WAIT } }) }));
  await handleUrl(t, 'cancelled');
  await t.cfn.send(new CancelUpdateStackCommand({ StackName: 'cancelled' }));
  const stack = await settle(t.cfn, 'cancelled');
  assert.is(stack.StackStatus, 'UPDATE_ROLLBACK_COMPLETE');
  assert.equal(await resourceIds(t, 'cancelled'), ['Topic']);
  const lines = await eventLines(t.cfn, 'cancelled');
  assert.equal(lines.slice(lines.indexOf('cancelled UPDATE_IN_PROGRESS')), [
    'cancelled UPDATE_IN_PROGRESS',
    'Handle CREATE_IN_PROGRESS',
    'Handle CREATE_COMPLETE',
    'Wait CREATE_IN_PROGRESS',
    'Wait CREATE_FAILED',
    'cancelled UPDATE_ROLLBACK_IN_PROGRESS',
    'Handle DELETE_IN_PROGRESS',
    'Handle DELETE_COMPLETE',
    'cancelled UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
    'cancelled UPDATE_ROLLBACK_COMPLETE',
  ]);
  const error = await failure(t.cfn.send(new CancelUpdateStackCommand({ StackName: 'cancelled' })));
  assert.is(error?.name, 'ValidationError');
  assert.is(error?.message, 'CancelUpdateStack cannot be called from current stack status');
});

operations('CancelUpdateStack also stops a nested stack the update is creating, which does not outlive the rollback', async ({ t }) => {
  await t.s3.send(new PutObjectCommand({ Bucket: 'code', Key: 'waiting-child.json', Body: JSON.stringify({ Resources: WAIT }) }));
  await t.cfn.send(new CreateStackCommand({ StackName: 'outer', TemplateBody: JSON.stringify({ Resources: { Topic: topic } }) }));
  assert.is((await settle(t.cfn, 'outer')).StackStatus, 'CREATE_COMPLETE');
  const child = { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'https://code.s3.amazonaws.com/waiting-child.json' } };
  await t.cfn.send(new UpdateStackCommand({ StackName: 'outer', TemplateBody: JSON.stringify({ Resources: { Topic: topic, Child: child } }) }));
  let childId: string | undefined;
  while (!childId) {
    const { Stacks } = await t.cfn.send(new DescribeStacksCommand({}));
    childId = Stacks!.find((stack) => stack.StackName!.startsWith('outer-Child-'))?.StackId;
  }
  await handleUrl(t, childId);
  await t.cfn.send(new CancelUpdateStackCommand({ StackName: 'outer' }));
  assert.is((await settle(t.cfn, 'outer')).StackStatus, 'UPDATE_ROLLBACK_COMPLETE');
  assert.equal(await resourceIds(t, 'outer'), ['Topic']);
  const { Stacks } = await t.cfn.send(new DescribeStacksCommand({ StackName: childId }));
  assert.equal([Stacks![0].StackStatus, Stacks![0].ParentId], ['DELETE_COMPLETE', (await t.cfn.send(new DescribeStacksCommand({ StackName: 'outer' }))).Stacks![0].StackId]);
});

/** A stack whose update rollback fails: the previous code object of its function is gone when the rollback needs it. */
async function rollbackFailedStack(context: Context, stackName: string, functionName: string): Promise<void> {
  const { t } = context;
  await t.s3.send(new PutObjectCommand({ Bucket: 'code', Key: `${stackName}/v1.zip`, Body: await zip({ 'index.js': "exports.handler = async () => 'v1';" }) }));
  await t.s3.send(new PutObjectCommand({ Bucket: 'code', Key: `${stackName}/v2.zip`, Body: await zip({ 'index.js': "exports.handler = async () => 'v2';" }) }));
  const fn = (key: string) => ({
    Type: 'AWS::Lambda::Function',
    Properties: { FunctionName: functionName, Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'arn:aws:iam::000000000000:role/r', Code: { S3Bucket: 'code', S3Key: `${stackName}/${key}` } },
  });
  await t.cfn.send(new CreateStackCommand({ StackName: stackName, TemplateBody: JSON.stringify({ Resources: { Fn: fn('v1.zip') } }) }));
  assert.is((await settle(t.cfn, stackName)).StackStatus, 'CREATE_COMPLETE');
  await t.s3.send(new DeleteObjectCommand({ Bucket: 'code', Key: `${stackName}/v1.zip` }));
  const broken = { Type: 'AWS::Lambda::Function', DependsOn: 'Fn', Properties: { PackageType: 'Image', Role: 'r', Code: { ImageUri: 'x' } } };
  await t.cfn.send(new UpdateStackCommand({ StackName: stackName, TemplateBody: JSON.stringify({ Resources: { Fn: fn('v2.zip'), Broken: broken } }) }));
  const stack = await settle(t.cfn, stackName);
  assert.is(stack.StackStatus, 'UPDATE_ROLLBACK_FAILED');
  assert.is(stack.StackStatusReason, 'The following resource(s) failed to update: [Fn]. ');
}

async function invoke(context: Context, functionName: string): Promise<unknown> {
  const result = await context.lambda.send(new InvokeCommand({ FunctionName: functionName }));
  return JSON.parse(Buffer.from(result.Payload!).toString());
}

operations('ContinueUpdateRollback finishes a rollback once the resource that blocked it is fixed', async (context) => {
  const { t } = context;
  await rollbackFailedStack(context, 'stuck', 'stuck-fn');
  const notSkippable = await failure(t.cfn.send(new ContinueUpdateRollbackCommand({ StackName: 'stuck', ResourcesToSkip: ['Broken'] })));
  assert.is(notSkippable?.message, 'Resource Broken cannot be skipped: only a resource whose rollback failed (UPDATE_FAILED) can be skipped');
  await t.s3.send(new PutObjectCommand({ Bucket: 'code', Key: 'stuck/v1.zip', Body: await zip({ 'index.js': "exports.handler = async () => 'v1';" }) }));
  await t.cfn.send(new ContinueUpdateRollbackCommand({ StackName: 'stuck' }));
  assert.is((await settle(t.cfn, 'stuck')).StackStatus, 'UPDATE_ROLLBACK_COMPLETE');
  assert.equal(await resourceIds(t, 'stuck'), ['Fn']);
  assert.is(await invoke(context, 'stuck-fn'), 'v1');
  const again = await failure(t.cfn.send(new ContinueUpdateRollbackCommand({ StackName: 'stuck' })));
  assert.is(again?.name, 'ValidationError');
  assert.is(again?.message, 'ContinueUpdateRollback cannot be called from current stack status');
});

operations('ContinueUpdateRollback with ResourcesToSkip leaves the skipped resource as the update made it', async (context) => {
  const { t } = context;
  await rollbackFailedStack(context, 'skipping', 'skipping-fn');
  await t.cfn.send(new ContinueUpdateRollbackCommand({ StackName: 'skipping', ResourcesToSkip: ['Fn'] }));
  assert.is((await settle(t.cfn, 'skipping')).StackStatus, 'UPDATE_ROLLBACK_COMPLETE');
  const { StackResources } = await t.cfn.send(new DescribeStackResourcesCommand({ StackName: 'skipping' }));
  assert.equal(StackResources!.map((resource) => `${resource.LogicalResourceId} ${resource.ResourceStatus}`), ['Fn UPDATE_COMPLETE']);
  assert.is(await invoke(context, 'skipping-fn'), 'v2');
  // The stack takes updates again.
  await t.cfn.send(new UpdateStackCommand({ StackName: 'skipping', TemplateBody: JSON.stringify({ Resources: { Topic: topic } }) }));
  assert.is((await settle(t.cfn, 'skipping')).StackStatus, 'UPDATE_COMPLETE');
});

operations('stopping the local cloud rolls back a creation waiting on a wait condition, rather than waiting for it', async () => {
  const other = await startTestCloud();
  await other.cfn.send(new CreateStackCommand({ StackName: 'held', TemplateBody: JSON.stringify({ Resources: WAIT }) }));
  await handleUrl(other, 'held');
  const started = Date.now();
  await other.stop({ keepData: true });
  assert.ok(Date.now() - started < 5000, `stopping took ${Date.now() - started} ms`);
  const again = await startTestCloud(other.dataDir);
  try {
    const stack = await settle(again.cfn, 'held');
    assert.is(stack.StackStatus, 'ROLLBACK_COMPLETE');
    assert.is(stack.StackStatusReason, undefined);
    assert.equal(await resourceIds(again, 'held'), []);
  } finally {
    await again.stop();
  }
});

operations.run();
