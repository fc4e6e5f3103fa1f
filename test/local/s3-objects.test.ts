import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  GetBucketVersioningCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  GetObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { failure, startTestCloud, type TestCloud } from './helpers';

const objects = suite<{ t: TestCloud }>('local S3: bucket lists, literal keys, multipart parts and versioning');

objects.before(async (context) => {
  context.t = await startTestCloud();
  for (const Bucket of ['one', 'two', 'three']) await context.t.s3.send(new CreateBucketCommand({ Bucket }));
});
objects.after(async (context) => {
  await context.t.stop();
});

const md5 = (data: Buffer | string) => createHash('md5').update(data).digest();

objects('ListBuckets lists several buckets in one Buckets element', async ({ t }) => {
  const { Buckets } = await t.s3.send(new ListBucketsCommand({}));
  assert.equal(Buckets!.map((bucket) => [bucket.Name, bucket.CreationDate instanceof Date]), [['one', true], ['three', true], ['two', true]]);
});

objects('aws s3 ls lists the buckets (when the AWS CLI is installed)', async ({ t }) => {
  if (spawnSync('aws', ['--version'], { stdio: 'ignore' }).status !== 0) {
    console.log('  the AWS CLI is not installed: ListBuckets is checked through the SDK only');
    return;
  }
  const env = { ...process.env, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_DEFAULT_REGION: 'us-east-1', AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null', AWS_EC2_METADATA_DISABLED: 'true' };
  // Not spawnSync: the local cloud answers from this process's event loop.
  const listed = await new Promise<{ error: Error | null; stdout: string; stderr: string }>((resolve) =>
    execFile('aws', ['--endpoint-url', t.cloud.url, 's3', 'ls'], { env, timeout: 60_000 }, (error, stdout, stderr) => resolve({ error, stdout, stderr })),
  );
  assert.is(listed.error, null, listed.stderr);
  assert.equal(listed.stdout.trim().split('\n').map((line) => line.split(' ').pop()), ['one', 'three', 'two']);
});

objects('keys with dot segments are stored literally, in the bucket they were put in', async ({ t }) => {
  const keys = ['../x.txt', 'a/../../b.txt', './d.txt', 'e/./f/..'];
  for (const Key of keys) await t.s3.send(new PutObjectCommand({ Bucket: 'one', Key, Body: `body of ${Key}` }));
  const { Contents } = await t.s3.send(new ListObjectsV2Command({ Bucket: 'one' }));
  assert.equal(Contents!.map((object) => object.Key), ['../x.txt', './d.txt', 'a/../../b.txt', 'e/./f/..']);
  for (const Key of keys) assert.is(await (await t.s3.send(new GetObjectCommand({ Bucket: 'one', Key }))).Body!.transformToString(), `body of ${Key}`);
  assert.is((await t.s3.send(new ListObjectsV2Command({ Bucket: 'two' }))).KeyCount, 0);
});

objects('ListParts lists uploaded parts, and the completed object has the multipart ETag', async ({ t }) => {
  const part1 = Buffer.alloc(5 * 1024 * 1024, 'a');
  const part2 = Buffer.from('the end');
  const { UploadId } = await t.s3.send(new CreateMultipartUploadCommand({ Bucket: 'two', Key: 'big.bin' }));
  const first = await t.s3.send(new UploadPartCommand({ Bucket: 'two', Key: 'big.bin', UploadId, PartNumber: 1, Body: part1 }));
  const second = await t.s3.send(new UploadPartCommand({ Bucket: 'two', Key: 'big.bin', UploadId, PartNumber: 2, Body: part2 }));
  const listed = await t.s3.send(new ListPartsCommand({ Bucket: 'two', Key: 'big.bin', UploadId }));
  assert.equal(
    listed.Parts!.map((part) => [part.PartNumber, part.ETag, part.Size]),
    [
      [1, `"${md5(part1).toString('hex')}"`, part1.length],
      [2, `"${md5(part2).toString('hex')}"`, part2.length],
    ],
  );
  const page = await t.s3.send(new ListPartsCommand({ Bucket: 'two', Key: 'big.bin', UploadId, MaxParts: 1 }));
  assert.equal([page.Parts!.map((part) => part.PartNumber), page.IsTruncated, page.NextPartNumberMarker], [[1], true, '1']);

  const completed = await t.s3.send(
    new CompleteMultipartUploadCommand({ Bucket: 'two', Key: 'big.bin', UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: first.ETag }, { PartNumber: 2, ETag: second.ETag }] } }),
  );
  const expected = `"${md5(Buffer.concat([md5(part1), md5(part2)])).toString('hex')}-2"`;
  assert.is(completed.ETag, expected);
  const got = await t.s3.send(new GetObjectCommand({ Bucket: 'two', Key: 'big.bin' }));
  assert.equal([got.ETag, got.ContentLength], [expected, part1.length + part2.length]);
  const gone = await failure(t.s3.send(new ListPartsCommand({ Bucket: 'two', Key: 'big.bin', UploadId })));
  assert.is(gone!.name, 'NoSuchUpload');
});

