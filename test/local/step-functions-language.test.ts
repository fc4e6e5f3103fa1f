import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateTableCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { CreateTopicCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { EventBridgeClient, PutRuleCommand, PutTargetsCommand } from '@aws-sdk/client-eventbridge';
import { CreateStateMachineCommand, DescribeExecutionCommand, GetExecutionHistoryCommand, SendTaskHeartbeatCommand, SFNClient, StartExecutionCommand, type DescribeExecutionCommandOutput } from '@aws-sdk/client-sfn';
import { startTestCloud, type TestCloud } from './helpers';

/**
 * The Amazon States Language as the local cloud runs it, state machine by state machine through the
 * Step Functions API (SDK v3 over HTTP): intrinsic functions, path errors, timeouts, Parallel and Map
 * failures, and the DynamoDB, SNS, EventBridge and Step Functions integrations with their error names.
 */
interface Context {
  t: TestCloud;
  sfn: SFNClient;
  sqs: SQSClient;
  count: number;
}

const ROLE = 'arn:aws:iam::000000000000:role/flows';

/** Creates a machine for `states` (first state first) and runs it on `input` to its end. */
async function execute(context: Context, states: Record<string, unknown>, input: unknown, extra: Record<string, unknown> = {}): Promise<DescribeExecutionCommandOutput> {
  const definition = JSON.stringify({ StartAt: Object.keys(states)[0], States: states, ...extra });
  const { stateMachineArn } = await context.sfn.send(new CreateStateMachineCommand({ name: `machine-${++context.count}`, definition, roleArn: ROLE }));
  const { executionArn } = await context.sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input) }));
  for (let waited = 0; ; waited += 20) {
    const described = await context.sfn.send(new DescribeExecutionCommand({ executionArn }));
    if (described.status !== 'RUNNING') return described;
    if (waited > 15_000) throw new Error(`${executionArn} still RUNNING`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const outcome = (described: DescribeExecutionCommandOutput) => (described.status === 'SUCCEEDED' ? ['SUCCEEDED', JSON.parse(described.output!)] : [described.status, described.error, described.cause]);

const language = suite<Context>('the Amazon States Language in the local cloud');
language.before(async (context) => {
  context.t = await startTestCloud();
  context.sfn = new SFNClient({ ...context.t.config, maxAttempts: 1 });
  context.sqs = new SQSClient({ ...context.t.config, maxAttempts: 1 });
  context.count = 0;
});
language.after(async (context) => {
  context.sfn.destroy();
  context.sqs.destroy();
  await context.t.stop();
});

language('intrinsic functions compute what AWS documents', async (context) => {
  const done = await execute(
    context,
    {
      Compute: {
        Type: 'Pass',
        Parameters: {
          'format.$': "States.Format('{} has {} items: {}', $.name, States.ArrayLength($.items), $.items)",
          'escaped.$': "States.Format('a \\{literal\\} and \\'quotes\\'')",
          'parsed.$': 'States.StringToJson($.text)',
          'text.$': 'States.JsonToString($.object)',
          'array.$': "States.Array('a', 1, true, null, $.object)",
          'chunks.$': 'States.ArrayPartition($.items, 2)',
          'contains.$': 'States.ArrayContains($.items, 3)',
          'range.$': 'States.ArrayRange(1, 9, 3)',
          'item.$': 'States.ArrayGetItem($.items, 1)',
          'unique.$': 'States.ArrayUnique(States.Array(1, 2, 1, 2))',
          'base64.$': "States.Base64Encode('hi there')",
          'decoded.$': "States.Base64Decode('aGkgdGhlcmU=')",
          'hash.$': "States.Hash('input', 'SHA-256')",
          'merged.$': 'States.JsonMerge($.object, States.StringToJson(\'{"b":3}\'), false)',
          'sum.$': 'States.MathAdd($.items[0], -5)',
          'split.$': "States.StringSplit('a,b;c', ',;')",
          'fixed': { 'nested.$': '$.object.a' },
        },
        End: true,
      },
    },
    { name: 'cart', items: [1, 2, 3], text: '{"x":[1]}', object: { a: 1, b: 2 } },
  );
  assert.equal(outcome(done), [
    'SUCCEEDED',
    {
      format: 'cart has 3 items: [1,2,3]',
      escaped: "a {literal} and 'quotes'",
      parsed: { x: [1] },
      text: '{"a":1,"b":2}',
      array: ['a', 1, true, null, { a: 1, b: 2 }],
      chunks: [[1, 2], [3]],
      contains: true,
      range: [1, 4, 7],
      item: 2,
      unique: [1, 2],
      base64: 'aGkgdGhlcmU=',
      decoded: 'hi there',
      hash: 'c96c6d5be8d08a12e7b5cdc1b207fa6b2430974c86803d8891675e76fd992c20',
      merged: { a: 1, b: 3 },
      sum: -4,
      split: ['a', 'b', 'c'],
      fixed: { nested: 1 },
    },
  ]);
});

language('a path that selects nothing fails the execution with States.Runtime, which States.ALL does not catch; a wrong intrinsic is States.IntrinsicFailure, which it does', async (context) => {
  const missing = await execute(context, { Read: { Type: 'Pass', Parameters: { 'v.$': '$.absent' }, End: true } }, { present: 1 });
  assert.equal(outcome(missing), ['FAILED', 'States.Runtime', "Invalid path '$.absent' : No results for path: $['v']"]);
  const choice = await execute(context, { Pick: { Type: 'Choice', Choices: [{ Variable: '$.n', NumericEquals: 1, Next: 'One' }], Default: 'One' }, One: { Type: 'Succeed' } }, {});
  assert.equal(outcome(choice), ['FAILED', 'States.Runtime', "Invalid path '$.n': The choice state's condition path references an invalid value."]);
  const unmatched = await execute(context, { Pick: { Type: 'Choice', Choices: [{ Variable: '$.n', NumericEquals: 1, Next: 'One' }] }, One: { Type: 'Succeed' } }, { n: 2 });
  assert.equal(outcome(unmatched), ['FAILED', 'States.NoChoiceMatched', "No Matches! at state 'Pick'"]);
  const caught = await execute(
    context,
    {
      Fan: {
        Type: 'Parallel',
        Branches: [{ StartAt: 'Bad', States: { Bad: { Type: 'Pass', Parameters: { 'v.$': 'States.ArrayGetItem($.list, 5)' }, End: true } } }],
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Handled' }],
        End: true,
      },
      Handled: { Type: 'Pass', OutputPath: '$.error.Error', End: true },
    },
    { list: [1] },
  );
  assert.equal(outcome(caught), ['SUCCEEDED', 'States.IntrinsicFailure']);
});

language('TimeoutSeconds: a machine past it ends TIMED_OUT; a Wait reads SecondsPath and TimestampPath; a Fail reads ErrorPath and CausePath', async (context) => {
  const slow = await execute(context, { Nap: { Type: 'Wait', Seconds: 5, End: true } }, {}, { TimeoutSeconds: 1 });
  assert.equal(outcome(slow), ['TIMED_OUT', 'States.Timeout', 'The execution ran longer than its TimeoutSeconds (1)']);
  const began = Date.now();
  const waited = await execute(
    context,
    {
      ForSeconds: { Type: 'Wait', SecondsPath: '$.seconds', Next: 'Until' },
      Until: { Type: 'Wait', TimestampPath: '$.until', Next: 'Stop' },
      Stop: { Type: 'Fail', ErrorPath: '$.error', CausePath: "States.Format('waited {} s', $.seconds)" },
    },
    { seconds: 1, until: new Date(Date.now() + 1500).toISOString(), error: 'Done.Waiting' },
  );
  assert.equal(outcome(waited), ['FAILED', 'Done.Waiting', 'waited 1 s']);
  assert.ok(Date.now() - began >= 1400, `waited ${Date.now() - began} ms`);
});

language('a failing Map iteration fails the Map with its error; the history names each iteration', async (context) => {
  const done = await execute(
    context,
    {
      Each: {
        Type: 'Map',
        MaxConcurrency: 1,
        ItemProcessor: { StartAt: 'Check', States: { Check: { Type: 'Choice', Choices: [{ Variable: '$', NumericLessThan: 0, Next: 'Negative' }], Default: 'Fine' }, Negative: { Type: 'Fail', Error: 'Item.Negative', Cause: 'below zero' }, Fine: { Type: 'Succeed' } } },
        End: true,
      },
    },
    [1, -1, 2],
  );
  assert.equal(outcome(done), ['FAILED', 'Item.Negative', 'below zero']);
  const { events = [] } = await context.sfn.send(new GetExecutionHistoryCommand({ executionArn: done.executionArn }));
  assert.equal(
    events.map((event) => event.type + (event.mapIterationStartedEventDetails ? ` ${event.mapIterationStartedEventDetails.index}` : '')),
    ['ExecutionStarted', 'MapStateEntered', 'MapStateStarted', 'MapIterationStarted 0', 'ChoiceStateEntered', 'ChoiceStateExited', 'SucceedStateEntered', 'SucceedStateExited', 'MapIterationSucceeded', 'MapIterationStarted 1', 'ChoiceStateEntered', 'ChoiceStateExited', 'FailStateEntered', 'MapIterationFailed', 'MapStateFailed', 'ExecutionFailed'],
  );
});

language('DynamoDB, SNS, EventBridge and Step Functions integrations reach the local services; their errors are named <Service>.<Exception>', async (context) => {
  const dynamodb = new DynamoDBClient({ ...context.t.config, maxAttempts: 1 });
  const sns = new SNSClient({ ...context.t.config, maxAttempts: 1 });
  const events = new EventBridgeClient({ ...context.t.config, maxAttempts: 1 });
  try {
    await dynamodb.send(new CreateTableCommand({ TableName: 'counters', AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], BillingMode: 'PAY_PER_REQUEST' }));
    await dynamodb.send(new PutItemCommand({ TableName: 'counters', Item: { id: { S: 'c' }, n: { N: '1' } } }));
    const { QueueUrl } = await context.sqs.send(new CreateQueueCommand({ QueueName: 'inbox' }));
    const { Attributes } = await context.sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: 'news' }));
    await sns.send(new SubscribeCommand({ TopicArn, Protocol: 'sqs', Endpoint: Attributes!.QueueArn, Attributes: { RawMessageDelivery: 'true' } }));
    await events.send(new PutRuleCommand({ Name: 'orders', EventPattern: JSON.stringify({ source: ['flows'] }) }));
    await events.send(new PutTargetsCommand({ Rule: 'orders', Targets: [{ Id: 'inbox', Arn: Attributes!.QueueArn, InputPath: '$.detail' }] }));
    const child = await context.sfn.send(new CreateStateMachineCommand({ name: 'child', definition: JSON.stringify({ StartAt: 'Done', States: { Done: { Type: 'Succeed' } } }), roleArn: ROLE }));
    const done = await execute(
      context,
      {
        Increment: { Type: 'Task', Resource: 'arn:aws:states:::dynamodb:updateItem', Parameters: { TableName: 'counters', Key: { id: { S: 'c' } }, UpdateExpression: 'SET n = n + :one', ExpressionAttributeValues: { ':one': { N: '1' } }, ReturnValues: 'UPDATED_NEW' }, ResultSelector: { 'n.$': '$.Attributes.n.N' }, ResultPath: '$.counter', Next: 'Announce' },
        Announce: { Type: 'Task', Resource: 'arn:aws:states:::sns:publish', Parameters: { TopicArn, Message: { 'count.$': '$.counter.n' } }, ResultSelector: { 'hasId.$': 'States.ArrayContains(States.Array($.MessageId), $.MessageId)' }, ResultPath: '$.published', Next: 'Emit' },
        Emit: { Type: 'Task', Resource: 'arn:aws:states:::events:putEvents', Parameters: { Entries: [{ Source: 'flows', DetailType: 'counted', Detail: { 'count.$': '$.counter.n' } }] }, ResultSelector: { 'failed.$': '$.FailedEntryCount' }, ResultPath: '$.emitted', Next: 'Child' },
        Child: { Type: 'Task', Resource: 'arn:aws:states:::states:startExecution', Parameters: { StateMachineArn: child.stateMachineArn, Name: 'from-parent', Input: { 'count.$': '$.counter.n' } }, ResultSelector: { 'arn.$': '$.ExecutionArn' }, ResultPath: '$.child', Next: 'Guarded' },
        Guarded: {
          Type: 'Task',
          Resource: 'arn:aws:states:::dynamodb:deleteItem',
          Parameters: { TableName: 'counters', Key: { id: { S: 'c' } }, ConditionExpression: 'n = :zero', ExpressionAttributeValues: { ':zero': { N: '0' } } },
          Catch: [{ ErrorEquals: ['DynamoDB.ConditionalCheckFailedException'], ResultPath: '$.refused', Next: 'Done' }],
          Next: 'Done',
        },
        Done: { Type: 'Pass', Parameters: { 'counter.$': '$.counter', 'published.$': '$.published', 'emitted.$': '$.emitted', 'child.$': '$.child', 'refused.$': '$.refused.Error' }, End: true },
      },
      {},
    );
    assert.equal(outcome(done), [
      'SUCCEEDED',
      { counter: { n: '2' }, published: { hasId: true }, emitted: { failed: 0 }, child: { arn: 'arn:aws:states:us-east-1:000000000000:execution:child:from-parent' }, refused: 'DynamoDB.ConditionalCheckFailedException' },
    ]);
    const bodies: string[] = [];
    for (let tries = 0; bodies.length < 2 && tries < 10; tries++) {
      const { Messages = [] } = await context.sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      bodies.push(...Messages.map((message) => message.Body!));
    }
    assert.equal(bodies.sort(), ['{"count":"2"}', '{"count":"2"}']);
    const childRun = await context.sfn.send(new DescribeExecutionCommand({ executionArn: 'arn:aws:states:us-east-1:000000000000:execution:child:from-parent' }));
    assert.equal([childRun.status, childRun.input], ['SUCCEEDED', '{"count":"2"}']);
  } finally {
    dynamodb.destroy();
    sns.destroy();
    events.destroy();
  }
});

