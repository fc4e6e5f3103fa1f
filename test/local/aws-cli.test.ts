import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCloud } from '../../src/local/index';
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

/** boto3 signing with the required secret and with a wrong one, against a cloud that verifies signatures. */
const BOTO3_SIGNED_SCRIPT = `
import boto3, json, sys, urllib.request
from botocore.config import Config
from botocore.exceptions import ClientError
url = sys.argv[1]
def clients(secret):
    keys = dict(endpoint_url=url, region_name='us-east-1', aws_access_key_id='AKIDBOTO', aws_secret_access_key=secret)
    return boto3.client('cloudformation', **keys), boto3.client('s3', config=Config(signature_version='s3v4'), **keys), boto3.client('ssm', **keys)
cfn, s3, ssm = clients('boto-secret')
s3.create_bucket(Bucket='boto-bucket')
s3.put_object(Bucket='boto-bucket', Key='a b/c+d~e.txt', Body=b'boto body')
ssm.put_parameter(Name='/boto/p', Value='v', Type='String')
presigned = s3.generate_presigned_url('get_object', Params={'Bucket': 'boto-bucket', 'Key': 'a b/c+d~e.txt'})
result = {
    'stacks': len(cfn.list_stacks()['StackSummaries']),
    'object': s3.get_object(Bucket='boto-bucket', Key='a b/c+d~e.txt')['Body'].read().decode(),
    'presigned': urllib.request.urlopen(presigned).read().decode(),
    'parameter': ssm.get_parameter(Name='/boto/p')['Parameter']['Value'],
    'wrong': [],
}
for call in [lambda c: c[0].list_stacks(), lambda c: c[1].list_buckets(), lambda c: c[2].get_parameter(Name='/boto/p')]:
    try:
        call(clients('wrong-secret'))
        result['wrong'].append('served')
    except ClientError as error:
        result['wrong'].append(error.response['Error']['Code'])
print(json.dumps(result))
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

cli('boto3 signs as the local cloud verifies with --require-credentials', async () => {
  if (!hasBoto3) {
    console.log('  (skipped: boto3 is not installed)');
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'fw-boto-'));
  const cloud = await startLocalCloud({ port: 0, dataDir, quiet: true, credentials: { accessKeyId: 'AKIDBOTO', secretAccessKey: 'boto-secret' } });
  try {
    const result = JSON.parse(await run('python3', ['-c', BOTO3_SIGNED_SCRIPT, cloud.url], cloud.url));
    assert.equal(result, {
      stacks: 0,
      object: 'boto body',
      presigned: 'boto body',
      parameter: 'v',
      wrong: ['SignatureDoesNotMatch', 'SignatureDoesNotMatch', 'InvalidSignatureException'],
    });
  } finally {
    await cloud.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

cli.run();
