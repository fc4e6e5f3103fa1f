import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { normalize } from '../helpers/golden';
import { LOCAL_CREDENTIALS, startTestCloud, TEST_ENV, type TestCloud } from '../helpers/local-cloud';
import { readZip } from '../package/helpers';
import { parseYaml } from '../../src/formats/yaml';
import { FIXTURES } from './helpers';

/**
 * The Serverless v3 plugins services depend on, each packaged by fw (the real `fw` binary, in a
 * copy of test/fixtures/plugins/popular/<case>) and compared with what Serverless v3.40.0 packaged
 * for the same service with the same plugin version (expected/update.json, recorded by
 * scripts/plugin-goldens.js). The plugins are installed once from the npm registry outside the
 * repository (scripts/plugin-cache.js). docs/guides/plugins.md's plugin table is checked against the results.
 */
const REPO = join(__dirname, '..', '..', '..');
const ROOT = join(FIXTURES, 'popular');
const BIN = join(REPO, 'bin', 'fw.js');
const { pluginCache } = require(join(REPO, 'scripts', 'plugin-cache.js')) as {
  pluginCache(options?: { log?: (line: string) => void }): { nodeModules: string; installMs: number };
};
const { clockPreload } = require(join(REPO, 'scripts', 'goldens.js')) as { clockPreload(file: string): void };

interface Case {
  name: string;
  plugin: string;
  dir: string;
  expected?: unknown;
  /** The copy fw packaged, its stdout and stderr, and the template it wrote. */
  work: string;
  code: number | null;
  stdout: string;
  stderr: string;
  template?: unknown;
}

interface Context {
  root: string;
  cases: Map<string, Case>;
  cloud?: TestCloud;
}

