import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { ListSubscriptionsByTopicCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { listZip } from '../../src/local/runtime/unzip';
import { runFw } from '../helpers/cli';
import { LOCAL_CREDENTIALS, TEST_ENV } from '../helpers/local-cloud';

const REPO = join(__dirname, '..', '..', '..');
const { eventBridgeTypeScriptExample } = require(join(REPO, 'scripts', 'public-apps.js')) as {
  eventBridgeTypeScriptExample(options?: { log?: (line: string) => void }): { dir: string; source: string };
};

/**
 * Public apps written for AWS SDK v3, deployed with `fw deploy --local` as published and driven as
 * their READMEs say. No Serverless example app on npm calls SDK v3 from its handlers (see
 * docs/development.md, "Public apps"); the one here is serverless-offline-aws-eventbridge's
 * TypeScript example (scripts/public-apps.js), whose own code calls SDK v3: its test script puts the
 * event with @aws-sdk/client-eventbridge. Its serverless.ts is bundled by the plugin it declares
 * (serverless-esbuild), its dependencies come from npm as its README says, nothing of it is rewritten.
 */
const apps = suite<{ cloud: RunningLocalCloud; dataDir: string }>('public SDK v3 apps run unchanged in the local cloud');

// The example's test script says `endpoint: 'http://localhost:4566'`, LocalStack's port and fw local's default.
const PORT = 4566;

apps.before(async (context) => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-test-cloud-'));
  try {
    context.cloud = await startLocalCloud({ port: PORT, dataDir: context.dataDir, quiet: true });
  } catch (error) {
    throw new Error(`This test needs port ${PORT} (the example's test script calls http://localhost:${PORT}): ${(error as Error).message}`);
  }
});

apps.after(async (context) => {
  await context.cloud?.stop();
  rmSync(context.dataDir, { recursive: true, force: true });
});

apps('serverless-offline-aws-eventbridge’s TypeScript example: its SDK v3 script’s event goes bus → rule → SNS → SQS → the esbuild-bundled function', async (context) => {
  const { dir } = eventBridgeTypeScriptExample();
  // The app's own code uses SDK v3, installed from npm by its package.json.
  assert.match(readFileSync(join(dir, 'test', 'test-script.ts'), 'utf8'), "from '@aws-sdk/client-eventbridge'");
  assert.match(readFileSync(join(dir, 'node_modules', '@aws-sdk', 'client-eventbridge', 'package.json'), 'utf8'), /"version": "3\./);
  const client = { endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS };
  const env = { ...TEST_ENV, FW_LOCAL_PORT: String(PORT) };

  // README: `npm start` runs `serverless offline start --config serverless.ts`; here the same file is deployed.
  const deployed = await runFw(['deploy', '--local', '--config', 'serverless.ts'], dir, env);
  assert.is(deployed.code, 0, deployed.stderr);
  // Its stack gives the topic no policy: on AWS the rule's deliveries would fail (LocalStack, which it was written for, delivers).
  assert.match(
    deployed.stdout + deployed.stderr,
    "EventBridgeSampleRule: delivers to arn:aws:sns:us-east-1:000000000000:sample-sns-topic here; AWS delivers only if the topic's policy allows events.amazonaws.com (no policy in the stack does)",
  );
  // The function's code is the zip serverless-esbuild made (its bundle and source map), as v3 deploys it.
  assert.equal(listZip(readFileSync(join(dir, '.serverless', 'hello.zip'))).map((entry) => entry.name), ['src/functions/hello/handler.js', 'src/functions/hello/handler.js.map']);

  // What serverless-offline-sns makes from `custom.serverless-offline-sns.subscriptions`: the queue on the topic, raw.
  const sns = new SNSClient(client);
  const sqs = new SQSClient(client);
  const topicArn = 'arn:aws:sns:us-east-1:000000000000:sample-sns-topic';
  const queueUrl = (await sqs.send(new GetQueueUrlCommand({ QueueName: 'sample-sqs-queue' }))).QueueUrl!;
  const queueArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
  assert.is(queueArn, 'arn:aws:sqs:us-east-1:000000000000:sample-sqs-queue');
  await sns.send(new SubscribeCommand({ TopicArn: topicArn, Protocol: 'sqs', Endpoint: queueArn, Attributes: { RawMessageDelivery: 'true' } }));
  assert.equal((await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn: topicArn }))).Subscriptions?.map((s) => [s.Protocol, s.Endpoint]), [['sqs', queueArn]]);

  // README: `npm test` runs its test script (ts-node ./test/test-script.ts), which puts one event.
  // (Not spawnSync: the local cloud answering it runs in this process.)
  const script = await promisify(execFile)('npm', ['test', '--silent'], { cwd: dir, env: { ...process.env, ...TEST_ENV }, encoding: 'utf8', timeout: 120_000 });
  assert.match(script.stdout, /RESULT \{\s+FailedEntryCount: 0,\s+Entries: \[ \{ EventId: '[0-9a-f-]{36}' \} \]/);
  const eventId = /EventId: '([0-9a-f-]{36})'/.exec(script.stdout)![1];

  // The function logs what reached it: one SQS record whose body is the event as EventBridge sends it.
  const logs = new CloudWatchLogsClient(client);
  const deadline = Date.now() + 30_000;
  let logged: string | undefined;
  while (logged === undefined && Date.now() < deadline) {
    const found = await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/sns-sqs-lambda-dev-hello' })).catch(() => ({ events: [] }));
    logged = found.events?.map((event) => event.message ?? '').find((message) => message.includes('Your event reaching Hello lambda'));
    if (logged === undefined) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.ok(logged, 'the function logged the record');
  const body = /body: '(\{.*\})',/.exec(logged!)?.[1];
  assert.ok(body, logged);
  const event = JSON.parse(body!) as Record<string, unknown>;
  assert.equal(event, {
    version: '0',
    id: eventId,
    'detail-type': 'sample-detail-type',
    source: 'test-script',
    account: '000000000000',
    time: event.time,
    region: 'us-east-1',
    resources: [],
    detail: { message: 'hello world' },
  });
  assert.match(String(event.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.match(logged!, "eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:sample-sqs-queue'");

  // The function returned: the message is deleted from the queue.
  const counts = async () => (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }))).Attributes;
  let left = await counts();
  for (let i = 0; i < 40 && left?.ApproximateNumberOfMessagesNotVisible !== '0'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    left = await counts();
  }
  assert.equal(left, { ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });

  const removed = await runFw(['remove', '--local', '--config', 'serverless.ts'], dir, env);
  assert.is(removed.code, 0, removed.stderr);
  await new CloudFormationClient(client).send(new DescribeStacksCommand({ StackName: 'sns-sqs-lambda-dev' })).then(
    () => assert.unreachable('the stack is still there'),
    (error: Error) => assert.is(error.message, 'Stack with id sns-sqs-lambda-dev does not exist'),
  );
});

apps.run();
