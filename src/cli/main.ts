import { Builtins, Cli } from 'clipanion';
import { FwCli } from './fw-cli';
import { PackageCommand } from './package';
import { DeployCommand, DeployFunctionCommand } from './deploy';
import { DevCommand } from './dev';
import { DiffCommand } from './diff';
import { RemoveCommand } from './remove';
import { InfoCommand } from './info';
import { InvokeCommand, InvokeLocalCommand } from './invoke';
import { LogsCommand } from './logs';
import { OutputsCommand, RefreshOutputsCommand } from './outputs';
import { LocalResetCommand, LocalStartCommand } from './local';
import { LocalTokenCommand } from './local-token';
import { CreateCommand, DefaultCommand, InstallCommand } from './create';
import { PrintCommand } from './print';
import { SchemaCommand } from './schema';
import { DeployListCommand, DeployListFunctionsCommand } from './deploy-list';
import { RollbackCommand, RollbackFunctionCommand } from './rollback';
import { MetricsCommand } from './metrics';
import { PluginInstallCommand, PluginListCommand, PluginSearchCommand, PluginUninstallCommand } from './plugin';
import { ConfigCommand, ConfigCredentialsCommand } from './config-credentials';
import { GenerateEventCommand } from './generate-event';
import { TestCommand } from './test-command';
import { DoctorCommand } from './doctor';
import { OutputGetCommand, OutputListCommand, ParamGetCommand, ParamListCommand } from './output-param';
import { DashboardOpenCommand, LoginCommand, LogoutCommand, SlstatsCommand } from './dashboard';
import { colorsEnabled } from '../terminal/output';
import { version } from '../version';
import { isUserFacing } from '../errors';
import { secretValues } from '../secrets';
import { servicePluginsMentioned } from '../plugins/discover';
import { shareFwModule } from '../fw-module';
import { stopOutputAtClosedPipe } from './closed-pipe';

const COMMANDS = [
  CreateCommand, PackageCommand, DeployCommand, DeployFunctionCommand, DevCommand, DiffCommand, RemoveCommand, InfoCommand,
  InvokeCommand, InvokeLocalCommand, LogsCommand, OutputsCommand, RefreshOutputsCommand, PrintCommand, LocalStartCommand, LocalResetCommand, LocalTokenCommand, SchemaCommand,
  DeployListCommand, DeployListFunctionsCommand, RollbackCommand, RollbackFunctionCommand, MetricsCommand,
  PluginInstallCommand, PluginUninstallCommand, PluginListCommand, PluginSearchCommand, ConfigCommand, ConfigCredentialsCommand, DoctorCommand,
  LoginCommand, LogoutCommand, DashboardOpenCommand, SlstatsCommand, OutputGetCommand, OutputListCommand, ParamGetCommand, ParamListCommand, InstallCommand,
  GenerateEventCommand, TestCommand,
];

/**
 * The CLI with the built-in commands. Given the arguments, only the commands that could match
 * them are registered: clipanion builds its parser for every registered command on each run,
 * and a run that names its command (`fw package`) needs no other. Anything else (help, a typo
 * it should suggest a fix for) gets them all.
 */
export function buildCli(argv?: string[]): FwCli {
  const cli = new FwCli({
    binaryLabel: 'fw',
    binaryName: 'fw',
    binaryVersion: version,
    enableColors: colorsEnabled(process.stdout),
  });
  // The bare `fw` comes first: registered after the help command, clipanion's help would show only `$ fw`.
  cli.register(DefaultCommand);
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  const named = argv?.[0];
  const matching = COMMANDS.filter(command => command.paths?.some(path => path[0] === named));
  const wantsHelp = argv === undefined || argv[0] === 'help' || argv.some(arg => arg === '--help' || arg === '-h');
  for (const command of matching.length > 0 && !wantsHelp ? matching : COMMANDS) cli.register(command);
  return cli;
}

/** Commands that never read the service file: they run even where its plugins cannot load. */
const WITHOUT_SERVICE = new Set(['create', 'local', 'schema', '--version', '-v', 'plugin', 'config', 'doctor', 'login', 'logout', 'dashboard', 'slstats', 'generate-event']);

/**
 * The CLI for a run in `cwd`: the built-in commands, plus the commands of the service's plugins
 * (issue 9). A service file that does not mention `plugins` costs one file read, no module load.
 */
export async function buildCliFor(argv: string[], cwd: string): Promise<{ cli: FwCli; argv: string[]; error?: Error }> {
  const cli = buildCli(argv);
  if (WITHOUT_SERVICE.has(argv[0] ?? '') || !servicePluginsMentioned(argv, cwd)) return { cli, argv };
  const { registerPluginCommands } = require('./plugin-commands') as typeof import('./plugin-commands');
  try {
    return { cli, argv: await registerPluginCommands(cli, argv, cwd) };
  } catch (error) {
    // A built-in command reports it itself when it loads the service; another one is a plugin's command.
    return { cli, argv, error: error as Error };
  }
}

export async function main(argv: string[]): Promise<void> {
  // fw pins its SDK version; the SDK's notice about its own future Node.js support is noise here.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // `require('fw-deploy')` (or `'fw'`) in a service file or plugin gets this running fw (issue 9).
  shareFwModule(() => require('../index'));
  // Whatever prints a value read from ssm:/s3:/cf: (a plugin's log, a CloudFormation reason), it is masked.
  secretValues.guard(process.stdout);
  secretValues.guard(process.stderr);
  stopOutputAtClosedPipe(process.stdout);
  stopOutputAtClosedPipe(process.stderr);
  // `fw api:deploy` (Serverless Compose's form) in a compose folder is `fw deploy --service api`.
  if (argv[0]?.includes(':')) argv = (require('./compose') as typeof import('./compose')).expandServiceCommand(argv, process.cwd());
  const { cli, argv: args, error } = await buildCliFor(argv, process.cwd());
  if (error && !BUILT_IN.has(argv[0] ?? '') && !HELP.has(argv[0] ?? '')) {
    process.stderr.write(`${isUserFacing(error) ? `Error: ${error.message}` : `Internal error (a bug in fw, please report it):\n${(error as Error).stack}`}\n`);
    process.exitCode = 1;
    return;
  }
  process.exitCode = await cli.run(args, Cli.defaultContext);
  // The command is done: a timer or socket a service file or plugin left open must not keep fw running.
  setTimeout(() => process.exit(), 200).unref();
}

const BUILT_IN = new Set(['package', 'deploy', 'remove', 'info', 'invoke', 'logs', 'print', 'rollback', 'metrics', 'test']);
const HELP = new Set(['help', '--help', '-h']);
