import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runFw } from '../helpers/cli';
import { TEST_ENV } from '../helpers/local-cloud';
import { Service } from '../../src/constructs/service';
import { synthesize } from '../../src/constructs/synthesize';
import { version } from '../../src/version';
import { startLocalCloud } from '../../src/local';
import { recordEndpoint } from '../../src/local/state/running-endpoint';

/** v3's commands that need no cloud: invoke local, print, package, plugin, config credentials, doctor, global options. */
const SERVICE = `# the shop service
service: shop # keep this comment
provider:
  name: aws
  runtime: nodejs20.x
  environment:
    GREETING: hello
functions:
  hello:
    handler: handler.main
  pyhello:
    handler: handler.main
    runtime: python3.12
plugins:
  # plugins we use
  - serverless-offline
`;
const NODE_HANDLER = `exports.main = async (event, context) => ({ greeting: process.env.GREETING, extra: process.env.EXTRA, event, clientContext: context.clientContext });\n`;
const PYTHON_HANDLER = `import os
def main(event, context):
    print("from python")
    return {"greeting": os.environ.get("GREETING"), "extra": os.environ.get("EXTRA"), "event": event, "clientContext": context.client_context}
`;
const python = spawnSync('python3', ['--version']).status === 0;

type Context = { dir: string; fw(...args: string[]): ReturnType<typeof runFw> };
const local = suite<Context>('Serverless v3 commands that need no cloud');

local.before.each(context => {
  context.dir = mkdtempSync(join(tmpdir(), 'fw-v3-local-'));
  writeFileSync(join(context.dir, 'serverless.yml'), SERVICE);
  writeFileSync(join(context.dir, 'handler.js'), NODE_HANDLER);
  writeFileSync(join(context.dir, 'handler.py'), PYTHON_HANDLER);
  writeFileSync(join(context.dir, 'context.json'), '{"from":"file"}');
  context.fw = (...args) => runFw(args, context.dir, TEST_ENV);
});

local.after.each(context => {
  rmSync(context.dir, { recursive: true, force: true });
});

local('invoke local passes --env over the service environment, --context, and --raw data to a Node.js handler', async context => {
  const result = await context.fw('invoke', 'local', '-f', 'hello', '--env', 'EXTRA=a=b', '-e', 'GREETING=hi', '--raw', '--data', '{"n":1}', '--context', '{"c":1}');
  assert.is(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout), { greeting: 'hi', extra: 'a=b', event: '{"n":1}', clientContext: { c: 1 } });
  delete process.env.EXTRA;
  delete process.env.GREETING;
  const fromFile = await context.fw('invoke', 'local', '-f', 'hello', '--context', '{"c":1}', '-x', 'context.json');
  assert.equal(JSON.parse(fromFile.stdout).clientContext, { from: 'file' });
  const bad = await context.fw('invoke', 'local', '-f', 'hello', '--env', 'NOVALUE');
  assert.is(bad.stderr, 'Error: Invalid --env "NOVALUE": expected KEY=VALUE\n');
  delete process.env.GREETING;
});

local('invoke local runs a Python handler with python3, its print on stderr', async context => {
  if (!python) return console.log('  (python3 not installed: Python invoke local not exercised)');
  const result = await context.fw('invoke', 'local', '-f', 'pyhello', '-e', 'EXTRA=x', '--data', '{"n":2}', '--context', '{"c":2}');
  assert.is(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout), { greeting: 'hello', extra: 'x', event: { n: 2 }, clientContext: { c: 2 } });
  assert.ok(result.stderr.includes('from python\n'), result.stderr);
});

local('invoke local --docker is refused in one line', async context => {
  const result = await context.fw('invoke', 'local', '-f', 'hello', '--docker');
  assert.is(result.code, 1);
  assert.is(result.stderr, 'Error: --docker is not supported: fw invoke local runs Node.js handlers in this process and Python handlers with python3, without Docker\n');
});

