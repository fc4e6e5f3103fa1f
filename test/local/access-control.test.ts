import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'node:http';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_CLOUD_ENTRIES } from '../../src/local/state/data-folder';
import { CloudFormationClient, CreateStackCommand, ListStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetObjectCommand, PutObjectCommand, CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { GetParameterCommand, GetParametersByPathCommand, GetParametersCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { InvokeCommand, LambdaClient, ListFunctionsCommand } from '@aws-sdk/client-lambda';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { connect } from '../../src/deploy/connect';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local/index';
import { HostAllowList } from '../../src/local/access/hosts';
import { expectedSignature, signatureOf, verifySignature } from '../../src/local/access/signature';
import { credentials, failure, settle, signatureShaped } from './helpers';

const region = 'us-east-1';

/** The stack a forged page would create: inline code run by a schedule a minute later. */
const FORGED_TEMPLATE = JSON.stringify({
  Resources: {
    Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'pwn', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'r', Code: { ZipFile: "exports.handler = async () => require('child_process').execSync('id');" } } },
    Every: { Type: 'AWS::Events::Rule', Properties: { ScheduleExpression: 'rate(1 minute)', Targets: [{ Arn: { 'Fn::GetAtt': ['Fn', 'Arn'] }, Id: 'x' }] } },
  },
});
const FORGED_FORM = new URLSearchParams({ Action: 'CreateStack', Version: '2010-05-15', StackName: 'forged', TemplateBody: FORGED_TEMPLATE }).toString();

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A raw HTTP request with exactly these headers (fetch would not let a test set Host). */
function send(url: string, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method: options.method ?? 'GET', path: options.path ?? '/', headers: options.headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const withoutRequestId = (text: string) => text.replace(/<RequestId>[^<]*<\/RequestId>/, '<RequestId/>');

async function stackNames(cloud: RunningLocalCloud): Promise<string[]> {
  const cfn = new CloudFormationClient({ endpoint: cloud.url, region, credentials, maxAttempts: 1 });
  const { StackSummaries } = await cfn.send(new ListStacksCommand({}));
  cfn.destroy();
  return StackSummaries!.map((stack) => stack.StackName!);
}

const browsers = suite<{ cloud: RunningLocalCloud; dataDir: string }>('local cloud access: browsers and hosts');

browsers.before(async (context) => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-access-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true, allowOrigins: ['http://localhost:3000'] });
});
browsers.after(async ({ cloud, dataDir }) => {
  await cloud.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

browsers('a cross-site form POST of CreateStack is refused before it is read, and creates nothing', async ({ cloud }) => {
  const answer = await send(cloud.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    body: FORGED_FORM,
  });
  assert.is(answer.status, 403);
  assert.equal(
    answer.text.replace(/<RequestId>[^<]*<\/RequestId>/, '<RequestId/>'),
    '<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><Error><Type>Sender</Type><Code>AccessDenied</Code>' +
      '<Message>The local cloud refuses requests from the web page at https://evil.example: allow an origin with fw local start --allow-origin</Message></Error><RequestId/></ErrorResponse>',
  );
  assert.is(answer.headers['access-control-allow-origin'], undefined);
  assert.equal(await stackNames(cloud), []);
});

browsers('a DNS-rebinding Host is refused on every path, deployed APIs included', async ({ cloud }) => {
  const host = `rebind.attacker.example:${cloud.port}`;
  const forged = await send(cloud.url, { method: 'POST', headers: { host, 'content-type': 'application/x-www-form-urlencoded', ...signatureShaped('cloudformation') }, body: FORGED_FORM });
  assert.is(forged.status, 403);
  assert.match(forged.text, `<Code>AccessDenied</Code><Message>The local cloud refuses Host &quot;${host}&quot;: it answers to localhost, 127.0.0.1, [::1], *.localhost and the address it listens on (DNS rebinding protection)</Message>`);
  const api = await send(cloud.url, { path: '/_fw/execute-api/abc123/hello', headers: { host } });
  assert.equal({ status: api.status, text: api.text }, { status: 403, text: '{"message":"Forbidden"}' });
  const health = await send(cloud.url, { path: '/_fw/health', headers: { host } });
  assert.is(health.status, 403);
  assert.equal(await stackNames(cloud), []);
  for (const allowed of [`localhost:${cloud.port}`, `127.0.0.1:${cloud.port}`, `[::1]:${cloud.port}`, `bucket.s3.localhost:${cloud.port}`]) {
    const answer = await send(cloud.url, { path: '/_fw/health', headers: { host: allowed } });
    assert.is(answer.status, 200, allowed);
  }
});

browsers('an unsigned form POST is refused in the query protocol shape', async ({ cloud }) => {
  const answer = await send(cloud.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: FORGED_FORM });
  assert.is(answer.status, 403);
  assert.equal(
    withoutRequestId(answer.text),
    '<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><Error><Type>Sender</Type><Code>MissingAuthenticationToken</Code>' +
      '<Message>The local cloud serves only requests signed with AWS Signature Version 4 (the AWS SDKs and the AWS CLI sign with any credentials; S3 objects can be shared with presigned URLs)</Message></Error><RequestId/></ErrorResponse>',
  );
  const json = await send(cloud.url, { method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AmazonSSM.GetParameter' }, body: '{"Name":"x"}' });
  assert.equal(
    { status: json.status, type: json.headers['x-amzn-errortype'], code: (JSON.parse(json.text) as { __type: string }).__type },
    { status: 403, type: 'MissingAuthenticationTokenException', code: 'MissingAuthenticationTokenException' },
  );
  assert.equal(await stackNames(cloud), []);
});

browsers('an allowed origin gets its preflight answered and CORS headers; another origin does not', async ({ cloud }) => {
  const preflight = await send(cloud.url, {
    method: 'OPTIONS',
    path: '/bucket/key',
    headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,x-amz-date' },
  });
  assert.is(preflight.status, 204);
  assert.equal(
    [preflight.headers['access-control-allow-origin'], preflight.headers['access-control-allow-methods'], preflight.headers['access-control-allow-headers'], preflight.headers.vary],
    ['http://localhost:3000', 'GET, HEAD, PUT, POST, DELETE', 'authorization,x-amz-date', 'Origin'],
  );
  const refused = await send(cloud.url, { method: 'OPTIONS', path: '/bucket/key', headers: { origin: 'http://localhost:4000', 'access-control-request-method': 'PUT' } });
  assert.is(refused.status, 403);
  assert.is(refused.headers['access-control-allow-origin'], undefined);
  const listed = await send(cloud.url, { headers: { origin: 'http://localhost:3000', ...signatureShaped() } });
  assert.is(listed.status, 200);
  assert.is(listed.headers['access-control-allow-origin'], 'http://localhost:3000');
  const unsigned = await send(cloud.url, { headers: { origin: 'http://localhost:3000' } });
  assert.equal([unsigned.status, unsigned.headers['access-control-allow-origin']], [403, 'http://localhost:3000']);
  assert.match(unsigned.text, '<Code>AccessDenied</Code><Message>The local cloud serves only requests signed with AWS Signature Version 4');
});

browsers('a navigation from another site without Origin is refused, a presigned read included; a typed or same-site one is served', async ({ cloud }) => {
  const s3 = new S3Client({ endpoint: cloud.url, region, credentials, forcePathStyle: true, maxAttempts: 1 });
  await s3.send(new CreateBucketCommand({ Bucket: 'shared' }));
  await s3.send(new PutObjectCommand({ Bucket: 'shared', Key: 'a.txt', Body: 'shared text' }));
  const navigation = await send(cloud.url, { path: '/shared/a.txt', headers: { 'sec-fetch-site': 'cross-site', ...signatureShaped() } });
  assert.is(navigation.status, 403);
  assert.match(navigation.text, '<Message>The local cloud refuses requests from a web page (Sec-Fetch-Site: cross-site): allow an origin with fw local start --allow-origin</Message>');
  const presigned = new URL(await getSignedUrl(s3, new GetObjectCommand({ Bucket: 'shared', Key: 'a.txt' }), { expiresIn: 60 }));
  const link = await send(cloud.url, { path: presigned.pathname + presigned.search, headers: { 'sec-fetch-site': 'cross-site' } });
  assert.is(link.status, 403);
  const sameSite = await send(cloud.url, { path: presigned.pathname + presigned.search, headers: { 'sec-fetch-site': 'same-site' } });
  assert.equal({ status: sameSite.status, text: sameSite.text }, { status: 200, text: 'shared text' });
  const typed = await send(cloud.url, { path: presigned.pathname + presigned.search, headers: { 'sec-fetch-site': 'none' } });
  assert.is(typed.status, 200);
  s3.destroy();
});

browsers('an unsigned S3 read is refused, a presigned URL is served', async ({ cloud }) => {
  const s3 = new S3Client({ endpoint: cloud.url, region, credentials, forcePathStyle: true, maxAttempts: 1 });
  await s3.send(new CreateBucketCommand({ Bucket: 'reads' }));
  await s3.send(new PutObjectCommand({ Bucket: 'reads', Key: 'note.txt', Body: 'hello' }));
  const unsigned = await fetch(`${cloud.url}/reads/note.txt`);
  assert.is(unsigned.status, 403);
  assert.match(await unsigned.text(), '<Code>AccessDenied</Code>');
  const presigned = await fetch(await getSignedUrl(s3, new GetObjectCommand({ Bucket: 'reads', Key: 'note.txt' }), { expiresIn: 60 }));
  assert.equal({ status: presigned.status, text: await presigned.text() }, { status: 200, text: 'hello' });
  // boto3 presigns with Signature Version 2 unless told otherwise.
  const legacy = await fetch(`${cloud.url}/reads/note.txt?AWSAccessKeyId=AKIDLOCAL&Signature=c2lnbmF0dXJl&Expires=${Math.floor(Date.now() / 1000) + 60}`);
  assert.equal({ status: legacy.status, text: await legacy.text() }, { status: 200, text: 'hello' });
  s3.destroy();
});

browsers('a deployed HTTP API answers a page from another site with its own CORS settings', async ({ cloud }) => {
  const cfn = new CloudFormationClient({ endpoint: cloud.url, region, credentials, maxAttempts: 1 });
  const fnArn = { 'Fn::GetAtt': ['Fn', 'Arn'] };
  const template = {
    Resources: {
      Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'public-api', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'r', Code: { ZipFile: "exports.handler = async () => ({ statusCode: 200, body: 'public' });" } } },
      Api: { Type: 'AWS::ApiGatewayV2::Api', Properties: { Name: 'public', ProtocolType: 'HTTP', CorsConfiguration: { AllowOrigins: ['https://app.example'], AllowMethods: ['GET'] } } },
      Stage: { Type: 'AWS::ApiGatewayV2::Stage', Properties: { ApiId: { Ref: 'Api' }, StageName: '$default', AutoDeploy: true } },
      Integration: { Type: 'AWS::ApiGatewayV2::Integration', Properties: { ApiId: { Ref: 'Api' }, IntegrationType: 'AWS_PROXY', IntegrationUri: fnArn, PayloadFormatVersion: '2.0' } },
      Route: { Type: 'AWS::ApiGatewayV2::Route', Properties: { ApiId: { Ref: 'Api' }, RouteKey: 'GET /hello', Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'Integration' }]] } } },
    },
    Outputs: { ApiId: { Value: { Ref: 'Api' } } },
  };
  await cfn.send(new CreateStackCommand({ StackName: 'public-api', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(cfn, 'public-api');
  cfn.destroy();
  const path = `/_fw/execute-api/${stack.Outputs![0].OutputValue}/hello`;
  const page = { origin: 'https://app.example', 'sec-fetch-site': 'cross-site' };
  const preflight = await send(cloud.url, { method: 'OPTIONS', path, headers: { ...page, 'access-control-request-method': 'GET' } });
  const call = await send(cloud.url, { path, headers: page });
  const other = await send(cloud.url, { path, headers: { origin: 'https://other.example', 'sec-fetch-site': 'cross-site' } });
  assert.equal(
    [preflight.status, preflight.headers['access-control-allow-origin'], call.status, call.text, call.headers['access-control-allow-origin'], other.status, other.headers['access-control-allow-origin']],
    [204, 'https://app.example', 200, 'public', 'https://app.example', 200, undefined],
  );
});

browsers('the Host allow list: loopback names, *.localhost and the bound address, nothing a rebinding page can name', () => {
  const names = ['localhost', '127.0.0.1', '[::1]', 'photos.s3.localhost', 'abc123.execute-api.localhost', 'my.dotted.bucket.s3.localhost', '192.168.1.5', 'evil.example', 'localhost.', '127.0.0.1.nip.io', 'localhost.evil.example', 'x.s3.amazonaws.com', ''];
  const bound = new HostAllowList('192.168.1.5');
  const loopback = new HostAllowList('127.0.0.1');
  assert.equal(
    names.filter((name) => bound.allows(name)),
    ['localhost', '127.0.0.1', '[::1]', 'photos.s3.localhost', 'abc123.execute-api.localhost', 'my.dotted.bucket.s3.localhost', '192.168.1.5'],
  );
  assert.equal(names.filter((name) => loopback.allows(name)), ['localhost', '127.0.0.1', '[::1]', 'photos.s3.localhost', 'abc123.execute-api.localhost', 'my.dotted.bucket.s3.localhost']);
});

browsers.run();

const signatures = suite<{ cloud: RunningLocalCloud; dataDir: string }>('local cloud access: --require-credentials');
const required = { accessKeyId: 'AKIDREQUIRED', secretAccessKey: 'the-right-secret' };
const wrongSecret = { accessKeyId: 'AKIDREQUIRED', secretAccessKey: 'a-wrong-secret' };
const wrongKey = { accessKeyId: 'AKIDOTHER', secretAccessKey: 'the-right-secret' };

signatures.before(async (context) => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-access-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true, credentials: required });
});
signatures.after(async ({ cloud, dataDir }) => {
  await cloud.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

signatures('AWS documents the signature of its IAM ListUsers example; the verifier computes the same', () => {
  // "Signature Version 4 signing process" worked example (iam, us-east-1, 2015-08-30).
  const authorization =
    'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7';
  const url = '/?Action=ListUsers&Version=2010-05-08';
  const signature = signatureOf(url, authorization)!;
  const rawHeaders = ['Host', 'iam.amazonaws.com', 'Content-Type', 'application/x-www-form-urlencoded; charset=utf-8', 'X-Amz-Date', '20150830T123600Z'];
  const hash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
  assert.is(
    expectedSignature({ method: 'GET', url, rawHeaders, body: Buffer.alloc(0) }, { ...signature, amzDate: '20150830T123600Z' }, 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', hash),
    signature.signature,
  );
});

signatures('AWS documents a chunk-signed upload (STREAMING-AWS4-HMAC-SHA256-PAYLOAD); the verifier accepts it and refuses a changed chunk', () => {
  // "Signature calculations for the Authorization header: transferring payload in multiple chunks" worked example.
  const chunk = (size: number, signature: string) => `${size.toString(16)};chunk-signature=${signature}\r\n${'a'.repeat(size)}\r\n`;
  const body = Buffer.from(
    chunk(65536, 'ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648') +
      chunk(1024, '0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497') +
      chunk(0, 'b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9'),
  );
  const authorization =
    'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
    'SignedHeaders=content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;x-amz-storage-class, ' +
    'Signature=4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9';
  const url = '/examplebucket/chunkObject.txt';
  const rawHeaders = [
    'Host', 's3.amazonaws.com', 'x-amz-date', '20130524T000000Z', 'x-amz-storage-class', 'REDUCED_REDUNDANCY', 'Authorization', authorization,
    'x-amz-content-sha256', 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD', 'Content-Encoding', 'aws-chunked', 'x-amz-decoded-content-length', '66560', 'Content-Length', String(body.length),
  ];
  const signature = signatureOf(url, authorization)!;
  const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
  const then = Date.UTC(2013, 4, 24);
  const changed = Buffer.from(body);
  changed[body.indexOf('aaaa') + 10] = 'b'.charCodeAt(0);
  assert.equal(
    [body.length, verifySignature({ method: 'PUT', url, rawHeaders, body }, signature, secret, then), verifySignature({ method: 'PUT', url, rawHeaders, body: changed }, signature, secret, then)],
    [66824, undefined, 'mismatch'],
  );
});

signatures('AWS documents a chunk-signed upload with a signed trailer; the verifier accepts it and refuses a changed checksum', () => {
  // "Signature calculation: including trailing headers" worked example.
  const chunk = (size: number, signature: string) => `${size.toString(16)};chunk-signature=${signature}\r\n${'a'.repeat(size)}${size ? '\r\n' : ''}`;
  const trailer = (checksum: string) => `x-amz-checksum-crc32c:${checksum}\r\nx-amz-trailer-signature:d81f82fc3505edab99d459891051a732e8730629a2e4a59689829ca17fe2e435\r\n\r\n`;
  const chunks =
    chunk(65536, 'b474d8862b1487a5145d686f57f013e54db672cee1c953b3010fb58501ef5aa2') +
    chunk(1024, '1c1344b170168f8e65b41376b44b20fe354e373826ccbbe2c1d40a8cae51e5c7') +
    chunk(0, '2ca2aba2005185cf7159c6277faf83795951dd77a3a99e6e65d5c9f85863f992');
  const authorization =
    'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
    'SignedHeaders=content-encoding;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;x-amz-storage-class;x-amz-trailer, ' +
    'Signature=106e2a8a18243abcf37539882f36619c00e2dfc72633413f02d3b74544bfeb8e';
  const url = '/examplebucket/chunkObject.txt';
  const rawHeaders = [
    'Host', 's3.amazonaws.com', 'x-amz-date', '20130524T000000Z', 'x-amz-storage-class', 'REDUCED_REDUNDANCY', 'x-amz-content-sha256', 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER',
    'Content-Encoding', 'aws-chunked', 'x-amz-decoded-content-length', '66560', 'x-amz-trailer', 'x-amz-checksum-crc32c',
  ];
  const signature = signatureOf(url, authorization)!;
  const verdict = (body: string) => verifySignature({ method: 'PUT', url, rawHeaders, body: Buffer.from(body) }, signature, 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', Date.UTC(2013, 4, 24));
  assert.equal([verdict(chunks + trailer('sOO8/Q==')), verdict(chunks + trailer('AAAAAA=='))], [undefined, 'mismatch']);
});

signatures('SDK clients signing with the required secret are served', async ({ cloud }) => {
  const config = { endpoint: cloud.url, region, credentials: required, maxAttempts: 1 };
  const cfn = new CloudFormationClient(config);
  await cfn.send(new CreateStackCommand({ StackName: 'signed', TemplateBody: JSON.stringify({ Resources: { Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'signed-fn', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'r', Code: { ZipFile: "exports.handler = async (e) => ({ got: e.key + ' ünïcode' });" } } } } }) }));
  assert.is((await settle(cfn, 'signed')).StackStatus, 'CREATE_COMPLETE');
  const s3 = new S3Client({ ...config, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: 'signed-bucket' }));
  await s3.send(new PutObjectCommand({ Bucket: 'signed-bucket', Key: 'dir/a file+name.txt', Body: 'signed body' }));
  const object = await s3.send(new GetObjectCommand({ Bucket: 'signed-bucket', Key: 'dir/a file+name.txt' }));
  assert.is(await object.Body!.transformToString(), 'signed body');
  const ssm = new SSMClient(config);
  await ssm.send(new PutParameterCommand({ Name: '/signed/p', Value: 'v', Type: 'String' }));
  assert.is((await ssm.send(new GetParameterCommand({ Name: '/signed/p' }))).Parameter!.Value, 'v');
  const lambda = new LambdaClient(config);
  assert.equal((await lambda.send(new ListFunctionsCommand({}))).Functions!.map((fn) => fn.FunctionName), ['signed-fn']);
  const invoked = await lambda.send(new InvokeCommand({ FunctionName: 'arn:aws:lambda:us-east-1:000000000000:function:signed-fn', Payload: JSON.stringify({ key: 'k' }) }));
  assert.equal(JSON.parse(Buffer.from(invoked.Payload!).toString()), { got: 'k ünïcode' });
  const presigned = await fetch(await getSignedUrl(s3, new GetObjectCommand({ Bucket: 'signed-bucket', Key: 'dir/a file+name.txt' }), { expiresIn: 60 }));
  assert.equal({ status: presigned.status, text: await presigned.text() }, { status: 200, text: 'signed body' });
  for (const client of [cfn, s3, ssm, lambda]) client.destroy();
});

signatures('a wrong secret or an unknown key gets the AWS error of each protocol', async ({ cloud }) => {
  const failures: Record<string, unknown>[] = [];
  for (const [who, keys] of [['wrong secret', wrongSecret], ['unknown key', wrongKey]] as const) {
    const config = { endpoint: cloud.url, region, credentials: keys, maxAttempts: 1 };
    const cfn = new CloudFormationClient(config);
    const s3 = new S3Client({ ...config, forcePathStyle: true });
    const ssm = new SSMClient(config);
    const lambda = new LambdaClient(config);
    const calls = {
      cloudformation: () => cfn.send(new CreateStackCommand({ StackName: 'refused', TemplateBody: FORGED_TEMPLATE })),
      s3: () => s3.send(new PutObjectCommand({ Bucket: 'signed-bucket', Key: 'refused.txt', Body: 'x' })),
      ssm: () => ssm.send(new GetParameterCommand({ Name: '/signed/p' })),
      lambda: () => lambda.send(new ListFunctionsCommand({})),
    };
    for (const [service, call] of Object.entries(calls)) {
      const error = await failure(call());
      failures.push({ who, service, name: error?.name, status: error?.$metadata?.httpStatusCode });
    }
    for (const client of [cfn, s3, ssm, lambda]) client.destroy();
  }
  assert.equal(failures, [
    { who: 'wrong secret', service: 'cloudformation', name: 'SignatureDoesNotMatch', status: 403 },
    { who: 'wrong secret', service: 's3', name: 'SignatureDoesNotMatch', status: 403 },
    { who: 'wrong secret', service: 'ssm', name: 'InvalidSignatureException', status: 403 },
    { who: 'wrong secret', service: 'lambda', name: 'InvalidSignatureException', status: 403 },
    { who: 'unknown key', service: 'cloudformation', name: 'InvalidClientTokenId', status: 403 },
    { who: 'unknown key', service: 's3', name: 'InvalidAccessKeyId', status: 403 },
    { who: 'unknown key', service: 'ssm', name: 'UnrecognizedClientException', status: 403 },
    { who: 'unknown key', service: 'lambda', name: 'UnrecognizedClientException', status: 403 },
  ]);
  const cfn = new CloudFormationClient({ endpoint: cloud.url, region, credentials: required, maxAttempts: 1 });
  assert.equal((await cfn.send(new ListStacksCommand({}))).StackSummaries!.map((stack) => stack.StackName), ['signed']);
  cfn.destroy();
});

signatures('presigned URLs are checked: a wrong secret, an expired URL and a changed key are refused', async ({ cloud }) => {
  const right = new S3Client({ endpoint: cloud.url, region, credentials: required, forcePathStyle: true, maxAttempts: 1 });
  const wrong = new S3Client({ endpoint: cloud.url, region, credentials: wrongSecret, forcePathStyle: true, maxAttempts: 1 });
  await right.send(new CreateBucketCommand({ Bucket: 'presigned' }));
  await right.send(new PutObjectCommand({ Bucket: 'presigned', Key: 'k.txt', Body: 'kept' }));
  const command = new GetObjectCommand({ Bucket: 'presigned', Key: 'k.txt' });
  const codes: string[] = [];
  for (const url of [
    await getSignedUrl(wrong, command, { expiresIn: 60 }),
    await getSignedUrl(right, command, { expiresIn: 60, signingDate: new Date(Date.now() - 3_600_000) }),
    (await getSignedUrl(right, command, { expiresIn: 60 })).replace('/k.txt?', '/other.txt?'),
  ]) {
    const response = await fetch(url);
    codes.push(`${response.status} ${/<Code>([^<]+)<\/Code><Message>([^<]+)</.exec(await response.text())!.slice(1).join(': ')}`);
  }
  const legacy = await fetch(`${cloud.url}/presigned/k.txt?AWSAccessKeyId=AKIDREQUIRED&Signature=c2lnbmF0dXJl&Expires=${Math.floor(Date.now() / 1000) + 60}`);
  codes.push(`${legacy.status} ${/<Code>([^<]+)<\/Code><Message>([^<]+)</.exec(await legacy.text())!.slice(1).join(': ')}`);
  assert.equal(codes, [
    '403 SignatureDoesNotMatch: The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    '403 AccessDenied: Request has expired',
    '403 SignatureDoesNotMatch: The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    "403 AccessDenied: The local cloud verifies Signature Version 4 only: presign with signature version &apos;s3v4&apos;",
  ]);
  right.destroy();
  wrong.destroy();
});

signatures('fw deploy --local signs with $FW_LOCAL_CREDENTIALS, and the cloud it starts requires them', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fw-access-'));
  process.env.FW_LOCAL_CREDENTIALS = 'AKIDDEPLOY:deploy-secret';
  let connection;
  try {
    connection = await connect({ region, local: true, localPort: 0, localDataDir: dataDir, localCloudRunning: false });
  } finally {
    delete process.env.FW_LOCAL_CREDENTIALS;
  }
  assert.equal((await connection.clients.cloudFormation.send(new ListStacksCommand({}))).StackSummaries, []);
  const guessing = new CloudFormationClient({ endpoint: connection.startedLocalCloud, region, credentials: { accessKeyId: 'AKIDDEPLOY', secretAccessKey: 'local' }, maxAttempts: 1 });
  assert.is((await failure(guessing.send(new ListStacksCommand({}))))?.name, 'SignatureDoesNotMatch');
  guessing.destroy();
  connection.clients.cloudFormation.destroy();
  connection.clients.s3.destroy();
  await connection.close();
  process.env.FW_LOCAL_CREDENTIALS = 'deploy-secret-without-key';
  const bad = await failure(connect({ region, local: true, localPort: 0, localDataDir: dataDir, localCloudRunning: false }));
  delete process.env.FW_LOCAL_CREDENTIALS;
  assert.is(bad?.message, 'Invalid $FW_LOCAL_CREDENTIALS: expected ACCESS_KEY_ID:SECRET (the key of letters, digits, "_", "." or "-"), got "****"');
  rmSync(dataDir, { recursive: true, force: true });
});

