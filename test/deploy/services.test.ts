import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { FIXTURES } from '../helpers/golden';
import { runFw } from '../helpers/cli';

const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };

interface Context {
  cloud: RunningLocalCloud;
  work: string;
}

const services = suite<Context>('more services against the local cloud');

services.before(async context => {
  context.work = mkdtempSync(join(tmpdir(), 'fw-services-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: join(context.work, 'cloud'), quiet: true });
});

services.after(async context => {
  await context.cloud.stop();
  rmSync(context.work, { recursive: true, force: true });
});

const fw = (context: Context, cwd: string, ...args: string[]) => runFw([...args, '--endpoint-url', context.cloud.url], cwd, ENV);

services('a service using every event type deploys', async context => {
  const dir = join(context.work, 'all-events');
  cpSync(join(FIXTURES, 'events', 'all-events'), dir, { recursive: true, filter: source => !source.includes('expected') });
  // The `existing: true` bucket must exist, as on AWS: the custom resource configures it.
  const s3 = new S3Client({ endpoint: context.cloud.url, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: 'legacy-photos' }));
  const result = await fw(context, dir, 'deploy');
  assert.is(result.code, 0, result.stderr);
  const cfn = new CloudFormationClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'app-dev' }))).Stacks![0];
  assert.is(stack.StackStatus, 'UPDATE_COMPLETE');
});

services("changing one function's settings updates only that function's resources", async context => {
  const dir = join(context.work, 'two');
  cpSync(join(FIXTURES, 'golden', 'httpapi-catchall'), dir, { recursive: true, filter: source => !source.includes('expected') });
  writeFileSync(join(dir, 'serverless.yml'), readYaml(dir).replace('service: app', 'service: two'));
  assert.is((await fw(context, dir, 'deploy')).code, 0);
  writeFileSync(join(dir, 'serverless.yml'), readYaml(dir).replace('    handler: handler.getUser\n', '    handler: handler.getUser\n    memorySize: 256\n'));
  const result = await fw(context, dir, 'deploy', '--verbose');
  assert.is(result.code, 0, result.stderr);
  const touched = [...result.stdout.matchAll(/(?:UPDATE|CREATE)_COMPLETE {2}(\w+) \((AWS::[\w:]+)\)/g)].map(match => match[1]).sort();
  assert.equal(touched.filter(id => !id.startsWith('two-dev')), ['GetUserLambdaFunction', touched.find(id => id.startsWith('GetUserLambdaVersion'))!].sort());
});

services('invoke local runs a handler in-process with the given event', async context => {
  const dir = join(context.work, 'local-invoke');
  cpSync(join(__dirname, '..', '..', '..', 'examples', 'node-http-api'), dir, { recursive: true });
  const found = await runFw(['invoke', 'local', '-f', 'getItem', '--data', '{"pathParameters":{"id":"2"}}'], dir, ENV);
  assert.is(found.code, 0, found.stderr);
  assert.equal(JSON.parse(found.stdout), {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: '2', name: 'Pencil', price: 1.2 }),
  });
  const broken = await runFw(['invoke', 'local', '-f', 'getItem', '--data', '{}'], dir, ENV);
  assert.is(broken.code, 1);
  assert.is(JSON.parse(broken.stderr).errorType, 'TypeError');
});

function readYaml(dir: string): string {
  return require('node:fs').readFileSync(join(dir, 'serverless.yml'), 'utf8') as string;
}

services.run();
