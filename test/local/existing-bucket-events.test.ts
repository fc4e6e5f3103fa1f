import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateBucketCommand, GetBucketNotificationConfigurationCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { startTestService, type TestService } from '../helpers/local-cloud';

const SERVICE = `service: photos
provider:
  name: aws
  runtime: nodejs20.x
functions:
  thumbnail:
    handler: handler.main
    events:
      - s3:
          bucket: legacy-photos
          event: s3:ObjectCreated:*
          rules:
            - prefix: uploads/
          existing: true
`;

/** Writes what it saw beside the upload (outside the rule's prefix, so it does not trigger itself). */
const HANDLER = `
const { S3Client, PutObjectCommand } = require('@aws-sdk/client-s3');
const s3 = new S3Client({});
exports.main = async (event) => {
  const record = event.Records[0];
  await s3.send(new PutObjectCommand({ Bucket: record.s3.bucket.name, Key: 'seen/' + record.s3.object.key, Body: record.eventName }));
};
`;

// The SDK warns once per process that Node 20 support ends; tests need not say so.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

type Context = TestService;

const existingBucket = suite<Context>('an s3 event on an existing bucket in the local cloud');

existingBucket.before(async (context) => {
  Object.assign(context, await startTestService({ 'serverless.yml': SERVICE, 'handler.js': HANDLER }));
  await context.s3.send(new CreateBucketCommand({ Bucket: 'legacy-photos' }));
});

existingBucket.after(async (context) => {
  await context.stop();
});

async function objectText(context: Context, key: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await (await context.s3.send(new GetObjectCommand({ Bucket: 'legacy-photos', Key: key }))).Body!.transformToString();
    } catch (error) {
      if ((error as Error).name !== 'NoSuchKey' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

existingBucket('fw deploy runs the existing-bucket custom resource, and an upload then runs the function', async (context) => {
  const deploy = await context.fw('deploy');
  assert.is(deploy.code, 0, deploy.stderr);
  assert.not.match(deploy.stdout, /Custom::S3/);
  const notification = await context.s3.send(new GetBucketNotificationConfigurationCommand({ Bucket: 'legacy-photos' }));
  assert.equal(notification.LambdaFunctionConfigurations, [
    {
      Id: 'fw:photos-dev-thumbnail:0',
      LambdaFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:photos-dev-thumbnail',
      Events: ['s3:ObjectCreated:*'],
      Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'uploads/' }] } },
    },
  ]);
  await context.s3.send(new PutObjectCommand({ Bucket: 'legacy-photos', Key: 'uploads/cat.jpg', Body: 'jpeg bytes' }));
  assert.is(await objectText(context, 'seen/uploads/cat.jpg'), 'ObjectCreated:Put');
});

existingBucket('fw remove sends the Delete that takes the function off the bucket', async (context) => {
  const remove = await context.fw('remove');
  assert.is(remove.code, 0, remove.stderr);
  const notification = await context.s3.send(new GetBucketNotificationConfigurationCommand({ Bucket: 'legacy-photos' }));
  assert.equal(notification.LambdaFunctionConfigurations, undefined);
});

existingBucket.run();

const missingBucket = suite('an s3 event on an existing bucket the local cloud does not have');

missingBucket('the service still deploys, and the report says the events do not fire until the bucket exists', async () => {
  const t = await startTestService({ 'serverless.yml': SERVICE, 'handler.js': HANDLER });
  try {
    const deploy = await t.fw('deploy');
    assert.is(deploy.code, 0, deploy.stderr);
    const notEnforced = deploy.stdout.split('\n').filter((line) => line.includes('custom resource not run'));
    assert.equal(notEnforced, [
      `  - ThumbnailCustomS31: custom resource not run: the existing bucket legacy-photos is not in the local cloud, so its events do not fire; create it (aws s3 mb s3://legacy-photos --endpoint-url <local cloud URL>), then fw remove and fw deploy`,
    ]);
  } finally {
    await t.stop();
  }
});

missingBucket.run();
