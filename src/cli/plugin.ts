import { Option } from 'clipanion';
import { ConfigError } from '../errors';
import { GlobalCommand } from './global-command';

/** `serverless-webpack@5.0.0` or `@scope/plugin@1` → name and version (v3 takes the version in --name). */
export function parsePluginSpec(spec: string): { name: string; version?: string } {
  const at = spec.lastIndexOf('@');
  if (at > 0) return { name: spec.slice(0, at), version: spec.slice(at + 1) || undefined };
  return { name: spec };
}

const PLUGIN_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;

/** The plugin commands' service options, as v3 accepts them. */
abstract class PluginCommand extends GlobalCommand {
  config = Option.String('--config,-c', { description: 'Path to the service file' });
  stage = Option.String('--stage,-s', { description: 'Accepted (the plugins list does not depend on the stage)' });
  params = Option.Array('--param', { description: 'Accepted (the plugins list does not depend on parameters)' });

  protected serviceFile(): string {
    const { findServiceFile } = require('../config/find') as typeof import('../config/find');
    return findServiceFile(process.cwd(), this.config).path;
  }
}

/** Runs npm in the service folder (a package.json is written first when there is none, so npm does not pick a parent project). */
function runNpm(dir: string, args: string[]): void {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const { existsSync, writeFileSync } = require('node:fs') as typeof import('node:fs');
  const { basename, join } = require('node:path') as typeof import('node:path');
  if (!existsSync(join(dir, 'package.json'))) {
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: basename(dir).toLowerCase().replace(/[^a-z0-9-]/g, '-'), private: true }, null, 2)}\n`);
  }
  const result = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd: dir, encoding: 'utf8', timeout: 300_000, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) throw new ConfigError(`Cannot run npm ${args.join(' ')}: ${result.error.message}`);
  if (result.status !== 0) {
    const reason = `${result.stderr}`.split('\n').map(line => line.trim()).filter(line => line && !/^npm (error|ERR!) (A complete log|$)/.test(line)).slice(0, 2).join(' ');
    throw new ConfigError(`npm ${args.join(' ')} failed (exit ${result.status}): ${reason || 'no reason given'}`);
  }
}

export class PluginInstallCommand extends PluginCommand {
  static override paths = [['plugin', 'install']];
  static override usage = GlobalCommand.Usage({
    description: "Install a plugin with npm (devDependencies) and add it to the service file's plugins",
    details: `
      Runs \`npm install --save-dev\` in the service folder, then adds the plugin to \`plugins\` (a list, or
      \`plugins.modules\`). A YAML file keeps its comments and formatting; a JSON file is rewritten; for a
      JS or TS service file, what to add is printed.
    `,
    examples: [
      ['Install the latest serverless-offline', '$0 plugin install -n serverless-offline'],
      ['Install a version', '$0 plugin install -n serverless-webpack@5.13.0'],
    ],
  });

  name = Option.String('--name,-n', { required: true, description: 'The plugin: name or name@version' });

  async run(): Promise<number> {
    const { name, version } = parsePluginSpec(this.name);
    if (!PLUGIN_NAME.test(name)) throw new ConfigError(`Invalid --name "${this.name}": expected an npm package name, optionally with @version`);
    const file = this.serviceFile();
    const { dirname } = require('node:path') as typeof import('node:path');
    runNpm(dirname(file), ['install', '--save-dev', version ? `${name}@${version}` : name]);
    const { editServicePlugins } = require('./service-file-plugins') as typeof import('./service-file-plugins');
    const edit = editServicePlugins(file, name, 'add');
    const where = 'manual' in edit ? `; now ${edit.manual}` : edit.changed ? ` and added to plugins in ${file}` : ` (already in plugins in ${file})`;
    this.context.stdout.write(`${this.out('✔')} Plugin ${name}${version ? `@${version}` : ''} installed${where}\n`);
    return 0;
  }

  private out(text: string): string {
    const { colorsEnabled, style } = require('../terminal/output') as typeof import('../terminal/output');
    return style(colorsEnabled(this.context.stdout)).green(text);
  }
}

export class PluginUninstallCommand extends PluginCommand {
  static override paths = [['plugin', 'uninstall']];
  static override usage = GlobalCommand.Usage({
    description: "Uninstall a plugin with npm and remove it from the service file's plugins",
    examples: [['Uninstall serverless-offline', '$0 plugin uninstall -n serverless-offline']],
  });

  name = Option.String('--name,-n', { required: true, description: 'The plugin' });

  async run(): Promise<number> {
    const { name } = parsePluginSpec(this.name);
    if (!PLUGIN_NAME.test(name)) throw new ConfigError(`Invalid --name "${this.name}": expected an npm package name`);
    const file = this.serviceFile();
    const { dirname } = require('node:path') as typeof import('node:path');
    runNpm(dirname(file), ['uninstall', '--save-dev', name]);
    const { editServicePlugins } = require('./service-file-plugins') as typeof import('./service-file-plugins');
    const edit = editServicePlugins(file, name, 'remove');
    const where = 'manual' in edit ? `; now ${edit.manual}` : edit.changed ? ` and removed from plugins in ${file}` : ` (it was not in plugins in ${file})`;
    this.context.stdout.write(`Plugin ${name} uninstalled${where}\n`);
    return 0;
  }
}

/** The plugins fw knows of: a list shipped with fw (src/cli/known-plugins.json), so listing needs no network. */
function knownPlugins(): ReadonlyArray<{ name: string; description: string }> {
  return (require('./known-plugins') as typeof import('./known-plugins')).KNOWN_PLUGINS;
}

function formatPlugins(plugins: ReadonlyArray<{ name: string; description: string }>): string {
  const width = Math.max(0, ...plugins.map(plugin => plugin.name.length));
  return plugins.map(plugin => `${plugin.name.padEnd(width)}  ${plugin.description}\n`).join('');
}

const KNOWN_NOTE = 'From the list of common Serverless v3 plugins shipped with fw (not the npm registry: no network is used).';

export class PluginListCommand extends GlobalCommand {
  static override paths = [['plugin', 'list']];
  static override usage = GlobalCommand.Usage({
    description: 'List common Serverless v3 plugins (a list shipped with fw, no network)',
    details: 'Install one with `fw plugin install -n <name>`; any npm package can be installed, listed or not.',
  });

  async run(): Promise<number> {
    this.context.stdout.write(`${formatPlugins(knownPlugins())}\n${KNOWN_NOTE}\nInstall one with "fw plugin install -n <name>".\n`);
    return 0;
  }
}

export class PluginSearchCommand extends GlobalCommand {
  static override paths = [['plugin', 'search']];
  static override usage = GlobalCommand.Usage({
    description: 'Search the common Serverless v3 plugins by name and description (a list shipped with fw, no network)',
    examples: [['Find plugins about Python', '$0 plugin search -q python']],
  });

  query = Option.String('--query,-q', { required: true, description: 'Words to look for in the name or description' });

  async run(): Promise<number> {
    const words = this.query.toLowerCase().split(/\s+/).filter(Boolean);
    const found = knownPlugins().filter(plugin => words.every(word => `${plugin.name} ${plugin.description}`.toLowerCase().includes(word)));
    this.context.stdout.write(
      found.length > 0
        ? `${formatPlugins(found)}\n${found.length} plugin${found.length === 1 ? '' : 's'} found for "${this.query}". ${KNOWN_NOTE}\n`
        : `No plugin found for "${this.query}". ${KNOWN_NOTE}\n`,
    );
    return 0;
  }
}
