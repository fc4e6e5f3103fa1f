import { Command, Option } from 'clipanion';
import { ConfigError, isUserFacing } from '../errors';
import { secretValues } from '../secrets';
import type { Writable } from 'node:stream';
import { colorsEnabled, style, type Style } from '../terminal/output';
import { acceptV3Globals } from './v3-globals';

/**
 * How every command prints a failure: a user-facing error is its message on one line;
 * anything else is a bug in fw and keeps its stack so it can be reported.
 */
export function reportError(stderr: Writable, error: unknown, env: NodeJS.ProcessEnv = process.env): void {
  const err = style(colorsEnabled(stderr, env));
  if (isUserFacing(error)) {
    stderr.write(`${err.red('Error:')} ${secretValues.mask(error.message)}\n`);
  } else {
    const detail = error instanceof Error ? error.stack ?? error.message : String(error);
    stderr.write(`${err.red('Internal error (a bug in fw, please report it):')}\n${secretValues.mask(detail)}\n`);
  }
}

/** A command whose failures are printed by `reportError` (clipanion would add its usage text). */
export abstract class FwCommand extends Command {
  abstract run(): Promise<number | void>;

  async execute(): Promise<number> {
    try {
      const code = await this.run();
      return typeof code === 'number' ? code : 0;
    } catch (error) {
      reportError(this.context.stderr, error);
      return 1;
    }
  }
}

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
  composeService = Option.String('--service', { description: 'With a compose file (fw-compose.yml, serverless-compose.yml): only this service' });
  maxConcurrency = Option.String('--max-concurrency', { description: 'With a compose file: how many services run at once (default 4)' });
  // Serverless v3's global options (test/fixtures/v3-cli/commands.json): accepted by every service command.
  verbose = Option.Boolean('--verbose', false, { description: 'Show more detail' });
  debug = Option.String('--debug', { tolerateBoolean: true, description: 'Debug output (as --verbose, and plugins\' debug logs)' });
  awsProfile = Option.String('--aws-profile', { description: 'AWS profile from ~/.aws/credentials or ~/.aws/config (before AWS_<STAGE>_PROFILE, AWS_PROFILE, the environment keys and provider.profile)' });
  app = Option.String('--app', { description: 'Serverless Dashboard app: accepted, fw has no dashboard' });
  org = Option.String('--org', { description: 'Serverless Dashboard org: accepted, fw has no dashboard' });
  useLocalCredentials = Option.Boolean('--use-local-credentials', false, { description: 'Serverless Dashboard credentials: accepted, fw always uses local credentials' });
  showVersion = Option.Boolean('--version', false, { description: "Print fw's version and exit" });

  /** Set when one service of a compose file runs this command (`fw logs --service api`): its folder, file and params. */
  composeTarget?: import('../compose/runner').ServiceTarget;

  abstract run(): Promise<number | void>;

  /** The service folder the command runs in. */
  protected get serviceDir(): string {
    return this.composeTarget?.cwd ?? process.cwd();
  }

  /** The options as a request to the library API; commands that reach a cloud add where. */
  protected applicationRequest(): import('../api/request').CloudRequest {
    return { cwd: this.serviceDir, options: this.cliOptions() };
  }

  protected get out(): Style {
    return style(colorsEnabled(this.context.stdout));
  }

  /** The CLI options as `${opt:…}` sees them. */
  protected cliOptions(): Record<string, unknown> {
    const options: Record<string, unknown> = {};
    if (this.stage !== undefined) options.stage = this.stage;
    if (this.region !== undefined) options.region = this.region;
    const config = this.composeTarget ? this.composeTarget.config : this.config;
    const params = this.composeTarget ? [...this.composeTarget.params, ...(this.params ?? [])] : this.params;
    if (config !== undefined) options.config = config;
    if (params !== undefined) options.param = params;
    return options;
  }

  async execute(): Promise<number> {
    let restored = () => {};
    try {
      const restore = acceptV3Globals(this, this.context.stderr, this.context.stdout);
      if (!restore) return 0;
      restored = restore;
      // A folder with a compose file and no service file: the command runs for each of its services.
      const { findComposeFile } = require('../compose/compose-file') as typeof import('../compose/compose-file');
      const composeFile = findComposeFile(process.cwd(), this.config);
      if (!composeFile && (this.composeService !== undefined || this.maxConcurrency !== undefined)) {
        const flag = this.composeService !== undefined ? `--service ${this.composeService}` : `--max-concurrency ${this.maxConcurrency}`;
        throw new ConfigError(`${flag} needs a compose file (fw-compose.yml or serverless-compose.yml), and ${process.cwd()} runs one service`);
      }
      const code = composeFile
        ? await (require('./compose') as typeof import('./compose')).runComposeCommand(this, composeFile, this.applicationRequest(), { service: this.composeService, maxConcurrency: this.maxConcurrency })
        : await this.run();
      return typeof code === 'number' ? code : 0;
    } catch (error) {
      this.report(error);
      return 1;
    } finally {
      restored();
    }
  }

  protected report(error: unknown): void {
    reportError(this.context.stderr, error);
  }

}

