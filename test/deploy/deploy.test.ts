import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { runFw } from '../helpers/cli';
import { LOCAL_CREDENTIALS, startTestCloud, type TestCloud } from '../helpers/local-cloud';

const credentials = LOCAL_CREDENTIALS;
const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };

const SERVICE = `service: shop
provider:
  name: aws
  runtime: nodejs20.x
functions:
  users:
    handler: handler.users
    events:
      - httpApi: 'GET /users/{id}'
  orders:
    handler: handler.orders
    events:
      - http: GET orders/{orderId}
`;

const HANDLER = (greeting: string) => `
exports.users = async (event) => {
  console.log('users called with', event.pathParameters.id);
  return { statusCode: 200, body: JSON.stringify({ greeting: ${JSON.stringify(greeting)}, id: event.pathParameters.id, version: event.version }) };
};
exports.orders = async (event) => ({ statusCode: 200, body: JSON.stringify({ order: event.pathParameters.orderId, resource: event.resource }) });
`;

interface Context extends TestCloud {
  service: string;
}

const deploy = suite<Context>('fw deploy, info, invoke, logs and remove against the local cloud');

deploy.before(async context => {
  Object.assign(context, await startTestCloud());
  context.service = mkdtempSync(join(tmpdir(), 'fw-deploy-service-'));
  writeFileSync(join(context.service, 'fw.yml'), SERVICE);
  writeFileSync(join(context.service, 'handler.js'), HANDLER('hello'));
});

deploy.after(async context => {
  await context.stop();
  rmSync(context.service, { recursive: true, force: true });
});

const fw = (context: Context, ...args: string[]) => runFw([...args, '--endpoint-url', context.cloud.url], context.service, ENV);

const endpoint = (stdout: string, pattern: RegExp) => {
  const match = pattern.exec(stdout);
  assert.ok(match, `no endpoint matching ${pattern} in:\n${stdout}`);
  return match![1];
};

deploy('deploys the service and both endpoints answer with the handler', async context => {
  const result = await fw(context, 'deploy');
  assert.is(result.code, 0, result.stderr);
  assert.match(result.stdout, 'Service deployed to stack shop-dev');
  const httpApi = endpoint(result.stdout, /GET - (\S+)\/users\/\{id\}/);
  const rest = endpoint(result.stdout, /GET - (\S+)\/orders\/\{orderId\}/);
  const users = await fetch(`${httpApi}/users/42`);
  assert.is(users.status, 200);
  assert.equal(await users.json(), { greeting: 'hello', id: '42', version: '2.0' });
  const orders = await fetch(`${rest}/orders/7`);
  assert.is(orders.status, 200);
  assert.equal(await orders.json(), { order: '7', resource: '/orders/{orderId}' });
});

deploy('an unchanged redeploy is skipped without a stack update', async context => {
  const before = (await context.cfn.send(new DescribeStacksCommand({ StackName: 'shop-dev' }))).Stacks![0];
  const result = await fw(context, 'deploy');
  assert.is(result.code, 0, result.stderr);
  assert.match(result.stdout, 'No changes to deploy');
  const after = (await context.cfn.send(new DescribeStacksCommand({ StackName: 'shop-dev' }))).Stacks![0];
  assert.equal(after.LastUpdatedTime, before.LastUpdatedTime);
});

deploy('a code change redeploys and the endpoint answers with the new code', async context => {
  writeFileSync(join(context.service, 'handler.js'), HANDLER('bonjour'));
  const result = await fw(context, 'deploy', '--verbose');
  assert.is(result.code, 0, result.stderr);
  const updated = [...result.stdout.matchAll(/UPDATE_COMPLETE {2}(\w+) \(AWS::Lambda::Function\)/g)].map(m => m[1]).sort();
  assert.equal(updated, ['OrdersLambdaFunction', 'UsersLambdaFunction']);
  const httpApi = endpoint(result.stdout, /GET - (\S+)\/users\/\{id\}/);
  assert.equal(await (await fetch(`${httpApi}/users/1`)).json(), { greeting: 'bonjour', id: '1', version: '2.0' });
});

