import { ANY_LOCAL_CREDENTIALS, type LocalCredentials } from '../access/credentials';
import { signatureOf, verifySignature } from '../access/signature';
import { header, type LocalRequest } from '../http';

/**
 * Signature Version 4 verification of `AWS_IAM` routes and function URLs: the request must
 * carry an `Authorization: AWS4-HMAC-SHA256 …` header for the service (`execute-api`,
 * `lambda`), signed within 15 minutes with the local cloud's credentials (`local` / `local`,
 * what `fw local start` prints, or those of `--require-credentials`). The signature itself is
 * checked by the same code as every management request (src/local/access/signature.ts); the
 * refusals here are the ones API Gateway and Lambda answer with. The credential scope's service must
 * be the right one only when credentials are required (`ANY_LOCAL_CREDENTIALS` is the other mode).
 */
export type SigV4Result = { accessKeyId: string } | { refused: { message: string; errorType: string } };

function refused(message: string, errorType: string): SigV4Result {
  return { refused: { message, errorType } };
}

const MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

/** What a signature covers when the request did not come through the server (tests build LocalRequests by hand). */
function rawHeadersOf(request: LocalRequest): string[] {
  return Object.entries(request.headers).flatMap(([name, value]) => (value === undefined ? [] : [name, Array.isArray(value) ? value.join(',') : value]));
}

export function verifySigV4(request: LocalRequest, credentials: LocalCredentials, service = 'execute-api', now = new Date()): SigV4Result {
  const authorization = header(request, 'authorization');
  if (!authorization) return refused('Missing Authentication Token', 'MissingAuthenticationTokenException');
  const parts = /^AWS4-HMAC-SHA256\s+Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]+)$/.exec(authorization.trim());
  if (!parts) {
    return refused(`Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' parameters (AWS4-HMAC-SHA256). Authorization=${authorization.split(' ')[0]}`, 'IncompleteSignatureException');
  }
  const credential = parts[1];
  const [accessKeyId, date, region, scopeService, terminator] = credential.split('/');
  if (terminator !== 'aws4_request' || !date || !region) return refused(`Credential should be scoped to a valid region and end in aws4_request, got '${credential.split('/').slice(1).join('/')}'.`, 'IncompleteSignatureException');
  // Without --require-credentials any scope is accepted: signers that derive the service from an
  // `*.amazonaws.com` host (the `aws4` npm library) scope a signature for a local host to no service.
  if (scopeService !== service && credentials !== ANY_LOCAL_CREDENTIALS) return refused(`Credential should be scoped to correct service: '${service}'.`, 'InvalidSignatureException');
  if (accessKeyId !== credentials.accessKeyId) return refused('The security token included in the request is invalid.', 'UnrecognizedClientException');
  const stamp = header(request, 'x-amz-date') ?? '';
  if (!stamp.startsWith(date)) return refused(`Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${date}' != '${stamp.slice(0, 8)}'.`, 'InvalidSignatureException');
  const rawUrl = request.rawUrl ?? `${request.path}${request.search.size > 0 ? `?${request.search}` : ''}`;
  const signature = signatureOf(rawUrl, authorization);
  if (!signature) return refused(MISMATCH, 'InvalidSignatureException');
  const problem = verifySignature({ method: request.method, url: rawUrl, rawHeaders: request.rawHeaders ?? rawHeadersOf(request), body: request.body }, signature, credentials.secretAccessKey, now.getTime());
  if (problem === 'skewed' || problem === 'expired') return refused(`Signature expired: ${stamp} is now earlier than 15 minutes before the server time.`, 'InvalidSignatureException');
  if (problem) return refused(MISMATCH, 'InvalidSignatureException');
  return { accessKeyId };
}
