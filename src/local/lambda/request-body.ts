import { AwsError } from '../protocol/errors';
import type { LocalRequest } from '../http';

/** A Lambda REST request's JSON body (none: `{}`), or Lambda's error for one that is not JSON. */
export function lambdaRequestBody(request: LocalRequest): Record<string, unknown> {
  try {
    return JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    throw new AwsError('InvalidRequestContentException', 'Could not parse request body into json', 400);
  }
}
