import { randomUUID } from 'node:crypto';
import { AwsError } from '../aws/errors';

interface Upload {
  bucket: string;
  key: string;
  contentType?: string;
  metadata: Record<string, string>;
  parts: Map<number, Buffer>;
}

/**
 * Multipart uploads in progress (what the AWS CLI uses above 8 MB). Parts stay
 * in memory until completed: an upload cut off by a restart starts again, as
 * a client retrying would.
 */
export class MultipartUploads {
  private readonly uploads = new Map<string, Upload>();

  start(bucket: string, key: string, contentType: string | undefined, metadata: Record<string, string>): string {
    const id = randomUUID().replace(/-/g, '');
    this.uploads.set(id, { bucket, key, contentType, metadata, parts: new Map() });
    return id;
  }

  private get(id: string, bucket: string, key: string): Upload {
    const upload = this.uploads.get(id);
    if (!upload || upload.bucket !== bucket || upload.key !== key) {
      throw new AwsError('NoSuchUpload', 'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.', 404, { UploadId: id });
    }
    return upload;
  }

  putPart(id: string, bucket: string, key: string, partNumber: number, data: Buffer): void {
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) {
      throw new AwsError('InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive', 400);
    }
    this.get(id, bucket, key).parts.set(partNumber, data);
  }

  /** The whole object from the parts the client lists, in that order. */
  complete(id: string, bucket: string, key: string, partNumbers: number[]): Omit<Upload, 'parts'> & { data: Buffer } {
    const upload = this.get(id, bucket, key);
    const chunks = partNumbers.map((number) => {
      const part = upload.parts.get(number);
      if (!part) throw new AwsError('InvalidPart', 'One or more of the specified parts could not be found.', 400);
      return part;
    });
    this.uploads.delete(id);
    return { bucket, key, contentType: upload.contentType, metadata: upload.metadata, data: Buffer.concat(chunks) };
  }

  abort(id: string, bucket: string, key: string): void {
    this.get(id, bucket, key);
    this.uploads.delete(id);
  }
}
