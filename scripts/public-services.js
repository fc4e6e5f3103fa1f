#!/usr/bin/env node
// Public serverless services nobody here wrote, packaged by the reference (serverless@3.40.0) and by
// fw, then deployed unchanged into `fw local start` (a fresh one per service):
//
//   node scripts/public-services.js [name-regex] [--no-deploy] [--jobs N] [--json FILE]
//   node scripts/public-services.js --record   (v3's templates for the services npm test checks)
//
// Where the services come from (all from the npm registry, cached OUTSIDE the repository under
// ~/.cache/fw-public-services, or $FW_PUBLIC_SERVICES_DIR; nothing is committed):
//   - serverless-sam@0.2.0: a 2017 snapshot of Serverless, Inc.'s examples repository
//     (integration_tests/tmp/aws-*), each with its own dependencies installed by `npm install`;
//   - serverless@2.72.3 and serverless@1.83.3: Serverless's `serverless create` templates
//     (lib/plugins/create/templates/aws-*; 3.40.0 no longer ships them), and 2.72.3's AWS docs examples;
//   - serverless-apigateway-service-proxy (the version in the plugin cache): the services of its
//     integration tests (__tests__/integration/**/service), placed as deep as in the package so their
//     `plugins.localPath` finds the plugin.
// A service is packaged as published; when v3 refuses it for its Serverless v1/v2 `frameworkVersion`
// range (or v1's `${self:provider.stage}` defaults), both are packaged again from a copy beside it
// with the range dropped and `stage: dev`, `region: us-east-1` written out (scripts/public-apps.js's
// v3ServiceFile), and the service is counted as "adapted".
//
// Prints: how many services v3 packages, how many fw packages, how many templates are identical
// (after the normalisation the goldens use: version hashes, CodeSha256), and every differing
// resource/output grouped by cause (resource type and the first differing property). Then, unless
// --no-deploy, deploys each service v3 packages with `fw deploy --local` into `fw local start`,
// counts the stacks that reach CREATE_COMPLETE and are removed cleanly by `fw remove --local`, and
// lists the failures by reason (each service in a fresh `fw local start`). The reference's results are cached per service (by content).
// Needs `npm run build` first and the reference (see scripts/goldens.js). Plain Node.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawn, spawnSync } = require('child_process');
const { findReference, clockPreload, referenceEnv } = require('./goldens');
const { pluginCache } = require('./plugin-cache');

const REPO = path.resolve(__dirname, '..');
const FW = path.join(REPO, 'bin', 'fw.js');
const CACHE = process.env.FW_PUBLIC_SERVICES_DIR || path.join(os.homedir(), '.cache', 'fw-public-services');
const CONFIG_NAMES = ['serverless.yml', 'serverless.yaml', 'serverless.json', 'serverless.js', 'serverless.ts'];
// Deep enough for the plugin tests' `localPath: './../../../../../../'` (six folders up).
const DEPTH = ['p1', 'p2', 'p3', 'p4', 'p5'];
// The few services test/local/public-services.test.ts packages and deploys in `npm test`; their v3
// templates are recorded (as the goldens are) in test/fixtures/public-services/<name>/update.json.
const TESTED = ['aws-multiple-runtime', 'aws-node-github-webhook-listener', 'aws-node-scheduled-cron'];
const RECORDED = path.join(REPO, 'test', 'fixtures', 'public-services');

function npm(args, cwd) {
  const result = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', timeout: 600_000 });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed: ${(result.error ? result.error.message : result.stderr).trim().split('\n').slice(-3).join(' ')}`);
  return result.stdout;
}

