import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';
import { header, jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { kinesisOperation } from './api';

const JSON_11 = 'application/x-amz-json-1.1';

/**
 * The AWS SDKs for Java and others may send Kinesis requests as CBOR; the local cloud reads JSON
 * only, and says so before it tries.
 */
export function refuseCbor(request: LocalRequest): void {
  if ((header(request, 'content-type') ?? '').includes('cbor')) {
    throw new AwsError('UnsupportedMediaTypeException', 'The local cloud reads Kinesis requests as JSON (application/x-amz-json-1.1), not CBOR: disable CBOR in the client (AWS_CBOR_DISABLE=1 for the Java SDK and the KCL)', 415);
  }
}

/** Kinesis (JSON 1.1): the operations live in src/local/kinesis/. */
export function kinesisApi(cloud: LocalServices, operation: string, input: Record<string, unknown>, region: string): LocalResponse {
  return jsonResponse(kinesisOperation(cloud.kinesis, operation, input, region, cloud.accountId), 200, JSON_11);
}
