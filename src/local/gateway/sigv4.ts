import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { header, type LocalRequest } from '../http';

/**
 * Signature Version 4 verification of `AWS_IAM` routes: the request must carry an
 * `Authorization: AWS4-HMAC-SHA256 …` header for the service `execute-api`, signed
 * within 15 minutes with the secret of a known access key. The local cloud knows
 * the credentials `fw local start` prints (`local` / `local`).
 */
export const LOCAL_CREDENTIALS: Readonly<Record<string, string>> = { local: 'local' };

export type SigV4Result = { accessKeyId: string } | { refused: { message: string; errorType: string } };

const MAX_SKEW_MS = 15 * 60 * 1000;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding, as SigV4 wants every path segment and query part. */
const escape = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function canonicalQuery(search: URLSearchParams): string {
  return [...search]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => `${escape(name)}=${escape(value)}`)
    .sort()
    .join('&');
}

function refused(message: string, errorType: string): SigV4Result {
  return { refused: { message, errorType } };
}

/** `20261124T235959Z` → a Date. */
function amzDate(value: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return match ? new Date(Date.UTC(+match[1], +match[2] - 1, +match[3], +match[4], +match[5], +match[6])) : undefined;
}

export function verifySigV4(request: LocalRequest, credentials: Readonly<Record<string, string>>, service = 'execute-api', now = new Date()): SigV4Result {
  const authorization = header(request, 'authorization');
  if (!authorization) return refused('Missing Authentication Token', 'MissingAuthenticationTokenException');
  const parts = /^AWS4-HMAC-SHA256\s+Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]+)$/.exec(authorization.trim());
  if (!parts) {
    return refused(`Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' parameters (AWS4-HMAC-SHA256). Authorization=${authorization.split(' ')[0]}`, 'IncompleteSignatureException');
  }
  const [, credential, signedHeaderList, signature] = parts;
  const [accessKeyId, date, region, scopeService, terminator] = credential.split('/');
  if (terminator !== 'aws4_request' || !date || !region) return refused(`Credential should be scoped to a valid region and end in aws4_request, got '${credential.split('/').slice(1).join('/')}'.`, 'IncompleteSignatureException');
  if (scopeService !== service) return refused(`Credential should be scoped to correct service: '${service}'.`, 'InvalidSignatureException');
  const secret = Object.hasOwn(credentials, accessKeyId) ? credentials[accessKeyId] : undefined;
  if (secret === undefined) return refused('The security token included in the request is invalid.', 'UnrecognizedClientException');
  const stamp = header(request, 'x-amz-date') ?? '';
  const signedAt = amzDate(stamp);
  if (!signedAt || !stamp.startsWith(date)) return refused(`Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${date}' != '${stamp.slice(0, 8)}'.`, 'InvalidSignatureException');
  if (Math.abs(now.getTime() - signedAt.getTime()) > MAX_SKEW_MS) return refused(`Signature expired: ${stamp} is now earlier than 15 minutes before the server time.`, 'InvalidSignatureException');

  const signedHeaders = signedHeaderList.split(';');
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${(header(request, name) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const payloadHash = header(request, 'x-amz-content-sha256') ?? sha256(request.body);
  const canonicalPath = request.path.split('/').map(escape).join('/');
  const canonicalRequest = [request.method, canonicalPath, canonicalQuery(request.search), canonicalHeaders, signedHeaderList, payloadHash].join('\n');
  const scope = `${date}/${region}/${scopeService}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), scopeService), 'aws4_request');
  const expected = Buffer.from(createHmac('sha256', signingKey).update(stringToSign).digest('hex'));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return refused(
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
      'InvalidSignatureException',
    );
  }
  return { accessKeyId };
}
