// Public example apps that nobody here wrote, installed from the npm registry into a cache folder
// OUTSIDE the repository (like scripts/plugin-cache.js does for plugins):
//   ~/.cache/fw-test-apps/<package@version>/<example>   (or $FW_TEST_APPS_DIR/…)
//
// Serverless, Inc.'s public examples (github serverless/examples) are not published on npm
// themselves. The npm package serverless-sam@0.2.0 carries a 2017 snapshot of that repository
// in its tarball (integration_tests/tmp/<example>/: serverless.yml, handlers, package.json and
// README.md as Serverless wrote them). The tarball is fetched with `npm pack` (its own
// dependencies are not needed), the example copied out, and its dependencies installed with
// `npm install` as its README says. A folder is complete once it holds `.fw-installed`.
// Other packages' tarballs carry other apps the same way (serverlessOfflineWebsocketApp, serverlessWebsocketFixture,
// eventBridgeTypeScriptExample).
// Plain Node, no dependencies.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const SNAPSHOT = 'serverless-sam@0.2.0';
const SNAPSHOT_FOLDER = path.join('package', 'integration_tests', 'tmp');

function npm(args, cwd) {
  const result = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} in ${cwd} failed: ${result.error ? result.error.message : result.stderr}`);
  return result.stdout;
}

/** The npm tarball of `spec`, unpacked once into <cache>/<spec>/tarball; returns that folder. */
function unpackedTarball(spec, log) {
  const root = path.join(process.env.FW_TEST_APPS_DIR || path.join(os.homedir(), '.cache', 'fw-test-apps'), spec);
  const unpacked = path.join(root, 'tarball');
  if (fs.existsSync(path.join(unpacked, '.fw-unpacked'))) return unpacked;
  log(`Fetching ${spec} from the npm registry into ${root} …`);
  fs.rmSync(unpacked, { recursive: true, force: true });
  fs.mkdirSync(unpacked, { recursive: true });
  const file = npm(['pack', spec], unpacked).trim().split('\n').pop();
  const tar = spawnSync('tar', ['xzf', file], { cwd: unpacked, encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`Unpacking ${file} failed: ${tar.stderr}`);
  fs.writeFileSync(path.join(unpacked, '.fw-unpacked'), new Date().toISOString());
  return unpacked;
}

/**
 * A folder of the tarball of `spec` copied to <cache>/<spec>/<name>, then `prepare(dir)` run in it (its
 * README's install steps); complete once it holds `.fw-installed`.
 */
function appFromTarball(spec, folder, name, prepare, log) {
  const dir = path.join(process.env.FW_TEST_APPS_DIR || path.join(os.homedir(), '.cache', 'fw-test-apps'), spec, name);
  const source = `${spec} ${folder}`;
  if (fs.existsSync(path.join(dir, '.fw-installed'))) return { dir, source };
  const from = path.join(unpackedTarball(spec, log), folder);
  if (!fs.existsSync(from)) throw new Error(`${spec} has no ${folder}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(from, dir, { recursive: true });
  prepare(dir);
  fs.writeFileSync(path.join(dir, '.fw-installed'), new Date().toISOString());
  return { dir, source };
}

/** The folder of one of Serverless's examples, with its dependencies installed; installs it first when needed. */
function publicApp(example, { log = () => undefined } = {}) {
  return appFromTarball(SNAPSHOT, path.join(SNAPSHOT_FOLDER, example), example, (dir) => {
    if (!fs.existsSync(path.join(dir, 'package.json'))) return;
    log(`npm install in ${dir} …`);
    npm(['install', '--no-package-lock'], dir);
  }, log);
}

/**
 * serverless-offline's WebSocket test app, as serverless-offline@5.0.1 (and 4.10.x, 5.0.0) published it in
 * manual_test_websocket/: a service of ten functions on $connect, $disconnect, $default and seven
 * custom routes that answer through ApiGatewayManagementApi.postToConnection (aws-sdk v2) and keep a
 * listener's connection id in DynamoDB. Its README deploys it to AWS with `npm run deploy-aws`, which
 * runs scripts/deploy_to_aws.sh: install aws-sdk, `cp ./scripts/serverless..yml ./serverless.yml`,
 * `cat ./scripts/serverless.aws.yml >> ./serverless.yml`, `sls deploy`. Those steps are taken here as
 * written, but for the install: `npm install --omit=dev --no-save` puts the same aws-sdk v2 in
 * node_modules without rewriting package.json (the devDependencies are the mocha tests', which the
 * tarball does not carry).
 */
function serverlessOfflineWebsocketApp({ log = () => undefined } = {}) {
  return appFromTarball('serverless-offline@5.0.1', path.join('package', 'manual_test_websocket'), 'manual_test_websocket', (dir) => {
    log(`npm install in ${dir} …`);
    npm(['install', '--omit=dev', '--no-save', '--no-package-lock'], dir);
    fs.copyFileSync(path.join(dir, 'scripts', 'serverless..yml'), path.join(dir, 'serverless.yml'));
    fs.appendFileSync(path.join(dir, 'serverless.yml'), fs.readFileSync(path.join(dir, 'scripts', 'serverless.aws.yml')));
  }, log);
}

