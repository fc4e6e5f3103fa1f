import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listTemplates } from '../../src/create/templates';
import { fwDependency, writeService } from '../../src/create/write';
import { childEnv, removeTempDirs, repoRoot, tempDir, tree } from './helpers';

const examplesDir = join(repoRoot, 'examples');

const examples = suite('examples');
examples.after.each(removeTempDirs);

examples('holds every template, plus the larger orders service and the constructs-from-fw.ts example', () => {
  assert.equal(readdirSync(examplesDir).sort(), [...listTemplates().map((t) => t.name), 'orders', 'constructs-ts'].sort());
});

examples('each template example is exactly what "fw create" writes for it', () => {
  for (const template of listTemplates()) {
    const fresh = join(tempDir('example'), template.name);
    writeService({ template, name: template.name, dir: fresh });
    const example = join(examplesDir, template.name);
    const regenerate = `rm -r examples/${template.name} && fw create -t ${template.name} -n ${template.name} -p examples/${template.name}`;
    assert.equal(tree(example), tree(fresh), `examples/${template.name} differs from its template; regenerate it: ${regenerate}`);
    // The fw a new service links (`file:` the running fw, relative to where the service is) is the checkout for an example.
    const atExample = (text: string) => text.replace(/"fw-deploy": "file:[^"]*"/g, `"fw-deploy": "${fwDependency(example)}"`);
    for (const file of tree(fresh)) {
      assert.is(readFileSync(join(example, file), 'utf8'), atExample(readFileSync(join(fresh, file), 'utf8')), `examples/${template.name}/${file}: ${regenerate}`);
    }
  }
});

examples('orders: its handler tests pass ("node --test")', () => {
  const run = spawnSync(process.execPath, ['--test'], { cwd: join(examplesDir, 'orders'), encoding: 'utf8', env: { ...childEnv(), NODE_TEST_CONTEXT: undefined } });
  assert.is(run.status, 0, `${run.stdout}${run.stderr}`);
  assert.match(run.stdout, /# pass 6\n# fail 0/);
});

examples.run();
