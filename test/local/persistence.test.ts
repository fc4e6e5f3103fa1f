import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { outputsOf, settle, startTestCloud, type TestCloud } from './helpers';

const persistence = suite<{ first?: TestCloud; second?: TestCloud }>('local cloud state across restarts');

persistence.after(async (context) => {
  await context.first?.stop({ keepData: true });
  await context.second?.stop();
});

persistence('a restarted server sees earlier stacks, objects and functions', async (context) => {
  const first = (context.first = await startTestCloud());
  await first.s3.send(new CreateBucketCommand({ Bucket: 'keep' }));
  await first.s3.send(new PutObjectCommand({ Bucket: 'keep', Key: 'note.txt', Body: 'still here' }));
  const template = {
    Resources: {
      Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'kept-fn', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'arn:aws:iam::000000000000:role/r', Code: { ZipFile: 'exports.handler = async (e) => ({ echo: e })' } } },
      Api: { Type: 'AWS::ApiGatewayV2::Api', Properties: { Name: 'a', ProtocolType: 'HTTP' } },
    },
    Outputs: { Url: { Value: { 'Fn::Sub': 'https://${Api}.execute-api.${AWS::Region}.${AWS::URLSuffix}' } } },
  };
  await first.cfn.send(new CreateStackCommand({ StackName: 'kept', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(first.cfn, 'kept')).StackStatus, 'CREATE_COMPLETE');
  await first.stop({ keepData: true });
  context.first = undefined;

  const second = (context.second = await startTestCloud(first.dataDir));
  assert.is.not(second.cloud.port, first.cloud.port);
  const { Stacks } = await second.cfn.send(new DescribeStacksCommand({ StackName: 'kept' }));
  assert.is(Stacks![0].StackStatus, 'CREATE_COMPLETE');
  assert.match(outputsOf(Stacks![0]).Url, new RegExp(`^${second.cloud.url.replace(/\./g, '\\.')}/_fw/execute-api/[a-z0-9]{10}$`));
  const object = await second.s3.send(new GetObjectCommand({ Bucket: 'keep', Key: 'note.txt' }));
  assert.is(await object.Body!.transformToString(), 'still here');
  const lambda = new LambdaClient({ ...second.config, maxAttempts: 1 });
  const result = await lambda.send(new InvokeCommand({ FunctionName: 'kept-fn', Payload: Buffer.from('{"a":1}') }));
  lambda.destroy();
  assert.equal(JSON.parse(Buffer.from(result.Payload!).toString()), { echo: { a: 1 } });
});

persistence.run();
