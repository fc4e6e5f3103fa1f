import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../src/errors';
import { packageService } from '../../src/package/service';

const handlers = suite('package: a Node.js or Python handler whose file is missing is said, and packaged as Serverless v3 packages it');

/** What packaging wrote on stderr ("packaged" when nothing), or its error. */
async function packageWith(files: Record<string, string>): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-handler-'));
  const write = process.stderr.write;
  let stderr = '';
  process.stderr.write = ((chunk: string) => ((stderr += chunk), true)) as typeof process.stderr.write;
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, name), text);
    await packageService({ cwd, options: {} });
    return stderr || 'packaged';
  } catch (error) {
    assert.instance(error, ConfigError);
    return (error as Error).message;
  } finally {
    process.stderr.write = write;
    rmSync(cwd, { recursive: true, force: true });
  }
}

const service = (runtime: string, handler: string) =>
  JSON.stringify({ service: 'app', provider: { name: 'aws', runtime }, functions: { hello: { handler } } });

handlers('a missing Node.js handler file is a one-line warning naming the setting; the service packages', async () => {
  assert.is(
    await packageWith({ 'serverless.json': service('nodejs20.x', 'src/missing.main'), 'other.js': '' }),
    `Warning: functions.hello.handler: no file for handler "src/missing.main" in the service folder (looked for src/missing.js, src/missing.mjs, src/missing.cjs, src/missing.ts, src/missing.mts, src/missing.cts, src/missing.jsx, src/missing.tsx): the function fails when invoked\n`,
  );
});

handlers('a missing Python handler file names the .py it looked for', async () => {
  assert.is(
    await packageWith({ 'serverless.json': service('python3.12', 'app.handler'), 'other.py': '' }),
    `Warning: functions.hello.handler: no file for handler "app.handler" in the service folder (looked for app.py): the function fails when invoked\n`,
  );
});

handlers('an existing handler file, or a runtime fw does not check, packages', async () => {
  assert.is(await packageWith({ 'serverless.json': service('nodejs20.x', 'index.main'), 'index.mjs': '' }), 'packaged');
  assert.is(await packageWith({ 'serverless.json': service('java17', 'com.example.Handler'), 'x.jar': '' }), 'packaged');
});

handlers.run();
