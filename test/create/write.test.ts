import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../src/errors';
import type { Template } from '../../src/create/templates';
import { findTemplate, listTemplates, templatesRoot } from '../../src/create/templates';
import { nextSteps } from '../../src/create/next-steps';
import { renderText, targetProblem, writeService } from '../../src/create/write';
import { removeTempDirs, repoRoot, tempDir, tree } from './helpers';

/** A small template written for each test: a service file, a nested file, a renamed one. */
function fakeTemplate(): Template {
  const dir = join(tempDir('template'), 'tiny');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'template.json'), '{ "description": "A tiny service" }\n');
  writeFileSync(join(dir, 'fw.yml'), 'service: __SERVICE_NAME__\ncustom:\n  bucket: __SERVICE_NAME_LOWER__-uploads\n');
  writeFileSync(join(dir, 'src', 'handler.js'), 'exports.handler = async () => ({ statusCode: 200, body: "__SERVICE_NAME__" });\n');
  writeFileSync(join(dir, '_gitignore'), '.serverless/\n');
  return { name: 'tiny', description: 'A tiny service', dir };
}

const write = suite('writeService');
write.after.each(removeTempDirs);

write('writes every template file with the name filled in, except the manifest', () => {
  const parent = tempDir('target');
  const dir = join(parent, 'My-Api');
  const files = writeService({ template: fakeTemplate(), name: 'My-Api', dir });
  assert.equal(files, ['.gitignore', 'fw.yml', 'src/handler.js']);
  assert.equal(tree(dir), ['.gitignore', 'fw.yml', 'src/handler.js']);
  assert.is(readFileSync(join(dir, 'fw.yml'), 'utf8'), 'service: My-Api\ncustom:\n  bucket: my-api-uploads\n');
  assert.is(readFileSync(join(dir, 'src', 'handler.js'), 'utf8'), 'exports.handler = async () => ({ statusCode: 200, body: "My-Api" });\n');
  assert.equal(readdirSync(parent), ['My-Api'], 'no staging folder is left beside the service');
});

write('the service folder and its folders follow the umask (drwxr-xr-x under 022, drwxr-x--- under 027)', () => {
  for (const [umask, mode] of [[0o022, 0o755], [0o027, 0o750]]) {
    const dir = join(tempDir('umask'), 'api');
    const before = process.umask(umask);
    try {
      writeService({ template: fakeTemplate(), name: 'api', dir });
    } finally {
      process.umask(before);
    }
    assert.equal([statSync(dir).mode & 0o777, statSync(join(dir, 'src')).mode & 0o777].map((m) => m.toString(8)), [mode.toString(8), mode.toString(8)]);
  }
});

write('fills an existing empty folder', () => {
  const dir = tempDir('empty');
  writeService({ template: fakeTemplate(), name: 'api', dir });
  assert.equal(tree(dir), ['.gitignore', 'fw.yml', 'src/handler.js']);
});

write('creates missing parent folders', () => {
  const parent = tempDir('nested');
  writeService({ template: fakeTemplate(), name: 'api', dir: join(parent, 'services', 'api') });
  assert.equal(tree(parent), ['services/api/.gitignore', 'services/api/fw.yml', 'services/api/src/handler.js']);
});

write('refuses a folder that has files in it, and changes nothing', () => {
  const dir = tempDir('taken');
  writeFileSync(join(dir, 'notes.txt'), 'mine');
  try {
    writeService({ template: fakeTemplate(), name: 'api', dir, shown: 'taken' });
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.instance(error, ConfigError);
    assert.is((error as Error).message, 'Cannot create the service: the folder "taken" already exists and is not empty');
  }
  assert.equal(tree(dir), ['notes.txt']);
});

write('refuses an invalid name before touching the disk', () => {
  const parent = tempDir('badname');
  assert.throws(
    () => writeService({ template: fakeTemplate(), name: 'my_api', dir: join(parent, 'x', 'my_api') }),
    (error: Error) => error instanceof ConfigError && error.message === 'Invalid service name: "my_api" may contain only letters, digits and dashes',
  );
  assert.equal(readdirSync(parent), []);
});

