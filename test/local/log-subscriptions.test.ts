import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  CreateLogStreamCommand,
  DeleteSubscriptionFilterCommand,
  DescribeSubscriptionFiltersCommand,
  FilterLogEventsCommand,
  PutLogEventsCommand,
  PutSubscriptionFilterCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import { LOCAL_CREDENTIALS, startTestService, type TestService } from '../helpers/local-cloud';

/**
 * CloudWatch Logs subscription filters deliver to Lambda as AWS does (awslogs.data: base64 of the
 * gzipped delivery), through one path for the filters a `cloudwatchLog` event declares and those
 * PutSubscriptionFilter makes.
 */
type Context = TestService & { logs: CloudWatchLogsClient };
const subscriptions = suite<Context>('CloudWatch Logs subscription filters');

const SERVICE = `service: logship
provider:
  name: aws
  runtime: nodejs20.x
functions:
  errors:
    handler: handler.main
    events:
      - cloudwatchLog:
          logGroup: /app/orders
          filter: ERROR
  audit:
    handler: handler.main
`;
// Each function prints what it received, decoded, on one line.
const HANDLER = `const zlib = require('zlib');
exports.main = async (event) => {
  console.log('DELIVERY ' + zlib.gunzipSync(Buffer.from(event.awslogs.data, 'base64')).toString('utf8'));
};
`;

subscriptions.before(async (context) => {
  Object.assign(context, await startTestService({ 'serverless.yml': SERVICE, 'handler.js': HANDLER }));
  context.logs = new CloudWatchLogsClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  // The group a cloudwatchLog event subscribes to exists before the deploy, as on AWS.
  await context.logs.send(new CreateLogGroupCommand({ logGroupName: '/app/orders' }));
  await context.logs.send(new CreateLogStreamCommand({ logGroupName: '/app/orders', logStreamName: 'web-1' }));
  const deployed = await context.fw('deploy');
  assert.is(deployed.code, 0, deployed.stderr);
});

subscriptions.after(async (context) => {
  context.logs.destroy();
  await context.stop();
});

/** What a function received, decoded: the deliveries it printed. */
async function deliveries(context: Context, fn: string, expected: number): Promise<Record<string, unknown>[]> {
  let found: Record<string, unknown>[] = [];
  for (const deadline = Date.now() + 15_000; Date.now() < deadline && found.length < expected; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { events } = await context.logs.send(new FilterLogEventsCommand({ logGroupName: `/aws/lambda/logship-dev-${fn}`, filterPattern: 'DELIVERY' }));
    found = events!.map((event) => JSON.parse(event.message!.slice(event.message!.indexOf('DELIVERY ') + 'DELIVERY '.length)) as Record<string, unknown>);
  }
  return found;
}

subscriptions("a cloudwatchLog event's filter delivers the matching events, gzipped and base64-encoded, as Lambda receives them", async (context) => {
  const at = Date.now();
  await context.logs.send(
    new PutLogEventsCommand({
      logGroupName: '/app/orders',
      logStreamName: 'web-1',
      logEvents: [
        { timestamp: at, message: 'INFO order 1 placed' },
        { timestamp: at + 1, message: 'ERROR order 2 failed' },
        { timestamp: at + 2, message: 'ERROR order 3 failed' },
      ],
    }),
  );
  const [delivery] = await deliveries(context, 'errors', 1);
  const events = delivery.logEvents as { id: string; timestamp: number; message: string }[];
  const { subscriptionFilters } = await context.logs.send(new DescribeSubscriptionFiltersCommand({ logGroupName: '/app/orders' }));
  const declared = subscriptionFilters![0].filterName!;
  // The template names no FilterName: CloudFormation makes one from the stack and the logical id.
  assert.match(declared, /^logship-dev-ErrorsLogsSubscriptionFilterCloudWatchLog1-[A-Za-z0-9]+$/);
  assert.equal(delivery, {
    messageType: 'DATA_MESSAGE',
    owner: '000000000000',
    logGroup: '/app/orders',
    logStream: 'web-1',
    subscriptionFilters: [declared],
    logEvents: [
      { id: events[0].id, timestamp: at + 1, message: 'ERROR order 2 failed' },
      { id: events[1].id, timestamp: at + 2, message: 'ERROR order 3 failed' },
    ],
  });
  // The ids are FilterLogEvents' eventIds of the same events.
  const { events: stored } = await context.logs.send(new FilterLogEventsCommand({ logGroupName: '/app/orders', filterPattern: 'ERROR' }));
  assert.equal(events.map((event) => event.id), stored!.map((event) => event.eventId));
});

