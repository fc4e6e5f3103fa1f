import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { arnOf, configErrorOf, withEvents } from './helpers';

const cloudwatchLog = suite('cloudwatchLog event');

const sourceArn = (groups: string) => ({
  'Fn::Join': [
    '',
    ['arn:', { Ref: 'AWS::Partition' }, ':logs:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':log-group:', groups, ':*'],
  ],
});

cloudwatchLog('a log group name becomes a subscription filter with no pattern, after the permission', () => {
  const t = synth(withEvents('hello', [{ cloudwatchLog: '/aws/lambda/other' }]));
  assert.equal(t.Resources.HelloLogsSubscriptionFilterCloudWatchLog1, {
    Type: 'AWS::Logs::SubscriptionFilter',
    Properties: { LogGroupName: '/aws/lambda/other', FilterPattern: '', DestinationArn: arnOf('Hello') },
    DependsOn: ['HelloLambdaPermissionLogsSubscriptionFilterCloudWatchLog'],
  });
  assert.equal(t.Resources.HelloLambdaPermissionLogsSubscriptionFilterCloudWatchLog, {
    Type: 'AWS::Lambda::Permission',
    Properties: {
      FunctionName: arnOf('Hello'),
      Action: 'lambda:InvokeFunction',
      Principal: { 'Fn::Join': ['', ['logs.', { Ref: 'AWS::Region' }, '.amazonaws.com']] },
      SourceArn: sourceArn('/aws/lambda/other'),
    },
  });
});

cloudwatchLog('several groups share one permission over their common prefix', () => {
  const t = synth(
    withEvents('hello', [
      { cloudwatchLog: { logGroup: '/aws/lambda/hello2', filter: '{$.type = Root}' } },
      { cloudwatchLog: { logGroup: '/aws/lambda/hello3' } },
    ]),
  );
  assert.equal((t.Resources.HelloLambdaPermissionLogsSubscriptionFilterCloudWatchLog.Properties as any).SourceArn, sourceArn('/aws/lambda/hello*'));
  assert.equal((t.Resources.HelloLogsSubscriptionFilterCloudWatchLog1.Properties as any).FilterPattern, '{$.type = Root}');
  assert.equal((t.Resources.HelloLogsSubscriptionFilterCloudWatchLog2.Properties as any).LogGroupName, '/aws/lambda/hello3');
});

cloudwatchLog('refuses an object without a log group', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('hello', [{ cloudwatchLog: { filter: 'x' } }]))),
    `Invalid configuration in 'functions.hello.events[0].cloudwatchLog.logGroup': expected a string, got nothing`,
  );
});

cloudwatchLog.run();
