import { Command, Option } from 'clipanion';
import { isUserFacing } from '../errors';
import { colorsEnabled, style, type Style } from './output';

/**
 * Options every service command shares, and the one place errors are printed:
 * a user-facing error is its message on one line; anything else is a bug in fw
 * and keeps its stack so it can be reported.
 */
export abstract class ServiceCommand extends Command {
  stage = Option.String('--stage,-s', { description: 'Stage of the service (default: provider.stage or "dev")' });
  region = Option.String('--region,-r', { description: 'Region (default: provider.region or "us-east-1")' });
  config = Option.String('--config,-c', { description: 'Path to the service file (default: fw.yml, fw.yaml, fw.json, then serverless.*)' });
  params = Option.Array('--param', { description: 'A parameter for ${param:…}, as "key=value"; repeatable' });

  abstract run(): Promise<number | void>;

  protected get out(): Style {
    return style(colorsEnabled(this.context.stdout));
  }

  /** The CLI options as `${opt:…}` sees them. */
  protected cliOptions(): Record<string, unknown> {
    const options: Record<string, unknown> = {};
    if (this.stage !== undefined) options.stage = this.stage;
    if (this.region !== undefined) options.region = this.region;
    if (this.config !== undefined) options.config = this.config;
    if (this.params !== undefined) options.param = this.params;
    return options;
  }

  async execute(): Promise<number> {
    try {
      const code = await this.run();
      return typeof code === 'number' ? code : 0;
    } catch (error) {
      this.report(error);
      return 1;
    }
  }

  protected report(error: unknown): void {
    const err = style(colorsEnabled(this.context.stderr));
    if (isUserFacing(error)) {
      this.context.stderr.write(`${err.red('Error:')} ${error.message}\n`);
    } else {
      const detail = error instanceof Error ? error.stack ?? error.message : String(error);
      this.context.stderr.write(`${err.red('Internal error (a bug in fw, please report it):')}\n${detail}\n`);
    }
  }
}

