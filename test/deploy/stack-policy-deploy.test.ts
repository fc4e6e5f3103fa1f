import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStackEventsCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { LOCAL_CREDENTIALS, startTestService, type TestService } from '../helpers/local-cloud';

const service = (method: string, timeout: number, memory: number) => `service: guarded
provider:
  name: aws
  runtime: nodejs20.x
  deploymentMethod: ${method}
  stackPolicy:
    - Effect: Allow
      Principal: '*'
      Action: 'Update:*'
      Resource: '*'
    - Effect: Deny
      Principal: '*'
      Action: 'Update:Modify'
      Resource: 'LogicalResourceId/Guarded*'
      Condition:
        StringEquals:
          ResourceType: AWS::SQS::Queue
functions:
  free:
    handler: handler.hello
    memorySize: ${memory}
resources:
  Resources:
    GuardedQueue:
      Type: AWS::SQS::Queue
      Properties:
        QueueName: guarded-queue
        VisibilityTimeout: ${timeout}
`;

for (const method of ['changesets', 'direct']) {
  const deploys = suite<TestService>(`fw deploy to the local cloud is held to provider.stackPolicy (${method})`);

  deploys.before(async context => {
    Object.assign(context, await startTestService({ 'fw.yml': service(method, 6, 1024), 'handler.js': 'exports.hello = async () => "hi";\n' }));
  });
  deploys.after(async context => context.stop());

  deploys('a deploy that would modify a denied queue fails and rolls back; one that modifies only allowed resources goes through', async context => {
    const first = await context.fw('deploy');
    assert.is(first.code, 0, first.stderr + first.stdout);
    const client = { endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS };
    const lambda = new LambdaClient(client);
    const sqs = new SQSClient(client);
    try {
      writeFileSync(join(context.service, 'fw.yml'), service(method, 20, 1024));
      const denied = await context.fw('deploy');
      assert.is(denied.code, 1, denied.stdout);
      assert.match(denied.stderr + denied.stdout, 'Action denied by stack policy: Statement [#1] does not allow [Update:Modify] for resource [LogicalResourceId/GuardedQueue]');
      const stack = (await context.cfn.send(new DescribeStacksCommand({ StackName: 'guarded-dev' }))).Stacks![0]!;
      assert.is(stack.StackStatus, 'UPDATE_ROLLBACK_COMPLETE');
      const { StackEvents } = await context.cfn.send(new DescribeStackEventsCommand({ StackName: 'guarded-dev' }));
      assert.equal(StackEvents!.filter(event => event.ResourceStatus === 'UPDATE_FAILED').map(event => event.LogicalResourceId), ['GuardedQueue']);
      const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'guarded-queue' }));
      assert.equal((await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['VisibilityTimeout'] }))).Attributes, { VisibilityTimeout: '6' });

      writeFileSync(join(context.service, 'fw.yml'), service(method, 6, 512));
      const allowed = await context.fw('deploy');
      assert.is(allowed.code, 0, allowed.stderr);
      assert.is((await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'guarded-dev-free' }))).MemorySize, 512);
    } finally {
      lambda.destroy();
      sqs.destroy();
    }
  });

  deploys.run();
}
