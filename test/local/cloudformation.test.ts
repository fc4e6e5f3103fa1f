import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteChangeSetCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  DescribeStackEventsCommand,
  DescribeStackResourceCommand,
  DescribeStacksCommand,
  ExecuteChangeSetCommand,
  GetTemplateCommand,
  ListExportsCommand,
  ListStackResourcesCommand,
  UpdateStackCommand,
  ValidateTemplateCommand,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, HeadBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { eventLines, failure, outputsOf, settle, startTestCloud, type TestCloud } from './helpers';

const cfnSuite = suite<{ t: TestCloud }>('local CloudFormation API');

cfnSuite.before(async (context) => {
  context.t = await startTestCloud();
});
cfnSuite.after(async (context) => {
  await context.t.stop();
});

const queueTemplate = (extra: Record<string, unknown> = {}, outputs: Record<string, unknown> = {}) =>
  JSON.stringify({
    Parameters: { Stage: { Type: 'String', Default: 'dev' } },
    Conditions: { IsProd: { 'Fn::Equals': [{ Ref: 'Stage' }, 'prod'] } },
    Mappings: { Sizes: { dev: { Memory: '128' }, prod: { Memory: '1024' } } },
    Resources: {
      Bucket: { Type: 'AWS::S3::Bucket' },
      Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::Sub': '${AWS::StackName}-${Stage}-queue' } } },
      Table: { Type: 'AWS::DynamoDB::Table', Condition: 'IsProd', Properties: { TableName: 'prod-table' } },
      ...extra,
    },
    Outputs: {
      BucketName: { Value: { Ref: 'Bucket' }, Export: { Name: { 'Fn::Sub': '${AWS::StackName}-bucket' } } },
      QueueArn: { Value: { 'Fn::GetAtt': ['Queue', 'Arn'] } },
      Memory: { Value: { 'Fn::FindInMap': ['Sizes', { Ref: 'Stage' }, 'Memory'] } },
      Joined: { Value: { 'Fn::Join': ['-', [{ 'Fn::Select': [1, { 'Fn::Split': [',', 'a,b,c'] }] }, { 'Fn::If': ['IsProd', 'p', 'np'] }, { 'Fn::Base64': 'hi' }]] } },
      Zones: { Value: { 'Fn::Join': [',', { 'Fn::GetAZs': '' }] } },
      ...outputs,
    },
  });

