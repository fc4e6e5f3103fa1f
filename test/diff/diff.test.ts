import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudFormationClient, ListChangeSetsCommand } from '@aws-sdk/client-cloudformation';
import { DeployCommand } from '../../src/cli/deploy';
import { DiffCommand } from '../../src/cli/diff';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { runCommands } from './run';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };

const service = (options: { memory?: number; second?: string; bucket?: string } = {}) => `service: preview
provider:
  name: aws
  runtime: nodejs20.x
functions:
  users:
    handler: handler.users${options.memory ? `\n    memorySize: ${options.memory}` : ''}
    events:
      - httpApi: 'GET /users'
  ${options.second ?? 'orders'}:
    handler: handler.orders
resources:
  Resources:
    Uploads:
      Type: AWS::S3::Bucket
      Properties:
        BucketName: ${options.bucket ?? 'fw-preview-uploads-a'}
`;

interface Context {
  cloud: RunningLocalCloud;
  dataDir: string;
  dir: string;
  cfn: CloudFormationClient;
}

const diff = suite<Context>('fw diff and fw deploy --dry-run against the local cloud');

diff.before(async context => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-diff-data-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true });
  context.dir = mkdtempSync(join(tmpdir(), 'fw-diff-service-'));
  writeFileSync(join(context.dir, 'fw.yml'), service());
  writeFileSync(join(context.dir, 'handler.js'), 'exports.users = async () => ({ statusCode: 200 });\nexports.orders = async () => ({});\n');
  context.cfn = new CloudFormationClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials });
});

diff.after(async context => {
  await context.cloud.stop();
  rmSync(context.dataDir, { recursive: true, force: true });
  rmSync(context.dir, { recursive: true, force: true });
});

const fw = (context: Context, ...args: string[]) => runCommands([DiffCommand, DeployCommand], [...args, '--endpoint-url', context.cloud.url], context.dir, ENV);
const changeLines = (stdout: string) => stdout.split('\n').filter(line => /^[+~-] /.test(line));

diff('lists what would be created when the stack does not exist, and exits 2', async context => {
  const result = await fw(context, 'diff');
  assert.is(result.stderr, '');
  assert.is(result.code, 2);
  assert.match(result.stdout, /^Stack preview-dev does not exist yet; deploying would create:\n/);
  const lines = changeLines(result.stdout);
  for (const id of ['ServerlessDeploymentBucket', 'UsersLambdaFunction', 'OrdersLambdaFunction', 'HttpApi', 'Uploads']) {
    assert.ok(lines.some(line => line.startsWith(`+ ${id} (`)), `no "+ ${id}" in:\n${result.stdout}`);
  }
  assert.ok(lines.every(line => line.startsWith('+ ')));
});

diff('reports no change after a deploy and exits 0', async context => {
  const deployed = await fw(context, 'deploy');
  assert.is(deployed.code, 0, deployed.stderr);
  const result = await fw(context, 'diff');
  assert.is(result.stderr, '');
  assert.is(result.stdout, 'No changes: deploying would leave stack preview-dev as it is.\n');
  assert.is(result.code, 0);
});

diff('a changed memory size modifies the function without replacing it (deploy --dry-run)', async context => {
  writeFileSync(join(context.dir, 'fw.yml'), service({ memory: 512 }));
  const result = await fw(context, 'deploy', '--dry-run');
  assert.is(result.stderr, '');
  assert.is(result.code, 2);
  const lines = changeLines(result.stdout);
  assert.ok(lines.includes('~ UsersLambdaFunction (AWS::Lambda::Function): MemorySize'), result.stdout);
  assert.not.ok(lines.some(line => line.includes('OrdersLambdaFunction')), result.stdout);
  assert.not.ok(lines.some(line => line.includes('(replacement)')), result.stdout);
  assert.not.match(result.stdout, 'Service deployed');
});

diff('leaves no change set behind', async context => {
  const sets = await context.cfn.send(new ListChangeSetsCommand({ StackName: 'preview-dev' }));
  assert.equal((sets.Summaries ?? []).filter(set => set.ChangeSetName?.startsWith('fw-preview')), []);
});

diff('a renamed function is an add and a remove', async context => {
  writeFileSync(join(context.dir, 'fw.yml'), service({ second: 'purchases' }));
  const result = await fw(context, 'diff');
  assert.is(result.code, 2, result.stderr);
  const lines = changeLines(result.stdout);
  assert.ok(lines.includes('+ PurchasesLambdaFunction (AWS::Lambda::Function)'), result.stdout);
  assert.ok(lines.includes('+ PurchasesLogGroup (AWS::Logs::LogGroup)'), result.stdout);
  assert.ok(lines.includes('- OrdersLambdaFunction (AWS::Lambda::Function)'), result.stdout);
  assert.ok(lines.includes('- OrdersLogGroup (AWS::Logs::LogGroup)'), result.stdout);
  assert.not.ok(lines.some(line => line.includes('UsersLambdaFunction ')), result.stdout);
});

diff('a changed bucket name replaces the bucket, which deletes its data', async context => {
  writeFileSync(join(context.dir, 'fw.yml'), service({ bucket: 'fw-preview-uploads-b' }));
  const result = await fw(context, 'diff');
  assert.is(result.code, 2, result.stderr);
  assert.equal(changeLines(result.stdout), ['~ Uploads (AWS::S3::Bucket): BucketName (replacement) [DATA LOSS: deleted with its data]']);
  assert.match(
    result.stdout,
    /\nWarning: this resource holds data that deploying would delete: Uploads\. fw deploy refuses it unless given --allow-data-loss\.\n0 to add, 1 to change, 0 to remove\n$/,
  );
});

diff.run();
