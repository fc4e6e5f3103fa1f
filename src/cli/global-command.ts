import { Option } from 'clipanion';
import { FwCommand } from './base';
import { acceptV3Globals } from './v3-globals';

/** A command that reads no service file, with v3's global options (`--debug`, `--verbose`, `--version`). */
export abstract class GlobalCommand extends FwCommand {
  verbose = Option.Boolean('--verbose', false, { description: 'Show more detail' });
  debug = Option.String('--debug', { tolerateBoolean: true, description: 'Debug output (as --verbose)' });
  showVersion = Option.Boolean('--version', false, { description: "Print fw's version and exit" });

  override async execute(): Promise<number> {
    const restore = acceptV3Globals(this, this.context.stderr, this.context.stdout);
    if (!restore) return 0;
    try {
      return await super.execute();
    } finally {
      restore();
    }
  }
}
