import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { childEnv, fwBin, removeTempDirs, runCreateCli, tempDir, tree } from './helpers';

const create = suite('CreateCommand');
create.after.each(removeTempDirs);

create('lists the templates with their descriptions', async () => {
  const { code, stdout } = await runCreateCli(['create', '--list'], tempDir('list'));
  assert.is(code, 0);
  assert.equal(stdout.trimEnd().split('\n').map((line) => line.split(/\s{2,}/)[0]), [
    'node-http-api', 'node-rest-api', 'node-s3-upload', 'node-scheduled', 'node-typescript', 'python-http-api', 'queue-and-api-compose',
  ]);
  assert.ok(stdout.includes('node-scheduled         A JavaScript function run on a schedule'));
});

create('writes the service into ./<name> and says what to run next', async () => {
  const cwd = tempDir('create');
  const { code, stdout, stderr } = await runCreateCli(['create', '--template', 'node-http-api', '--name', 'shop'], cwd);
  assert.is(stderr, '');
  assert.is(code, 0);
  assert.is(stdout, 'Created shop from node-http-api in shop (6 files)\n\nNext:\n  cd shop\n  fw deploy --local  # deploy to the local cloud on this machine\n  fw deploy          # deploy to AWS with your credentials\n');
  assert.equal(tree(join(cwd, 'shop')), ['.gitignore', 'README.md', 'fw.yml', 'handler.js', 'package.json', 'test/handler.test.js']);
  assert.ok(readFileSync(join(cwd, 'shop', 'fw.yml'), 'utf8').startsWith('service: shop\n'));
});

create('writes into --path, with the short flags', async () => {
  const cwd = tempDir('path');
  const { code, stdout } = await runCreateCli(['create', '-t', 'python-http-api', '-n', 'Orders', '-p', 'services/orders'], cwd);
  assert.is(code, 0);
  assert.ok(stdout.includes('  cd services/orders\n'));
  assert.ok(readFileSync(join(cwd, 'services', 'orders', 'fw.yml'), 'utf8').startsWith('service: Orders\n'));
});

create('fills the current folder when --path is "." and it is empty', async () => {
  const cwd = tempDir('dot');
  const { code, stdout } = await runCreateCli(['create', '-t', 'node-scheduled', '-n', 'cron', '-p', '.'], cwd);
  assert.is(code, 0);
  assert.is(stdout, 'Created cron from node-scheduled in . (6 files)\n\nNext:\n  fw deploy --local  # deploy to the local cloud on this machine\n  fw deploy          # deploy to AWS with your credentials\n');
  assert.ok(readdirSync(cwd).includes('fw.yml'));
});

const refusals: Array<[string, string[], string]> = [
  ['an unknown template', ['-t', 'go-http-api', '-n', 'shop'], 'Error: Unknown template "go-http-api": expected one of node-http-api, node-rest-api, node-s3-upload, node-scheduled, node-typescript, python-http-api, queue-and-api-compose\n'],
  ['a name that does not start with a letter', ['-t', 'node-http-api', '-n', '9lives'], 'Error: Invalid service name: "9lives" must start with a letter\n'],
  ['a name with other characters', ['-t', 'node-http-api', '-n', 'my_shop'], 'Error: Invalid service name: "my_shop" may contain only letters, digits and dashes\n'],
  ['a folder that is not empty', ['-t', 'node-http-api', '-n', 'shop', '-p', 'taken'], 'Error: Cannot create the service: the folder "taken" already exists and is not empty\n'],
  ['a missing --template', ['-n', 'shop'], 'Error: Missing --template NAME (run "fw create --list" to see them)\n'],
  ['a missing --name', ['-t', 'node-http-api'], 'Error: Missing --name NAME: the service name\n'],
];

for (const [what, args, message] of refusals) {
  create(`refuses ${what} in one line, exits 1 and writes nothing`, async () => {
    const cwd = tempDir('refuse');
    mkdirSync(join(cwd, 'taken'));
    writeFileSync(join(cwd, 'taken', 'keep.txt'), 'mine');
    const { code, stdout, stderr } = await runCreateCli(['create', ...args], cwd);
    assert.equal({ code, stdout, stderr }, { code: 1, stdout: '', stderr: message });
    assert.equal(tree(cwd), ['taken/keep.txt']);
  });
}

const defaultCommand = suite('DefaultCommand');
defaultCommand.after.each(removeTempDirs);

defaultCommand('answers a mistyped command in one line', async () => {
  const { code, stdout, stderr } = await runCreateCli(['craete', 'x'], tempDir('typo'));
  assert.equal({ code, stdout, stderr }, { code: 1, stdout: '', stderr: 'Error: Unknown command "craete x". Did you mean "fw create"? Run "fw --help" to see the commands.\n' });
});

defaultCommand('leaves the real commands and --help alone', async () => {
  const cwd = tempDir('help');
  assert.is((await runCreateCli(['create', '--list'], cwd)).code, 0);
  const help = await runCreateCli(['--help'], cwd);
  assert.is(help.code, 0);
  assert.ok(help.stdout.includes('\n  create                  Create a new service from a template\n'), help.stdout);
});

defaultCommand('prints the help instead of prompting when not in a terminal', async () => {
  const cwd = tempDir('notty');
  const { code, stdout } = await runCreateCli([], cwd);
  assert.is(code, 0);
  assert.ok(stdout.includes('\nCreate a service\n  create                  Create a new service from a template\n'), stdout);
  assert.equal(readdirSync(cwd), []);
});

// The installed entry point, as a user runs it: the lead registers the commands in src/cli/main.ts.
const binary = suite('fw (bin/fw.js)');
binary.after.each(removeTempDirs);

binary('creates a service with "fw create" and exits 0', () => {
  const cwd = tempDir('bin');
  const run = spawnSync(process.execPath, [fwBin, 'create', '-t', 'node-rest-api', '-n', 'notes'], { cwd, encoding: 'utf8', env: childEnv() });
  assert.is(run.stderr, '');
  assert.is(run.status, 0);
  assert.ok(readdirSync(join(cwd, 'notes')).includes('fw.yml'));
});

binary('refuses an unknown template with one line on stderr and exit code 1', () => {
  const cwd = tempDir('bin');
  const run = spawnSync(process.execPath, [fwBin, 'create', '-t', 'nope', '-n', 'notes'], { cwd, encoding: 'utf8', env: childEnv() });
  assert.equal({ status: run.status, lines: run.stderr.trimEnd().split('\n').length, files: readdirSync(cwd) }, { status: 1, lines: 1, files: [] });
});

binary('prints the help, without waiting, when fw runs with no command outside a terminal', () => {
  const cwd = tempDir('bin');
  const run = spawnSync(process.execPath, [fwBin], { cwd, encoding: 'utf8', input: '', timeout: 10_000, env: childEnv() });
  assert.is(run.status, 0);
  assert.ok(run.stdout.includes('\n  create                  Create a new service from a template\n'), run.stdout);
  assert.equal(readdirSync(cwd), []);
});

create.run();
defaultCommand.run();
binary.run();
