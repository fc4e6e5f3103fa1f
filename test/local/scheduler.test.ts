import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LocalCloud } from '../../src/local/cloud';
import { Scheduler } from '../../src/local/eventbridge/scheduler';
import { matchesPattern } from '../../src/local/eventbridge/event-pattern';

/** Just enough of the local cloud for the scheduler: rules to read, and a record of invocations. */
function fakeCloud(rules: Record<string, unknown>[]) {
  const invoked: { target: string; event: Record<string, unknown> }[] = [];
  const cloud = {
    accountId: '000000000000',
    resources: () =>
      rules.map((properties, i) => ({
        stack: { region: 'eu-west-1' },
        record: { physicalId: `rule-${i}`, properties, attributes: { Arn: `arn:aws:events:eu-west-1:000000000000:rule/rule-${i}` } },
      })),
    functions: { invokeAsync: (target: string, event: Record<string, unknown>) => invoked.push({ target, event }) },
  };
  return { cloud: cloud as unknown as LocalCloud, invoked };
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
