import { basename, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { Command, Option, type BaseContext } from 'clipanion';
import { ConfigError } from '../errors';
import { guidedCreate, type GuidedContext } from '../create/guided';
import { nextSteps } from '../create/next-steps';
import { findTemplate, listTemplates } from '../create/templates';
import { writeService } from '../create/write';
import { reportError } from './base';
import { GlobalCommand } from './global-command';
import { colorsEnabled, style } from '../terminal/output';

export { guidedCreate, type GuidedContext };
/** The name the CLI entry uses for the guided creation. */
export const runGuidedCreate = guidedCreate;

/** Tests run commands in another folder by passing `cwd` in the context. */
export type CreateContext = BaseContext & { cwd?: string };

/** `fw create`: the guided creation without prompts, for scripts and CI. */
export class CreateCommand extends Command<CreateContext> {
  static override paths = [['create']];
  static override usage = Command.Usage({
    description: 'Create a new service from a template',
    details: `
      Writes a complete service (service file, handlers, a test, a README) into a new folder.
      The folder must not exist or must be empty. Run \`fw\` alone in a terminal to be asked
      for the same answers interactively.
    `,
    examples: [
      ['List the templates', '$0 create --list'],
      ['Create an HTTP API in ./my-api', '$0 create --template node-http-api --name my-api'],
      ['Create it in another folder', '$0 create -t python-http-api -n orders -p services/orders'],
    ],
  });

  template = Option.String('--template,-t', { description: 'Template to start from (see --list)' });
  name = Option.String('--name,-n', { description: 'Service name: letters, digits and dashes, starting with a letter' });
  folder = Option.String('--path,-p', { description: 'Folder to create (default: ./<name>); must not exist or be empty' });
  list = Option.Boolean('--list', false, { description: 'List the templates and exit' });
  templatePath = Option.String('--template-path', { description: 'A local template folder to copy (the service is renamed to --name)' });
  templateUrl = Option.String('--template-url,-u', { description: 'A template folder as a local path or file: URL (remote URLs need the network: clone them and use --template-path)' });
  // Serverless v3's global options.
  verbose = Option.Boolean('--verbose', false, { description: 'Show more detail' });
  debug = Option.String('--debug', { tolerateBoolean: true, description: 'Debug output (as --verbose)' });
  showVersion = Option.Boolean('--version', false, { description: "Print fw's version and exit" });

  async execute(): Promise<number> {
    const { acceptV3Globals } = require('./v3-globals') as typeof import('./v3-globals');
    const restore = acceptV3Globals(this, this.context.stderr, this.context.stdout);
    if (!restore) return 0;
    try {
      return this.run();
    } catch (error) {
      reportError(this.context.stderr, error, this.context.env);
      return 1;
    } finally {
      restore();
    }
  }

  private run(): number {
    const out = style(colorsEnabled(this.context.stdout, this.context.env));
    if (this.list) {
      const templates = listTemplates();
      const width = Math.max(...templates.map((t) => t.name.length));
      for (const t of templates) this.context.stdout.write(`${out.bold(t.name.padEnd(width))}  ${t.description}\n`);
      return 0;
    }
    const cwd = this.context.cwd ?? process.cwd();
    if (this.templatePath !== undefined || this.templateUrl !== undefined) return this.fromFolder(cwd);
    if (this.template === undefined) throw new ConfigError('Missing --template NAME (run "fw create --list" to see them)');
    if (this.name === undefined) throw new ConfigError('Missing --name NAME: the service name');
    const template = findTemplate(this.template);
    const shown = this.folder ?? this.name;
    const dir = resolve(cwd, shown);
    const files = writeService({ template, name: this.name, dir, shown });
    this.context.stdout.write(`Created ${this.name} from ${template.name} in ${shown} (${files.length} files)\n`);
    this.context.stdout.write(`\nNext:\n${nextSteps(dir, cwd).map((step) => `  ${step}`).join('\n')}\n`);
    return 0;
  }

  /** `--template-path DIR` or `--template-url` (a local path or file: URL): the folder copied, the service renamed to --name. */
  private fromFolder(cwd: string): number {
    const { copyTemplateFolder, templateSource } = require('../create/template-folder') as typeof import('../create/template-folder');
    const given = [this.template !== undefined && '--template', this.templatePath !== undefined && '--template-path', this.templateUrl !== undefined && '--template-url'].filter(Boolean);
    if (given.length > 1) throw new ConfigError(`${given.join(' and ')} name two templates: give one`);
    const option = this.templatePath !== undefined ? '--template-path' : '--template-url';
    const source = this.templatePath !== undefined ? resolve(cwd, this.templatePath) : templateSource(this.templateUrl!, cwd, option);
    const shown = this.folder ?? this.name ?? basename(source);
    const files = copyTemplateFolder({ source, dir: resolve(cwd, shown), name: this.name, option, shown });
    this.context.stdout.write(`Created ${this.name ?? basename(source)} from ${this.templatePath ?? this.templateUrl} in ${shown} (${files.length} files)\n`);
    return 0;
  }
}

/** Serverless v3's `install --url`: a service copied from a folder (a local path or file: URL), renamed with --name. */
export class InstallCommand extends GlobalCommand {
  static override paths = [['install']];
  static override usage = Command.Usage({
    description: 'Install a service from a folder (a local path or file: URL) into a new folder',
    details: `
      Copies the service into ./<name> (default: the folder's own name), without node_modules,
      .git and .serverless, and renames the service to --name in the service file and package.json.
      A remote URL (GitHub, GitLab, git) needs the network, which fw does not use for this: clone it
      and give the folder.
    `,
    examples: [
      ['Install a cloned example as my-crud', '$0 install --url ./examples/crud --name my-crud'],
      ['From a file: URL', '$0 install -u file:///srv/templates/api'],
    ],
  });

  url = Option.String('--url,-u', { description: 'The service folder: a local path or file: URL (required)' });
  name = Option.String('--name,-n', { description: 'Name of the new service and of its folder' });

  async run(): Promise<number> {
    if (this.url === undefined) throw new ConfigError('Missing --url URL: the service folder to install (a local path or file: URL)');
    const { copyTemplateFolder, templateSource } = require('../create/template-folder') as typeof import('../create/template-folder');
    const cwd = process.cwd();
    const source = templateSource(this.url, cwd, '--url');
    const shown = this.name ?? basename(source);
    const files = copyTemplateFolder({ source, dir: resolve(cwd, shown), name: this.name, option: '--url', shown });
    this.context.stdout.write(`Installed ${this.name ?? basename(source)} from ${this.url} in ${shown} (${files.length} files)\n`);
    return 0;
  }
}

/**
 * `fw` with no command: the guided creation in a terminal, the help everywhere else
 * (a pipe or CI must never wait for an answer).
 */
export class DefaultCommand extends Command<CreateContext> {
  static override paths = [Command.Default];

  async execute(): Promise<number> {
    // The bundled CLI leaves stdin out of the context (scripts/bundle.js: creating it costs every command).
    const stdin: Readable = (this.context.stdin as Readable | undefined) ?? process.stdin;
    const stdout = this.context.stdout as { isTTY?: boolean };
    if (!(stdin as { isTTY?: boolean }).isTTY || !stdout.isTTY) {
      this.context.stdout.write(this.cli.usage());
      return 0;
    }
    try {
      return await guidedCreate({ ...this.context, stdin, cwd: this.context.cwd ?? process.cwd() });
    } catch (error) {
      reportError(this.context.stderr, error, this.context.env);
      return 1;
    }
  }
}

/** Same output as every service command: the message alone for a user mistake, the stack for a bug. */
