import { AwsError } from '../aws/errors';
import type { LocalCloud } from '../cloud';
import { header, jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { kinesisOperation } from '../kinesis/api';

const JSON_11 = 'application/x-amz-json-1.1';

/**
 * Kinesis (JSON 1.1): the operations live in src/local/kinesis/. The AWS SDKs for Java and
 * others may send CBOR; the local cloud reads JSON only and says so.
 */
export function kinesisApi(cloud: LocalCloud, request: LocalRequest): LocalResponse {
  if ((header(request, 'content-type') ?? '').includes('cbor')) {
    throw new AwsError('UnsupportedMediaTypeException', 'The local cloud reads Kinesis requests as JSON (application/x-amz-json-1.1), not CBOR: disable CBOR in the client (AWS_CBOR_DISABLE=1 for the Java SDK and the KCL)', 415);
  }
  const operation = (header(request, 'x-amz-target') ?? '').split('.')[1] ?? '';
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    throw new AwsError('SerializationException', 'The request body is not valid JSON');
  }
  return jsonResponse(kinesisOperation(cloud.kinesis, operation, input, request.region, cloud.accountId), 200, JSON_11);
}
