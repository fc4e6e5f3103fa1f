import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = join(__dirname, '..', '..', '..');
const LIBRARY = join(ROOT, 'dist', 'src', 'index.js');

/** What a program prints on stderr when it constructs an SDK client, having loaded fw's library first or not. */
function stderrOf(loadFw: boolean): string {
  const program = `${loadFw ? `require(${JSON.stringify(LIBRARY)});` : ''}
const { S3Client } = require('@aws-sdk/client-s3');
new S3Client({ region: 'us-east-1' });`;
  const env = { ...process.env };
  delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  return spawnSync(process.execPath, ['-e', program], { cwd: ROOT, env, encoding: 'utf8' }).stderr;
}

const warning = suite("The AWS SDK's NodeVersionSupportWarning");

warning('a program using the library API sees no NodeVersionSupportWarning, as the CLI shows none', () => {
  assert.is(stderrOf(true), '');
});

warning('without fw the SDK prints it on the Node.js lines it plans to drop (so the check above can fail)', () => {
  const major = Number(process.versions.node.split('.')[0]);
  assert.is(/NodeVersionSupportWarning/.test(stderrOf(false)), major < 22);
});

warning.run();
