import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { settle, startTestCloud, type TestCloud } from './helpers';

const cli = suite<{ t: TestCloud }>('local cloud with the AWS CLI or boto3');

// boto3 does it all in one process, which is faster than three runs of the AWS CLI (each starts Python).
const hasBoto3 = spawnSync('python3', ['-c', 'import boto3'], { stdio: 'ignore' }).status === 0;
const hasAwsCli = !hasBoto3 && spawnSync('aws', ['--version'], { stdio: 'ignore' }).status === 0;

function run(command: string, args: string[], url: string): Promise<string> {
  const env = {
    ...process.env,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_CONFIG_FILE: '/dev/null',
    AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_ENDPOINT_URL: url,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

const BOTO3_SCRIPT = `
import boto3, json, sys, time
url = sys.argv[1]
cfn = boto3.client('cloudformation', endpoint_url=url)
s3 = boto3.client('s3', endpoint_url=url)
cfn.create_stack(StackName='clistack', TemplateBody=json.dumps({'Resources': {'Topic': {'Type': 'AWS::SNS::Topic', 'Properties': {'TopicName': 'cli-topic'}}}}))
while True:
    stack = cfn.describe_stacks(StackName='clistack')['Stacks'][0]
    if not stack['StackStatus'].endswith('IN_PROGRESS'):
        break
    time.sleep(0.05)
keys = [o['Key'] for o in s3.list_objects_v2(Bucket='cli-bucket')['Contents']]
print(json.dumps({'status': stack['StackStatus'], 'keys': keys}))
`;

cli.before(async (context) => {
  context.t = await startTestCloud();
  await context.t.s3.send(new CreateBucketCommand({ Bucket: 'cli-bucket' }));
  await context.t.s3.send(new PutObjectCommand({ Bucket: 'cli-bucket', Key: 'dir/one file.txt', Body: 'one' }));
});
cli.after(async (context) => {
  await context.t.stop();
});

cli('creates and describes a stack and lists objects', async ({ t }) => {
  if (!hasAwsCli && !hasBoto3) {
    console.log('  (skipped: neither the AWS CLI nor boto3 is installed)');
    return;
  }
  const url = t.cloud.url;
  if (hasBoto3) {
    const result = JSON.parse(await run('python3', ['-c', BOTO3_SCRIPT, url], url));
    assert.equal(result, { status: 'CREATE_COMPLETE', keys: ['dir/one file.txt'] });
    return;
  }
  const template = JSON.stringify({ Resources: { Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'cli-topic' } } } });
  const created = JSON.parse(await run('aws', ['--endpoint-url', url, 'cloudformation', 'create-stack', '--stack-name', 'clistack', '--template-body', template], url));
  assert.match(created.StackId, /^arn:aws:cloudformation:us-east-1:000000000000:stack\/clistack\//);
  await settle(t.cfn, 'clistack');
  const described = JSON.parse(await run('aws', ['--endpoint-url', url, 'cloudformation', 'describe-stacks', '--stack-name', 'clistack'], url));
  assert.is(described.Stacks[0].StackStatus, 'CREATE_COMPLETE');
  const listed = JSON.parse(await run('aws', ['--endpoint-url', url, 's3api', 'list-objects-v2', '--bucket', 'cli-bucket'], url));
  assert.equal(listed.Contents.map((o: { Key: string }) => o.Key), ['dir/one file.txt']);
});

cli.run();
