import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DescribeChangeSetCommand,
  DescribeStackEventsCommand,
  ExecuteChangeSetCommand,
  GetStackPolicyCommand,
  SetStackPolicyCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { eventLines, failure, settle, startTestCloud, type TestCloud } from './helpers';

interface Context {
  t: TestCloud;
  sqs: SQSClient;
}

const policies = suite<Context>('Stack policies in the local cloud: updates are checked against them as CloudFormation does');

policies.before(async (context) => {
  context.t = await startTestCloud();
  context.sqs = new SQSClient(context.t.config);
});

policies.after(async (context) => {
  context.sqs.destroy();
  await context.t.stop();
});

const queue = (name: string, timeout = 30) => ({ Type: 'AWS::SQS::Queue', Properties: { QueueName: name, VisibilityTimeout: timeout } });
const topic = (name: string) => ({ Type: 'AWS::SNS::Topic', Properties: { TopicName: name } });
const body = (resources: Record<string, unknown>) => JSON.stringify({ Resources: resources });
const policy = (...statements: Record<string, unknown>[]) => JSON.stringify({ Statement: statements.map((statement) => ({ Principal: '*', ...statement })) });
const ALLOW_ALL = policy({ Effect: 'Allow', Action: 'Update:*', Resource: '*' });

async function createStack(t: TestCloud, name: string, resources: Record<string, unknown>, stackPolicy?: string): Promise<void> {
  await t.cfn.send(new CreateStackCommand({ StackName: name, TemplateBody: body(resources), StackPolicyBody: stackPolicy }));
  assert.is((await settle(t.cfn, name)).StackStatus, 'CREATE_COMPLETE');
}

/** Updates the stack and answers its final status, reason and the reasons of its UPDATE_FAILED events. */
async function update(t: TestCloud, name: string, resources: Record<string, unknown>, extra: Record<string, string> = {}) {
  await t.cfn.send(new UpdateStackCommand({ StackName: name, TemplateBody: body(resources), ...extra }));
  const stack = await settle(t.cfn, name);
  const { StackEvents } = await t.cfn.send(new DescribeStackEventsCommand({ StackName: name }));
  const failed = StackEvents!.filter((event) => event.ResourceStatus === 'UPDATE_FAILED').map((event) => `${event.LogicalResourceId}: ${event.ResourceStatusReason}`);
  return { status: stack.StackStatus, reason: stack.StackStatusReason, failed };
}

async function visibilityTimeout(sqs: SQSClient, name: string): Promise<string | undefined> {
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: name }));
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['VisibilityTimeout'] }));
  return Attributes?.VisibilityTimeout;
}

policies('an explicit Deny on one logical id stops its modification and the update rolls back', async ({ t, sqs }) => {
  const stackPolicy = policy({ Effect: 'Allow', Action: 'Update:*', Resource: '*' }, { Effect: 'Deny', Action: 'Update:*', Resource: 'LogicalResourceId/Orders' });
  await createStack(t, 'deny-one', { Orders: queue('deny-orders'), Other: queue('deny-other') }, stackPolicy);
  const result = await update(t, 'deny-one', { Orders: queue('deny-orders', 60), Other: queue('deny-other', 60) });
  assert.equal(result, {
    status: 'UPDATE_ROLLBACK_COMPLETE',
    reason: undefined,
    failed: ['Orders: Action denied by stack policy: Statement [#1] does not allow [Update:Modify] for resource [LogicalResourceId/Orders]'],
  });
  assert.equal(await eventLines(t.cfn, 'deny-one').then((lines) => lines.slice(-5)), [
    'deny-one UPDATE_IN_PROGRESS',
    'Orders UPDATE_FAILED',
    'deny-one UPDATE_ROLLBACK_IN_PROGRESS',
    'deny-one UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
    'deny-one UPDATE_ROLLBACK_COMPLETE',
  ]);
  assert.is(await visibilityTimeout(sqs, 'deny-orders'), '30');
  assert.is(await visibilityTimeout(sqs, 'deny-other'), '30', 'nothing of the update is applied');
});

policies('the stack status reason names the denied resource', async ({ t }) => {
  await createStack(t, 'reason', { Orders: queue('reason-orders') }, policy({ Effect: 'Deny', Action: 'Update:*', Resource: '*' }));
  await t.cfn.send(new UpdateStackCommand({ StackName: 'reason', TemplateBody: body({ Orders: queue('reason-orders', 5) }) }));
  await settle(t.cfn, 'reason');
  const { StackEvents } = await t.cfn.send(new DescribeStackEventsCommand({ StackName: 'reason' }));
  const rollback = StackEvents!.find((event) => event.ResourceStatus === 'UPDATE_ROLLBACK_IN_PROGRESS');
  assert.is(rollback?.ResourceStatusReason, 'The following resource(s) failed to update: [Orders]. ');
});

policies('once a policy exists, an action no statement allows is denied (default deny)', async ({ t }) => {
  await createStack(t, 'default-deny', { Orders: queue('dd-orders') }, policy({ Effect: 'Allow', Action: 'Update:*', Resource: 'LogicalResourceId/Other*' }));
  const result = await update(t, 'default-deny', { Orders: queue('dd-orders', 60) });
  assert.equal(result.failed, ['Orders: Action denied by stack policy: No statement allows [Update:Modify] for resource [LogicalResourceId/Orders]']);
  assert.is(result.status, 'UPDATE_ROLLBACK_COMPLETE');
});

