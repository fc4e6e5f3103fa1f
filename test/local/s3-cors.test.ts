import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateBucketCommand, DeleteBucketCorsCommand, GetBucketCorsCommand, GetObjectCommand, PutBucketCorsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { failure, startTestCloud, type TestCloud } from './helpers';

const cors = suite<{ t: TestCloud }>('S3 bucket CORS for browser uploads, and presigned URLs that expire');

cors.before(async (context) => {
  context.t = await startTestCloud();
  await context.t.s3.send(new CreateBucketCommand({ Bucket: 'uploads' }));
});
cors.after(async (context) => {
  await context.t.stop();
});

const APP = 'http://app.localhost:3000';
const RULES = [
  { ID: 'app', AllowedOrigins: [APP], AllowedMethods: ['PUT', 'GET'], AllowedHeaders: ['content-type', 'x-amz-*'], ExposeHeaders: ['ETag'], MaxAgeSeconds: 600 },
  { AllowedOrigins: ['*'], AllowedMethods: ['GET'], AllowedHeaders: [], ExposeHeaders: [] },
];

cors('PutBucketCors is stored and read back; DeleteBucketCors removes it', async ({ t }) => {
  await t.s3.send(new PutBucketCorsCommand({ Bucket: 'uploads', CORSConfiguration: { CORSRules: RULES } }));
  const { CORSRules } = await t.s3.send(new GetBucketCorsCommand({ Bucket: 'uploads' }));
  assert.equal(CORSRules, [RULES[0], { AllowedOrigins: ['*'], AllowedMethods: ['GET'] }]);
  await t.s3.send(new DeleteBucketCorsCommand({ Bucket: 'uploads' }));
  const error = await failure(t.s3.send(new GetBucketCorsCommand({ Bucket: 'uploads' })));
  assert.equal([error?.name, error?.message, error?.$metadata?.httpStatusCode], ['NoSuchCORSConfiguration', 'The CORS configuration does not exist', 404]);
});

cors('a preflight is answered from the rules, and a page of an allowed origin uploads with a presigned PUT', async ({ t }) => {
  await t.s3.send(new PutBucketCorsCommand({ Bucket: 'uploads', CORSConfiguration: { CORSRules: RULES } }));
  const url = `${t.cloud.url}/uploads/photos/cat.txt`;
  const allowed = await fetch(url, { method: 'OPTIONS', headers: { origin: APP, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'Content-Type' } });
  assert.is(allowed.status, 200);
  assert.equal(Object.fromEntries([...allowed.headers].filter(([name]) => name.startsWith('access-control-'))), {
    'access-control-allow-credentials': 'true',
    'access-control-allow-headers': 'content-type',
    'access-control-allow-methods': 'PUT, GET',
    'access-control-allow-origin': APP,
    'access-control-expose-headers': 'ETag',
    'access-control-max-age': '600',
  });
  const otherHeader = await fetch(url, { method: 'OPTIONS', headers: { origin: APP, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-other' } });
  assert.is(otherHeader.status, 403);
  assert.match(await otherHeader.text(), /<Code>AccessForbidden<\/Code><Message>CORSResponse: This CORS request is not allowed/);
  const otherOrigin = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://evil.localhost', 'access-control-request-method': 'PUT' } });
  assert.equal([otherOrigin.status, otherOrigin.headers.get('access-control-allow-origin')], [403, null]);

  const presigned = await getSignedUrl(t.s3, new PutObjectCommand({ Bucket: 'uploads', Key: 'photos/cat.txt' }), { expiresIn: 60 });
  const upload = await fetch(presigned, { method: 'PUT', headers: { origin: APP }, body: 'meow' });
  assert.is(upload.status, 200);
  assert.is(upload.headers.get('access-control-allow-origin'), APP);
  assert.is(upload.headers.get('access-control-expose-headers'), 'ETag');
  const fromElsewhere = await fetch(presigned, { method: 'PUT', headers: { origin: 'http://evil.localhost' }, body: 'woof' });
  assert.is(fromElsewhere.status, 403);
  const stored = await t.s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'photos/cat.txt' }));
  assert.is(await stored.Body!.transformToString(), 'meow');
});

cors('an expired presigned URL is refused with AccessDenied "Request has expired", without --require-credentials too', async ({ t }) => {
  await t.s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'soon-gone.txt', Body: 'x' }));
  const presigned = await getSignedUrl(t.s3, new GetObjectCommand({ Bucket: 'uploads', Key: 'soon-gone.txt' }), { expiresIn: 1 });
  assert.is((await fetch(presigned)).status, 200);
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const expired = await fetch(presigned);
  assert.is(expired.status, 403);
  assert.match(await expired.text(), /<Code>AccessDenied<\/Code><Message>Request has expired<\/Message>/);
});

cors.run();
