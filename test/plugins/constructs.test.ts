import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { packageService } from '../../src/package/service';
import { runFw } from './helpers';

const EXAMPLE = join(__dirname, '..', '..', '..', 'examples', 'constructs-ts');
const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' };
const NOW = new Date('2024-01-01T00:00:00.000Z');

interface Context {
  cloud: RunningLocalCloud;
  dataDir: string;
  service: string;
}

const constructs = suite<Context>('Constructs added from fw.ts (examples/constructs-ts)');

constructs.before(async context => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-constructs-data-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true });
  context.service = mkdtempSync(join(tmpdir(), 'fw-constructs-service-'));
  cpSync(EXAMPLE, context.service, { recursive: true, filter: source => !/node_modules|\.serverless/.test(source) });
});

constructs.after(async context => {
  await context.cloud.stop();
  rmSync(context.dataDir, { recursive: true, force: true });
  rmSync(context.service, { recursive: true, force: true });
});

constructs('the JobQueue construct synthesizes into the service template, reached by a variable, a Ref and resources', async ({ service }) => {
  const { template } = await packageService({ cwd: service, options: {}, now: NOW });
  const resources = template.Resources as Record<string, { Properties?: Record<string, unknown> }>;
  assert.equal(Object.keys(resources).slice(-3), ['JobsDeadLetterQueue', 'JobsQueue', 'JobsDeadLetterAlarm']);
  assert.equal(resources.JobsQueue, {
    Type: 'AWS::SQS::Queue',
    Properties: {
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': ['JobsDeadLetterQueue', 'Arn'] }, maxReceiveCount: 5 },
      VisibilityTimeout: 60,
    },
  });
  assert.equal(resources.JobsDeadLetterAlarm.Properties!.Dimensions, [{ Name: 'QueueName', Value: { 'Fn::GetAtt': ['JobsDeadLetterQueue', 'QueueName'] } }]);
  assert.equal(resources.EnqueueLambdaFunction.Properties!.Environment, { Variables: { QUEUE_URL: { Ref: 'JobsQueue' } } });
  assert.equal(resources.WorkerEventSourceMappingSQSJobsQueue.Properties!.EventSourceArn, { 'Fn::GetAtt': ['JobsQueue', 'Arn'] });
  assert.equal(template.Outputs!.JobsQueueUrl, {
    Description: 'URL of the jobs queue',
    Value: { Ref: 'JobsQueue' },
    Export: { Name: 'sls-constructs-ts-dev-JobsQueueUrl' },
  });
});

constructs('the example deploys to the local cloud, and the function gets the URL of the construct queue', async ({ cloud, service }) => {
  const deployed = await runFw(['deploy', '--endpoint-url', cloud.url], service, ENV);
  assert.is(deployed.code, 0, deployed.stderr);
  assert.match(deployed.stdout, 'Service deployed to stack constructs-ts-dev');
  const cfn = new CloudFormationClient({ endpoint: cloud.url, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'constructs-ts-dev' }))).Stacks![0];
  cfn.destroy();
  const queueUrl = stack.Outputs!.find(output => output.OutputKey === 'JobsQueueUrl')!.OutputValue!;
  assert.match(queueUrl, /JobsQueue|jobs/i);
  const invoked = await runFw(['invoke', '-f', 'enqueue', '--data', '{"body":"resize photo 7"}', '--endpoint-url', cloud.url], service, ENV);
  assert.is(invoked.code, 0, invoked.stderr);
  assert.equal(JSON.parse(invoked.stdout), { statusCode: 202, body: JSON.stringify({ queueUrl, job: 'resize photo 7' }) });
});

constructs.run();
