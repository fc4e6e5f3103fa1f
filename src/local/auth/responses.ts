import type { LocalResponse } from '../http';

/**
 * API Gateway's own answers when it refuses a request, with the bodies and
 * `x-amzn-ErrorType` headers REST APIs send (HTTP APIs send the body only).
 */
function refusal(status: number, body: Record<string, unknown>, errorType?: string, headers: Record<string, string> = {}): LocalResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...(errorType ? { 'x-amzn-errortype': errorType } : {}), ...headers },
    body: JSON.stringify(body),
  };
}

export type ApiKind = 'rest' | 'http';

const typed = (kind: ApiKind, errorType: string) => (kind === 'rest' ? errorType : undefined);

export const unauthorized = (kind: ApiKind, headers?: Record<string, string>) => refusal(401, { message: 'Unauthorized' }, typed(kind, 'UnauthorizedException'), headers);
/** A REST API Cognito authorizer given a token past its `exp`. */
export const tokenExpired = () => refusal(401, { message: 'The incoming token has expired' }, 'UnauthorizedException');
export const forbidden = (kind: ApiKind, headers?: Record<string, string>) => refusal(403, { message: 'Forbidden' }, typed(kind, 'ForbiddenException'), headers);
/** A REST Lambda authorizer's policy with a Deny for the method. */
export const explicitDeny = () => refusal(403, { Message: 'User is not authorized to access this resource with an explicit deny' }, 'AccessDeniedException');
/** A REST Lambda authorizer's policy without an Allow for the method. */
export const notAllowed = () => refusal(403, { Message: 'User is not authorized to access this resource' }, 'AccessDeniedException');
/** The authorizer failed or answered something API Gateway cannot read. */
export const authorizerFailure = (kind: ApiKind) =>
  kind === 'rest' ? refusal(500, { message: null }, 'AuthorizerConfigurationException') : refusal(500, { message: 'Internal Server Error' });
export const tooManyRequests = () => refusal(429, { message: 'Too Many Requests' }, 'TooManyRequestsException');
export const limitExceeded = () => refusal(429, { message: 'Limit Exceeded' }, 'LimitExceededException');
export const signatureRefused = (message: string, errorType: string) => refusal(403, { message }, errorType);
/** A function URL with `AuthType: AWS_IAM` called without a valid signature. */
export const functionUrlForbidden = () => refusal(403, { Message: 'Forbidden' }, 'AccessDeniedException');
