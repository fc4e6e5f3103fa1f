// Packages from the npm registry that tests run but the repository does not depend on, installed once
// into a cache folder OUTSIDE the repository, one folder per pinned list: <root>/<hash of the list>/node_modules.
// A folder is complete once it holds `installed.json`, so an interrupted install is redone. Plain Node, no dependencies.
//   - pluginCache(): the Serverless v3 plugins the plugin tests and scripts/plugin-goldens.js run, pinned in
//     test/fixtures/plugins/popular/plugins.json, under ~/.cache/fw-test-plugins (or $FW_TEST_PLUGINS_DIR);
//   - packageCache(specs, root): any other pinned list (the client libraries the local cloud's tests sign in with).
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawnSync } = require('child_process');

const PINNED = path.join(__dirname, '..', 'test', 'fixtures', 'plugins', 'popular', 'plugins.json');

function pinnedPlugins() {
  return JSON.parse(fs.readFileSync(PINNED, 'utf8'));
}

/** The cache folder for the pinned list; installs it first when it is not complete. */
function pluginCache({ log = () => undefined } = {}) {
  const specs = Object.entries(pinnedPlugins()).map(([name, version]) => `${name}@${version}`);
  return packageCache(specs, process.env.FW_TEST_PLUGINS_DIR || path.join(os.homedir(), '.cache', 'fw-test-plugins'), { log, name: 'fw-test-plugins' });
}

/** The cache folder of `specs` (`name@version`) under `root`; installs them first when it is not complete. */
function packageCache(specList, root, { log = () => undefined, name = 'fw-test-packages' } = {}) {
  const specs = [...specList].sort();
  const hash = crypto.createHash('sha256').update(specs.join('\n')).digest('hex').slice(0, 16);
  const dir = path.join(root, hash);
  const marker = path.join(dir, 'installed.json');
  if (fs.existsSync(marker)) return { dir, nodeModules: path.join(dir, 'node_modules'), installMs: 0 };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true }));
  log(`Installing ${specs.length} packages from the npm registry into ${dir} …`);
  const started = Date.now();
  const npm = spawnSync(
    process.platform === 'win32' ? 'npm.cmd' : 'npm',
    ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--legacy-peer-deps', '--loglevel=error', ...specs],
    { cwd: dir, encoding: 'utf8', timeout: 300_000 },
  );
  if (npm.status !== 0) {
    throw new Error(`Installing ${specs.join(', ')} from the npm registry failed: ${npm.error ? npm.error.message : npm.stderr}`);
  }
  const installMs = Date.now() - started;
  fs.writeFileSync(marker, JSON.stringify({ specs, installMs }, null, 2));
  log(`Installed in ${(installMs / 1000).toFixed(1)} s`);
  return { dir, nodeModules: path.join(dir, 'node_modules'), installMs };
}

module.exports = { pluginCache, packageCache, pinnedPlugins };
