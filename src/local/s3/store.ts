import type { CorsRule } from './cors';
import type { Tag } from './tagging';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
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
  /** Its version (a bucket with versioning Enabled or Suspended); objects written before versioning are version "null". */
  versionId?: string;
  /** A delete marker: a version that says the key was deleted (no bytes). */
  deleteMarker?: true;
  /** File name of the bytes under the blob folder. */
  blob: string;
}

/** What a delete did: the version it made (a delete marker) or removed. */
export interface Deleted {
  versionId?: string;
  deleteMarker?: boolean;
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
  /** Set by PutBucketVersioning; a bucket never versioned keeps one version of each key. */
  versioning?: 'Enabled' | 'Suspended';
  /** Every version of the keys written since versioning was first set, newest first, delete markers included. */
  versions?: Record<string, StoredObject[]>;
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

  setVersioning(name: string, status: 'Enabled' | 'Suspended'): void {
    this.bucket(name).versioning = status;
    this.save();
  }

  setNotification(name: string, notification: Bucket['notification']): void {
    this.bucket(name).notification = notification;
    this.save();
  }

  deleteBucket(name: string, options: { force?: boolean } = {}): void {
    const bucket = this.bucket(name);
    const versions = Object.values(bucket.versions ?? {}).flat();
    // As in S3, a versioned bucket is empty only when every version and delete marker is gone.
    if ((Object.keys(bucket.objects).length > 0 || versions.length > 0) && !options.force) {
      throw new AwsError('BucketNotEmpty', 'The bucket you tried to delete is not empty', 409, { BucketName: name });
    }
    for (const object of [...Object.values(bucket.objects), ...versions]) this.removeBlob(object.blob);
    delete this.buckets[name];
    this.save();
  }

