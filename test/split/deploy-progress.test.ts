import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DeployCommand } from '../../src/cli/deploy';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { runCommands } from '../diff/run';
import { HANDLER, manyFunctions } from './service';

interface Context {
  cloud: RunningLocalCloud;
  dataDir: string;
  dir: string;
}

const progress = suite<Context>('the deploy progress of a service in nested stacks');

progress.before(async context => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-progress-data-'));
  // Resources take a little time, as on AWS, so the operation is seen half done.
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true, provisioningDelay: 0.05 });
  context.dir = mkdtempSync(join(tmpdir(), 'fw-progress-service-'));
  writeFileSync(join(context.dir, 'fw.yml'), manyFunctions(4, { provider: '  stackSplitting: per-function\n' }));
  writeFileSync(join(context.dir, 'handler.js'), HANDLER);
});

progress.after(async context => {
  await context.cloud.stop();
  rmSync(context.dataDir, { recursive: true, force: true });
  rmSync(context.dir, { recursive: true, force: true });
});

progress('counts the resources of every nested stack, not only the root stack', async context => {
  const env = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1', FW_PROGRESS_INTERVAL_MS: '0' };
  const result = await runCommands([DeployCommand], ['deploy', '--endpoint-url', context.cloud.url], context.dir, env);
  assert.is(result.code, 0, result.stderr);
  const folder = join(context.dir, '.serverless');
  const count = (file: string) => Object.keys(JSON.parse(readFileSync(join(folder, file), 'utf8')).Resources).length;
  const nested = readdirSync(folder).filter(file => file.startsWith('cloudformation-template-nested-'));
  assert.ok(nested.length >= 2, nested.join());
  const root = count('cloudformation-template-update-stack.json');
  const total = root + nested.reduce((sum, file) => sum + count(file), 0);
  assert.match(result.stdout, `Updating stack big-dev (${total} resources)`);
  const lines = [...result.stderr.matchAll(/^Updating stack \((\d+)\/(\d+) resources\)$/gm)].map(match => [Number(match[1]), Number(match[2])]);
  assert.equal(lines.at(-1), [total, total]);
  for (const [, of] of lines) assert.is(of, total);
  // Seen while the nested stacks were still being created: more done than the root stack holds, not yet all.
  assert.ok(lines.some(([done]) => done > root && done < total), `root ${root}, total ${total}: ${JSON.stringify(lines)}`);
  assert.not.match(result.stderr, '\u001b');
});

progress.run();
