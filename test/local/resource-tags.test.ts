import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand, DeleteStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, CreateLogGroupCommand, ListTagsForResourceCommand as ListLogTagsCommand, ListTagsLogGroupCommand, TagLogGroupCommand, TagResourceCommand as TagLogCommand, UntagResourceCommand as UntagLogCommand } from '@aws-sdk/client-cloudwatch-logs';
import { CreateTableCommand, DynamoDBClient, ListTagsOfResourceCommand, TagResourceCommand as TagTableCommand, UntagResourceCommand as UntagTableCommand } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient, ListTagsForResourceCommand as ListRuleTagsCommand, PutRuleCommand, TagResourceCommand as TagRuleCommand, UntagResourceCommand as UntagRuleCommand } from '@aws-sdk/client-eventbridge';
import { GetFunctionCommand, LambdaClient, ListTagsCommand, TagResourceCommand as TagFunctionCommand, UntagResourceCommand as UntagFunctionCommand } from '@aws-sdk/client-lambda';
import { DescribeSecretCommand, SecretsManagerClient, TagResourceCommand as TagSecretCommand, UntagResourceCommand as UntagSecretCommand } from '@aws-sdk/client-secrets-manager';
import { CreateTopicCommand, ListTagsForResourceCommand as ListTopicTagsCommand, SNSClient, TagResourceCommand as TagTopicCommand, UntagResourceCommand as UntagTopicCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand, ListQueueTagsCommand, SQSClient, TagQueueCommand, UntagQueueCommand } from '@aws-sdk/client-sqs';
import { failure, outputsOf, settle, startTestCloud, type TestCloud } from './helpers';

/**
 * The services' tagging APIs: what a stack declares (its resources' Tags, the stack's Tags and
 * CloudFormation's own aws:cloudformation:* tags) is what the List calls answer; Tag and Untag
 * calls change it, and a restart keeps the change.
 */
const tags = suite<{ first?: TestCloud; second?: TestCloud; stackId: string; outputs: Record<string, string> }>('resource tags set by stacks and the tagging APIs');

tags.after(async (context) => {
  await context.first?.stop({ keepData: true });
  await context.second?.stop();
});

const TAGS = [{ Key: 'team', Value: 'orders' }];
const template = {
  Resources: {
    Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'tagged-fn', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'r', Code: { ZipFile: 'exports.handler = async () => 1;' }, Tags: TAGS } },
    Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'tagged-queue', Tags: TAGS } },
    Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'tagged-topic', Tags: TAGS } },
    Table: {
      Type: 'AWS::DynamoDB::Table',
      Properties: { TableName: 'tagged-table', BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], Tags: TAGS },
    },
    Logs: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: '/tagged/group', Tags: TAGS } },
    Rule: { Type: 'AWS::Events::Rule', Properties: { Name: 'tagged-rule', EventPattern: { source: ['orders'] }, Tags: TAGS } },
  },
  Outputs: {
    FunctionArn: { Value: { 'Fn::GetAtt': ['Fn', 'Arn'] } },
    QueueUrl: { Value: { Ref: 'Queue' } },
    TopicArn: { Value: { Ref: 'Topic' } },
    TableArn: { Value: { 'Fn::GetAtt': ['Table', 'Arn'] } },
    RuleArn: { Value: { 'Fn::GetAtt': ['Rule', 'Arn'] } },
  },
};

/** What a stack gives each of its resources: CloudFormation's tags, the stack's, the resource's. */
const declared = (stackId: string, logicalId: string) => ({
  'aws:cloudformation:stack-name': 'tagged',
  'aws:cloudformation:stack-id': stackId,
  'aws:cloudformation:logical-id': logicalId,
  stage: 'dev',
  team: 'orders',
});

const list = (map: Record<string, string>) => Object.entries(map).map(([Key, Value]) => ({ Key, Value }));

tags.before(async (context) => {
  const first = (context.first = await startTestCloud());
  const created = await first.cfn.send(new CreateStackCommand({ StackName: 'tagged', TemplateBody: JSON.stringify(template), Tags: [{ Key: 'stage', Value: 'dev' }] }));
  const stack = await settle(first.cfn, 'tagged');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE');
  context.stackId = created.StackId!;
  context.outputs = outputsOf(stack);
});