  putObject(bucketName: string, key: string, data: Buffer, options: ObjectOptions = {}): StoredObject {
    const bucket = this.bucket(bucketName);
    const blob = `${Date.now().toString(36)}-${randomBytes(8).toString('hex')}`;
    writeFileAtomic(join(this.blobDir, blob), data);
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
      ...(bucket.versioning ? { versionId: newVersionId(bucket) } : {}),
      blob,
    };
    this.change(bucket, key, object, bucket.versioning ? [object, ...this.history(bucket, key)] : [object], [blob]);
    this.onObjectEvent({ kind: 'created', bucket: bucketName, object, region: bucket.region });
    return object;
  }

  /** Every version of a key, newest first (one version "null" for an object written before versioning). */
  history(bucket: Bucket, key: string): StoredObject[] {
    if (bucket.versions && Object.hasOwn(bucket.versions, key)) return bucket.versions[key];
    return Object.hasOwn(bucket.objects, key) ? [bucket.objects[key]] : [];
  }

  /** Keys with versions (current or not), in the byte order S3 lists them. */
  versionedKeys(bucketName: string): string[] {
    const bucket = this.bucket(bucketName);
    const keys = new Set([...Object.keys(bucket.objects), ...Object.keys(bucket.versions ?? {})]);
    return [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }

  /**
   * Makes `versions` (newest first) a key's history and its first version, unless a delete marker,
   * its current object; saved before anything is removed, and undone when the disk refuses it.
   * A version "null" met twice (Suspended) keeps only the newer; blobs no version holds are removed.
   */
  private change(bucket: Bucket, key: string, current: StoredObject | undefined, versions: StoredObject[], newBlobs: string[] = []): void {
    const before = { object: Object.hasOwn(bucket.objects, key) ? bucket.objects[key] : undefined, versions: bucket.versions?.[key], had: this.history(bucket, key) };
    let seenNull = false;
    const kept = versions.filter((version) => {
      if ((version.versionId ?? 'null') !== 'null') return true;
      if (seenNull) return false;
      return (seenNull = true);
    });
    if (current) bucket.objects[key] = current;
    else delete bucket.objects[key];
    if (bucket.versioning || bucket.versions) {
      bucket.versions = Object.assign(Object.create(null), bucket.versions);
      if (kept.length) bucket.versions![key] = kept;
      else delete bucket.versions![key];
    }
    try {
      this.save();
    } catch (error) {
      if (before.object) bucket.objects[key] = before.object;
      else delete bucket.objects[key];
      if (before.versions) bucket.versions![key] = before.versions;
      else if (bucket.versions) delete bucket.versions[key];
      for (const blob of newBlobs) this.removeBlob(blob);
      throw error;
    }
    const still = new Set(kept.map((version) => version.blob));
    for (const old of before.had) if (old.blob && !still.has(old.blob)) this.removeBlob(old.blob);
  }
  /** The object under a key, if there is one (the bucket must exist). */
  findObject(bucketName: string, key: string): StoredObject | undefined {
    const objects = this.bucket(bucketName).objects;
    return Object.hasOwn(objects, key) ? objects[key] : undefined;
  }

  headObject(bucketName: string, key: string, versionId?: string): StoredObject {
    if (versionId !== undefined) {
      const version = this.history(this.bucket(bucketName), key).find((candidate) => (candidate.versionId ?? 'null') === versionId);
      if (!version) throw new AwsError('NoSuchVersion', 'The specified version does not exist.', 404, { Key: key, VersionId: versionId });
      if (version.deleteMarker) throw new AwsError('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405, { ResourceType: 'DeleteMarker' });
      return version;
    }
    const object = this.findObject(bucketName, key);
    if (!object) {
      throw new AwsError('NoSuchKey', 'The specified key does not exist.', 404, { Key: key });
    }
    return object;
  }

  readObject(bucketName: string, key: string, versionId?: string): { object: StoredObject; data: Buffer } {
    const object = this.headObject(bucketName, key, versionId);
    return { object, data: readFileSync(join(this.blobDir, object.blob)) };
  }

  /**
   * DeleteObject: without a version, the object goes (a never-versioned bucket) or a delete marker
   * becomes the current version (Enabled; version "null" when Suspended); with one, that version goes.
   */
  deleteObject(bucketName: string, key: string, versionId?: string): Deleted {
    const bucket = this.bucket(bucketName);
    const current = this.findObject(bucketName, key);
    const history = this.history(bucket, key);
    if (versionId !== undefined) {
      const version = history.find((candidate) => (candidate.versionId ?? 'null') === versionId);
      if (!version) return { versionId };
      const rest = history.filter((candidate) => candidate !== version);
      this.change(bucket, key, rest[0] && !rest[0].deleteMarker ? rest[0] : undefined, rest);
      if (version === current) this.onObjectEvent({ kind: 'removed', bucket: bucketName, object: version, region: bucket.region });
      return { versionId, ...(version.deleteMarker ? { deleteMarker: true } : {}) };
    }
    if (!bucket.versioning) {
      if (!current) return {};
      this.change(bucket, key, undefined, []);
      this.onObjectEvent({ kind: 'removed', bucket: bucketName, object: current, region: bucket.region });
      return {};
    }
    const marker: StoredObject = { key, size: 0, etag: '', lastModified: new Date().toISOString(), metadata: {}, versionId: newVersionId(bucket), deleteMarker: true, blob: '' };
    this.change(bucket, key, undefined, [marker, ...history]);
    if (current) this.onObjectEvent({ kind: 'removed', bucket: bucketName, object: current, region: bucket.region });
    return { versionId: marker.versionId, deleteMarker: true };
  }

  /** Keys in the byte order S3 lists them. */
  sortedKeys(bucketName: string): string[] {
    return Object.keys(this.bucket(bucketName).objects).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }

  private removeBlob(blob: string): void {
    if (blob) rmSync(join(this.blobDir, blob), { force: true });
  }
}

/** S3's version ids are opaque 32-character strings; "null" is the version of a Suspended bucket. */
function newVersionId(bucket: Bucket): string {
  return bucket.versioning === 'Enabled' ? randomBytes(24).toString('base64url') : 'null';
}
