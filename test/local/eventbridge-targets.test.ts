import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { EventBridgeClient, PutEventsCommand, PutRuleCommand, PutTargetsCommand } from '@aws-sdk/client-eventbridge';
import { CreateFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { renderInputTemplate } from '../../src/local/eventbridge/input-transformer';
import { startTestCloud, zip, type TestCloud } from './helpers';

interface Context {
  t: TestCloud;
  events: EventBridgeClient;
  sqs: SQSClient;
  lambda: LambdaClient;
  logs: CloudWatchLogsClient;
}

const targets = suite<Context>('local EventBridge PutEvents entry errors and InputTransformer targets');
targets.before(async (context) => {
  context.t = await startTestCloud();
  const config = { ...context.t.config, maxAttempts: 1 };
  context.events = new EventBridgeClient(config);
  context.sqs = new SQSClient(config);
  context.lambda = new LambdaClient(config);
  context.logs = new CloudWatchLogsClient(config);
});
targets.after(async (context) => {
  for (const client of [context.events, context.sqs, context.lambda, context.logs]) client.destroy();
  await context.t.stop();
});

const EVENT = {
  version: '0',
  id: 'e1',
  'detail-type': 'EC2 Instance State-change Notification',
  source: 'aws.ec2',
  account: '123456789012',
  time: '2015-11-11T21:29:54Z',
  region: 'us-east-1',
  resources: ['arn:aws:ec2:us-east-1:123456789012:instance/i-1'],
  detail: { instance: 'i-1', state: 'running', count: 3, tags: { team: 'a' } },
};
const RULE = { name: 'watch', arn: 'arn:aws:events:us-east-1:123456789012:rule/watch' };
const PATHS = { instance: '$.detail.instance', state: '$.detail.state', count: '$.detail.count', tags: '$.detail.tags', first: '$.resources[0]', none: '$.detail.nothing' };

targets('InputTemplate placeholders render as EventBridge renders them', () => {
  const { detail: _detail, ...withoutDetail } = EVENT;
  const render = (InputTemplate: string) => renderInputTemplate({ InputPathsMap: PATHS, InputTemplate }, EVENT, RULE);
  assert.is(render('<instance> is in state <state>'), 'i-1 is in state running');
  assert.is(render('"<instance> is in state <state>"'), '"i-1 is in state running"');
  assert.is(render('<instance> is in state \\"<state>\\" (<count>, <tags>)'), 'i-1 is in state \\"running\\" (3, {"team":"a"})');
  assert.equal(JSON.parse(render('{"instance": <instance>, "state": [9, <state>, true], "count": <count>, "tags": <tags>, "none": <none>}')), {
    instance: 'i-1',
    state: [9, 'running', true],
    count: 3,
    tags: { team: 'a' },
    none: null,
  });
  assert.equal(JSON.parse(render('{"text": "<instance> is in state \\"<state>\\" with <tags><none>", "at": "<first>"}')), {
    text: 'i-1 is in state "running" with {"team":"a"}',
    at: 'arn:aws:ec2:us-east-1:123456789012:instance/i-1',
  });
  assert.equal(JSON.parse(render('{"rule": <aws.events.rule-name>, "arn": "<aws.events.rule-arn>", "at": <aws.events.event.ingestion-time>, "event": <aws.events.event>}')), {
    rule: 'watch',
    arn: RULE.arn,
    at: '2015-11-11T21:29:54Z',
    event: withoutDetail,
  });
  assert.is(render('{"left": "<unknown>"}'), '{"left": "<unknown>"}');
});

targets('PutEvents fails only the entries whose Detail is not a JSON object; others reach their targets', async ({ events, sqs }) => {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'plain' }));
  await events.send(new PutRuleCommand({ Name: 'all-shop', EventPattern: JSON.stringify({ source: ['shop'] }) }));
  await events.send(new PutTargetsCommand({ Rule: 'all-shop', Targets: [{ Id: 'q', Arn: 'arn:aws:sqs:us-east-1:000000000000:plain', InputPath: '$.detail' }] }));
  const result = await events.send(
    new PutEventsCommand({
      Entries: [
        { Source: 'shop', DetailType: 'order', Detail: '{"n": 1}' },
        { Source: 'shop', DetailType: 'order', Detail: '{not json' },
        { Source: 'shop', DetailType: 'order', Detail: '[1, 2]' },
        { Source: 'shop', DetailType: 'order', Detail: '{"n": 2}' },
      ],
    }),
  );
  assert.is(result.FailedEntryCount, 2);
  assert.equal(result.Entries!.map((entry) => entry.ErrorCode ?? 'ok'), ['ok', 'MalformedDetail', 'MalformedDetail', 'ok']);
  assert.equal(result.Entries![1], { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' });
  assert.match(result.Entries![0].EventId!, /^[0-9a-f-]{36}$/);
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 2 }));
  assert.equal(Messages!.map((message) => JSON.parse(message.Body!)), [{ n: 1 }, { n: 2 }]);
});

targets('InputTransformer shapes what SQS and Lambda targets receive', async ({ events, sqs, lambda, logs }) => {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'transformed' }));
  const handler = "exports.handler = async (event) => { console.log('GOT ' + JSON.stringify(event)); };";
  await lambda.send(new CreateFunctionCommand({ FunctionName: 'notify', Runtime: 'nodejs20.x', Role: 'arn:aws:iam::000000000000:role/fn', Handler: 'index.handler', Code: { ZipFile: await zip({ 'index.js': handler }) } }));
  const { RuleArn } = await events.send(new PutRuleCommand({ Name: 'instances', EventPattern: JSON.stringify({ source: ['aws.ec2'] }) }));
  const InputPathsMap = { instance: '$.detail.instance', state: '$.detail.state' };
  await events.send(
    new PutTargetsCommand({
      Rule: 'instances',
      Targets: [
        { Id: 'queue', Arn: 'arn:aws:sqs:us-east-1:000000000000:transformed', InputTransformer: { InputPathsMap, InputTemplate: '<instance> is in state "<state>"' } },
        { Id: 'fn', Arn: 'arn:aws:lambda:us-east-1:000000000000:function:notify', InputTransformer: { InputPathsMap, InputTemplate: '{"id": <instance>, "text": "now <state>", "rule": <aws.events.rule-arn>}' } },
      ],
    }),
  );
  await events.send(new PutEventsCommand({ Entries: [{ Source: 'aws.ec2', DetailType: 'state', Detail: JSON.stringify({ instance: 'i-9', state: 'stopped' }) }] }));
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 2 }));
  assert.equal(Messages!.map((message) => message.Body), ['i-9 is in state "stopped"']);
  let lines: string[] = [];
  for (const deadline = Date.now() + 15_000; Date.now() < deadline && lines.length === 0; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const found = await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/notify', filterPattern: 'GOT' })).catch(() => ({ events: [] }));
    lines = (found.events ?? []).map((event) => event.message!.split('GOT ')[1].trim());
  }
  assert.equal(lines.map((line) => JSON.parse(line)), [{ id: 'i-9', text: 'now stopped', rule: RuleArn }]);
});

targets.run();
