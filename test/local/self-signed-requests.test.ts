import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { settle, startTestCloud, zip, type TestCloud } from './helpers';

const REPO = join(__dirname, '..', '..', '..');
const { installedPackage } = require(join(REPO, 'scripts', 'public-apps.js')) as { installedPackage(spec: string): string };

/**
 * A function that signs its own AWS calls with the `aws4` npm library (installed from the registry,
 * cached outside the repo), as apps that avoid the SDK do. aws4 derives the service from an
 * `*.amazonaws.com` host; for the local cloud's 127.0.0.1 it scopes the signature to no service. The
 * handler is this test's; aws4 is the published library, unchanged.
 */
const HANDLER = `
const http = require('node:http');
const aws4 = require('aws4');
exports.handler = async () => {
  const endpoint = new URL(process.env.AWS_ENDPOINT_URL);
  const signed = aws4.sign({
    hostname: endpoint.hostname, port: endpoint.port, path: '/', method: 'POST', body: '{}',
    headers: { Host: endpoint.host, 'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': 'DynamoDB_20120810.ListTables' },
  });
  const answer = await new Promise((resolve, reject) => {
    const request = http.request(signed, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode, body: JSON.parse(text) }));
    });
    request.on('error', reject);
    request.end(signed.body);
  });
  return { scope: /Credential=[^/]+\\/\\d{8}\\/([^,]*)\\/aws4_request/.exec(signed.headers.Authorization)[1], ...answer };
};`;

const selfSigned = suite<{ t: TestCloud; lambda: LambdaClient }>('functions that sign their own requests');

selfSigned.before(async (context) => {
  const aws4 = join(installedPackage('aws4@1.13.2'), 'aws4');
  const files: Record<string, string> = { 'handler.js': HANDLER };
  for (const name of readdirSync(aws4)) files[`node_modules/aws4/${name}`] = readFileSync(join(aws4, name), 'utf8');
  context.t = await startTestCloud();
  context.lambda = new LambdaClient({ ...context.t.config, maxAttempts: 1 });
  await context.t.s3.send(new CreateBucketCommand({ Bucket: 'code' }));
  await context.t.s3.send(new PutObjectCommand({ Bucket: 'code', Key: 'aws4.zip', Body: await zip(files) }));
  const template = {
    Resources: {
      Table: { Type: 'AWS::DynamoDB::Table', Properties: { TableName: 'signed-by-aws4', BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }] } },
      Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'aws4-signer', Handler: 'handler.handler', Runtime: 'nodejs20.x', Role: 'r', Code: { S3Bucket: 'code', S3Key: 'aws4.zip' } } },
    },
  };
  await context.t.cfn.send(new CreateStackCommand({ StackName: 'aws4', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(context.t.cfn, 'aws4');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE', stack.StackStatusReason);
});

selfSigned.after(async (context) => {
  context.lambda.destroy();
  await context.t.stop();
});

selfSigned('a DynamoDB call signed by aws4 for 127.0.0.1 (scoped to no service) is served in the any-credentials mode', async ({ lambda }) => {
  const invoked = await lambda.send(new InvokeCommand({ FunctionName: 'aws4-signer' }));
  assert.is(invoked.FunctionError, undefined, Buffer.from(invoked.Payload ?? []).toString());
  assert.equal(JSON.parse(Buffer.from(invoked.Payload!).toString()), { scope: 'us-east-1/', status: 200, body: { TableNames: ['signed-by-aws4'] } });
});

selfSigned.run();