language('a failing Parallel branch stops its siblings: Catch takes over at once and the history records nothing more of them', async (context) => {
  const began = Date.now();
  const done = await execute(
    context,
    {
      Both: {
        Type: 'Parallel',
        Branches: [
          { StartAt: 'Slow', States: { Slow: { Type: 'Wait', Seconds: 2, Next: 'After' }, After: { Type: 'Pass', End: true } } },
          { StartAt: 'Broken', States: { Broken: { Type: 'Fail', Error: 'Branch.Broken', Cause: 'at once' } } },
        ],
        Catch: [{ ErrorEquals: ['Branch.Broken'], ResultPath: null, Next: 'Recovered' }],
        End: true,
      },
      Recovered: { Type: 'Pass', Result: 'recovered', End: true },
    },
    {},
  );
  assert.ok(Date.now() - began < 1800, `took ${Date.now() - began} ms`);
  assert.equal(outcome(done), ['SUCCEEDED', 'recovered']);
  await new Promise((resolve) => setTimeout(resolve, 2300));
  const { events = [] } = await context.sfn.send(new GetExecutionHistoryCommand({ executionArn: done.executionArn }));
  assert.equal(
    events.map((event) => [event.type, event.previousEventId]),
    [['ExecutionStarted', 0], ['ParallelStateEntered', 1], ['ParallelStateStarted', 2], ['WaitStateEntered', 3], ['FailStateEntered', 3], ['ParallelStateFailed', 3], ['ParallelStateExited', 6], ['PassStateEntered', 7], ['PassStateExited', 8], ['ExecutionSucceeded', 9]],
  );
});

