import { Builtins, Cli } from 'clipanion';
import { PackageCommand } from './package';
import { DeployCommand } from './deploy';
import { RemoveCommand } from './remove';
import { InfoCommand } from './info';
import { InvokeCommand, InvokeLocalCommand } from './invoke';
import { LogsCommand } from './logs';
import { LocalResetCommand, LocalStartCommand } from './local';
import { CreateCommand, DefaultCommand } from './create';
import { colorsEnabled } from './output';
import { version } from '../version';

export function buildCli(): Cli {
  const cli = new Cli({
    binaryLabel: 'fw',
    binaryName: 'fw',
    binaryVersion: version,
    enableColors: colorsEnabled(process.stdout),
  });
  // The bare `fw` comes first: registered after the help command, clipanion's help would show only `$ fw`.
  cli.register(DefaultCommand);
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  for (const command of [CreateCommand, PackageCommand, DeployCommand, RemoveCommand, InfoCommand, InvokeCommand, InvokeLocalCommand, LogsCommand, LocalStartCommand, LocalResetCommand]) {
    cli.register(command);
  }
  return cli;
}

export async function main(argv: string[]): Promise<void> {
  // fw pins its SDK version; the SDK's notice about its own future Node.js support is noise here.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const cli = buildCli();
  process.exitCode = await cli.run(argv, Cli.defaultContext);
}
