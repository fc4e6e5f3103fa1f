import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dataLosses, markDataLoss, refuseDataLoss, type TemplatesByStack } from '../../src/deploy/data-loss';
import { compareTemplates, formatPreview, type ResourceChange } from '../../src/deploy/preview';
import type { Template } from '../../src/synth/template';

const template = (resources: Record<string, Record<string, unknown>>) => ({ Resources: resources }) as unknown as Template;
const table = (properties: Record<string, unknown> = {}, policies: Record<string, string> = {}) => ({ Type: 'AWS::DynamoDB::Table', ...policies, Properties: properties });

const marking = suite('Marking the changes that delete data');

marking('a removed or replaced table, bucket or user log group is marked; generated log groups and the deployment bucket are not', () => {
  const before = template({
    Orders: table(),
    Users: table({ TableName: 'users' }),
    Photos: { Type: 'AWS::S3::Bucket' },
    ServerlessDeploymentBucket: { Type: 'AWS::S3::Bucket' },
    HelloLogGroup: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: '/aws/lambda/shop-dev-hello' } },
    AuditLog: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: 'audit' } },
    Topic: { Type: 'AWS::SNS::Topic' },
  });
  const after = template({ Users: table({ TableName: 'users-v2' }) });
  const changes = markDataLoss(compareTemplates(before, after), new Map([[undefined, { before, after }]]));
  assert.equal(
    changes.map(change => [change.action, change.logicalId, change.data]),
    [
      ['Modify', 'Users', { effect: 'replaced' }],
      ['Remove', 'Orders', { effect: 'removed' }],
      ['Remove', 'Photos', { effect: 'removed' }],
      ['Remove', 'ServerlessDeploymentBucket', undefined],
      ['Remove', 'HelloLogGroup', undefined],
      ['Remove', 'AuditLog', { effect: 'removed' }],
      ['Remove', 'Topic', undefined],
    ],
  );
});

marking('DeletionPolicy keeps a removed resource, UpdateReplacePolicy of the new template a replaced one; Snapshot only where a snapshot exists', () => {
  const before = template({
    Kept: table({}, { DeletionPolicy: 'Retain' }),
    Snapshotted: table({}, { DeletionPolicy: 'Snapshot' }),
    Database: { Type: 'AWS::RDS::DBInstance', DeletionPolicy: 'Snapshot', Properties: {} },
    Renamed: table({ TableName: 'a' }),
    RenamedUnkept: table({ TableName: 'c' }, { UpdateReplacePolicy: 'Retain' }),
  });
  const after = template({
    Renamed: table({ TableName: 'b' }, { UpdateReplacePolicy: 'Retain' }),
    RenamedUnkept: table({ TableName: 'd' }),
  });
  const changes = markDataLoss(compareTemplates(before, after), new Map([[undefined, { before, after }]]));
  assert.equal(
    changes.map(change => [change.logicalId, change.data]),
    [
      ['Renamed', { effect: 'replaced', keptBy: 'UpdateReplacePolicy: Retain' }],
      ['RenamedUnkept', { effect: 'replaced' }],
      ['Kept', { effect: 'removed', keptBy: 'DeletionPolicy: Retain' }],
      ['Snapshotted', { effect: 'removed' }],
      ['Database', { effect: 'removed', keptBy: 'DeletionPolicy: Snapshot' }],
    ],
  );
  assert.equal(dataLosses(changes).map(change => change.logicalId), ['RenamedUnkept', 'Snapshotted']);
});

marking('a resource in a nested stack is judged by that stack’s templates and named with it', () => {
  const before = template({ Orders: table() });
  const templates: TemplatesByStack = new Map([[undefined, {}], ['DataNestedStack', { before, after: template({}) }]]);
  const changes = markDataLoss(compareTemplates(before, template({}), 'DataNestedStack'), templates);
  assert.equal(changes, [{ action: 'Remove', logicalId: 'Orders', type: 'AWS::DynamoDB::Table', properties: [], nestedStack: 'DataNestedStack', data: { effect: 'removed' } }]);
  assert.is(
    refuseDataLoss('shop-dev', changes, 'the change set was deleted').message,
    [
      'Deploying stack shop-dev would delete data, so nothing was changed (the change set was deleted):',
      '  Orders (AWS::DynamoDB::Table) in DataNestedStack would be removed with its data',
      'Deploy with --allow-data-loss to accept this, or keep the resource with DeletionPolicy: Retain (UpdateReplacePolicy: Retain for a replacement).',
    ].join('\n'),
  );
});

marking('fw diff prints each data-bearing change with what happens to its data, and one warning', () => {
  const changes: ResourceChange[] = [
    { action: 'Modify', logicalId: 'Queue', type: 'AWS::SQS::Queue', properties: ['QueueName'], replacement: 'True', data: { effect: 'replaced' } },
    { action: 'Modify', logicalId: 'Pool', type: 'AWS::Cognito::UserPool', properties: ['Schema'], replacement: 'Conditional', data: { effect: 'may be replaced' } },
    { action: 'Remove', logicalId: 'Orders', type: 'AWS::DynamoDB::Table', properties: [], data: { effect: 'removed', keptBy: 'DeletionPolicy: Retain' } },
  ];
  assert.is(
    formatPreview({ stackName: 'shop-dev', stackExists: true, changes }),
    [
      'Changes to stack shop-dev:',
      '~ Pool (AWS::Cognito::UserPool): Schema (may be replaced) [DATA LOSS: deleted with its data]',
      '~ Queue (AWS::SQS::Queue): QueueName (replacement) [DATA LOSS: deleted with its data]',
      '- Orders (AWS::DynamoDB::Table) [kept by DeletionPolicy: Retain]',
      'Warning: these 2 resources hold data that deploying would delete: Queue, Pool. fw deploy refuses it unless given --allow-data-loss.',
      '0 to add, 2 to change, 1 to remove',
      '',
    ].join('\n'),
  );
});

marking.run();
