import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { arnOf, configErrorOf, withEvents } from './helpers';

const cloudwatchEvent = suite('cloudwatchEvent event');
const pattern = { source: ['aws.ec2'], 'detail-type': ['EC2 Instance State-change Notification'] };

cloudwatchEvent('a pattern becomes a rule on the default bus with the permission to invoke the function', () => {
  const t = synth(withEvents('watch', [{ cloudwatchEvent: { event: pattern } }]));
  assert.equal(t.Resources.WatchEventsRuleCloudWatchEvent1, {
    Type: 'AWS::Events::Rule',
    Properties: { EventPattern: pattern, State: 'ENABLED', Targets: [{ Arn: arnOf('Watch'), Id: 'watchCloudWatchEvent' }] },
  });
  assert.equal(t.Resources.WatchLambdaPermissionEventsRuleCloudWatchEvent1, {
    Type: 'AWS::Lambda::Permission',
    Properties: {
      FunctionName: arnOf('Watch'),
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': ['WatchEventsRuleCloudWatchEvent1', 'Arn'] },
    },
  });
});

cloudwatchEvent('rules are numbered per function and carry name, description, state and input', () => {
  const t = synth(
    withEvents('watch', [
      { cloudwatchEvent: { event: pattern, enabled: false } },
      { cloudwatchEvent: { event: pattern, name: 'n', description: 'd', input: { stage: 'dev' } } },
      { cloudwatchEvent: { event: pattern, inputPath: '$.detail' } },
    ]),
  );
  assert.is((t.Resources.WatchEventsRuleCloudWatchEvent1.Properties as any).State, 'DISABLED');
  assert.equal(t.Resources.WatchEventsRuleCloudWatchEvent2.Properties, {
    EventPattern: pattern,
    State: 'ENABLED',
    Description: 'd',
    Name: 'n',
    Targets: [{ Input: '{"stage":"dev"}', Arn: arnOf('Watch'), Id: 'watchCloudWatchEvent' }],
  });
  assert.equal((t.Resources.WatchEventsRuleCloudWatchEvent3.Properties as any).Targets[0].InputPath, '$.detail');
});

cloudwatchEvent('refuses a wrongly typed field, naming it', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('watch', [{ cloudwatchEvent: { event: pattern, enabled: 'yes' } }]))),
    `Invalid configuration in 'functions.watch.events[0].cloudwatchEvent.enabled': expected a boolean, got "yes"`,
  );
});

cloudwatchEvent('refuses a rule without an event pattern, on which the reference crashes', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('watch', [{ cloudwatchEvent: { input: { a: 1 } } }]))),
    `Invalid configuration in 'functions.watch.events[0].cloudwatchEvent.event': expected an object, got nothing`,
  );
});

cloudwatchEvent.run();
