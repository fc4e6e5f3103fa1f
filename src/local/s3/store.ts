import type { CorsRule } from './cors';
import type { Tag } from './tagging';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AwsError } from '../aws/errors';
import { makePrivateDir, readJson, writeFileAtomic, writeJsonAtomic } from '../state/files';

export interface StoredObject {
  key: string;
  size: number;
  etag: string;
  lastModified: string;
  contentType?: string;
  metadata: Record<string, string>;
  /** The `x-amz-server-side-encryption*` headers it was written with (recorded: the bytes are stored as sent). */
  encryption?: Record<string, string>;
  /** Content-Disposition, Cache-Control and the other representation headers it was written with, answered on reads. */
  headers?: Record<string, string>;
  /** Its tag set (PutObjectTagging, `x-amz-tagging`). */
  tags?: Tag[];
  /** The additional checksum it was written with (`ChecksumAlgorithm` header name and base64 value). */
  checksum?: { header: string; value: string };
  /** File name of the bytes under the blob folder. */
  blob: string;
}

export interface ObjectOptions {
  contentType?: string;
  metadata?: Record<string, string>;
  etag?: string;
  encryption?: Record<string, string>;
  headers?: Record<string, string>;
  tags?: Tag[];
  checksum?: { header: string; value: string };
}

export interface Bucket {
  name: string;
  created: string;
  region: string;
  /** Set once PutBucketVersioning suspended versioning (the only state the local cloud keeps). */
  versioning?: 'Suspended';
  /** PutBucketCors rules, which preflights and browser requests are answered from. */
  cors?: CorsRule[];
  objects: Record<string, StoredObject>;
  /** PutBucketTagging's tag set. */
  tags?: Tag[];
  /** Configurations kept as sent and answered back (policy, lifecycle, website, …), by subresource. */
  configurations?: Record<string, string>;
  /** Set by PutBucketNotificationConfiguration: the document as sent, and the function targets in it. */
  notification?: { xml: string; functions: FunctionNotification[] };
}

/** One `CloudFunctionConfiguration` of a bucket's notification configuration. */
export interface FunctionNotification {
  id?: string;
  functionArn: string;
  events: string[];
  /** `prefix` / `suffix` key filter rules. */
  rules: { name: string; value: string }[];
}

export type ObjectEvent = { kind: 'created' | 'removed'; bucket: string; object: StoredObject; region: string };

/**
 * Buckets and objects: metadata in one JSON file, bytes in one file per object
 * version, so a restart of the server sees everything uploaded before.
 */
export class S3Store {
  private readonly buckets: Record<string, Bucket>;
  private readonly indexFile: string;
  private readonly blobDir: string;
  /** Told about every object written or deleted (S3 notifications hang here). */
  onObjectEvent: (event: ObjectEvent) => void = () => {};

  constructor(dataDir: string) {
    this.indexFile = join(dataDir, 'state', 's3.json');
    this.blobDir = join(dataDir, 'blobs');
    makePrivateDir(this.blobDir);
    this.buckets = readJson<Record<string, Bucket>>(this.indexFile, {});
    // Keys are user data: a key named "__proto__" must stay a key.
    for (const bucket of Object.values(this.buckets)) bucket.objects = Object.assign(Object.create(null), bucket.objects);
  }

  private save(): void {
    writeJsonAtomic(this.indexFile, this.buckets);
  }

  listBuckets(): Bucket[] {
    return Object.values(this.buckets).sort((a, b) => a.name.localeCompare(b.name));
  }

  hasBucket(name: string): boolean {
    return Object.hasOwn(this.buckets, name);
  }

  bucket(name: string): Bucket {
    if (!this.hasBucket(name)) {
      throw new AwsError('NoSuchBucket', 'The specified bucket does not exist', 404, { BucketName: name });
    }
    return this.buckets[name];
  }

