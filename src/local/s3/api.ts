import { AwsError } from '../protocol/errors';
import { blocksOf, document, flat, textsOf } from '../protocol/xml';
import { header, xmlResponse, type LocalRequest, type LocalResponse } from '../http';
import { decodeAwsChunked, isAwsChunked } from './chunked';
import { corsConfigurationXml, corsHeaders, matchingRule, parseCorsConfiguration, preflight } from './cors';
import { checksumHeaders, uploadChecksum, type Checksum } from './checksums';
import { readPrecondition, writePrecondition } from './conditions';
import { MultipartUploads } from './multipart';
import { checkPostForm, formMetadata, isFormUpload, parsePostForm } from './post-object';
import type { Deleted, S3Store, StoredObject } from './store';
import { checkConfiguration, hasOperation, KEPT_CONFIGURATIONS, subresourceOf, unservedSubresource } from './subresources';
import { parseTagging, parseTaggingHeader, taggingXml, type Tag } from './tagging';

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
  // S3 counts tags on reads and leaves the header out when there are none.
  if (object.tags?.length) headers['x-amz-tagging-count'] = String(object.tags.length);
  if (object.versionId !== undefined) headers['x-amz-version-id'] = object.versionId;
  return { ...headers, ...object.headers, ...encryptionHeaders(object.encryption) };
}

function deletedHeaders(deleted: Deleted): Record<string, string> {
  return {
    ...(deleted.versionId !== undefined ? { 'x-amz-version-id': deleted.versionId } : {}),
    ...(deleted.deleteMarker ? { 'x-amz-delete-marker': 'true' } : {}),
  };
}

/** The representation headers an object keeps from its upload and answers on every read. */
const REPRESENTATION_HEADERS = ['cache-control', 'content-disposition', 'content-encoding', 'content-language', 'expires'];

function representationHeaders(request: LocalRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPRESENTATION_HEADERS) {
    let value = header(request, name);
    // The aws-chunked content coding is the transfer's, not the object's.
    if (name === 'content-encoding' && value !== undefined) value = value.split(',').map((part) => part.trim()).filter((part) => part !== 'aws-chunked').join(',');
    if (value) headers[name] = value;
  }
  return headers;
}

/** GetObject's `response-*` query parameters, which override the headers of that one response (presigned download links use them). */
function responseOverrides(request: LocalRequest): Record<string, string> {
  const overrides: Record<string, string> = {};
  for (const name of ['content-type', 'content-language', 'expires', 'cache-control', 'content-disposition', 'content-encoding']) {
    const value = request.search.get(`response-${name}`);
    if (value !== null) overrides[name] = value;
  }
  return overrides;
}

