import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LocalCloud } from '../../src/local/cloud';
import { Scheduler } from '../../src/local/eventbridge/scheduler';
import { atInstant } from '../../src/local/eventbridge/schedule';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CreateQueueCommand, GetQueueUrlCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { CreateScheduleCommand, DeleteScheduleCommand, GetScheduleCommand, ListSchedulesCommand, SchedulerClient, UpdateScheduleCommand } from '@aws-sdk/client-scheduler';
import { LOCAL_CREDENTIALS, startTestCloud } from '../helpers/local-cloud';
import { failure, settle } from './helpers';
import { matchesPattern } from '../../src/local/eventbridge/event-pattern';

/** Just enough of the local cloud for the scheduler: rules and schedules to read, and a record of invocations and messages sent. */
function fakeCloud(rules: Record<string, unknown>[], schedules: Record<string, unknown>[] = []) {
  const invoked: { target: string; event: Record<string, unknown> }[] = [];
  const sent: { arn: string; message: string; event?: unknown }[] = [];
  const cloud = {
    accountId: '000000000000',
    log: () => {},
    resources: (type: string) =>
      type === 'AWS::Scheduler::Schedule'
        ? schedules.map((properties, i) => ({
            stack: { region: 'eu-west-1' },
            record: { physicalId: `schedule-${i}`, properties, attributes: { Arn: `arn:aws:scheduler:eu-west-1:000000000000:schedule/default/schedule-${i}` } },
          }))
        : rules.map((properties, i) => ({
            stack: { region: 'eu-west-1' },
            record: { physicalId: `rule-${i}`, properties, attributes: { Arn: `arn:aws:events:eu-west-1:000000000000:rule/rule-${i}` } },
          })),
    functions: { invokeAsync: (target: string, event: Record<string, unknown>) => invoked.push({ target, event }) },
    sendToDestination: (arn: string, message: string, _attributes: unknown, event?: unknown) => sent.push({ arn, message, ...(event ? { event } : {}) }),
  };
  return { cloud: cloud as unknown as LocalCloud, invoked, sent };
}

const scheduler = suite('schedule rules');

