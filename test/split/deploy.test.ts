import { readFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudFormationClient, DescribeStackResourcesCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DeployCommand } from '../../src/cli/deploy';
import { DiffCommand } from '../../src/cli/diff';
import { PackageCommand } from '../../src/cli/package';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { limitsExceeded } from '../../src/synth/split';
import { createClients } from '../../src/aws/clients';
import { lastDeployedState } from '../../src/deploy/deploy';
import { packageService } from '../../src/package/service';
import { runCommands } from '../diff/run';
import { HANDLER, manyFunctions } from './service';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
// Every progress line printed (no pacing), plain: NO_COLOR changes colour only.
const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1', FW_PROGRESS_INTERVAL_MS: '0' };
const EXTRA = `resources:
  Resources:
    Table:
      Type: AWS::DynamoDB::Table
      Properties:
        TableName: big-items
        BillingMode: PAY_PER_REQUEST
        AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]
        KeySchema: [{ AttributeName: id, KeyType: HASH }]
  Outputs:
    FirstFunctionArn:
      Value: { 'Fn::GetAtt': [Fn0LambdaFunction, Arn] }
`;
const PROVIDER = `  environment:
    TABLE: { Ref: Table }
`;
const SERVICE = (count: number) => manyFunctions(count, { provider: PROVIDER, extra: EXTRA });
const TABLE_HANDLER = HANDLER.replace('path: event.rawPath ?? event.path', 'path: event.rawPath ?? event.path, table: process.env.TABLE');

interface Context {
  cloud: RunningLocalCloud;
  dataDir: string;
  dir: string;
  cfn: CloudFormationClient;
  physicalIds: Map<string, string>;
  placement: Record<string, string>;
}

const deploy = suite<Context>('a 300-function service split into nested stacks, on the local cloud');

deploy.before(async context => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-split-data-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true });
  context.dir = mkdtempSync(join(tmpdir(), 'fw-split-service-'));
  writeFileSync(join(context.dir, 'fw.yml'), SERVICE(300));
  writeFileSync(join(context.dir, 'handler.js'), TABLE_HANDLER);
  context.cfn = new CloudFormationClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials });
});

deploy.after(async context => {
  await context.cloud.stop();
  rmSync(context.dataDir, { recursive: true, force: true });
  rmSync(context.dir, { recursive: true, force: true });
});

const fw = (context: Context, ...args: string[]) =>
  runCommands([PackageCommand, DeployCommand, DiffCommand], args[0] === 'package' ? args : [...args, '--endpoint-url', context.cloud.url], context.dir, ENV);
const readJson = (context: Context, file: string) => JSON.parse(readFileSync(join(context.dir, '.serverless', file), 'utf8'));

/** Every resource of the root stack and its nested stacks: logical id → physical id. */
async function physicalIds(context: Context): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const visit = async (stack: string) => {
    const { StackResources = [] } = await context.cfn.send(new DescribeStackResourcesCommand({ StackName: stack }));
    for (const resource of StackResources) {
      ids.set(resource.LogicalResourceId!, resource.PhysicalResourceId!);
      if (resource.ResourceType === 'AWS::CloudFormation::Stack') await visit(resource.PhysicalResourceId!);
    }
  };
  await visit('big-dev');
  return ids;
}

/** How many resources the root stack and its nested stacks hold (logical ids may repeat across stacks). */
async function resourceCount(context: Context, stack = 'big-dev'): Promise<number> {
  const { StackResources = [] } = await context.cfn.send(new DescribeStackResourcesCommand({ StackName: stack }));
  let count = StackResources.length;
  for (const resource of StackResources) if (resource.ResourceType === 'AWS::CloudFormation::Stack') count += await resourceCount(context, resource.PhysicalResourceId!);
  return count;
}

const baseUrl = (stdout: string, pattern: RegExp) => {
  const match = pattern.exec(stdout);
  assert.ok(match, `no endpoint matching ${pattern}`);
  return match![1];
};

deploy('fw package writes the nested templates beside the root one, each under every limit', async context => {
  const result = await fw(context, 'package');
  assert.is(result.code, 0, result.stderr);
  const state = readJson(context, 'serverless-state.json');
  const files = readdirSync(join(context.dir, '.serverless')).filter(file => file.startsWith('cloudformation-template-nested-')).sort();
  assert.equal(state.nestedStacks.map((stack: { file: string }) => stack.file).sort(), files);
  assert.ok(files.length >= 2, `only ${files.length} nested stacks`);
  const root = readJson(context, 'cloudformation-template-update-stack.json');
  for (const template of [root, ...files.map(file => readJson(context, file))]) assert.equal(limitsExceeded(template), []);
  assert.ok(root.Resources.Table, 'the user resource stays in the root stack');
  assert.equal(state.placement.resources.Table, 'root');
});

