import type { IncomingMessage } from 'node:http';
import { AwsError } from '../protocol/errors';
import { QUERY_NAMESPACES } from '../protocol/query';
import { jsonError, queryError, s3Error } from '../protocol/respond';
import { EXECUTE_API_PREFIX, LAMBDA_URL_PREFIX } from '../gateway/endpoints';
import { ISSUER_PATH } from '../auth/issuer';
import { CUSTOM_RESOURCE_RESPONSE_PREFIX } from '../providers/custom-resource';
import { WAIT_CONDITION_PREFIX } from '../providers/wait-condition';
import { VERSION_CODE_PATH } from '../runtime/code';
import type { LocalResponse } from '../http';
import type { LocalCredentials } from './credentials';
import { HostAllowList, hostnameOf } from './hosts';
import { OriginAllowList } from './origins';
import { isFormUpload } from '../s3/post-object';
import { isUnsignedCognitoTarget, POOL_WELL_KNOWN_PATH } from '../cognito/public-endpoints';
import { postPolicySignatureHolds, presignedExpired, signatureOf, unsignedAmzHeaders, verifySignature, type Signature } from './signature';

export interface AccessOptions {
  /** The address the server listens on (`127.0.0.1`, `0.0.0.0`, `192.168.1.5`…). */
  boundAddress: string;
  /** Browser origins allowed to call the management APIs (`*` for any). */
  allowOrigins?: readonly string[];
  /** When set, every management request must be signed with this secret. */
  credentials?: LocalCredentials;
  /**
   * Whether an S3 bucket's own CORS rules (PutBucketCors) let a page of this origin send this
   * method to this path: such a page may use the bucket as it may on S3 (with a presigned URL).
   */
  s3CorsAllows?: (address: { path: string; hostname: string }, origin: string, method: string) => boolean;
}

type Protocol = 'query' | 'json' | 's3' | 'gateway';

/**
 * The local cloud's own endpoints that anyone may use, as on AWS: an issuer's (or a user pool's) published
 * keys and discovery document (what a JWT verifier fetches), a wait condition handle and a custom resource's
 * response URL (URLs that are themselves the permission to answer, as AWS's presigned S3 URLs are).
 * Minting tokens and the deploy report are management requests.
 */
export function isPublicLocalPath(path: string, method: string): boolean {
  if (path.startsWith(`${ISSUER_PATH}/.well-known/`) || POOL_WELL_KNOWN_PATH.test(path)) return method === 'GET' || method === 'HEAD';
  // A version's code: its URL carries its own signature (runtime/code.ts), as Lambda's presigned Location.
  if (path.startsWith(VERSION_CODE_PATH)) return method === 'GET';
  return (path.startsWith(WAIT_CONDITION_PREFIX) || path.startsWith(CUSTOM_RESOURCE_RESPONSE_PREFIX)) && method === 'PUT';
}

/** Deployed HTTP/REST APIs and function URLs: public by design, their own CORS rules. */
export function isGatewayRequest(path: string, hostname: string): boolean {
  return path.startsWith(EXECUTE_API_PREFIX) || path.startsWith(LAMBDA_URL_PREFIX) || /\.(execute-api|lambda-url)\./.test(hostname);
}

const QUERY_SERVICES = new Set(['cloudformation', 'sts', 'sns', 'iam']);

/** An S3 URL presigned with Signature Version 2 (`AWSAccessKeyId`, `Expires`, `Signature`), what boto3 still makes by default. */
function isV2Presigned(url: URL): boolean {
  return url.searchParams.has('AWSAccessKeyId') && url.searchParams.has('Signature') && url.searchParams.has('Expires');
}

/**
 * Whether a path names an S3 object (`/bucket/key`, or `/key` on a `bucket.localhost` host) rather than
 * the service or a bucket: what presigned URLs are honoured for.
 */
function isObjectPath(path: string, hostname: string): boolean {
  return pathSegments(path, hostname) >= 1;
}

/** Segments of an S3 path after the bucket: -1 for the service, 0 for a bucket, more for an object. */
function pathSegments(path: string, hostname: string): number {
  const virtualHosted = hostname.endsWith('.localhost') && !/\.(execute-api|lambda-url)\./.test(hostname);
  const segments = path.split('/').filter((segment) => segment !== '');
  return virtualHosted ? segments.length : segments.length - 1;
}

/**
 * A browser form's upload to a bucket (S3 POST Object): authorized by the policy and signature in its
 * body, which the S3 API checks once the body is read (with the configured secret, if any).
 */
