import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  GetBucketAccelerateConfigurationCommand,
  GetBucketInventoryConfigurationCommand,
  GetBucketLoggingCommand,
  GetBucketRequestPaymentCommand,
  GetObjectLockConfigurationCommand,
  PutBucketAccelerateConfigurationCommand,
  PutBucketLoggingCommand,
  PutBucketRequestPaymentCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  DeleteBucketPolicyCommand,
  DeleteBucketTaggingCommand,
  DeleteObjectTaggingCommand,
  GetBucketAclCommand,
  GetBucketEncryptionCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketPolicyCommand,
  GetBucketReplicationCommand,
  GetBucketTaggingCommand,
  GetObjectCommand,
  GetObjectRetentionCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  PutBucketAclCommand,
  PutBucketPolicyCommand,
  PutBucketTaggingCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { ANY_LOCAL_CREDENTIALS } from '../../src/local/access/credentials';
import { signedLocalFetch } from '../../src/local/access/sign';
import { failure, startTestCloud, type TestCloud } from './helpers';

const tagging = suite<{ t: TestCloud }>('local S3: object and bucket tagging, and every subresource routed by name');

tagging.before(async (context) => {
  context.t = await startTestCloud();
  await context.t.s3.send(new CreateBucketCommand({ Bucket: 'tags' }));
});
tagging.after(async (context) => {
  await context.t.stop();
});

const read = async (t: TestCloud, Key: string) => (await t.s3.send(new GetObjectCommand({ Bucket: 'tags', Key }))).Body!.transformToString();

tagging('DeleteObjectTagging removes the tags and keeps the object; GetObjectTagging answers tags, not bytes', async ({ t }) => {
  await t.s3.send(new PutObjectCommand({ Bucket: 'tags', Key: 'kept.txt', Body: 'precious bytes', Tagging: 'team=data&stage=dev%20one' }));
  assert.equal((await t.s3.send(new GetObjectTaggingCommand({ Bucket: 'tags', Key: 'kept.txt' }))).TagSet, [
    { Key: 'team', Value: 'data' },
    { Key: 'stage', Value: 'dev one' },
  ]);
  const got = await t.s3.send(new GetObjectCommand({ Bucket: 'tags', Key: 'kept.txt' }));
  assert.equal([got.TagCount, await got.Body!.transformToString()], [2, 'precious bytes']);

  await t.s3.send(new PutObjectTaggingCommand({ Bucket: 'tags', Key: 'kept.txt', Tagging: { TagSet: [{ Key: 'only', Value: '' }] } }));
  assert.equal((await t.s3.send(new GetObjectTaggingCommand({ Bucket: 'tags', Key: 'kept.txt' }))).TagSet, [{ Key: 'only', Value: '' }]);

  await t.s3.send(new DeleteObjectTaggingCommand({ Bucket: 'tags', Key: 'kept.txt' }));
  assert.equal((await t.s3.send(new GetObjectTaggingCommand({ Bucket: 'tags', Key: 'kept.txt' }))).TagSet, []);
  const after = await t.s3.send(new GetObjectCommand({ Bucket: 'tags', Key: 'kept.txt' }));
  assert.equal([after.TagCount, await after.Body!.transformToString()], [undefined, 'precious bytes']);

  const missing = await failure(t.s3.send(new DeleteObjectTaggingCommand({ Bucket: 'tags', Key: 'nothing-here' })));
  assert.equal([missing!.name, missing!.$metadata!.httpStatusCode], ['NoSuchKey', 404]);
});

tagging('object tag sets are held to S3 limits with its error codes', async ({ t }) => {
  await t.s3.send(new PutObjectCommand({ Bucket: 'tags', Key: 'limits.txt', Body: 'x' }));
  const put = (TagSet: { Key: string; Value: string }[]) => failure(t.s3.send(new PutObjectTaggingCommand({ Bucket: 'tags', Key: 'limits.txt', Tagging: { TagSet } })));
  const eleven = Array.from({ length: 11 }, (_, i) => ({ Key: `k${i}`, Value: 'v' }));
  const cases = [
    await put(eleven),
    await put([{ Key: 'k'.repeat(129), Value: 'v' }]),
    await put([{ Key: 'k', Value: 'v'.repeat(257) }]),
    await put([{ Key: 'same', Value: '1' }, { Key: 'same', Value: '2' }]),
    await put([{ Key: 'aws:reserved', Value: '1' }]),
  ];
  assert.equal(
    cases.map((error) => [error!.name, error!.message, error!.$metadata!.httpStatusCode]),
    [
      ['BadRequest', 'Object tags cannot be greater than 10', 400],
      ['InvalidTag', 'The TagKey you have provided is invalid', 400],
      ['InvalidTag', 'The TagValue you have provided is invalid', 400],
      ['InvalidTag', 'Cannot provide multiple Tags with the same key', 400],
      ['InvalidTag', 'Your TagKey cannot be prefixed with aws:', 400],
    ],
  );
  const header = await failure(t.s3.send(new PutObjectCommand({ Bucket: 'tags', Key: 'limits.txt', Body: 'y', Tagging: eleven.map((tag) => `${tag.Key}=v`).join('&') })));
  assert.is(header!.name, 'BadRequest');
  assert.is(await read(t, 'limits.txt'), 'x');
});

