import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { packageService } from '../../src/package/service';
import { GOLDEN_TIME } from '../helpers/golden';

const layer = suite('LambdaLayer');

/** The layer's logical ids and its Hash output, packaging `layers.tools` with `settings`. */
async function layerIds(settings: Record<string, unknown>): Promise<{ ids: string[]; hash: unknown }> {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-layer-'));
  try {
    mkdirSync(join(cwd, 'layer'));
    writeFileSync(join(cwd, 'layer', 'a.txt'), 'x\n');
    writeFileSync(join(cwd, 'handler.js'), 'exports.hello = async () => 1;\n');
    const service = { service: 'app', provider: { name: 'aws', runtime: 'nodejs18.x' }, layers: { tools: { path: 'layer', ...settings } }, functions: { hello: { handler: 'handler.hello' } } };
    writeFileSync(join(cwd, 'serverless.json'), JSON.stringify(service));
    const { template } = await packageService({ cwd, options: {}, now: GOLDEN_TIME });
    return { ids: Object.keys(template.Resources).filter((id) => id.includes('LambdaLayer')), hash: template.Outputs?.ToolsLambdaLayerHash?.Value };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

layer('a retained layer gets a new logical id (a new version, the old one kept) when only its settings change, as serverless@3.40.0 does', async () => {
  const one = await layerIds({ retain: true, description: 'one' });
  const again = await layerIds({ retain: true, description: 'one' });
  const two = await layerIds({ retain: true, description: 'two' });
  const runtimes = await layerIds({ retain: true, description: 'one', compatibleRuntimes: ['nodejs20.x'] });
  const licence = await layerIds({ retain: true, description: 'one', licenseInfo: 'MIT' });
  assert.equal(one, again);
  assert.match(one.ids[0], /^ToolsLambdaLayer[0-9a-f]{40}$/);
  assert.is(one.ids[0], `ToolsLambdaLayer${one.hash}`);
  for (const changed of [two, runtimes, licence]) {
    assert.is.not(changed.ids[0], one.ids[0]);
    assert.is(changed.ids[0], `ToolsLambdaLayer${changed.hash}`);
  }
});

layer.run();
