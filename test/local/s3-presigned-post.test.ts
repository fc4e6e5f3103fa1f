import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, PutBucketCorsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost, type PresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { startTestCloud, type TestCloud } from './helpers';

// Browser form uploads (S3 POST Object) with the policy @aws-sdk/s3-presigned-post makes: the
// upload a web app's backend hands to a browser. Checked as S3 documents it ("POST Policy").

const withoutRequestId = (text: string) => text.replace(/<RequestId>[^<]*<\/RequestId><HostId>[^<]*<\/HostId>/, '').replace(/<RequestId>[^<]*<\/RequestId>/, '');

async function post(presigned: PresignedPost, file: string, options: { fields?: Record<string, string>; headers?: Record<string, string>; filename?: string } = {}): Promise<{ status: number; text: string; headers: Headers }> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...presigned.fields, ...options.fields })) form.append(name, value);
  form.append('file', new Blob([file], { type: 'text/plain' }), options.filename ?? 'photo.txt');
  const response = await fetch(presigned.url, { method: 'POST', body: form, headers: options.headers, redirect: 'manual' });
  return { status: response.status, text: withoutRequestId(await response.text()), headers: response.headers };
}

const errorXml = (code: string, message: string, extra = '') => `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>${extra}</Error>`;

const forms = suite<{ t: TestCloud; s3: S3Client }>('S3 POST Object: presigned POST forms');

forms.before(async (context) => {
  context.t = await startTestCloud();
  context.s3 = context.t.s3;
  await context.s3.send(new CreateBucketCommand({ Bucket: 'uploads' }));
});
forms.after(async ({ t }) => {
  await t.stop();
});

forms('a form within its policy stores the file under its key (${filename} replaced), with its content type and metadata', async ({ s3 }) => {
  const presigned = await createPresignedPost(s3, {
    Bucket: 'uploads',
    Key: 'users/42/${filename}',
    Conditions: [['content-length-range', 1, 100], ['starts-with', '$Content-Type', 'text/'], { 'x-amz-meta-owner': '42' }],
    Fields: { 'Content-Type': 'text/plain', 'x-amz-meta-owner': '42' },
    Expires: 60,
  });
  const answer = await post(presigned, 'form bytes');
  assert.equal({ status: answer.status, text: answer.text }, { status: 204, text: '' });
  assert.match(answer.headers.get('location')!, /\/uploads\/users\/42\/photo\.txt$/);
  const stored = await s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'users/42/photo.txt' }));
  assert.equal({ body: await stored.Body!.transformToString(), type: stored.ContentType, metadata: stored.Metadata, etag: stored.ETag }, { body: 'form bytes', type: 'text/plain', metadata: { owner: '42' }, etag: answer.headers.get('etag') });
});

forms('success_action_status 201 answers PostResponse XML; success_action_redirect answers 303 to the page with bucket, key and etag', async ({ s3 }) => {
  const created = await createPresignedPost(s3, { Bucket: 'uploads', Key: 'a.txt', Fields: { success_action_status: '201' }, Conditions: [{ success_action_status: '201' }] });
  const answer = await post(created, 'a');
  assert.equal(answer.status, 201);
  const etag = (await s3.send(new HeadObjectCommand({ Bucket: 'uploads', Key: 'a.txt' }))).ETag!;
  assert.match(answer.text, `<PostResponse><Location>${answer.headers.get('location')}</Location><Bucket>uploads</Bucket><Key>a.txt</Key><ETag>${etag.replace(/"/g, '&quot;')}</ETag></PostResponse>`);
  const redirected = await createPresignedPost(s3, { Bucket: 'uploads', Key: 'b.txt', Fields: { success_action_redirect: 'http://localhost:3000/done' }, Conditions: [['starts-with', '$success_action_redirect', 'http://localhost:3000/']] });
  const redirect = await post(redirected, 'b');
  assert.equal(redirect.status, 303);
  const location = new URL(redirect.headers.get('location')!);
  assert.equal([location.origin + location.pathname, location.searchParams.get('bucket'), location.searchParams.get('key'), location.searchParams.get('etag')], ['http://localhost:3000/done', 'uploads', 'b.txt', redirect.headers.get('etag')]);
});

