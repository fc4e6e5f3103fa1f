import { AwsError } from '../protocol/errors';
import { blocksOf, document, flat, textsOf } from '../protocol/xml';
import { header, xmlResponse, type LocalRequest, type LocalResponse } from '../http';
import { decodeAwsChunked, isAwsChunked } from './chunked';
import { corsConfigurationXml, corsHeaders, matchingRule, parseCorsConfiguration, preflight } from './cors';
import { MultipartUploads } from './multipart';
import type { S3Store, StoredObject } from './store';

const NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';

/** Bucket and key from a path-style (`/bucket/key`) or virtual-host-style (`bucket.s3.localhost/key`) request. */
export function addressOf(request: LocalRequest): { bucket?: string; key?: string } {
  const virtual = /^(.+?)\.s3(?:[.-][^.]+)*\.(?:localhost|amazonaws\.com)$|^(.+?)\.localhost$/.exec(request.hostname);
  const segments = request.path.slice(1);
  if (virtual) {
    const bucket = virtual[1] ?? virtual[2];
    return { bucket, key: segments === '' ? undefined : decodeURIComponent(segments) };
  }
  if (segments === '') return {};
  const slash = segments.indexOf('/');
  if (slash === -1) return { bucket: decodeURIComponent(segments) };
  const key = decodeURIComponent(segments.slice(slash + 1));
  return { bucket: decodeURIComponent(segments.slice(0, slash)), key: key === '' ? undefined : key };
}

/** Whether the bucket a request addresses has a CORS rule for this origin and method (what AccessGuard asks). */
export function bucketCorsAllows(store: S3Store, address: { path: string; hostname: string }, origin: string, method: string): boolean {
  const { bucket } = addressOf(address as LocalRequest);
  return bucket !== undefined && store.hasBucket(bucket) && matchingRule(store.bucket(bucket).cors, origin, method) !== undefined;
}

function objectHeaders(object: StoredObject): Record<string, string> {
  const headers: Record<string, string> = {
    etag: object.etag,
    'last-modified': new Date(object.lastModified).toUTCString(),
    'content-length': String(object.size),
    'content-type': object.contentType ?? 'binary/octet-stream',
    'accept-ranges': 'bytes',
  };
  for (const [name, value] of Object.entries(object.metadata)) headers[`x-amz-meta-${name}`] = value;
  return { ...headers, ...encryptionHeaders(object.encryption) };
}

const ENCRYPTION_HEADERS = [
  'x-amz-server-side-encryption',
  'x-amz-server-side-encryption-aws-kms-key-id',
  'x-amz-server-side-encryption-customer-algorithm',
  'x-amz-server-side-encryption-customer-key-md5',
];

/** What S3 answers about an object's encryption: what it was written with, else SSE-S3 (S3 encrypts every new object). */
function encryptionHeaders(encryption: Record<string, string> | undefined): Record<string, string> {
  if (encryption && Object.keys(encryption).length > 0) return encryption;
  return { 'x-amz-server-side-encryption': 'AES256' };
}

function requestEncryption(request: LocalRequest): Record<string, string> {
  const encryption: Record<string, string> = {};
  for (const name of ENCRYPTION_HEADERS) {
    const value = header(request, name);
    if (value !== undefined) encryption[name] = value;
  }
  return encryption;
}

function requestMetadata(request: LocalRequest): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.startsWith('x-amz-meta-') && typeof value === 'string') metadata[name.slice('x-amz-meta-'.length)] = value;
  }
  return metadata;
}

function uploadedBytes(request: LocalRequest): Buffer {
  if (!isAwsChunked(request.headers)) return request.body;
  const { data } = decodeAwsChunked(request.body);
  const declared = header(request, 'x-amz-decoded-content-length');
  if (declared !== undefined && Number(declared) !== data.length) {
    throw new AwsError('IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header');
  }
  return data;
}

/** The S3 REST API: buckets and objects, enough for fw, the SDK and the AWS CLI. */
export class S3Api {
  private readonly multipart = new MultipartUploads();

  constructor(private readonly store: S3Store) {}

