import { AwsError } from '../protocol/errors';
import { header, type LocalRequest } from '../http';
import type { StoredObject } from './store';

const preconditionFailed = (condition: string) =>
  new AwsError('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412, { Condition: condition });

const etagMatches = (list: string, etag: string) =>
  list.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag || `"${tag}"` === etag;
  });

/** Seconds, as HTTP dates compare (S3's Last-Modified has no milliseconds). */
const seconds = (date: string | number) => Math.floor(new Date(date).getTime() / 1000);

/**
 * GetObject's and HeadObject's conditional headers, as S3 documents them: If-Match then
 * If-Unmodified-Since fail with 412; If-None-Match then If-Modified-Since answer 304. A true
 * If-Match overrides a false If-Unmodified-Since, a false If-None-Match a true If-Modified-Since.
 * Returns 304 when the client's copy is current, undefined when the object is to be served.
 */
export function readPrecondition(request: LocalRequest, object: StoredObject): 304 | undefined {
  const ifMatch = header(request, 'if-match');
  const ifNoneMatch = header(request, 'if-none-match');
  const ifModifiedSince = header(request, 'if-modified-since');
  const ifUnmodifiedSince = header(request, 'if-unmodified-since');
  const modified = seconds(object.lastModified);
  if (ifMatch !== undefined) {
    if (!etagMatches(ifMatch, object.etag)) throw preconditionFailed('If-Match');
  } else if (ifUnmodifiedSince !== undefined && !Number.isNaN(Date.parse(ifUnmodifiedSince)) && modified > seconds(ifUnmodifiedSince)) {
    throw preconditionFailed('If-Unmodified-Since');
  }
  if (ifNoneMatch !== undefined) {
    if (etagMatches(ifNoneMatch, object.etag)) return 304;
  } else if (ifModifiedSince !== undefined && !Number.isNaN(Date.parse(ifModifiedSince)) && modified <= seconds(ifModifiedSince)) {
    return 304;
  }
  return undefined;
}

/**
 * Conditional writes (PutObject, CompleteMultipartUpload, CopyObject's destination): `If-None-Match: *`
 * fails when the key exists, `If-Match: <etag>` when it does not hold that ETag (or does not exist: 404).
 */
export function writePrecondition(request: LocalRequest, existing: StoredObject | undefined, key: string): void {
  const ifNoneMatch = header(request, 'if-none-match');
  const ifMatch = header(request, 'if-match');
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() !== '*') throw new AwsError('NotImplemented', 'A header you provided implies functionality that is not implemented', 501, { Header: 'If-None-Match' });
    if (existing) throw preconditionFailed('If-None-Match');
  }
  if (ifMatch !== undefined) {
    if (!existing) throw new AwsError('NoSuchKey', 'The specified key does not exist.', 404, { Key: key });
    if (!etagMatches(ifMatch, existing.etag)) throw preconditionFailed('If-Match');
  }
}