forms("a form the policy does not allow is refused with S3's errors, and stores nothing", async ({ s3 }) => {
  const limited = await createPresignedPost(s3, { Bucket: 'uploads', Key: 'limited/${filename}', Conditions: [['content-length-range', 5, 10]] });
  const large = await post(limited, 'far too many bytes');
  assert.equal({ status: large.status, text: large.text }, { status: 400, text: errorXml('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', '<ProposedSize>18</ProposedSize><MaxSizeAllowed>10</MaxSizeAllowed>') });
  assert.equal((await post(limited, 'tiny')).text, errorXml('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size', '<ProposedSize>4</ProposedSize><MinSizeAllowed>5</MinSizeAllowed>'));
  // A field the policy does not name, a key changed after signing (the SDK makes `${filename}` a prefix), another bucket.
  const extra = await post(limited, 'right size', { fields: { 'x-amz-meta-added': 'later' } });
  assert.equal({ status: extra.status, text: extra.text }, { status: 403, text: errorXml('AccessDenied', 'Invalid according to Policy: Extra input fields: x-amz-meta-added') });
  const rekeyed = await post(limited, 'right size', { fields: { key: 'elsewhere/x.txt' } });
  assert.equal({ status: rekeyed.status, text: rekeyed.text }, { status: 403, text: errorXml('AccessDenied', 'Invalid according to Policy: Policy Condition failed: [&quot;starts-with&quot;, &quot;$key&quot;, &quot;limited/&quot;]') });
  await s3.send(new CreateBucketCommand({ Bucket: 'other-uploads' }));
  const otherBucket = await post({ ...limited, url: limited.url.replace('/uploads', '/other-uploads') }, 'right size');
  assert.equal({ status: otherBucket.status, text: otherBucket.text }, { status: 403, text: errorXml('AccessDenied', 'Invalid according to Policy: Policy Condition failed: [&quot;eq&quot;, &quot;$bucket&quot;, &quot;uploads&quot;]') });
  const expired = await createPresignedPost(s3, { Bucket: 'uploads', Key: 'late.txt', Expires: -1 });
  assert.equal((await post(expired, 'late')).text, errorXml('AccessDenied', 'Invalid according to Policy: Policy expired.'));
  // No policy at all: an anonymous upload, and no bucket here is publicly writable.
  const anonymous = await post({ url: limited.url, fields: { key: 'anon.txt' } }, 'anon');
  assert.equal({ status: anonymous.status, text: anonymous.text }, { status: 403, text: errorXml('AccessDenied', 'Access Denied') });
  const missing = await s3.send(new HeadObjectCommand({ Bucket: 'uploads', Key: 'limited/photo.txt' })).then(() => 'stored', (error: Error) => error.name);
  assert.equal(missing, 'NotFound');
});

forms("a page of another site may post a form only where the bucket's CORS rules allow its origin", async ({ t, s3 }) => {
  const presigned = await createPresignedPost(s3, { Bucket: 'uploads', Key: 'cors/${filename}' });
  const page = { origin: 'https://app.example', 'sec-fetch-site': 'cross-site' };
  const refused = await post(presigned, 'x', { headers: page });
  assert.equal({ status: refused.status, text: refused.text }, { status: 403, text: errorXml('AccessDenied', 'The local cloud refuses requests from the web page at https://app.example: allow an origin with fw local start --allow-origin') });
  const navigation = await post(presigned, 'x', { headers: { 'sec-fetch-site': 'cross-site' } });
  assert.equal(navigation.status, 403);
  await s3.send(new PutBucketCorsCommand({ Bucket: 'uploads', CORSConfiguration: { CORSRules: [{ AllowedOrigins: ['https://app.example'], AllowedMethods: ['POST'] }] } }));
  const allowed = await post(presigned, 'from the page', { headers: page });
  assert.equal({ status: allowed.status, origin: allowed.headers.get('access-control-allow-origin') }, { status: 204, origin: 'https://app.example' });
  const other = await post(presigned, 'x', { headers: { origin: 'https://other.example', 'sec-fetch-site': 'cross-site' } });
  assert.equal(other.status, 403);
  // A form is an S3 upload only: the same body sent to another API is refused unsigned.
  const form = new FormData();
  for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
  const lambda = await fetch(`${t.cloud.url}/2015-03-31/functions/anything/invocations`, { method: 'POST', body: form });
  assert.equal(lambda.status, 403);
});

