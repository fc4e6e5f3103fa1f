import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFixture, removeDir, runFw } from './helpers';

/**
 * `serverless.configurationInput` as a Serverless v3 plugin sees it at each moment
 * (test/fixtures/plugins/configuration-input: its plugin writes what it saw into seen.json).
 * The expected values are what Serverless v3.40.0 showed the same plugin for the same service.
 */
const input = suite('serverless.configurationInput, as v3 hands it to plugins');

const beforePlugins = {
  fromFile: 'from-settings',
  fromScript: { calls: 1 },
  fromSelf: 'seen',
  fromOption: 'dev',
  fromDotenv: 'from-dotenv',
  fromSls: 'dev',
  fromStrToBool: true,
  fromProbe: '${probe:second}',
  mixed: '${self:custom.fromFile}-${probe:third}',
};

input('holds what v3 resolves before loading plugins, then everything, in the one object the constructor was handed', async () => {
  const dir = copyFixture('configuration-input');
  try {
    const result = await runFw(['package'], dir);
    assert.is(result.code, 0, result.stderr);
    assert.equal(JSON.parse(readFileSync(join(dir, 'seen.json'), 'utf8')), {
      'in the constructor': { ...beforePlugins },
      'resolving first': { custom: { ...beforePlugins }, same: true },
      'resolving second': { custom: { ...beforePlugins }, same: true },
      'resolving third': { custom: { ...beforePlugins }, same: true },
      'before:package:initialize': {
        custom: { ...beforePlugins, fromProbe: 'probe-second', mixed: 'from-settings-probe-third' },
        same: true,
        heldSince: 'from-settings-probe-third',
      },
    });
  } finally {
    removeDir(dir);
  }
});

input.run();
