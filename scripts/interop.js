#!/usr/bin/env node
// `npm run interop`: checks the local cloud with other AWS clients than fw's own SDK: the AWS CLI
// and boto3 (Python), when this machine has them. It starts `fw local start` on a free port with a
// temporary data folder, runs S3 (mb, cp, ls), DynamoDB (create-table, put-item, get-item), SQS
// (create-queue, send, receive) and Kinesis (create-stream, put-record, get-records) with each
// client; a public boto3 app deployed unchanged and driven as its README says
// (scripts/interop/public-python-app.js); a function vendoring Debian's old boto3, which reads no
// AWS_ENDPOINT_URL (scripts/interop/old-boto3.js); and (scripts/interop/moto-deploy.js) fw deploy, update and
// remove against moto through --endpoint-url. It prints what it ran, what passed and what it skipped (a missing client is a skip,
// not a pass). Exit code 1 when a check failed.
//
// Run `npm run build` first: fw runs from dist/.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { hasPython, startFwLocal } = require('./bench/servers');
const { motoDeployChecks } = require('./interop/moto-deploy');
const { publicPythonAppChecks } = require('./interop/public-python-app');
const { oldBoto3Checks } = require('./interop/old-boto3');
const { serverlessAppOperationChecks } = require('./interop/serverless-app-operations');

const CLIENT_TIMEOUT_MS = 60_000;

/** The AWS CLI's major version (1 or 2), or undefined when there is none. */
function awsCliVersion() {
  const run = spawnSync('aws', ['--version'], { encoding: 'utf8' });
  if (run.status !== 0) return undefined;
  return Number(/aws-cli\/(\d+)/.exec(`${run.stdout}${run.stderr}`)?.[1] ?? 2);
}

function env(url) {
  return { ...process.env, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_DEFAULT_REGION: 'us-east-1', AWS_ENDPOINT_URL: url, AWS_PAGER: '' };
}