scheduler('fires due cron rules with the Scheduled Event, or with the target Input', () => {
  const { cloud, invoked } = fakeCloud([
    { ScheduleExpression: 'cron(0 12 * * ? *)', State: 'ENABLED', Targets: [{ Arn: 'arn:aws:lambda:eu-west-1:000000000000:function:noon', Id: 'a' }] },
    { ScheduleExpression: 'cron(0 12 * * ? *)', State: 'ENABLED', Targets: [{ Arn: 'arn:aws:lambda:eu-west-1:000000000000:function:input', Input: '{"k":1}' }] },
    { ScheduleExpression: 'cron(0 13 * * ? *)', State: 'ENABLED', Targets: [{ Arn: 'arn:aws:lambda:eu-west-1:000000000000:function:later' }] },
    { ScheduleExpression: 'cron(0 12 * * ? *)', State: 'DISABLED', Targets: [{ Arn: 'arn:aws:lambda:eu-west-1:000000000000:function:off' }] },
  ]);
  const rules = new Scheduler(cloud);
  assert.is(rules.fireCronRules(new Date('2026-11-21T12:00:30Z')), 3);
  rules.stop();
  assert.equal(invoked.map((call) => call.target.split(':').pop()), ['noon', 'input']);
  const { id, time, ...event } = invoked[0].event;
  assert.match(String(id), /^[0-9a-f-]{36}$/);
  assert.match(String(time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(event, { version: '0', 'detail-type': 'Scheduled Event', source: 'aws.events', account: '000000000000', region: 'eu-west-1', resources: ['arn:aws:events:eu-west-1:000000000000:rule/rule-0'], detail: {} });
  assert.equal(invoked[1].event, { k: 1 });
});

scheduler('renders a target InputTransformer, and InputPath, from the Scheduled Event', () => {
  const InputTransformer = { InputPathsMap: { kind: '$.detail-type', rule: '$.resources[0]' }, InputTemplate: '{"kind": <kind>, "from": "<rule>", "name": <aws.events.rule-name>}' };
  const { cloud, invoked } = fakeCloud([
    { ScheduleExpression: 'cron(0 12 * * ? *)', State: 'ENABLED', Targets: [{ Arn: 'arn:aws:lambda:eu-west-1:000000000000:function:shaped', InputTransformer }] },
    { ScheduleExpression: 'cron(0 12 * * ? *)', State: 'ENABLED', Targets: [{ Arn: 'arn:aws:lambda:eu-west-1:000000000000:function:path', InputPath: '$.source' }] },
  ]);
  const rules = new Scheduler(cloud);
  rules.fireCronRules(new Date('2026-11-21T12:00:30Z'));
  rules.stop();
  assert.equal(
    invoked.map((call) => call.event),
    [{ kind: 'Scheduled Event', from: 'arn:aws:events:eu-west-1:000000000000:rule/rule-0', name: 'rule-0' }, 'aws.events'],
  );
});

scheduler('a rule\'s queue and topic targets get the event as text', () => {
  const { cloud, sent } = fakeCloud([{ ScheduleExpression: 'cron(0 12 * * ? *)', Targets: [{ Arn: 'arn:aws:sqs:eu-west-1:000000000000:jobs', Input: '{"job":"report"}' }, { Arn: 'arn:aws:sns:eu-west-1:000000000000:news', InputPath: '$.detail' }] }]);
  const rules = new Scheduler(cloud);
  rules.fireCronRules(new Date('2026-11-21T12:00:00Z'));
  rules.stop();
  assert.equal(sent, [{ arn: 'arn:aws:sqs:eu-west-1:000000000000:jobs', message: '{"job":"report"}' }, { arn: 'arn:aws:sns:eu-west-1:000000000000:news', message: '{}' }]);
});

scheduler('EventBridge Scheduler: cron in the schedule\'s time zone, its Input as given (an empty object without), within StartDate and EndDate', () => {
  const fn = (name: string) => `arn:aws:lambda:eu-west-1:000000000000:function:${name}`;
  const { cloud, invoked, sent } = fakeCloud(
    [],
    [
      // 09:00 in New York is 14:00 UTC in November (EST).
      { ScheduleExpression: 'cron(0 9 * * ? *)', ScheduleExpressionTimezone: 'America/New_York', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: fn('newyork'), RoleArn: 'r', Input: '{"report":"daily"}' } },
      { ScheduleExpression: 'cron(0 14 * * ? *)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: fn('utc'), RoleArn: 'r' } },
      { ScheduleExpression: 'cron(0 9 * * ? *)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: fn('utc-nine'), RoleArn: 'r' } },
      { ScheduleExpression: 'cron(0 14 * * ? *)', EndDate: '2026-11-01T00:00:00Z', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: fn('ended'), RoleArn: 'r' } },
      { ScheduleExpression: 'cron(0 14 * * ? *)', State: 'DISABLED', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: fn('off'), RoleArn: 'r' } },
      { ScheduleExpression: 'cron(0 14 * * ? *)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: 'arn:aws:events:eu-west-1:000000000000:event-bus/app', RoleArn: 'r', Input: '{"tick":1}', EventBridgeParameters: { DetailType: 'Tick', Source: 'app.clock' } } },
    ],
  );
  const schedules = new Scheduler(cloud);
  assert.is(schedules.fireCronRules(new Date('2026-11-21T14:00:10Z')), 5);
  schedules.stop();
  assert.equal(invoked, [{ target: fn('newyork'), event: { report: 'daily' } }, { target: fn('utc'), event: {} }]);
  assert.equal(sent, [{ arn: 'arn:aws:events:eu-west-1:000000000000:event-bus/app', message: '{"tick":1}', event: { source: 'app.clock', detailType: 'Tick', resources: ['arn:aws:scheduler:eu-west-1:000000000000:schedule/default/schedule-5'] } }]);
});

scheduler('one-time at() schedules: the wall-clock time read in the schedule\'s time zone', () => {
  assert.is(new Date(atInstant('at(2026-12-01T09:30:00)')!).toISOString(), '2026-12-01T09:30:00.000Z');
  assert.is(new Date(atInstant('at(2026-12-01T09:30:00)', 'Europe/Paris')!).toISOString(), '2026-12-01T08:30:00.000Z');
  assert.is(new Date(atInstant('at(2026-07-01T09:30:00)', 'Europe/Paris')!).toISOString(), '2026-07-01T07:30:00.000Z');
  assert.is(new Date(atInstant('at(2026-11-21T09:00:00)', 'America/New_York')!).toISOString(), '2026-11-21T14:00:00.000Z');
  assert.is(atInstant('rate(1 minute)'), undefined);
});

scheduler('a stack\'s one-time schedule sends its Input to the stack\'s queue when its time comes', async () => {
  const t = await startTestCloud();
  const sqs = new SQSClient({ endpoint: t.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  try {
    const when = new Date(Date.now() + 2_000).toISOString().slice(0, 19);
    const template = {
      Resources: {
        Jobs: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'jobs' } },
        Once: {
          Type: 'AWS::Scheduler::Schedule',
          Properties: { Name: 'once', ScheduleExpression: `at(${when})`, FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: { 'Fn::GetAtt': ['Jobs', 'Arn'] }, RoleArn: 'arn:aws:iam::000000000000:role/scheduler', Input: '{"job":"once"}' } },
        },
      },
      Outputs: { ScheduleArn: { Value: { 'Fn::GetAtt': ['Once', 'Arn'] } } },
    };
    await t.cfn.send(new CreateStackCommand({ StackName: 'once', TemplateBody: JSON.stringify(template) }));
    const stack = await settle(t.cfn, 'once');
    assert.equal([stack.StackStatus, stack.Outputs![0].OutputValue], ['CREATE_COMPLETE', 'arn:aws:scheduler:us-east-1:000000000000:schedule/default/once']);
    const QueueUrl = (await sqs.send(new GetQueueUrlCommand({ QueueName: 'jobs' }))).QueueUrl!;
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 10 }));
    assert.equal(received.Messages?.map((message) => message.Body), ['{"job":"once"}']);
  } finally {
    sqs.destroy();
    await t.stop();
  }
});

