import { AwsError } from '../aws/errors';
import type { LocalCloud } from '../cloud';
import type { ResourceRecord } from '../cloudformation/model';
import { jsonResponse, type LocalResponse } from '../http';

const JSON_10 = 'application/x-amz-json-1.0';

function describe(record: ResourceRecord): Record<string, unknown> {
  const properties = record.properties;
  const stream = properties.StreamSpecification as { StreamViewType?: string } | undefined;
  return {
    TableName: record.physicalId,
    TableArn: record.attributes.Arn,
    TableStatus: 'ACTIVE',
    KeySchema: properties.KeySchema,
    AttributeDefinitions: properties.AttributeDefinitions,
    CreationDateTime: Date.parse(record.timestamp) / 1000,
    ItemCount: 0,
    TableSizeBytes: 0,
    BillingModeSummary: { BillingMode: properties.BillingMode ?? 'PROVISIONED' },
    ProvisionedThroughput: { ReadCapacityUnits: 0, WriteCapacityUnits: 0, NumberOfDecreasesToday: 0, ...(properties.ProvisionedThroughput as object | undefined) },
    GlobalSecondaryIndexes: properties.GlobalSecondaryIndexes,
    StreamSpecification: stream ? { StreamEnabled: true, StreamViewType: stream.StreamViewType } : undefined,
    LatestStreamArn: record.attributes.StreamArn,
  };
}

/** DynamoDB (JSON 1.0): the tables stacks created, described; items are not emulated. */
export function dynamoDbApi(cloud: LocalCloud, operation: string, input: Record<string, unknown>): LocalResponse {
  const tables = cloud.resources('AWS::DynamoDB::Table').map(({ record }) => record);
  if (operation === 'ListTables') return jsonResponse({ TableNames: tables.map((table) => table.physicalId).sort() }, 200, JSON_10);
  if (operation === 'DescribeTable') {
    const table = tables.find((record) => record.physicalId === input.TableName);
    if (!table) throw new AwsError('ResourceNotFoundException', `Requested resource not found: Table: ${String(input.TableName)} not found`);
    return jsonResponse({ Table: describe(table) }, 200, JSON_10);
  }
  throw new AwsError('UnknownOperationException', `The local cloud does not emulate DynamoDB ${operation} (tables are created and described, items are not stored)`);
}