/** One AWS CLI call; its JSON output parsed (or its text when it is not JSON). */
function aws(url, args) {
  const run = spawnSync('aws', ['--endpoint-url', url, '--output', 'json', ...args], { env: env(url), encoding: 'utf8', timeout: CLIENT_TIMEOUT_MS });
  if (run.status !== 0) throw new Error(`aws ${args.join(' ')}: ${(run.stderr || run.error?.message || '').trim()}`);
  try {
    return JSON.parse(run.stdout);
  } catch {
    return run.stdout;
  }
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

const CLI_CHECKS = {
  's3 mb, cp, ls': (url, scratch) => {
    const file = path.join(scratch, 'hello.txt');
    fs.writeFileSync(file, 'hello from the AWS CLI\n');
    aws(url, ['s3', 'mb', 's3://interop-cli']);
    aws(url, ['s3', 'cp', file, 's3://interop-cli/greetings/hello.txt']);
    const listing = aws(url, ['s3', 'ls', 's3://interop-cli/greetings/']);
    expect(String(listing).includes('hello.txt'), `s3 ls listed ${JSON.stringify(listing)}`);
    const back = path.join(scratch, 'back.txt');
    aws(url, ['s3', 'cp', 's3://interop-cli/greetings/hello.txt', back]);
    expect(fs.readFileSync(back, 'utf8') === 'hello from the AWS CLI\n', 'the downloaded object differs');
  },
  'dynamodb create-table, put-item, get-item': (url) => {
    aws(url, ['dynamodb', 'create-table', '--table-name', 'interop-cli', '--billing-mode', 'PAY_PER_REQUEST', '--attribute-definitions', 'AttributeName=id,AttributeType=S', '--key-schema', 'AttributeName=id,KeyType=HASH']);
    aws(url, ['dynamodb', 'put-item', '--table-name', 'interop-cli', '--item', '{"id":{"S":"a"},"n":{"N":"1"}}']);
    const { Item } = aws(url, ['dynamodb', 'get-item', '--table-name', 'interop-cli', '--key', '{"id":{"S":"a"}}']);
    expect(JSON.stringify(Item) === '{"id":{"S":"a"},"n":{"N":"1"}}', `get-item returned ${JSON.stringify(Item)}`);
  },
  'sqs create-queue, send-message, receive-message': (url) => {
    const { QueueUrl } = aws(url, ['sqs', 'create-queue', '--queue-name', 'interop-cli']);
    aws(url, ['sqs', 'send-message', '--queue-url', QueueUrl, '--message-body', 'hello']);
    const { Messages } = aws(url, ['sqs', 'receive-message', '--queue-url', QueueUrl, '--wait-time-seconds', '2']);
    expect(Messages?.[0]?.Body === 'hello', `receive-message returned ${JSON.stringify(Messages)}`);
  },
  'kinesis create-stream, put-record, get-records': (url) => {
    aws(url, ['kinesis', 'create-stream', '--stream-name', 'interop-cli', '--shard-count', '1']);
    // Blobs on the command line: v1 sends the text as it is, v2 reads base64 unless told otherwise.
    const binaryFormat = awsCliVersion() === 1 ? [] : ['--cli-binary-format', 'raw-in-base64-out'];
    const put = aws(url, ['kinesis', 'put-record', '--stream-name', 'interop-cli', '--partition-key', 'k', '--data', 'hello', ...binaryFormat]);
    const { ShardIterator } = aws(url, ['kinesis', 'get-shard-iterator', '--stream-name', 'interop-cli', '--shard-id', put.ShardId, '--shard-iterator-type', 'TRIM_HORIZON']);
    const { Records } = aws(url, ['kinesis', 'get-records', '--shard-iterator', ShardIterator]);
    expect(Records?.length === 1 && Buffer.from(Records[0].Data, 'base64').toString() === 'hello', `get-records returned ${JSON.stringify(Records)}`);
  },
};

/** The same calls through boto3, as one Python program that prints one line per check. */
const BOTO3_PROGRAM = String.raw`
import boto3, sys, traceback
session = boto3.session.Session(aws_access_key_id='local', aws_secret_access_key='local', region_name='us-east-1')
url = sys.argv[1]
def check(name, fn):
    try:
        fn()
        print('PASS ' + name)
    except Exception as error:
        print('FAIL ' + name + ': ' + repr(error).replace('\n', ' '))
def s3():
    client = session.client('s3', endpoint_url=url)
    client.create_bucket(Bucket='interop-boto3')
    client.put_object(Bucket='interop-boto3', Key='a/b.txt', Body=b'hello from boto3')
    keys = [o['Key'] for o in client.list_objects_v2(Bucket='interop-boto3')['Contents']]
    assert keys == ['a/b.txt'], keys
    assert client.get_object(Bucket='interop-boto3', Key='a/b.txt')['Body'].read() == b'hello from boto3'
def s3_tags_versions():
    from botocore.exceptions import ClientError
    client = session.client('s3', endpoint_url=url)
    client.create_bucket(Bucket='interop-boto3-tags')
    client.put_object(Bucket='interop-boto3-tags', Key='k', Body=b'bytes', Tagging='team=data', ChecksumAlgorithm='SHA256')
    client.delete_object_tagging(Bucket='interop-boto3-tags', Key='k')
    assert client.get_object_tagging(Bucket='interop-boto3-tags', Key='k')['TagSet'] == []
    assert client.get_object(Bucket='interop-boto3-tags', Key='k')['Body'].read() == b'bytes'
    try:
        client.get_bucket_tagging(Bucket='interop-boto3-tags')
        raise AssertionError('get_bucket_tagging answered without a tag set')
    except ClientError as error:
        assert error.response['Error']['Code'] == 'NoSuchTagSet', error.response
    client.put_bucket_versioning(Bucket='interop-boto3-tags', VersioningConfiguration={'Status': 'Enabled'})
    first = client.put_object(Bucket='interop-boto3-tags', Key='k', Body=b'v1')['VersionId']
    client.put_object(Bucket='interop-boto3-tags', Key='k', Body=b'v2')
    assert client.get_object(Bucket='interop-boto3-tags', Key='k', VersionId=first)['Body'].read() == b'v1'
    etag = client.head_object(Bucket='interop-boto3-tags', Key='k')['ETag']
    try:
        client.get_object(Bucket='interop-boto3-tags', Key='k', IfNoneMatch=etag)
        raise AssertionError('If-None-Match with the current ETag answered the object')
    except ClientError as error:
        assert error.response['ResponseMetadata']['HTTPStatusCode'] == 304, error.response
def dynamodb():
    client = session.client('dynamodb', endpoint_url=url)
    client.create_table(TableName='interop-boto3', BillingMode='PAY_PER_REQUEST', AttributeDefinitions=[{'AttributeName': 'id', 'AttributeType': 'S'}], KeySchema=[{'AttributeName': 'id', 'KeyType': 'HASH'}])
    client.put_item(TableName='interop-boto3', Item={'id': {'S': 'a'}, 'n': {'N': '1'}})
    item = client.get_item(TableName='interop-boto3', Key={'id': {'S': 'a'}})['Item']
    assert item == {'id': {'S': 'a'}, 'n': {'N': '1'}}, item
def sqs():
    client = session.client('sqs', endpoint_url=url)
    queue = client.create_queue(QueueName='interop-boto3')['QueueUrl']
    client.send_message(QueueUrl=queue, MessageBody='hello')
    messages = client.receive_message(QueueUrl=queue, WaitTimeSeconds=2).get('Messages', [])
    assert [m['Body'] for m in messages] == ['hello'], messages
def kinesis():
    client = session.client('kinesis', endpoint_url=url)
    client.create_stream(StreamName='interop-boto3', ShardCount=1)
    put = client.put_record(StreamName='interop-boto3', PartitionKey='k', Data=b'hello')
    iterator = client.get_shard_iterator(StreamName='interop-boto3', ShardId=put['ShardId'], ShardIteratorType='TRIM_HORIZON')['ShardIterator']
    records = client.get_records(ShardIterator=iterator)['Records']
    assert [r['Data'] for r in records] == [b'hello'], records
check('s3 create_bucket, put_object, list_objects_v2, get_object', s3)
check('s3 object tagging, bucket tagging, versioning, conditional get', s3_tags_versions)
check('dynamodb create_table, put_item, get_item', dynamodb)
check('sqs create_queue, send_message, receive_message', sqs)
check('kinesis create_stream, put_record, get_records', kinesis)
`;

async function main() {
  if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'fw.js'))) {
    console.error('dist/ is missing: run `npm run build` first.');
    process.exit(1);
  }
  const results = [];
  const server = await startFwLocal();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-interop-'));
  console.log(`fw local start at ${server.url}`);
  try {
    const cli = awsCliVersion();
    if (cli) {
      console.log(`AWS CLI v${cli}`);
      for (const [name, check] of Object.entries(CLI_CHECKS)) {
        try {
          check(server.url, scratch);
          results.push(`PASS  AWS CLI ${name}`);
        } catch (error) {
          results.push(`FAIL  AWS CLI ${name}: ${error.message}`);
        }
      }
    } else {
      results.push('SKIP  AWS CLI checks: `aws` is not on the PATH');
    }
    if (hasPython(['boto3'])) {
      const run = spawnSync('python3', ['-c', BOTO3_PROGRAM, server.url], { encoding: 'utf8', timeout: CLIENT_TIMEOUT_MS, env: { ...process.env, AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null' } });
      const lines = run.stdout.split('\n').filter(Boolean);
      if (lines.length === 0) results.push(`FAIL  boto3: ${(run.stderr || run.error?.message || 'no output').trim()}`);
      for (const line of lines) results.push(line.replace(/^(PASS|FAIL) /, '$1  boto3 '));
    } else {
      results.push('SKIP  boto3 checks: python3 has no boto3 (pip install boto3)');
    }
    results.push(...(await serverlessAppOperationChecks(server.url)));
    results.push(...(await publicPythonAppChecks(server.url)));
    results.push(...(await oldBoto3Checks(server.url)));
  } finally {
    await server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  results.push(...(await motoDeployChecks()));
  console.log(results.join('\n'));
  const failed = results.filter((line) => line.startsWith('FAIL')).length;
  const passed = results.filter((line) => line.startsWith('PASS')).length;
  const skipped = results.filter((line) => line.startsWith('SKIP')).length;
  console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
