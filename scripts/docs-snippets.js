#!/usr/bin/env node
// Packages the examples of the reference's own documentation with the reference and with fw, and
// compares the templates.
//
//   node scripts/docs-snippets.js [snippet-regex]
//
// 1. Reads docs/providers/aws/{guide,events}/*.md of the installed serverless@3.40.0 and keeps the
//    ```yml/```yaml blocks that parse as a mapping whose top-level keys are all service keys
//    (functions, provider, resources, custom, package, layers, …) and include `functions`,
//    `provider` or `resources`. Each is named <folder>-<file>-<n> (n counts the file's YAML blocks).
// 2. Makes a service of each in a temp folder: `service: snip`, provider aws / nodejs18.x unless
//    the block says otherwise, the block's keys over it, and a handler file for each function.
// 3. Runs `serverless package` (scripts/goldens.js's runner: fake credentials, fixed clock) and
//    `bin/fw.js package` (the built fw of this checkout, same clock) on it.
// 4. Compares Resources and Outputs after normalizing what differs by construction (the code hash,
//    the version ids derived from it, the artifact folder and REST deployment id, which carry the time), and prints one line per snippet that is not identical and a
//    summary. Snippets the reference refuses are counted apart (fw refusing them too or not).
//
// Needs the reference (see scripts/goldens.js for the install command) and `npm run build`;
// not part of `npm test`. FW_SNIPPETS_KEEP=1 keeps the temp folder and prints it.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const YAML = require('yaml');
const { findReference, runCase, clockPreload, referenceEnv } = require('./goldens');

const REPO = path.resolve(__dirname, '..');
const FW_BIN = path.join(REPO, 'bin/fw.js');
const DOC_FOLDERS = ['guide', 'events'];
const SERVICE_KEYS = new Set([
  'service', 'frameworkVersion', 'provider', 'functions', 'resources', 'custom', 'package', 'layers',
  'plugins', 'params', 'stepFunctions', 'useDotenv', 'configValidationMode', 'deprecationNotificationMode', 'outputs',
]);
const JOBS = Number(process.env.FW_GOLDEN_JOBS || 2);

/** Every YAML block of the docs that reads as a fragment of a service file. */
function extractSnippets(docsRoot) {
  const snippets = [];
  for (const folder of DOC_FOLDERS) {
    const dir = path.join(docsRoot, folder);
    for (const file of fs.readdirSync(dir).filter(name => name.endsWith('.md')).sort()) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      const blocks = [...text.matchAll(/^```ya?ml[^\n]*\n([\s\S]*?)^```/gm)].map(match => match[1]);
      blocks.forEach((source, index) => {
        let fragment;
        try {
          fragment = YAML.parse(source, { logLevel: 'silent', customTags: cloudFormationTags() });
        } catch {
          return;
        }
        if (!isServiceFragment(fragment)) return;
        snippets.push({ name: `${folder}-${file.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-')}-md-${index}`, fragment });
      });
    }
  }
  return snippets;
}

function isServiceFragment(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every(key => SERVICE_KEYS.has(key)) && ['functions', 'provider', 'resources'].some(key => key in value);
}

/** `!Ref x`, `!GetAtt a.b`, `!Sub …` … kept as the long form, which both tools read. */
function cloudFormationTags() {
  const names = ['Ref', 'GetAtt', 'Sub', 'Join', 'Select', 'Split', 'If', 'Equals', 'Not', 'And', 'Or', 'FindInMap', 'ImportValue', 'Base64', 'GetAZs', 'Cidr'];
  return names.flatMap(name => {
    const key = name === 'Ref' ? 'Ref' : `Fn::${name}`;
    const resolve = value => ({ [key]: name === 'GetAtt' && typeof value === 'string' ? value.split('.') : value });
    return ['scalar', 'seq', 'map'].map(collection => ({
      tag: `!${name}`,
      collection: collection === 'scalar' ? undefined : collection,
      resolve: collection === 'scalar' ? resolve : node => resolve(node.toJSON()),
    }));
  });
}

/** The snippet as a service folder: the fragment over a minimal service, a handler file per function. */
function writeService(dir, fragment) {
  fs.mkdirSync(dir, { recursive: true });
  const service = { service: 'snip', ...fragment };
  service.provider = { name: 'aws', runtime: 'nodejs18.x', ...(isObject(fragment.provider) ? fragment.provider : {}) };
  fs.writeFileSync(path.join(dir, 'serverless.yml'), YAML.stringify(service));
  for (const fn of Object.values(isObject(fragment.functions) ? fragment.functions : {})) {
    if (!isObject(fn) || typeof fn.handler !== 'string') continue;
    const module = fn.handler.replace(/\.[^./]+$/, '');
    const file = path.join(dir, `${module}.js`);
    if (!file.startsWith(dir + path.sep)) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const exported = fn.handler.slice(module.length + 1) || 'handler';
    fs.appendFileSync(file, `exports[${JSON.stringify(exported)}] = async () => ({ statusCode: 200 });\n`);
  }
}

