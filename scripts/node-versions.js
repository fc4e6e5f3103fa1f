#!/usr/bin/env node
// `npm run test:node-versions` (CI runs it after `npm test`): fw as a user gets it, on every
// Node.js line that `engines` allows.
//
// 1. Packs fw from a clean copy of the repository (tracked and new files, no dist/, no build
//    output: `npm pack` must build it through `prepack`) and installs the tarball into a
//    temporary global prefix (`npm install -g --prefix`).
// 2. Under the oldest release `engines` allows, the newest 22, 24 and 25 known here and the running
//    Node.js (and 20.18.0, which crashed on another 20.x's code cache): `fw --version`, `--help`, `fw create`, `fw package` (twice: the second run uses the
//    code cache the first left), `fw print` (the yaml chunk), the template compared with the one the running Node.js writes,
//    then `fw local start --port 0` (the local cloud's chunk) and `fw deploy` into it, and an HTTP call to the endpoint.
// 3. `fw create -t node-typescript`, `npm install --offline` (fw-deploy linked from the installed copy) and the new service's
//    `npm test`.
//
// Node.js binaries come from the npm registry (package node-<platform>-<arch>) and are kept in
// $FW_TEST_NODE_CACHE or ~/.cache/fw-test-node/<version>. Without the registry it says so and fails.
//
//   node scripts/node-versions.js [--versions 20.0.0,22.23.3]
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } = require('node:fs');
const { get } = require('node:http');
const { homedir, tmpdir } = require('node:os');
const { dirname, join, relative } = require('node:path');

const ROOT = join(__dirname, '..');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
// Besides the floor (from `engines`): 20.18.0, whose V8 crashed on a code cache written by 20.20,
// and the newest 22, 24 and 25 when this was written.
const NEWER_LINES = ['20.18.0', '22.23.3', '24.21.0', '25.9.0'];
const LOCAL_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_REGION: 'us-east-1' };

let passed = 0;
let failed = 0;

function report(ok, label, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'}  ${label}${!ok && detail ? `\n${indent(detail)}` : ''}`);
  return ok;
}

const indent = (text) => String(text).trimEnd().split('\n').slice(-25).map((line) => `      ${line}`).join('\n');

/** Runs a command to its end; never throws. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 180_000, ...options, env: { ...process.env, NO_COLOR: '1', ...options.env } });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? `\n${result.error.message}` : ''}`;
  return { code: result.status, signal: result.signal, stdout: result.stdout ?? '', stderr: result.stderr ?? '', output };
}

const exited = (result) => (result.signal ? `killed by ${result.signal}` : `exit ${result.code}`);

function floorVersion() {
  const match = /^>=\s*(\d+\.\d+\.\d+)$/.exec(PACKAGE.engines?.node ?? '');
  if (!match) throw new Error(`package.json engines.node must read ">=X.Y.Z" for this check, got ${JSON.stringify(PACKAGE.engines?.node)}`);
  return match[1];
}

function parseVersions(argv) {
  const at = argv.indexOf('--versions');
  if (at >= 0) return argv[at + 1].split(',').map((version) => version.replace(/^v/, ''));
  return [floorVersion(), ...NEWER_LINES];
}

/** The node binary of `version`, installed from the npm registry into the cache when missing. */
function nodeBinary(version) {
  const platformPackage = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  const cache = join(process.env.FW_TEST_NODE_CACHE || join(homedir(), '.cache', 'fw-test-node'), version);
  const binary = join(cache, 'node_modules', platformPackage, 'bin', 'node');
  if (existsSync(binary)) return { binary };
  const staging = `${cache}.${process.pid}`;
  const install = run('npm', ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${platformPackage}@${version}`]);
  if (install.code !== 0 || !existsSync(join(staging, 'node_modules', platformPackage, 'bin', 'node'))) {
    rmSync(staging, { recursive: true, force: true });
    return { problem: `cannot get Node.js ${version} from the npm registry (npm install ${platformPackage}@${version}, ${exited(install)}):\n${install.output}` };
  }
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(dirname(cache), { recursive: true });
  renameSync(staging, cache);
  return { binary };
}

/** What a fresh clone holds: the files git knows (tracked or new, not ignored). */
function cleanCopy(target) {
  const listed = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT });
  if (listed.code !== 0) throw new Error(`git ls-files failed in ${ROOT}:\n${listed.output}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(ROOT, file))) continue; // deleted, not yet committed
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(join(ROOT, file), join(target, file));
  }
}

