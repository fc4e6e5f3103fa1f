import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';
import { dynamoDbOperation } from './api';
import type { DynamoDbStreams } from './streams';
import { dynamoDbStreamsOperation } from './streams-api';
import { DynamoDbError } from './requests';
import { tableInput } from './table-operations';
import { afterTableOperation, dynamoDbTagOperation } from './tags';
import { jsonResponse, type LocalResponse } from '../http';
import { StorageFailure } from '../state/storage-failure';

const JSON_10 = 'application/x-amz-json-1.0';

const adopted = new WeakSet<LocalServices>();

/**
 * Stacks deployed by an fw whose local cloud kept no items have tables the store does not know:
 * they are created, empty, on the first DynamoDB request.
 */
function adoptStackTables(cloud: LocalServices): void {
  if (adopted.has(cloud)) return;
  adopted.add(cloud);
  for (const { record } of cloud.resources('AWS::DynamoDB::Table')) {
    if (cloud.dynamodb.get(record.physicalId)) continue;
    try {
      cloud.dynamodb.create(tableInput(record.physicalId, record.properties), String(record.attributes.Arn).split(':')[3], cloud.accountId);
    } catch (error) {
      cloud.log(`DynamoDB table ${record.physicalId} of an earlier deploy could not be restored: ${(error as Error).message}`);
    }
  }
}

/** DynamoDB (JSON 1.0): the operations live in src/local/dynamodb/; this answers in DynamoDB's error shape. */
export function dynamoDbApi(cloud: LocalServices, operation: string, input: Record<string, unknown>, region = 'us-east-1'): LocalResponse {
  adoptStackTables(cloud);
  return answer(() => {
    const tagging = dynamoDbTagOperation(cloud, operation, input);
    if (tagging) return tagging;
    const result = dynamoDbOperation(cloud.dynamodb, operation, input, region, cloud.accountId);
    afterTableOperation(cloud, operation, input, result);
    return result;
  });
}

/** DynamoDB Streams (JSON 1.0, DynamoDBStreams_20120810): the records of the tables' streams. */
export function dynamoDbStreamsApi(cloud: LocalServices, streams: DynamoDbStreams, operation: string, input: Record<string, unknown>): LocalResponse {
  adoptStackTables(cloud);
  return answer(() => dynamoDbStreamsOperation(cloud.dynamodb, streams, operation, input));
}

/** The result, or the error in DynamoDB's shape (both APIs use it). */
function answer(operation: () => Record<string, unknown>): LocalResponse {
  try {
    return jsonResponse(operation(), 200, JSON_10);
  } catch (error) {
    // A full disk is the server's failure, answered and logged as such by the dispatcher.
    if (!(error instanceof AwsError) || error instanceof StorageFailure) throw error;
    const fields = error instanceof DynamoDbError ? error.fields : {};
    const response = jsonResponse({ __type: `com.amazonaws.dynamodb.v20120810#${error.code}`, message: error.message, ...fields }, error.status, JSON_10);
    response.headers!['x-amzn-errortype'] = error.code;
    return response;
  }
}