policies('Update:Replace is told apart from Update:Modify, and wildcards match logical ids', async ({ t, sqs }) => {
  const stackPolicy = policy({ Effect: 'Allow', Action: 'Update:*', Resource: '*' }, { Effect: 'Deny', Action: 'Update:Replace', Resource: 'LogicalResourceId/Ord?rs*' });
  await createStack(t, 'replace', { OrdersQueue: queue('replace-orders') }, stackPolicy);
  assert.equal(await update(t, 'replace', { OrdersQueue: queue('replace-orders', 90) }), { status: 'UPDATE_COMPLETE', reason: undefined, failed: [] });
  assert.is(await visibilityTimeout(sqs, 'replace-orders'), '90');
  const renamed = await update(t, 'replace', { OrdersQueue: queue('replace-orders-2', 90) });
  assert.equal(renamed.failed, ['OrdersQueue: Action denied by stack policy: Statement [#1] does not allow [Update:Replace] for resource [LogicalResourceId/OrdersQueue]']);
});

policies('a Condition on ResourceType and NotAction limit what a statement covers; adding a resource is never denied', async ({ t }) => {
  const stackPolicy = policy(
    { Effect: 'Allow', NotAction: 'Update:Delete', Resource: '*' },
    { Effect: 'Deny', Action: 'Update:*', Resource: '*', Condition: { StringLike: { ResourceType: ['AWS::SNS::*'] } } },
  );
  await createStack(t, 'conditions', { Orders: queue('cond-orders'), Alerts: topic('cond-alerts') }, stackPolicy);
  const added = await update(t, 'conditions', { Orders: queue('cond-orders', 60), Alerts: topic('cond-alerts'), Extra: queue('cond-extra') });
  assert.equal(added, { status: 'UPDATE_COMPLETE', reason: undefined, failed: [] });
  const deleted = await update(t, 'conditions', { Orders: queue('cond-orders', 60), Alerts: topic('cond-alerts') });
  assert.equal(deleted.failed, ['Extra: Action denied by stack policy: No statement allows [Update:Delete] for resource [LogicalResourceId/Extra]']);
  const topicRenamed = await update(t, 'conditions', { Orders: queue('cond-orders', 60), Alerts: topic('cond-alerts-2'), Extra: queue('cond-extra') });
  assert.equal(topicRenamed.failed.slice(0, 1), ['Alerts: Action denied by stack policy: Statement [#1] does not allow [Update:Replace] for resource [LogicalResourceId/Alerts]']);
});

policies('NotResource allows everything but the resources it names', async ({ t }) => {
  await createStack(t, 'not-resource', { Orders: queue('nr-orders'), Other: queue('nr-other') }, policy({ Effect: 'Allow', Action: 'Update:*', NotResource: 'LogicalResourceId/Orders' }));
  assert.is((await update(t, 'not-resource', { Orders: queue('nr-orders'), Other: queue('nr-other', 9) })).status, 'UPDATE_COMPLETE');
  assert.equal((await update(t, 'not-resource', { Orders: queue('nr-orders', 9), Other: queue('nr-other', 9) })).failed, [
    'Orders: Action denied by stack policy: No statement allows [Update:Modify] for resource [LogicalResourceId/Orders]',
  ]);
});

policies('StackPolicyDuringUpdateBody overrides the policy for that update only', async ({ t }) => {
  const denyAll = policy({ Effect: 'Deny', Action: 'Update:*', Resource: '*' });
  await createStack(t, 'during', { Orders: queue('during-orders') }, denyAll);
  assert.is((await update(t, 'during', { Orders: queue('during-orders', 7) }, { StackPolicyDuringUpdateBody: ALLOW_ALL })).status, 'UPDATE_COMPLETE');
  assert.is((await t.cfn.send(new GetStackPolicyCommand({ StackName: 'during' }))).StackPolicyBody, denyAll);
  assert.is((await update(t, 'during', { Orders: queue('during-orders', 8) })).status, 'UPDATE_ROLLBACK_COMPLETE');
  const error = await failure(t.cfn.send(new UpdateStackCommand({ StackName: 'during', TemplateBody: body({ Orders: queue('during-orders', 8) }), StackPolicyDuringUpdateBody: '{"Statement":' })));
  assert.is(error?.message, 'Error validating stack policy: Invalid stack policy');
});

policies('SetStackPolicy replaces the policy the next update is checked against, ExecuteChangeSet included', async ({ t }) => {
  await createStack(t, 'set-policy', { Orders: queue('set-orders') });
  assert.is((await t.cfn.send(new GetStackPolicyCommand({ StackName: 'set-policy' }))).StackPolicyBody, undefined);
  const denyOrders = policy({ Effect: 'Deny', Action: 'Update:Modify', Resource: 'LogicalResourceId/Orders' });
  await t.cfn.send(new SetStackPolicyCommand({ StackName: 'set-policy', StackPolicyBody: denyOrders }));
  assert.is((await t.cfn.send(new GetStackPolicyCommand({ StackName: 'set-policy' }))).StackPolicyBody, denyOrders);
  await t.cfn.send(new CreateChangeSetCommand({ StackName: 'set-policy', ChangeSetName: 'slower', TemplateBody: body({ Orders: queue('set-orders', 99) }) }));
  await t.cfn.send(new DescribeChangeSetCommand({ StackName: 'set-policy', ChangeSetName: 'slower' }));
  await t.cfn.send(new ExecuteChangeSetCommand({ StackName: 'set-policy', ChangeSetName: 'slower' }));
  const stack = await settle(t.cfn, 'set-policy');
  assert.is(stack.StackStatus, 'UPDATE_ROLLBACK_COMPLETE');
  await t.cfn.send(new SetStackPolicyCommand({ StackName: 'set-policy', StackPolicyBody: ALLOW_ALL }));
  assert.is((await update(t, 'set-policy', { Orders: queue('set-orders', 99) })).status, 'UPDATE_COMPLETE');
});

policies.run();