subscriptions('PutSubscriptionFilter delivers through the same path; Describe lists both filters; Delete stops it', async (context) => {
  const destinationArn = 'arn:aws:lambda:us-east-1:000000000000:function:logship-dev-audit';
  await context.logs.send(new PutSubscriptionFilterCommand({ logGroupName: '/app/orders', filterName: 'audit', filterPattern: '{ $.level = "audit" }', destinationArn }));
  const { subscriptionFilters } = await context.logs.send(new DescribeSubscriptionFiltersCommand({ logGroupName: '/app/orders' }));
  const declared = subscriptionFilters!.find((filter) => filter.filterName !== 'audit')!;
  assert.equal(subscriptionFilters, [
    { filterName: 'audit', logGroupName: '/app/orders', filterPattern: '{ $.level = "audit" }', destinationArn, distribution: 'ByLogStream', creationTime: subscriptionFilters![0].creationTime },
    {
      filterName: declared.filterName,
      logGroupName: '/app/orders',
      filterPattern: 'ERROR',
      destinationArn: 'arn:aws:lambda:us-east-1:000000000000:function:logship-dev-errors',
      distribution: 'ByLogStream',
      creationTime: declared.creationTime,
    },
  ].sort((a, b) => (a.filterName! < b.filterName! ? -1 : 1)));
  const at = Date.now();
  await context.logs.send(new PutLogEventsCommand({ logGroupName: '/app/orders', logStreamName: 'web-1', logEvents: [{ timestamp: at, message: '{"level":"audit","who":"ana"}' }, { timestamp: at, message: '{"level":"debug"}' }] }));
  const [delivery] = await deliveries(context, 'audit', 1);
  assert.equal([delivery.subscriptionFilters, (delivery.logEvents as { message: string }[]).map((event) => event.message)], [['audit'], ['{"level":"audit","who":"ana"}']]);
  await context.logs.send(new DeleteSubscriptionFilterCommand({ logGroupName: '/app/orders', filterName: 'audit' }));
  assert.equal((await context.logs.send(new DescribeSubscriptionFiltersCommand({ logGroupName: '/app/orders' }))).subscriptionFilters!.map((filter) => filter.filterName), [declared.filterName]);
  await context.logs.send(new PutLogEventsCommand({ logGroupName: '/app/orders', logStreamName: 'web-1', logEvents: [{ timestamp: Date.now(), message: '{"level":"audit","who":"bo"}' }] }));
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.is((await deliveries(context, 'audit', 1)).length, 1);
});

subscriptions('PutSubscriptionFilter refuses what CloudWatch Logs refuses, and says what it does not emulate', async (context) => {
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: Error) => [error.name, error.message]);
  const put = (input: Partial<ConstructorParameters<typeof PutSubscriptionFilterCommand>[0]>) =>
    failure(context.logs.send(new PutSubscriptionFilterCommand({ logGroupName: '/app/orders', filterName: 'x', filterPattern: '', destinationArn: 'arn:aws:lambda:us-east-1:000000000000:function:logship-dev-audit', ...input })));
  assert.equal(await put({ logGroupName: '/no/group' }), ['ResourceNotFoundException', 'The specified log group does not exist.']);
  assert.equal(await put({ destinationArn: 'arn:aws:lambda:us-east-1:000000000000:function:nothing' }), ['InvalidParameterException', 'Could not execute the lambda function. Make sure you have given CloudWatch Logs permission to execute your function.']);
  assert.equal(await put({ destinationArn: 'arn:aws:kinesis:us-east-1:000000000000:stream/logs' }), [
    'InvalidParameterException',
    'not emulated: CloudWatch Logs subscription filters delivering to arn:aws:kinesis:us-east-1:000000000000:stream/logs (the local cloud delivers to Lambda functions)',
  ]);
  await context.logs.send(new PutSubscriptionFilterCommand({ logGroupName: '/app/orders', filterName: 'second', filterPattern: '', destinationArn: 'arn:aws:lambda:us-east-1:000000000000:function:logship-dev-audit' }));
  // Two filters a group at most: the declared one and "second".
  assert.equal(await put({ filterName: 'third' }), ['LimitExceededException', 'Resource limit exceeded.']);
  assert.equal(await failure(context.logs.send(new DeleteSubscriptionFilterCommand({ logGroupName: '/app/orders', filterName: 'nothing' }))), ['ResourceNotFoundException', 'The specified subscription filter does not exist.']);
});

subscriptions.run();
