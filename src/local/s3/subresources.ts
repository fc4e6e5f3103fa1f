import { AwsError } from '../protocol/errors';

/**
 * The query names that make an S3 request a subresource operation rather than the plain bucket or
 * object one (a request with `?tagging` is never a GetObject), with the operation each method names.
 * A subresource the local cloud does not serve is refused by name, never served as the plain operation.
 */
const BUCKET_SUBRESOURCES: Record<string, Partial<Record<string, string>>> = {
  accelerate: { GET: 'GetBucketAccelerateConfiguration', PUT: 'PutBucketAccelerateConfiguration' },
  acl: { GET: 'GetBucketAcl', PUT: 'PutBucketAcl' },
  analytics: { GET: 'GetBucketAnalyticsConfiguration', PUT: 'PutBucketAnalyticsConfiguration', DELETE: 'DeleteBucketAnalyticsConfiguration' },
  cors: { GET: 'GetBucketCors', PUT: 'PutBucketCors', DELETE: 'DeleteBucketCors' },
  delete: { POST: 'DeleteObjects' },
  encryption: { GET: 'GetBucketEncryption', PUT: 'PutBucketEncryption', DELETE: 'DeleteBucketEncryption' },
  'intelligent-tiering': { GET: 'GetBucketIntelligentTieringConfiguration', PUT: 'PutBucketIntelligentTieringConfiguration', DELETE: 'DeleteBucketIntelligentTieringConfiguration' },
  inventory: { GET: 'GetBucketInventoryConfiguration', PUT: 'PutBucketInventoryConfiguration', DELETE: 'DeleteBucketInventoryConfiguration' },
  lifecycle: { GET: 'GetBucketLifecycleConfiguration', PUT: 'PutBucketLifecycleConfiguration', DELETE: 'DeleteBucketLifecycle' },
  location: { GET: 'GetBucketLocation' },
  logging: { GET: 'GetBucketLogging', PUT: 'PutBucketLogging' },
  metadataTable: { GET: 'GetBucketMetadataTableConfiguration', POST: 'CreateBucketMetadataTableConfiguration', DELETE: 'DeleteBucketMetadataTableConfiguration' },
  metrics: { GET: 'GetBucketMetricsConfiguration', PUT: 'PutBucketMetricsConfiguration', DELETE: 'DeleteBucketMetricsConfiguration' },
  notification: { GET: 'GetBucketNotificationConfiguration', PUT: 'PutBucketNotificationConfiguration' },
  'object-lock': { GET: 'GetObjectLockConfiguration', PUT: 'PutObjectLockConfiguration' },
  ownershipControls: { GET: 'GetBucketOwnershipControls', PUT: 'PutBucketOwnershipControls', DELETE: 'DeleteBucketOwnershipControls' },
  policy: { GET: 'GetBucketPolicy', PUT: 'PutBucketPolicy', DELETE: 'DeleteBucketPolicy' },
  policyStatus: { GET: 'GetBucketPolicyStatus' },
  publicAccessBlock: { GET: 'GetPublicAccessBlock', PUT: 'PutPublicAccessBlock', DELETE: 'DeletePublicAccessBlock' },
  replication: { GET: 'GetBucketReplication', PUT: 'PutBucketReplication', DELETE: 'DeleteBucketReplication' },
  requestPayment: { GET: 'GetBucketRequestPayment', PUT: 'PutBucketRequestPayment' },
  session: { GET: 'CreateSession' },
  tagging: { GET: 'GetBucketTagging', PUT: 'PutBucketTagging', DELETE: 'DeleteBucketTagging' },
  uploads: { GET: 'ListMultipartUploads' },
  versioning: { GET: 'GetBucketVersioning', PUT: 'PutBucketVersioning' },
  versions: { GET: 'ListObjectVersions' },
  website: { GET: 'GetBucketWebsite', PUT: 'PutBucketWebsite', DELETE: 'DeleteBucketWebsite' },
};

const OBJECT_SUBRESOURCES: Record<string, Partial<Record<string, string>>> = {
  acl: { GET: 'GetObjectAcl', PUT: 'PutObjectAcl' },
  attributes: { GET: 'GetObjectAttributes' },
  'legal-hold': { GET: 'GetObjectLegalHold', PUT: 'PutObjectLegalHold' },
  restore: { POST: 'RestoreObject' },
  retention: { GET: 'GetObjectRetention', PUT: 'PutObjectRetention' },
  select: { POST: 'SelectObjectContent' },
  tagging: { GET: 'GetObjectTagging', PUT: 'PutObjectTagging', DELETE: 'DeleteObjectTagging' },
  torrent: { GET: 'GetObjectTorrent' },
  uploadId: { GET: 'ListParts', PUT: 'UploadPart', POST: 'CompleteMultipartUpload', DELETE: 'AbortMultipartUpload' },
  uploads: { POST: 'CreateMultipartUpload' },
};

/** The subresource a request names (the first S3 knows, in the table's order), if any. */
export function subresourceOf(search: URLSearchParams, target: 'bucket' | 'object'): string | undefined {
  const table = target === 'bucket' ? BUCKET_SUBRESOURCES : OBJECT_SUBRESOURCES;
  for (const name of search.keys()) if (Object.hasOwn(table, name)) return name;
  return undefined;
}