local('print --transform keys and --format text', async context => {
  const keys = await context.fw('print', '--path', 'functions', '--transform', 'keys', '--format', 'text');
  assert.is(keys.stdout, 'hello\npyhello\n');
  const json = await context.fw('print', '--path', 'provider', '--transform', 'keys', '--format', 'json');
  assert.equal(JSON.parse(json.stdout), ['name', 'runtime', 'environment', 'stage', 'region'].filter(key => JSON.parse(json.stdout).includes(key)));
  const text = await context.fw('print', '--path', 'service', '--format', 'text');
  assert.is(text.stdout, 'shop\n');
  const object = await context.fw('print', '--path', 'provider', '--format', 'text');
  assert.is(object.stderr, 'Error: --format text prints a plain value or a list: pick one with --path, or use --transform keys\n');
  const bad = await context.fw('print', '--transform', 'values');
  assert.is(bad.stderr, 'Error: --transform expects "keys", got "values"\n');
});

local('package --package DIR writes the package there, and deploy --package checks the folder', async context => {
  writeFileSync(join(context.dir, 'serverless.yml'), SERVICE.replace(/plugins:[\s\S]*$/, ''));
  const result = await context.fw('package', '--package', 'build/pkg', '--minify-template');
  assert.is(result.code, 0, result.stderr);
  const template = readFileSync(join(context.dir, 'build', 'pkg', 'cloudformation-template-update-stack.json'), 'utf8');
  assert.not.ok(template.includes('\n'));
  assert.ok(JSON.parse(template).Resources.HelloLambdaFunction);
  assert.ok(existsSync(join(context.dir, 'build', 'pkg', 'shop.zip')));
  assert.not.ok(existsSync(join(context.dir, '.serverless')));
  const missing = await context.fw('deploy', '-p', 'nowhere', '--endpoint-url', 'http://127.0.0.1:9');
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /^Error: Invalid --package "nowhere": expected a folder written by "fw package"/);
});

