import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { runFw } from '../helpers/cli';
import { startTestService, TEST_ENV, type TestService } from '../helpers/local-cloud';


const USERS = `service: shelf
provider:
  name: aws
  runtime: nodejs20.x
functions:
  users:
    handler: handler.main
    events:
      - httpApi: 'GET /users/{id}'
`;

/** One more function with routes, and a bucket the local cloud refuses like S3 does: the update rolls back. */
const FAILING = `${USERS}  orders:
    handler: handler.main
    events:
      - httpApi: 'GET /orders'
      - http: GET orders/{orderId}
resources:
  Resources:
    BrokenBucket:
      Type: AWS::S3::Bucket
      Properties:
        BucketName: Not_A_Valid_Bucket_Name
`;

/** The first lines of fw info for the stack after the failed deploy. */
const ROLLED_BACK = [
  'service: shelf',
  'stage: dev',
  'region: us-east-1',
  'stack: shelf-dev (UPDATE_ROLLBACK_COMPLETE)',
  'note: the last deploy failed and was rolled back: listed below is what was deployed before it',
];

type Context = TestService;

const info = suite<Context>('fw info after a deploy that rolled back');

info.before(async context => {
  Object.assign(context, await startTestService({ 'handler.js': 'exports.main = async () => ({ statusCode: 200 });\n' }));
});

info.after(async context => {
  await context.stop();
});

const fw = (context: Context, config: string, ...args: string[]) => {
  writeFileSync(join(context.service, 'fw.yml'), config);
  return runFw([...args, '--endpoint-url', context.cloud.url], context.service, TEST_ENV);
};

const httpApiUrl = async (context: Context) =>
  (await context.cfn.send(new DescribeStacksCommand({ StackName: 'shelf-dev' }))).Stacks![0].Outputs!.find(output => output.OutputKey === 'HttpApiUrl')!.OutputValue!;

info('lists what the stack holds and says the last deploy was rolled back, not what the service file says', async context => {
  const deployed = await fw(context, USERS, 'deploy');
  assert.is(deployed.code, 0, deployed.stdout + deployed.stderr);
  const failed = await fw(context, FAILING, 'deploy');
  assert.is(failed.code, 1, failed.stdout);
  const result = await fw(context, FAILING, 'info');
  assert.is(result.code, 0, result.stderr);
  assert.is(
    result.stdout,
    [
      ...ROLLED_BACK,
      'endpoints:',
      `  GET - ${await httpApiUrl(context)}/users/{id}`,
      'functions:',
      '  users: shelf-dev-users',
      '',
    ].join('\n'),
  );
});

info('a function the service file no longer has is listed while the stack still holds it', async context => {
  const result = await fw(context, USERS.replace('  users:', '  people:'), 'info');
  assert.is(result.code, 0, result.stderr);
  assert.is(
    result.stdout,
    [
      ...ROLLED_BACK,
      'functions:',
      '  Users: shelf-dev-users',
      '',
    ].join('\n'),
  );
});

info.run();
