import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runFw } from '../plugins/helpers';

/** v3's `create --template-path/--template-url` and `install --url`: a service copied from a folder and renamed. */
const copies = suite<{ root: string; template: string }>('Serverless v3 create from a folder, and install');

const SERVICE_FILE = `# the orders service
service: orders # renamed on create
provider:
  name: aws
functions:
  hello:
    handler: handler.main
`;

copies.before.each((context) => {
  context.root = mkdtempSync(join(tmpdir(), 'fw-create-folder-'));
  context.template = join(context.root, 'template');
  mkdirSync(join(context.template, 'node_modules', 'dep'), { recursive: true });
  mkdirSync(join(context.template, 'src'), { recursive: true });
  writeFileSync(join(context.template, 'serverless.yml'), SERVICE_FILE);
  writeFileSync(join(context.template, 'src', 'handler.js'), 'exports.main = async () => 1;\n');
  writeFileSync(join(context.template, 'package.json'), '{ "name": "orders", "private": true }\n');
  writeFileSync(join(context.template, 'node_modules', 'dep', 'index.js'), '');
});

copies.after.each((context) => {
  rmSync(context.root, { recursive: true, force: true });
});

copies('create --template-path copies the folder (without node_modules) and renames the service in the service file and package.json', async (context) => {
  const result = await runFw(['create', '--template-path', 'template', '--name', 'billing', '--path', 'services/billing'], context.root);
  assert.equal(result, { code: 0, stdout: 'Created billing from template in services/billing (3 files)\n', stderr: '' });
  const dir = join(context.root, 'services', 'billing');
  assert.equal(readdirSync(dir).sort(), ['package.json', 'serverless.yml', 'src']);
  assert.is(readFileSync(join(dir, 'serverless.yml'), 'utf8'), SERVICE_FILE.replace('service: orders # renamed', 'service: billing # renamed'));
  assert.equal(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')), { name: 'billing', private: true });
});

copies('create --template-url takes a file: URL; a remote URL is refused, saying it needs the network', async (context) => {
  const url = pathToFileURL(context.template).href;
  const result = await runFw(['create', '--template-url', url, '--name', 'billing'], context.root);
  assert.equal(result, { code: 0, stdout: `Created billing from ${url} in billing (3 files)\n`, stderr: '' });
  const remote = await runFw(['create', '-u', 'https://github.com/acme/orders', '--name', 'x'], context.root);
  assert.equal(remote, {
    code: 1,
    stdout: '',
    stderr:
      'Error: --template-url https://github.com/acme/orders: downloading a template needs network access, which fw does not use for it; ' +
      'clone or download it yourself and pass the folder (--template-url ./folder or --template-path ./folder)\n',
  });
  assert.is(existsSync(join(context.root, 'x')), false);
});

copies('install --url copies into a folder named after --name (the service renamed), or after the source folder', async (context) => {
  const named = await runFw(['install', '--url', './template', '--name', 'shop'], context.root);
  assert.equal(named, { code: 0, stdout: 'Installed shop from ./template in shop (3 files)\n', stderr: '' });
  assert.match(readFileSync(join(context.root, 'shop', 'serverless.yml'), 'utf8'), /^service: shop # renamed on create$/m);
  rmSync(join(context.root, 'shop'), { recursive: true });
  const kept = await runFw(['install', '-u', pathToFileURL(context.template).href], mkdirIn(context.root, 'elsewhere'));
  assert.is(kept.code, 0, kept.stderr);
  assert.is(readFileSync(join(context.root, 'elsewhere', 'template', 'serverless.yml'), 'utf8'), SERVICE_FILE);
  const again = await runFw(['install', '--url', '../template'], join(context.root, 'elsewhere'));
  assert.equal(again, { code: 1, stdout: '', stderr: 'Error: Cannot create the service: the folder "template" already exists and is not empty\n' });
});

function mkdirIn(root: string, name: string): string {
  mkdirSync(join(root, name));
  return join(root, name);
}

copies.run();
