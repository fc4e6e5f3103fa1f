import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../../src/errors';
import type { ServiceConfig } from '../../../src/constructs/model';
import { synth } from '../../helpers/synth';
import { makeHandler, statementId, type Apis } from '../../../src/custom-resources/event-bridge/handler';
import { responseUrl } from '../../helpers/response-url';

const eventBridge = suite('eventBridge event');

const arn = (fn: string) => ({ 'Fn::GetAtt': [`${fn}LambdaFunction`, 'Arn'] });
const ruleArn = (...path: unknown[]) => ({
  'Fn::Join': [':', ['arn', { Ref: 'AWS::Partition' }, 'events', { Ref: 'AWS::Region' }, { Ref: 'AWS::AccountId' }, { 'Fn::Join': ['/', ['rule', ...path]] }]],
});
const withEvents = (events: unknown[], provider: Record<string, unknown> = {}): Partial<ServiceConfig> => ({
  provider: { name: 'aws', runtime: 'nodejs18.x', ...provider },
  functions: { hello: { handler: 'h.main', events: events as Array<Record<string, unknown>> } },
});
function errorOf(config: Partial<ServiceConfig>): string {
  try {
    synth(config);
  } catch (error) {
    assert.instance(error, ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

eventBridge('a schedule on the default bus becomes a rule named after the function and its position, with a permission', () => {
  const t = synth(withEvents([{ eventBridge: { schedule: 'rate(10 minutes)', input: { key1: 'value1' } } }]));
  assert.equal(t.Resources.Appdevhellorule1EventBridgeRule, {
    Type: 'AWS::Events::Rule',
    Properties: {
      Name: 'app-dev-hello-rule-1',
      ScheduleExpression: 'rate(10 minutes)',
      State: 'ENABLED',
      Targets: [{ Arn: arn('Hello'), Id: 'app-dev-hello-rule-1-target', Input: '{"key1":"value1"}' }],
    },
  });
  assert.equal(t.Resources.HelloEventBridgeLambdaPermission1, {
    Type: 'AWS::Lambda::Permission',
    Properties: {
      Action: 'lambda:InvokeFunction',
      FunctionName: arn('Hello'),
      Principal: 'events.amazonaws.com',
      SourceArn: ruleArn('app-dev-hello-rule-1'),
    },
  });
});

eventBridge('a bus given by name is created once for every rule using it, and each rule waits for it', () => {
  const t = synth({
    functions: {
      a: { handler: 'h.a', events: [{ sqs: 'arn:aws:sqs:us-east-1:1:q' }, { eventBridge: { eventBus: 'saas', pattern: { source: ['x'] } } }] },
      b: { handler: 'h.b', events: [{ eventBridge: { eventBus: 'saas', pattern: { source: ['y'] }, enabled: false } }] },
    },
  });
  assert.equal(t.Resources.SaasEventBridgeEventBus, { Type: 'AWS::Events::EventBus', Properties: { Name: 'saas' } });
  assert.equal(t.Resources.Appdevarule2EventBridgeRule, {
    Type: 'AWS::Events::Rule',
    Properties: {
      EventBusName: 'saas',
      EventPattern: { source: ['x'] },
      Name: 'app-dev-a-rule-2',
      State: 'ENABLED',
      Targets: [{ Arn: arn('A'), Id: 'app-dev-a-rule-2-target' }],
    },
    DependsOn: 'SaasEventBridgeEventBus',
  });
  assert.equal((t.Resources.Appdevbrule1EventBridgeRule.Properties as Record<string, unknown>).State, 'DISABLED');
  assert.equal((t.Resources.BEventBridgeLambdaPermission1.Properties as Record<string, unknown>).SourceArn, ruleArn('saas', 'app-dev-b-rule-1'));
});

eventBridge('an existing bus by ARN or intrinsic is attached to, not created', () => {
  const t = synth(
    withEvents([
      { eventBridge: { eventBus: 'arn:aws:events:us-east-1:12345:event-bus/private', pattern: { source: ['x'] }, inputPath: '$.detail' } },
      { eventBridge: { eventBus: { Ref: 'Bus' }, pattern: { source: ['x'] } } },
      { eventBridge: { eventBus: 'arn:aws:events:us-east-1:12345:event-bus/default', pattern: { source: ['x'] } } },
    ]),
  );
  assert.equal(Object.keys(t.Resources).filter(id => id.endsWith('EventBridgeEventBus')), []);
  assert.equal((t.Resources.Appdevhellorule1EventBridgeRule.Properties as Record<string, unknown>).EventBusName, 'private');
  assert.equal((t.Resources.Appdevhellorule2EventBridgeRule.Properties as Record<string, unknown>).EventBusName, { Ref: 'Bus' });
  assert.equal((t.Resources.Appdevhellorule3EventBridgeRule.Properties as Record<string, unknown>).EventBusName, undefined);
  assert.equal((t.Resources.HelloEventBridgeLambdaPermission3.Properties as Record<string, unknown>).SourceArn, ruleArn('default', 'app-dev-hello-rule-3'));
});

eventBridge('retry policy, dead-letter queue and input transformer reach the target', () => {
  const t = synth(
    withEvents([
      {
        eventBridge: {
          pattern: { source: ['x'] },
          retryPolicy: { maximumEventAge: 3600, maximumRetryAttempts: 3 },
          deadLetterQueueArn: { 'Fn::GetAtt': ['Dlq', 'Arn'] },
          inputTransformer: { inputPathsMap: { t: '$.time' }, inputTemplate: '{"t": <t>}' },
        },
      },
    ]),
  );
  assert.equal((t.Resources.Appdevhellorule1EventBridgeRule.Properties as any).Targets, [
    {
      Arn: arn('Hello'),
      Id: 'app-dev-hello-rule-1-target',
      InputTransformer: { InputPathsMap: { t: '$.time' }, InputTemplate: '{"t": <t>}' },
      RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 3 },
      DeadLetterConfig: { Arn: { 'Fn::GetAtt': ['Dlq', 'Arn'] } },
    },
  ]);
});

eventBridge('names over 64 characters keep their start and suffix with a hash between', () => {
  // The deployed function name stays within Lambda's 64 characters; the rule name (`…-rule-1`) does not.
  const t = synth({ functions: { myFunctionWithAVeryLongNameThatGoesOnAndOnAndOnForev: { handler: 'h.a', events: [{ eventBridge: { schedule: 'rate(1 hour)' } }] } } });
  const rule = Object.entries(t.Resources).find(([id]) => id.endsWith('EventBridgeRule'))!;
  assert.is(rule[0], 'AppdevmyFunctionWithAVeryLongNameThatGoesOnAndOnAndOnForevrule1EventBridgeRule');
  const properties = rule[1].Properties as any;
  assert.is(properties.Name.length, 64);
  assert.ok(properties.Name.startsWith('app-dev-myFunctionWithAVe'));
  assert.ok(properties.Name.endsWith('-rule-1'));
  assert.ok(properties.Targets[0].Id.endsWith('-target'));
  assert.is(properties.Targets[0].Id.length, 64);
});

eventBridge('useCloudFormation: false provisions each rule through the event-bridge custom resource', () => {
  const t = synth(withEvents([{ eventBridge: { eventBus: 'saas', pattern: { source: ['x'] } } }], { eventBridge: { useCloudFormation: false } }));
  assert.equal(t.Resources.HelloCustomEventBridge1, {
    Type: 'Custom::EventBridge',
    Version: 1,
    DependsOn: ['HelloLambdaFunction', 'CustomDashresourceDasheventDashbridgeLambdaFunction'],
    Properties: {
      ServiceToken: { 'Fn::GetAtt': ['CustomDashresourceDasheventDashbridgeLambdaFunction', 'Arn'] },
      FunctionName: 'app-dev-hello',
      EventBridgeConfig: { RuleName: 'app-dev-hello-rule-1', State: 'ENABLED', EventBus: 'saas', Pattern: { source: ['x'] } },
    },
  });
  assert.equal(t.Resources.SaasEventBridgeEventBus, undefined);
});

eventBridge('wrong value types are reported with the config path', () => {
  assert.is(
    errorOf(withEvents([{ eventBridge: { schedule: 'rate(1 hour)', retryPolicy: { maximumRetryAttempts: 'three' } } }])),
    `Invalid configuration in 'functions.hello.events[0].eventBridge.retryPolicy.maximumRetryAttempts': expected an integer from 0 to 185, got "three"`,
  );
  assert.is(
    errorOf(withEvents([{ eventBridge: { schedule: 'every hour' } }])),
    `Invalid configuration in 'functions.hello.events[0].eventBridge.schedule': expected to match the pattern /^(?:cron|rate)\\(.+\\)$/, got "every hour"`,
  );
  assert.is(
    errorOf(withEvents([{ eventBridge: { input: { a: 1 } } }])),
    `Invalid configuration in 'functions.hello.events[0].eventBridge': expected a "schedule" or a "pattern"`,
  );
  assert.is(
    errorOf(withEvents([{ eventBridge: { schedule: 'rate(1 hour)', input: { a: 1 }, inputPath: '$.x' } }])),
    `Invalid configuration in 'functions.hello.events[0].eventBridge': set only one of input, inputPath or inputTransformer (got input, inputPath)`,
  );
});

eventBridge('a bus name that cannot form a logical id is refused (the reference emits an invalid one)', () => {
  assert.match(errorOf(withEvents([{ eventBridge: { eventBus: 'my.bus', pattern: { source: ['x'] } } }])), `'functions.hello.events[0].eventBridge.eventBus'`);
});

eventBridge.run();

const legacyHandler = suite('EventBridge custom resource');

function fakeApis() {
  const calls: Array<[string, string, Record<string, unknown>]> = [];
  const apis: Apis = {
    events: async (command, input) => void calls.push(['events', command, input]),
    lambda: async (command, input) => void calls.push(['lambda', command, input]),
  };
  return { apis, calls };
}
const legacyContext = { invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:app-dev-custom-resource-event-bridge', logStreamName: 'stream' };
const legacyEvent = (RequestType: 'Create' | 'Delete', ResponseURL: string) => ({
  RequestType,
  ResponseURL,
  StackId: 'stack',
  RequestId: 'request',
  LogicalResourceId: 'HelloCustomEventBridge1',
  ResourceProperties: {
    FunctionName: 'app-dev-hello',
    EventBridgeConfig: { RuleName: 'app-dev-hello-rule-1', State: 'ENABLED', EventBus: 'saas', Pattern: { source: ['x'] }, Input: { a: 1 } },
  },
});

legacyHandler('creating makes the bus, the rule, its target and the permission', async () => {
  const answer = await responseUrl();
  const { apis, calls } = fakeApis();
  try {
    await makeHandler(apis)(legacyEvent('Create', answer.url), legacyContext);
    assert.equal(calls, [
      ['events', 'CreateEventBus', { Name: 'saas' }],
      ['events', 'PutRule', { Name: 'app-dev-hello-rule-1', EventBusName: 'saas', EventPattern: '{"source":["x"]}', ScheduleExpression: undefined, State: 'ENABLED' }],
      [
        'events',
        'PutTargets',
        {
          Rule: 'app-dev-hello-rule-1',
          EventBusName: 'saas',
          Targets: [{ Id: 'app-dev-hello-rule-1-target', Arn: 'arn:aws:lambda:us-east-1:123456789012:function:app-dev-hello', Input: '{"a":1}' }],
        },
      ],
      [
        'lambda',
        'AddPermission',
        {
          FunctionName: 'app-dev-hello',
          StatementId: statementId('app-dev-hello-rule-1'),
          Action: 'lambda:InvokeFunction',
          Principal: 'events.amazonaws.com',
          SourceArn: 'arn:aws:events:us-east-1:123456789012:rule/saas/app-dev-hello-rule-1',
        },
      ],
    ]);
    assert.is(answer.bodies[0].Status, 'SUCCESS');
  } finally {
    answer.close();
  }
});

legacyHandler('deleting removes the target, the rule, the permission and the bus it created', async () => {
  const answer = await responseUrl();
  const { apis, calls } = fakeApis();
  try {
    await makeHandler(apis)(legacyEvent('Delete', answer.url), legacyContext);
    assert.equal(calls.map(([, command]) => command), ['RemoveTargets', 'DeleteRule', 'RemovePermission', 'DeleteEventBus']);
    assert.is(answer.bodies[0].Status, 'SUCCESS');
  } finally {
    answer.close();
  }
});

legacyHandler.run();