language('HeartbeatSeconds: a token task not heard from in time fails with States.HeartbeatTimeout; SendTaskHeartbeat starts the wait again', async (context) => {
  const { QueueUrl } = await context.sqs.send(new CreateQueueCommand({ QueueName: 'tokens' }));
  const definition = JSON.stringify({ StartAt: 'Ask', States: { Ask: { Type: 'Task', Resource: 'arn:aws:states:::sqs:sendMessage.waitForTaskToken', HeartbeatSeconds: 1, Parameters: { QueueUrl, 'MessageBody.$': '$$.Task.Token' }, End: true } } });
  const { stateMachineArn } = await context.sfn.send(new CreateStateMachineCommand({ name: 'heartbeats', definition, roleArn: ROLE }));
  const began = Date.now();
  const { executionArn } = await context.sfn.send(new StartExecutionCommand({ stateMachineArn }));
  const { Messages = [] } = await context.sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 5 }));
  await new Promise((resolve) => setTimeout(resolve, 600));
  await context.sfn.send(new SendTaskHeartbeatCommand({ taskToken: Messages[0].Body }));
  let described = await context.sfn.send(new DescribeExecutionCommand({ executionArn }));
  while (described.status === 'RUNNING') {
    await new Promise((resolve) => setTimeout(resolve, 50));
    described = await context.sfn.send(new DescribeExecutionCommand({ executionArn }));
  }
  const took = Date.now() - began;
  assert.equal([described.status, described.error], ['FAILED', 'States.HeartbeatTimeout']);
  assert.ok(took >= 1500 && took < 4000, `the heartbeat kept it waiting ${took} ms`);
  const { events = [] } = await context.sfn.send(new GetExecutionHistoryCommand({ executionArn }));
  assert.equal(events.map((event) => event.type).slice(-3), ['TaskSubmitted', 'TaskTimedOut', 'ExecutionFailed']);
  assert.equal(events.at(-2)?.taskTimedOutEventDetails, { resourceType: 'sqs', resource: 'sendMessage.waitForTaskToken', error: 'States.HeartbeatTimeout', cause: '' });
});

