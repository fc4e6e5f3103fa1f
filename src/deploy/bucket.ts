import { createReadStream, readFileSync, statSync } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import type { AwsClients } from '../aws/clients';
import type { UploadEncryption } from '../package/stack-settings';

/** One deployment's folder in the bucket: `{prefix}/{service}/{stage}/{timestamp}-{iso}/`. */
export interface DeploymentFolder {
  folder: string;
  timestamp: number;
}

export async function listKeys(clients: AwsClients, bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await clients.s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/** Deployment folders under the service's prefix, oldest first. */
export async function listDeployments(clients: AwsClients, bucket: string, servicePrefix: string): Promise<DeploymentFolder[]> {
  return deploymentFolders(await listKeys(clients, bucket, `${servicePrefix}/`), servicePrefix);
}

/** The deployment folders among `keys` (a listing of the service's prefix), oldest first. */
export function deploymentFolders(keys: string[], servicePrefix: string): DeploymentFolder[] {
  const folders = new Map<string, number>();
  for (const key of keys) {
    const name = key.slice(servicePrefix.length + 1).split('/')[0];
    const timestamp = Number(/^(\d+)-/.exec(name)?.[1]);
    if (Number.isFinite(timestamp)) folders.set(`${servicePrefix}/${name}`, timestamp);
  }
  return [...folders].map(([folder, timestamp]) => ({ folder, timestamp })).sort((a, b) => a.timestamp - b.timestamp);
}

export async function readJson<T>(clients: AwsClients, bucket: string, key: string): Promise<T | undefined> {
  try {
    const object = await clients.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return JSON.parse(await object.Body!.transformToString()) as T;
  } catch {
    return undefined;
  }
}

export interface Upload {
  key: string;
  /** A file on disk, or the text itself. */
  file?: string;
  body?: string;
  sha256: string;
}

/** Files from this size up are streamed to S3 with their bytes counted, so upload progress moves within them. */
export const STREAMED_UPLOAD_BYTES = 8 * 1024 * 1024;

/** A file as a stream that reports each chunk's size as the request reads it. */
function countedStream(file: string, read: (bytes: number) => void): Readable {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      read(chunk.length);
      callback(null, chunk);
    },
  });
  return createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(counter);
}

/**
 * Uploads in parallel (a few at a time), each with its sha256 as metadata and the encryption
 * `provider.deploymentBucket` asks for (`uploadEncryption`); returns how many went up.
 */
export async function uploadAll(
  clients: AwsClients,
  bucket: string,
  uploads: Upload[],
  encryption: UploadEncryption = {},
  concurrency = 4,
  onProgress?: (doneBytes: number, totalBytes: number) => void,
): Promise<number> {
  // Each size once (a stat per file): the total and each upload's progress and length use it.
  const sizes = new Map(uploads.map((upload) => [upload, upload.file ? statSync(upload.file).size : Buffer.byteLength(upload.body ?? '')]));
  const queue = [...uploads];
  const total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  let done = 0;
  onProgress?.(0, total);
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const contentType = next.key.endsWith('.json') ? 'application/json' : 'application/zip';
      const size = sizes.get(next)!;
      // A large file is streamed, its bytes counted as the request takes them: progress moves within it.
      const streamed = onProgress !== undefined && next.file !== undefined && size >= STREAMED_UPLOAD_BYTES;
      const body = streamed ? countedStream(next.file!, (bytes) => onProgress!((done += bytes), total)) : next.file ? readFileSync(next.file) : Buffer.from(next.body ?? '');
      await clients.s3.send(
        new PutObjectCommand({ Bucket: bucket, Key: next.key, Body: body, ...(streamed ? { ContentLength: size } : {}), Metadata: { filesha256: next.sha256 }, ContentType: contentType, ...encryption }),
      );
      if (!streamed) {
        done += size;
        onProgress?.(done, total);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, uploads.length) }, worker));
  return uploads.length;
}

/** Deletes every object (every version, where the bucket keeps versions) under a prefix, a page at a time. */
export async function deletePrefix(clients: AwsClients, bucket: string, prefix: string): Promise<number> {
  let deleted = 0;
  let versioned = true;
  let keyMarker: string | undefined;
  let versionMarker: string | undefined;
  do {
    let objects: Array<{ Key: string; VersionId?: string }> = [];
    let more = false;
    if (versioned) {
      try {
        const page = await clients.s3.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: prefix, KeyMarker: keyMarker, VersionIdMarker: versionMarker }));
        objects = [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])].map(v => ({ Key: v.Key!, VersionId: v.VersionId }));
        more = Boolean(page.IsTruncated);
        keyMarker = page.NextKeyMarker;
        versionMarker = page.NextVersionIdMarker;
      } catch {
        versioned = false; // an endpoint without versioning support: plain listing below
        continue;
      }
    } else {
      const page = await clients.s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      objects = (page.Contents ?? []).map(o => ({ Key: o.Key! }));
      more = Boolean(page.IsTruncated);
    }
    for (let i = 0; i < objects.length; i += 1000) {
      const batch = objects.slice(i, i + 1000);
      await clients.s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch, Quiet: true } }));
      deleted += batch.length;
    }
    if (!more) break;
  } while (true);
  return deleted;
}
