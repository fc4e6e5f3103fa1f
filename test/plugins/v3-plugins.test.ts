import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { packageService } from '../../src/package/service';
import { FIXTURES, copyFixture, removeDir, runFw } from './helpers';

/**
 * Real Serverless Framework v3 plugins from npm, installed at test time next to a copy of
 * test/fixtures/plugins/v3-service. The expected template parts were recorded from
 * Serverless v3.40.0 packaging the same service with the same plugin versions.
 */
const PLUGINS = ['serverless-iam-roles-per-function@3.2.0', 'serverless-prune-plugin@2.1.0'];
const NOW = new Date('2024-01-01T00:00:00.000Z');

interface Context {
  dir: string;
}

const v3 = suite<Context>('Serverless Framework v3 plugins from npm');

v3.before(context => {
  context.dir = copyFixture('v3-service');
  const npm = spawnSync(
    process.platform === 'win32' ? 'npm.cmd' : 'npm',
    ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--legacy-peer-deps', '--loglevel=error', ...PLUGINS],
    { cwd: context.dir, encoding: 'utf8', timeout: 120_000 },
  );
  if (npm.status !== 0) {
    // uvu does not print a failing before hook's error: say it here, then fail the suite.
    const message = `Installing ${PLUGINS.join(', ')} from the npm registry failed (this suite needs it): ${npm.error?.message ?? npm.stderr}`;
    console.error(message);
    throw new Error(message);
  }
});

v3.after(context => removeDir(context.dir));

v3('serverless-iam-roles-per-function gives a function its own role, as it does under Serverless v3', async ({ dir }) => {
  const golden = JSON.parse(readFileSync(join(FIXTURES, 'v3-service.golden.json'), 'utf8'));
  const packaged = await packageService({ cwd: dir, options: {}, now: NOW });
  const resources = packaged.template.Resources as Record<string, { Properties: Record<string, unknown>; DependsOn?: unknown }>;
  assert.equal(resources.ReaderIamRoleLambdaExecution, golden.ReaderIamRoleLambdaExecution);
  assert.equal(resources.ReaderLambdaFunction.DependsOn, golden['ReaderLambdaFunction.DependsOn']);
  assert.equal(resources.ReaderLambdaFunction.Properties.Role, golden['ReaderLambdaFunction.Properties.Role']);
  assert.equal(resources.WriterLambdaFunction.Properties.Role, golden['WriterLambdaFunction.Properties.Role']);
  assert.equal(resources.ReaderEventSourceMappingSQSJobs, golden.ReaderEventSourceMappingSQSJobs);
});

v3('serverless-prune-plugin adds "fw prune", whose provider.request calls reach the Lambda API of the endpoint', async ({ dir }) => {
  const calls: string[] = [];
  const server = fakeLambda(calls);
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  try {
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const env = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_REGION: 'us-east-1' };
    const result = await runFw(['prune', '-n', '1', '--endpoint-url', endpoint], dir, env);
    assert.is(result.stderr, '');
    assert.is(result.code, 0);
    assert.equal(calls, [
      'GET /2015-03-31/functions/legacy-dev-reader/versions',
      'GET /2015-03-31/functions/legacy-dev-reader/aliases',
      'GET /2015-03-31/functions/legacy-dev-writer/versions',
      'GET /2015-03-31/functions/legacy-dev-writer/aliases',
      'DELETE /2015-03-31/functions/legacy-dev-reader?Qualifier=1',
    ]);
    assert.is(result.stdout, '✔ Pruning of functions complete\n');
  } finally {
    server.closeAllConnections();
    await new Promise(resolve => server.close(resolve));
  }
});

v3('a v3 plugin command without its required option is refused', async ({ dir }) => {
  const result = await runFw(['prune'], dir);
  assert.is(result.code, 1);
  assert.match(result.stderr, /^Error: "fw prune" needs --number <number>\. Run "fw prune --help" for its options\.\n$/);
});

v3.run();

/** Lambda's REST API, as much as prune needs: reader has versions 1-3 (2 aliased), writer is not deployed. */
function fakeLambda(calls: string[]): Server {
  return createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    calls.push(`${request.method} ${url.pathname}${url.search}`);
    request.resume();
    const json = (status: number, body: unknown, type?: string) => {
      response.writeHead(status, { 'content-type': 'application/json', ...(type ? { 'x-amzn-errortype': type } : {}) });
      response.end(JSON.stringify(body));
    };
    const match = /^\/2015-03-31\/functions\/([^/]+)(?:\/(versions|aliases))?$/.exec(url.pathname);
    if (!match) return json(404, { message: 'unknown path' }, 'ResourceNotFoundException');
    const [, name, what] = match;
    if (name !== 'legacy-dev-reader') return json(404, { Type: 'User', message: `Function not found: ${name}` }, 'ResourceNotFoundException');
    if (what === 'versions') return json(200, { Versions: ['$LATEST', '1', '2', '3'].map(Version => ({ FunctionName: name, Version })) });
    if (what === 'aliases') return json(200, { Aliases: [{ Name: 'live', FunctionVersion: '2' }] });
    if (request.method === 'DELETE') {
      response.writeHead(204);
      return response.end();
    }
    return json(400, { message: 'unexpected call' }, 'InvalidParameterValueException');
  });
}