language('states:startExecution.sync:2 waits for the child execution: its output as JSON, a failed child as States.TaskFailed', async (context) => {
  const definition = JSON.stringify({ StartAt: 'Check', States: { Check: { Type: 'Choice', Choices: [{ Variable: '$.ok', BooleanEquals: true, Next: 'Good' }], Default: 'Bad' }, Good: { Type: 'Pass', Parameters: { 'echo.$': '$.value' }, End: true }, Bad: { Type: 'Fail', Error: 'Child.Failed', Cause: 'not ok' } } });
  const { stateMachineArn } = await context.sfn.send(new CreateStateMachineCommand({ name: 'sync-child', definition, roleArn: ROLE }));
  const parent = (ok: boolean) =>
    execute(
      context,
      {
        Run: {
          Type: 'Task',
          Resource: 'arn:aws:states:::states:startExecution.sync:2',
          Parameters: { StateMachineArn: stateMachineArn, Input: { ok, value: 7 } },
          ResultSelector: { 'status.$': '$.Status', 'output.$': '$.Output', 'name.$': '$.Name' },
          Catch: [{ ErrorEquals: ['States.TaskFailed'], Next: 'Failed' }],
          End: true,
        },
        Failed: { Type: 'Pass', Parameters: { 'error.$': '$.Error', 'child.$': 'States.StringToJson($.Cause)' }, OutputPath: '$.child.Status', End: true },
      },
      {},
    );
  const good = outcome(await parent(true));
  assert.equal([good[0], (good[1] as { status: string }).status, (good[1] as { output: unknown }).output], ['SUCCEEDED', 'SUCCEEDED', { echo: 7 }]);
  assert.equal(outcome(await parent(false)), ['SUCCEEDED', 'FAILED']);
});

language.run();
