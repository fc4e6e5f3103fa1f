import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeStackResourcesCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { normalize } from '../helpers/golden';
import { startTestCloud, TEST_ENV, type TestCloud } from '../helpers/local-cloud';

/**
 * A fast sample of scripts/public-services.js (which runs the whole corpus, outside `npm test`):
 * Serverless, Inc.'s public examples as the npm package serverless-sam@0.2.0 carries them,
 * installed from the registry into ~/.cache/fw-public-services (nothing of them committed),
 * packaged unchanged by fw and compared with the template serverless@3.40.0 packaged for them
 * (test/fixtures/public-services/<name>/update.json, recorded by `node scripts/public-services.js --record`),
 * then deployed unchanged with `fw deploy --local` and removed with `fw remove --local`.
 */
const REPO = join(__dirname, '..', '..', '..');
const BIN = join(REPO, 'bin', 'fw.js');
interface Service { name: string; dir: string }
const corpus = require(join(REPO, 'scripts', 'public-services.js')) as {
  collect(log: (line: string) => void, options: { filter?: RegExp; sources?: string[] }): Service[];
  workCopy(service: Service, root: string): string;
  TESTED: string[];
  RECORDED: string;
};
const { clockPreload } = require(join(REPO, 'scripts', 'goldens.js')) as { clockPreload(file: string): void };

interface Context {
  root: string;
  preload: string;
  services: Map<string, { work: string }>;
  t: TestCloud;
}

function run(args: string[], cwd: string, preload: string | undefined, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...(preload ? ['--require', preload] : []), BIN, ...args], { cwd, env: { ...process.env, ...TEST_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]))
      : value;

const services = suite<Context>('public services nobody here wrote: packaged as Serverless v3 packages them, deployed into the local cloud');

services.before(async (context) => {
  context.root = mkdtempSync(join(tmpdir(), 'fw-public-services-'));
  context.preload = join(context.root, 'fixed-clock.cjs');
  clockPreload(context.preload);
  context.services = new Map();
  const found = corpus.collect((line) => console.log(line), { filter: new RegExp(`^(${corpus.TESTED.join('|')})$`), sources: ['examples'] });
  for (const service of found) context.services.set(service.name, { work: corpus.workCopy(service, join(context.root, service.name)) });
  context.t = await startTestCloud();
});

services.after(async (context) => {
  await context.t?.stop();
  rmSync(context.root, { recursive: true, force: true });
});

for (const name of ['aws-multiple-runtime', 'aws-node-github-webhook-listener', 'aws-node-scheduled-cron']) {
  services(`${name}: fw packages the template v3 packages; fw deploy --local creates every resource and fw remove --local deletes the stack`, async (context) => {
    assert.ok(corpus.TESTED.includes(name), `${name} is not among the services scripts/public-services.js records`);
    const service = context.services.get(name);
    assert.ok(service, `${name} is not in serverless-sam@0.2.0`);
    // At the instant the recorded templates were packaged (the artifact's S3 key holds it).
    const packaged = await run(['package'], service!.work, context.preload);
    assert.is(packaged.code, 0, packaged.stderr);
    const template = JSON.parse(readFileSync(join(service!.work, '.serverless', 'cloudformation-template-update-stack.json'), 'utf8'));
    const expected = JSON.parse(readFileSync(join(corpus.RECORDED, name, 'update.json'), 'utf8'));
    assert.equal(canonical(normalize(template)), canonical(normalize(expected)));

    const local = { FW_LOCAL_PORT: String(context.t.cloud.port) };
    const deployed = await run(['deploy', '--local'], service!.work, undefined, local);
    assert.is(deployed.code, 0, deployed.stderr);
    const stackName = `${/^service: (\S+)/m.exec(readFileSync(join(service!.work, 'serverless.yml'), 'utf8'))![1]}-dev`;
    const { Stacks = [] } = await context.t.cfn.send(new DescribeStacksCommand({ StackName: stackName }));
    // As Serverless v3 deploys: the stack is created with the deployment bucket, then updated with the service.
    assert.is(Stacks[0]?.StackStatus, 'UPDATE_COMPLETE');
    const { StackResources = [] } = await context.t.cfn.send(new DescribeStackResourcesCommand({ StackName: stackName }));
    // Deployed at the real instant: the deployment's and versions' ids differ from the recorded ones.
    const id = (logicalId: string) => logicalId.replace(/^ApiGatewayDeployment\d+$/, 'ApiGatewayDeployment<instant>').replace(/LambdaVersion\w+$/, 'LambdaVersion<hash>');
    assert.equal(
      StackResources.map((resource) => [id(resource.LogicalResourceId!), resource.ResourceStatus]).sort(),
      Object.keys(expected.Resources).map((logicalId) => [id(logicalId), 'CREATE_COMPLETE']).sort(),
    );
    const removed = await run(['remove', '--local'], service!.work, undefined, local);
    assert.is(removed.code, 0, removed.stderr);
    const gone = await context.t.cfn.send(new DescribeStacksCommand({ StackName: stackName })).then(() => 'still there', (error: Error) => error.message);
    assert.is(gone, `Stack with id ${stackName} does not exist`);
  });
}

services.run();
