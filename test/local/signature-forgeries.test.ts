import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudFormationClient, ListStacksCommand } from '@aws-sdk/client-cloudformation';
import { CreateTableCommand, DynamoDBClient, GetItemCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local/index';
import { expectedSignature } from '../../src/local/access/signature';
import type { LocalCredentials } from '../../src/local/access/credentials';

const region = 'us-east-1';
const ANY = { accessKeyId: 'AKIDANY', secretAccessKey: 'anything' };
const REQUIRED = { accessKeyId: 'AKIDREQUIRED', secretAccessKey: 'the-right-secret' };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A raw request with exactly these headers, Host included. */
function send(base: string, options: { method: string; path: string; headers: Record<string, string>; body?: string }): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, method: options.method, path: options.path, headers: options.headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

interface Unsigned {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The request signed as a SigV4 client signs it, with the headers named in `signed` (lower case) and
 * the payload hash `payloadHash` (the body's SHA-256 unless given); `service` is the credential
 * scope's service ('' is what the aws4 library scopes a request for a local host to).
 */
function sign(base: string, unsigned: Unsigned, credentials: LocalCredentials, options: { service: string; signed?: string[]; payloadHash?: string }): Unsigned {
  const amzDate = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const body = Buffer.from(unsigned.body ?? '');
  const headers: Record<string, string> = { host: new URL(base).host, 'x-amz-date': amzDate, ...unsigned.headers };
  const signedHeaders = (options.signed ?? Object.keys(headers)).map((name) => name.toLowerCase()).sort();
  const date = amzDate.slice(0, 8);
  const scope = `${date}/${region}/${options.service}/aws4_request`;
  const rawHeaders = Object.entries(headers).flatMap(([name, value]) => [name.toLowerCase(), value]);
  const signature = expectedSignature(
    { method: unsigned.method, url: unsigned.path, rawHeaders, body },
    { accessKeyId: credentials.accessKeyId, scope, date, region, service: options.service, signedHeaders, signature: '', amzDate, presigned: false },
    credentials.secretAccessKey,
    options.payloadHash ?? createHash('sha256').update(body).digest('hex'),
  );
  const authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders.join(';')}, Signature=${signature}`;
  return { ...unsigned, headers: { ...headers, authorization } };
}

const errorOf = (answer: Answer) => {
  if (answer.text.startsWith('{')) {
    const body = JSON.parse(answer.text) as { __type: string; message: string };
    return { status: answer.status, code: body.__type, message: body.message };
  }
  const [, code, message] = /<Code>([^<]+)<\/Code><Message>([^<]*)<\/Message>/.exec(answer.text) ?? [];
  return { status: answer.status, code, message: message?.replace(/&apos;/g, "'") };
};

const DESCRIBE_TABLE = { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.DescribeTable' };
const MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

/** Presigned-looking queries: SigV4 (`X-Amz-Signature`) and SigV2 (`AWSAccessKeyId`, `Signature`, `Expires`). */
function presignedQueries(): string[] {
  const amzDate = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const v4 = new URLSearchParams({
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `AKIDANY/${amzDate.slice(0, 8)}/us-east-1/s3/aws4_request`,
    'X-Amz-Date': amzDate,
    'X-Amz-Expires': '900',
    'X-Amz-SignedHeaders': 'host',
    'X-Amz-Signature': '0'.repeat(64),
  });
  const v2 = new URLSearchParams({ AWSAccessKeyId: 'x', Signature: 'y', Expires: '9999999999' });
  return [v4.toString(), v2.toString()];
}

const anyMode = suite<{ cloud: RunningLocalCloud; dataDir: string }>('signatures without --require-credentials: what a presigned-looking query may do');

anyMode.before(async (context) => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-forgeries-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true });
  const s3 = new S3Client({ endpoint: context.cloud.url, region, credentials: ANY, forcePathStyle: true, maxAttempts: 1 });
  await s3.send(new CreateBucketCommand({ Bucket: 'files' }));
  await s3.send(new PutObjectCommand({ Bucket: 'files', Key: 'a.txt', Body: 'shared text' }));
  s3.destroy();
});
anyMode.after(async ({ cloud, dataDir }) => {
  await cloud.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

anyMode('a presigned-looking query is no signature for Lambda Invoke, CreateStack, PutItem or an S3 bucket operation: refused, nothing run', async ({ cloud }) => {
  const answers = [];
  for (const query of presignedQueries()) {
    const form = new URLSearchParams({ Action: 'CreateStack', Version: '2010-05-15', StackName: 'forged', TemplateBody: '{"Resources":{}}' }).toString();
    for (const [name, request] of [
      ['Invoke', { method: 'POST', path: `/2015-03-31/functions/any/invocations?${query}`, headers: { 'content-type': 'application/json' }, body: '{}' }],
      ['CreateStack', { method: 'POST', path: `/?${query}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }],
      ['PutItem', { method: 'POST', path: `/?${query}`, headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.PutItem' }, body: '{"TableName":"t","Item":{"id":{"S":"x"}}}' }],
      ['CreateBucket', { method: 'PUT', path: `/forged-bucket?${query}`, headers: {} }],
    ] as const) {
      const answer = await send(cloud.url, request);
      answers.push([name, query.startsWith('X-Amz') ? 'v4' : 'v2', errorOf(answer).status, errorOf(answer).code]);
    }
  }
  assert.equal(answers, [
    ['Invoke', 'v4', 403, 'MissingAuthenticationTokenException'],
    ['CreateStack', 'v4', 403, 'MissingAuthenticationToken'],
    ['PutItem', 'v4', 403, 'MissingAuthenticationTokenException'],
    ['CreateBucket', 'v4', 403, 'AccessDenied'],
    ['Invoke', 'v2', 403, 'MissingAuthenticationTokenException'],
    ['CreateStack', 'v2', 403, 'MissingAuthenticationToken'],
    ['PutItem', 'v2', 403, 'MissingAuthenticationTokenException'],
    ['CreateBucket', 'v2', 403, 'AccessDenied'],
  ]);
  const cfn = new CloudFormationClient({ endpoint: cloud.url, region, credentials: ANY, maxAttempts: 1 });
  const s3 = new S3Client({ endpoint: cloud.url, region, credentials: ANY, forcePathStyle: true, maxAttempts: 1 });
  assert.equal((await cfn.send(new ListStacksCommand({}))).StackSummaries, []);
  assert.equal(await s3.send(new ListObjectsV2Command({ Bucket: 'forged-bucket' })).then(() => 'made', (error: Error) => error.name), 'NoSuchBucket');
  cfn.destroy();
  s3.destroy();
});