local('plugin install adds the plugin with npm and to plugins, keeping comments; uninstall removes both', async context => {
  const bin = mkdtempSync(join(tmpdir(), 'fw-fake-npm-'));
  // A hand-written npm: records its arguments, and edits devDependencies as npm would (no network here).
  writeFileSync(
    join(bin, 'npm'),
    `#!/usr/bin/env node
const fs = require('fs');
fs.appendFileSync('npm-calls.txt', process.argv.slice(2).join(' ') + '\\n');
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const [command, , spec] = process.argv.slice(2);
const name = spec.replace(/(.)@.*$/, '$1');
pkg.devDependencies = pkg.devDependencies || {};
if (command === 'install') pkg.devDependencies[name] = '^1.0.0'; else delete pkg.devDependencies[name];
fs.writeFileSync('package.json', JSON.stringify(pkg, null, 2));
`,
  );
  chmodSync(join(bin, 'npm'), 0o755);
  const env = { ...TEST_ENV, PATH: `${bin}${delimiter}${process.env.PATH}` };
  try {
    const installed = await runFw(['plugin', 'install', '-n', 'serverless-domain-manager@7.3.0'], context.dir, env);
    assert.is(installed.code, 0, installed.stderr);
    assert.is(installed.stdout, `✔ Plugin serverless-domain-manager@7.3.0 installed and added to plugins in ${join(context.dir, 'serverless.yml')}\n`);
    assert.is(readFileSync(join(context.dir, 'npm-calls.txt'), 'utf8'), 'install --save-dev serverless-domain-manager@7.3.0\n');
    assert.equal(JSON.parse(readFileSync(join(context.dir, 'package.json'), 'utf8')).devDependencies, { 'serverless-domain-manager': '^1.0.0' });
    assert.is(readFileSync(join(context.dir, 'serverless.yml'), 'utf8'), `${SERVICE}  - serverless-domain-manager\n`);
    const again = await runFw(['plugin', 'install', '-n', 'serverless-domain-manager'], context.dir, env);
    assert.ok(again.stdout.includes('(already in plugins in'), again.stdout);
    const removed = await runFw(['plugin', 'uninstall', '-n', 'serverless-offline'], context.dir, env);
    assert.is(removed.code, 0, removed.stderr);
    assert.is(readFileSync(join(context.dir, 'serverless.yml'), 'utf8'), SERVICE.replace('  - serverless-offline\n', '') + '  - serverless-domain-manager\n');
    writeFileSync(join(context.dir, 'serverless.yml'), SERVICE.replace(/plugins:[\s\S]*$/, 'plugins:\n  localPath: ./plugins\n  modules:\n    - serverless-offline\n'));
    await runFw(['plugin', 'install', '-n', '@scope/plugin'], context.dir, env);
    assert.ok(readFileSync(join(context.dir, 'serverless.yml'), 'utf8').endsWith('  modules:\n    - serverless-offline\n    - "@scope/plugin"\n'));
    rmSync(join(context.dir, 'serverless.yml'));
    writeFileSync(join(context.dir, 'serverless.json'), JSON.stringify({ service: 'shop', provider: { name: 'aws' } }));
    await runFw(['plugin', 'install', '-n', 'serverless-offline'], context.dir, env);
    assert.equal(JSON.parse(readFileSync(join(context.dir, 'serverless.json'), 'utf8')).plugins, ['serverless-offline']);
    const invalid = await runFw(['plugin', 'install', '-n', 'bad name'], context.dir, env);
    assert.is(invalid.stderr, 'Error: Invalid --name "bad name": expected an npm package name, optionally with @version\n');
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
});

local('plugin list and search read the list shipped with fw', async context => {
  const list = await context.fw('plugin', 'list');
  assert.match(list.stdout, /^serverless-offline\s+Emulate AWS Lambda and API Gateway locally/m);
  assert.ok(list.stdout.includes('From the list of common Serverless v3 plugins shipped with fw (not the npm registry: no network is used).'));
  const search = await context.fw('plugin', 'search', '-q', 'python');
  assert.match(search.stdout, /^serverless-python-requirements\s+Serverless plugin to bundle Python packages\n\n1 plugin found for "python"\./);
  const none = await context.fw('plugin', 'search', '--query', 'nothing-like-this');
  assert.ok(none.stdout.startsWith('No plugin found for "nothing-like-this".'));
});

local('config credentials writes a 0600 profile, refuses to overwrite it without -o, never prints the secret', async context => {
  const file = join(context.dir, 'aws', 'credentials');
  const env = { ...TEST_ENV, AWS_SHARED_CREDENTIALS_FILE: file };
  writeFileSync(join(context.dir, 'existing'), '');
  const saved = await runFw(['config', 'credentials', '--provider', 'aws', '--key', 'AKIAEXAMPLE1234', '--secret', 'SECRETVALUE'], context.dir, env);
  assert.is(saved.code, 0, saved.stderr);
  assert.is(saved.stdout, `Profile "default" saved in ${file} (access key AKIA…1234)\n`);
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.is(readFileSync(file, 'utf8'), '[default]\naws_access_key_id = AKIAEXAMPLE1234\naws_secret_access_key = SECRETVALUE\n');
  await runFw(['config', 'credentials', '-p', 'aws', '-k', 'AKIAWORK00000000', '-s', 'WORKSECRET', '-n', 'work'], context.dir, env);
  const refused = await runFw(['config', 'credentials', '-p', 'aws', '-k', 'AKIANEW', '-s', 'NEWSECRET'], context.dir, env);
  assert.is(refused.code, 1);
  assert.is(refused.stderr, `Error: Profile "default" is already in ${file}: add --overwrite (-o) to replace its keys\n`);
  const replaced = await runFw(['config', 'credentials', '-p', 'aws', '-k', 'AKIANEW', '-s', 'NEWSECRET', '-o'], context.dir, env);
  assert.is(replaced.code, 0);
  assert.not.ok(`${saved.stdout}${saved.stderr}${replaced.stdout}${replaced.stderr}`.includes('SECRET'));
  assert.is(
    readFileSync(file, 'utf8'),
    '[default]\naws_access_key_id = AKIANEW\naws_secret_access_key = NEWSECRET\n\n[work]\naws_access_key_id = AKIAWORK00000000\naws_secret_access_key = WORKSECRET\n',
  );
  const provider = await runFw(['config', 'credentials', '-p', 'azure', '-k', 'K', '-s', 'S'], context.dir, env);
  assert.is(provider.stderr, 'Error: Invalid --provider "azure": fw deploys to AWS, the only provider is "aws"\n');
});

local('doctor checks Node.js, credentials, the service file and the local cloud', async context => {
  const result = await runFw(['doctor'], context.dir, { ...TEST_ENV, FW_LOCAL_PORT: '0' });
  assert.is(result.code, 0, result.stdout);
  assert.is(
    result.stdout,
    `fw ${version}\n✔ Node.js ${process.versions.node}\n✔ AWS credentials: from the environment (AWS_ACCESS_KEY_ID)\n✔ Service file: ${join(context.dir, 'serverless.yml')}\n` +
      '- Local cloud: not running on port 0 ("fw local start" starts it; --local starts one per command)\nDeprecations: none stored (fw prints them when a command runs)\n',
  );
});

local('doctor: a local-only user in a new folder (no AWS credentials, no service file) gets warnings and exit code 0', async context => {
  rmSync(join(context.dir, 'serverless.yml'));
  const env = { ...TEST_ENV, FW_LOCAL_PORT: '0', AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '', AWS_SHARED_CREDENTIALS_FILE: join(context.dir, 'no-credentials') };
  const result = await runFw(['doctor'], context.dir, env);
  assert.is(result.code, 0, result.stdout);
  assert.equal(result.stdout.split('\n').slice(2, 4), [
    '! AWS credentials: none found in the environment or the shared credentials file (SSO, ~/.aws/config and instance roles are tried when a command runs; --local needs none)',
    `! Service file: No service file in ${context.dir}: expected one of fw.yml, fw.yaml, fw.json (or serverless.yml); run "fw" to create a service`,
  ]);
});

local('doctor finds the local cloud "fw local start" runs on another port, by the endpoint.json in its data folder', async context => {
  const dataDir = join(context.dir, 'cloud');
  const cloud = await startLocalCloud({ port: 0, dataDir, quiet: true });
  const forget = recordEndpoint(dataDir, { url: cloud.url, port: cloud.port });
  try {
    const result = await runFw(['doctor'], context.dir, { ...TEST_ENV, FW_LOCAL_PORT: '', FW_LOCAL_DATA: dataDir });
    assert.is(result.code, 0, result.stdout);
    assert.ok(result.stdout.includes(`\n✔ Local cloud: running on port ${cloud.port}\n`), result.stdout);
  } finally {
    forget();
    await cloud.stop();
  }
});

local('global options: --version on any command, --debug, Dashboard options and account commands say what fw does with them', async context => {
  assert.equal(await context.fw('package', '--version'), { code: 0, stdout: `${version}\n`, stderr: '' });
  assert.equal(await context.fw('plugin', 'list', '--version'), { code: 0, stdout: `${version}\n`, stderr: '' });
  const debug = await context.fw('print', '--path', 'service', '--debug', '--org', 'acme', '--use-local-credentials');
  assert.is(debug.code, 0);
  assert.is(debug.stderr, '--org, --use-local-credentials: Serverless Dashboard options, ignored (fw has no dashboard)\n');
  assert.is(process.env.SLS_DEBUG, undefined);
  for (const command of ['login', 'logout', 'dashboard', 'slstats']) {
    const result = await context.fw(command, ...(command === 'slstats' ? ['--disable'] : []));
    assert.equal(result, { code: 0, stdout: '', stderr: `fw ${command}: nothing to do, fw has no Serverless account or dashboard and sends no usage statistics\n` });
  }
  const interval = await context.fw('logs', '-f', 'hello', '--tail', '--interval', 'soon');
  assert.is(interval.stderr, 'Error: Invalid --interval "soon": expected milliseconds, at least 100\n');
});

local('--aws-s3-accelerate enables transfer acceleration on the deployment bucket (--no-aws-s3-accelerate suspends it), outside China and GovCloud', () => {
  const template = (region: string, s3Accelerate?: boolean) =>
    synthesize(new Service({ config: { service: 'app', provider: { name: 'aws' } } as never, stage: 'dev', region, artifactDirectory: 'a', instanceId: '1', s3Accelerate }));
  const enabled = template('us-east-1', true);
  assert.equal((enabled.Resources.ServerlessDeploymentBucket.Properties as Record<string, unknown>).AccelerateConfiguration, { AccelerationStatus: 'Enabled' });
  assert.equal(enabled.Outputs!.ServerlessDeploymentBucketAccelerated, { Value: true, Export: { Name: 'sls-app-dev-ServerlessDeploymentBucketAccelerated' } });
  assert.equal((template('eu-west-1', false).Resources.ServerlessDeploymentBucket.Properties as Record<string, unknown>).AccelerateConfiguration, { AccelerationStatus: 'Suspended' });
  assert.is((template('us-gov-west-1', true).Resources.ServerlessDeploymentBucket.Properties as Record<string, unknown>).AccelerateConfiguration, undefined);
  assert.is((template('us-east-1').Resources.ServerlessDeploymentBucket.Properties as Record<string, unknown>).AccelerateConfiguration, undefined);
});

local.run();
