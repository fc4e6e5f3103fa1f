import { Option, type Cli } from 'clipanion';
import { CloudCommand } from './cloud-command';
import type { Connection } from '../deploy/connect';
import { initialize, loadPlugins, loadServiceWithPlugins, setPluginSession } from '../plugins/index';
import type { PluginManager } from '../plugins/manager';
import type { CommandDefinition, CommandOption } from '../plugins/types';

/** Options every fw service command already has; a plugin option of the same name or shortcut maps onto them. */
const TAKEN_NAMES = new Set(['stage', 'region', 'config', 'param', 'aws-profile', 'local', 'endpoint-url', 'verbose', 'help', 'debug', 'version', 'app', 'org', 'use-local-credentials']);
const TAKEN_SHORTCUTS = new Set(['s', 'r', 'c', 'v', 'h']);

/** `includeLayers` → `include-layers` (clipanion takes lower-case long options only). */
const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

type PluginCommandClass = new () => CloudCommand;

/** One clipanion command per plugin command (and sub-command); running it runs its lifecycle events. */
export function pluginCommandClasses(manager: PluginManager): PluginCommandClass[] {
  const classes: PluginCommandClass[] = [];
  const add = (path: string[], definition: CommandDefinition) => {
    if ((definition.lifecycleEvents ?? []).length > 0 || !definition.commands) classes.push(commandClass(manager, path, definition));
    for (const [name, sub] of Object.entries(definition.commands ?? {})) add([...path, name], sub);
  };
  for (const { value } of manager.commands) add([value.name], value.definition);
  return classes;
}

function commandClass(manager: PluginManager, path: string[], definition: CommandDefinition): PluginCommandClass {
  const options = Object.entries(definition.options ?? {}).filter(([name]) => !TAKEN_NAMES.has(kebab(name)));
  const plugin = manager.commands.find((command) => command.value.name === path[0])?.plugin.name ?? 'a plugin';
  class PluginCommand extends CloudCommand {
    static override paths = [path];
    static override usage = CloudCommand.Usage({
      category: 'Plugin commands',
      description: `${definition.usage ?? `Runs ${path.join(' ')}`} (from ${plugin})`,
    });

    constructor() {
      super();
      const fields = this as unknown as Record<string, unknown>;
      for (const [name, option] of options) fields[`plugin:${name}`] = pluginOption(name, option);
    }

    async run(): Promise<number> {
      const fields = this as unknown as Record<string, unknown>;
      const values: Record<string, unknown> = { ...this.cliOptions() };
      if (this.verbose) values.verbose = true;
      for (const [name, option] of options) {
        const value = fields[`plugin:${name}`];
        if (value !== undefined) values[name] = value;
        else if (option.default !== undefined) values[name] = option.default;
      }
      for (const key of Object.keys(manager.options)) delete manager.options[key];
      Object.assign(manager.options, values);
      manager.write = (text) => this.context.stdout.write(text);
      const loaded = await loadServiceWithPlugins(manager, process.cwd(), this.cliOptions());
      let connection: Connection | undefined;
      manager.awsTarget = async () => (connection ??= await this.connect(loaded)).clients.target;
      try {
        await initialize(manager, loaded);
        for (const step of definition.lifecycleEvents ?? []) await manager.run(`${path.join(':')}:${step}`);
      } finally {
        await connection?.close();
      }
      return 0;
    }
  }
  return PluginCommand;
}

function pluginOption(name: string, option: CommandOption): unknown {
  const shortcut = option.shortcut && !TAKEN_SHORTCUTS.has(option.shortcut) ? `,-${option.shortcut}` : '';
  const flags = `--${kebab(name)}${shortcut}`;
  const description = option.usage ?? '';
  if (option.type === 'boolean') return Option.Boolean(flags, { description });
  if (option.type === 'multiple') return Option.Array(flags, { description, required: Boolean(option.required) });
  return option.required ? Option.String(flags, { description, required: true }) : Option.String(flags, { description });
}

/** `fw` with a service that has plugins: load them first, so their commands are known. */
export async function registerPluginCommands(cli: Cli, argv: string[], cwd: string): Promise<string[]> {
  const options: Record<string, unknown> = {};
  const config = optionValue(argv, '--config', '-c');
  if (config !== undefined) options.config = config;
  const stage = optionValue(argv, '--stage', '-s');
  if (stage !== undefined) options.stage = stage;
  const region = optionValue(argv, '--region', '-r');
  if (region !== undefined) options.region = region;
  const manager = await loadPlugins({ cwd, options });
  if (manager.empty) return argv;
  // v3's `processedInput.commands`: the command's words before its options.
  const words = argv.slice(0, argv.findIndex((arg) => arg.startsWith('-')) >>> 0);
  manager.commandPath.splice(0, manager.commandPath.length, ...words);
  setPluginSession(manager);
  for (const commandClass of pluginCommandClasses(manager)) cli.register(commandClass);
  // v3 users type `--includeLayers`; clipanion wants `--include-layers`.
  const camel = new Map<string, string>();
  for (const { value } of manager.commands) collectOptionNames(value.definition, camel);
  return argv.map((arg) => {
    const [flag, ...rest] = arg.split('=');
    const renamed = camel.get(flag);
    return renamed ? [renamed, ...rest].join('=') : arg;
  });
}

function collectOptionNames(definition: CommandDefinition, names: Map<string, string>): void {
  for (const name of Object.keys(definition.options ?? {})) if (kebab(name) !== name) names.set(`--${name}`, `--${kebab(name)}`);
  for (const sub of Object.values(definition.commands ?? {})) collectOptionNames(sub, names);
}

function optionValue(argv: string[], long: string, short: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith(`${long}=`)) return argv[i].slice(long.length + 1);
    if ((argv[i] === long || argv[i] === short) && i + 1 < argv.length) return argv[i + 1];
  }
  return undefined;
}