tagging('CopyObject copies the source tags, or replaces them with x-amz-tagging-directive REPLACE; multipart uploads keep x-amz-tagging', async ({ t }) => {
  await t.s3.send(new PutObjectCommand({ Bucket: 'tags', Key: 'source.txt', Body: 'copied', Tagging: 'a=1' }));
  await t.s3.send(new CopyObjectCommand({ Bucket: 'tags', Key: 'copy.txt', CopySource: 'tags/source.txt' }));
  await t.s3.send(new CopyObjectCommand({ Bucket: 'tags', Key: 'retagged.txt', CopySource: 'tags/source.txt', TaggingDirective: 'REPLACE', Tagging: 'b=2' }));
  const tagsOf = async (Key: string) => (await t.s3.send(new GetObjectTaggingCommand({ Bucket: 'tags', Key }))).TagSet;
  assert.equal(await tagsOf('copy.txt'), [{ Key: 'a', Value: '1' }]);
  assert.equal(await tagsOf('retagged.txt'), [{ Key: 'b', Value: '2' }]);

  const { UploadId } = await t.s3.send(new CreateMultipartUploadCommand({ Bucket: 'tags', Key: 'multi.txt', Tagging: 'c=3', ContentDisposition: 'attachment; filename="m.txt"' }));
  const part = await t.s3.send(new UploadPartCommand({ Bucket: 'tags', Key: 'multi.txt', UploadId, PartNumber: 1, Body: 'one part' }));
  await t.s3.send(new CompleteMultipartUploadCommand({ Bucket: 'tags', Key: 'multi.txt', UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] } }));
  assert.equal(await tagsOf('multi.txt'), [{ Key: 'c', Value: '3' }]);
  assert.is((await t.s3.send(new HeadObjectCommand({ Bucket: 'tags', Key: 'multi.txt' }))).ContentDisposition, 'attachment; filename="m.txt"');
});

tagging('bucket tagging: NoSuchTagSet until put, 50 tags at most, deleted with DeleteBucketTagging', async ({ t }) => {
  const none = await failure(t.s3.send(new GetBucketTaggingCommand({ Bucket: 'tags' })));
  assert.equal([none!.name, none!.message, none!.$metadata!.httpStatusCode], ['NoSuchTagSet', 'The TagSet does not exist', 404]);
  await t.s3.send(new PutBucketTaggingCommand({ Bucket: 'tags', Tagging: { TagSet: [{ Key: 'owner', Value: 'me' }] } }));
  assert.equal((await t.s3.send(new GetBucketTaggingCommand({ Bucket: 'tags' }))).TagSet, [{ Key: 'owner', Value: 'me' }]);
  const tooMany = await failure(t.s3.send(new PutBucketTaggingCommand({ Bucket: 'tags', Tagging: { TagSet: Array.from({ length: 51 }, (_, i) => ({ Key: `k${i}`, Value: 'v' })) } })));
  assert.equal([tooMany!.name, tooMany!.message], ['InvalidTag', 'Bucket tag count cannot be greater than 50']);
  await t.s3.send(new DeleteBucketTaggingCommand({ Bucket: 'tags' }));
  assert.is((await failure(t.s3.send(new GetBucketTaggingCommand({ Bucket: 'tags' }))))!.name, 'NoSuchTagSet');
});

tagging('a subresource the local cloud does not serve is refused by name, never served as the plain object or bucket operation', async ({ t }) => {
  await t.s3.send(new PutObjectCommand({ Bucket: 'tags', Key: 'plain.txt', Body: 'plain' }));
  const retention = await failure(t.s3.send(new GetObjectRetentionCommand({ Bucket: 'tags', Key: 'plain.txt' })));
  assert.equal([retention!.name, retention!.message, retention!.$metadata!.httpStatusCode], ['NotImplemented', 'not emulated: GetObjectRetention', 501]);
  const inventory = await failure(t.s3.send(new GetBucketInventoryConfigurationCommand({ Bucket: 'tags', Id: 'all' })));
  assert.equal([inventory!.name, inventory!.message], ['NotImplemented', 'not emulated: GetBucketInventoryConfiguration']);
  // Raw requests, as a hand-written client sends them: each must leave the object as it was.
  for (const [method, query] of [['DELETE', 'retention'], ['PUT', 'legal-hold'], ['DELETE', 'acl'], ['PUT', 'torrent'], ['POST', 'select']] as const) {
    const response = await signedLocalFetch(`${t.cloud.url}/tags/plain.txt?${query}`, { method, body: method === 'DELETE' ? undefined : '<x/>' }, ANY_LOCAL_CREDENTIALS);
    assert.ok(response.status === 501 || response.status === 405, `${method} ?${query} answered ${response.status}`);
    assert.match(await response.text(), /<Code>(NotImplemented|MethodNotAllowed)<\/Code>/);
  }
  assert.is(await read(t, 'plain.txt'), 'plain');
});

