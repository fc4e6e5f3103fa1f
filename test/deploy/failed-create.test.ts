import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudFormationClient, CreateStackCommand, DescribeStacksCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { startLocalCloud } from '../../src/local';
import { childEnv } from '../helpers/env';
import { startTestService } from '../helpers/local-cloud';
import { settle, zip } from '../local/helpers';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const FW = join(__dirname, '..', '..', '..', 'bin', 'fw.js');
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

const failedCreate = suite('deploying over a stack whose creation failed');

failedCreate('a stack in ROLLBACK_COMPLETE is deleted and created again by the next deploy', async () => {
  const work = mkdtempSync(join(tmpdir(), 'fw-failed-create-'));
  const cloud = await startLocalCloud({ port: 0, dataDir: join(work, 'cloud'), quiet: true });
  const cfn = new CloudFormationClient({ endpoint: cloud.url, region: 'us-east-1', credentials });
  try {
    // What an interrupted or failed first creation leaves: a stack that holds nothing and cannot be updated.
    const broken = { Resources: { Broken: { Type: 'AWS::Lambda::Function', Properties: { PackageType: 'Image', Role: 'r', Code: { ImageUri: 'x' } } } } };
    await cfn.send(new CreateStackCommand({ StackName: 'again-dev', TemplateBody: JSON.stringify(broken) }));
    for (let status = ''; status !== 'ROLLBACK_COMPLETE'; ) {
      await new Promise(resolve => setTimeout(resolve, 10));
      status = (await cfn.send(new DescribeStacksCommand({ StackName: 'again-dev' }))).Stacks![0].StackStatus!;
    }
    writeFileSync(join(work, 'fw.yml'), 'service: again\nprovider:\n  name: aws\n  runtime: nodejs20.x\nfunctions:\n  hello:\n    handler: handler.main\n');
    writeFileSync(join(work, 'handler.js'), 'exports.main = async () => "hi";\n');
    const child = spawn(process.execPath, [FW, 'deploy', '--endpoint-url', cloud.url], { cwd: work, env: childEnv({ AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', chunk => (stdout += chunk));
    child.stderr.on('data', chunk => (stderr += chunk));
    const code = await new Promise<number | null>(resolve => child.on('close', resolve));
    assert.is(code, 0, `${stdout}\n${stderr}`);
    assert.equal(
      stdout.split('\n').filter(line => /ROLLBACK_COMPLETE|^Creating stack|^Updating stack/.test(line)),
      [
        'Stack again-dev is in ROLLBACK_COMPLETE (its creation failed and was rolled back): deleting it to create it again',
        'Creating stack again-dev',
        'Updating stack again-dev (6 resources)',
      ],
    );
    assert.is((await cfn.send(new DescribeStacksCommand({ StackName: 'again-dev' }))).Stacks![0].StackStatus, 'UPDATE_COMPLETE');
  } finally {
    cfn.destroy();
    await cloud.stop();
    rmSync(work, { recursive: true, force: true });
  }
});

failedCreate('a stack in UPDATE_ROLLBACK_FAILED is refused with advice that names the local endpoint', async () => {
  const t = await startTestService({
    'fw.yml': 'service: stuck\nprovider:\n  name: aws\n  runtime: nodejs20.x\nfunctions:\n  hello:\n    handler: handler.main\n',
    'handler.js': 'exports.main = async () => "hi";\n',
  });
  try {
    // An update whose rollback fails: the code object the function must roll back to is gone.
    await t.s3.send(new CreateBucketCommand({ Bucket: 'code' }));
    for (const version of ['v1', 'v2']) {
      await t.s3.send(new PutObjectCommand({ Bucket: 'code', Key: `${version}.zip`, Body: await zip({ 'index.js': `exports.handler = async () => '${version}';` }) }));
    }
    const fn = (key: string) => ({
      Type: 'AWS::Lambda::Function',
      Properties: { Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'arn:aws:iam::000000000000:role/r', Code: { S3Bucket: 'code', S3Key: key } },
    });
    await t.cfn.send(new CreateStackCommand({ StackName: 'stuck-dev', TemplateBody: JSON.stringify({ Resources: { Fn: fn('v1.zip') } }) }));
    assert.is((await settle(t.cfn, 'stuck-dev')).StackStatus, 'CREATE_COMPLETE');
    await t.s3.send(new DeleteObjectCommand({ Bucket: 'code', Key: 'v1.zip' }));
    const broken = { Type: 'AWS::Lambda::Function', DependsOn: 'Fn', Properties: { PackageType: 'Image', Role: 'r', Code: { ImageUri: 'x' } } };
    await t.cfn.send(new UpdateStackCommand({ StackName: 'stuck-dev', TemplateBody: JSON.stringify({ Resources: { Fn: fn('v2.zip'), Broken: broken } }) }));
    assert.is((await settle(t.cfn, 'stuck-dev')).StackStatus, 'UPDATE_ROLLBACK_FAILED');

    const result = await t.fw('deploy');
    assert.is(result.code, 1, result.stdout + result.stderr);
    assert.ok(
      result.stderr.includes(
        `Stack stuck-dev is in UPDATE_ROLLBACK_FAILED: fix the resource that blocked the rollback, continue the rollback (aws cloudformation continue-update-rollback --stack-name stuck-dev --endpoint-url ${t.cloud.url}), then deploy again.`,
      ),
      result.stderr,
    );
  } finally {
    await t.stop();
  }
});

failedCreate.run();
