import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  CloudFormationClient,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackEventsCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  type Stack,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const BUCKET = 'nested-templates';

interface Context {
  cloud: RunningLocalCloud;
  dataDir: string;
  cfn: CloudFormationClient;
  s3: S3Client;
}

const nested = suite<Context>('AWS::CloudFormation::Stack in the local cloud');

nested.before(async context => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-nested-data-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true });
  context.cfn = new CloudFormationClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials });
  context.s3 = new S3Client({ endpoint: context.cloud.url, region: 'us-east-1', credentials, forcePathStyle: true });
  await context.s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
});

nested.after(async context => {
  await context.cloud.stop();
  rmSync(context.dataDir, { recursive: true, force: true });
});

const put = (context: Context, key: string, template: unknown) =>
  context.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: JSON.stringify(template) }));

/** The URL form fw writes: https://s3.<region>.<suffix>/<bucket>/<key>, resolved by CloudFormation. */
const templateUrl = (key: string) => ({ 'Fn::Join': ['', ['https://s3.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/', BUCKET, '/', key]] });

async function settle(context: Context, name: string): Promise<Stack> {
  for (;;) {
    const stack = (await context.cfn.send(new DescribeStacksCommand({ StackName: name }))).Stacks![0];
    if (!stack.StackStatus!.endsWith('_IN_PROGRESS')) return stack;
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}

nested('creates the child from its TemplateURL, passes parameters and reads its outputs', async context => {
  await put(context, 'child.json', {
    Parameters: { QueueName: { Type: 'String' } },
    Resources: { Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { Ref: 'QueueName' } } } },
    Outputs: { QueueArn: { Value: { 'Fn::GetAtt': ['Queue', 'Arn'] } } },
  });
  await context.cfn.send(
    new CreateStackCommand({
      StackName: 'parent',
      TemplateBody: JSON.stringify({
        Resources: {
          Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'parent-topic' } },
          Child: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: templateUrl('child.json'), Parameters: { QueueName: { 'Fn::GetAtt': ['Topic', 'TopicName'] } } } },
        },
        Outputs: { FromChild: { Value: { 'Fn::GetAtt': ['Child', 'Outputs.QueueArn'] } } },
      }),
    }),
  );
  const parent = await settle(context, 'parent');
  assert.is(parent.StackStatus, 'CREATE_COMPLETE', parent.StackStatusReason);
  assert.equal(parent.Outputs!.map(o => [o.OutputKey, o.OutputValue]), [['FromChild', 'arn:aws:sqs:us-east-1:000000000000:parent-topic']]);
  const { StackResources = [] } = await context.cfn.send(new DescribeStackResourcesCommand({ StackName: 'parent', LogicalResourceId: 'Child' }));
  const child = await settle(context, StackResources[0].PhysicalResourceId!);
  assert.is(child.StackStatus, 'CREATE_COMPLETE');
  assert.match(child.StackName!, /^parent-Child-[A-Z0-9]+$/);
});

nested('a resource failing in the child fails the parent, naming the child and the reason', async context => {
  await put(context, 'broken.json', { Resources: { Bad: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'Not_Valid' } } } });
  await context.cfn.send(
    new CreateStackCommand({
      StackName: 'broken-parent',
      TemplateBody: JSON.stringify({ Resources: { Child: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: templateUrl('broken.json') } } } }),
    }),
  );
  const parent = await settle(context, 'broken-parent');
  assert.is(parent.StackStatus, 'ROLLBACK_COMPLETE');
  const { StackEvents = [] } = await context.cfn.send(new DescribeStackEventsCommand({ StackName: 'broken-parent' }));
  const failed = StackEvents.find(event => event.LogicalResourceId === 'Child' && event.ResourceStatus === 'CREATE_FAILED');
  assert.match(failed?.ResourceStatusReason ?? '', /^Embedded stack arn:aws:cloudformation:us-east-1:000000000000:stack\/broken-parent-Child-\w+\/[\w-]+ was not successfully created: .+/);
});

nested('deleting the parent deletes the child', async context => {
  const { StackResources = [] } = await context.cfn.send(new DescribeStackResourcesCommand({ StackName: 'parent', LogicalResourceId: 'Child' }));
  const childId = StackResources[0].PhysicalResourceId!;
  await context.cfn.send(new DeleteStackCommand({ StackName: 'parent' }));
  const child = await settle(context, childId);
  assert.is(child.StackStatus, 'DELETE_COMPLETE');
});

nested.run();