function isPostForm(req: IncomingMessage, url: URL, hostname: string, protocol: Protocol): boolean {
  return protocol === 's3' && isFormUpload(req.method ?? 'GET', header(req, 'content-type')) && url.search === '' && pathSegments(url.pathname, hostname) === 0;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/** The wire protocol a request speaks, told from its headers and path alone (the body is not read yet). */
function protocolOf(req: IncomingMessage, path: string, hostname: string, signature: Signature | undefined): Protocol {
  if (isGatewayRequest(path, hostname)) return 'gateway';
  if (header(req, 'x-amz-target')) return 'json';
  // SES v1 is a query API posted to the root, SES v2 REST-JSON under /v2/email/.
  if (signature?.service === 'ses' || signature?.service === 'email') return path.startsWith('/v2/') ? 'json' : 'query';
  if (signature && QUERY_SERVICES.has(signature.service)) return 'query';
  if (signature?.service === 'lambda' || /^\/20\d\d-\d\d-\d\d\/functions/.test(path)) return 'json';
  // Query APIs are posted to the service's root: a form-typed body elsewhere is an S3 upload (urllib and
  // `curl -d` send that type by default, to a presigned URL too).
  if ((header(req, 'content-type') ?? '').startsWith('application/x-www-form-urlencoded') && path === '/') return 'query';
  return 's3';
}

/** The codes AWS answers each kind of refusal with, per protocol. */
const CODES = {
  forbidden: { query: 'AccessDenied', json: 'AccessDeniedException', s3: 'AccessDenied' },
  unsigned: { query: 'MissingAuthenticationToken', json: 'MissingAuthenticationTokenException', s3: 'AccessDenied' },
  unknownKey: { query: 'InvalidClientTokenId', json: 'UnrecognizedClientException', s3: 'InvalidAccessKeyId' },
  mismatch: { query: 'SignatureDoesNotMatch', json: 'InvalidSignatureException', s3: 'SignatureDoesNotMatch' },
  payload: { query: 'SignatureDoesNotMatch', json: 'InvalidSignatureException', s3: 'XAmzContentSHA256Mismatch' },
  skewed: { query: 'SignatureDoesNotMatch', json: 'InvalidSignatureException', s3: 'RequestTimeTooSkewed' },
  expired: { query: 'AccessDenied', json: 'AccessDeniedException', s3: 'AccessDenied' },
  incomplete: { query: 'IncompleteSignature', json: 'IncompleteSignatureException', s3: 'AccessDenied' },
  headersUnsigned: { query: 'SignatureDoesNotMatch', json: 'InvalidSignatureException', s3: 'AccessDenied' },
} as const;

const MISMATCH_MESSAGE =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

const CORS_METHODS = 'GET, HEAD, PUT, POST, DELETE';
const CORS_EXPOSED = 'ETag, x-amz-request-id, x-amzn-requestid, x-amzn-errortype, x-amz-version-id, x-amz-function-error, x-amz-log-result';

/**
 * Who may use the local cloud. Every request must name an allowed host (DNS
 * rebinding); management requests (every API but the deployed gateways) must not
 * come from a browser page that was not allowed, and must carry a SigV4 signature,
 * which the SDKs and the AWS CLI always add and an HTML form cannot; with
 * credentials configured, the signature must also be right. All of it is decided
 * from the headers before the body is read, except the signature itself, which
 * covers the body.
 */
export class AccessGuard {
  private readonly hosts: HostAllowList;
  private readonly origins: OriginAllowList;
  private readonly credentials?: LocalCredentials;
  private readonly s3CorsAllows: NonNullable<AccessOptions['s3CorsAllows']>;

  constructor(options: AccessOptions) {
    this.s3CorsAllows = options.s3CorsAllows ?? (() => false);
    this.hosts = new HostAllowList(options.boundAddress);
    this.origins = new OriginAllowList(options.allowOrigins);
    this.credentials = options.credentials;
  }

  /** Checks what the headers tell; a response is the refusal (or the answer to an allowed CORS preflight). */
  admit(req: IncomingMessage, url: URL): LocalResponse | undefined {
    const method = req.method ?? 'GET';
    const host = header(req, 'host') ?? '';
    const signature = this.signature(req);
    const protocol = protocolOf(req, url.pathname, hostnameOf(host), signature);
    if (!this.hosts.allows(hostnameOf(host))) {
      return refusal(
        protocol,
        'forbidden',
        `The local cloud refuses Host ${JSON.stringify(host)}: it answers to localhost, 127.0.0.1, [::1], *.localhost and the address it listens on (DNS rebinding protection)`,
        req,
        signature,
      );
    }
    if (protocol === 'gateway' || isPublicLocalPath(url.pathname, method)) return undefined;
    const origin = header(req, 'origin');
    const fetchSite = header(req, 'sec-fetch-site');
    const presigned = signature?.presigned === true || (!signature && isV2Presigned(url));
    // A form upload carries its authorization in the body; like a presigned URL, a page of another site
    // may send it only where the bucket's CORS rules allow that page (below).
    const postForm = !signature && isPostForm(req, url, hostnameOf(host), protocol);
    // A presigned URL is a link to share: never honoured on a request the browser says another site made.
    const readOnlyPresigned = presigned && (method === 'GET' || method === 'HEAD') && fetchSite !== 'cross-site';
    // A browser's preflight to S3 does nothing and carries no signature: the bucket's CORS rules answer it.
    // Other pages' preflights are refused here, as before.
    if (this.isS3Preflight(req, protocol)) return undefined;
    const bucketAllows = protocol === 's3' && origin !== undefined && this.s3CorsAllows({ path: (req.url ?? '/').split('?')[0], hostname: hostnameOf(host) }, origin, method);
    if (!bucketAllows && this.origins.refuses(origin, fetchSite, readOnlyPresigned)) {
      const page = origin !== undefined ? `the web page at ${origin}` : `a web page (Sec-Fetch-Site: ${fetchSite})`;
      return refusal(protocol, 'forbidden', `The local cloud refuses requests from ${page}: allow an origin with fw local start --allow-origin`, req, signature);
    }
    if (method === 'OPTIONS' && origin !== undefined && header(req, 'access-control-request-method')) {
      return { status: 204, headers: { ...this.corsHeaders(req), 'access-control-allow-methods': CORS_METHODS, 'access-control-allow-headers': header(req, 'access-control-request-headers') ?? '', 'access-control-max-age': '600' } };
    }
    if (url.pathname === '/_fw/health') return undefined;
    if (presigned && !(protocol === 's3' && isObjectPath(url.pathname, hostnameOf(host)))) {
      // Only S3 objects are shared through presigned URLs; any other API refuses a signature in the query.
      const message =
        protocol === 's3'
          ? 'The local cloud honours presigned URLs for S3 objects only (GetObject, PutObject, …), not for bucket operations'
          : 'The local cloud honours presigned URLs for S3 objects only: sign this API call in the Authorization header, as the AWS SDKs and the AWS CLI do';
      return refusal(protocol, 'unsigned', message, req, signature);
    }
    if (presigned && presignedExpired(url, signature)) return refusal(protocol, 'expired', 'Request has expired', req, signature);
    // Sign-up, sign-in and the calls a user's access token authorizes: Cognito serves them unsigned.
    const unsignedCognito = !signature && protocol === 'json' && isUnsignedCognitoTarget(header(req, 'x-amz-target'));
    if (!signature && !presigned && !postForm && !unsignedCognito) {
      return refusal(
        protocol,
        'unsigned',
        'The local cloud serves only requests signed with AWS Signature Version 4 (the AWS SDKs and the AWS CLI sign with any credentials; S3 objects can be shared with presigned URLs)',
        req,
        signature,
      );
    }
    return undefined;
  }

  /** With credentials configured: the signature checked against the secret, once the body is read. */
  verify(req: IncomingMessage, url: URL, body: Buffer): LocalResponse | undefined {
    if (!this.credentials || url.pathname === '/_fw/health') return undefined;
    const host = header(req, 'host') ?? '';
    const signature = this.signature(req);
    const protocol = protocolOf(req, url.pathname, hostnameOf(host), signature);
    if (protocol === 'gateway' || isPublicLocalPath(url.pathname, req.method ?? 'GET') || this.isS3Preflight(req, protocol)) return undefined;
    // A form upload's policy signature is in the body: the S3 API checks it with verifyPostPolicy.
    if (!signature && isPostForm(req, url, hostnameOf(host), protocol)) return undefined;
    if (!signature && protocol === 'json' && isUnsignedCognitoTarget(header(req, 'x-amz-target'))) return undefined;
    if (!signature) {
      // admit() let it through only as a Signature Version 2 presigned URL, which is not verified.
      return refusal(protocol, 'forbidden', "The local cloud verifies Signature Version 4 only: presign with signature version 's3v4'", req, signature);
    }
    if (signature.accessKeyId !== this.credentials.accessKeyId) {
      const message = protocol === 's3' ? 'The AWS Access Key Id you provided does not exist in our records.' : 'The security token included in the request is invalid.';
      return refusal(protocol, 'unknownKey', message, req, signature);
    }
    const signed = { method: req.method ?? 'GET', url: req.url ?? '/', rawHeaders: req.rawHeaders, body };
    // Only S3 may leave its payload unsigned: for every other API the body's own hash is what was signed.
    const problem = verifySignature(signed, signature, this.credentials.secretAccessKey, Date.now(), protocol === 's3' && signature.service === 's3');
    if (problem === 'host-unsigned') return refusal(protocol, 'incomplete', "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.", req, signature);
    if (problem === 'headers-unsigned') {
      const names = unsignedAmzHeaders(signed, signature);
      const message = 'There were headers present in the request which were not signed';
      return refusal(protocol, 'headersUnsigned', protocol === 's3' ? message : `${message}: ${names.join(', ')}`, req, signature, protocol === 's3' ? { HeadersNotSigned: names.join(', ') } : {});
    }
    if (problem === 'mismatch') return refusal(protocol, 'mismatch', MISMATCH_MESSAGE, req, signature);
    if (problem === 'payload-mismatch') {
      const message = protocol === 's3' ? "The provided 'x-amz-content-sha256' header does not match what was computed." : MISMATCH_MESSAGE;
      return refusal(protocol, 'payload', message, req, signature);
    }
    if (problem === 'skewed') return refusal(protocol, 'skewed', 'The difference between the request time and the current time is too large.', req, signature);
    if (problem === 'expired') return refusal(protocol, 'expired', 'Request has expired', req, signature);
    return undefined;
  }

  /**
   * With credentials configured: a POST form's policy signature (fields by lower-cased name), Signature
   * Version 4 (`x-amz-credential`, `x-amz-signature`) or 2 (`AWSAccessKeyId`, `signature`), as S3 checks it.
   */
  verifyPostPolicy(fields: Map<string, string>): AwsError | undefined {
    if (!this.credentials) return undefined;
    const policy = fields.get('policy') ?? '';
    const credential = fields.get('x-amz-credential');
    const accessKeyId = credential !== undefined ? credential.split('/')[0] : fields.get('awsaccesskeyid');
    if (accessKeyId !== this.credentials.accessKeyId) return new AwsError('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', 403, { AWSAccessKeyId: accessKeyId ?? '' });
    const holds =
      credential !== undefined
        ? fields.get('x-amz-algorithm') === 'AWS4-HMAC-SHA256' && postPolicySignatureHolds(this.credentials.secretAccessKey, policy, { credential, signature: fields.get('x-amz-signature') ?? '' })
        : postPolicySignatureHolds(this.credentials.secretAccessKey, policy, { signature: fields.get('signature') ?? '' });
    return holds ? undefined : new AwsError('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.', 403);
  }

  /** The CORS headers of a management response to an allowed page (none for other requests). */
  corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = header(req, 'origin');
    if (origin === undefined || !this.origins.allows(origin)) return {};
    return { 'access-control-allow-origin': origin, 'access-control-expose-headers': CORS_EXPOSED, vary: 'Origin' };
  }

  /** A preflight for a bucket whose CORS rules allow the origin and method: S3 answers it (headers included). */
  private isS3Preflight(req: IncomingMessage, protocol: Protocol): boolean {
    const origin = header(req, 'origin');
    const method = header(req, 'access-control-request-method');
    if (protocol !== 's3' || req.method !== 'OPTIONS' || origin === undefined || method === undefined || this.origins.allows(origin)) return false;
    return this.s3CorsAllows({ path: (req.url ?? '/').split('?')[0], hostname: hostnameOf(header(req, 'host') ?? '') }, origin, method);
  }

  private signature(req: IncomingMessage): Signature | undefined {
    return signatureOf(req.url ?? '/', header(req, 'authorization'));
  }
}

function refusal(protocol: Protocol, kind: keyof typeof CODES, message: string, req: IncomingMessage, signature: Signature | undefined, extra: Record<string, string> = {}): LocalResponse {
  if (protocol === 'gateway') return { status: 403, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'Forbidden' }) };
  const status = kind === 'payload' ? 400 : 403;
  const error = new AwsError(CODES[kind][protocol], message, status, extra);
  if (protocol === 's3') return s3Error(error, req.method ?? 'GET');
  if (protocol === 'json') {
    const contentType = header(req, 'content-type') ?? '';
    return jsonError(error, contentType.startsWith('application/x-amz-json') ? contentType : 'application/json');
  }
  return queryError(error, QUERY_NAMESPACES[signature?.service ?? ''] ?? QUERY_NAMESPACES.cloudformation);
}