deploy('deploys, and the endpoints of functions in nested stacks answer with the root table name', async context => {
  const result = await fw(context, 'deploy');
  assert.is(result.code, 0, result.stderr);
  assert.match(result.stdout, 'Service deployed to stack big-dev');
  const ids = await physicalIds(context);
  assert.ok(ids.size > 2700, `${ids.size} resources`);
  // The progress counts the nested stacks' resources too, not only the root stack's (see deploy-progress.test.ts).
  const counts = [...result.stderr.matchAll(/^Updating stack \((\d+)\/(\d+) resources\)$/gm)].map(match => [Number(match[1]), Number(match[2])]);
  assert.ok(counts.length > 0, result.stderr);
  const deployed = await resourceCount(context);
  assert.equal(counts.at(-1), [deployed, deployed]);
  assert.ok(!result.stderr.includes('\u001b'), 'no control codes when piped');
  const httpApi = baseUrl(result.stdout, /GET - (\S+)\/h\/fn0\n/);
  const rest = baseUrl(result.stdout, /GET - (\S+)\/r\/fn0\n/);
  for (const url of [`${httpApi}/h/fn0`, `${httpApi}/h/fn299`, `${rest}/r/fn150`]) {
    const response = await fetch(url);
    assert.is(response.status, 200, url);
    assert.is(((await response.json()) as { table: string }).table, ids.get('Table'), url);
  }
  const stack = (await context.cfn.send(new DescribeStacksCommand({ StackName: 'big-dev' }))).Stacks![0];
  assert.is(stack.Outputs!.find(output => output.OutputKey === 'FirstFunctionArn')?.OutputValue, 'arn:aws:lambda:us-east-1:000000000000:function:big-dev-fn0');
  context.physicalIds = ids;
  context.placement = readJson(context, 'serverless-state.json').placement.resources;
});

deploy('an unchanged redeploy is skipped', async context => {
  const result = await fw(context, 'deploy');
  assert.is(result.code, 0, result.stderr);
  assert.match(result.stdout, 'No changes to deploy');
});

deploy('adding one function moves no existing resource', async context => {
  writeFileSync(join(context.dir, 'fw.yml'), SERVICE(301));
  const preview = await fw(context, 'diff');
  assert.is(preview.code, 2, preview.stderr);
  const lines = preview.stdout.split('\n').filter(line => /^[+~-] /.test(line));
  assert.not.ok(lines.some(line => line.startsWith('- ')), preview.stdout);
  assert.ok(lines.includes(`+ Fn300LambdaFunction (AWS::Lambda::Function) in ${readJson(context, 'serverless-state.json').placement.resources.Fn300LambdaFunction}`), preview.stdout);

  const result = await fw(context, 'deploy');
  assert.is(result.code, 0, result.stderr);
  assert.not.match(result.stdout, 'moves from');
  const placement = readJson(context, 'serverless-state.json').placement.resources;
  const after = await physicalIds(context);
  for (const [id, physicalId] of context.physicalIds) {
    if (id.startsWith('ApiGatewayDeployment')) continue;
    assert.is(placement[id], context.placement[id], `${id} changed stacks`);
    assert.is(after.get(id), physicalId, `${id} was replaced`);
  }
  const httpApi = baseUrl(result.stdout, /GET - (\S+)\/h\/fn300\n/);
  assert.is((await fetch(`${httpApi}/h/fn300`)).status, 200);
});

deploy('a fresh checkout packages with the deployed placement read from the deployment bucket', async context => {
  const deployed = readJson(context, 'serverless-state.json').placement.resources;
  rmSync(join(context.dir, '.serverless'), { recursive: true, force: true });
  const clients = createClients({ region: 'us-east-1', endpoint: context.cloud.url, credentials });
  const state = await lastDeployedState(clients, 'big-dev', 'serverless/big/dev');
  assert.equal(state?.placement?.resources, deployed);
  const packaged = await packageService({ cwd: context.dir, options: {}, previousPlacement: state!.placement });
  for (const [id, stack] of Object.entries(deployed)) {
    if (!id.startsWith('ApiGatewayDeployment')) assert.is(packaged.state.placement!.resources[id], stack, id);
  }
});

deploy.run();
