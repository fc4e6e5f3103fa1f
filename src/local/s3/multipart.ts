import { createHash, randomUUID } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import type { ObjectOptions } from './store';

export interface Part {
  data: Buffer;
  /** The quoted hex MD5 of the part, as UploadPart answers it. */
  etag: string;
  lastModified: string;
}

interface Upload {
  id: string;
  bucket: string;
  key: string;
  contentType?: string;
  metadata: Record<string, string>;
  initiated: string;
  parts: Map<number, Part>;
  /** What the completed object keeps from CreateMultipartUpload besides type and metadata (tags, representation headers). */
  options: Pick<ObjectOptions, 'headers' | 'tags' | 'encryption'>;
}

/** S3's smallest part, except the last: 5 MiB. */
export const MIN_PART_SIZE = 5 * 1024 * 1024;

/**
 * Multipart uploads in progress (what the AWS CLI uses above 8 MB). Parts stay
 * in memory until completed: an upload cut off by a restart starts again, as
 * a client retrying would.
 */
export class MultipartUploads {
  private readonly uploads = new Map<string, Upload>();

  start(bucket: string, key: string, contentType: string | undefined, metadata: Record<string, string>, options: Upload['options'] = {}): string {
    const id = randomUUID().replace(/-/g, '');
    this.uploads.set(id, { id, bucket, key, contentType, metadata, initiated: new Date().toISOString(), parts: new Map(), options });
    return id;
  }

  /** A bucket's uploads in progress, by key then start time (ListMultipartUploads). */
  list(bucket: string): Upload[] {
    return [...this.uploads.values()].filter((upload) => upload.bucket === bucket).sort((a, b) => (a.key === b.key ? a.initiated.localeCompare(b.initiated) : Buffer.compare(Buffer.from(a.key), Buffer.from(b.key))));
  }

  private get(id: string, bucket: string, key: string): Upload {
    const upload = this.uploads.get(id);
    if (!upload || upload.bucket !== bucket || upload.key !== key) {
      throw new AwsError('NoSuchUpload', 'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.', 404, { UploadId: id });
    }
    return upload;
  }

  putPart(id: string, bucket: string, key: string, partNumber: number, data: Buffer): Part {
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) {
      throw new AwsError('InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive', 400);
    }
    const part = { data, etag: `"${createHash('md5').update(data).digest('hex')}"`, lastModified: new Date().toISOString() };
    this.get(id, bucket, key).parts.set(partNumber, part);
    return part;
  }

  /** The parts uploaded so far, by part number (ListParts). */
  parts(id: string, bucket: string, key: string): { initiated: string; parts: [number, Part][] } {
    const upload = this.get(id, bucket, key);
    return { initiated: upload.initiated, parts: [...upload.parts.entries()].sort(([a], [b]) => a - b) };
  }

  /**
   * The whole object from the parts the client lists, in that order, and S3's multipart
   * ETag: the MD5 of the parts' binary MD5s, then `-` and the number of parts.
   */
  complete(id: string, bucket: string, key: string, partNumbers: number[]): Omit<Upload, 'parts' | 'initiated' | 'id'> & { data: Buffer; etag: string } {
    const upload = this.get(id, bucket, key);
    if (partNumbers.some((number, index) => index > 0 && number <= partNumbers[index - 1])) {
      throw new AwsError('InvalidPartOrder', 'The list of parts was not in ascending order. The parts list must be specified in order by part number.', 400);
    }
    const parts = partNumbers.map((number) => {
      const part = upload.parts.get(number);
      if (!part) throw new AwsError('InvalidPart', 'One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not match the part\'s entity tag.', 400);
      return part;
    });
    // Every part but the last must be at least 5 MiB (S3 checks on completion, not on upload).
    const small = parts.findIndex((part, index) => index < parts.length - 1 && part.data.length < MIN_PART_SIZE);
    if (small !== -1) {
      throw new AwsError('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.', 400, {
        ProposedSize: String(parts[small].data.length),
        MinSizeAllowed: String(MIN_PART_SIZE),
        PartNumber: String(partNumbers[small]),
        ETag: parts[small].etag.slice(1, -1),
      });
    }
    this.uploads.delete(id);
    const digests = Buffer.concat(parts.map((part) => Buffer.from(part.etag.slice(1, -1), 'hex')));
    const etag = `"${createHash('md5').update(digests).digest('hex')}-${parts.length}"`;
    return { bucket, key, contentType: upload.contentType, metadata: upload.metadata, options: upload.options, data: Buffer.concat(parts.map((part) => part.data)), etag };
  }

  abort(id: string, bucket: string, key: string): void {
    this.get(id, bucket, key);
    this.uploads.delete(id);
  }
}
