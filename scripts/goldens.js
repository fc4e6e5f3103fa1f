#!/usr/bin/env node
// Regenerates the golden fixtures: the templates that the reference
// implementation (Serverless Framework v3.40.0, `serverless package`) writes
// for each case folder under test/fixtures/golden/ and test/fixtures/events/.
//
//   node scripts/goldens.js [case-name-regex]
//
// For every case folder (one holding a serverless.yml/.yaml/.json/.js/.ts):
//   1. copy the folder (minus expected/, args.txt, .serverless/) to a temp dir;
//   2. run `serverless package` there, with the extra CLI arguments from the
//      case's args.txt if it has one, fake AWS credentials, telemetry off, and
//      a fixed clock (see FIXED_TIME below);
//   3. on success write expected/update.json and expected/create.json, byte for
//      byte as the reference wrote .serverless/cloudformation-template-*.json
//      (no create.json when the reference writes none: provider.deploymentBucket);
//      if the reference printed warnings/deprecations, also expected/warnings.txt;
//      on failure write expected/error.txt (the reference's stdout, which holds
//      the error message, then its stderr; temp dir path replaced by "<case>",
//      the reference's node_modules folder by "<reference>", node version by "<version>").
//
// Environment:
//   FW_REFERENCE_DIR     folder whose node_modules/serverless is v3.40.0
//                        (default: /work/ref, then ~/.cache/fw-reference)
//   FW_GOLDEN_JOBS       parallel runs (default 2)
//   FW_GOLDEN_REAL_CLOCK set to 1 to run the reference with the real clock
//                        (then S3Key and ApiGatewayDeployment ids change per run)
//
// Plain Node, no dependencies.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

const REPO = path.resolve(__dirname, '..');
const ROOTS = [path.join(REPO, 'test/fixtures/golden'), path.join(REPO, 'test/fixtures/events')];
const REFERENCE_VERSION = '3.40.0';
const INSTALL_HINT =
  'mkdir -p ~/.cache/fw-reference && cd ~/.cache/fw-reference && npm init -y && npm install serverless@3.40.0';
// The reference puts the wall clock into the template (the artifact S3Key
// "serverless/<service>/<stage>/<ms>-<iso>/<service>.zip" and the
// "ApiGatewayDeployment<ms>" / websocket deployment logical ids). Pinning the
// clock makes regenerated goldens byte-identical from run to run.
const FIXED_TIME = '2024-01-01T00:00:00.000Z';
const CONFIG_NAMES = ['serverless.yml', 'serverless.yaml', 'serverless.json', 'serverless.js', 'serverless.ts'];
const SKIP_COPY = new Set(['expected', 'args.txt', '.serverless']);

function findReference() {
  const candidates = process.env.FW_REFERENCE_DIR
    ? [process.env.FW_REFERENCE_DIR]
    : ['/work/ref', path.join(os.homedir(), '.cache/fw-reference')];
  for (const dir of candidates) {
    const pkgFile = path.join(dir, 'node_modules/serverless/package.json');
    if (!fs.existsSync(pkgFile)) continue;
    const { version } = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
    if (version !== REFERENCE_VERSION) {
      console.error(`${pkgFile} is serverless@${version}; the goldens need serverless@${REFERENCE_VERSION}.`);
      process.exit(1);
    }
    return path.join(dir, 'node_modules/serverless/bin/serverless.js');
  }
  console.error(`The reference (serverless@${REFERENCE_VERSION}) is not installed (looked in ${candidates.join(', ')}).`);
  console.error('Install it once, outside the repo, with:');
  console.error(`  ${INSTALL_HINT}`);
  console.error('(or point FW_REFERENCE_DIR at a folder holding node_modules/serverless).');
  process.exit(1);
}

function listCases(filter) {
  const cases = [];
  for (const root of ROOTS) {
    if (!fs.existsSync(root)) continue;
    for (const name of fs.readdirSync(root).sort()) {
      const dir = path.join(root, name);
      if (!fs.statSync(dir).isDirectory()) continue;
      if (!CONFIG_NAMES.some((f) => fs.existsSync(path.join(dir, f)))) continue;
      if (filter && !filter.test(name)) continue;
      cases.push({ name, dir, label: path.relative(REPO, dir) });
    }
  }
  return cases;
}

function copyCase(src, dest) {
  fs.mkdirSync(dest, { recursive: true });
  for (const entry of fs.readdirSync(src)) {
    if (SKIP_COPY.has(entry)) continue;
    fs.cpSync(path.join(src, entry), path.join(dest, entry), { recursive: true });
  }
}

function clockPreload(file) {
  fs.writeFileSync(
    file,
    `'use strict';
const RealDate = Date;
const FIXED = RealDate.parse(${JSON.stringify(FIXED_TIME)});
function FixedDate(...args) {
  if (!new.target) return new RealDate(FIXED).toString();
  return args.length === 0 ? new RealDate(FIXED) : new RealDate(...args);
}
FixedDate.prototype = RealDate.prototype;
FixedDate.now = () => FIXED;
FixedDate.parse = RealDate.parse;
FixedDate.UTC = RealDate.UTC;
global.Date = FixedDate;
// No AWS here: packaging a layer asks CloudFormation for the last deployed layer's hash, and
// serverless-plugin-split-stacks for the stack's resources; answer as AWS does for a stack never deployed (the provider class is patched when the reference loads it).
const Module = require('module');
const load = Module._load;
Module._load = function (...args) {
  const loaded = load.apply(this, args);
  if (typeof loaded === 'function' && loaded.getProviderName && loaded.getProviderName() === 'aws' && !loaded.prototype.fwOffline) {
    const request = loaded.prototype.request;
    loaded.prototype.request = async function (service, method, ...rest) {
      if (service === 'CloudFormation' && (method === 'describeStacks' || method === 'listStackResources')) throw new Error('Stack with id ' + (rest[0] && rest[0].StackName) + ' does not exist');
      return request.call(this, service, method, ...rest);
    };
    loaded.prototype.fwOffline = true;
  }
  return loaded;
};
`,
  );
}