function httpGet(url) {
  return new Promise((resolve) => {
    const request = get(url, { timeout: 20_000 }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode, body }));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url} in 20 s`)));
    request.on('error', (error) => resolve({ status: 0, body: error.message }));
  });
}

/** `fw local start --port 0` under `node`; resolves with its URL once it listens. */
function startLocalCloud(node, fw, dataDir) {
  const child = spawn(node, [fw, 'local', 'start', '--port', '0', '--data', dataDir], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ problem: `no "listening" line in 30 s:\n${output}`, stop }), 30_000);
    const listen = (chunk) => {
      output += chunk;
      const match = /Local cloud listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], stop });
      }
    };
    child.stdout.on('data', listen);
    child.stderr.on('data', listen);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ problem: `exited (${signal ?? code}) before listening:\n${output}`, stop });
    });
  });
}

/**
 * The packaged template with what depends on the zip bytes masked: zlib differs from one Node.js
 * release to the next, so the same files may deflate to other bytes (CodeSha256, version ids).
 */
function comparableTemplate(serviceDir) {
  const text = readFileSync(join(serviceDir, '.serverless', 'cloudformation-template-update-stack.json'), 'utf8');
  const template = JSON.parse(text.replace(/LambdaVersion[A-Za-z0-9]{20,}/g, 'LambdaVersion<code hash>').replace(/\/\d{13}-[^/"]+\//g, '/<timestamp>/'));
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type === 'AWS::Lambda::Version') resource.Properties.CodeSha256 = '<code hash>';
  }
  return JSON.stringify(template, null, 2);
}

/** The zips fw wrote (their content is checked by the deploy: the local cloud runs the code). */
function zipNames(serviceDir) {
  return readdirSync(join(serviceDir, '.serverless')).filter((name) => name.endsWith('.zip')).sort();
}

function firstDifference(expected, actual) {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const line = a.findIndex((text, index) => text !== b[index]);
  return line < 0 ? 'different lengths' : `line ${line + 1}: expected ${a[line]?.trim()} got ${b[line]?.trim()}`;
}

async function checkNode(label, node, fw, work, reference) {
  process.env.XDG_CACHE_HOME = join(work, 'cache');
  const fwRun = (args, cwd = work, extra = {}) => run(node, [fw, ...args], { cwd, env: extra });

  const versions = [fwRun(['--version']), fwRun(['--version'])];
  report(
    versions.every((result) => result.code === 0 && result.stdout === `${PACKAGE.version}\n`),
    `${label}: fw --version prints ${PACKAGE.version}, with and without a code cache`,
    versions.map((result) => `${exited(result)}: ${result.output}`).join('\n'),
  );
  const help = fwRun(['--help']);
  report(help.code === 0 && (reference === undefined || help.stdout === reference.help), `${label}: fw --help prints the commands`, `${exited(help)}:\n${help.output}`);

  const created = fwRun(['create', '-t', 'node-http-api', '-n', 'items', '-p', 'items']);
  const service = join(work, 'items');
  if (!report(created.code === 0 && existsSync(join(service, 'fw.yml')), `${label}: fw create -t node-http-api`, `${exited(created)}:\n${created.output}`)) return undefined;

  const packages = [fwRun(['package'], service), fwRun(['package'], service)];
  // Nothing on stderr either: a deprecation or experimental warning of a newer Node.js shows there.
  const packagedOk = packages.every((result) => result.code === 0 && /Packaged items for stage dev/.test(result.stdout) && result.stderr === '');
  if (!report(packagedOk && zipNames(service).join() === 'items.zip', `${label}: fw package, twice (the second run from a code cache), nothing on stderr`, packages.map((result) => `${exited(result)}: ${result.output}`).join('\n'))) return undefined;
  // The package holds the cache of the Node.js that packed it (this one); any other writes its own.
  const cacheDir = join(work, 'cache', 'fw');
  const caches = existsSync(cacheDir) ? readdirSync(cacheDir).filter((name) => !name.startsWith('.')) : [];
  const otherNode = reference !== undefined;
  report(
    caches.length === (otherNode ? 1 : 0) && caches.every((name) => /^[0-9a-f]{40}$/.test(name)),
    `${label}: ${otherNode ? 'fw wrote a code cache of its own to $XDG_CACHE_HOME/fw' : 'fw ran from the code cache in the package and wrote none'}`,
    `found: ${caches.join(', ') || 'none'}`,
  );
  // fw print writes YAML with the yaml library, a chunk of its own (dist/fw-yaml.js) with its own code cache.
  const printed = fwRun(['print'], service);
  report(
    printed.code === 0 && printed.stdout.startsWith('service: items\n') && printed.stderr === '',
    `${label}: fw print (a command of a chunk, dist/fw-yaml.js), nothing on stderr`,
    `${exited(printed)}:\n${printed.output}`,
  );
  const template = comparableTemplate(service);
  if (reference !== undefined) {
    report(template === reference.template, `${label}: the template equals the one Node.js ${process.version} writes (code hashes aside)`, firstDifference(reference.template, template));
  }

  const cloud = await startLocalCloud(node, fw, join(work, 'cloud'));
  try {
    if (!report(cloud.url !== undefined, `${label}: fw local start --port 0`, cloud.problem)) return { help: help.stdout, template };
    const deploy = fwRun(['deploy', '--endpoint-url', cloud.url], service, LOCAL_CREDENTIALS);
    const endpoint = /GET - (\S+)\/items\/\{id\}/.exec(deploy.stdout)?.[1];
    if (!report(deploy.code === 0 && endpoint !== undefined, `${label}: fw deploy into it`, `${exited(deploy)}:\n${deploy.output}`)) return { help: help.stdout, template };
    const answer = await httpGet(`${endpoint}/items/1`);
    const expected = { status: 200, body: JSON.stringify({ id: '1', name: 'Notebook', price: 4.5 }) };
    report(answer.status === expected.status && answer.body === expected.body, `${label}: GET ${endpoint}/items/1 answers 200 with the item`, `got ${answer.status}: ${answer.body}`);
  } finally {
    await cloud.stop();
  }
  return { help: help.stdout, template };
}

function checkTypeScriptService(fwShim, tarball, work) {
  const created = run(fwShim, ['create', '-t', 'node-typescript', '-n', 'greeter', '-p', 'greeter'], { cwd: work });
  const service = join(work, 'greeter');
  if (!report(created.code === 0, 'installed fw create -t node-typescript', `${exited(created)}:\n${created.output}`)) return;
  const manifest = JSON.parse(readFileSync(join(service, 'package.json'), 'utf8'));
  // fw-deploy is not on the registry: the new service links the fw that created it (`file:` a relative path).
  const dependency = manifest.devDependencies['fw-deploy'] ?? '';
  const linked = dependency.startsWith('file:') ? join(service, dependency.slice('file:'.length), 'package.json') : '';
  const linkedName = linked && existsSync(linked) ? JSON.parse(readFileSync(linked, 'utf8')).name : undefined;
  report(
    linkedName === 'fw-deploy' && !('fw' in manifest.devDependencies),
    'the new service depends on the installed fw-deploy (file: link), not on the registry or npm\'s unrelated "fw"',
    JSON.stringify(manifest.devDependencies),
  );
  // --offline: no registry at all (TypeScript and Node's types come from the cache fw's own npm ci filled; fw-deploy from the link).
  const install = run('npm', ['install', '--offline', '--no-audit', '--no-fund'], { cwd: service });
  if (!report(install.code === 0, 'npm install --offline in the new service (no registry entry for fw-deploy needed)', `${exited(install)}:\n${install.output}`)) return;
  const test = run('npm', ['test'], { cwd: service });
  report(test.code === 0 && /# pass 2/.test(test.output) && /# fail 0/.test(test.output), 'npm test in the new TypeScript service (tsc against fw-deploy\'s types, then node --test)', `${exited(test)}:\n${test.output}`);
}

/** Every file under `dir`, relative, sorted: the install folder must be the same after every run. */
function listFiles(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name), base) : [relative(base, join(dir, entry.name))]))
    .sort();
}

async function main() {
  const versions = parseVersions(process.argv.slice(2));
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'fw-node-versions-'));
  // Code caches fw writes go to the work folder (each Node.js release below gets its own), not to ~/.cache/fw.
  process.env.XDG_CACHE_HOME = join(work, 'cache');
  console.log(`fw on Node.js ${[...versions, `${process.version.slice(1)} (running)`].join(', ')}; work folder ${work}`);
  try {
    const ping = run('npm', ['ping', '--fetch-retries=0', '--fetch-timeout=15000'], { timeout: 30_000 });
    if (ping.code !== 0) {
      console.log(`\n!!! The npm registry cannot be reached (npm ping, ${exited(ping)}): fw was NOT checked on any Node.js release. !!!\n`);
      report(false, 'npm registry reachable (npm ping)', ping.output);
      return;
    }
    const clone = join(work, 'clone');
    cleanCopy(clone);
    // The dependencies a clone gets from `npm ci`, shared instead of installed again.
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
    // The build (tsc, the bundles, their code caches) took over 3 minutes on a busy 2-core machine.
    const packed = run('npm', ['pack', '--pack-destination', work], { cwd: clone, timeout: 600_000 });
    const tarball = join(work, `${PACKAGE.name}-${PACKAGE.version}.tgz`);
    if (!report(packed.code === 0 && existsSync(tarball), `npm pack in a clean copy (prepack builds) gives ${relative(work, tarball)}`, `${exited(packed)}:\n${packed.output}`)) return;
    const prefix = join(work, 'prefix');
    const install = run('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball]);
    const installed = join(prefix, 'lib', 'node_modules', PACKAGE.name);
    if (!report(install.code === 0 && existsSync(join(installed, 'bin', 'fw.js')), `npm install --global --prefix <tmp> ${relative(work, tarball)}`, `${exited(install)}:\n${install.output}`)) return;
    const fwShim = join(prefix, 'bin', 'fw');
    const shim = run(fwShim, ['--version'], { cwd: work });
    report(shim.code === 0 && shim.stdout === `${PACKAGE.version}\n`, 'the installed "fw" command runs', `${exited(shim)}:\n${shim.output}`);
    const installedFiles = listFiles(installed);

    const fw = join(installed, 'bin', 'fw.js');
    const referenceDir = join(work, `node-${process.version}`);
    mkdirSync(referenceDir);
    const reference = await checkNode(`Node.js ${process.version}`, process.execPath, fw, referenceDir, undefined);
    const unreachable = [];
    for (const version of versions) {
      const label = `Node.js v${version}`;
      const node = nodeBinary(version);
      if (!report(node.binary !== undefined, `${label}: binary from the npm registry`, node.problem)) {
        unreachable.push(version);
        continue;
      }
      const dir = join(work, `node-${version}`);
      mkdirSync(dir);
      await checkNode(label, node.binary, fw, dir, reference);
    }
    const after = listFiles(installed);
    report(after.join('\n') === installedFiles.join('\n'), 'no run wrote into the install folder', after.filter((file) => !installedFiles.includes(file)).join('\n'));
    checkTypeScriptService(fwShim, tarball, work);
    if (unreachable.length > 0) {
      console.log(`\n!!! Node.js ${unreachable.join(', ')} could not be fetched from the npm registry, so fw was NOT checked on ${unreachable.length === 1 ? 'it' : 'them'}. !!!\n`);
    }
  } catch (error) {
    report(false, 'the check itself', error.stack);
  } finally {
    rmSync(work, { recursive: true, force: true });
    console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
    console.log(`${passed} passed, ${failed} failed`);
    process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
  }
}

main();
