import type { Style } from '../terminal/output';

/**
 * `fw --help` (and `fw` outside a terminal): a screen like Serverless v3's, one line per command in
 * groups, the options every command shares listed once. A command's own `--help` has the rest.
 */

/** The groups of `fw --help`, in order; each built-in command is in exactly one (test/cli/help.test.ts). */
export const HELP_GROUPS: ReadonlyArray<{ title: string; commands: readonly string[] }> = [
  { title: 'Create a service', commands: ['create', 'install'] },
  {
    title: 'Package and deploy',
    commands: ['package', 'deploy', 'deploy function', 'dev', 'diff', 'deploy list', 'deploy list functions', 'rollback', 'rollback function', 'remove'],
  },
  {
    title: 'Inspect and run',
    commands: ['info', 'invoke', 'invoke local', 'logs', 'metrics', 'test', 'generate-event', 'output get', 'output list', 'param get', 'param list', 'print'],
  },
  { title: 'Local cloud', commands: ['local start', 'local reset', 'local token'] },
  { title: 'Plugins', commands: ['plugin install', 'plugin uninstall', 'plugin list', 'plugin search'] },
  { title: 'Compose (a folder with fw-compose.yml)', commands: ['outputs', 'refresh-outputs'] },
  { title: 'Other', commands: ['schema', 'doctor', 'config', 'config credentials', 'login', 'logout', 'dashboard', 'slstats'] },
];

/** The options most commands take, listed once; `fw <command> --help` says which a command takes, and its others. */
const GLOBAL_OPTIONS: ReadonlyArray<[string, string]> = [
  ['--stage, -s <stage>', 'the stage (default: provider.stage, else dev)'],
  ['--region, -r <region>', 'the region (default: provider.region, else us-east-1)'],
  ['--config, -c <file>', 'the service file (default: fw.yml, fw.yaml, fw.json, …, serverless.yml)'],
  ['--param <key=value>', 'a value for ${param:key}; repeatable'],
  ['--local', 'use the local cloud (started for the command when none runs)'],
  ['--endpoint-url <url>', 'use another AWS-compatible endpoint; --aws-profile <name>: an AWS profile'],
  ['--verbose, --debug', 'show more detail'],
  ['--help, -h / --version', "a command's options and examples / fw's version"],
];

export const HELP_WIDTH = 100;
const NAME_COLUMN = 26;

export interface HelpCommand {
  /** The words after `fw`: `deploy function`. */
  path: string;
  description: string;
}

/**
 * A command's description made to fit one line of the overview: without its parentheses, then cut
 * at the last `:` or `;` that leaves it short enough, else at the last comma, else at a word. The whole text stays in its --help.
 */
export function summary(description: string, room: number): string {
  let text = description.split('\n')[0].trim();
  if (text.length <= room) return text;
  text = text.replace(/ \([^()]*\)/g, '');
  if (text.length <= room) return text;
  for (const separators of [[': ', '; '], [', ']]) {
    const cut = Math.max(...separators.map(separator => text.lastIndexOf(separator, room)));
    if (cut > room / 3) return text.slice(0, cut);
  }
  return `${text.slice(0, text.lastIndexOf(' ', room - 2))} …`;
}

/** The overview `fw --help` prints: usage, the commands by group, then the shared options. */
export function overview(version: string, commands: readonly HelpCommand[], format: Style): string {
  const byPath = new Map(commands.map(command => [command.path, command]));
  const grouped = new Set(HELP_GROUPS.flatMap(group => group.commands));
  const others = commands.filter(command => command.path !== '' && !grouped.has(command.path));
  const groups = [
    ...HELP_GROUPS.map(group => ({ title: group.title, commands: group.commands.flatMap(path => byPath.get(path) ?? []) })),
    // Commands the service's plugins add, or a built-in the table does not name yet: listed, never lost.
    { title: 'Commands of plugins', commands: others },
  ].filter(group => group.commands.length > 0);
  const line = (name: string, text: string) => `  ${name.padEnd(NAME_COLUMN - 2)}${summary(text, HELP_WIDTH - NAME_COLUMN)}`;
  const out = [
    `${format.bold(`fw ${version}`)}: deploy functions and their infrastructure as one CloudFormation stack`,
    '',
    `${format.bold('Usage:')} fw <command> [options]    fw help <command>: its options and examples`,
    '       fw                           in a terminal: create a service, guided',
  ];
  for (const group of groups) {
    out.push('', format.bold(group.title));
    for (const command of group.commands) out.push(line(command.path, command.description));
  }
  out.push('', format.bold('Common options (fw <command> --help lists what each command takes)'));
  for (const [name, text] of GLOBAL_OPTIONS) out.push(line(name, text));
  return `${out.join('\n')}\n`;
}
