import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { ANY_LOCAL_CREDENTIALS } from '../../src/local/access/credentials';
import { signedLocalFetch } from '../../src/local/access/sign';
import { failure, startTestCloud, type TestCloud } from './helpers';

const objects = suite<{ t: TestCloud }>('local S3: conditional requests, response overrides, part sizes and checksums');

objects.before(async (context) => {
  context.t = await startTestCloud();
  await context.t.s3.send(new CreateBucketCommand({ Bucket: 'reads' }));
});
objects.after(async (context) => {
  await context.t.stop();
});

const read = async (t: TestCloud, Key: string) => (await t.s3.send(new GetObjectCommand({ Bucket: 'reads', Key }))).Body!.transformToString();

objects('conditional reads answer 304 and 412 as S3 does; If-None-Match: * refuses to overwrite', async ({ t }) => {
  const { ETag } = await t.s3.send(new PutObjectCommand({ Bucket: 'reads', Key: 'cond.txt', Body: 'v1' }));
  const notModified = await failure(t.s3.send(new GetObjectCommand({ Bucket: 'reads', Key: 'cond.txt', IfNoneMatch: ETag })));
  assert.is(notModified!.$metadata!.httpStatusCode, 304);
  const failed = await failure(t.s3.send(new GetObjectCommand({ Bucket: 'reads', Key: 'cond.txt', IfMatch: '"0123"' })));
  assert.equal([failed!.name, failed!.$metadata!.httpStatusCode], ['PreconditionFailed', 412]);
  const headFailed = await failure(t.s3.send(new HeadObjectCommand({ Bucket: 'reads', Key: 'cond.txt', IfMatch: '"0123"' })));
  assert.is(headFailed!.$metadata!.httpStatusCode, 412);
  assert.is(await (await t.s3.send(new GetObjectCommand({ Bucket: 'reads', Key: 'cond.txt', IfMatch: ETag }))).Body!.transformToString(), 'v1');
  const future = new Date(Date.now() + 60_000);
  const past = new Date(Date.now() - 3_600_000);
  assert.is((await failure(t.s3.send(new GetObjectCommand({ Bucket: 'reads', Key: 'cond.txt', IfModifiedSince: future }))))!.$metadata!.httpStatusCode, 304);
  assert.is((await failure(t.s3.send(new GetObjectCommand({ Bucket: 'reads', Key: 'cond.txt', IfUnmodifiedSince: past }))))!.$metadata!.httpStatusCode, 412);
  assert.is(await (await t.s3.send(new GetObjectCommand({ Bucket: 'reads', Key: 'cond.txt', IfModifiedSince: past }))).Body!.transformToString(), 'v1');

  const overwrite = await failure(t.s3.send(new PutObjectCommand({ Bucket: 'reads', Key: 'cond.txt', Body: 'v2', IfNoneMatch: '*' })));
  assert.equal([overwrite!.name, overwrite!.$metadata!.httpStatusCode], ['PreconditionFailed', 412]);
  await t.s3.send(new PutObjectCommand({ Bucket: 'reads', Key: 'cond-new.txt', Body: 'first', IfNoneMatch: '*' }));
  const staleWrite = await failure(t.s3.send(new PutObjectCommand({ Bucket: 'reads', Key: 'cond.txt', Body: 'v2', IfMatch: '"0123"' })));
  assert.is(staleWrite!.name, 'PreconditionFailed');
  await t.s3.send(new PutObjectCommand({ Bucket: 'reads', Key: 'cond.txt', Body: 'v2', IfMatch: ETag }));
  assert.equal([await read(t, 'cond.txt'), await read(t, 'cond-new.txt')], ['v2', 'first']);
});