write('removes its staging folder when copying fails', () => {
  const parent = tempDir('failing');
  const broken: Template = { name: 'gone', description: '', dir: join(parent, 'no-such-template') };
  assert.throws(() => writeService({ template: broken, name: 'api', dir: join(parent, 'api') }), /ENOENT/);
  assert.equal(readdirSync(parent), []);
});

const target = suite('targetProblem');
target.after.each(removeTempDirs);

target('accepts a missing or empty folder and refuses a file or a full folder', () => {
  const dir = tempDir('target');
  writeFileSync(join(dir, 'file.txt'), '');
  mkdirSync(join(dir, 'empty'));
  assert.equal(
    [join(dir, 'missing'), join(dir, 'empty'), join(dir, 'file.txt'), dir].map((path) => targetProblem(path, 'x')),
    [undefined, undefined, '"x" exists and is not a folder', 'the folder "x" already exists and is not empty'],
  );
});

const render = suite('renderText');

render('replaces every placeholder, lower-casing where asked', () => {
  assert.is(renderText('__SERVICE_NAME__/__SERVICE_NAME_LOWER__/__SERVICE_NAME__', 'Shop'), 'Shop/shop/Shop');
});

const templates = suite('templates');

templates('lists the shipped templates by name, each with a one-line description', () => {
  const list = listTemplates();
  assert.equal(list.map((t) => t.name), ['node-http-api', 'node-rest-api', 'node-s3-upload', 'node-scheduled', 'node-typescript', 'python-http-api', 'queue-and-api-compose']);
  for (const t of list) assert.ok(/^[A-Z][^\n]{10,100}[^.]$/.test(t.description), `${t.name}: "${t.description}"`);
});

templates('refuses an unknown template and names the known ones', () => {
  assert.throws(
    () => findTemplate('go-http-api'),
    (error: Error) => error instanceof ConfigError
      && error.message === 'Unknown template "go-http-api": expected one of node-http-api, node-rest-api, node-s3-upload, node-scheduled, node-typescript, python-http-api, queue-and-api-compose',
  );
});

write.run();
target.run();
render.run();
templates.run();

const steps = suite('nextSteps');

steps('says where to go and how to deploy, with a reason for each command', () => {
  assert.equal(nextSteps('/home/ada/services/my api', '/home/ada'), [
    "cd 'services/my api'",
    'fw deploy --local  # deploy to the local cloud on this machine',
    'fw deploy          # deploy to AWS with your credentials',
  ]);
});

steps('leaves out the cd when the service is the current folder', () => {
  assert.equal(nextSteps('/home/ada', '/home/ada'), [
    'fw deploy --local  # deploy to the local cloud on this machine',
    'fw deploy          # deploy to AWS with your credentials',
  ]);
});

steps.run();

const root = suite('templatesRoot');

root('finds the templates of the package whether fw runs compiled or bundled', () => {
  assert.equal(
    [join(repoRoot, 'dist', 'src', 'create'), join(repoRoot, 'dist')].map((from) => templatesRoot(from)),
    [join(repoRoot, 'templates'), join(repoRoot, 'templates')],
  );
});

root.run();

const fwLink = suite('the fw a new TypeScript service depends on');
fwLink.after.each(removeTempDirs);

fwLink('is the fw that created it, linked by a relative file: path (fw-deploy is on no registry), wherever the service goes', () => {
  for (const where of [['shop'], ['deep', 'down', 'shop']]) {
    const dir = join(tempDir('fw-link'), ...where);
    writeService({ template: findTemplate('node-typescript')!, name: 'shop', dir });
    const dependency: string = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).devDependencies['fw-deploy'];
    assert.match(dependency, /^file:\.\.\/[^"]*$/);
    const linked = JSON.parse(readFileSync(join(dir, dependency.slice('file:'.length), 'package.json'), 'utf8'));
    assert.equal([linked.name, linked.version], ['fw-deploy', JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version]);
  }
});

fwLink.run();