  createBucket(name: string, region: string): void {
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name)) {
      throw new AwsError('InvalidBucketName', 'The specified bucket is not valid.', 400, { BucketName: name });
    }
    if (this.hasBucket(name)) {
      throw new AwsError('BucketAlreadyOwnedByYou', 'Your previous request to create the named bucket succeeded and you already own it.', 409, { BucketName: name });
    }
    this.buckets[name] = { name, created: new Date().toISOString(), region, objects: Object.create(null) };
    this.save();
  }

  setCors(name: string, rules: CorsRule[] | undefined): void {
    this.bucket(name).cors = rules;
    this.save();
  }

  setBucketTags(name: string, tags: Tag[] | undefined): void {
    this.bucket(name).tags = tags;
    this.save();
  }

  setConfiguration(name: string, subresource: string, document: string | undefined): void {
    const bucket = this.bucket(name);
    const configurations = { ...bucket.configurations };
    if (document === undefined) delete configurations[subresource];
    else configurations[subresource] = document;
    bucket.configurations = configurations;
    this.save();
  }

  setObjectTags(bucketName: string, key: string, tags: Tag[]): StoredObject {
    const object = this.headObject(bucketName, key);
    if (tags.length) object.tags = tags;
    else delete object.tags;
    this.save();
    return object;
  }

  setVersioning(name: string, status: 'Suspended'): void {
    this.bucket(name).versioning = status;
    this.save();
  }

  setNotification(name: string, notification: Bucket['notification']): void {
    this.bucket(name).notification = notification;
    this.save();
  }

  deleteBucket(name: string, options: { force?: boolean } = {}): void {
    const bucket = this.bucket(name);
    if (Object.keys(bucket.objects).length > 0 && !options.force) {
      throw new AwsError('BucketNotEmpty', 'The bucket you tried to delete is not empty', 409, { BucketName: name });
    }
    for (const object of Object.values(bucket.objects)) this.removeBlob(object.blob);
    delete this.buckets[name];
    this.save();
  }

  putObject(bucketName: string, key: string, data: Buffer, options: ObjectOptions = {}): StoredObject {
    const bucket = this.bucket(bucketName);
    const blob = `${Date.now().toString(36)}-${randomBytes(8).toString('hex')}`;
    writeFileAtomic(join(this.blobDir, blob), data);
    const previous = bucket.objects[key];
    const object: StoredObject = {
      key,
      size: data.length,
      etag: options.etag ?? `"${createHash('md5').update(data).digest('hex')}"`,
      lastModified: new Date().toISOString(),
      contentType: options.contentType,
      metadata: options.metadata ?? {},
      ...(options.encryption && Object.keys(options.encryption).length > 0 ? { encryption: options.encryption } : {}),
      ...(options.headers && Object.keys(options.headers).length > 0 ? { headers: options.headers } : {}),
      ...(options.tags && options.tags.length > 0 ? { tags: options.tags } : {}),
      ...(options.checksum ? { checksum: options.checksum } : {}),
      blob,
    };
    bucket.objects[key] = object;
    this.save();
    if (previous) this.removeBlob(previous.blob);
    this.onObjectEvent({ kind: 'created', bucket: bucketName, object, region: bucket.region });
    return object;
  }

  /** The object under a key, if there is one (the bucket must exist). */
  findObject(bucketName: string, key: string): StoredObject | undefined {
    const objects = this.bucket(bucketName).objects;
    return Object.hasOwn(objects, key) ? objects[key] : undefined;
  }

  headObject(bucketName: string, key: string): StoredObject {
    const object = this.findObject(bucketName, key);
    if (!object) {
      throw new AwsError('NoSuchKey', 'The specified key does not exist.', 404, { Key: key });
    }
    return object;
  }

  readObject(bucketName: string, key: string): { object: StoredObject; data: Buffer } {
    const object = this.headObject(bucketName, key);
    return { object, data: readFileSync(join(this.blobDir, object.blob)) };
  }

  deleteObject(bucketName: string, key: string): void {
    const bucket = this.bucket(bucketName);
    const object = bucket.objects[key];
    if (!object || !Object.hasOwn(bucket.objects, key)) return;
    delete bucket.objects[key];
    this.save();
    this.removeBlob(object.blob);
    this.onObjectEvent({ kind: 'removed', bucket: bucketName, object, region: bucket.region });
  }

  /** Keys in the byte order S3 lists them. */
  sortedKeys(bucketName: string): string[] {
    return Object.keys(this.bucket(bucketName).objects).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }

  private removeBlob(blob: string): void {
    rmSync(join(this.blobDir, blob), { force: true });
  }
}