cfnSuite('creates a stack, resolving intrinsics into resources and outputs', async ({ t }) => {
  const { StackId } = await t.cfn.send(new CreateStackCommand({ StackName: 'app', TemplateBody: queueTemplate() }));
  assert.match(StackId!, /^arn:aws:cloudformation:us-east-1:000000000000:stack\/app\//);
  const stack = await settle(t.cfn, 'app');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE');
  const outputs = outputsOf(stack);
  assert.match(outputs.BucketName, /^app-bucket-[a-z0-9]{12}$/);
  assert.is(outputs.QueueArn, 'arn:aws:sqs:us-east-1:000000000000:app-dev-queue');
  assert.is(outputs.Memory, '128');
  assert.is(outputs.Joined, 'b-np-aGk=');
  assert.is(outputs.Zones, 'us-east-1a,us-east-1b,us-east-1c');
  assert.equal(stack.Parameters, [{ ParameterKey: 'Stage', ParameterValue: 'dev' }]);
  assert.equal(await eventLines(t.cfn, 'app'), [
    'app CREATE_IN_PROGRESS',
    'Bucket CREATE_IN_PROGRESS',
    'Bucket CREATE_COMPLETE',
    'Queue CREATE_IN_PROGRESS',
    'Queue CREATE_COMPLETE',
    'app CREATE_COMPLETE',
  ]);
  const { StackResourceSummaries } = await t.cfn.send(new ListStackResourcesCommand({ StackName: 'app' }));
  assert.equal(StackResourceSummaries!.map((r) => `${r.LogicalResourceId} ${r.ResourceType} ${r.ResourceStatus}`), [
    'Bucket AWS::S3::Bucket CREATE_COMPLETE',
    'Queue AWS::SQS::Queue CREATE_COMPLETE',
  ]);
  const { StackResourceDetail } = await t.cfn.send(new DescribeStackResourceCommand({ StackName: 'app', LogicalResourceId: 'Bucket' }));
  assert.is(StackResourceDetail!.PhysicalResourceId, outputs.BucketName);
  const { Exports } = await t.cfn.send(new ListExportsCommand({}));
  assert.equal(Exports!.map((e) => [e.Name, e.Value]), [['app-bucket', outputs.BucketName]]);
  const { TemplateBody } = await t.cfn.send(new GetTemplateCommand({ StackName: 'app' }));
  assert.is(TemplateBody, queueTemplate());
});

cfnSuite('updates a stack: adds, changes, replaces and removes resources', async ({ t }) => {
  const template = JSON.stringify({
    Resources: {
      Bucket: { Type: 'AWS::S3::Bucket' },
      Topic: { Type: 'AWS::SNS::Topic' },
      Other: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'other' } },
    },
  });
  await t.cfn.send(new CreateStackCommand({ StackName: 'upd', TemplateBody: template }));
  const before = await settle(t.cfn, 'upd');
  assert.is(before.StackStatus, 'CREATE_COMPLETE');
  const resources = async () => (await t.cfn.send(new ListStackResourcesCommand({ StackName: 'upd' }))).StackResourceSummaries!;
  const oldTopic = (await resources()).find((r) => r.LogicalResourceId === 'Other')!.PhysicalResourceId;

  const updated = JSON.stringify({
    Resources: {
      Bucket: { Type: 'AWS::S3::Bucket', Properties: { Tags: [{ Key: 'a', Value: 'b' }] } },
      Other: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'renamed' } },
      Queue: { Type: 'AWS::SQS::Queue' },
    },
  });
  await t.cfn.send(new UpdateStackCommand({ StackName: 'upd', TemplateBody: updated }));
  const after = await settle(t.cfn, 'upd');
  assert.is(after.StackStatus, 'UPDATE_COMPLETE');
  const now = await resources();
  assert.equal(now.map((r) => r.LogicalResourceId).sort(), ['Bucket', 'Other', 'Queue']);
  assert.is(now.find((r) => r.LogicalResourceId === 'Other')!.PhysicalResourceId, 'arn:aws:sns:us-east-1:000000000000:renamed');
  assert.is.not(oldTopic, 'arn:aws:sns:us-east-1:000000000000:renamed');
  const lines = await eventLines(t.cfn, 'upd');
  assert.equal(lines.slice(lines.indexOf('upd UPDATE_IN_PROGRESS')), [
    'upd UPDATE_IN_PROGRESS',
    'Bucket UPDATE_IN_PROGRESS',
    'Bucket UPDATE_COMPLETE',
    'Other UPDATE_IN_PROGRESS',
    'Other UPDATE_COMPLETE',
    'Queue CREATE_IN_PROGRESS',
    'Queue CREATE_COMPLETE',
    'upd UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
    'Other DELETE_IN_PROGRESS',
    'Other DELETE_COMPLETE',
    'Topic DELETE_IN_PROGRESS',
    'Topic DELETE_COMPLETE',
    'upd UPDATE_COMPLETE',
  ]);
  const same = await failure(t.cfn.send(new UpdateStackCommand({ StackName: 'upd', TemplateBody: updated })));
  assert.is(same?.name, 'ValidationError');
  assert.is(same?.message, 'No updates are to be performed.');
});