anyMode('a presigned S3 object URL is served, except on a request the browser marks cross-site', async ({ cloud }) => {
  const s3 = new S3Client({ endpoint: cloud.url, region, credentials: ANY, forcePathStyle: true, maxAttempts: 1 });
  const url = new URL(await getSignedUrl(s3, new GetObjectCommand({ Bucket: 'files', Key: 'a.txt' }), { expiresIn: 60 }));
  const seen = [];
  for (const site of [undefined, 'none', 'same-site', 'cross-site']) {
    const answer = await send(cloud.url, { method: 'GET', path: url.pathname + url.search, headers: site ? { 'sec-fetch-site': site } : {} });
    seen.push([site ?? 'no browser', answer.status, answer.status === 200 ? answer.text : errorOf(answer).code]);
  }
  assert.equal(seen, [
    ['no browser', 200, 'shared text'],
    ['none', 200, 'shared text'],
    ['same-site', 200, 'shared text'],
    ['cross-site', 403, 'AccessDenied'],
  ]);
  s3.destroy();
});

anyMode('a signature scoped to no service, as the aws4 library signs for a local host, is accepted: nothing is verified in this mode', async ({ cloud }) => {
  const listed = await send(cloud.url, sign(cloud.url, { method: 'POST', path: '/', headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.ListTables' }, body: '{}' }, ANY, { service: '' }));
  assert.equal({ status: listed.status, body: JSON.parse(listed.text) }, { status: 200, body: { TableNames: [] } });
});

const requiredMode = suite<{ cloud: RunningLocalCloud; dataDir: string; dynamodb: DynamoDBClient; s3: S3Client }>('signatures with --require-credentials: forgeries AWS refuses');

requiredMode.before(async (context) => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-forgeries-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true, credentials: REQUIRED });
  context.dynamodb = new DynamoDBClient({ endpoint: context.cloud.url, region, credentials: REQUIRED, maxAttempts: 1 });
  context.s3 = new S3Client({ endpoint: context.cloud.url, region, credentials: REQUIRED, forcePathStyle: true, maxAttempts: 1 });
  await context.dynamodb.send(new CreateTableCommand({ TableName: 'kept', BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }] }));
  await context.s3.send(new CreateBucketCommand({ Bucket: 'vault' }));
  await context.s3.send(new PutObjectCommand({ Bucket: 'vault', Key: 'secret.txt', Body: 'secret' }));
});
requiredMode.after(async ({ cloud, dataDir, dynamodb, s3 }) => {
  dynamodb.destroy();
  s3.destroy();
  await cloud.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

requiredMode('the request signed right is served (the forgeries below differ from it in one thing each)', async ({ cloud }) => {
  const answer = await send(cloud.url, sign(cloud.url, { method: 'POST', path: '/', headers: DESCRIBE_TABLE, body: '{"TableName":"kept"}' }, REQUIRED, { service: 'dynamodb' }));
  assert.equal([answer.status, (JSON.parse(answer.text) as { Table: { TableName: string } }).Table.TableName], [200, 'kept']);
});

requiredMode('an x-amz-target left unsigned and swapped after signing (DescribeTable → DeleteTable) is refused; the table stays', async ({ cloud, dynamodb }) => {
  const signed = sign(cloud.url, { method: 'POST', path: '/', headers: DESCRIBE_TABLE, body: '{"TableName":"kept"}' }, REQUIRED, { service: 'dynamodb', signed: ['host', 'x-amz-date', 'content-type'] });
  const forged = { ...signed, headers: { ...signed.headers, 'x-amz-target': 'DynamoDB_20120810.DeleteTable' } };
  assert.equal(errorOf(await send(cloud.url, forged)), { status: 403, code: 'InvalidSignatureException', message: 'There were headers present in the request which were not signed: x-amz-target' });
  assert.equal((await dynamodb.send(new ListTablesCommand({}))).TableNames, ['kept']);
});

requiredMode('UNSIGNED-PAYLOAD on DynamoDB with the body changed after signing is refused (only S3 may leave its payload unsigned); nothing written', async ({ cloud, dynamodb }) => {
  const headers = { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.PutItem', 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' };
  const signed = sign(cloud.url, { method: 'POST', path: '/', headers, body: '{"TableName":"kept","Item":{"id":{"S":"meant"}}}' }, REQUIRED, { service: 'dynamodb', payloadHash: 'UNSIGNED-PAYLOAD' });
  const forged = { ...signed, body: '{"TableName":"kept","Item":{"id":{"S":"forged"}}}' };
  assert.equal(errorOf(await send(cloud.url, forged)), { status: 403, code: 'InvalidSignatureException', message: MISMATCH });
  assert.is((await dynamodb.send(new GetItemCommand({ TableName: 'kept', Key: { id: { S: 'forged' } } }))).Item, undefined);
});

requiredMode('a signature that leaves out Host is refused as incomplete; nothing created', async ({ cloud }) => {
  const form = new URLSearchParams({ Action: 'CreateStack', Version: '2010-05-15', StackName: 'hostless', TemplateBody: '{"Resources":{}}' }).toString();
  const signed = sign(cloud.url, { method: 'POST', path: '/', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }, REQUIRED, { service: 'cloudformation', signed: ['content-type', 'x-amz-date'] });
  assert.equal(errorOf(await send(cloud.url, signed)), { status: 403, code: 'IncompleteSignature', message: "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization." });
  const cfn = new CloudFormationClient({ endpoint: cloud.url, region, credentials: REQUIRED, maxAttempts: 1 });
  assert.equal((await cfn.send(new ListStacksCommand({}))).StackSummaries, []);
  cfn.destroy();
});

requiredMode('an x-amz-copy-source added after signing a PUT is refused with the header named; no copy is made', async ({ cloud, s3 }) => {
  const empty = createHash('sha256').update('').digest('hex');
  const signed = sign(cloud.url, { method: 'PUT', path: '/vault/copied.txt', headers: { 'x-amz-content-sha256': empty } }, REQUIRED, { service: 's3' });
  const forged = { ...signed, headers: { ...signed.headers, 'x-amz-copy-source': '/vault/secret.txt' } };
  const answer = await send(cloud.url, forged);
  assert.equal(errorOf(answer), { status: 403, code: 'AccessDenied', message: 'There were headers present in the request which were not signed' });
  assert.match(answer.text, '<HeadersNotSigned>x-amz-copy-source</HeadersNotSigned>');
  assert.equal((await s3.send(new ListObjectsV2Command({ Bucket: 'vault' }))).Contents?.map((object) => object.Key), ['secret.txt']);
});

anyMode.run();
requiredMode.run();
