import { randomUUID } from 'node:crypto';
import type { LocalResponse } from '../http';
import { AwsError } from './errors';
import { element, escapeXml } from './xml';

/** The AWS error for anything thrown while serving: an AwsError as it is, anything else as an internal failure. */
export function asAwsError(error: unknown): AwsError {
  if (error instanceof AwsError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new AwsError('InternalFailure', `The local cloud failed to serve this request: ${detail}`, 500);
}

export function queryResult(action: string, namespace: string, result: Record<string, unknown>): LocalResponse {
  const body =
    `<${action}Response xmlns="${namespace}">` +
    element(`${action}Result`, result) +
    `<ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></${action}Response>`;
  return { status: 200, headers: { 'content-type': 'text/xml' }, body };
}

export function queryError(error: AwsError, namespace: string): LocalResponse {
  const type = error.status >= 500 ? 'Receiver' : 'Sender';
  const body =
    `<ErrorResponse xmlns="${namespace}"><Error><Type>${type}</Type><Code>${escapeXml(error.code)}</Code>` +
    `<Message>${escapeXml(error.message)}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`;
  return { status: error.status, headers: { 'content-type': 'text/xml' }, body };
}

export function jsonError(error: AwsError, contentType = 'application/x-amz-json-1.1'): LocalResponse {
  return {
    status: error.status,
    headers: { 'content-type': contentType, 'x-amzn-errortype': error.code, 'x-amzn-requestid': randomUUID() },
    body: JSON.stringify({ __type: error.code, message: error.message, Message: error.message, ...error.extra }),
  };
}

export function s3Error(error: AwsError, method: string): LocalResponse {
  const requestId = randomUUID();
  if (method === 'HEAD') return { status: error.status, headers: { 'x-amz-request-id': requestId } };
  const extra = Object.entries(error.extra).map(([name, value]) => element(name, value)).join('');
  const body =
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${escapeXml(error.code)}</Code><Message>${escapeXml(error.message)}</Message>` +
    `${extra}<RequestId>${requestId}</RequestId></Error>`;
  return { status: error.status, headers: { 'content-type': 'application/xml', 'x-amz-request-id': requestId }, body };
}