tags('Lambda ListTags, GetFunction, TagResource and UntagResource', async ({ first, stackId, outputs }) => {
  const lambda = new LambdaClient({ ...first!.config, maxAttempts: 1 });
  const Resource = outputs.FunctionArn;
  assert.equal((await lambda.send(new ListTagsCommand({ Resource }))).Tags, declared(stackId, 'Fn'));
  await lambda.send(new TagFunctionCommand({ Resource, Tags: { owner: 'ana', team: 'payments' } }));
  await lambda.send(new UntagFunctionCommand({ Resource, TagKeys: ['stage'] }));
  const { stage, ...rest } = declared(stackId, 'Fn');
  const expected = { ...rest, team: 'payments', owner: 'ana' };
  assert.equal((await lambda.send(new ListTagsCommand({ Resource }))).Tags, expected);
  assert.equal((await lambda.send(new GetFunctionCommand({ FunctionName: 'tagged-fn' }))).Tags, expected);
  const missing = await failure(lambda.send(new ListTagsCommand({ Resource: Resource.replace('tagged-fn', 'nope') })));
  assert.equal([missing?.name, missing?.message], ['ResourceNotFoundException', `Function not found: ${Resource.replace('tagged-fn', 'nope')}`]);
  lambda.destroy();
});

tags('SQS ListQueueTags, TagQueue, UntagQueue, and CreateQueue tags', async ({ first, stackId, outputs }) => {
  const sqs = new SQSClient({ ...first!.config, maxAttempts: 1 });
  const QueueUrl = outputs.QueueUrl;
  assert.equal((await sqs.send(new ListQueueTagsCommand({ QueueUrl }))).Tags, declared(stackId, 'Queue'));
  await sqs.send(new TagQueueCommand({ QueueUrl, Tags: { owner: 'ana' } }));
  await sqs.send(new UntagQueueCommand({ QueueUrl, TagKeys: ['team'] }));
  const { team, ...rest } = declared(stackId, 'Queue');
  assert.equal((await sqs.send(new ListQueueTagsCommand({ QueueUrl }))).Tags, { ...rest, owner: 'ana' });
  const made = await sqs.send(new CreateQueueCommand({ QueueName: 'api-queue', tags: { purpose: 'test' } }));
  assert.equal((await sqs.send(new ListQueueTagsCommand({ QueueUrl: made.QueueUrl }))).Tags, { purpose: 'test' });
  const untagged = await sqs.send(new CreateQueueCommand({ QueueName: 'bare-queue' }));
  // SQS leaves Tags out for a queue without any.
  assert.is((await sqs.send(new ListQueueTagsCommand({ QueueUrl: untagged.QueueUrl }))).Tags, undefined);
  sqs.destroy();
});

tags('SNS ListTagsForResource, TagResource, UntagResource, and CreateTopic Tags', async ({ first, stackId, outputs }) => {
  const sns = new SNSClient({ ...first!.config, maxAttempts: 1 });
  const ResourceArn = outputs.TopicArn;
  assert.equal((await sns.send(new ListTopicTagsCommand({ ResourceArn }))).Tags, list(declared(stackId, 'Topic')));
  await sns.send(new TagTopicCommand({ ResourceArn, Tags: [{ Key: 'owner', Value: 'ana' }] }));
  await sns.send(new UntagTopicCommand({ ResourceArn, TagKeys: ['stage'] }));
  const { stage, ...rest } = declared(stackId, 'Topic');
  assert.equal((await sns.send(new ListTopicTagsCommand({ ResourceArn }))).Tags, list({ ...rest, owner: 'ana' }));
  const made = await sns.send(new CreateTopicCommand({ Name: 'api-topic', Tags: [{ Key: 'purpose', Value: 'test' }] }));
  assert.equal((await sns.send(new ListTopicTagsCommand({ ResourceArn: made.TopicArn }))).Tags, [{ Key: 'purpose', Value: 'test' }]);
  const missing = await failure(sns.send(new ListTopicTagsCommand({ ResourceArn: `${ResourceArn}-nope` })));
  assert.equal([missing?.name, missing?.message], ['ResourceNotFoundException', 'Resource does not exist']);
  sns.destroy();
});