const isObject = value => value !== null && typeof value === 'object' && !Array.isArray(value);

function runFw(dir, preload) {
  return new Promise(resolve => {
    const child = spawn(process.execPath, ['--require', preload, FW_BIN, 'package', '--package', '.fw-out'], {
      cwd: dir,
      env: referenceEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', data => (output += data));
    child.stderr.on('data', data => (output += data));
    child.on('close', code => {
      const template = path.join(dir, '.fw-out', 'cloudformation-template-update-stack.json');
      if (code === 0 && fs.existsSync(template)) resolve({ template: JSON.parse(fs.readFileSync(template, 'utf8')) });
      else resolve({ error: output.split('\n').filter(line => line.trim()).pop() || `exit ${code}` });
    });
  });
}

function normalize(template) {
  return JSON.parse(
    JSON.stringify(template)
      .replace(/"CodeSha256":"[^"]*"/g, '"CodeSha256":"<sha>"')
      // the artifact folder and the REST deployment id carry the packaging time
      .replace(/"S3Key":"[^"]*"/g, '"S3Key":"<key>"')
      .replace(/serverless\/[^"]*\/\d{13}-[^"/]*\//g, 'serverless/<dir>/')
      .replace(/ApiGatewayDeployment\d+/g, 'ApiGatewayDeployment<time>')
      .replace(/LambdaVersion[0-9A-Za-z]{20,}/g, 'LambdaVersion<hash>')
      .replace(/LambdaLayer[0-9a-f]{40}/g, 'LambdaLayer<hash>'),
  );
}

/** `Resources.X.Properties.Y: ref -> fw` for each differing leaf of Resources and Outputs. */
function differences(reference, fw) {
  const out = [];
  const walk = (where, a, b) => {
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    if (isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) walk(`${where}.${key}`, a[key], b[key]);
    } else {
      out.push(`${where}: ${JSON.stringify(a)} -> ${JSON.stringify(b)}`);
    }
  };
  for (const section of ['Resources', 'Outputs']) walk(section, normalize(reference)[section] || {}, normalize(fw)[section] || {});
  return out;
}

async function compare(serverlessBin, snippet, root, preload) {
  const dir = path.join(root, snippet.name);
  writeService(dir, snippet.fragment);
  await runCase(serverlessBin, { name: snippet.name, dir, label: snippet.name });
  const expected = path.join(dir, 'expected');
  const reference = fs.existsSync(path.join(expected, 'update.json'))
    ? { template: JSON.parse(fs.readFileSync(path.join(expected, 'update.json'), 'utf8')) }
    : { error: fs.readFileSync(path.join(expected, 'error.txt'), 'utf8').split('\n').find(line => /error/i.test(line)) || 'refused' };
  const fw = await runFw(dir, preload);
  if (reference.error !== undefined) return fw.error !== undefined ? { kind: 'both refuse' } : { kind: 'reference refuses', detail: reference.error.trim() };
  if (fw.error !== undefined) return { kind: 'fw refuses', detail: fw.error.trim() };
  const diff = differences(reference.template, fw.template);
  return diff.length === 0 ? { kind: 'identical' } : { kind: 'differ', detail: diff.slice(0, 6).join('\n    ') };
}

async function main() {
  const filter = process.argv[2] ? new RegExp(process.argv[2]) : undefined;
  if (!fs.existsSync(path.join(REPO, 'dist/fw.js'))) {
    console.error('fw is not built: run npm run build first.');
    process.exit(1);
  }
  const serverlessBin = findReference();
  const docsRoot = path.join(path.dirname(path.dirname(serverlessBin)), 'docs/providers/aws');
  const snippets = extractSnippets(docsRoot).filter(snippet => !filter || filter.test(snippet.name));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-docs-snippets-'));
  const preload = path.join(root, 'fixed-clock.cjs');
  clockPreload(preload);

  const results = new Array(snippets.length);
  let next = 0;
  const worker = async () => {
    while (next < snippets.length) {
      const index = next++;
      results[index] = await compare(serverlessBin, snippets[index], root, preload);
    }
  };
  await Promise.all(Array.from({ length: Math.min(JOBS, snippets.length) }, worker));

  const counts = {};
  snippets.forEach((snippet, index) => {
    const { kind, detail } = results[index];
    counts[kind] = (counts[kind] || 0) + 1;
    if (kind !== 'identical' && kind !== 'both refuse') console.log(`${kind}: ${snippet.name}${detail ? `\n    ${detail}` : ''}`);
  });
  console.log(`${snippets.length} snippet(s): ${Object.entries(counts).map(([kind, n]) => `${n} ${kind}`).join(', ')}`);
  if (process.env.FW_SNIPPETS_KEEP === '1') console.log(`kept in ${root}`);
  else fs.rmSync(root, { recursive: true, force: true });
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