deploy('info shows the stack, endpoints and deployed function names', async context => {
  const result = await fw(context, 'info');
  assert.is(result.code, 0, result.stderr);
  assert.match(result.stdout, /^service: shop\nstage: dev\nregion: us-east-1\nstack: shop-dev \(UPDATE_COMPLETE\)\nendpoints:\n/);
  assert.match(result.stdout, 'functions:\n  users: shop-dev-users\n  orders: shop-dev-orders\n');
});

deploy('invoke runs the deployed function and prints its answer', async context => {
  const result = await fw(context, 'invoke', '-f', 'users', '--data', '{"pathParameters":{"id":"9"},"version":"2.0"}');
  assert.is(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout), { statusCode: 200, body: JSON.stringify({ greeting: 'bonjour', id: '9', version: '2.0' }) });
});

deploy("logs prints what the function logged", async context => {
  const result = await fw(context, 'logs', '-f', 'users', '--startTime', '1h');
  assert.is(result.code, 0, result.stderr);
  assert.match(result.stdout, 'users called with 9');
});

deploy('logs --tail follows the log until Ctrl-C, then exits 130', async context => {
  const tailing = fw(context, 'logs', '-f', 'users', '--startTime', '1h', '--tail');
  await new Promise(resolve => setTimeout(resolve, 300));
  process.emit('SIGINT');
  const result = await tailing;
  assert.is(result.code, 130, result.stderr);
  assert.match(result.stdout, 'users called with 9');
});

deploy('deploy function updates the code and memory of one function without a stack update', async context => {
  const before = (await context.cfn.send(new DescribeStacksCommand({ StackName: 'shop-dev' }))).Stacks![0];
  writeFileSync(join(context.service, 'handler.js'), HANDLER('hola'));
  writeFileSync(join(context.service, 'fw.yml'), SERVICE.replace("    handler: handler.users\n", '    handler: handler.users\n    memorySize: 256\n'));
  const result = await fw(context, 'deploy', 'function', '-f', 'users');
  assert.is(result.code, 0, result.stderr);
  assert.is(
    result.stdout,
    'Updated the code of shop-dev-users\nUpdated the configuration of shop-dev-users: MemorySize\n✔ Function users updated (code and configuration)\n',
  );
  const invoked = await fw(context, 'invoke', '-f', 'users', '--data', '{"pathParameters":{"id":"3"},"version":"2.0"}');
  assert.equal(JSON.parse(JSON.parse(invoked.stdout).body), { greeting: 'hola', id: '3', version: '2.0' });
  const after = (await context.cfn.send(new DescribeStacksCommand({ StackName: 'shop-dev' }))).Stacks![0];
  assert.equal(after.LastUpdatedTime, before.LastUpdatedTime);
  const again = await fw(context, 'deploy', 'function', '-f', 'users');
  assert.is(again.stdout, 'Function users is already up to date\n');
  writeFileSync(join(context.service, 'fw.yml'), SERVICE);
  // The stack was left drifted: the next deploy goes through CloudFormation and sets the function back to its package.
  const reconciled = await fw(context, 'deploy');
  assert.is(reconciled.code, 0, reconciled.stderr);
  assert.match(reconciled.stdout, 'The last deploy updated users in place (hotswap or deploy function): updating the stack through CloudFormation to match\n');
  const { LambdaClient, GetFunctionConfigurationCommand } = await import('@aws-sdk/client-lambda');
  const lambda = new LambdaClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials });
  assert.is((await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'shop-dev-users' }))).MemorySize, 1024);
  assert.match((await fw(context, 'deploy')).stdout, 'No changes to deploy');
});

