import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { LOCAL_CREDENTIALS, startTestService, type TestService } from '../helpers/local-cloud';

const SERVICE = `service: media
provider:
  name: aws
  runtime: nodejs20.x
functions:
  size:
    handler: handler.size
`;
const HANDLER = `exports.size = async () => require('node:fs').statSync(__dirname + '/blob.bin').size;\n`;

const upload = suite<TestService>('upload progress');

upload.before(async (context) => {
  Object.assign(context, await startTestService({ 'serverless.yml': SERVICE, 'handler.js': HANDLER }));
  // Random bytes do not compress: the zip is as large as the file, over the size that is streamed.
  writeFileSync(join(context.service, 'blob.bin'), randomBytes(12 * 1024 * 1024));
});

upload.after(async (context) => {
  await context.stop();
});

upload('a large zip reports its bytes as they go up, and arrives whole', async (context) => {
  const previousCi = process.env.CI;
  process.env.FW_PROGRESS_INTERVAL_MS = '0';
  process.env.CI = 'true';
  let deployed;
  try {
    deployed = await context.fw('deploy');
  } finally {
    delete process.env.FW_PROGRESS_INTERVAL_MS;
    if (previousCi === undefined) delete process.env.CI;
    else process.env.CI = previousCi;
  }
  assert.is(deployed.code, 0, deployed.stderr);
  const uploading = [...deployed.stderr.matchAll(/Uploading: ([\d.]+) MB of ([\d.]+) MB/g)].map((match) => [Number(match[1]), Number(match[2])]);
  const total = uploading.at(-1)![1];
  assert.ok(total >= 12, deployed.stderr);
  assert.equal(uploading.at(-1), [total, total]);
  assert.ok(uploading.some(([done]) => done > 0 && done < total), `no line within the upload: ${JSON.stringify(uploading)}`);
  const lambda = new LambdaClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const answer = await lambda.send(new InvokeCommand({ FunctionName: 'media-dev-size' }));
  assert.is(Buffer.from(answer.Payload!).toString(), String(12 * 1024 * 1024));
  lambda.destroy();
});

upload.run();