cfnSuite('a failing update rolls back and the event says why', async ({ t }) => {
  await t.cfn.send(new CreateStackCommand({ StackName: 'rb', TemplateBody: JSON.stringify({ Resources: { Bucket: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'rb-one' } } } }) }));
  assert.is((await settle(t.cfn, 'rb')).StackStatus, 'CREATE_COMPLETE');
  await t.cfn.send(new CreateStackCommand({ StackName: 'taken', TemplateBody: JSON.stringify({ Resources: { Bucket: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'rb-taken' } } } }) }));
  await settle(t.cfn, 'taken');
  const failing = JSON.stringify({
    Resources: {
      Bucket: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'rb-one' } },
      Queue: { Type: 'AWS::SQS::Queue' },
      Clash: { Type: 'AWS::S3::Bucket', DependsOn: 'Queue', Properties: { BucketName: 'rb-taken' } },
    },
  });
  await t.cfn.send(new UpdateStackCommand({ StackName: 'rb', TemplateBody: failing }));
  const stack = await settle(t.cfn, 'rb');
  assert.is(stack.StackStatus, 'UPDATE_ROLLBACK_COMPLETE');
  const { StackResourceSummaries } = await t.cfn.send(new ListStackResourcesCommand({ StackName: 'rb' }));
  assert.equal(StackResourceSummaries!.map((r) => r.LogicalResourceId), ['Bucket']);
  const lines = await eventLines(t.cfn, 'rb');
  assert.equal(lines.slice(lines.indexOf('rb UPDATE_IN_PROGRESS')), [
    'rb UPDATE_IN_PROGRESS',
    'Queue CREATE_IN_PROGRESS',
    'Queue CREATE_COMPLETE',
    'Clash CREATE_IN_PROGRESS',
    'Clash CREATE_FAILED',
    'rb UPDATE_ROLLBACK_IN_PROGRESS',
    'Queue DELETE_IN_PROGRESS',
    'Queue DELETE_COMPLETE',
    'rb UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
    'rb UPDATE_ROLLBACK_COMPLETE',
  ]);
  const { StackEvents } = await t.cfn.send(new DescribeStackEventsCommand({ StackName: 'rb' }));
  assert.is(StackEvents!.find((e) => e.ResourceStatus === 'CREATE_FAILED')!.ResourceStatusReason, 'rb-taken already exists');
});

cfnSuite('a failing create rolls back to ROLLBACK_COMPLETE', async ({ t }) => {
  const template = JSON.stringify({
    Resources: {
      Queue: { Type: 'AWS::SQS::Queue' },
      Broken: { Type: 'AWS::SNS::Topic', Properties: { TopicName: { 'Fn::Select': [5, ['a']] } } },
    },
  });
  await t.cfn.send(new CreateStackCommand({ StackName: 'broken', TemplateBody: template }));
  const stack = await settle(t.cfn, 'broken');
  assert.is(stack.StackStatus, 'ROLLBACK_COMPLETE');
  assert.equal((await eventLines(t.cfn, 'broken')).slice(-5), [
    'Broken CREATE_FAILED',
    'broken ROLLBACK_IN_PROGRESS',
    'Queue DELETE_IN_PROGRESS',
    'Queue DELETE_COMPLETE',
    'broken ROLLBACK_COMPLETE',
  ]);
  const { StackEvents } = await t.cfn.send(new DescribeStackEventsCommand({ StackName: 'broken' }));
  const reasons = StackEvents!.filter((e) => e.ResourceStatusReason).map((e) => `${e.ResourceStatus}: ${e.ResourceStatusReason}`);
  assert.equal(reasons.slice(0, 2), [
    'ROLLBACK_IN_PROGRESS: The following resource(s) failed to create: [Broken]. Rollback requested by user.',
    'CREATE_FAILED: Template error: Fn::Select cannot select nonexistent value at index 5',
  ]);
});