signatures.run();

const secrets = suite<{ cloud: RunningLocalCloud; dataDir: string }>('local cloud access: secrets and files');

secrets.before(async (context) => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-access-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true });
});
secrets.after(async ({ cloud, dataDir }) => {
  await cloud.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

secrets('a SecureString reads as an opaque, stable ciphertext unless WithDecryption is true', async ({ cloud }) => {
  const ssm = new SSMClient({ endpoint: cloud.url, region, credentials, maxAttempts: 1 });
  await ssm.send(new PutParameterCommand({ Name: '/app/db-password', Value: 'hunter2', Type: 'SecureString' }));
  await ssm.send(new PutParameterCommand({ Name: '/app/plain', Value: 'visible', Type: 'String' }));
  const hidden = (await ssm.send(new GetParameterCommand({ Name: '/app/db-password' }))).Parameter!.Value!;
  assert.match(hidden, /^[A-Za-z0-9+/]{70,}={0,2}$/);
  assert.not.match(Buffer.from(hidden, 'base64').toString('latin1'), 'hunter2');
  assert.is((await ssm.send(new GetParameterCommand({ Name: '/app/db-password', WithDecryption: false }))).Parameter!.Value, hidden);
  assert.is((await ssm.send(new GetParameterCommand({ Name: '/app/db-password', WithDecryption: true }))).Parameter!.Value, 'hunter2');
  const several = await ssm.send(new GetParametersCommand({ Names: ['/app/db-password', '/app/plain'] }));
  assert.equal(several.Parameters!.map((p) => [p.Name, p.Type, p.Value]), [['/app/db-password', 'SecureString', hidden], ['/app/plain', 'String', 'visible']]);
  const decrypted = await ssm.send(new GetParametersByPathCommand({ Path: '/app', WithDecryption: true }));
  assert.equal(decrypted.Parameters!.map((p) => [p.Name, p.Value]), [['/app/db-password', 'hunter2'], ['/app/plain', 'visible']]);
  const byPath = await ssm.send(new GetParametersByPathCommand({ Path: '/app' }));
  assert.equal(byPath.Parameters!.map((p) => [p.Name, p.Value]), [['/app/db-password', hidden], ['/app/plain', 'visible']]);
  await ssm.send(new PutParameterCommand({ Name: '/app/db-password', Value: 'hunter3', Type: 'SecureString', Overwrite: true }));
  const rotated = (await ssm.send(new GetParameterCommand({ Name: '/app/db-password' }))).Parameter!;
  assert.equal([rotated.Version, rotated.Value === hidden, Object.keys(rotated).includes('Ciphertext')], [2, false, false]);
  ssm.destroy();
});

secrets('a function sees only its own environment, not the deployer’s, even through its parent process', async ({ cloud }) => {
  process.env.FW_TEST_DEPLOYER_SECRET = 'deployer-secret-value';
  const code = [
    "const fs = require('fs');",
    'exports.handler = async () => {',
    "  const proc = '/proc/' + process.ppid;",
    "  const readable = fs.existsSync(proc + '/environ');",
    "  return { env: process.env, parentEnviron: readable ? fs.readFileSync(proc + '/environ', 'utf8') : null, parentCommand: readable ? fs.readFileSync(proc + '/cmdline', 'utf8').split('\\0')[0] : null };",
    '};',
  ].join('\n');
  const cfn = new CloudFormationClient({ endpoint: cloud.url, region, credentials, maxAttempts: 1 });
  const template = { Resources: { Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'env-dump', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'r', Environment: { Variables: { GREETING: 'hi' } }, Code: { ZipFile: code } } } } };
  await cfn.send(new CreateStackCommand({ StackName: 'env', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(cfn, 'env')).StackStatus, 'CREATE_COMPLETE');
  const lambda = new LambdaClient({ endpoint: cloud.url, region, credentials, maxAttempts: 1 });
  const invoked = await lambda.send(new InvokeCommand({ FunctionName: 'env-dump' }));
  delete process.env.FW_TEST_DEPLOYER_SECRET;
  const seen = JSON.parse(Buffer.from(invoked.Payload!).toString()) as { env: Record<string, string>; parentEnviron: string | null; parentCommand: string | null };
  // What a POSIX shell adds for its children on its own.
  const shellOwn = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);
  assert.equal(Object.keys(seen.env).filter((key) => !shellOwn.has(key)).sort(), [
    'AWS_ACCESS_KEY_ID', 'AWS_DEFAULT_REGION', 'AWS_ENDPOINT_URL', 'AWS_EXECUTION_ENV', 'AWS_LAMBDA_FUNCTION_MEMORY_SIZE', 'AWS_LAMBDA_FUNCTION_NAME',
    'AWS_LAMBDA_FUNCTION_VERSION', 'AWS_LAMBDA_LOG_GROUP_NAME', 'AWS_LAMBDA_LOG_STREAM_NAME', 'AWS_REGION', 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED',
    'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'GREETING', 'LAMBDA_RUNTIME_DIR', 'LAMBDA_TASK_ROOT', 'LANG', 'NODE_PATH', 'PATH', 'PYTHONUNBUFFERED', 'TZ', '_HANDLER',
  ]);
  assert.equal([seen.env.AWS_ACCESS_KEY_ID, seen.env.AWS_SECRET_ACCESS_KEY, seen.env.GREETING], ['local', 'local', 'hi']);
  assert.not.match(JSON.stringify(seen.env), 'deployer-secret-value');
  if (process.platform === 'linux') {
    assert.is(seen.parentCommand, '/bin/sh');
    assert.not.match(seen.parentEnviron!, 'deployer-secret-value');
    assert.match(seen.parentEnviron!, 'AWS_LAMBDA_FUNCTION_NAME=env-dump');
  }
  cfn.destroy();
  lambda.destroy();
});

