import { Builtins, Cli } from 'clipanion';
import { PackageCommand } from './package';
import { colorsEnabled } from './output';
import { version } from '../version';

export function buildCli(): Cli {
  const cli = new Cli({
    binaryLabel: 'fw',
    binaryName: 'fw',
    binaryVersion: version,
    enableColors: colorsEnabled(process.stdout),
  });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  cli.register(PackageCommand);
  return cli;
}

export async function main(argv: string[]): Promise<void> {
  const cli = buildCli();
  process.exitCode = await cli.run(argv, Cli.defaultContext);
}
