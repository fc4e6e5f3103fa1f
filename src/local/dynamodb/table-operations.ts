/** CreateTable, DescribeTable, UpdateTable, DeleteTable, ListTables, Update/DescribeTimeToLive, and tables that stacks declare. */
import { AwsError } from '../protocol/errors';
import type { AttributeDefinition, IndexDefinition, KeyElement, Table, TableDefinition, TableStore } from './tables';
import { validation } from './values';

type TableInput = Omit<TableDefinition, 'TableId' | 'CreationDateTime' | 'TableArn'>;

function checkSchema(name: string, keySchema: unknown, attributes: AttributeDefinition[], where: string): KeyElement[] {
  const schema = keySchema as KeyElement[] | undefined;
  if (!Array.isArray(schema) || schema.length === 0 || schema.length > 2 || schema.filter((element) => element.KeyType === 'HASH').length !== 1) {
    throw validation(`${where}: the key schema of ${name} must have one HASH key and at most one RANGE key`);
  }
  const missing = schema.map((element) => element.AttributeName).filter((key) => !attributes.some((attribute) => attribute.AttributeName === key));
  if (missing.length) {
    throw validation(
      `One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [${missing.join(', ')}], AttributeDefinitions: [${attributes.map((attribute) => attribute.AttributeName).join(', ')}]`,
    );
  }
  return schema;
}

/** A table definition from CreateTable's input or an AWS::DynamoDB::Table's properties (the same shape, but for streams and TTL). */
export function tableInput(name: string, properties: Record<string, unknown>): TableInput {
  const attributes = (properties.AttributeDefinitions as AttributeDefinition[] | undefined) ?? [];
  const KeySchema = checkSchema(name, properties.KeySchema, attributes, 'Table');
  const indexes = (list: unknown) =>
    Array.isArray(list) && list.length
      ? (list as IndexDefinition[]).map((index) => ({ ...index, KeySchema: checkSchema(index.IndexName, index.KeySchema, attributes, `Index ${index.IndexName}`) }))
      : undefined;
  const stream = properties.StreamSpecification as TableDefinition['StreamSpecification'] | undefined;
  const ttl = properties.TimeToLiveSpecification as { AttributeName?: unknown; Enabled?: unknown } | undefined;
  const pitr = properties.PointInTimeRecoverySpecification as { PointInTimeRecoveryEnabled?: unknown; RecoveryPeriodInDays?: unknown } | undefined;
  return {
    TableName: name,
    KeySchema,
    AttributeDefinitions: attributes,
    BillingMode: typeof properties.BillingMode === 'string' ? properties.BillingMode : 'PROVISIONED',
    ProvisionedThroughput: properties.ProvisionedThroughput as Record<string, unknown> | undefined,
    GlobalSecondaryIndexes: indexes(properties.GlobalSecondaryIndexes),
    LocalSecondaryIndexes: indexes(properties.LocalSecondaryIndexes),
    StreamSpecification: stream ? { StreamEnabled: stream.StreamEnabled ?? true, StreamViewType: stream.StreamViewType } : undefined,
    // CloudFormation's Enabled is a Boolean, also written as the string "true".
    TimeToLiveSpecification: ttl && String(ttl.Enabled) === 'true' && typeof ttl.AttributeName === 'string' ? { AttributeName: ttl.AttributeName, Enabled: true } : undefined,
    PointInTimeRecovery: pitr && String(pitr.PointInTimeRecoveryEnabled) === 'true' ? { RecoveryPeriodInDays: Number(pitr.RecoveryPeriodInDays ?? 35), EnabledAt: Date.now() / 1000 } : undefined,
  };
}

/** What `Fn::GetAtt` reads from an AWS::DynamoDB::Table. */
export const tableAttributes = ({ definition }: Table): Record<string, unknown> => ({
  Arn: definition.TableArn,
  ...(definition.LatestStreamArn ? { StreamArn: definition.LatestStreamArn } : {}),
});