scheduler('the EventBridge Scheduler API: a one-time schedule made at run time sends its Input when its time comes; Get, List, Update, Delete', async () => {
  const t = await startTestCloud();
  const config = { endpoint: t.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 };
  const sqs = new SQSClient(config);
  const client = new SchedulerClient(config);
  try {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'reminders' }));
    const queueArn = 'arn:aws:sqs:us-east-1:000000000000:reminders';
    const when = new Date(Date.now() + 2_000).toISOString().slice(0, 19);
    const target = { Arn: queueArn, RoleArn: 'arn:aws:iam::000000000000:role/scheduler', Input: '{"remind":"call back"}' };
    const { ScheduleArn } = await client.send(new CreateScheduleCommand({ Name: 'call-back', ScheduleExpression: `at(${when})`, FlexibleTimeWindow: { Mode: 'OFF' }, Target: target }));
    assert.is(ScheduleArn, 'arn:aws:scheduler:us-east-1:000000000000:schedule/default/call-back');
    const conflict = await failure(client.send(new CreateScheduleCommand({ Name: 'call-back', ScheduleExpression: 'rate(1 hour)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: target })));
    assert.equal([conflict?.name, conflict?.message], ['ConflictException', 'Schedule call-back already exists.']);
    const invalid = await failure(client.send(new CreateScheduleCommand({ Name: 'bad', ScheduleExpression: 'every day', FlexibleTimeWindow: { Mode: 'OFF' }, Target: target })));
    assert.equal([invalid?.name, invalid?.message], ['ValidationException', 'Invalid Schedule Expression every day.']);
    const got = await client.send(new GetScheduleCommand({ Name: 'call-back' }));
    assert.equal({ ...got, $metadata: undefined, CreationDate: got.CreationDate instanceof Date, LastModificationDate: got.LastModificationDate instanceof Date }, {
      $metadata: undefined,
      Arn: ScheduleArn,
      Name: 'call-back',
      GroupName: 'default',
      ScheduleExpression: `at(${when})`,
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: target,
      State: 'ENABLED',
      ActionAfterCompletion: 'NONE',
      CreationDate: true,
      LastModificationDate: true,
    });
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 10 }));
    assert.equal(received.Messages?.map((message) => message.Body), ['{"remind":"call back"}']);

    await client.send(new CreateScheduleCommand({ Name: 'hourly', ScheduleExpression: 'rate(1 hour)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: target }));
    await client.send(new UpdateScheduleCommand({ Name: 'hourly', ScheduleExpression: 'cron(0 9 * * ? *)', ScheduleExpressionTimezone: 'Europe/Paris', State: 'DISABLED', FlexibleTimeWindow: { Mode: 'OFF' }, Target: target }));
    assert.equal((await client.send(new ListSchedulesCommand({ State: 'DISABLED' }))).Schedules!.map(({ Name, State, Target }) => ({ Name, State, Target })), [{ Name: 'hourly', State: 'DISABLED', Target: { Arn: queueArn } }]);
    assert.equal((await client.send(new ListSchedulesCommand({ NamePrefix: 'call' }))).Schedules!.map((schedule) => schedule.Name), ['call-back']);
    await client.send(new DeleteScheduleCommand({ Name: 'hourly' }));
    const gone = await failure(client.send(new GetScheduleCommand({ Name: 'hourly' })));
    assert.equal([gone?.name, gone?.message], ['ResourceNotFoundException', 'Schedule hourly does not exist.']);
  } finally {
    sqs.destroy();
    client.destroy();
    await t.stop();
  }
});

scheduler.run();

const patterns = suite('EventBridge event patterns');

patterns('match exact values, prefixes, anything-but, exists, numbers and nested fields', () => {
  const event = { source: 'shop', 'detail-type': 'Order', detail: { state: 'paid', total: 42, tags: ['a', 'b'] } };
  assert.ok(matchesPattern({ source: ['shop', 'other'] }, event));
  assert.not.ok(matchesPattern({ source: ['other'] }, event));
  assert.ok(matchesPattern({ detail: { state: [{ prefix: 'pa' }], tags: ['b'] } }, event));
  assert.ok(matchesPattern({ detail: { state: [{ 'anything-but': ['refunded'] }] } }, event));
  assert.not.ok(matchesPattern({ detail: { state: [{ 'anything-but': 'paid' }] } }, event));
  assert.ok(matchesPattern({ detail: { coupon: [{ exists: false }], total: [{ numeric: ['>', 40, '<=', 42] }] } }, event));
  assert.not.ok(matchesPattern({ detail: { total: [{ numeric: ['<', 10] }] } }, event));
});

patterns.run();