objects('versioning Enabled keeps every version, delete markers hide and restore, Suspended writes version "null"', async ({ t }) => {
  await t.s3.send(new PutObjectCommand({ Bucket: 'three', Key: 'doc.txt', Body: 'before versioning' }));
  await t.s3.send(new PutBucketVersioningCommand({ Bucket: 'three', VersioningConfiguration: { Status: 'Enabled' } }));
  assert.is((await t.s3.send(new GetBucketVersioningCommand({ Bucket: 'three' }))).Status, 'Enabled');
  const first = await t.s3.send(new PutObjectCommand({ Bucket: 'three', Key: 'doc.txt', Body: 'v1' }));
  const second = await t.s3.send(new PutObjectCommand({ Bucket: 'three', Key: 'doc.txt', Body: 'v2' }));
  assert.match(first.VersionId!, /^[A-Za-z0-9_-]{32}$/);
  assert.is.not(first.VersionId, second.VersionId);
  const body = async (VersionId?: string) => (await t.s3.send(new GetObjectCommand({ Bucket: 'three', Key: 'doc.txt', VersionId }))).Body!.transformToString();
  assert.equal([await body(), await body(first.VersionId), await body('null')], ['v2', 'v1', 'before versioning']);
  assert.is((await t.s3.send(new HeadObjectCommand({ Bucket: 'three', Key: 'doc.txt' }))).VersionId, second.VersionId);

  const marker = await t.s3.send(new DeleteObjectCommand({ Bucket: 'three', Key: 'doc.txt' }));
  assert.is(marker.DeleteMarker, true);
  assert.is((await failure(t.s3.send(new GetObjectCommand({ Bucket: 'three', Key: 'doc.txt' }))))!.name, 'NoSuchKey');
  assert.is((await t.s3.send(new ListObjectsV2Command({ Bucket: 'three' }))).KeyCount, 0);
  const listed = await t.s3.send(new ListObjectVersionsCommand({ Bucket: 'three' }));
  assert.equal(listed.Versions!.map((version) => [version.VersionId, version.IsLatest, version.Size]), [[second.VersionId, false, 2], [first.VersionId, false, 2], ['null', false, 17]]);
  assert.equal(listed.DeleteMarkers!.map((entry) => [entry.VersionId, entry.IsLatest]), [[marker.VersionId, true]]);
  const bucketKept = await failure(t.s3.send(new DeleteBucketCommand({ Bucket: 'three' })));
  assert.is(bucketKept!.name, 'BucketNotEmpty');

  // Removing the delete marker brings the object back; removing a version removes it for good.
  await t.s3.send(new DeleteObjectCommand({ Bucket: 'three', Key: 'doc.txt', VersionId: marker.VersionId }));
  assert.is(await body(), 'v2');
  await t.s3.send(new DeleteObjectCommand({ Bucket: 'three', Key: 'doc.txt', VersionId: second.VersionId }));
  assert.is(await body(), 'v1');
  const gone = await failure(t.s3.send(new GetObjectCommand({ Bucket: 'three', Key: 'doc.txt', VersionId: second.VersionId })));
  assert.equal([gone!.name, gone!.$metadata!.httpStatusCode], ['NoSuchVersion', 404]);

  await t.s3.send(new PutBucketVersioningCommand({ Bucket: 'three', VersioningConfiguration: { Status: 'Suspended' } }));
  await t.s3.send(new PutObjectCommand({ Bucket: 'three', Key: 'doc.txt', Body: 'suspended' }));
  const afterSuspend = await t.s3.send(new ListObjectVersionsCommand({ Bucket: 'three' }));
  assert.equal(afterSuspend.Versions!.map((version) => [version.VersionId, version.IsLatest]), [['null', true], [first.VersionId, false]]);
  assert.equal([await body(), await body(first.VersionId)], ['suspended', 'v1']);
});

objects.run();