tagging('bucket policies are kept and answered back; ACLs are the owner\'s only', async ({ t }) => {
  const missing = await failure(t.s3.send(new GetBucketPolicyCommand({ Bucket: 'tags' })));
  assert.equal([missing!.name, missing!.$metadata!.httpStatusCode], ['NoSuchBucketPolicy', 404]);
  const policy = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::tags/*' }] });
  await t.s3.send(new PutBucketPolicyCommand({ Bucket: 'tags', Policy: policy }));
  assert.is((await t.s3.send(new GetBucketPolicyCommand({ Bucket: 'tags' }))).Policy, policy);
  const malformed = await failure(t.s3.send(new PutBucketPolicyCommand({ Bucket: 'tags', Policy: 'not json' })));
  assert.is(malformed!.name, 'MalformedPolicy');
  await t.s3.send(new DeleteBucketPolicyCommand({ Bucket: 'tags' }));
  assert.is((await failure(t.s3.send(new GetBucketPolicyCommand({ Bucket: 'tags' }))))!.name, 'NoSuchBucketPolicy');
  assert.is((await failure(t.s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: 'tags' }))))!.name, 'NoSuchLifecycleConfiguration');
  const encryption = await t.s3.send(new GetBucketEncryptionCommand({ Bucket: 'tags' }));
  assert.is(encryption.ServerSideEncryptionConfiguration!.Rules![0].ApplyServerSideEncryptionByDefault!.SSEAlgorithm, 'AES256');

  const acl = await t.s3.send(new GetBucketAclCommand({ Bucket: 'tags' }));
  assert.equal(acl.Grants!.map((grant) => [grant.Grantee!.ID, grant.Permission]), [['local', 'FULL_CONTROL']]);
  await t.s3.send(new PutBucketAclCommand({ Bucket: 'tags', ACL: 'private' }));
  const publicRead = await failure(t.s3.send(new PutBucketAclCommand({ Bucket: 'tags', ACL: 'public-read' })));
  assert.equal([publicRead!.name, publicRead!.message], ['NotImplemented', 'not emulated: PutBucketAcl (the local cloud keeps every bucket and object private to its owner)']);
});

tagging('the configurations infrastructure tools read of every bucket answer as S3 does for a new bucket, and keep what is put', async ({ t }) => {
  await t.s3.send(new CreateBucketCommand({ Bucket: 'configured' }));
  assert.is((await t.s3.send(new GetBucketLoggingCommand({ Bucket: 'configured' }))).LoggingEnabled, undefined);
  assert.is((await t.s3.send(new GetBucketAccelerateConfigurationCommand({ Bucket: 'configured' }))).Status, undefined);
  assert.is((await t.s3.send(new GetBucketRequestPaymentCommand({ Bucket: 'configured' }))).Payer, 'BucketOwner');
  const lock = await failure(t.s3.send(new GetObjectLockConfigurationCommand({ Bucket: 'configured' })));
  assert.equal([lock!.name, lock!.message, lock!.$metadata!.httpStatusCode], ['ObjectLockConfigurationNotFoundError', 'Object Lock configuration does not exist for this bucket', 404]);
  const replication = await failure(t.s3.send(new GetBucketReplicationCommand({ Bucket: 'configured' })));
  assert.equal([replication!.name, replication!.message, replication!.$metadata!.httpStatusCode], ['ReplicationConfigurationNotFoundError', 'The replication configuration was not found', 404]);
  await t.s3.send(new PutBucketLoggingCommand({ Bucket: 'configured', BucketLoggingStatus: { LoggingEnabled: { TargetBucket: 'logs', TargetPrefix: 'configured/' } } }));
  assert.equal((await t.s3.send(new GetBucketLoggingCommand({ Bucket: 'configured' }))).LoggingEnabled, { TargetBucket: 'logs', TargetPrefix: 'configured/' });
  await t.s3.send(new PutBucketAccelerateConfigurationCommand({ Bucket: 'configured', AccelerateConfiguration: { Status: 'Enabled' } }));
  assert.is((await t.s3.send(new GetBucketAccelerateConfigurationCommand({ Bucket: 'configured' }))).Status, 'Enabled');
  await t.s3.send(new PutBucketRequestPaymentCommand({ Bucket: 'configured', RequestPaymentConfiguration: { Payer: 'Requester' } }));
  assert.is((await t.s3.send(new GetBucketRequestPaymentCommand({ Bucket: 'configured' }))).Payer, 'Requester');
  // S3 has no DeleteBucketLogging: DELETE ?logging is refused, the configuration stays.
  const deleted = await signedLocalFetch(`${t.cloud.url}/configured?logging`, { method: 'DELETE' }, ANY_LOCAL_CREDENTIALS);
  assert.equal([deleted.status, /<Code>MethodNotAllowed<\/Code>/.test(await deleted.text())], [405, true]);
  assert.is((await t.s3.send(new GetBucketLoggingCommand({ Bucket: 'configured' }))).LoggingEnabled?.TargetBucket, 'logs');
});

tagging.run();
