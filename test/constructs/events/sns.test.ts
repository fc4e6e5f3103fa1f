import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { arnOf, configErrorOf, withEvents } from './helpers';

const sns = suite('sns event');

const topicArn = (name: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sns:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':', name]],
});

sns('a topic name creates one topic that every function naming it subscribes to', () => {
  const t = synth({
    functions: {
      one: { handler: 'h.main', events: [{ sns: 'dispatch' }] },
      two: { handler: 'h.main', events: [{ sns: { topicName: 'dispatch', displayName: 'Dispatch' } }] },
    },
  } as never);
  assert.equal(t.Resources.SNSTopicDispatch, {
    Type: 'AWS::SNS::Topic',
    Properties: {
      TopicName: 'dispatch',
      DisplayName: 'Dispatch',
      Subscription: [
        { Endpoint: arnOf('One'), Protocol: 'lambda' },
        { Endpoint: arnOf('Two'), Protocol: 'lambda' },
      ],
    },
  });
  assert.equal(t.Resources.TwoLambdaPermissionDispatchSNS, {
    Type: 'AWS::Lambda::Permission',
    Properties: { FunctionName: arnOf('Two'), Action: 'lambda:InvokeFunction', Principal: 'sns.amazonaws.com', SourceArn: topicArn('dispatch') },
  });
});

sns('a filter policy gets a subscription of its own', () => {
  const t = synth(withEvents('pets', [{ sns: { topicName: 'pets-body', filterPolicy: { pet: ['dog'] }, filterPolicyScope: 'MessageBody' } }]));
  assert.equal(t.Resources.SNSTopicPetsbody, { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'pets-body' } });
  assert.equal(t.Resources.PetsSnsSubscriptionPetsbody, {
    Type: 'AWS::SNS::Subscription',
    Properties: {
      Endpoint: arnOf('Pets'),
      Protocol: 'lambda',
      TopicArn: { Ref: 'SNSTopicPetsbody' },
      FilterPolicy: { pet: ['dog'] },
      FilterPolicyScope: 'MessageBody',
    },
  });
});

sns('an existing topic ARN is subscribed to, in its own region when that differs', () => {
  const arn = 'arn:aws:sns:eu-west-1:123456789012:other-region-topic';
  const t = synth(withEvents('dispatcher', [{ sns: arn }]));
  assert.equal(t.Resources.DispatcherSnsSubscriptionOtherregiontopic, {
    Type: 'AWS::SNS::Subscription',
    Properties: { TopicArn: arn, Protocol: 'lambda', Endpoint: arnOf('Dispatcher'), Region: 'eu-west-1' },
  });
  assert.equal((t.Resources.DispatcherLambdaPermissionOtherregiontopicSNS.Properties as any).SourceArn, arn);
  assert.is(t.Resources.SNSTopicOtherregiontopic, undefined);
});

sns('a redrive policy lets the topic send to the dead-letter queue', () => {
  const t = synth(withEvents('byRef', [{ sns: { topicName: 'dispatcher', redrivePolicy: { deadLetterTargetRef: 'myDLQ' } } }]));
  assert.equal((t.Resources.ByRefSnsSubscriptionDispatcher.Properties as any).RedrivePolicy, { deadLetterTargetArn: { 'Fn::GetAtt': ['myDLQ', 'Arn'] } });
  assert.equal(t.Resources.DispatcherToByRefDLQPolicy, {
    Type: 'AWS::SQS::QueuePolicy',
    Properties: {
      PolicyDocument: {
        Version: '2012-10-17',
        Id: 'DispatcherToByRefDLQPolicy',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { Service: 'sns.amazonaws.com' },
            Action: 'sqs:SendMessage',
            Resource: { 'Fn::GetAtt': ['myDLQ', 'Arn'] },
            Condition: { ArnEquals: {} },
          },
        ],
      },
      Queues: [{ Ref: 'myDLQ' }],
    },
  });
});

sns('a dead-letter queue ARN gives its URL, and an existing topic restricts the source', () => {
  const topic = 'arn:aws:sns:us-east-1:123456789012:t';
  const t = synth(withEvents('a', [{ sns: { arn: topic, redrivePolicy: { deadLetterTargetArn: 'arn:aws:sqs:us-east-1:111:myDLQ' } } }]));
  const policy = t.Resources.TToADLQPolicy.Properties as any;
  assert.equal(policy.Queues, [{ 'Fn::Join': ['', ['https://sqs.us-east-1.', { Ref: 'AWS::URLSuffix' }, '/111/myDLQ']] }]);
  assert.equal(policy.PolicyDocument.Statement[0].Condition, { ArnEquals: { 'aws:SourceArn': topic } });
});

sns('an intrinsic ARN needs a topic name to name its resources', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('f', [{ sns: { arn: { Ref: 'Topic' } } }]))),
    `Invalid configuration in 'functions.f.events[0].sns.topicName': expected a topic name to go with an intrinsic arn (it names the generated resources), got nothing`,
  );
});

sns('refuses a wrongly typed field, naming it', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('f', [{ sns: { topicName: 'x', filterPolicy: 'dogs' } }]))),
    `Invalid configuration in 'functions.f.events[0].sns.filterPolicy': expected an object, got "dogs"`,
  );
});

sns.run();