/** The reference's environment: no real AWS settings, fake credentials, telemetry off, no colours. */
function referenceEnv() {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^(AWS_|SLS_|SERVERLESS_)/.test(k)) delete env[k];
  }
  return Object.assign(env, {
    AWS_ACCESS_KEY_ID: 'AKIAFAKE',
    AWS_SECRET_ACCESS_KEY: 'fake',
    SLS_TELEMETRY_DISABLED: '1',
    SLS_NOTIFICATIONS_MODE: 'off',
    // print each deprecation in full instead of a "run serverless doctor" summary
    SLS_DEPRECATION_NOTIFICATION_MODE: 'warn',
    FORCE_COLOR: '0',
    NO_COLOR: '1',
  });
}

function parseArgs(text) {
  // whitespace-separated; single or double quotes group words
  const out = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m;
  while ((m = re.exec(text))) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

function stripAnsi(s) {
  return s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}

function runCase(serverlessBin, c) {
  return new Promise((resolve) => {
    const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-golden-'));
    const work = path.join(tmpRoot, c.name);
    copyCase(c.dir, work);
    // scripts/plugin-goldens.js links the plugins' node_modules in.
    if (c.prepare) c.prepare(work);
    const argsFile = path.join(c.dir, 'args.txt');
    const extra = fs.existsSync(argsFile) ? parseArgs(fs.readFileSync(argsFile, 'utf8')) : [];
    const nodeArgs = [];
    if (process.env.FW_GOLDEN_REAL_CLOCK !== '1') {
      const preload = path.join(tmpRoot, 'fixed-clock.cjs');
      clockPreload(preload);
      nodeArgs.push('--require', preload);
    }
    const env = referenceEnv();
    const child = spawn(process.execPath, [...nodeArgs, serverlessBin, 'package', ...extra], {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      const expected = path.join(c.dir, 'expected');
      fs.mkdirSync(expected, { recursive: true });
      const outDir = path.join(work, '.serverless');
      const update = path.join(outDir, 'cloudformation-template-update-stack.json');
      const create = path.join(outDir, 'cloudformation-template-create-stack.json');
      const targets = ['update.json', 'create.json', 'error.txt', 'warnings.txt'].map((f) => path.join(expected, f));
      let status;
      // With provider.deploymentBucket.name the reference writes no create-stack
      // template (there is no bucket to create); then no expected/create.json.
      if (code === 0 && fs.existsSync(update)) {
        for (const t of targets) fs.rmSync(t, { force: true });
        fs.copyFileSync(update, path.join(expected, 'update.json'));
        if (fs.existsSync(create)) fs.copyFileSync(create, path.join(expected, 'create.json'));
        status = 'ok';
        const warnings = stripAnsi(stderr)
          .split(work).join('<case>')
          .split('\n')
          .filter((l) => l.trim() && !/^Packaging .* for stage |Service packaged \(/.test(l.trim()))
          .join('\n');
        if (warnings) {
          fs.writeFileSync(path.join(expected, 'warnings.txt'), warnings + '\n');
          status += ' (with expected/warnings.txt)';
        }
      } else {
        for (const t of targets) fs.rmSync(t, { force: true });
        // The reference prints the error message itself on stdout and the
        // progress/environment lines on stderr: keep both, message first.
        const text = stripAnsi([stdout.trim(), stderr.trim()].filter(Boolean).join('\n\n'))
          .split(work).join('<case>')
          .split(tmpRoot).join('<tmp>')
          // a crash's stack trace: the reference's install folder is not part of what it said
          .split(path.dirname(path.dirname(path.dirname(serverlessBin)))).join('<reference>')
          .replace(/node \d+\.\d+\.\d+/g, 'node <version>');
        fs.writeFileSync(path.join(expected, 'error.txt'), text.endsWith('\n') ? text : text + '\n');
        status = `error (exit ${code}) -> expected/error.txt`;
      }
      fs.rmSync(tmpRoot, { recursive: true, force: true });
      resolve({ c, status });
    });
  });
}

async function main() {
  const pattern = process.argv[2];
  const filter = pattern ? new RegExp(pattern) : null;
  const serverlessBin = findReference();
  const cases = listCases(filter);
  if (cases.length === 0) {
    console.error(`no case folder matches ${pattern ? `/${pattern}/` : '(any)'}`);
    process.exit(1);
  }
  const jobs = Math.max(1, Number(process.env.FW_GOLDEN_JOBS) || 2);
  let next = 0;
  let errors = 0;
  async function worker() {
    while (next < cases.length) {
      const c = cases[next++];
      const { status } = await runCase(serverlessBin, c);
      if (!status.startsWith('ok')) errors++;
      console.log(`${c.label}: ${status}`);
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, cases.length) }, worker));
  console.log(`${cases.length} case(s), ${cases.length - errors} template(s), ${errors} error.txt`);
}

// The plugin goldens and the settings sweep run the reference under the same preload (fixed clock, no CloudFormation).
module.exports = { findReference, runCase, clockPreload, referenceEnv, FIXED_TIME };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
