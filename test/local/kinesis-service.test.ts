import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { KinesisClient, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { LOCAL_CREDENTIALS, startTestService, type TestService } from '../helpers/local-cloud';

const service = suite<{ t: TestService }>('a serverless.yml kinesis stream event, deployed with fw to the local cloud');

const SERVICE = `service: kinesis-events
provider:
  name: aws
  runtime: nodejs20.x
functions:
  reader:
    handler: handler.main
    events:
      - stream:
          type: kinesis
          arn: { Fn::GetAtt: [Stream, Arn] }
          batchSize: 2
          startingPosition: TRIM_HORIZON
          functionResponseType: ReportBatchItemFailures
resources:
  Resources:
    Stream:
      Type: AWS::Kinesis::Stream
      Properties:
        Name: sls-events
        ShardCount: 1
`;

const HANDLER = `exports.main = async (event) => {
  console.log('BATCH ' + JSON.stringify(event.Records.map((r) => Buffer.from(r.kinesis.data, 'base64').toString())));
  return { batchItemFailures: [] };
};
`;

service.before(async (context) => {
  context.t = await startTestService({ 'serverless.yml': SERVICE, 'handler.js': HANDLER });
});
service.after(async (context) => {
  await context.t.stop();
});

service('records put on the stream reach the function in batches of batchSize, in order', async ({ t }) => {
  const deployed = await t.fw('deploy');
  assert.is(deployed.code, 0, deployed.stdout + deployed.stderr);
  assert.not.match(deployed.stdout + deployed.stderr, /EventSourceMapping/);
  const config = { endpoint: t.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 };
  const kinesis = new KinesisClient(config);
  await kinesis.send(new PutRecordsCommand({ StreamName: 'sls-events', Records: ['a', 'b', 'c'].map((text) => ({ PartitionKey: 'k', Data: new TextEncoder().encode(text) })) }));
  kinesis.destroy();
  const logs = new CloudWatchLogsClient(config);
  let batches: unknown[] = [];
  for (const deadline = Date.now() + 20_000; batches.length < 2 && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const found = await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/kinesis-events-dev-reader', filterPattern: 'BATCH' })).catch(() => ({ events: [] }));
    batches = (found.events ?? []).map((event) => JSON.parse(event.message!.split('BATCH ')[1]));
  }
  logs.destroy();
  assert.equal(batches, [['a', 'b'], ['c']]);
});

service.run();