/** The unpacked tarball of an npm package, fetched once with `npm pack`. */
function tarball(spec, log) {
  const dir = path.join(CACHE, 'tarballs', spec);
  if (fs.existsSync(path.join(dir, '.fw-unpacked'))) return path.join(dir, 'package');
  log(`Fetching ${spec} from the npm registry …`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const file = npm(['pack', spec], dir).trim().split('\n').pop();
  const tar = spawnSync('tar', ['xzf', file], { cwd: dir, encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`Unpacking ${file} failed: ${tar.stderr}`);
  fs.writeFileSync(path.join(dir, '.fw-unpacked'), '');
  return path.join(dir, 'package');
}

/** A copy of a service folder in the cache with its package.json's dependencies installed (once). */
function installedCopy(source, id, log) {
  const dir = path.join(CACHE, 'services', id);
  if (fs.existsSync(path.join(dir, '.fw-installed'))) return { dir, install: fs.readFileSync(path.join(dir, '.fw-installed'), 'utf8') };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(source, dir, { recursive: true });
  let install = 'installed';
  if (fs.existsSync(path.join(dir, 'package.json'))) {
    log(`npm install in ${id} …`);
    try {
      npm(['install', '--no-package-lock', '--legacy-peer-deps', '--ignore-scripts'], dir);
    } catch (error) {
      install = `npm install failed: ${error.message}`;
      log(`  ${install}`);
    }
  }
  // Plugins the service file lists that its package.json does not install (the README says `npm install` them).
  const file = path.join(dir, 'serverless.yml');
  const listed = fs.existsSync(file) ? (/^plugins:\n((?:\s+-\s*\S+\n?)+)/m.exec(fs.readFileSync(file, 'utf8')) || [, ''])[1].split('\n').map((l) => l.replace(/^\s*-\s*/, '').trim()).filter(Boolean) : [];
  const missing = listed.filter((name) => /^[@\w][\w./-]*$/.test(name) && !fs.existsSync(path.join(dir, 'node_modules', name)));
  if (missing.length) {
    log(`npm install ${missing.join(' ')} in ${id} …`);
    try {
      npm(['install', '--no-save', '--no-package-lock', '--legacy-peer-deps', '--ignore-scripts', ...missing], dir);
    } catch (error) {
      install += `; plugins not installed: ${error.message}`;
    }
  }
  fs.writeFileSync(path.join(dir, '.fw-installed'), install);
  return { dir, install };
}

function isAwsService(dir) {
  const file = CONFIG_NAMES.map((name) => path.join(dir, name)).find((f) => fs.existsSync(f));
  if (!file) return false;
  const text = fs.readFileSync(file, 'utf8');
  return !/^\s*name:\s*['"]?(azure|google|openwhisk|kubeless|aliyun|tencent|spotinst|fn|cloudflare|knative|twilio)/m.test(text);
}

/**
 * The services of the corpus whose name `filter` matches: { corpus, name, dir, nodeModules?, install }.
 * `sources` picks corpora: examples, templates, docs, proxy (all by default).
 */
function collect(log, { filter, sources = ['examples', 'templates', 'docs', 'proxy'] } = {}) {
  const services = [];
  const wanted = (name) => !filter || filter.test(name);
  if (sources.includes('examples')) {
    const sam = path.join(tarball('serverless-sam@0.2.0', log), 'integration_tests', 'tmp');
    for (const name of fs.readdirSync(sam).sort()) {
      if (!name.startsWith('aws-') || !wanted(name) || !isAwsService(path.join(sam, name))) continue;
      services.push({ corpus: 'serverless-sam@0.2.0 examples', name, ...installedCopy(path.join(sam, name), `examples/${name}`, log) });
    }
  }
  if (sources.includes('templates')) {
    // The last v2 and the last v1 release: the same template names, written for each major.
    for (const [spec, prefix] of [['serverless@2.72.3', 'template'], ['serverless@1.83.3', 'template-v1']]) {
      const templates = path.join(tarball(spec, log), 'lib', 'plugins', 'create', 'templates');
      for (const name of fs.readdirSync(templates).sort()) {
        if (!name.startsWith('aws-') || !wanted(`${prefix}-${name}`) || !isAwsService(path.join(templates, name))) continue;
        services.push({ corpus: `${spec} create templates`, name: `${prefix}-${name}`, ...installedCopy(path.join(templates, name), `${prefix === 'template' ? 'templates' : prefix}/${name}`, log) });
      }
    }
  }
  if (sources.includes('docs')) {
    // The AWS examples of Serverless v2's own documentation.
    const examples = path.join(tarball('serverless@2.72.3', log), 'docs', 'providers', 'aws', 'examples');
    for (const example of fs.readdirSync(examples).sort()) {
      if (!fs.statSync(path.join(examples, example)).isDirectory()) continue;
      for (const variant of fs.readdirSync(path.join(examples, example)).sort()) {
        const dir = path.join(examples, example, variant);
        const name = `docs-${example}-${variant}`;
        if (wanted(name) && isAwsService(dir)) services.push({ corpus: 'serverless@2.72.3 docs examples', name, ...installedCopy(dir, `docs/${example}-${variant}`, log) });
      }
    }
  }
  if (sources.includes('proxy')) {
    const { nodeModules } = pluginCache({ log });
    const proxy = path.join(nodeModules, 'serverless-apigateway-service-proxy', '__tests__', 'integration');
    for (const kind of fs.readdirSync(proxy).sort()) {
      if (!fs.statSync(path.join(proxy, kind)).isDirectory()) continue;
      for (const variant of fs.readdirSync(path.join(proxy, kind)).sort()) {
        const dir = path.join(proxy, kind, variant, 'service');
        const name = `proxy-${kind}-${variant}`;
        if (wanted(name) && isAwsService(dir)) services.push({ corpus: 'serverless-apigateway-service-proxy tests', name, dir, nodeModules, install: 'plugin cache' });
      }
    }
  }
  return services;
}

/**
 * A copy of serverless.yml beside it that Serverless v3 reads: a v1/v2 `frameworkVersion` range
 * dropped, and `stage: dev` / `region: us-east-1` written under provider where the file leaves them
 * to v1's defaults (which `${self:provider.stage}` read). Returns the copy's file name.
 */
function v3ServiceFile(dir) {
  if (!fs.existsSync(path.join(dir, 'serverless.yml'))) {
    // serverless.ts (serverless@2's TypeScript template): only the range goes.
    const name = 'serverless.fw-v3.ts';
    fs.writeFileSync(path.join(dir, name), fs.readFileSync(path.join(dir, 'serverless.ts'), 'utf8').replace(/^\s*frameworkVersion: .*\n/m, ''));
    return name;
  }
  const name = 'serverless.fw-v3.yml';
  let text = fs.readFileSync(path.join(dir, 'serverless.yml'), 'utf8').replace(/^frameworkVersion: .*\n/m, '');
  const provider = /^provider:\n((?:[ \t]+.*\n|\s*\n)*)/m.exec(text);
  const indent = provider ? (/^([ \t]+)\S/m.exec(provider[1]) || [, '  '])[1] : '  ';
  const add = ['stage: dev', 'region: us-east-1'].filter((line) => !provider || !new RegExp(`^${indent}${line.split(':')[0]}:`, 'm').test(provider[1]));
  if (provider && add.length) text = text.replace(/^provider:\n/m, `provider:\n${add.map((line) => `${indent}${line}\n`).join('')}`);
  fs.writeFileSync(path.join(dir, name), text);
  return name;
}

/** A fresh copy of the service at <root>/p1/…/p5/<name>, with the plugin cache reachable from <root>. */
function workCopy(service, root) {
  const work = path.join(root, ...DEPTH, service.name);
  fs.mkdirSync(path.dirname(work), { recursive: true });
  // Without the service's own `serverless` (serverless@2's TypeScript template installs one): the
  // reference would hand the command to it, and what is compared is v3's result.
  const ownServerless = path.join(service.dir, 'node_modules', 'serverless');
  fs.cpSync(service.dir, work, { recursive: true, filter: (f) => !f.includes(`${path.sep}.serverless`) && f !== ownServerless });
  if (service.nodeModules) {
    fs.symlinkSync(service.nodeModules, path.join(root, 'node_modules'), 'dir');
    for (const entry of fs.readdirSync(service.nodeModules)) {
      if (entry.startsWith('serverless-')) fs.symlinkSync(path.join(service.nodeModules, entry), path.join(root, entry), 'dir');
    }
  }
  return work;
}

function run(args, cwd, env, timeout = 600_000) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const stripAnsi = (s) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

/** The first line that says what went wrong (an error message), for grouping failures. */
function reason(output) {
  const lines = stripAnsi(output).split('\n').map((l) => l.trim()).filter(Boolean);
  // v3 prints "Error:" on a line of its own, the message on the next.
  const bare = lines.findIndex((l) => l === 'Error:');
  if (bare >= 0 && lines[bare + 1]) return lines[bare + 1].replace(/\/tmp\/[^\s'"]+/g, '<tmp>').slice(0, 240);
  const line = lines.find((l) => /error|failed|cannot|can't|not |refus|invalid|unknown|must/i.test(l) && !/^(at |\[WARNING\]|Warning)/.test(l)) || lines[0] || '(no output)';
  return line.replace(/\/tmp\/[^\s'"]+/g, '<tmp>').slice(0, 240);
}

function readTemplate(work) {
  const file = path.join(work, '.serverless', 'cloudformation-template-update-stack.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
}

function serviceFiles(dir) {
  const hash = crypto.createHash('sha256');
  for (const name of CONFIG_NAMES) if (fs.existsSync(path.join(dir, name))) hash.update(name).update(fs.readFileSync(path.join(dir, name)));
  return hash.digest('hex').slice(0, 16);
}

/** Packages a copy with the reference (cached by the service file's content) and with fw. */
async function packageBoth(service, serverlessBin, preloadDir) {
  const preload = path.join(preloadDir, 'fixed-clock.cjs');
  const env = { ...referenceEnv(), NODE_PATH: path.resolve(serverlessBin, '..', '..', '..') };
  const cacheFile = path.join(CACHE, 'reference', `${service.name}-${serviceFiles(service.dir)}.json`);
  let reference = fs.existsSync(cacheFile) ? JSON.parse(fs.readFileSync(cacheFile, 'utf8')) : undefined;
  const attempt = async (adapted) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-public-'));
    const work = workCopy(service, root);
    const args = adapted ? ['--config', v3ServiceFile(work)] : [];
    const result = { adapted };
    if (!reference || reference.adapted !== adapted) {
      const ref = await run(['--require', preload, serverlessBin, 'package', ...args], work, env);
      result.reference = { code: ref.code, template: ref.code === 0 ? readTemplate(work) : undefined, error: ref.code === 0 ? undefined : reason(ref.stdout + '\n' + ref.stderr) };
      fs.rmSync(path.join(work, '.serverless'), { recursive: true, force: true });
    } else result.reference = reference.reference;
    const own = await run(['--require', preload, FW, 'package', ...args], work, { ...env, NO_COLOR: '1' });
    result.fw = { code: own.code, template: own.code === 0 ? readTemplate(work) : undefined, error: own.code === 0 ? undefined : reason(own.stderr + '\n' + own.stdout) };
    result.root = root;
    result.work = work;
    result.args = args;
    return result;
  };
  let result = await attempt(reference ? reference.adapted : false);
  const v1Config = (text) => /frameworkVersion|provider\.stage|provider\.region|variable/i.test(text || '');
  if (!result.reference.template && !result.adapted && v1Config(result.reference.error) && ['serverless.yml', 'serverless.ts'].some((f) => fs.existsSync(path.join(service.dir, f)))) {
    fs.rmSync(result.root, { recursive: true, force: true });
    result = await attempt(true);
  }
  if (!reference || reference.adapted !== result.adapted) {
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
    fs.writeFileSync(cacheFile, JSON.stringify({ adapted: result.adapted, reference: result.reference }));
  }
  return result;
}

let normalizeTemplate;
function normalize(template) {
  normalizeTemplate ||= require(path.join(REPO, 'dist', 'test', 'helpers', 'golden.js')).normalize;
  return normalizeTemplate(template);
}

const canonical = (value) =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])]))
      : value;

/** Where two values first differ: the property path under the resource. */
function firstDifference(a, b, at = '') {
  if (JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = Array.isArray(a) ? [...Array(Math.max(a.length, b.length)).keys()] : [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      const found = firstDifference(a[key], b[key], `${at}.${Array.isArray(a) ? '[]' : key}`);
      if (found) return found;
    }
  }
  return { at: at || '.', fw: JSON.stringify(a)?.slice(0, 200), v3: JSON.stringify(b)?.slice(0, 200) };
}

/** Each differing resource/output: { id, cause, fw, v3 } (cause: type and first differing path). */
function compare(own, ref) {
  const a = normalize(own);
  const b = normalize(ref);
  const out = [];
  for (const section of ['Resources', 'Outputs']) {
    const mine = a[section] || {};
    const theirs = b[section] || {};
    for (const id of new Set([...Object.keys(mine), ...Object.keys(theirs)])) {
      const type = (theirs[id] || mine[id]).Type || section.slice(0, -1);
      if (!(id in mine)) out.push({ id, cause: `${type}: only v3 writes it` });
      else if (!(id in theirs)) out.push({ id, cause: `${type}: only fw writes it` });
      else {
        const d = firstDifference(mine[id], theirs[id]);
        if (d) out.push({ id, cause: `${type} ${d.at.replace(/\.\d+/g, '.[]')}`, fw: d.fw, v3: d.v3 });
      }
    }
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (key === 'Resources' || key === 'Outputs') continue;
    const d = firstDifference(a[key], b[key]);
    if (d) out.push({ id: key, cause: `template ${key}${d.at}`, fw: d.fw, v3: d.v3 });
  }
  return out;
}

function fwLocal(args, cwd, local) {
  return run([FW, ...args, '--local'], cwd, { ...referenceEnv(), FW_LOCAL_PORT: String(local.port), FW_LOCAL_DATA: local.data, NO_COLOR: '1' }, 300_000);
}

async function startLocal() {
  const net = require('net');
  const port = await new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = server.address();
      server.close(() => resolve(p));
    });
  });
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-public-local-'));
  const child = spawn(process.execPath, [FW, 'local', 'start', '--port', String(port), '--data', data], { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      const response = await fetch(`${url}/_fw/health`);
      if (response.ok) return { port, data, url, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('fw local start did not answer in 30 s');
}

function cloudFormation(local) {
  const { CloudFormationClient } = require(path.join(REPO, 'node_modules', '@aws-sdk', 'client-cloudformation'));
  return new CloudFormationClient({ endpoint: local.url, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** Name → status of every stack the local cloud lists (deleted ones left out). */
async function stacks(local) {
  const { DescribeStacksCommand } = require(path.join(REPO, 'node_modules', '@aws-sdk', 'client-cloudformation'));
  const { Stacks = [] } = await cloudFormation(local).send(new DescribeStacksCommand({}));
  return new Map(Stacks.filter((s) => s.StackStatus !== 'DELETE_COMPLETE').map((s) => [s.StackName, s.StackStatus]));
}

/**
 * What the stack declares and a function reads through the API (SSM parameters, event buses,
 * secrets): each read back by its physical id with the AWS SDK a function uses. Returns the
 * problems, one line each.
 */
async function declaredReadable(local, stackName) {
  const sdk = (name) => require(path.join(REPO, 'node_modules', '@aws-sdk', name));
  const client = (name, Client) => new (sdk(name)[Client])({ endpoint: local.url, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const { DescribeStackResourcesCommand } = sdk('client-cloudformation');
  const { StackResources = [] } = await cloudFormation(local).send(new DescribeStackResourcesCommand({ StackName: stackName }));
  const reads = {
    'AWS::SSM::Parameter': (id) => client('client-ssm', 'SSMClient').send(new (sdk('client-ssm').GetParameterCommand)({ Name: id })),
    'AWS::Events::EventBus': (id) => client('client-eventbridge', 'EventBridgeClient').send(new (sdk('client-eventbridge').DescribeEventBusCommand)({ Name: id })),
    'AWS::SecretsManager::Secret': (id) => client('client-secrets-manager', 'SecretsManagerClient').send(new (sdk('client-secrets-manager').GetSecretValueCommand)({ SecretId: id })),
  };
  const problems = [];
  let read = 0;
  for (const resource of StackResources.filter((r) => reads[r.ResourceType])) {
    try {
      await reads[resource.ResourceType](resource.PhysicalResourceId);
      read++;
    } catch (error) {
      problems.push(`${resource.LogicalResourceId} (${resource.ResourceType}) ${resource.PhysicalResourceId}: ${error.name}: ${error.message}`);
    }
  }
  return { read, problems };
}

/** Deploys one packaged copy with `fw deploy --local`, checks its stack, removes it. */
async function deployOne(result, local) {
  const before = await stacks(local);
  const deploy = await fwLocal(['deploy', ...result.args], result.work, local);
  const created = [...(await stacks(local))].filter(([name]) => !before.has(name));
  const [name, status] = created[0] || [];
  // A first deploy creates the stack with the deployment bucket, then updates it (as v3 does).
  if (deploy.code !== 0 || !/^(CREATE|UPDATE)_COMPLETE$/.test(status || '')) return { ok: false, reason: `deploy: ${status || 'no stack'}: ${reason(deploy.stderr + '\n' + deploy.stdout)}` };
  const declared = await declaredReadable(local, name);
  if (declared.problems.length) return { ok: false, reason: `declared but not readable: ${declared.problems.join('; ')}` };
  const remove = await fwLocal(['remove', ...result.args], result.work, local);
  const after = (await stacks(local)).get(name);
  if (remove.code !== 0 || after) return { ok: false, created: true, reason: `remove: ${after || 'gone'}: ${reason(remove.stderr + '\n' + remove.stdout)}` };
  return { ok: true, declared: declared.read };
}

async function main() {
  const argv = process.argv.slice(2);
  const flag = (name) => argv.includes(name);
  const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const filter = argv.find((a, i) => !a.startsWith('--') && !['--jobs', '--json'].includes(argv[i - 1]));
  const jobs = Number(option('--jobs')) || 2;
  const log = (line) => console.error(line);
  const serverlessBin = findReference();
  if (!fs.existsSync(path.join(REPO, 'dist', 'test', 'helpers', 'golden.js'))) throw new Error('run `npm run build` first');
  if (flag('--record')) {
    const preloadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-public-preload-'));
    clockPreload(path.join(preloadDir, 'fixed-clock.cjs'));
    for (const service of collect(log, { filter: new RegExp(`^(${TESTED.join('|')})$`), sources: ['examples'] })) {
      const result = await packageBoth(service, serverlessBin, preloadDir);
      if (!result.reference.template || result.adapted) throw new Error(`v3 does not package ${service.name} as published: ${result.reference.error}`);
      fs.mkdirSync(path.join(RECORDED, service.name), { recursive: true });
      fs.writeFileSync(path.join(RECORDED, service.name, 'update.json'), JSON.stringify(result.reference.template, null, 2) + '\n');
      fs.rmSync(result.root, { recursive: true, force: true });
      console.log(`${path.relative(REPO, path.join(RECORDED, service.name, 'update.json'))}: recorded`);
    }
    fs.rmSync(preloadDir, { recursive: true, force: true });
    return;
  }
  const services = collect(log, { filter: filter ? new RegExp(filter) : undefined });
  const preloadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-public-preload-'));
  clockPreload(path.join(preloadDir, 'fixed-clock.cjs'));
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      while (next < services.length) {
        const service = services[next++];
        const started = Date.now();
        const result = await packageBoth(service, serverlessBin, preloadDir);
        Object.assign(result, { service });
        if (result.reference.template && result.fw.template) result.differences = compare(result.fw.template, result.reference.template);
        const verdict = !result.reference.template ? `v3 refuses: ${result.reference.error}` : !result.fw.template ? `fw refuses: ${result.fw.error}` : result.differences.length ? `${result.differences.length} differ` : 'identical';
        log(`${service.name}${result.adapted ? ' (adapted)' : ''}: ${verdict} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
        results.push(result);
      }
    }),
  );
  const byV3 = results.filter((r) => r.reference.template);
  const byFw = byV3.filter((r) => r.fw.template);
  const identical = byFw.filter((r) => r.differences.length === 0);
  let total = 0;
  let same = 0;
  for (const r of byV3) {
    const count = Object.keys(r.reference.template.Resources || {}).length + Object.keys(r.reference.template.Outputs || {}).length;
    total += count;
    if (r.fw.template) same += count - r.differences.filter((d) => !/only fw/.test(d.cause)).length;
  }
  const lines = [];
  lines.push(`${services.length} services (${[...new Set(services.map((s) => s.corpus))].map((c) => `${services.filter((s) => s.corpus === c).length} ${c}`).join(', ')})`);
  lines.push(`packaged by v3: ${byV3.length} (${byV3.filter((r) => r.adapted).length} adapted from Serverless v1/v2)`);
  lines.push(`packaged by fw: ${byFw.length} of those`);
  lines.push(`identical templates: ${identical.length} of ${byV3.length}; resources and outputs equal: ${same} of ${total}`);
  const fwRefuses = byV3.filter((r) => !r.fw.template);
  if (fwRefuses.length) lines.push('fw refuses where v3 packages:', ...fwRefuses.map((r) => `  ${r.service.name}: ${r.fw.error}`));
  const causes = new Map();
  for (const r of byFw) for (const d of r.differences) (causes.get(d.cause) || causes.set(d.cause, []).get(d.cause)).push({ ...d, service: r.service.name });
  if (causes.size) {
    lines.push('differing resources/outputs by cause:');
    for (const [cause, list] of [...causes].sort((x, y) => y[1].length - x[1].length)) {
      lines.push(`  ${list.length} × ${cause}  (${[...new Set(list.map((d) => `${d.service}:${d.id}`))].slice(0, 4).join(', ')})`);
      if (list[0].fw !== undefined || list[0].v3 !== undefined) lines.push(`      fw: ${list[0].fw}`, `      v3: ${list[0].v3}`);
    }
  }
  const refusedByV3 = results.filter((r) => !r.reference.template);
  if (refusedByV3.length) lines.push(`not counted (v3 does not package them): ${refusedByV3.map((r) => `${r.service.name} (${r.reference.error.slice(0, 100)})`).join('; ')}`);
  console.log(lines.join('\n'));

  const report = { services: services.length, packagedByV3: byV3.length, packagedByFw: byFw.length, identical: identical.length, resources: { same, total } };
  if (!flag('--no-deploy')) {
    // Each service gets a fresh `fw local start` (its own data folder): what one service retains
    // on removal (a table with DeletionPolicy: Retain, as AWS keeps it) never fails the next one
    // that happens to use the same name.
    const failures = fwRefuses.map((r) => ({ name: r.service.name, reason: `fw does not package it: ${r.fw.error}` }));
    let complete = 0;
    let declared = 0;
    for (const r of byFw) {
      const started = Date.now();
      const local = await startLocal();
      let outcome;
      try {
        outcome = await deployOne(r, local);
      } finally {
        local.child.kill();
        await new Promise((resolve) => local.child.once('exit', resolve));
        fs.rmSync(local.data, { recursive: true, force: true });
      }
      log(`deploy ${r.service.name}: ${outcome.ok ? 'CREATE_COMPLETE, removed' : outcome.reason} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      declared += outcome.declared || 0;
      if (outcome.ok) complete++;
      else failures.push({ name: r.service.name, reason: outcome.reason });
    }
    const deployLines = [
      `deployed into fw local: ${complete} of ${byV3.length} that v3 packages reach CREATE_COMPLETE and are removed cleanly`,
      `declared SSM parameters, event buses and secrets read back through their APIs: ${declared}`,
    ];
    for (const f of failures) deployLines.push(`  ${f.name}: ${f.reason}`);
    console.log(deployLines.join('\n'));
    Object.assign(report, { createComplete: complete, declaredRead: declared, deployFailures: failures });
  }
  for (const r of results) fs.rmSync(r.root, { recursive: true, force: true });
  fs.rmSync(preloadDir, { recursive: true, force: true });
  if (option('--json')) {
    report.differences = byFw.flatMap((r) => r.differences.map((d) => ({ service: r.service.name, ...d })));
    report.refusedByFw = fwRefuses.map((r) => ({ service: r.service.name, error: r.fw.error }));
    fs.writeFileSync(option('--json'), JSON.stringify(report, null, 2));
  }
}

module.exports = { collect, workCopy, v3ServiceFile, packageBoth, compare, TESTED, RECORDED };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