/** The S3 operation a method on a subresource is (`GET ?tagging` on an object is GetObjectTagging). */
export function operationName(method: string, subresource: string, target: 'bucket' | 'object'): string {
  const table = target === 'bucket' ? BUCKET_SUBRESOURCES : OBJECT_SUBRESOURCES;
  return table[subresource]?.[method] ?? `${method} ?${subresource} on ${target === 'bucket' ? 'a bucket' : 'an object'}`;
}

/** Whether S3 has an operation for a method on a subresource (DELETE ?logging it has not). */
export function hasOperation(method: string, subresource: string, target: 'bucket' | 'object'): boolean {
  return Boolean((target === 'bucket' ? BUCKET_SUBRESOURCES : OBJECT_SUBRESOURCES)[subresource]?.[method]);
}

/** What S3 answers a method a subresource has no operation for, and what the local cloud answers one it does not serve. */
export function unservedSubresource(method: string, subresource: string, target: 'bucket' | 'object', why?: string): AwsError {
  const table = target === 'bucket' ? BUCKET_SUBRESOURCES : OBJECT_SUBRESOURCES;
  if (!table[subresource]?.[method]) return new AwsError('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405, { Method: method, ResourceType: subresource.toUpperCase() });
  return new AwsError('NotImplemented', `not emulated: ${operationName(method, subresource, target)}${why ? ` (${why})` : ''}`, 501);
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const S3_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';

/**
 * Bucket configurations the local cloud keeps as sent and answers back, without acting on them
 * (nothing here enforces a policy, expires objects, serves a website, writes access logs or
 * replicates), and what S3 answers when there is none: an error, or the bucket's default document
 * (what infrastructure tools read of every bucket: logging off, no acceleration, the owner pays,
 * SSE-S3 encryption).
 */
export const KEPT_CONFIGURATIONS: Record<string, { root: string; missing?: () => AwsError; fallback?: string }> = {
  policy: { root: '{', missing: () => new AwsError('NoSuchBucketPolicy', 'The bucket policy does not exist', 404) },
  lifecycle: { root: 'LifecycleConfiguration', missing: () => new AwsError('NoSuchLifecycleConfiguration', 'The lifecycle configuration does not exist', 404) },
  website: { root: 'WebsiteConfiguration', missing: () => new AwsError('NoSuchWebsiteConfiguration', 'The specified bucket does not have a website configuration', 404) },
  publicAccessBlock: { root: 'PublicAccessBlockConfiguration', missing: () => new AwsError('NoSuchPublicAccessBlockConfiguration', 'The public access block configuration was not found', 404) },
  ownershipControls: { root: 'OwnershipControls', missing: () => new AwsError('OwnershipControlsNotFoundError', 'The bucket ownership controls were not found', 404) },
  // S3 encrypts every bucket with SSE-S3 unless told otherwise (since January 2023).
  encryption: {
    root: 'ServerSideEncryptionConfiguration',
    fallback: `${XML_HEAD}<ServerSideEncryptionConfiguration xmlns="${S3_NAMESPACE}"><Rule><ApplyServerSideEncryptionByDefault><SSEAlgorithm>AES256</SSEAlgorithm></ApplyServerSideEncryptionByDefault><BucketKeyEnabled>false</BucketKeyEnabled></Rule></ServerSideEncryptionConfiguration>`,
  },
  logging: { root: 'BucketLoggingStatus', fallback: `${XML_HEAD}<BucketLoggingStatus xmlns="${S3_NAMESPACE}"/>` },
  accelerate: { root: 'AccelerateConfiguration', fallback: `${XML_HEAD}<AccelerateConfiguration xmlns="${S3_NAMESPACE}"/>` },
  requestPayment: { root: 'RequestPaymentConfiguration', fallback: `${XML_HEAD}<RequestPaymentConfiguration xmlns="${S3_NAMESPACE}"><Payer>BucketOwner</Payer></RequestPaymentConfiguration>` },
  'object-lock': { root: 'ObjectLockConfiguration', missing: () => new AwsError('ObjectLockConfigurationNotFoundError', 'Object Lock configuration does not exist for this bucket', 404) },
  replication: { root: 'ReplicationConfiguration', missing: () => new AwsError('ReplicationConfigurationNotFoundError', 'The replication configuration was not found', 404) },
};

/** Refuses a configuration document S3 would refuse for its shape: policies must be JSON objects, the rest XML with the right root. */
export function checkConfiguration(subresource: string, body: string): void {
  const { root } = KEPT_CONFIGURATIONS[subresource];
  if (root === '{') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    if (!body.trimStart().startsWith('{') || parsed === null || typeof parsed !== 'object') {
      throw new AwsError('MalformedPolicy', "Policies must be valid JSON and the first byte must be '{'", 400);
    }
    return;
  }
  if (!new RegExp(`<${root}[\\s>][\\s\\S]*</${root}>\\s*$|<${root}(\\s[^>]*)?/>\\s*$`).test(body)) {
    throw new AwsError('MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema', 400);
  }
}
