import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DeployCommand } from '../../src/cli/deploy';
import { DiffCommand } from '../../src/cli/diff';
import { RemoveCommand } from '../../src/cli/remove';
import { CloudFormationClient, DescribeStackResourcesCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { runCommands } from '../diff/run';
import { HANDLER } from './service';

const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };
const SERVICE = (mode: string) => `service: moving
provider:
  name: aws
  runtime: nodejs20.x
  stackSplitting: ${mode}
functions:
  alpha:
    handler: handler.main
    events:
      - httpApi: 'GET /alpha'
  beta:
    handler: handler.main
`;

interface Context {
  cloud: RunningLocalCloud;
  dataDir: string;
  dir: string;
}

const moves = suite<Context>('stack splitting on request, and moves reported before they happen');

moves.before(async context => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-moves-data-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true });
  context.dir = mkdtempSync(join(tmpdir(), 'fw-moves-service-'));
  writeFileSync(join(context.dir, 'fw.yml'), SERVICE('per-function'));
  writeFileSync(join(context.dir, 'handler.js'), HANDLER);
});

moves.after(async context => {
  await context.cloud.stop();
  rmSync(context.dataDir, { recursive: true, force: true });
  rmSync(context.dir, { recursive: true, force: true });
});

const fw = (context: Context, ...args: string[]) => runCommands([DeployCommand, DiffCommand, RemoveCommand], [...args, '--endpoint-url', context.cloud.url], context.dir, ENV);

moves('per-function puts each function in its own nested stack, and its endpoint answers', async context => {
  const result = await fw(context, 'deploy');
  assert.is(result.code, 0, result.stderr);
  const url = /GET - (\S+)\/alpha\n/.exec(result.stdout)?.[1];
  assert.ok(url, result.stdout);
  const response = await fetch(`${url}/alpha`);
  assert.is(response.status, 200);
  assert.equal(await response.json(), { path: '/alpha' });
});

moves('a change of mode that moves resources is reported by fw diff, resource by resource', async context => {
  writeFileSync(join(context.dir, 'fw.yml'), SERVICE('per-type'));
  const result = await fw(context, 'diff');
  assert.is(result.code, 2, result.stderr);
  assert.match(
    result.stdout,
    '\nWarning: AlphaLambdaFunction moves from nested stack AlphaNestedStack to nested stack LambdaFunctionNestedStack: CloudFormation replaces it (a new physical resource; data it holds is lost)\n',
  );
  assert.match(result.stdout, '\n- AlphaLambdaFunction (AWS::Lambda::Function) in AlphaNestedStack\n');
  assert.match(result.stdout, '\n+ AlphaLambdaFunction (AWS::Lambda::Function) in LambdaFunctionNestedStack\n');
});

moves('fw remove deletes the nested stacks with the root stack', async context => {
  const cfn = new CloudFormationClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const { StackResources = [] } = await cfn.send(new DescribeStackResourcesCommand({ StackName: 'moving-dev' }));
  const nested = StackResources.filter(resource => resource.ResourceType === 'AWS::CloudFormation::Stack').map(resource => resource.PhysicalResourceId!);
  assert.is(nested.length, 2);
  const result = await fw(context, 'remove');
  assert.is(result.code, 0, result.stderr);
  for (const id of nested) {
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: id }))).Stacks![0];
    assert.is(stack.StackStatus, 'DELETE_COMPLETE', id);
  }
});

moves.run();