/**
 * Serverless, Inc.'s own WebSocket service: the fixture its integration test (test/integration/websocket.test.js)
 * deployed to AWS, as serverless@2.13.0 (and 1.x–2.13) published it in test/fixtures/websocket/: $connect,
 * $disconnect and $default on one function that logs the event, a `hello` route with a route response
 * that answers `Hello, <name>`, and `provider.logs.websocket: true`. It says `runtime: nodejs12.x` under
 * `configValidationMode: error`, which Serverless v3 refuses ("must be equal to one of the allowed
 * values"), so it is deployed through --config from a copy beside it (serverless.fw-test.yml) that says
 * nodejs14.x, the oldest runtime v3 accepts; serverless.yml and core.js stay as published.
 */
function serverlessWebsocketFixture({ log = () => undefined } = {}) {
  const app = appFromTarball('serverless@2.13.0', path.join('package', 'test', 'fixtures', 'websocket'), 'websocket', (dir) => {
    const text = fs.readFileSync(path.join(dir, 'serverless.yml'), 'utf8');
    fs.writeFileSync(path.join(dir, 'serverless.fw-test.yml'), text.replace(/^(  runtime: )nodejs12\.x$/m, '$1nodejs14.x'));
  }, log);
  return { ...app, config: 'serverless.fw-test.yml' };
}

/**
 * serverless-offline-aws-eventbridge's TypeScript example (examples/typescript/localstack/sns-sqs-lambda,
 * as serverless-offline-aws-eventbridge@2.1.0 published it): a serverless.ts service (serverless-esbuild,
 * tsconfig paths) with an event bus, a rule sending `test-script` events to an SNS topic, a queue and a
 * function on that queue; its test script (test/test-script.ts) puts the event with SDK v3's
 * @aws-sdk/client-eventbridge. The subscription of the queue to the topic is not in its stack: its
 * `custom.serverless-offline-sns.subscriptions` asks serverless-offline-sns to make it.
 * It is used where it is in the unpacked tarball, since serverless.ts loads the plugin from the
 * package's own dist (`../../../../dist/src/index.js`). Its README's steps: in the package's root
 * `npm install` (here `--omit=dev --ignore-scripts`: the published dist is already built, and the
 * `prepare` script runs husky, a development tool), then `npm install` in the example
 * (`--no-package-lock`: its lockfile resolves from a private registry mirror). 2.1.0, not 2.2.x: from
 * 2.2.2 on the example depends on serverless-offline-sqs-external, which is no longer on npm.
 */
function eventBridgeTypeScriptExample({ log = () => undefined } = {}) {
  const spec = 'serverless-offline-aws-eventbridge@2.1.0';
  const root = path.join(unpackedTarball(spec, log), 'package');
  const dir = path.join(root, 'examples', 'typescript', 'localstack', 'sns-sqs-lambda');
  const source = `${spec} examples/typescript/localstack/sns-sqs-lambda`;
  if (fs.existsSync(path.join(dir, '.fw-installed'))) return { dir, source };
  log(`npm install in ${root} and ${dir} …`);
  npm(['install', '--omit=dev', '--ignore-scripts', '--no-save', '--no-package-lock'], root);
  npm(['install', '--no-package-lock'], dir);
  fs.writeFileSync(path.join(dir, '.fw-installed'), new Date().toISOString());
  return { dir, source };
}

/**
 * Pinned npm packages installed once from the registry into ~/.cache/fw-test-apps/<spec>/node_modules
 * (or $FW_TEST_APPS_DIR/…); returns that node_modules folder.
 */
function installedPackage(spec, { log = () => undefined } = {}) {
  const dir = path.join(process.env.FW_TEST_APPS_DIR || path.join(os.homedir(), '.cache', 'fw-test-apps'), spec);
  const nodeModules = path.join(dir, 'node_modules');
  if (fs.existsSync(path.join(dir, '.fw-installed'))) return nodeModules;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'fw-test-package', private: true }));
  log(`Installing ${spec} from the npm registry into ${dir} …`);
  npm(['install', '--no-save', '--no-package-lock', spec], dir);
  fs.writeFileSync(path.join(dir, '.fw-installed'), new Date().toISOString());
  return nodeModules;
}

/**
 * What Lambda's nodejs16.x and older runtimes provided in /var/runtime/node_modules, and apps of that
 * time require without shipping: aws-sdk v2, the folder to give the local cloud as $FW_LOCAL_NODE_MODULES.
 */
const runtimeSdkV2 = (options) => installedPackage('aws-sdk@2.1693.0', options);

/**
 * Written in 2017 for Serverless v1, these service files say `frameworkVersion: ">=1.1.0 <2.0.0"` and
 * use `${self:provider.stage}` / `self:provider.region`, which v1 filled with its defaults; Serverless
 * v3 and fw refuse them (no v1 version range, nothing at those paths). So each is deployed through
 * --config from a copy beside it with those two things written out (the range dropped, `stage: dev`
 * and `region: us-east-1` under provider); the app's own serverless.yml, code and package.json stay
 * as published. Returns the copy's file name.
 */
function v3ServiceFile(dir) {
  const name = 'serverless.fw-test.yml';
  const text = fs
    .readFileSync(path.join(dir, 'serverless.yml'), 'utf8')
    .replace(/^frameworkVersion: .*\n/m, '')
    .replace(/^provider:\n/m, 'provider:\n  stage: dev\n  region: us-east-1\n');
  fs.writeFileSync(path.join(dir, name), text);
  return name;
}

module.exports = { publicApp, serverlessOfflineWebsocketApp, serverlessWebsocketFixture, eventBridgeTypeScriptExample, installedPackage, runtimeSdkV2, v3ServiceFile };