tags('DynamoDB ListTagsOfResource, TagResource, UntagResource, and CreateTable Tags', async ({ first, stackId, outputs }) => {
  const dynamodb = new DynamoDBClient({ ...first!.config, maxAttempts: 1 });
  const ResourceArn = outputs.TableArn;
  assert.equal((await dynamodb.send(new ListTagsOfResourceCommand({ ResourceArn }))).Tags, list(declared(stackId, 'Table')));
  await dynamodb.send(new TagTableCommand({ ResourceArn, Tags: [{ Key: 'owner', Value: 'ana' }] }));
  await dynamodb.send(new UntagTableCommand({ ResourceArn, TagKeys: ['team'] }));
  const { team, ...rest } = declared(stackId, 'Table');
  assert.equal((await dynamodb.send(new ListTagsOfResourceCommand({ ResourceArn }))).Tags, list({ ...rest, owner: 'ana' }));
  const made = await dynamodb.send(
    new CreateTableCommand({ TableName: 'api-table', BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], Tags: [{ Key: 'purpose', Value: 'test' }] }),
  );
  assert.equal((await dynamodb.send(new ListTagsOfResourceCommand({ ResourceArn: made.TableDescription!.TableArn }))).Tags, [{ Key: 'purpose', Value: 'test' }]);
  const gone = ResourceArn.replace('tagged-table', 'no-table');
  const missing = await failure(dynamodb.send(new ListTagsOfResourceCommand({ ResourceArn: gone })));
  assert.equal([missing?.name, missing?.message], ['ResourceNotFoundException', `Requested resource not found: ResourcArn: ${gone} not found`]);
  dynamodb.destroy();
});

tags('CloudWatch Logs tagging by ARN and by log group name (the older calls)', async ({ first, stackId }) => {
  const logs = new CloudWatchLogsClient({ ...first!.config, maxAttempts: 1 });
  const resourceArn = 'arn:aws:logs:us-east-1:000000000000:log-group:/tagged/group';
  assert.equal((await logs.send(new ListLogTagsCommand({ resourceArn }))).tags, declared(stackId, 'Logs'));
  await logs.send(new TagLogCommand({ resourceArn, tags: { owner: 'ana' } }));
  await logs.send(new UntagLogCommand({ resourceArn, tagKeys: ['stage'] }));
  await logs.send(new TagLogGroupCommand({ logGroupName: '/tagged/group', tags: { cost: 'low' } }));
  const { stage, ...rest } = declared(stackId, 'Logs');
  const expected = { ...rest, owner: 'ana', cost: 'low' };
  assert.equal((await logs.send(new ListTagsLogGroupCommand({ logGroupName: '/tagged/group' }))).tags, expected);
  assert.equal((await logs.send(new ListLogTagsCommand({ resourceArn: `${resourceArn}:*` }))).tags, expected);
  await logs.send(new CreateLogGroupCommand({ logGroupName: '/api/group', tags: { purpose: 'test' } }));
  assert.equal((await logs.send(new ListTagsLogGroupCommand({ logGroupName: '/api/group' }))).tags, { purpose: 'test' });
  const missing = await failure(logs.send(new ListTagsLogGroupCommand({ logGroupName: '/no/group' })));
  assert.equal([missing?.name, missing?.message], ['ResourceNotFoundException', 'The specified log group does not exist.']);
  logs.destroy();
});

