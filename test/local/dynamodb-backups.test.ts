import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  CreateBackupCommand,
  CreateTableCommand,
  DeleteBackupCommand,
  DeleteItemCommand,
  DeleteTableCommand,
  DescribeBackupCommand,
  DescribeContinuousBackupsCommand,
  DescribeLimitsCommand,
  DynamoDBClient,
  ListBackupsCommand,
  PutItemCommand,
  QueryCommand,
  RestoreTableFromBackupCommand,
  ScanCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { failure, startTestCloud, type TestCloud } from './helpers';

const backups = suite<{ t: TestCloud; client: DynamoDBClient }>('DynamoDB backups, point-in-time recovery settings and limits');

backups.before(async (context) => {
  context.t = await startTestCloud();
  context.client = new DynamoDBClient({ ...context.t.config, maxAttempts: 1 });
  await context.client.send(
    new CreateTableCommand({
      TableName: 'orders',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'status', AttributeType: 'S' },
      ],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [{ IndexName: 'byStatus', KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } }],
    }),
  );
});
backups.after(async (context) => {
  context.client.destroy();
  await context.t.stop();
});

const keys = (items: Record<string, { S?: string }>[] = []) => items.map((item) => item.pk.S).sort();

backups('a backup keeps the items of its moment; restoring it after a restart makes a new table with them and the indexes', async (context) => {
  const { client } = context;
  for (const pk of ['a', 'b']) await client.send(new PutItemCommand({ TableName: 'orders', Item: { pk: { S: pk }, status: { S: 'open' } } }));
  const created = await client.send(new CreateBackupCommand({ TableName: 'orders', BackupName: 'before-cleanup' }));
  const details = created.BackupDetails!;
  assert.match(details.BackupArn!, /^arn:aws:dynamodb:us-east-1:\d{12}:table\/orders\/backup\/\d{17}-[0-9a-f]{8}$/);
  assert.equal([details.BackupName, details.BackupStatus, details.BackupType], ['before-cleanup', 'AVAILABLE', 'USER']);
  assert.ok(details.BackupSizeBytes! > 0);

  await client.send(new DeleteItemCommand({ TableName: 'orders', Key: { pk: { S: 'a' } } }));
  await client.send(new PutItemCommand({ TableName: 'orders', Item: { pk: { S: 'c' }, status: { S: 'open' } } }));

  await context.t.stop({ keepData: true });
  client.destroy();
  context.t = await startTestCloud(context.t.dataDir);
  context.client = new DynamoDBClient({ ...context.t.config, maxAttempts: 1 });

  const described = await context.client.send(new DescribeBackupCommand({ BackupArn: details.BackupArn }));
  assert.equal(described.BackupDescription!.SourceTableDetails!.TableName, 'orders');
  assert.is(described.BackupDescription!.SourceTableDetails!.ItemCount, 2);
  assert.equal(described.BackupDescription!.SourceTableFeatureDetails!.GlobalSecondaryIndexes!.map((index) => index.IndexName), ['byStatus']);

  const restored = await context.client.send(new RestoreTableFromBackupCommand({ TargetTableName: 'orders-restored', BackupArn: details.BackupArn }));
  assert.equal([restored.TableDescription!.TableName, restored.TableDescription!.TableStatus, restored.TableDescription!.ItemCount], ['orders-restored', 'ACTIVE', 2]);
  assert.equal(restored.TableDescription!.RestoreSummary!.SourceBackupArn, details.BackupArn);
  assert.equal(keys((await context.client.send(new ScanCommand({ TableName: 'orders-restored' }))).Items as never), ['a', 'b']);
  assert.equal(keys((await context.client.send(new ScanCommand({ TableName: 'orders' }))).Items as never), ['b', 'c']);
  const byIndex = await context.client.send(new QueryCommand({ TableName: 'orders-restored', IndexName: 'byStatus', KeyConditionExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': { S: 'open' } } }));
  assert.equal(keys(byIndex.Items as never), ['a', 'b']);

  const again = await failure(context.client.send(new RestoreTableFromBackupCommand({ TargetTableName: 'orders-restored', BackupArn: details.BackupArn })));
  assert.equal([again?.name, again?.message], ['TableAlreadyExistsException', 'Table already exists: orders-restored']);
  await context.client.send(new DeleteTableCommand({ TableName: 'orders-restored' }));
});

backups('ListBackups filters by table, pages with Limit, and DeleteBackup removes a backup', async ({ client }) => {
  await client.send(new CreateTableCommand({ TableName: 'other', BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }] }));
  const second = (await client.send(new CreateBackupCommand({ TableName: 'orders', BackupName: 'second' }))).BackupDetails!;
  await client.send(new CreateBackupCommand({ TableName: 'other', BackupName: 'other-one' }));
  const ofOrders = await client.send(new ListBackupsCommand({ TableName: 'orders' }));
  assert.equal(ofOrders.BackupSummaries!.map((backup) => [backup.TableName, backup.BackupName]), [['orders', 'before-cleanup'], ['orders', 'second']]);
  const first = await client.send(new ListBackupsCommand({ Limit: 2 }));
  assert.equal(first.BackupSummaries!.map((backup) => backup.BackupName), ['before-cleanup', 'second']);
  assert.is(first.LastEvaluatedBackupArn, second.BackupArn);
  const rest = await client.send(new ListBackupsCommand({ Limit: 2, ExclusiveStartBackupArn: first.LastEvaluatedBackupArn }));
  assert.equal([rest.BackupSummaries!.map((backup) => backup.BackupName), rest.LastEvaluatedBackupArn], [['other-one'], undefined]);

  const deleted = await client.send(new DeleteBackupCommand({ BackupArn: second.BackupArn }));
  assert.is(deleted.BackupDescription!.BackupDetails!.BackupStatus, 'DELETED');
  const missing = await failure(client.send(new DescribeBackupCommand({ BackupArn: second.BackupArn })));
  assert.equal([missing?.name, missing?.message], ['BackupNotFoundException', `Backup not found: ${second.BackupArn}`]);
  const noTable = await failure(client.send(new CreateBackupCommand({ TableName: 'nowhere', BackupName: 'x-backup' })));
  assert.equal([noTable?.name, noTable?.message], ['TableNotFoundException', 'Table not found: nowhere']);
});

backups('UpdateContinuousBackups records point-in-time recovery and DescribeContinuousBackups reports it', async ({ client }) => {
  const off = await client.send(new DescribeContinuousBackupsCommand({ TableName: 'orders' }));
  assert.equal(off.ContinuousBackupsDescription, { ContinuousBackupsStatus: 'ENABLED', PointInTimeRecoveryDescription: { PointInTimeRecoveryStatus: 'DISABLED' } });
  const on = await client.send(new UpdateContinuousBackupsCommand({ TableName: 'orders', PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 7 } }));
  const pitr = on.ContinuousBackupsDescription!.PointInTimeRecoveryDescription!;
  assert.equal([pitr.PointInTimeRecoveryStatus, pitr.RecoveryPeriodInDays], ['ENABLED', 7]);
  assert.ok(pitr.EarliestRestorableDateTime!.getTime() <= pitr.LatestRestorableDateTime!.getTime());
  const described = await client.send(new DescribeContinuousBackupsCommand({ TableName: 'orders' }));
  assert.is(described.ContinuousBackupsDescription!.PointInTimeRecoveryDescription!.PointInTimeRecoveryStatus, 'ENABLED');
  await client.send(new UpdateContinuousBackupsCommand({ TableName: 'orders', PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false } }));
  const disabled = await client.send(new DescribeContinuousBackupsCommand({ TableName: 'orders' }));
  assert.is(disabled.ContinuousBackupsDescription!.PointInTimeRecoveryDescription!.PointInTimeRecoveryStatus, 'DISABLED');
  const period = await failure(client.send(new UpdateContinuousBackupsCommand({ TableName: 'orders', PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 36 } })));
  assert.is(period?.name, 'ValidationException');
  const noTable = await failure(client.send(new DescribeContinuousBackupsCommand({ TableName: 'nowhere' })));
  assert.is(noTable?.name, 'TableNotFoundException');
});

backups('DescribeLimits answers the default account and table quotas', async ({ client }) => {
  const { $metadata: _metadata, ...limits } = await client.send(new DescribeLimitsCommand({}));
  assert.equal(limits, { AccountMaxReadCapacityUnits: 80000, AccountMaxWriteCapacityUnits: 80000, TableMaxReadCapacityUnits: 40000, TableMaxWriteCapacityUnits: 40000 });
});

backups.run();
