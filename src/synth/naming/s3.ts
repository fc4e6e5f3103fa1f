/** Logical ids of the `s3` event's buckets, permissions and existing-bucket custom resources. */
import { normalizeName, normalizeNameToAlphaNumericOnly } from './normalize';

/** `photos` → `S3BucketPhotos`; `my-bucket.v2` → `S3BucketMybucketv2` */
export const s3Bucket = (bucket: string) => `S3Bucket${normalizeNameToAlphaNumericOnly(bucket)}`;
export const s3Permission = (fn: string, bucket: string) => `${normalizeName(fn)}LambdaPermission${normalizeNameToAlphaNumericOnly(bucket)}S3`;
/** The custom resource that configures an existing bucket's notifications: `UsersCustomS31`. */
export const s3CustomResource = (fn: string, index: number) => `${normalizeName(fn)}CustomS3${index}`;