export function describeTable(table: Table, status = 'ACTIVE'): Record<string, unknown> {
  const definition = table.definition;
  const throughput = (value: Record<string, unknown> | undefined) => ({
    NumberOfDecreasesToday: 0,
    ReadCapacityUnits: Number(value?.ReadCapacityUnits ?? 0),
    WriteCapacityUnits: Number(value?.WriteCapacityUnits ?? 0),
  });
  const indexes = (list: IndexDefinition[] | undefined, global: boolean) =>
    list?.map((index) => ({
      IndexName: index.IndexName,
      KeySchema: index.KeySchema,
      Projection: index.Projection,
      IndexArn: `${definition.TableArn}/index/${index.IndexName}`,
      IndexSizeBytes: table.bytes,
      ItemCount: table.count,
      ...(global ? { IndexStatus: 'ACTIVE', ProvisionedThroughput: throughput(index.ProvisionedThroughput) } : {}),
    }));
  return {
    TableName: definition.TableName,
    TableId: definition.TableId,
    TableArn: definition.TableArn,
    TableStatus: status,
    KeySchema: definition.KeySchema,
    AttributeDefinitions: definition.AttributeDefinitions,
    CreationDateTime: definition.CreationDateTime,
    ItemCount: table.count,
    TableSizeBytes: table.bytes,
    BillingModeSummary: { BillingMode: definition.BillingMode },
    ProvisionedThroughput: throughput(definition.ProvisionedThroughput),
    GlobalSecondaryIndexes: indexes(definition.GlobalSecondaryIndexes, true),
    LocalSecondaryIndexes: indexes(definition.LocalSecondaryIndexes, false),
    StreamSpecification: definition.StreamSpecification,
    LatestStreamArn: definition.LatestStreamArn,
    LatestStreamLabel: definition.LatestStreamArn?.split('/stream/')[1],
  };
}

const notFound = (name: unknown) => new AwsError('ResourceNotFoundException', `Requested resource not found: Table: ${String(name)} not found`);

export function tableOperation(store: TableStore, operation: string, input: Record<string, unknown>, region: string, accountId: string): Record<string, unknown> | undefined {
  switch (operation) {
    case 'CreateTable': {
      const name = String(input.TableName ?? '');
      if (name.length < 3 || name.length > 255) {
        throw validation(`1 validation error detected: Value '${name}' at 'tableName' failed to satisfy constraint: Member must have length ${name.length < 3 ? 'greater than or equal to 3' : 'less than or equal to 255'}`);
      }
      if (!/^[a-zA-Z0-9_.-]+$/.test(name)) {
        throw validation(`1 validation error detected: Value '${name}' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+`);
      }
      const table = store.create(tableInput(name, input), region, accountId);
      return { TableDescription: describeTable(table) };
    }
    case 'DescribeTable': {
      const table = store.get(String(input.TableName));
      if (!table) throw notFound(input.TableName);
      return { Table: describeTable(table) };
    }
    case 'DeleteTable': {
      const table = store.get(String(input.TableName));
      if (!table) throw notFound(input.TableName);
      store.delete(table.definition.TableName);
      return { TableDescription: describeTable(table, 'DELETING') };
    }
    case 'ListTables': {
      const names = store.names().filter((name) => typeof input.ExclusiveStartTableName !== 'string' || name > input.ExclusiveStartTableName);
      const limit = Number(input.Limit ?? 100);
      const page = names.slice(0, limit);
      return { TableNames: page, ...(names.length > limit ? { LastEvaluatedTableName: page[page.length - 1] } : {}) };
    }
    case 'UpdateTable': {
      const table = store.get(String(input.TableName));
      if (!table) throw notFound(input.TableName);
      return { TableDescription: describeTable(updateTable(store, table, input), 'UPDATING') };
    }
    case 'UpdateTimeToLive': {
      const table = store.get(String(input.TableName));
      if (!table) throw notFound(input.TableName);
      return { TimeToLiveSpecification: updateTimeToLive(store, table, input.TimeToLiveSpecification as Record<string, unknown> | undefined) };
    }
    case 'DescribeTimeToLive': {
      const table = store.get(String(input.TableName));
      if (!table) throw notFound(input.TableName);
      const ttl = table.definition.TimeToLiveSpecification;
      // TTL is on as soon as it is asked for: ENABLING and DISABLING last no time here.
      return { TimeToLiveDescription: ttl ? { TimeToLiveStatus: 'ENABLED', AttributeName: ttl.AttributeName } : { TimeToLiveStatus: 'DISABLED' } };
    }
    default:
      return undefined;
  }
}