/** Keys sorted at every level: templates compare by content, as uvu's deep equality does. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]))
      : value;
const same = (a: unknown, b: unknown) => JSON.stringify(canonical(normalize(a))) === JSON.stringify(canonical(normalize(b)));

function run(args: string[], cwd: string, preload: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--require', preload, BIN, ...args], {
      cwd,
      env: { ...process.env, ...TEST_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Generous: the Lift cases synthesize with the AWS CDK, and a loaded machine runs four at once.
      timeout: 300_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const popular = suite<Context>('Serverless v3 plugins people use, against Serverless v3');

popular.before(async (context) => {
  const started = Date.now();
  const { nodeModules, installMs } = pluginCache({ log: (line) => console.log(line) });
  context.cloud = await startTestCloud();
  if (installMs > 0) console.log(`(plugins installed in ${(installMs / 1000).toFixed(1)} s)`);
  context.root = mkdtempSync(join(tmpdir(), 'fw-popular-plugins-'));
  // Next to the copies, not in them: Node finds the plugins there, and fw never zips them.
  symlinkSync(nodeModules, join(context.root, 'node_modules'), 'dir');
  const preload = join(context.root, 'fixed-clock.cjs');
  clockPreload(preload);
  context.cases = new Map();
  const names = readdirSync(ROOT, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  for (const name of names) {
    const dir = join(ROOT, name);
    const plugin = /plugins:\s*\n\s*-\s*(\S+)/.exec(readFileSync(join(dir, 'serverless.yml'), 'utf8'))![1];
    const work = join(context.root, name);
    cpSync(dir, work, { recursive: true, filter: (source) => !source.startsWith(join(dir, 'expected')) });
    mkdirSync(join(work, 'node_modules'), { recursive: true });
    const expectedFile = join(dir, 'expected', 'update.json');
    const expected = existsSync(expectedFile) ? JSON.parse(readFileSync(expectedFile, 'utf8')) : undefined;
    context.cases.set(name, { name, plugin, dir, expected, work, code: null, stdout: '', stderr: '' });
  }
  // Four at a time: most take a second; lift (the AWS CDK) and serverless-bundle (webpack) take longer.
  const queue = [...context.cases.values()];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        // serverless-plugin-split-stacks asks CloudFormation for the stack's resources while packaging:
        // the local cloud answers as AWS does for a stack never deployed (v3's golden was recorded so).
        const env: Record<string, string> = next.name === 'split-stacks' ? { AWS_ENDPOINT_URL: context.cloud!.cloud.url } : {};
        Object.assign(next, await run(['package'], next.work, preload, env));
        const file = join(next.work, '.serverless', 'cloudformation-template-update-stack.json');
        if (existsSync(file)) next.template = JSON.parse(readFileSync(file, 'utf8'));
      }
    }),
  );
  console.log(`(${context.cases.size} services packaged in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
});

popular.after(async (context) => {
  await context.cloud?.stop();
  rmSync(context.root, { recursive: true, force: true });
});


for (const name of readdirSync(ROOT, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()) {
  popular(`${name}: fw packages the service; the result is what docs/guides/plugins.md says`, (context) => {
    const c = context.cases.get(name)!;
    const row = readmeRows().get(c.plugin);
    assert.ok(row, `docs/guides/plugins.md's plugin table has no row for ${c.plugin}`);
    const claimsIdentical = /^identical\b/.test(row!.result);
    if (claimsIdentical) {
      assert.is(c.stderr.includes('Error'), false, c.stderr);
      assert.is(c.code, 0, c.stderr);
      assert.ok(c.expected, `${name} has no recorded reference template`);
      assert.equal(canonical(normalize(c.template)), canonical(normalize(c.expected)));
    } else {
      assert.is(c.expected !== undefined && c.template !== undefined && same(c.template, c.expected), false, `${c.plugin} is identical now: say so in docs/guides/plugins.md`);
    }
  });
}

popular('serverless-python-requirements puts the requirement installed by pip from the local wheel folder into the zip', (context) => {
  const c = context.cases.get('python-requirements')!;
  const names = readZip(join(c.work, '.serverless', 'pythoned.zip')).map((entry) => entry.name);
  assert.ok(names.includes('tinygreet/__init__.py'), names.join(', '));
  assert.ok(names.includes('handler.py'), names.join(', '));
  assert.not.ok(names.some((entry) => entry.startsWith('wheels/')), names.join(', '));
});

popular('serverless-esbuild’s own zip (its bundle alone, set as package.artifact while packaging) is the one packaged, as v3 deploys it', (context) => {
  const c = context.cases.get('esbuild')!;
  assert.equal(readZip(join(c.work, '.serverless', 'esbuilt.zip')).map((entry) => entry.name), ['handler.js']);
  assert.not.ok(existsSync(join(c.work, '.esbuild')), 'serverless-esbuild removed its work folder');
});

popular('serverless-plugin-split-stacks writes its nested templates into the package, listed as artifacts to deploy', (context) => {
  const c = context.cases.get('split-stacks')!;
  const state = JSON.parse(readFileSync(join(c.work, '.serverless', 'serverless-state.json'), 'utf8')) as { artifacts: Array<{ name: string }> };
  assert.equal(state.artifacts.map((artifact) => artifact.name), ['splitted.zip', 'cloudformation-template-Policies-nested-stack.json', 'cloudformation-template-Versions-nested-stack.json']);
  const versions = JSON.parse(readFileSync(join(c.work, '.serverless', 'cloudformation-template-Versions-nested-stack.json'), 'utf8'));
  assert.equal(Object.keys(versions.Resources).map((id) => id.replace(/LambdaVersion\w+/, 'LambdaVersion<hash>')), ['HelloLambdaVersion<hash>']);
  assert.equal(versions.Parameters, { HelloLambdaFunctionParameter: { Type: 'String' } });
});

popular('serverless-step-functions, serverless-lift, serverless-apigateway-service-proxy and serverless-plugin-split-stacks: their resources are created by a deploy into the local cloud', async (context) => {
  const preload = join(context.root, 'fixed-clock.cjs');
  for (const [name, stack, expected] of [
    ['step-functions', 'flows-dev', ['Greeter', 'AWS::StepFunctions::StateMachine']],
    ['lift', 'lifted-dev', ['jobsQueueCEDBAE3E', 'AWS::SQS::Queue']],
    ['apigateway-service-proxy', 'proxied-dev', ['ApiGatewayMethodQueuePost', 'AWS::ApiGateway::Method']],
    ['split-stacks', 'splitted-dev', ['VersionsNestedStack', 'AWS::CloudFormation::Stack']],
  ] as const) {
    const c = context.cases.get(name)!;
    const result = await run(['deploy', '--endpoint-url', context.cloud!.cloud.url], c.work, preload);
    assert.is(result.code, 0, `${name}: ${result.stderr}`);
    const { StackResources = [] } = await context.cloud!.cfn.send(new DescribeStackResourcesCommand({ StackName: stack }));
    const resource = StackResources.find((entry) => entry.LogicalResourceId === expected[0]);
    assert.equal([resource?.ResourceType, resource?.ResourceStatus], [expected[1], 'CREATE_COMPLETE']);
  }
});

popular('serverless-step-functions: the state machines it declares run in the local cloud, a Task invoking the service\'s function', async (context) => {
  const sfn = new SFNClient({ endpoint: context.cloud!.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  try {
    const outputs: string[] = [];
    for (const name of ['greeter', 'flows-dev-named']) {
      const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn: `arn:aws:states:us-east-1:000000000000:stateMachine:${name}`, input: '{"from":"test"}' }));
      let described = await sfn.send(new DescribeExecutionCommand({ executionArn }));
      for (let waited = 0; described.status === 'RUNNING' && waited < 15_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        described = await sfn.send(new DescribeExecutionCommand({ executionArn }));
      }
      outputs.push(`${name} ${described.status} ${described.output ?? described.cause}`);
    }
    assert.equal(outputs, ['greeter SUCCEEDED {"statusCode":200,"body":"ok"}', 'flows-dev-named SUCCEEDED {"service":"flows"}']);
  } finally {
    sfn.destroy();
  }
});

popular('serverless-lift declares `constructs` with patternProperties: construct ids are not reported as unknown properties', (context) => {
  for (const name of ['lift', 'lift-references', 'lift-everywhere']) {
    const c = context.cases.get(name)!;
    assert.is(c.stderr.split('\n').filter((line) => /invalid configuration/i.test(line)).join('\n'), '', name);
  }
});

popular('serverless-lift in a serverless.js: ${construct:…} is Lift\'s variable source, and the template is the one v3 writes for lift-references', async (context) => {
  // Serverless v3 packages the same template from this serverless.js as from lift-references' serverless.yml.
  const c = context.cases.get('lift-references')!;
  const work = join(context.root, 'lift-references-js');
  cpSync(c.dir, work, { recursive: true, filter: (source) => !source.startsWith(join(c.dir, 'expected')) && !source.endsWith('serverless.yml') });
  const config = parseYaml(readFileSync(join(c.dir, 'serverless.yml'), 'utf8'), 'serverless.yml');
  writeFileSync(join(work, 'serverless.js'), `module.exports = ${JSON.stringify(config, null, 2)};\n`);
  const result = await run(['package'], work, join(context.root, 'fixed-clock.cjs'));
  assert.is(result.code, 0, result.stderr);
  const template = JSON.parse(readFileSync(join(work, '.serverless', 'cloudformation-template-update-stack.json'), 'utf8'));
  assert.equal(canonical(normalize(template)), canonical(normalize(c.expected)));
});

popular('serverless-export-env: "fw export-env --all" writes the deployed service and function environment to .env', async (context) => {
  const c = context.cases.get('export-env')!;
  const preload = join(context.root, 'fixed-clock.cjs');
  const endpoint = ['--endpoint-url', context.cloud!.cloud.url];
  const deployed = await run(['deploy', ...endpoint], c.work, preload);
  assert.is(deployed.code, 0, deployed.stderr);
  const result = await run(['export-env', '--all', ...endpoint], c.work, preload);
  assert.is(result.code, 0, result.stderr);
  assert.is(readFileSync(join(c.work, '.env'), 'utf8'), 'GREETING=hello\nTABLE=orders');
});

/** docs/guides/plugins.md's table of Serverless v3 plugins: plugin name → its result column. */
function readmeRows(): Map<string, { version: string; result: string }> {
  const readme = readFileSync(join(REPO, 'docs', 'guides', 'plugins.md'), 'utf8');
  const rows = new Map<string, { version: string; result: string }>();
  for (const match of readme.matchAll(/^\| `([^`]+)` (\S+) \| (.+?) \|$/gm)) rows.set(match[1], { version: match[2], result: match[3] });
  return rows;
}

popular('docs/guides/plugins.md lists each plugin at the version the tests install', () => {
  const pinned = JSON.parse(readFileSync(join(ROOT, 'plugins.json'), 'utf8')) as Record<string, string>;
  for (const name of readdirSync(ROOT, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    const plugin = /plugins:\s*\n\s*-\s*(\S+)/.exec(readFileSync(join(ROOT, name.name, 'serverless.yml'), 'utf8'))![1];
    assert.is(readmeRows().get(plugin)?.version, pinned[plugin], plugin);
  }
});


popular.run();