cfnSuite('a function name over Lambda\'s 64 characters fails its resource with CloudFormation\'s schema message', async ({ t }) => {
  const name = `app-dev-${'f'.repeat(57)}`;
  const template = JSON.stringify({
    Resources: {
      Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: name, Runtime: 'nodejs20.x', Handler: 'h.main', Role: 'arn:aws:iam::000000000000:role/r', Code: { ZipFile: 'exports.main = async () => 1;' } } },
    },
  });
  await t.cfn.send(new CreateStackCommand({ StackName: 'longname', TemplateBody: template }));
  assert.is((await settle(t.cfn, 'longname')).StackStatus, 'ROLLBACK_COMPLETE');
  const { StackEvents } = await t.cfn.send(new DescribeStackEventsCommand({ StackName: 'longname' }));
  assert.is(StackEvents!.find((e) => e.ResourceStatus === 'CREATE_FAILED')!.ResourceStatusReason, 'Properties validation failed for resource Fn with message: #/FunctionName: expected maxLength: 64, actual: 65');
});

cfnSuite('rejects bad templates with ValidationError and the reason', async ({ t }) => {
  const cases: [string, string][] = [
    ['{"Resources": ', 'Template format error: JSON not well-formed.'],
    ['{"Resources": {}}', 'Template format error: At least one Resources member must be defined.'],
    [JSON.stringify({ Resources: { A: { Type: 'AWS::SNS::Topic', Properties: { X: { Ref: 'Nope' } } } } }), 'Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template'],
    [JSON.stringify({ Resources: { A: { Type: 'AWS::SNS::Topic', DependsOn: 'B' }, B: { Type: 'AWS::SNS::Topic', Properties: { X: { 'Fn::GetAtt': ['A', 'TopicName'] } } } } }), 'Circular dependency between resources: [A, B]'],
    [JSON.stringify({ Resources: Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`R${i}`, { Type: 'AWS::SNS::Topic' }])) }), 'Template format error: Number of resources, 501, is greater than maximum allowed, 500'],
    [JSON.stringify({ Resources: { A: { Type: 'AWS::SNS::Topic' } }, Outputs: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`O${i}`, { Value: 'x' }])) }), 'Template format error: Number of outputs, 201, is greater than maximum allowed, 200'],
    [JSON.stringify({ Resources: { A: { Type: 'AWS::SNS::Topic', Properties: { Pad: 'x'.repeat(52_000) } } } }), "1 validation error detected: Value at 'templateBody' failed to satisfy constraint: Member must have length less than or equal to 51200"],
  ];
  for (const [body, message] of cases) {
    const error = await failure(t.cfn.send(new CreateStackCommand({ StackName: 'bad', TemplateBody: body })));
    assert.ok(error, `expected ${message}`);
    assert.is(error!.name, 'ValidationError');
    assert.ok(error!.message.startsWith(message), `${error!.message} should start with ${message}`);
  }
  const missing = await failure(t.cfn.send(new DescribeStacksCommand({ StackName: 'bad' })));
  assert.is(missing?.message, 'Stack with id bad does not exist');
  const { Parameters } = await t.cfn.send(new ValidateTemplateCommand({ TemplateBody: queueTemplate() }));
  assert.equal(Parameters, [{ ParameterKey: 'Stage', DefaultValue: 'dev', NoEcho: false }]);
});