  handle(request: LocalRequest): LocalResponse {
    const response = this.route(request);
    const { bucket } = addressOf(request);
    if (bucket !== undefined && header(request, 'origin') !== undefined && this.store.hasBucket(bucket)) {
      response.headers = { ...response.headers, ...corsHeaders(this.store.bucket(bucket).cors, request) };
    }
    return response;
  }

  private route(request: LocalRequest): LocalResponse {
    const { bucket, key } = addressOf(request);
    const { method, search } = request;
    if (method === 'OPTIONS' && bucket !== undefined) return preflight(this.store.bucket(bucket).cors, request);
    if (bucket === undefined) {
      if (method === 'GET') return this.listBuckets();
      throw new AwsError('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405);
    }
    if (key === undefined) return this.bucketOperation(request, bucket);
    if (search.has('uploads') || search.has('uploadId')) return this.multipartOperation(request, bucket, key);
    if (method === 'PUT' && header(request, 'x-amz-copy-source')) return this.copyObject(request, bucket, key);
    if (method === 'PUT' && !search.has('tagging') && !search.has('acl')) return this.putObject(request, bucket, key);
    if (method === 'PUT') return { status: 200 };
    if (method === 'GET') return this.getObject(request, bucket, key);
    if (method === 'HEAD') return this.headObject(bucket, key);
    if (method === 'DELETE') {
      this.store.deleteObject(bucket, key);
      return { status: 204 };
    }
    throw new AwsError('NotImplemented', `The local cloud does not implement ${method} on an object`, 501);
  }

  private listBuckets(): LocalResponse {
    const buckets = this.store.listBuckets().map((b) => ({ Name: b.name, CreationDate: b.created }));
    return xmlResponse(document('ListAllMyBucketsResult', { Owner: { ID: 'local', DisplayName: 'local' }, Buckets: { Bucket: flat(buckets) } }, NAMESPACE));
  }

  private bucketOperation(request: LocalRequest, name: string): LocalResponse {
    const { method, search } = request;
    const configuration = ['policy', 'notification', 'tagging', 'cors', 'encryption', 'versioning', 'acl', 'publicAccessBlock', 'ownershipControls', 'lifecycle', 'website'].find((q) => search.has(q));
    if (method === 'PUT' && configuration === 'versioning') return this.putVersioning(request, name);
    if (method === 'PUT' && configuration === 'notification') return this.putNotification(request, name);
    if (method === 'GET' && configuration === 'notification') {
      const xml = this.store.bucket(name).notification?.xml;
      return xmlResponse(xml ?? document('NotificationConfiguration', {}, NAMESPACE));
    }
    if (configuration === 'cors') return this.bucketCors(request, name);
    if (method === 'PUT' && configuration) {
      this.store.bucket(name);
      return { status: configuration === 'policy' ? 204 : 200 };
    }
    if (method === 'PUT') {
      this.store.createBucket(name, request.region);
      return { status: 200, headers: { location: `/${name}` } };
    }
    if (method === 'HEAD') {
      const bucket = this.store.bucket(name);
      return { status: 200, headers: { 'x-amz-bucket-region': bucket.region } };
    }
    if (method === 'DELETE' && !configuration) {
      this.store.deleteBucket(name);
      return { status: 204 };
    }
    if (method === 'DELETE') return { status: 204 };
    if (method === 'POST' && search.has('delete')) return this.deleteObjects(request, name);
    if (method === 'GET' && search.has('location')) {
      const region = this.store.bucket(name).region;
      return xmlResponse(`<?xml version="1.0" encoding="UTF-8"?>\n<LocationConstraint xmlns="${NAMESPACE}">${region === 'us-east-1' ? '' : region}</LocationConstraint>`);
    }
    if (method === 'GET' && search.has('versions')) return this.listObjectVersions(request, name);
    if (method === 'GET' && search.has('versioning')) {
      return xmlResponse(document('VersioningConfiguration', { Status: this.store.bucket(name).versioning }, NAMESPACE));
    }
    if (method === 'GET' && configuration) {
      this.store.bucket(name);
      throw new AwsError('NotImplemented', `The local cloud does not keep bucket ${configuration} configuration`, 501);
    }
    if (method === 'GET') return this.listObjects(request, name);
    throw new AwsError('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405);
  }

  /** PutBucketCors, GetBucketCors, DeleteBucketCors. */
  private bucketCors(request: LocalRequest, name: string): LocalResponse {
    this.store.bucket(name);
    if (request.method === 'PUT') {
      this.store.setCors(name, parseCorsConfiguration(request.body.toString('utf8')));
      return { status: 200 };
    }
    if (request.method === 'DELETE') {
      this.store.setCors(name, undefined);
      return { status: 204 };
    }
    const rules = this.store.bucket(name).cors;
    if (!rules) throw new AwsError('NoSuchCORSConfiguration', 'The CORS configuration does not exist', 404, { BucketName: name });
    return xmlResponse(corsConfigurationXml(rules));
  }

  /**
   * Buckets keep one version of each object. Suspending versioning is what they already do, so it is
   * recorded; enabling it is refused rather than ignored, since later puts would not keep old versions.
   */
  private putVersioning(request: LocalRequest, name: string): LocalResponse {
    const bucket = this.store.bucket(name);
    const status = textsOf(request.body.toString('utf8'), 'Status')[0];
    if (status === 'Enabled') {
      throw new AwsError('NotImplemented', 'The local cloud does not emulate bucket versioning: buckets keep one version of each object (Status Suspended is accepted)', 501);
    }
    if (status !== 'Suspended') throw new AwsError('MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema', 400);
    this.store.setVersioning(bucket.name, status);
    return { status: 200 };
  }

  /**
   * Kept, so GetBucketNotificationConfiguration answers it and uploads invoke the functions it names
   * (what fw's handler for `existing: true` buckets sets); topic and queue targets are kept, not notified.
   */
  private putNotification(request: LocalRequest, name: string): LocalResponse {
    this.store.bucket(name);
    const xml = request.body.toString('utf8');
    const functions = blocksOf(xml, 'CloudFunctionConfiguration').map((block) => ({
      id: textsOf(block, 'Id')[0],
      functionArn: textsOf(block, 'CloudFunction')[0] ?? '',
      events: textsOf(block, 'Event'),
      rules: blocksOf(block, 'FilterRule').map((rule) => ({ name: textsOf(rule, 'Name')[0] ?? '', value: textsOf(rule, 'Value')[0] ?? '' })),
    }));
    this.store.setNotification(name, { xml, functions });
    return { status: 200 };
  }

  private listObjects(request: LocalRequest, name: string): LocalResponse {
    const { search } = request;
    const v2 = search.get('list-type') === '2';
    const prefix = search.get('prefix') ?? '';
    const delimiter = search.get('delimiter') ?? '';
    const maxKeys = Math.max(0, Math.min(1000, Number(search.get('max-keys') ?? 1000)));
    const urlEncoded = search.get('encoding-type') === 'url';
    const encode = (text: string) => (urlEncoded ? encodeURIComponent(text).replace(/%2F/g, '/') : text);
    const token = search.get('continuation-token');
    const after = v2 ? (token ? Buffer.from(token, 'base64url').toString() : search.get('start-after') ?? '') : search.get('marker') ?? '';

    const bucket = this.store.bucket(name);
    const contents: StoredObject[] = [];
    const prefixes: string[] = [];
    let truncated = false;
    let last = '';
    for (const key of this.store.sortedKeys(name)) {
      if (!key.startsWith(prefix) || (after && Buffer.compare(Buffer.from(key), Buffer.from(after)) <= 0)) continue;
      const rest = key.slice(prefix.length);
      const cut = delimiter ? rest.indexOf(delimiter) : -1;
      const commonPrefix = cut === -1 ? undefined : prefix + rest.slice(0, cut + delimiter.length);
      if (commonPrefix !== undefined && prefixes.includes(commonPrefix)) continue;
      if (contents.length + prefixes.length >= maxKeys) {
        truncated = true;
        break;
      }
      if (commonPrefix !== undefined) {
        prefixes.push(commonPrefix);
        last = commonPrefix + '\uffff';
      } else {
        contents.push(bucket.objects[key]);
        last = key;
      }
    }
    const listed = {
      Name: name,
      Prefix: encode(prefix),
      Delimiter: delimiter ? encode(delimiter) : undefined,
      MaxKeys: maxKeys,
      EncodingType: urlEncoded ? 'url' : undefined,
      IsTruncated: truncated,
      ...(v2
        ? {
            KeyCount: contents.length + prefixes.length,
            ContinuationToken: token ?? undefined,
            NextContinuationToken: truncated ? Buffer.from(last).toString('base64url') : undefined,
            StartAfter: search.get('start-after') ?? undefined,
          }
        : { Marker: search.get('marker') ?? '', NextMarker: truncated && delimiter ? last : undefined }),
      Contents: flat(contents.map((o) => ({ Key: encode(o.key), LastModified: o.lastModified, ETag: o.etag, Size: o.size, StorageClass: 'STANDARD' }))),
      CommonPrefixes: flat(prefixes.map((p) => ({ Prefix: encode(p) }))),
    };
    return xmlResponse(document('ListBucketResult', listed, NAMESPACE));
  }

  /** Buckets here are never versioned: every object is its only version, with the id "null" as in S3. */
  private listObjectVersions(request: LocalRequest, name: string): LocalResponse {
    const { search } = request;
    const prefix = search.get('prefix') ?? '';
    const marker = search.get('key-marker') ?? '';
    const maxKeys = Math.max(0, Math.min(1000, Number(search.get('max-keys') ?? 1000)));
    const bucket = this.store.bucket(name);
    const keys = this.store.sortedKeys(name).filter((key) => key.startsWith(prefix) && (!marker || Buffer.compare(Buffer.from(key), Buffer.from(marker)) > 0));
    const listed = keys.slice(0, maxKeys);
    const truncated = keys.length > listed.length;
    const result = {
      Name: name,
      Prefix: prefix,
      KeyMarker: marker,
      VersionIdMarker: search.get('version-id-marker') ?? '',
      MaxKeys: maxKeys,
      IsTruncated: truncated,
      NextKeyMarker: truncated ? listed[listed.length - 1] : undefined,
      NextVersionIdMarker: truncated ? 'null' : undefined,
      Version: flat(listed.map((key) => {
        const object = bucket.objects[key];
        return { Key: key, VersionId: 'null', IsLatest: true, LastModified: object.lastModified, ETag: object.etag, Size: object.size, StorageClass: 'STANDARD' };
      })),
    };
    return xmlResponse(document('ListVersionsResult', result, NAMESPACE));
  }

  private deleteObjects(request: LocalRequest, name: string): LocalResponse {
    this.store.bucket(name);
    const body = request.body.toString('utf8');
    const keys = [...body.matchAll(/<Object>([\s\S]*?)<\/Object>/g)].map((match) => textsOf(match[1], 'Key')[0]);
    const quiet = textsOf(body, 'Quiet')[0] === 'true';
    for (const key of keys) this.store.deleteObject(name, key);
    return xmlResponse(document('DeleteResult', { Deleted: flat(quiet ? [] : keys.map((key) => ({ Key: key }))) }, NAMESPACE));
  }

  private multipartOperation(request: LocalRequest, bucket: string, key: string): LocalResponse {
    this.store.bucket(bucket);
    const uploadId = request.search.get('uploadId') ?? '';
    if (request.method === 'POST' && request.search.has('uploads')) {
      const id = this.multipart.start(bucket, key, header(request, 'content-type'), requestMetadata(request));
      return xmlResponse(document('InitiateMultipartUploadResult', { Bucket: bucket, Key: key, UploadId: id }, NAMESPACE));
    }
    if (request.method === 'PUT') {
      const part = this.multipart.putPart(uploadId, bucket, key, Number(request.search.get('partNumber')), uploadedBytes(request));
      return { status: 200, headers: { etag: part.etag } };
    }
    if (request.method === 'GET') return this.listParts(request, bucket, key, uploadId);
    if (request.method === 'POST') {
      const parts = textsOf(request.body.toString('utf8'), 'PartNumber').map(Number);
      const upload = this.multipart.complete(uploadId, bucket, key, parts);
      const object = this.store.putObject(bucket, key, upload.data, { contentType: upload.contentType, metadata: upload.metadata, etag: upload.etag });
      return xmlResponse(document('CompleteMultipartUploadResult', { Location: `/${bucket}/${key}`, Bucket: bucket, Key: key, ETag: object.etag }, NAMESPACE));
    }
    if (request.method === 'DELETE') {
      this.multipart.abort(uploadId, bucket, key);
      return { status: 204 };
    }
    throw new AwsError('NotImplemented', `The local cloud does not implement ${request.method} on a multipart upload`, 501);
  }

  private listParts(request: LocalRequest, bucket: string, key: string, uploadId: string): LocalResponse {
    const { initiated, parts } = this.multipart.parts(uploadId, bucket, key);
    const marker = Number(request.search.get('part-number-marker') ?? 0);
    const maxParts = Math.max(0, Math.min(1000, Number(request.search.get('max-parts') ?? 1000)));
    const after = parts.filter(([number]) => number > marker);
    const listed = after.slice(0, maxParts);
    const truncated = after.length > listed.length;
    const owner = { ID: 'local', DisplayName: 'local' };
    const result = {
      Bucket: bucket,
      Key: key,
      UploadId: uploadId,
      Initiator: owner,
      Owner: owner,
      StorageClass: 'STANDARD',
      PartNumberMarker: marker,
      NextPartNumberMarker: listed.length ? listed[listed.length - 1][0] : marker,
      MaxParts: maxParts,
      IsTruncated: truncated,
      Initiated: initiated,
      Part: flat(listed.map(([PartNumber, part]) => ({ PartNumber, LastModified: part.lastModified, ETag: part.etag, Size: part.data.length }))),
    };
    return xmlResponse(document('ListPartsResult', result, NAMESPACE));
  }

  private putObject(request: LocalRequest, bucket: string, key: string): LocalResponse {
    this.store.bucket(bucket);
    const data = uploadedBytes(request);
    const contentType = header(request, 'content-type');
    const object = this.store.putObject(bucket, key, data, { contentType, metadata: requestMetadata(request), encryption: requestEncryption(request) });
    return { status: 200, headers: { etag: object.etag, ...encryptionHeaders(object.encryption) } };
  }

  private copyObject(request: LocalRequest, bucket: string, key: string): LocalResponse {
    const source = decodeURIComponent(header(request, 'x-amz-copy-source')!.replace(/^\//, '').split('?')[0]);
    const slash = source.indexOf('/');
    const { object, data } = this.store.readObject(source.slice(0, slash), source.slice(slash + 1));
    const replace = header(request, 'x-amz-metadata-directive') === 'REPLACE';
    const copy = this.store.putObject(bucket, key, data, {
      contentType: replace ? header(request, 'content-type') : object.contentType,
      metadata: replace ? requestMetadata(request) : object.metadata,
    });
    return xmlResponse(document('CopyObjectResult', { LastModified: copy.lastModified, ETag: copy.etag }, NAMESPACE));
  }

  private getObject(request: LocalRequest, bucket: string, key: string): LocalResponse {
    const { object, data } = this.store.readObject(bucket, key);
    const range = /^bytes=(\d*)-(\d*)$/.exec(header(request, 'range') ?? '');
    if (!range) return { status: 200, headers: objectHeaders(object), body: data };
    const start = range[1] === '' ? Math.max(0, data.length - Number(range[2])) : Number(range[1]);
    const end = range[1] === '' || range[2] === '' ? data.length - 1 : Math.min(Number(range[2]), data.length - 1);
    if (start >= data.length || start > end) throw new AwsError('InvalidRange', 'The requested range is not satisfiable', 416);
    const headers = { ...objectHeaders(object), 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${data.length}` };
    return { status: 206, headers, body: data.subarray(start, end + 1) };
  }

  private headObject(bucket: string, key: string): LocalResponse {
    return { status: 200, headers: objectHeaders(this.store.headObject(bucket, key)) };
  }
}