secrets('everything in the data folder is readable by its user only: files 0600, folders 0700', async ({ cloud, dataDir }) => {
  const s3 = new S3Client({ endpoint: cloud.url, region, credentials, forcePathStyle: true, maxAttempts: 1 });
  await s3.send(new CreateBucketCommand({ Bucket: 'modes' }));
  await s3.send(new PutObjectCommand({ Bucket: 'modes', Key: 'object.txt', Body: 'bytes' }));
  s3.destroy();
  const lambda = new LambdaClient({ endpoint: cloud.url, region, credentials, maxAttempts: 1 });
  await lambda.send(new InvokeCommand({ FunctionName: 'env-dump' }));
  lambda.destroy();
  await cloud.stop();
  const open: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const mode = statSync(path).mode & 0o777;
      if (mode !== (entry.isDirectory() ? 0o700 : 0o600)) open.push(`${path.slice(dataDir.length)} ${mode.toString(8)}`);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(dataDir);
  const kinds = readdirSync(dataDir).sort();
  assert.equal({ kinds, open, root: (statSync(dataDir).mode & 0o777).toString(8) }, { kinds: ['.fw-local-cloud', 'blobs', 'functions', 'processes', 'state'], open: [], root: '700' });
  // `fw local reset` removes only the entries it knows the local cloud writes.
  assert.equal(kinds.filter((kind) => !LOCAL_CLOUD_ENTRIES.includes(kind)), []);
  assert.equal(readdirSync(join(dataDir, 'state')).sort(), ['cloudformation.json', 'invocation-metrics.jsonl', 'logs.json', 'operations', 's3.json', 'ssm-history.json', 'ssm.json']);
});

secrets.run();