function requestTags(request: LocalRequest): Tag[] | undefined {
  const value = header(request, 'x-amz-tagging');
  return value === undefined ? undefined : parseTaggingHeader(value);
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

/** The bytes of an upload (an aws-chunked body decoded) and the checksum it carries, checked. */
function uploaded(request: LocalRequest): { data: Buffer; checksum?: Checksum } {
  if (!isAwsChunked(request.headers)) return { data: request.body, checksum: uploadChecksum(request, request.body, {}) };
  const { data, trailers } = decodeAwsChunked(request.body);
  const declared = header(request, 'x-amz-decoded-content-length');
  if (declared !== undefined && Number(declared) !== data.length) {
    throw new AwsError('IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header');
  }
  return { data, checksum: uploadChecksum(request, data, trailers) };
}

/** The S3 REST API: buckets and objects, enough for fw, the SDK and the AWS CLI. */
/** Checks a POST form's policy signature against the configured secret; the refusal, or undefined when it holds. */
export type PostPolicySignatureCheck = (fields: Map<string, string>) => AwsError | undefined;

export class S3Api {
  private readonly multipart = new MultipartUploads();

  constructor(
    private readonly store: S3Store,
    private readonly postPolicySignature: PostPolicySignatureCheck = () => undefined,
  ) {}

  async handle(request: LocalRequest): Promise<LocalResponse> {
    const { bucket, key } = addressOf(request);
    const formUpload = bucket !== undefined && key === undefined && request.search.size === 0 && isFormUpload(request.method, header(request, 'content-type'));
    const response = formUpload ? await this.postObject(request, bucket) : this.route(request);
    if (bucket !== undefined && header(request, 'origin') !== undefined && this.store.hasBucket(bucket)) {
      response.headers = { ...response.headers, ...corsHeaders(this.store.bucket(bucket).cors, request) };
    }
    return response;
  }

  private route(request: LocalRequest): LocalResponse {
    const { bucket, key } = addressOf(request);
    const { method } = request;
    if (method === 'OPTIONS' && bucket !== undefined) return preflight(this.store.bucket(bucket).cors, request);
    if (bucket === undefined) {
      if (method === 'GET') return this.listBuckets();
      throw new AwsError('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405);
    }
    if (key === undefined) return this.bucketOperation(request, bucket);
    const subresource = subresourceOf(request.search, 'object');
    if (subresource === 'uploads' || subresource === 'uploadId') return this.multipartOperation(request, bucket, key);
    if (subresource === 'tagging') return this.objectTagging(request, bucket, key);
    if (subresource === 'acl') return this.acl(request, subresource, 'object', () => this.store.headObject(bucket, key));
    if (subresource !== undefined) throw unservedSubresource(method, subresource, 'object');
    if (method === 'PUT' && header(request, 'x-amz-copy-source')) return this.copyObject(request, bucket, key);
    if (method === 'PUT') return this.putObject(request, bucket, key);
    if (method === 'GET') return this.getObject(request, bucket, key);
    if (method === 'HEAD') return this.headObject(request, bucket, key);
    if (method === 'DELETE') {
      writePrecondition(request, this.store.findObject(bucket, key), key);
      const deleted = this.store.deleteObject(bucket, key, request.search.get('versionId') ?? undefined);
      return { status: 204, headers: deletedHeaders(deleted) };
    }
    throw new AwsError('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405, { Method: method, ResourceType: 'OBJECT' });
  }

  /** PutObjectTagging, GetObjectTagging, DeleteObjectTagging: the tag set of an existing object. */
  private objectTagging(request: LocalRequest, bucket: string, key: string): LocalResponse {
    if (request.method === 'GET') return xmlResponse(taggingXml(this.store.headObject(bucket, key).tags ?? [], NAMESPACE));
    if (request.method === 'PUT') {
      this.store.headObject(bucket, key);
      this.store.setObjectTags(bucket, key, parseTagging(request.body.toString('utf8'), 'object'));
      return { status: 200 };
    }
    if (request.method === 'DELETE') {
      this.store.setObjectTags(bucket, key, []);
      return { status: 204 };
    }
    throw unservedSubresource(request.method, 'tagging', 'object');
  }

  /**
   * ACLs: every bucket and object here is private to its owner, so Get*Acl answers the owner's
   * FULL_CONTROL and Put*Acl accepts only what keeps it so; a grant to anyone else is refused by name.
   */
  private acl(request: LocalRequest, subresource: string, target: 'bucket' | 'object', exists: () => unknown): LocalResponse {
    exists();
    const owner = { ID: 'local', DisplayName: 'local' };
    if (request.method === 'GET') {
      const grant = `<Grant><Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="CanonicalUser"><ID>local</ID><DisplayName>local</DisplayName></Grantee><Permission>FULL_CONTROL</Permission></Grant>`;
      return xmlResponse(document('AccessControlPolicy', { Owner: owner, AccessControlList: {} }, NAMESPACE).replace('<AccessControlList></AccessControlList>', `<AccessControlList>${grant}</AccessControlList>`));
    }
    if (request.method === 'PUT') {
      const canned = header(request, 'x-amz-acl');
      const grants = Object.keys(request.headers).filter((name) => name.startsWith('x-amz-grant-'));
      const body = request.body.toString('utf8');
      const othersGranted = /<URI>|<EmailAddress>/.test(body) || textsOf(body, 'Permission').some((permission) => permission !== 'FULL_CONTROL');
      if ((canned !== undefined && canned !== 'private' && canned !== 'bucket-owner-full-control') || grants.length > 0 || othersGranted) {
        throw unservedSubresource('PUT', subresource, target, 'the local cloud keeps every bucket and object private to its owner');
      }
      return { status: 200 };
    }
    throw unservedSubresource(request.method, subresource, target);
  }

  private listBuckets(): LocalResponse {
    const buckets = this.store.listBuckets().map((b) => ({ Name: b.name, CreationDate: b.created }));
    return xmlResponse(document('ListAllMyBucketsResult', { Owner: { ID: 'local', DisplayName: 'local' }, Buckets: { Bucket: flat(buckets) } }, NAMESPACE));
  }

  private bucketOperation(request: LocalRequest, name: string): LocalResponse {
    const { method } = request;
    const subresource = subresourceOf(request.search, 'bucket');
    if (subresource !== undefined) return this.bucketSubresource(request, name, subresource);
    if (method === 'PUT') {
      this.store.createBucket(name, request.region);
      return { status: 200, headers: { location: `/${name}` } };
    }
    if (method === 'HEAD') {
      const bucket = this.store.bucket(name);
      return { status: 200, headers: { 'x-amz-bucket-region': bucket.region } };
    }
    if (method === 'DELETE') {
      this.store.deleteBucket(name);
      return { status: 204 };
    }
    if (method === 'GET') return this.listObjects(request, name);
    throw new AwsError('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405, { Method: method, ResourceType: 'BUCKET' });
  }

  private bucketSubresource(request: LocalRequest, name: string, subresource: string): LocalResponse {
    const { method } = request;
    this.store.bucket(name);
    if (subresource === 'cors') return this.bucketCors(request, name);
    if (subresource === 'tagging') return this.bucketTagging(request, name);
    if (subresource === 'acl') return this.acl(request, subresource, 'bucket', () => this.store.bucket(name));
    if (Object.hasOwn(KEPT_CONFIGURATIONS, subresource)) return this.keptConfiguration(request, name, subresource);
    if (method === 'PUT' && subresource === 'versioning') return this.putVersioning(request, name);
    if (method === 'GET' && subresource === 'versioning') return xmlResponse(document('VersioningConfiguration', { Status: this.store.bucket(name).versioning }, NAMESPACE));
    if (method === 'PUT' && subresource === 'notification') return this.putNotification(request, name);
    if (method === 'GET' && subresource === 'notification') return xmlResponse(this.store.bucket(name).notification?.xml ?? document('NotificationConfiguration', {}, NAMESPACE));
    if (method === 'POST' && subresource === 'delete') return this.deleteObjects(request, name);
    if (method === 'GET' && subresource === 'location') {
      const region = this.store.bucket(name).region;
      return xmlResponse(`<?xml version="1.0" encoding="UTF-8"?>\n<LocationConstraint xmlns="${NAMESPACE}">${region === 'us-east-1' ? '' : region}</LocationConstraint>`);
    }
    if (method === 'GET' && subresource === 'versions') return this.listObjectVersions(request, name);
    if (method === 'GET' && subresource === 'uploads') return this.listMultipartUploads(request, name);
    throw unservedSubresource(method, subresource, 'bucket');
  }

  /** PutBucketTagging, GetBucketTagging (NoSuchTagSet when there is none), DeleteBucketTagging. */
  private bucketTagging(request: LocalRequest, name: string): LocalResponse {
    if (request.method === 'PUT') {
      this.store.setBucketTags(name, parseTagging(request.body.toString('utf8'), 'bucket'));
      return { status: 204 };
    }
    if (request.method === 'DELETE') {
      this.store.setBucketTags(name, undefined);
      return { status: 204 };
    }
    if (request.method !== 'GET') throw unservedSubresource(request.method, 'tagging', 'bucket');
    const tags = this.store.bucket(name).tags;
    if (!tags) throw new AwsError('NoSuchTagSet', 'The TagSet does not exist', 404, { BucketName: name });
    return xmlResponse(taggingXml(tags, NAMESPACE));
  }

  /** Policy, lifecycle, website, public access block, ownership controls, encryption: kept as sent and answered back, not acted on. */
  private keptConfiguration(request: LocalRequest, name: string, subresource: string): LocalResponse {
    const { method } = request;
    if (!hasOperation(method, subresource, 'bucket')) throw unservedSubresource(method, subresource, 'bucket');
    if (method === 'PUT') {
      const body = request.body.toString('utf8');
      checkConfiguration(subresource, body);
      this.store.setConfiguration(name, subresource, body);
      return { status: subresource === 'policy' ? 204 : 200 };
    }
    if (method === 'DELETE') {
      this.store.setConfiguration(name, subresource, undefined);
      return { status: 204 };
    }
    if (method !== 'GET') throw unservedSubresource(method, subresource, 'bucket');
    const kept = this.store.bucket(name).configurations?.[subresource];
    if (kept !== undefined) return subresource === 'policy' ? { status: 200, headers: { 'content-type': 'application/json' }, body: kept } : xmlResponse(kept);
    const { fallback, missing } = KEPT_CONFIGURATIONS[subresource];
    if (fallback !== undefined) return xmlResponse(fallback);
    const error = missing!();
    throw new AwsError(error.code, error.message, error.status, { BucketName: name });
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

  /** Enabled: every write keeps the versions before it; Suspended: writes replace version "null", older versions stay. */
  private putVersioning(request: LocalRequest, name: string): LocalResponse {
    const bucket = this.store.bucket(name);
    const status = textsOf(request.body.toString('utf8'), 'Status')[0];
    if (status !== 'Enabled' && status !== 'Suspended') throw new AwsError('MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema', 400);
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

  /** ListObjectVersions: each key's versions newest first, delete markers apart, paged by key and version markers. */
  private listObjectVersions(request: LocalRequest, name: string): LocalResponse {
    const { search } = request;
    const prefix = search.get('prefix') ?? '';
    const keyMarker = search.get('key-marker') ?? '';
    const versionMarker = search.get('version-id-marker') ?? '';
    const maxKeys = Math.max(0, Math.min(1000, Number(search.get('max-keys') ?? 1000)));
    const bucket = this.store.bucket(name);
    const entries: { key: string; version: StoredObject; latest: boolean }[] = [];
    for (const key of this.store.versionedKeys(name)) {
      if (!key.startsWith(prefix)) continue;
      const order = keyMarker ? Buffer.compare(Buffer.from(key), Buffer.from(keyMarker)) : 1;
      if (order < 0 || (order === 0 && !versionMarker)) continue;
      const history = this.store.history(bucket, key);
      const from = order === 0 ? history.findIndex((version) => (version.versionId ?? 'null') === versionMarker) + 1 : 0;
      history.slice(from).forEach((version) => entries.push({ key, version, latest: version === history[0] }));
    }
    const listed = entries.slice(0, maxKeys);
    const truncated = entries.length > listed.length;
    const last = listed[listed.length - 1];
    const owner = { ID: 'local', DisplayName: 'local' };
    const common = (entry: (typeof entries)[number]) => ({ Key: entry.key, VersionId: entry.version.versionId ?? 'null', IsLatest: entry.latest, LastModified: entry.version.lastModified });
    const result = {
      Name: name,
      Prefix: prefix,
      KeyMarker: keyMarker,
      VersionIdMarker: versionMarker,
      MaxKeys: maxKeys,
      IsTruncated: truncated,
      NextKeyMarker: truncated ? last.key : undefined,
      NextVersionIdMarker: truncated ? last.version.versionId ?? 'null' : undefined,
      Version: flat(listed.filter((entry) => !entry.version.deleteMarker).map((entry) => ({ ...common(entry), ETag: entry.version.etag, Size: entry.version.size, StorageClass: 'STANDARD', Owner: owner }))),
      DeleteMarker: flat(listed.filter((entry) => entry.version.deleteMarker).map((entry) => ({ ...common(entry), Owner: owner }))),
    };
    return xmlResponse(document('ListVersionsResult', result, NAMESPACE));
  }

  private deleteObjects(request: LocalRequest, name: string): LocalResponse {
    this.store.bucket(name);
    const body = request.body.toString('utf8');
    const objects = [...body.matchAll(/<Object>([\s\S]*?)<\/Object>/g)].map((match) => ({ key: textsOf(match[1], 'Key')[0], versionId: textsOf(match[1], 'VersionId')[0] }));
    const quiet = textsOf(body, 'Quiet')[0] === 'true';
    const deleted = objects.map(({ key, versionId }) => {
      const result = this.store.deleteObject(name, key, versionId);
      return {
        Key: key,
        VersionId: versionId,
        DeleteMarker: result.deleteMarker,
        DeleteMarkerVersionId: result.deleteMarker && versionId === undefined ? result.versionId : undefined,
      };
    });
    return xmlResponse(document('DeleteResult', { Deleted: flat(quiet ? [] : deleted) }, NAMESPACE));
  }

  private multipartOperation(request: LocalRequest, bucket: string, key: string): LocalResponse {
    this.store.bucket(bucket);
    const uploadId = request.search.get('uploadId') ?? '';
    if (request.method === 'POST' && request.search.has('uploads')) {
      const id = this.multipart.start(bucket, key, header(request, 'content-type'), requestMetadata(request), { headers: representationHeaders(request), tags: requestTags(request), encryption: requestEncryption(request) });
      return xmlResponse(document('InitiateMultipartUploadResult', { Bucket: bucket, Key: key, UploadId: id }, NAMESPACE));
    }
    if (request.method === 'PUT') {
      const { data, checksum } = uploaded(request);
      const part = this.multipart.putPart(uploadId, bucket, key, Number(request.search.get('partNumber')), data);
      return { status: 200, headers: { etag: part.etag, ...(checksum ? { [checksum.header]: checksum.value } : {}) } };
    }
    if (request.method === 'GET') return this.listParts(request, bucket, key, uploadId);
    if (request.method === 'POST') {
      const parts = textsOf(request.body.toString('utf8'), 'PartNumber').map(Number);
      writePrecondition(request, this.store.findObject(bucket, key), key);
      const upload = this.multipart.complete(uploadId, bucket, key, parts);
      const object = this.store.putObject(bucket, key, upload.data, { contentType: upload.contentType, metadata: upload.metadata, etag: upload.etag, ...upload.options });
      const response = xmlResponse(document('CompleteMultipartUploadResult', { Location: `/${bucket}/${key}`, Bucket: bucket, Key: key, ETag: object.etag }, NAMESPACE));
      if (object.versionId !== undefined) response.headers = { ...response.headers, 'x-amz-version-id': object.versionId };
      return response;
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

  /** ListMultipartUploads: the uploads started and neither completed nor aborted, by key. */
  private listMultipartUploads(request: LocalRequest, name: string): LocalResponse {
    const prefix = request.search.get('prefix') ?? '';
    const owner = { ID: 'local', DisplayName: 'local' };
    const uploads = this.multipart.list(name).filter((upload) => upload.key.startsWith(prefix));
    const result = {
      Bucket: name,
      KeyMarker: '',
      UploadIdMarker: '',
      Prefix: prefix,
      MaxUploads: 1000,
      IsTruncated: false,
      Upload: flat(uploads.map((upload) => ({ Key: upload.key, UploadId: upload.id, Initiator: owner, Owner: owner, StorageClass: 'STANDARD', Initiated: upload.initiated }))),
    };
    return xmlResponse(document('ListMultipartUploadsResult', result, NAMESPACE));
  }

  private putObject(request: LocalRequest, bucket: string, key: string): LocalResponse {
    this.store.bucket(bucket);
    const tags = requestTags(request);
    const { data, checksum } = uploaded(request);
    writePrecondition(request, this.store.findObject(bucket, key), key);
    const contentType = header(request, 'content-type');
    const object = this.store.putObject(bucket, key, data, { contentType, metadata: requestMetadata(request), encryption: requestEncryption(request), headers: representationHeaders(request), tags, checksum });
    const checksumAnswer: Record<string, string> = checksum ? { [checksum.header]: checksum.value, 'x-amz-checksum-type': 'FULL_OBJECT' } : {};
    const version: Record<string, string> = object.versionId !== undefined ? { 'x-amz-version-id': object.versionId } : {};
    return { status: 200, headers: { etag: object.etag, ...encryptionHeaders(object.encryption), ...checksumAnswer, ...version } };
  }

  /** POST Object: a browser form's upload, authorized by its policy (see post-object.ts). */
  private async postObject(request: LocalRequest, bucket: string): Promise<LocalResponse> {
    this.store.bucket(bucket);
    const form = await parsePostForm(request);
    const { key, data } = checkPostForm(form, bucket, this.postPolicySignature);
    const { fields } = form;
    const contentType = fields.get('content-type') ?? 'binary/octet-stream';
    const tags = fields.has('tagging') ? parseTagging(fields.get('tagging')!, 'object') : undefined;
    const object = this.store.putObject(bucket, key, data, { contentType, metadata: formMetadata(fields), tags });
    const location = `http://${header(request, 'host') ?? 'localhost'}/${encodeURIComponent(bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`;
    const headers: Record<string, string> = { etag: object.etag, location, ...(object.versionId !== undefined ? { 'x-amz-version-id': object.versionId } : {}) };
    const redirect = fields.get('success_action_redirect') ?? fields.get('redirect');
    if (redirect && URL.canParse(redirect)) {
      // An address that is not a URL is ignored, as S3 ignores it, and the status answers.
      const target = new URL(redirect);
      target.searchParams.set('bucket', bucket);
      target.searchParams.set('key', key);
      target.searchParams.set('etag', object.etag);
      return { status: 303, headers: { ...headers, location: target.toString() } };
    }
    const status = fields.get('success_action_status');
    if (status === '201') {
      const answer = xmlResponse(document('PostResponse', { Location: location, Bucket: bucket, Key: key, ETag: object.etag }), 201);
      return { ...answer, headers: { ...answer.headers, ...headers } };
    }
    return { status: status === '200' ? 200 : 204, headers };
  }

  private copyObject(request: LocalRequest, bucket: string, key: string): LocalResponse {
    const [path, query] = header(request, 'x-amz-copy-source')!.replace(/^\//, '').split('?');
    const source = decodeURIComponent(path);
    const slash = source.indexOf('/');
    const sourceVersion = new URLSearchParams(query ?? '').get('versionId') ?? undefined;
    const { object, data } = this.store.readObject(source.slice(0, slash), source.slice(slash + 1), sourceVersion);
    const metadataDirective = header(request, 'x-amz-metadata-directive') ?? 'COPY';
    const taggingDirective = header(request, 'x-amz-tagging-directive') ?? 'COPY';
    if (metadataDirective !== 'COPY' && metadataDirective !== 'REPLACE') throw new AwsError('InvalidArgument', 'Unknown metadata directive.', 400, { ArgumentName: 'x-amz-metadata-directive', ArgumentValue: metadataDirective });
    if (taggingDirective !== 'COPY' && taggingDirective !== 'REPLACE') throw new AwsError('InvalidArgument', 'Unknown tagging directive.', 400, { ArgumentName: 'x-amz-tagging-directive', ArgumentValue: taggingDirective });
    const replace = metadataDirective === 'REPLACE';
    const tags = taggingDirective === 'REPLACE' ? requestTags(request) ?? [] : object.tags;
    writePrecondition(request, this.store.findObject(bucket, key), key);
    const copy = this.store.putObject(bucket, key, data, {
      contentType: replace ? header(request, 'content-type') : object.contentType,
      metadata: replace ? requestMetadata(request) : object.metadata,
      headers: replace ? representationHeaders(request) : object.headers,
      tags,
      // The same bytes: the source's checksum is the copy's.
      checksum: object.checksum,
    });
    const response = xmlResponse(document('CopyObjectResult', { LastModified: copy.lastModified, ETag: copy.etag }, NAMESPACE));
    response.headers = {
      ...response.headers,
      ...(copy.versionId !== undefined ? { 'x-amz-version-id': copy.versionId } : {}),
      ...(object.versionId !== undefined ? { 'x-amz-copy-source-version-id': object.versionId } : {}),
    };
    return response;
  }

  private getObject(request: LocalRequest, bucket: string, key: string): LocalResponse {
    const versionId = request.search.get('versionId') ?? undefined;
    const object = this.store.headObject(bucket, key, versionId);
    if (readPrecondition(request, object) === 304) return notModified(object);
    const { data } = this.store.readObject(bucket, key, versionId);
    const headers = { ...objectHeaders(object), ...responseOverrides(request) };
    const range = /^bytes=(\d*)-(\d*)$/.exec(header(request, 'range') ?? '');
    if (!range) return { status: 200, headers: { ...headers, ...checksumHeaders(request, object.checksum) }, body: data };
    const start = range[1] === '' ? Math.max(0, data.length - Number(range[2])) : Number(range[1]);
    const end = range[1] === '' || range[2] === '' ? data.length - 1 : Math.min(Number(range[2]), data.length - 1);
    if (start >= data.length || start > end) throw new AwsError('InvalidRange', 'The requested range is not satisfiable', 416);
    return { status: 206, headers: { ...headers, 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${data.length}` }, body: data.subarray(start, end + 1) };
  }

  private headObject(request: LocalRequest, bucket: string, key: string): LocalResponse {
    const object = this.store.headObject(bucket, key, request.search.get('versionId') ?? undefined);
    if (readPrecondition(request, object) === 304) return notModified(object);
    return { status: 200, headers: { ...objectHeaders(object), ...responseOverrides(request), ...checksumHeaders(request, object.checksum) } };
  }
}

/** What S3 answers a read whose copy the client already has: 304 with the validators, no body. */
function notModified(object: StoredObject): LocalResponse {
  return { status: 304, headers: { etag: object.etag, 'last-modified': new Date(object.lastModified).toUTCString() } };
}
