import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectVersionsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { failure, signatureShaped, startTestCloud, type TestCloud } from './helpers';

const s3Suite = suite<{ t: TestCloud }>('local S3 API');

s3Suite.before(async (context) => {
  context.t = await startTestCloud();
});
s3Suite.after(async (context) => {
  await context.t.stop();
});

s3Suite('ListBuckets lists every bucket, by name', async () => {
  const own = await startTestCloud();
  try {
    for (const name of ['b-two', 'a-one', 'c-three']) await own.s3.send(new CreateBucketCommand({ Bucket: name }));
    const { Buckets } = await own.s3.send(new ListBucketsCommand({}));
    assert.equal(Buckets!.map((bucket) => bucket.Name), ['a-one', 'b-two', 'c-three']);
  } finally {
    await own.stop();
  }
});

s3Suite('puts, gets, heads and deletes an object', async ({ t }) => {
  await t.s3.send(new CreateBucketCommand({ Bucket: 'photos' }));
  await t.s3.send(new PutObjectCommand({ Bucket: 'photos', Key: 'a dir/cat é.txt', Body: 'meow', ContentType: 'text/plain', Metadata: { owner: 'me' } }));
  const got = await t.s3.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a dir/cat é.txt' }));
  assert.is(await got.Body!.transformToString(), 'meow');
  assert.is(got.ContentType, 'text/plain');
  assert.equal(got.Metadata, { owner: 'me' });
  assert.is(got.ETag, `"${createHash('md5').update('meow').digest('hex')}"`);
  const head = await t.s3.send(new HeadObjectCommand({ Bucket: 'photos', Key: 'a dir/cat é.txt' }));
  assert.is(head.ContentLength, 4);
  await t.s3.send(new DeleteObjectCommand({ Bucket: 'photos', Key: 'a dir/cat é.txt' }));
  const missing = await failure(t.s3.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a dir/cat é.txt' })));
  assert.is(missing?.name, 'NoSuchKey');
});

s3Suite('lists with prefixes, delimiters and pages, then deletes many at once', async ({ t }) => {
  await t.s3.send(new CreateBucketCommand({ Bucket: 'listing' }));
  const keys = ['a/1', 'a/2', 'a/3', 'b/1', 'c'];
  for (const key of keys) await t.s3.send(new PutObjectCommand({ Bucket: 'listing', Key: key, Body: key }));
  const seen: string[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await t.s3.send(new ListObjectsV2Command({ Bucket: 'listing', MaxKeys: 2, ContinuationToken: token }));
    seen.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.NextContinuationToken;
    pages++;
  } while (token);
  assert.equal(seen, keys);
  assert.is(pages, 3);
  const grouped = await t.s3.send(new ListObjectsV2Command({ Bucket: 'listing', Delimiter: '/' }));
  assert.equal(grouped.CommonPrefixes!.map((p) => p.Prefix), ['a/', 'b/']);
  assert.equal(grouped.Contents!.map((o) => o.Key), ['c']);
  const prefixed = await t.s3.send(new ListObjectsV2Command({ Bucket: 'listing', Prefix: 'a/' }));
  assert.equal(prefixed.Contents!.map((o) => [o.Key, o.Size]), [['a/1', 3], ['a/2', 3], ['a/3', 3]]);
  const notEmpty = await failure(t.s3.send(new DeleteBucketCommand({ Bucket: 'listing' })));
  assert.is(notEmpty?.name, 'BucketNotEmpty');
  const versions = await t.s3.send(new ListObjectVersionsCommand({ Bucket: 'listing', Prefix: 'a/', MaxKeys: 2 }));
  assert.equal(versions.Versions!.map((v) => [v.Key, v.VersionId, v.IsLatest]), [['a/1', 'null', true], ['a/2', 'null', true]]);
  assert.equal([versions.IsTruncated, versions.NextKeyMarker], [true, 'a/2']);
  const deleted = await t.s3.send(new DeleteObjectsCommand({ Bucket: 'listing', Delete: { Objects: keys.map((Key) => ({ Key, VersionId: 'null' })) } }));
  assert.equal(deleted.Deleted!.map((d) => d.Key), keys);
  await t.s3.send(new DeleteBucketCommand({ Bucket: 'listing' }));
});

s3Suite('takes a streamed 10 MB upload with the default trailing checksum', async ({ t }) => {
  await t.s3.send(new CreateBucketCommand({ Bucket: 'big' }));
  const chunk = Buffer.alloc(1024 * 1024, 7);
  const size = 10 * chunk.length;
  const stream = Readable.from((function* () {
    for (let i = 0; i < 10; i++) yield chunk;
  })());
  await t.s3.send(new PutObjectCommand({ Bucket: 'big', Key: 'blob.bin', Body: stream, ContentLength: size }));
  const got = await t.s3.send(new GetObjectCommand({ Bucket: 'big', Key: 'blob.bin' }));
  const bytes = Buffer.from(await got.Body!.transformToByteArray());
  assert.is(bytes.length, size);
  assert.ok(bytes.every((byte) => byte === 7));
});

s3Suite('answers virtual-host-style requests', async ({ t }) => {
  await t.s3.send(new CreateBucketCommand({ Bucket: 'vhost' }));
  await t.s3.send(new PutObjectCommand({ Bucket: 'vhost', Key: 'k.txt', Body: 'v' }));
  const response = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port: t.cloud.port, path: '/k.txt', headers: { host: `vhost.s3.localhost:${t.cloud.port}`, ...signatureShaped() } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    request.on('error', reject);
  });
  assert.equal(response, { status: 200, text: 'v' });
  const client = new S3Client({ ...t.config, endpoint: `http://s3.localhost:${t.cloud.port}`, forcePathStyle: false });
  // Name resolution of *.localhost differs between systems; the Host header is what the server reads.
  client.middlewareStack.add((next) => async (args) => {
    const request = args.request as { hostname: string; headers: Record<string, string> };
    request.headers.host = `${request.hostname}:${t.cloud.port}`;
    request.hostname = '127.0.0.1';
    return next(args);
  }, { step: 'finalizeRequest', name: 'pinToLoopback' });
  const listed = await client.send(new ListObjectsV2Command({ Bucket: 'vhost' }));
  assert.equal(listed.Contents!.map((o) => o.Key), ['k.txt']);
  client.destroy();
});

s3Suite('reports NoSuchBucket in the S3 error shape', async ({ t }) => {
  const error = await failure(t.s3.send(new GetObjectCommand({ Bucket: 'nope', Key: 'x' })));
  assert.is(error?.name, 'NoSuchBucket');
  assert.is(error?.$metadata?.httpStatusCode, 404);
  const raw = await fetch(`${t.cloud.url}/nope?list-type=2`, { headers: signatureShaped() });
  assert.is(raw.status, 404);
  assert.match(await raw.text(), /<Error><Code>NoSuchBucket<\/Code><Message>The specified bucket does not exist<\/Message><BucketName>nope<\/BucketName>/);
});

s3Suite.run();