forms('a presigned PUT sent with a form content type (urllib and `curl -d` send one by default) is an S3 upload', async ({ s3 }) => {
  const url = await getSignedUrl(s3, new PutObjectCommand({ Bucket: 'uploads', Key: 'typed.txt' }), { expiresIn: 60 });
  const put = await fetch(url, { method: 'PUT', body: 'a=1&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(put.status, 200, await put.text());
  const stored = await s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'typed.txt' }));
  assert.equal({ body: await stored.Body!.transformToString(), type: stored.ContentType }, { body: 'a=1&b=2', type: 'application/x-www-form-urlencoded' });
});

forms.run();

const signed = suite<{ t: TestCloud }>('S3 POST Object with --require-credentials: the policy signature is verified');
const required = { accessKeyId: 'AKIDREQUIRED', secretAccessKey: 'the-right-secret' };

signed.before(async (context) => {
  context.t = await startTestCloud(undefined, { credentials: required });
  await new S3Client({ ...context.t.config, credentials: required, forcePathStyle: true }).send(new CreateBucketCommand({ Bucket: 'signed-uploads' }));
});
signed.after(async ({ t }) => {
  await t.stop();
});

signed('the right secret uploads; another secret, another key, a changed policy or a version 2 forgery are refused', async ({ t }) => {
  const client = (credentials: typeof required) => new S3Client({ ...t.config, credentials, forcePathStyle: true });
  const right = await createPresignedPost(client(required), { Bucket: 'signed-uploads', Key: 'k.txt', Conditions: [['content-length-range', 0, 100]] });
  assert.equal((await post(right, 'signed')).status, 204);
  const mismatch = errorXml('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
  const wrongSecret = await createPresignedPost(client({ ...required, secretAccessKey: 'a-wrong-secret' }), { Bucket: 'signed-uploads', Key: 'k2.txt' });
  assert.equal(await post(wrongSecret, 'x').then(({ status, text }) => ({ status, text })), { status: 403, text: mismatch });
  const wrongKey = await createPresignedPost(client({ ...required, accessKeyId: 'AKIDOTHER' }), { Bucket: 'signed-uploads', Key: 'k3.txt' });
  assert.equal((await post(wrongKey, 'x')).text, errorXml('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', '<AWSAccessKeyId>AKIDOTHER</AWSAccessKeyId>'));
  // The policy widened after signing (a bigger content-length-range): its signature no longer holds.
  const policy = JSON.parse(Buffer.from(right.fields.Policy, 'base64').toString('utf8'));
  policy.conditions = policy.conditions.map((condition: unknown) => (Array.isArray(condition) && condition[0] === 'content-length-range' ? ['content-length-range', 0, 10_000_000] : condition));
  const widened = await post({ ...right, fields: { ...right.fields, Policy: Buffer.from(JSON.stringify(policy)).toString('base64') } }, 'x'.repeat(200));
  assert.equal({ status: widened.status, text: widened.text }, { status: 403, text: mismatch });
  const v2 = await post({ url: right.url, fields: { key: 'v2.txt', AWSAccessKeyId: 'AKIDREQUIRED', policy: right.fields.Policy, signature: 'Zm9yZ2Vk' } }, 'x');
  assert.equal({ status: v2.status, text: v2.text }, { status: 403, text: mismatch });
});

signed.run();