objects('response-* overrides set the headers of one GetObject; representation headers from the upload are kept', async ({ t }) => {
  await t.s3.send(new PutObjectCommand({ Bucket: 'reads', Key: 'report.csv', Body: 'a,b', ContentType: 'text/csv', CacheControl: 'max-age=60', ContentLanguage: 'en' }));
  const plain = await t.s3.send(new GetObjectCommand({ Bucket: 'reads', Key: 'report.csv' }));
  assert.equal([plain.ContentType, plain.CacheControl, plain.ContentLanguage, plain.ContentDisposition], ['text/csv', 'max-age=60', 'en', undefined]);
  const overridden = await t.s3.send(
    new GetObjectCommand({ Bucket: 'reads', Key: 'report.csv', ResponseContentDisposition: 'attachment; filename="r.csv"', ResponseContentType: 'application/octet-stream', ResponseCacheControl: 'no-store' }),
  );
  assert.equal([overridden.ContentDisposition, overridden.ContentType, overridden.CacheControl], ['attachment; filename="r.csv"', 'application/octet-stream', 'no-store']);
});

objects('a multipart part under 5 MiB but the last fails completion with EntityTooSmall', async ({ t }) => {
  const { UploadId } = await t.s3.send(new CreateMultipartUploadCommand({ Bucket: 'reads', Key: 'small-parts.bin' }));
  const parts = [];
  for (const [PartNumber, Body] of [[1, 'tiny'], [2, 'end']] as const) {
    parts.push({ PartNumber, ETag: (await t.s3.send(new UploadPartCommand({ Bucket: 'reads', Key: 'small-parts.bin', UploadId, PartNumber, Body }))).ETag });
  }
  const refused = await failure(t.s3.send(new CompleteMultipartUploadCommand({ Bucket: 'reads', Key: 'small-parts.bin', UploadId, MultipartUpload: { Parts: parts } })));
  assert.equal([refused!.name, refused!.message, refused!.$metadata!.httpStatusCode], ['EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.', 400]);
  assert.is((await failure(t.s3.send(new HeadObjectCommand({ Bucket: 'reads', Key: 'small-parts.bin' }))))!.name, 'NotFound');
});

objects('the CRC32 SDK v3 sends by default (header or aws-chunked trailer) and a chosen SHA256 are checked, kept and answered back', async ({ t }) => {
  const body = Buffer.from('checked bytes');
  const sha256 = createHash('sha256').update(body).digest('base64');
  const put = await t.s3.send(new PutObjectCommand({ Bucket: 'reads', Key: 'crc.txt', Body: body }));
  assert.match(put.ChecksumCRC32!, /^[A-Za-z0-9+/]{6}==$/);
  const streamed = await t.s3.send(new PutObjectCommand({ Bucket: 'reads', Key: 'streamed.txt', Body: Readable.from([body]), ContentLength: body.length }));
  assert.is(streamed.ChecksumCRC32, put.ChecksumCRC32);
  const chosen = await t.s3.send(new PutObjectCommand({ Bucket: 'reads', Key: 'sha.txt', Body: body, ChecksumAlgorithm: 'SHA256' }));
  assert.is(chosen.ChecksumSHA256, sha256);
  const got = await t.s3.send(new GetObjectCommand({ Bucket: 'reads', Key: 'sha.txt', ChecksumMode: 'ENABLED' }));
  assert.equal([got.ChecksumSHA256, await got.Body!.transformToString()], [sha256, 'checked bytes']);
  assert.is((await t.s3.send(new HeadObjectCommand({ Bucket: 'reads', Key: 'crc.txt', ChecksumMode: 'ENABLED' }))).ChecksumCRC32, put.ChecksumCRC32);

  // A body that does not match its checksum (corrupted on the way) is refused, and nothing is stored.
  const corrupted = await signedLocalFetch(`${t.cloud.url}/reads/corrupt.txt`, { method: 'PUT', headers: { 'x-amz-checksum-sha256': sha256 }, body: 'other bytes' }, ANY_LOCAL_CREDENTIALS);
  assert.is(corrupted.status, 400);
  assert.match(await corrupted.text(), /<Code>BadDigest<\/Code><Message>The SHA256 you specified did not match the calculated checksum.<\/Message>/);
  assert.is((await failure(t.s3.send(new HeadObjectCommand({ Bucket: 'reads', Key: 'corrupt.txt' }))))!.name, 'NotFound');
});

objects.run();
