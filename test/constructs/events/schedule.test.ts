import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { arnOf, configErrorOf, roleStatements, withEvents } from './helpers';

const schedule = suite('schedule event');

schedule('a rate becomes an enabled rule targeting the function, with the permission to invoke it', () => {
  const t = synth(withEvents('crawl', [{ schedule: 'rate(2 hours)' }]));
  assert.equal(t.Resources.CrawlEventsRuleSchedule1, {
    Type: 'AWS::Events::Rule',
    Properties: { ScheduleExpression: 'rate(2 hours)', State: 'ENABLED', Targets: [{ Arn: arnOf('Crawl'), Id: 'crawlSchedule' }] },
  });
  assert.equal(t.Resources.CrawlLambdaPermissionEventsRuleSchedule1, {
    Type: 'AWS::Lambda::Permission',
    Properties: {
      FunctionName: arnOf('Crawl'),
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': ['CrawlEventsRuleSchedule1', 'Arn'] },
    },
  });
});

schedule('a list of expressions gives one rule each, numbered on from earlier schedules of the function', () => {
  const t = synth(withEvents('foo', [{ schedule: 'rate(1 day)' }, { schedule: { rate: ['cron(0 2 ? * SAT-SUN *)', 'rate(5 minutes)'], input: { a: 1 } } }]));
  const rules = Object.keys(t.Resources).filter(id => id.startsWith('FooEventsRuleSchedule'));
  assert.equal(rules, ['FooEventsRuleSchedule1', 'FooEventsRuleSchedule2', 'FooEventsRuleSchedule3']);
  assert.equal((t.Resources.FooEventsRuleSchedule3.Properties as any).Targets, [{ Input: '{"a":1}', Arn: arnOf('Foo'), Id: 'fooSchedule' }]);
});

schedule('enabled, name, description, inputPath and inputTransformer reach the rule', () => {
  const t = synth(
    withEvents('agg', [
      {
        schedule: {
          rate: 'cron(0 12 * * ? *)',
          enabled: false,
          name: 'nightly',
          description: 'every night',
          inputTransformer: { inputPathsMap: { t: '$.time' }, inputTemplate: '{"time": <t>}' },
        },
      },
      { schedule: { rate: 'rate(1 hour)', inputPath: '$.detail', input: '{"raw":true}' } },
    ]),
  );
  assert.equal(t.Resources.AggEventsRuleSchedule1.Properties, {
    ScheduleExpression: 'cron(0 12 * * ? *)',
    State: 'DISABLED',
    Name: 'nightly',
    Description: 'every night',
    Targets: [{ InputTransformer: { InputTemplate: '{"time": <t>}', InputPathsMap: { t: '$.time' } }, Arn: arnOf('Agg'), Id: 'aggSchedule' }],
  });
  assert.equal((t.Resources.AggEventsRuleSchedule2.Properties as any).Targets[0], { Input: '{"raw":true}', InputPath: '$.detail', Arn: arnOf('Agg'), Id: 'aggSchedule' });
});

schedule('method scheduler creates a Scheduler schedule run with the shared role, which may invoke the function', () => {
  const t = synth(withEvents('foo', [{ schedule: { method: 'scheduler', rate: 'rate(1 hour)', timezone: 'Europe/Paris', input: { k: 'v' } } }]));
  assert.equal(t.Resources.FooSchedulerSchedule1, {
    Type: 'AWS::Scheduler::Schedule',
    Properties: {
      ScheduleExpression: 'rate(1 hour)',
      State: 'ENABLED',
      Target: { Arn: arnOf('Foo'), RoleArn: { 'Fn::GetAtt': ['IamRoleLambdaExecution', 'Arn'] }, Input: '{"k":"v"}' },
      FlexibleTimeWindow: { Mode: 'OFF' },
      ScheduleExpressionTimezone: 'Europe/Paris',
    },
  });
  assert.is(t.Resources.FooLambdaPermissionEventsRuleSchedule1, undefined);
  const base = 'arn:${AWS::Partition}:lambda:${AWS::Region}:${AWS::AccountId}:function:app-dev-foo';
  assert.equal(roleStatements(t), [{ Effect: 'Allow', Action: ['lambda:InvokeFunction'], Resource: [{ 'Fn::Sub': base }, { 'Fn::Sub': `${base}:*` }] }]);
  assert.equal((t.Resources.IamRoleLambdaExecution.Properties as any).AssumeRolePolicyDocument.Statement[0].Principal.Service, [
    'lambda.amazonaws.com',
    'scheduler.amazonaws.com',
  ]);
});

schedule('a function with its own role is scheduled with that role and adds nothing to the shared one', () => {
  const t = synth({
    functions: {
      own: { handler: 'h.main', role: 'arn:aws:iam::123456789012:role/own', events: [{ schedule: { method: 'scheduler', rate: 'rate(1 hour)' } }] },
      other: { handler: 'h.main' },
    },
  } as never);
  assert.equal((t.Resources.OwnSchedulerSchedule1.Properties as any).Target.RoleArn, 'arn:aws:iam::123456789012:role/own');
  assert.equal(roleStatements(t), []);
  assert.equal((t.Resources.IamRoleLambdaExecution.Properties as any).AssumeRolePolicyDocument.Statement[0].Principal.Service, ['lambda.amazonaws.com']);
});

schedule('refuses what is not a schedule expression, naming the field', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('f', [{ schedule: 'every day' }]))),
    `Invalid configuration in 'functions.f.events[0].schedule': expected a schedule expression like "rate(2 hours)" or "cron(0 12 * * ? *)", or { rate, … }, got "every day"`,
  );
  assert.is(
    configErrorOf(() => synth(withEvents('f', [{ schedule: { rate: 'rate(1 hour)', enabled: 'no' } }]))),
    `Invalid configuration in 'functions.f.events[0].schedule.enabled': expected a boolean, got "no"`,
  );
});

schedule('refuses inputPath with method scheduler, which cannot honour it', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('f', [{ schedule: { method: 'scheduler', rate: 'rate(1 hour)', inputPath: '$.x' } }]))),
    `Invalid configuration in 'functions.f.events[0].schedule.inputPath': not supported with method "scheduler" (use the default method "eventBus")`,
  );
});

schedule('refuses one name for several expressions, as the reference does', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('f', [{ schedule: { rate: ['rate(1 hour)', 'rate(2 hours)'], name: 'same' } }]))),
    `Invalid configuration in 'functions.f.events[0].schedule.name': a name is for one schedule, and rate lists 2 expressions`,
  );
});

schedule('refuses a timezone on an EventBridge rule, as the reference does', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('f', [{ schedule: { rate: 'rate(1 hour)', timezone: 'Europe/Paris' } }]))),
    `Invalid configuration in 'functions.f.events[0].schedule.timezone': only with method "scheduler" (EventBridge rules run in UTC)`,
  );
});

schedule.run();
