import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { copyFixture, removeDir, runFw } from './helpers';

const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' };

interface Context {
  cloud: RunningLocalCloud;
  dataDir: string;
  service: string;
}

const deployHooks = suite<Context>('Plugin hooks around fw deploy and fw remove (local cloud)');

deployHooks.before(async context => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-plugin-hooks-data-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true });
  context.service = copyFixture('deploy-hooks');
});

deployHooks.after(async context => {
  await context.cloud.stop();
  rmSync(context.dataDir, { recursive: true, force: true });
  removeDir(context.service);
});

deployHooks('deploy runs before:deploy:deploy, after:deploy:deploy (provider.request reaching the same endpoint) and deploy:finalize', async ({ cloud, service }) => {
  const result = await runFw(['deploy', '--endpoint-url', cloud.url], service, ENV);
  assert.is(result.code, 0, result.stderr);
  const announced = result.stdout.split('\n').filter(line => line.startsWith('announce:'));
  assert.equal(announced, ['announce: before deploy', 'announce: after deploy, hooked-dev is UPDATE_COMPLETE', 'announce: deploy finalize']);
});

deployHooks('remove runs before:remove:remove and after:remove:remove around the removal', async ({ cloud, service }) => {
  const result = await runFw(['remove', '--endpoint-url', cloud.url], service, ENV);
  assert.is(result.code, 0, result.stderr);
  const announced = result.stdout.split('\n').filter(line => line.startsWith('announce:'));
  assert.equal(announced, ['announce: before remove', 'announce: after remove']);
  assert.match(result.stdout, 'Service hooked (stage dev) removed');
});

deployHooks.run();