function updateTimeToLive(store: TableStore, table: Table, specification: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!specification || typeof specification !== 'object') {
    throw validation("1 validation error detected: Value null at 'timeToLiveSpecification' failed to satisfy constraint: Member must not be null");
  }
  const { AttributeName, Enabled } = specification;
  const missing = [
    typeof AttributeName !== 'string' ? "Value null at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must not be null" : undefined,
    typeof Enabled !== 'boolean' ? "Value null at 'timeToLiveSpecification.enabled' failed to satisfy constraint: Member must not be null" : undefined,
  ].filter((message): message is string => message !== undefined);
  if (missing.length) throw validation(`${missing.length} validation error${missing.length > 1 ? 's' : ''} detected: ${missing.join('; ')}`);
  const name = AttributeName as string;
  if (name.length < 1 || name.length > 255) {
    throw validation(`1 validation error detected: Value '${name}' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length ${name.length < 1 ? 'greater than or equal to 1' : 'less than or equal to 255'}`);
  }
  const current = table.definition.TimeToLiveSpecification;
  if (Enabled && current) throw validation('TimeToLive is already enabled');
  if (!Enabled && !current) throw validation('TimeToLive is already disabled');
  store.update(table.definition.TableName, { TimeToLiveSpecification: Enabled ? { AttributeName: name, Enabled: true } : undefined });
  return { Enabled, AttributeName: name };
}

function updateTable(store: TableStore, table: Table, input: Record<string, unknown>): Table {
  const definition = table.definition;
  const attributes = [...definition.AttributeDefinitions];
  for (const attribute of (input.AttributeDefinitions as AttributeDefinition[] | undefined) ?? []) {
    if (!attributes.some((existing) => existing.AttributeName === attribute.AttributeName)) attributes.push(attribute);
  }
  let indexes = [...(definition.GlobalSecondaryIndexes ?? [])];
  for (const update of (input.GlobalSecondaryIndexUpdates as Record<string, IndexDefinition>[] | undefined) ?? []) {
    if (update.Create) {
      if (indexes.some((index) => index.IndexName === update.Create.IndexName)) throw validation(`One or more parameter values were invalid: Index with name ${update.Create.IndexName} already exists`);
      indexes.push({ ...update.Create, KeySchema: checkSchema(update.Create.IndexName, update.Create.KeySchema, attributes, `Index ${update.Create.IndexName}`) });
    } else if (update.Delete) {
      if (!indexes.some((index) => index.IndexName === update.Delete.IndexName)) throw new AwsError('ResourceNotFoundException', `Requested resource not found: Index: ${update.Delete.IndexName} not found`);
      indexes = indexes.filter((index) => index.IndexName !== update.Delete.IndexName);
    } else if (update.Update) {
      indexes = indexes.map((index) => (index.IndexName === update.Update.IndexName ? { ...index, ProvisionedThroughput: update.Update.ProvisionedThroughput } : index));
    }
  }
  const stream = input.StreamSpecification as TableDefinition['StreamSpecification'] | undefined;
  return store.update(table.definition.TableName, {
    AttributeDefinitions: attributes,
    GlobalSecondaryIndexes: indexes.length ? indexes : undefined,
    BillingMode: typeof input.BillingMode === 'string' ? input.BillingMode : definition.BillingMode,
    ProvisionedThroughput: (input.ProvisionedThroughput as Record<string, unknown> | undefined) ?? definition.ProvisionedThroughput,
    ...(stream ? { StreamSpecification: stream.StreamEnabled ? stream : undefined, LatestStreamArn: stream.StreamEnabled ? `${definition.TableArn}/stream/${new Date().toISOString().replace(/Z$/, '')}` : undefined } : {}),
  });
}