tags('EventBridge ListTagsForResource, TagResource, UntagResource on rules, and PutRule Tags', async ({ first, stackId, outputs }) => {
  const events = new EventBridgeClient({ ...first!.config, maxAttempts: 1 });
  const ResourceARN = outputs.RuleArn;
  assert.equal((await events.send(new ListRuleTagsCommand({ ResourceARN }))).Tags, list(declared(stackId, 'Rule')));
  await events.send(new TagRuleCommand({ ResourceARN, Tags: [{ Key: 'owner', Value: 'ana' }] }));
  await events.send(new UntagRuleCommand({ ResourceARN, TagKeys: ['team'] }));
  const { team, ...rest } = declared(stackId, 'Rule');
  assert.equal((await events.send(new ListRuleTagsCommand({ ResourceARN }))).Tags, list({ ...rest, owner: 'ana' }));
  const made = await events.send(new PutRuleCommand({ Name: 'api-rule', EventPattern: '{"source":["x"]}', Tags: [{ Key: 'purpose', Value: 'test' }] }));
  assert.equal((await events.send(new ListRuleTagsCommand({ ResourceARN: made.RuleArn }))).Tags, [{ Key: 'purpose', Value: 'test' }]);
  const missing = await failure(events.send(new ListRuleTagsCommand({ ResourceARN: ResourceARN.replace('tagged-rule', 'no-rule') })));
  assert.equal([missing?.name, missing?.message], ['ResourceNotFoundException', 'Rule no-rule does not exist on EventBus default.']);
  events.destroy();
});

tags('Secrets Manager TagResource and UntagResource, read by DescribeSecret', async ({ first }) => {
  const secrets = new SecretsManagerClient({ ...first!.config, maxAttempts: 1 });
  const { CreateSecretCommand } = await import('@aws-sdk/client-secrets-manager');
  await secrets.send(new CreateSecretCommand({ Name: 'tagged-secret', SecretString: 's', Tags: [{ Key: 'team', Value: 'orders' }, { Key: 'stage', Value: 'dev' }] }));
  await secrets.send(new TagSecretCommand({ SecretId: 'tagged-secret', Tags: [{ Key: 'team', Value: 'payments' }, { Key: 'owner', Value: 'ana' }] }));
  await secrets.send(new UntagSecretCommand({ SecretId: 'tagged-secret', TagKeys: ['stage'] }));
  assert.equal((await secrets.send(new DescribeSecretCommand({ SecretId: 'tagged-secret' }))).Tags, [{ Key: 'team', Value: 'payments' }, { Key: 'owner', Value: 'ana' }]);
  secrets.destroy();
});

tags('tags set by the APIs survive a restart', async (context) => {
  const { stackId, outputs } = context;
  await context.first!.stop({ keepData: true });
  const second = (context.second = await startTestCloud(context.first!.dataDir));
  context.first = undefined;
  const lambda = new LambdaClient({ ...second.config, maxAttempts: 1 });
  const { stage, ...rest } = declared(stackId, 'Fn');
  assert.equal((await lambda.send(new ListTagsCommand({ Resource: outputs.FunctionArn }))).Tags, { ...rest, team: 'payments', owner: 'ana' });
  lambda.destroy();
  const sqs = new SQSClient({ ...second.config, maxAttempts: 1 });
  const { team, ...queueRest } = declared(stackId, 'Queue');
  assert.equal((await sqs.send(new ListQueueTagsCommand({ QueueUrl: outputs.QueueUrl.replace(/:\d+\//, `:${second.cloud.port}/`) }))).Tags, { ...queueRest, owner: 'ana' });
  sqs.destroy();
  const secrets = new SecretsManagerClient({ ...second.config, maxAttempts: 1 });
  assert.equal((await secrets.send(new DescribeSecretCommand({ SecretId: 'tagged-secret' }))).Tags, [{ Key: 'team', Value: 'payments' }, { Key: 'owner', Value: 'ana' }]);
  secrets.destroy();
});

tags('a stack made again under the same names starts with its declared tags, not what tagging calls set on the one it deleted', async (context) => {
  const second = context.second!;
  await second.cfn.send(new DeleteStackCommand({ StackName: 'tagged' }));
  assert.is((await settle(second.cfn, context.stackId)).StackStatus, 'DELETE_COMPLETE');
  const created = await second.cfn.send(new CreateStackCommand({ StackName: 'tagged', TemplateBody: JSON.stringify(template), Tags: [{ Key: 'stage', Value: 'dev' }] }));
  assert.is((await settle(second.cfn, 'tagged')).StackStatus, 'CREATE_COMPLETE');
  const lambda = new LambdaClient({ ...second.config, maxAttempts: 1 });
  assert.equal((await lambda.send(new ListTagsCommand({ Resource: context.outputs.FunctionArn }))).Tags, declared(created.StackId!, 'Fn'));
  lambda.destroy();
});

tags.run();
