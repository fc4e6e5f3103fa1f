import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { packageService } from '../../src/package/service';
import { copyFixture, removeDir, runFw } from './helpers';

const SERVICE = (plugins: string) => `service: broken
provider:
  name: aws
plugins:
${plugins}
functions:
  hello:
    handler: handler.hello
`;

const load = suite('Loading plugins: where they are looked for, and what goes wrong');

load('a local plugin that does not exist names the path it looked for', async () => {
  const dir = copyFixture('bad-input');
  try {
    writeFileSync(join(dir, 'fw.yml'), SERVICE('  - ./plugins/missing'));
    const result = await runFw(['package'], dir);
    assert.is(result.code, 1);
    assert.is(
      result.stderr,
      'Error: Plugin "./plugins/missing" not found: looked for plugins/missing with .js, .ts, .mjs, .cjs, .mts, .cts or as a folder with package.json or index.js/index.ts\n',
    );
  } finally {
    removeDir(dir);
  }
});

load('an npm plugin that is not installed names the node_modules folder it looked in', async () => {
  const dir = copyFixture('bad-input');
  try {
    writeFileSync(join(dir, 'fw.yml'), SERVICE('  - serverless-not-installed-anywhere'));
    const result = await runFw(['package'], dir);
    assert.is(result.code, 1);
    assert.is(
      result.stderr,
      'Error: Plugin "serverless-not-installed-anywhere" not found: looked in node_modules/serverless-not-installed-anywhere ' +
        '(and the node_modules of the folders above) and in .serverless_plugins/serverless-not-installed-anywhere; ' +
        'install it with "npm install --save-dev serverless-not-installed-anywhere"\n',
    );
  } finally {
    removeDir(dir);
  }
});

load('a plugin with a syntax error names its file, line and column', async () => {
  const dir = copyFixture('bad-input');
  try {
    writeFileSync(join(dir, 'fw.yml'), SERVICE('  - ./plugins/broken'));
    const result = await runFw(['package'], dir);
    assert.is(result.code, 1);
    assert.is(
      result.stderr,
      [
        'Error: Plugin "./plugins/broken" cannot be loaded: Cannot parse plugins/broken.js:3:15: Unexpected ";"',
        '  1 | module.exports = (api) => {',
        "  2 |   api.hook('initialize', () => {",
        '> 3 |     const x = ;',
        '    |               ^',
        '  4 |   });',
        '  5 | };',
        '',
      ].join('\n'),
    );
  } finally {
    removeDir(dir);
  }
});

load('a plugin command of a service whose plugin cannot load reports the plugin, exit 1', async () => {
  const dir = copyFixture('bad-input');
  try {
    writeFileSync(join(dir, 'fw.yml'), SERVICE('  - ./plugins/broken'));
    const result = await runFw(['greet'], dir);
    assert.is(result.code, 1);
    assert.match(result.stderr, /^Error: Plugin "\.\/plugins\/broken" cannot be loaded: Cannot parse plugins\/broken\.js:3:15/);
  } finally {
    removeDir(dir);
  }
});

load('plugins named with a variable are refused: they load before variables are resolved', async () => {
  const dir = copyFixture('bad-input');
  try {
    writeFileSync(join(dir, 'fw.yml'), SERVICE('  - ${env:PLUGIN}'));
    const result = await runFw(['package'], dir);
    assert.is(result.code, 1);
    assert.is(
      result.stderr,
      `Error: Invalid configuration at 'plugins': "\${env:PLUGIN}" uses a variable; plugins must be named literally (they load before variables are resolved)\n`,
    );
  } finally {
    removeDir(dir);
  }
});

load('plugins: { localPath, modules } finds an ES module plugin by name in localPath', async () => {
  const dir = copyFixture('bad-input');
  try {
    writeFileSync(join(dir, 'fw.yml'), SERVICE('  localPath: ./custom-plugins\n  modules:\n    - stamp'));
    const { template } = await packageService({ cwd: dir, options: {}, now: new Date('2024-01-01T00:00:00.000Z') });
    assert.equal(template.Resources.StampTopic, { Type: 'AWS::SNS::Topic' });
  } finally {
    removeDir(dir);
  }
});

load.run();