cfnSuite('change sets list their changes and execute', async ({ t }) => {
  const first = JSON.stringify({ Resources: { Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 't1' } }, Queue: { Type: 'AWS::SQS::Queue' } } });
  await t.cfn.send(new CreateChangeSetCommand({ StackName: 'cs', ChangeSetName: 'one', ChangeSetType: 'CREATE', TemplateBody: first }));
  const pending = await t.cfn.send(new DescribeStacksCommand({ StackName: 'cs' }));
  assert.is(pending.Stacks![0].StackStatus, 'REVIEW_IN_PROGRESS');
  const described = await t.cfn.send(new DescribeChangeSetCommand({ StackName: 'cs', ChangeSetName: 'one' }));
  assert.is(described.Status, 'CREATE_COMPLETE');
  assert.equal(described.Changes!.map((c) => `${c.ResourceChange!.Action} ${c.ResourceChange!.LogicalResourceId}`), ['Add Topic', 'Add Queue']);
  await t.cfn.send(new ExecuteChangeSetCommand({ StackName: 'cs', ChangeSetName: 'one' }));
  assert.is((await settle(t.cfn, 'cs')).StackStatus, 'CREATE_COMPLETE');

  const second = JSON.stringify({ Resources: { Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 't2' } }, Bucket: { Type: 'AWS::S3::Bucket' } } });
  const { Id } = await t.cfn.send(new CreateChangeSetCommand({ StackName: 'cs', ChangeSetName: 'two', TemplateBody: second }));
  const changes = await t.cfn.send(new DescribeChangeSetCommand({ ChangeSetName: Id }));
  assert.equal(changes.Changes!.map((c) => `${c.ResourceChange!.Action} ${c.ResourceChange!.LogicalResourceId} ${c.ResourceChange!.Replacement ?? '-'}`), ['Modify Topic True', 'Add Bucket -', 'Remove Queue -']);
  await t.cfn.send(new ExecuteChangeSetCommand({ ChangeSetName: Id }));
  assert.is((await settle(t.cfn, 'cs')).StackStatus, 'UPDATE_COMPLETE');

  await t.cfn.send(new CreateChangeSetCommand({ StackName: 'cs', ChangeSetName: 'same', TemplateBody: second }));
  const empty = await t.cfn.send(new DescribeChangeSetCommand({ StackName: 'cs', ChangeSetName: 'same' }));
  assert.is(empty.Status, 'FAILED');
  assert.is(empty.StatusReason, "The submitted information didn't contain changes. Submit different information to create a change set.");
  await t.cfn.send(new DeleteChangeSetCommand({ StackName: 'cs', ChangeSetName: 'same' }));
  const gone = await failure(t.cfn.send(new DescribeChangeSetCommand({ StackName: 'cs', ChangeSetName: 'same' })));
  assert.is(gone?.name, 'ChangeSetNotFoundException');
});

cfnSuite('reads TemplateURL from the local S3, and deletes a stack keeping Retain resources', async ({ t }) => {
  await t.s3.send(new CreateBucketCommand({ Bucket: 'templates' }));
  const body = JSON.stringify({ Resources: { Kept: { Type: 'AWS::S3::Bucket', DeletionPolicy: 'Retain', Properties: { BucketName: 'kept-bucket' } }, Gone: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'gone-bucket' } } } });
  await t.s3.send(new PutObjectCommand({ Bucket: 'templates', Key: 'a/t.json', Body: body }));
  await t.cfn.send(new CreateStackCommand({ StackName: 'viaurl', TemplateURL: `https://templates.s3.us-east-1.amazonaws.com/a/t.json` }));
  assert.is((await settle(t.cfn, 'viaurl')).StackStatus, 'CREATE_COMPLETE');
  const { StackId } = (await t.cfn.send(new DescribeStacksCommand({ StackName: 'viaurl' }))).Stacks![0];
  await t.cfn.send(new DeleteStackCommand({ StackName: 'viaurl' }));
  const deleted = await settle(t.cfn, StackId!);
  assert.is(deleted.StackStatus, 'DELETE_COMPLETE');
  const lines = await eventLines(t.cfn, StackId!);
  assert.ok(lines.includes('Kept DELETE_SKIPPED'));
  await t.s3.send(new HeadBucketCommand({ Bucket: 'kept-bucket' }));
  const gone = await failure(t.s3.send(new HeadBucketCommand({ Bucket: 'gone-bucket' })));
  assert.is(gone?.name, 'NotFound');
  const missing = await failure(t.cfn.send(new DescribeStacksCommand({ StackName: 'viaurl' })));
  assert.is(missing?.name, 'ValidationError');
});