deploy('a resource that fails rolls the update back and names the resource and reason', async context => {
  writeFileSync(
    join(context.service, 'fw.yml'),
    `${SERVICE}resources:\n  Resources:\n    BrokenBucket:\n      Type: AWS::S3::Bucket\n      Properties:\n        BucketName: Not_A_Valid_Bucket_Name\n`,
  );
  const result = await fw(context, 'deploy');
  assert.is(result.code, 1);
  assert.match(result.stderr, /^Error: Deploying stack shop-dev failed \(update\): BrokenBucket \(AWS::S3::Bucket\) failed: .+\. The stack was rolled back to its previous state \(UPDATE_ROLLBACK_COMPLETE\)\.\n$/);
  writeFileSync(join(context.service, 'fw.yml'), SERVICE);
});

deploy('${ssm:…} variables are read from the endpoint the command deploys to', async context => {
  const { SSMClient, PutParameterCommand } = await import('@aws-sdk/client-ssm');
  const ssm = new SSMClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials });
  await ssm.send(new PutParameterCommand({ Name: '/shop/greeting', Value: 'from-ssm', Type: 'String', Overwrite: true }));
  writeFileSync(join(context.service, 'fw.yml'), `${SERVICE}  env:\n    handler: env.read\n    environment:\n      GREETING: \${ssm:/shop/greeting}\n`);
  writeFileSync(join(context.service, 'env.js'), 'exports.read = async () => ({ greeting: process.env.GREETING });\n');
  const deployed = await fw(context, 'deploy');
  assert.is(deployed.code, 0, deployed.stderr);
  const invoked = await fw(context, 'invoke', '-f', 'env');
  assert.equal(JSON.parse(invoked.stdout), { greeting: 'from-ssm' });
  writeFileSync(join(context.service, 'fw.yml'), SERVICE);
});

deploy('remove deletes the stack and the deployment objects', async context => {
  const stack = (await context.cfn.send(new DescribeStacksCommand({ StackName: 'shop-dev' }))).Stacks![0];
  const bucket = stack.Outputs!.find(o => o.OutputKey === 'ServerlessDeploymentBucketName')!.OutputValue!;
  const result = await fw(context, 'remove');
  assert.is(result.code, 0, result.stderr);
  assert.match(result.stdout, 'Service shop (stage dev) removed');
  try {
    await context.cfn.send(new DescribeStacksCommand({ StackName: 'shop-dev' }));
    assert.unreachable('the stack should be gone');
  } catch (error) {
    assert.match((error as Error).message, 'does not exist');
  }
  try {
    const objects = await context.s3.send(new ListObjectsV2Command({ Bucket: bucket }));
    assert.is(objects.KeyCount ?? 0, 0);
  } catch (error) {
    assert.match((error as Error).name, 'NoSuchBucket');
  }
});

deploy('removing a service that is not deployed says so and exits 1', async context => {
  const result = await fw(context, 'remove');
  assert.is(result.code, 1);
  assert.is(result.stderr, 'Error: Stack shop-dev does not exist in us-east-1: the service is not deployed for stage dev\n');
});

deploy('missing credentials are one line naming what was tried', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-nocreds-'));
  mkdirSync(join(dir, 'home'));
  writeFileSync(join(dir, 'fw.yml'), SERVICE);
  const result = await runFw(['info'], dir, {
    AWS_ACCESS_KEY_ID: '',
    AWS_SECRET_ACCESS_KEY: '',
    AWS_PROFILE: '',
    AWS_CONFIG_FILE: join(dir, 'home', 'config'),
    AWS_SHARED_CREDENTIALS_FILE: join(dir, 'home', 'credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
    NO_COLOR: '1',
  });
  rmSync(dir, { recursive: true, force: true });
  assert.is(result.code, 1);
  assert.is(
    result.stderr,
    "Error: No AWS credentials found for describing shop-dev: none named (--aws-profile, AWS_<STAGE>_PROFILE, AWS_<STAGE>_ACCESS_KEY_ID, AWS_PROFILE, " +
      "AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, provider.profile), and the AWS SDK's default chain (the default profile of ~/.aws/credentials and " +
      '~/.aws/config, SSO, the container/instance metadata service) gave none. Configure credentials, pick a profile with --aws-profile, or deploy locally with --local.\n',
  );
});

deploy.run();
