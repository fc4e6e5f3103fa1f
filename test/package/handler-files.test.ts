import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../src/errors';
import { packageService } from '../../src/package/service';

const handlers = suite('package: the handler file of a Node.js or Python function must exist');

async function packageWith(files: Record<string, string>): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-handler-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, name), text);
    await packageService({ cwd, options: {} });
    return 'packaged';
  } catch (error) {
    assert.instance(error, ConfigError);
    return (error as Error).message;
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

const service = (runtime: string, handler: string) =>
  JSON.stringify({ service: 'app', provider: { name: 'aws', runtime }, functions: { hello: { handler } } });

handlers('a missing Node.js handler file stops packaging with one line naming the setting', async () => {
  assert.is(
    await packageWith({ 'serverless.json': service('nodejs20.x', 'src/missing.main'), 'other.js': '' }),
    `Invalid configuration in 'functions.hello.handler': no file for handler "src/missing.main" in the service folder (looked for src/missing.js, src/missing.mjs, src/missing.cjs, src/missing.ts, src/missing.mts, src/missing.cts, src/missing.jsx, src/missing.tsx)`,
  );
});

handlers('a missing Python handler file names the .py it looked for', async () => {
  assert.is(
    await packageWith({ 'serverless.json': service('python3.12', 'app.handler'), 'other.py': '' }),
    `Invalid configuration in 'functions.hello.handler': no file for handler "app.handler" in the service folder (looked for app.py)`,
  );
});

handlers('an existing handler file, or a runtime fw does not check, packages', async () => {
  assert.is(await packageWith({ 'serverless.json': service('nodejs20.x', 'index.main'), 'index.mjs': '' }), 'packaged');
  assert.is(await packageWith({ 'serverless.json': service('java17', 'com.example.Handler'), 'x.jar': '' }), 'packaged');
});

handlers.run();