cfnSuite('a parameter change with UsePreviousTemplate replaces a resource and updates what refers to it', async ({ t }) => {
  const template = JSON.stringify({
    Parameters: { Name: { Type: 'String' } },
    Resources: {
      Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: { Ref: 'Name' } } },
      Queue: { Type: 'AWS::SQS::Queue', Properties: { Tags: [{ Key: 'topic', Value: { Ref: 'Topic' } }] } },
      Kept: { Type: 'AWS::SQS::Queue', DeletionPolicy: 'Retain', Condition: 'First' },
    },
    Conditions: { First: { 'Fn::Equals': [{ Ref: 'Name' }, 'first'] } },
    Outputs: { Topic: { Value: { Ref: 'Topic' } } },
  });
  await t.cfn.send(new CreateStackCommand({ StackName: 'params', TemplateBody: template, Parameters: [{ ParameterKey: 'Name', ParameterValue: 'first' }] }));
  assert.is((await settle(t.cfn, 'params')).StackStatus, 'CREATE_COMPLETE');
  await t.cfn.send(new UpdateStackCommand({ StackName: 'params', UsePreviousTemplate: true, Parameters: [{ ParameterKey: 'Name', ParameterValue: 'second' }] }));
  const stack = await settle(t.cfn, 'params');
  assert.is(stack.StackStatus, 'UPDATE_COMPLETE');
  assert.equal(outputsOf(stack), { Topic: 'arn:aws:sns:us-east-1:000000000000:second' });
  assert.equal(stack.Parameters, [{ ParameterKey: 'Name', ParameterValue: 'second' }]);
  const lines = await eventLines(t.cfn, 'params');
  assert.equal(lines.slice(lines.indexOf('params UPDATE_IN_PROGRESS')), [
    'params UPDATE_IN_PROGRESS',
    'Topic UPDATE_IN_PROGRESS',
    'Topic UPDATE_COMPLETE',
    'Queue UPDATE_IN_PROGRESS',
    'Queue UPDATE_COMPLETE',
    'params UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
    'Topic DELETE_IN_PROGRESS',
    'Topic DELETE_COMPLETE',
    'Kept DELETE_SKIPPED',
    'params UPDATE_COMPLETE',
  ]);
});

cfnSuite('deploys a 400-resource stack in a couple of seconds', async ({ t }) => {
  const resources: Record<string, unknown> = { Role: { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: {} } } };
  for (let i = 0; i < 399; i++) {
    resources[`Topic${i}`] = { Type: i % 2 ? 'AWS::SNS::Topic' : 'AWS::Custom::Thing', Properties: { Name: { 'Fn::Sub': `\${AWS::StackName}-${i}` }, Role: { 'Fn::GetAtt': ['Role', 'Arn'] } } };
  }
  const body = JSON.stringify({ Resources: resources });
  await t.s3.send(new CreateBucketCommand({ Bucket: 'big-templates' }));
  await t.s3.send(new PutObjectCommand({ Bucket: 'big-templates', Key: 'big.json', Body: body }));
  const started = Date.now();
  await t.cfn.send(new CreateStackCommand({ StackName: 'big', TemplateURL: `${t.cloud.url}/big-templates/big.json`, Capabilities: ['CAPABILITY_IAM'] }));
  const stack = await settle(t.cfn, 'big');
  const elapsed = Date.now() - started;
  assert.is(stack.StackStatus, 'CREATE_COMPLETE');
  assert.ok(elapsed < 3000, `took ${elapsed} ms`);
  const { StackEvents } = await t.cfn.send(new DescribeStackEventsCommand({ StackName: 'big' }));
  assert.is(StackEvents!.find((e) => e.LogicalResourceId === 'Topic398' && e.ResourceStatus === 'CREATE_COMPLETE')!.ResourceStatusReason, 'Resource recorded, not emulated by the local cloud');
});

