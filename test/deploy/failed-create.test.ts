import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudFormationClient, CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { startLocalCloud } from '../../src/local';
import { childEnv } from '../helpers/env';

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

failedCreate.run();
