import { AwsError } from '../aws/errors';
import type { LocalCloud } from '../cloud';
import { dynamoDbOperation } from '../dynamodb/api';
import { DynamoDbError } from '../dynamodb/requests';
import { jsonResponse, type LocalResponse } from '../http';

const JSON_10 = 'application/x-amz-json-1.0';

/** DynamoDB (JSON 1.0): the operations live in src/local/dynamodb/; this answers in DynamoDB's error shape. */
export function dynamoDbApi(cloud: LocalCloud, operation: string, input: Record<string, unknown>, region = 'us-east-1'): LocalResponse {
  try {
    return jsonResponse(dynamoDbOperation(cloud.dynamodb, operation, input, region, cloud.accountId), 200, JSON_10);
  } catch (error) {
    if (!(error instanceof AwsError)) throw error;
    const fields = error instanceof DynamoDbError ? error.fields : {};
    const response = jsonResponse({ __type: `com.amazonaws.dynamodb.v20120810#${error.code}`, message: error.message, ...fields }, error.status, JSON_10);
    response.headers!['x-amzn-errortype'] = error.code;
    return response;
  }
}
