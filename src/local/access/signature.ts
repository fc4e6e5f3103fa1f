import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * AWS Signature Version 4, read and checked on the server side as AWS documents it
 * ("Create a canonical request", "Create a string to sign", "Calculate the signature"):
 * the same computation the SDKs and the AWS CLI do, redone here with the secret the
 * local cloud was given, then compared.
 */

export interface Signature {
  accessKeyId: string;
  /** Credential scope: `yyyymmdd/region/service/aws4_request`. */
  scope: string;
  date: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
  /** `X-Amz-Date` (header or query), `yyyymmddThhmmssZ`. */
  amzDate?: string;
  /** Presigned URL (signature in the query string) rather than the Authorization header. */
  presigned: boolean;
  /** Presigned URLs: seconds of validity after amzDate. */
  expires?: number;
}

/** What a check needs of the request: method, path and query as sent, headers as sent, the body. */
export interface SignedRequest {
  method: string;
  /** `req.url`: path and query exactly as the client sent them. */
  url: string;
  /** `req.rawHeaders`: name, value, name, value… (repeated headers kept apart). */
  rawHeaders: string[];
  body: Buffer;
}

/**
 * Why a signature does not hold: wrong (`mismatch`), a body other than the one signed, out of time, or
 * incomplete as AWS requires it: Host not signed (`host-unsigned`), an `x-amz-*` header sent but not
 * signed (`headers-unsigned`, what a header added after signing looks like).
 */
export type SignatureProblem = 'mismatch' | 'payload-mismatch' | 'expired' | 'skewed' | 'host-unsigned' | 'headers-unsigned';

// The service may be empty: signers that derive it from an `*.amazonaws.com` host (the `aws4` npm
// library) scope a signature for 127.0.0.1 to no service.
const AUTHORIZATION = /^AWS4-HMAC-SHA256\s+Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]*)\/aws4_request\s*,\s*SignedHeaders=([a-z0-9;._:-]+)\s*,\s*Signature=([0-9a-f]{64})\s*$/;
const CREDENTIAL = /^([^/]+)\/(\d{8})\/([^/]+)\/([^/]*)\/aws4_request$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
/** AWS accepts a request signed up to 15 minutes before or after its own clock. */
const ALLOWED_SKEW_MS = 15 * 60 * 1000;

function headerValues(rawHeaders: string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === name) values.push(rawHeaders[i + 1]);
  return values;
}

/** The raw `name=value` pairs of a query string, decoded (a `+` stays a `+`, as AWS reads it). */
function queryPairs(query: string): [string, string][] {
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  return query
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const equals = part.indexOf('=');
      return equals === -1 ? [decode(part), ''] : [decode(part.slice(0, equals)), decode(part.slice(equals + 1))];
    });
}

