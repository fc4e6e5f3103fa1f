import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { childEnv } from '../helpers/env';
import { namePlaceholders } from '../../src/cli/fw-cli';
import { HELP_GROUPS, HELP_WIDTH, summary } from '../../src/cli/help';
import { buildCli } from '../../src/cli/main';

const FW = join(__dirname, '..', '..', '..', 'bin', 'fw.js');
const env = childEnv();

function fw(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-help-'));
  try {
    const run = spawnSync(process.execPath, [FW, ...args], { cwd, encoding: 'utf8', env });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

const help = suite('fw help and command-line errors');

help('option values are shown by name, not by index', () => {
  assert.is(namePlaceholders('fw logs [--stage,-s #0] [--startTime #0] <--function,-f #0> [--tail,-t]'), 'fw logs [--stage,-s <stage>] [--startTime <startTime>] <--function,-f <function>> [--tail,-t]');
  const { code, stdout } = fw(['local', 'start', '--help']);
  assert.is(code, 0);
  assert.ok(stdout.includes('\n  --port,-p <port>  '), stdout);
  assert.not.match(stdout, /#\d/);
});

/** The overview's groups: title → the command paths listed under it, in order. */
function groupsOf(overview: string): Array<[string, string[]]> {
  const blocks = overview.split('\n\n').slice(2);
  return blocks.map(block => {
    const [title, ...lines] = block.trimEnd().split('\n');
    return [title, lines.map(line => line.slice(2).split(/\s{2,}/)[0])];
  });
}

help('fw --help fits a screen: at most 70 lines of at most 100 columns', () => {
  const { code, stdout, stderr } = fw(['--help']);
  assert.equal({ code, stderr }, { code: 0, stderr: '' });
  const lines = stdout.trimEnd().split('\n');
  assert.ok(lines.length <= 70, `${lines.length} lines`);
  assert.equal(lines.filter(line => [...line].length > HELP_WIDTH), []);
  assert.is(lines[0], 'fw 0.1.0: deploy functions and their infrastructure as one CloudFormation stack'.replace('0.1.0', require('../../../package.json').version));
});

help('fw --help lists every registered command once, a line each, in its group', () => {
  const { stdout } = fw(['--help']);
  const registered = buildCli().definitions().map(definition => definition.path.replace(/^fw ?/, '')).filter(Boolean);
  const groups = groupsOf(stdout);
  const commandGroups = groups.slice(0, -1);
  assert.equal(commandGroups, HELP_GROUPS.map(group => [group.title, [...group.commands]]));
  assert.equal(commandGroups.flatMap(([, commands]) => commands).sort(), [...registered].sort());
  assert.equal(groups.map(([title]) => title), [
    'Create a service', 'Package and deploy', 'Inspect and run', 'Local cloud', 'Plugins', 'Compose (a folder with fw-compose.yml)', 'Other',
    'Common options (fw <command> --help lists what each command takes)',
  ]);
  assert.ok(stdout.includes('\n  local start             Run the local cloud until interrupted\n'), stdout);
});

help('fw --help lists the common options once', () => {
  const { stdout } = fw(['--help']);
  const options = groupsOf(stdout).at(-1)![1];
  assert.equal(options, ['--stage, -s <stage>', '--region, -r <region>', '--config, -c <file>', '--param <key=value>', '--local', '--endpoint-url <url>', '--verbose, --debug', '--help, -h / --version']);
  assert.is(stdout.split('--stage').length, 2);
});

help("the Dashboard no-op commands each say what they are", () => {
  const { stdout } = fw(['--help']);
  const lines = ['login', 'logout', 'dashboard', 'slstats'].map(name => stdout.split('\n').find(line => line.startsWith(`  ${name} `))!.slice(26));
  assert.equal(lines, [
    "Serverless v3's Dashboard login: accepted, fw has no account",
    "Serverless v3's Dashboard logout: accepted, fw has no account",
    "Serverless v3's Dashboard: accepted, fw has no dashboard",
    "Serverless v3's usage statistics switch: accepted, fw sends none",
  ]);
});

help('fw with no arguments outside a terminal prints the same short help', () => {
  const bare = fw([]);
  assert.equal({ code: bare.code, stderr: bare.stderr }, { code: 0, stderr: '' });
  assert.is(bare.stdout, fw(['--help']).stdout);
});

help('a long description is cut at its parentheses, then a colon or comma, else a word', () => {
  assert.is(summary('Short enough (kept whole)', 40), 'Short enough (kept whole)');
  assert.is(summary('Run the local cloud (CloudFormation, S3, Lambda, … on localhost) until interrupted', 40), 'Run the local cloud until interrupted');
  assert.is(summary('Check the setup: Node.js version, AWS credentials, the service file here, the local cloud', 40), 'Check the setup');
  assert.is(summary('Alpha beta gamma delta, epsilon zeta eta theta iota', 30), 'Alpha beta gamma delta');
  assert.is(summary('Show the deployed service as the stack holds it: status, region', 50), 'Show the deployed service as the stack holds it');
  assert.is(summary('one two three four five six seven eight nine ten eleven', 30), 'one two three four five six …');
});

help("a command's --help lists its options with their value names", () => {
  const { code, stdout } = fw(['deploy', 'function', '--help']);
  assert.is(code, 0);
  assert.match(stdout, /\n  --function,-f <function> +The function key under functions:/);
  assert.not.match(stdout, /#\d/);
});

help('fw local --help lists the commands of the group, exit 0', () => {
  const { code, stdout, stderr } = fw(['local', '--help']);
  assert.equal({ code, stderr }, { code: 0, stderr: '' });
  assert.is(
    stdout,
    'Commands of fw local:\n\n' +
      '  fw local start [--port,-p <port>] [--host <host>] [--data <data>] [--allow-origin <allow-origin>] [--provisioning-delay <provisioning-delay>] [--concurrency-limit <concurrency-limit>] [--function-idle-timeout <function-idle-timeout>] [--require-credentials <require-credentials>]\n    Run the local cloud (CloudFormation, S3, Lambda, API Gateway, … on localhost) until interrupted\n\n' +
      '  fw local reset [--data <data>]\n    Delete everything the local cloud stored (stacks, buckets, objects, functions, logs)\n\n' +
      "  fw local token [--issuer <issuer>] [--audience <audience>] [--claims <claims>] [--scope <scope>] [--expires-in <expires-in>] [--port,-p <port>] [--url <url>] [--data <data>]\n    Mint a JWT signed by the local cloud's issuer, for routes behind a JWT authorizer\n\n" +
      'Run "fw local <command> --help" for a command\'s options.\n',
  );
});

help('fw local alone says it needs one of its commands, exit 1', () => {
  const { code, stdout, stderr } = fw(['local']);
  assert.equal({ code, stdout }, { code: 1, stdout: '' });
  assert.match(stderr, /^Error: "fw local" needs one of its commands:\n\n  fw local start /);
});

help('fw help COMMAND is the command\'s --help; fw help is fw --help', () => {
  assert.is(fw(['help', 'deploy']).stdout, fw(['deploy', '--help']).stdout);
  assert.is(fw(['help']).stdout, fw(['--help']).stdout);
  assert.match(fw(['help', 'deploy']).stdout, /^Package the service and deploy it/);
});

const mistakes: Array<[string, string[], string]> = [
  ['a mistyped command', ['deplyo', '--local'], 'Error: Unknown command "deplyo". Did you mean "fw deploy"? Run "fw --help" to see the commands.\n'],
  ['a mistyped command without options', ['pakage'], 'Error: Unknown command "pakage". Did you mean "fw package"? Run "fw --help" to see the commands.\n'],
  ['a word that is no command', ['xyzzy'], 'Error: Unknown command "xyzzy". Run "fw --help" to see the commands.\n'],
  ['a mistyped option', ['deploy', '--stag', 'prod'], 'Error: Unknown option "--stag" for "fw deploy". Did you mean "--stage"? Run "fw deploy --help" for its options.\n'],
  ['an option of another command', ['package', '--local'], 'Error: Unknown option "--local" for "fw package". Run "fw package --help" for its options.\n'],
  ['a missing required option', ['deploy', 'function'], 'Error: "fw deploy function" needs --function <function>. Run "fw deploy function --help" for its options.\n'],
  ['an option without its value', ['invoke', '--function'], 'Error: Option "--function" of "fw invoke" needs a value. Run "fw invoke --help" for its options.\n'],
  ['an extra argument', ['package', 'extra'], 'Error: Unexpected argument "extra" for "fw package". Run "fw package --help" for its options.\n'],
  ['an unknown global option', ['--verison'], 'Error: Unknown option "--verison". Did you mean "--version"? Run "fw --help" to see the commands.\n'],
];

for (const [what, args, message] of mistakes) {
  help(`${what} is one line on stderr, exit 1`, () => {
    assert.equal(fw(args), { code: 1, stdout: '', stderr: message });
  });
}

help.run();
