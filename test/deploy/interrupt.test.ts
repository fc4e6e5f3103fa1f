import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { childEnv } from '../helpers/env';

const FW = join(__dirname, '..', '..', '..', 'bin', 'fw.js');

interface Context {
  cloud: RunningLocalCloud;
  work: string;
}

const interrupt = suite<Context>('interrupting fw deploy');

interrupt.before(async context => {
  context.work = mkdtempSync(join(tmpdir(), 'fw-interrupt-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: join(context.work, 'cloud'), quiet: true });
});

interrupt.after(async context => {
  await context.cloud.stop();
  rmSync(context.work, { recursive: true, force: true });
});

interrupt('Ctrl-C during the stack update leaves CloudFormation finishing it and says so', async context => {
  // Enough resources that the update is still running when the signal arrives.
  const lines = ['service: big', 'provider:', '  name: aws', '  runtime: nodejs20.x', 'functions:'];
  for (let i = 0; i < 60; i++) lines.push(`  f${i}:`, '    handler: handler.main', '    events:', `      - httpApi: 'GET /f${i}'`, `      - http: GET f${i}`);
  writeFileSync(join(context.work, 'fw.yml'), `${lines.join('\n')}\n`);
  writeFileSync(join(context.work, 'handler.js'), 'exports.main = async () => ({ statusCode: 200 });\n');
  const env = childEnv({ AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  const child = spawn(process.execPath, [FW, 'deploy', '--endpoint-url', context.cloud.url], { cwd: context.work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', chunk => (stderr += chunk));
  child.stdout.on('data', chunk => {
    stdout += chunk;
    if (/Updating stack big-dev/.test(stdout)) child.kill('SIGINT');
  });
  const code = await new Promise<number | null>(resolve => child.on('close', resolve));
  assert.is(code, 130, `fw deploy ended with ${code}:\n${stdout}\n${stderr}`);
  assert.is(
    stderr,
    '\nInterrupted. CloudFormation goes on with the operation on stack big-dev by itself; run "fw info" to see where it ends, or "fw deploy" again (it waits for the running update).\n',
  );
  const cfn = new CloudFormationClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  let status: string | undefined;
  for (let i = 0; i < 100; i++) {
    status = (await cfn.send(new DescribeStacksCommand({ StackName: 'big-dev' }))).Stacks![0].StackStatus;
    if (!status?.endsWith('_IN_PROGRESS')) break;
    await new Promise(resolve => setTimeout(resolve, 100));
  }
  assert.is(status, 'UPDATE_COMPLETE');
});

interrupt.run();