/** The signature a request carries, in the Authorization header or a presigned query; undefined when it has none of SigV4's shape. */
export function signatureOf(url: string, authorization: string | undefined): Signature | undefined {
  if (authorization !== undefined) {
    const match = AUTHORIZATION.exec(authorization);
    if (!match) return undefined;
    const [, accessKeyId, date, region, service, signedHeaders, signature] = match;
    return { accessKeyId, scope: `${date}/${region}/${service}/aws4_request`, date, region, service, signedHeaders: signedHeaders.split(';'), signature, presigned: false };
  }
  const query = url.indexOf('?') === -1 ? '' : url.slice(url.indexOf('?') + 1);
  const params = new Map(queryPairs(query));
  const credential = CREDENTIAL.exec(params.get('X-Amz-Credential') ?? '');
  const signature = params.get('X-Amz-Signature') ?? '';
  const signedHeaders = params.get('X-Amz-SignedHeaders') ?? '';
  if (params.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' || !credential || !/^[0-9a-f]{64}$/.test(signature) || !/^[a-z0-9;._-]+$/.test(signedHeaders)) return undefined;
  const [, accessKeyId, date, region, service] = credential;
  const expires = Number(params.get('X-Amz-Expires') ?? 604_800);
  return {
    accessKeyId,
    scope: `${date}/${region}/${service}/aws4_request`,
    date,
    region,
    service,
    signedHeaders: signedHeaders.split(';'),
    signature,
    amzDate: params.get('X-Amz-Date'),
    presigned: true,
    expires: Number.isFinite(expires) ? expires : 0,
  };
}

/** AWS's URI encoding: every byte but `A-Z a-z 0-9 - _ . ~` as %XX, upper case. */
export function awsUriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The canonical URI. S3 signs the path as sent; every other service signs it
 * normalized (no `.`, `..` or empty segments) and URI-encoded once more.
 */
function canonicalUri(path: string, service: string): string {
  if (service === 's3') return path || '/';
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const trailing = segments.length > 0 && path.endsWith('/') ? '/' : '';
  return `/${segments.map(awsUriEncode).join('/')}${trailing}`;
}

function canonicalQuery(query: string, presigned: boolean): string {
  return queryPairs(query)
    .filter(([key]) => !(presigned && key === 'X-Amz-Signature'))
    .map(([key, value]) => [awsUriEncode(key), awsUriEncode(value)])
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

function parseAmzDate(text: string | undefined): number | undefined {
  const match = AMZ_DATE.exec(text ?? '');
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number);
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/**
 * The payload hash the client signed. S3 (`s3Payload`) takes `x-amz-content-sha256` as declared (a hash,
 * UNSIGNED-PAYLOAD or STREAMING-*; a presigned URL's payload is unsigned); every other service signs
 * the body's SHA-256, whatever the header says, so its body cannot be changed after signing.
 */
function payloadHash(request: SignedRequest, signature: Signature, s3Payload: boolean): { hash: string; matchesBody: boolean } {
  const declared = headerValues(request.rawHeaders, 'x-amz-content-sha256')[0]?.trim();
  const actual = () => sha256Hex(request.body);
  if (!s3Payload) return { hash: actual(), matchesBody: true };
  if (declared === undefined) return { hash: signature.presigned ? 'UNSIGNED-PAYLOAD' : actual(), matchesBody: true };
  if (/^[0-9a-f]{64}$/.test(declared)) return { hash: declared, matchesBody: declared === actual() };
  return { hash: declared, matchesBody: true };
}

/**
 * Derived signing keys by secret and credential scope. A key depends on nothing else, so it is
 * derived once (four HMACs) and reused, as AWS's SDKs do; a scope holds for a day, so few are kept.
 */
const signingKeys = new Map<string, Buffer>();
const SIGNING_KEYS_KEPT = 64;

function signingKey(secret: string, signature: Signature): Buffer {
  const id = `${signature.date}/${signature.region}/${signature.service}\n${secret}`;
  const known = signingKeys.get(id);
  if (known) return known;
  let key = hmac(`AWS4${secret}`, signature.date);
  for (const part of [signature.region, signature.service, 'aws4_request']) key = hmac(key, part);
  if (signingKeys.size >= SIGNING_KEYS_KEPT) signingKeys.delete(signingKeys.keys().next().value!);
  signingKeys.set(id, key);
  return key;
}

/**
 * A POST form's policy signature (S3 "Browser-Based Uploads Using POST"): Signature Version 4 signs the
 * base64 policy with the scope's signing key (`x-amz-credential`); version 2 is the base64 HMAC-SHA1 of
 * it with the secret. False when the credential is not a scope.
 */
export function postPolicySignatureHolds(secret: string, policy: string, v4: { credential: string; signature: string } | { signature: string }): boolean {
  if ('credential' in v4) {
    const scope = CREDENTIAL.exec(v4.credential);
    if (!scope) return false;
    const [, accessKeyId, date, region, service] = scope;
    const key = signingKey(secret, { accessKeyId, date, region, service, scope: v4.credential.slice(accessKeyId.length + 1), signedHeaders: [], signature: '', presigned: false });
    return /^[0-9a-f]{64}$/.test(v4.signature) && sameHex(createHmac('sha256', key).update(policy).digest('hex'), v4.signature);
  }
  const expected = createHmac('sha1', secret).update(policy).digest();
  const given = Buffer.from(v4.signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function sameHex(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === 32 && a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `STREAMING-AWS4-HMAC-SHA256-PAYLOAD(-TRAILER)`: every chunk of the aws-chunked body
 * is signed, each signature chained to the one before, starting from the request's;
 * in the -TRAILER form the trailing headers are signed last, chained to the final chunk.
 */
function chunkSignaturesHold(body: Buffer, signature: Signature, amzDate: string, key: Buffer, withTrailer: boolean): boolean {
  const emptyHash = sha256Hex('');
  let previous = signature.signature;
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', offset);
    if (lineEnd === -1) return false;
    const [sizeText, ...extensions] = body.subarray(offset, lineEnd).toString('latin1').split(';');
    const size = parseInt(sizeText, 16);
    const given = extensions.find((extension) => extension.startsWith('chunk-signature='))?.slice('chunk-signature='.length) ?? '';
    offset = lineEnd + 2;
    const data = body.subarray(offset, offset + size);
    if (Number.isNaN(size) || data.length !== size) return false;
    const stringToSign = ['AWS4-HMAC-SHA256-PAYLOAD', amzDate, signature.scope, previous, emptyHash, sha256Hex(data)].join('\n');
    if (!sameHex(createHmac('sha256', key).update(stringToSign).digest('hex'), given)) return false;
    previous = given;
    if (size === 0) return !withTrailer || trailerSignatureHolds(body.subarray(offset).toString('latin1'), signature, amzDate, key, previous);
    offset += size + 2;
  }
}

function trailerSignatureHolds(trailer: string, signature: Signature, amzDate: string, key: Buffer, previous: string): boolean {
  let signed = '';
  let given = '';
  for (const line of trailer.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'x-amz-trailer-signature') given = value;
    else signed += `${name}:${value}\n`;
  }
  const stringToSign = ['AWS4-HMAC-SHA256-TRAILER', amzDate, signature.scope, previous, sha256Hex(signed)].join('\n');
  return sameHex(createHmac('sha256', key).update(stringToSign).digest('hex'), given);
}

/** The signature a client holding `secret` computes for this request. */
export function expectedSignature(request: SignedRequest, signature: Signature, secret: string, hashedPayload: string): string {
  const question = request.url.indexOf('?');
  const path = question === -1 ? request.url : request.url.slice(0, question);
  const query = question === -1 ? '' : request.url.slice(question + 1);
  const canonicalHeaders = signature.signedHeaders
    .map((name) => `${name}:${headerValues(request.rawHeaders, name).map((value) => value.trim().replace(/\s+/g, ' ')).join(',')}\n`)
    .join('');
  const canonicalRequest = [request.method, canonicalUri(path, signature.service), canonicalQuery(query, signature.presigned), canonicalHeaders, signature.signedHeaders.join(';'), hashedPayload].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', signature.amzDate ?? '', signature.scope, sha256Hex(canonicalRequest)].join('\n');
  return createHmac('sha256', signingKey(secret, signature)).update(stringToSign).digest('hex');
}

/**
 * Whether a presigned URL's time is up (SigV4 `X-Amz-Date` + `X-Amz-Expires`, SigV2 `Expires`): checked
 * with or without credentials, since an expired link must fail as it would on S3.
 */
export function presignedExpired(url: URL, signature: Signature | undefined, now = Date.now()): boolean {
  if (!signature) {
    const expires = Number(url.searchParams.get('Expires'));
    return Number.isFinite(expires) && now > expires * 1000;
  }
  const signed = parseAmzDate(signature.amzDate);
  return signed !== undefined && now > signed + (signature.expires ?? 0) * 1000;
}

/** The `x-amz-*` headers a request carries that its signature does not cover (AWS requires every one signed). */
export function unsignedAmzHeaders(request: SignedRequest, signature: Signature): string[] {
  const signed = new Set(signature.signedHeaders);
  const names = new Set<string>();
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i].toLowerCase();
    if (name.startsWith('x-amz-') && !signed.has(name)) names.add(name);
  }
  return [...names];
}

/**
 * Checks a request's signature against the secret; undefined when it holds. `s3Payload`: the request
 * is for S3, the one service whose payload may be left unsigned (see payloadHash).
 */
export function verifySignature(request: SignedRequest, signature: Signature, secret: string, now = Date.now(), s3Payload = signature.service === 's3'): SignatureProblem | undefined {
  if (!signature.signedHeaders.includes('host') && !signature.signedHeaders.includes(':authority')) return 'host-unsigned';
  if (unsignedAmzHeaders(request, signature).length > 0) return 'headers-unsigned';
  const amzDate = signature.amzDate ?? headerValues(request.rawHeaders, 'x-amz-date')[0];
  const signed = parseAmzDate(amzDate);
  if (signed === undefined || !amzDate!.startsWith(signature.date)) return 'mismatch';
  if (signature.presigned) {
    if (now > signed + (signature.expires ?? 0) * 1000) return 'expired';
  } else if (Math.abs(now - signed) > ALLOWED_SKEW_MS) {
    return 'skewed';
  }
  const payload = payloadHash(request, signature, s3Payload);
  if (!sameHex(expectedSignature(request, { ...signature, amzDate }, secret, payload.hash), signature.signature)) return 'mismatch';
  if (!payload.matchesBody) return 'payload-mismatch';
  if (payload.hash.startsWith('STREAMING-AWS4-HMAC-SHA256-PAYLOAD')) {
    const withTrailer = payload.hash === 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER';
    if (!chunkSignaturesHold(request.body, signature, amzDate!, signingKey(secret, signature), withTrailer)) return 'mismatch';
  }
  return undefined;
}