cfnSuite('asks for IAM capabilities and refuses a template from S3 over 1 MB', async ({ t }) => {
  const iam = JSON.stringify({ Resources: { Role: { Type: 'AWS::IAM::Role', Properties: { RoleName: 'named' } } } });
  const missing = await failure(t.cfn.send(new CreateStackCommand({ StackName: 'iam', TemplateBody: iam, Capabilities: ['CAPABILITY_IAM'] })));
  assert.is(missing?.name, 'InsufficientCapabilitiesException');
  assert.is(missing?.message, 'Requires capabilities : [CAPABILITY_NAMED_IAM]');
  await t.s3.send(new CreateBucketCommand({ Bucket: 'huge-templates' }));
  const huge = JSON.stringify({ Resources: { A: { Type: 'AWS::SNS::Topic', Properties: { Pad: 'x'.repeat(1_000_001) } } } });
  await t.s3.send(new PutObjectCommand({ Bucket: 'huge-templates', Key: 'huge.json', Body: huge }));
  const tooBig = await failure(t.cfn.send(new CreateStackCommand({ StackName: 'huge', TemplateURL: 'https://s3.amazonaws.com/huge-templates/huge.json' })));
  assert.is(tooBig?.message, 'Template may not exceed 1000000 bytes in size.');
  const noObject = await failure(t.cfn.send(new CreateStackCommand({ StackName: 'huge', TemplateURL: 'https://s3.amazonaws.com/huge-templates/none.json' })));
  assert.is(noObject?.name, 'ValidationError');
});

cfnSuite('imports another stack\'s export, and an export in use cannot be deleted', async ({ t }) => {
  const producer = JSON.stringify({ Resources: { Topic: { Type: 'AWS::SNS::Topic' } }, Outputs: { Arn: { Value: { Ref: 'Topic' }, Export: { Name: 'shared-topic' } } } });
  await t.cfn.send(new CreateStackCommand({ StackName: 'producer', TemplateBody: producer }));
  await settle(t.cfn, 'producer');
  const consumer = JSON.stringify({ Resources: { Queue: { Type: 'AWS::SQS::Queue', Properties: { Tags: [{ Key: 'topic', Value: { 'Fn::ImportValue': 'shared-topic' } }] } } }, Outputs: { Topic: { Value: { 'Fn::ImportValue': 'shared-topic' } } } });
  await t.cfn.send(new CreateStackCommand({ StackName: 'consumer', TemplateBody: consumer }));
  const stack = await settle(t.cfn, 'consumer');
  assert.match(outputsOf(stack).Topic, /^arn:aws:sns:us-east-1:000000000000:producer-Topic-[A-Z0-9]{13}$/);
  const refused = await failure(t.cfn.send(new DeleteStackCommand({ StackName: 'producer' })));
  assert.is(refused?.message, 'Export shared-topic cannot be deleted as it is in use by consumer');
});

cfnSuite('a template that fails while resolving never leaves the stack in progress', async ({ t }) => {
  const template = JSON.stringify({ Resources: { Bucket: { Type: 'AWS::S3::Bucket' }, Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: { 'Fn::GetAtt': ['Bucket', 'NoSuchAttribute'] } } } } });
  await t.cfn.send(new CreateStackCommand({ StackName: 'unresolvable', TemplateBody: template }));
  const stack = await settle(t.cfn, 'unresolvable');
  assert.is(stack.StackStatus, 'ROLLBACK_COMPLETE');
  const { StackEvents } = await t.cfn.send(new DescribeStackEventsCommand({ StackName: 'unresolvable' }));
  assert.is(StackEvents!.find((e) => e.ResourceStatus === 'CREATE_FAILED')!.ResourceStatusReason, 'Template error: resource Bucket does not support attribute type NoSuchAttribute in Fn::GetAtt');
});

cfnSuite.run();
