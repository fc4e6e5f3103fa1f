import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { awsRequest } from '../../src/plugins/request';
import { removeDir, runFw } from './helpers';

/** The v3 plugin surface: what a plugin that reaches past it sees, commands two plugins share, AWS calls' time-outs. */
const surface = suite<{ dir: string }>('The Serverless v3 plugin surface');

surface.before.each((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'fw-v3-surface-'));
  writeFileSync(join(context.dir, 'handler.js'), 'exports.main = async () => 1;\n');
});
surface.after.each((context) => removeDir(context.dir));

function service(dir: string, plugins: Record<string, string>): void {
  const names = Object.keys(plugins);
  writeFileSync(
    join(dir, 'serverless.yml'),
    ['service: app', 'provider:', '  name: aws', '  runtime: nodejs20.x', 'plugins:', ...names.map((name) => `  - ./${name}`), 'functions:', '  hello:', '    handler: handler.main', ''].join('\n'),
  );
  for (const [name, source] of Object.entries(plugins)) writeFileSync(join(dir, `${name}.js`), source);
}

surface('a plugin using a member of v3\'s surface that fw lacks fails with one line naming both', async ({ dir }) => {
  service(dir, {
    stacks: `module.exports = class { constructor(serverless) { this.hooks = { 'package:initialize': () => serverless.getProvider('aws').getStackResources() }; } };`,
  });
  const result = await runFw(['package'], dir);
  assert.is(result.code, 1);
  assert.is(result.stderr, `Error: Plugin "./stacks" uses serverless.getProvider('aws').getStackResources, which fw does not provide\n`);
});

surface('a member neither v3 nor fw has is undefined, as in v3 (plugins probe for optional members)', async ({ dir }) => {
  service(dir, {
    probe: `module.exports = class { constructor(serverless) {
      this.commands = { probe: { lifecycleEvents: ['run'] } };
      this.hooks = { 'probe:run': () => serverless.cli.log('probe: ' + typeof serverless.notAServerlessMember + ' ' + typeof serverless.service.custom.absent) };
    } };`,
  });
  const result = await runFw(['probe'], dir);
  assert.is(result.stderr, '');
  assert.match(result.stdout, /^probe: undefined undefined$/m);
});

surface('two plugins extending the same command are merged as v3 merges them: both options, both hooks', async ({ dir }) => {
  service(dir, {
    offline: `module.exports = class {
      constructor(serverless, options) {
        this.commands = { offline: { usage: 'Runs offline', lifecycleEvents: ['start'], options: { port: { usage: 'Port', type: 'string' } } } };
        this.hooks = { 'offline:start': () => serverless.cli.log('offline started on ' + options.port) };
      }
    };`,
    bundler: `module.exports = class {
      constructor(serverless, options) {
        this.commands = { offline: { lifecycleEvents: ['start'], options: { watch: { usage: 'Rebuild on change', type: 'boolean' } } } };
        this.hooks = { 'before:offline:start': () => serverless.cli.log('bundled, watch ' + options.watch) };
      }
    };`,
  });
  const result = await runFw(['offline', '--port', '3001', '--watch'], dir);
  assert.is(result.stderr, '');
  assert.is(result.code, 0);
  assert.is(result.stdout, 'bundled, watch true\noffline started on 3001\n');
});

surface('service.setFunctionNames, getServiceObject, logDeprecation and pluginManager.spawn answer as in v3', async ({ dir }) => {
  service(dir, {
    calls: `module.exports = class {
      constructor(serverless) {
        this.commands = { greet: { lifecycleEvents: ['say'] }, calls: { lifecycleEvents: ['run'] } };
        this.hooks = {
          'greet:say': () => serverless.cli.log('greeted'),
          'calls:run': async () => {
            serverless.service.functions.extra = { handler: 'handler.main', events: [] };
            serverless.service.setFunctionNames({});
            serverless.cli.log(serverless.service.getFunction('extra').name + ' ' + serverless.service.getServiceObject().name);
            serverless.logDeprecation('OLD', 'old thing');
            serverless.logDeprecation('OLD', 'old thing');
            await serverless.pluginManager.spawn('greet');
          },
        };
      }
    };`,
  });
  const result = await runFw(['calls'], dir);
  assert.is(result.code, 0, result.stderr);
  assert.is(result.stdout, 'app-dev-extra app\ngreeted\n');
});

surface('provider.request gives up on a silent endpoint after fw\'s time-out, in one line', async () => {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const previous = process.env.FW_AWS_REQUEST_TIMEOUT;
  process.env.FW_AWS_REQUEST_TIMEOUT = '0.2';
  try {
    await awsRequest({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }, 'Lambda', 'listFunctions', {});
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).message, `Lambda.listFunctions: Lambda ListFunctions at ${endpoint} did not answer within 0.2 s (2 attempts; FW_AWS_REQUEST_TIMEOUT sets the limit)`);
  } finally {
    if (previous === undefined) delete process.env.FW_AWS_REQUEST_TIMEOUT;
    else process.env.FW_AWS_REQUEST_TIMEOUT = previous;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

surface.run();
