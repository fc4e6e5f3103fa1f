import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Service } from '../constructs/service';
import type { SchemaExtensions } from '../config/schema';
import { ConfigError } from '../errors';
import type { Template } from '../synth/template';
import type { AwsTarget } from '../aws/clients';
import { sources } from '../variables/sources';
import type { Outcome, Source } from '../variables/source';
import type { EventType } from '../constructs/events/registry';
import { constructSource } from './constructs';
import { toSchema } from './json-schema';
import type {
  CommandDefinition,
  ConfigSchema,
  Hook,
  HookContext,
  PluginApi,
  PluginDeclarations,
  PluginEventType,
  PluginLog,
  PluginUtils,
  SchemaExtension,
  VariableSource,
} from './types';

/** A plugin that failed (loading or in a hook): its name and message, printed without a stack. */
export class PluginError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = 'PluginError';
  }
}

export interface LoadedPlugin {
  name: string;
  file: string;
  instance: unknown;
}

interface Registered<T> {
  plugin: LoadedPlugin;
  value: T;
}

/** What the running command has reached: the context hooks see. */
interface State {
  config: Record<string, unknown>;
  /** `config` holds the resolved configuration (`initialize` ran); before, plugins see `raw`. */
  resolved?: boolean;
  service?: Service;
  template?: Template;
  stage?: string;
  region?: string;
}

/**
 * The plugins of one service: their hooks per lifecycle event, the commands, schema
 * additions, event types and variable sources they registered. Built by `loadPlugins`.
 */
export class PluginManager {
  readonly plugins: LoadedPlugin[] = [];
  readonly commands: Array<Registered<{ name: string; definition: CommandDefinition }>> = [];
  readonly variableSources = new Map<string, Registered<VariableSource>>();
  readonly eventTypes: Array<Registered<PluginEventType>> = [];
  readonly schema: Required<NonNullable<SchemaExtensions['extend']>> & { eventSchemas: NonNullable<SchemaExtensions['eventSchemas']> } = {
    topLevel: {},
    provider: {},
    function: {},
    custom: {},
    eventSchemas: {},
  };
  /** The running command's CLI options; one object, so plugins that kept it see the values. */
  readonly options: Record<string, unknown> = {};
  /** The running command's words (`['deploy', 'function']`): v3's `processedInput.commands`. */
  readonly commandPath: string[] = [];
  readonly state: State = { config: {} };
  /**
   * While packaging: the service's `.serverless/` (`from`) is being built in a staging folder (`to`);
   * files plugins write into it go there and are deployed with the package (`written`, names in it).
   */
  packageFolder?: { from: string; to: string; written: Set<string> };
  /** Where `provider.request` sends calls; set by the command (deploy's connection, `--local`, …). */
  awsTarget?: () => Promise<AwsTarget>;
  /** Configuration changes v3 plugins asked for with `extendConfiguration`, applied once resolved. */
  readonly configurationExtensions: Array<{ path: string[]; value: unknown }> = [];
  /** Lines plugins print go here (the command's stdout). */
  write: (text: string) => void = (text) => process.stdout.write(text);
  private readonly hooks = new Map<string, Array<Registered<Hook>>>();
  /** The Serverless v3 `serverless` object, made when a plugin first needs it. */
  v3?: import('./v3').ServerlessV3;
  /** The service file as it was read, before plugins saw it: where variables and validation start. */
  source?: import('../config/load').LoadedSource;
  /** The file's size and modification time when `source` was read. */
  sourceStamp?: string;
  /** The variable sources' answers while `raw` was resolved for the constructors: the next resolution reuses them, once. */
  answers?: import('../variables').ResolveContext['answers'];

  constructor(
    readonly serviceDir: string,
    readonly serviceFile: string,
    /**
     * What plugin constructors see: the configuration as written with the variables v3 resolves
     * before loading plugins (`resolveBeforePlugins`), then filled with the resolved configuration.
     */
    readonly raw: Record<string, unknown>,
  ) {}

  get empty(): boolean {
    return this.plugins.length === 0;
  }

  // ── registration ───────────────────────────────────────────────────────

  hook(plugin: LoadedPlugin, event: string, hook: Hook): void {
    if (typeof hook !== 'function') throw new PluginError(`Plugin "${plugin.name}": the hook for "${event}" is not a function`);
    const list = this.hooks.get(event) ?? [];
    list.push({ plugin, value: hook });
    this.hooks.set(event, list);
  }

  /**
   * A command, or more of one another plugin added: as Serverless v3 does, the definitions are
   * merged (options and sub-commands added, lifecycle events merged position by position), so
   * serverless-webpack and serverless-offline both extending `offline` work together.
   */
  addCommand(plugin: LoadedPlugin, name: string, definition: CommandDefinition): void {
    const existing = this.commands.find((command) => command.value.name === name);
    if (existing) existing.value.definition = mergeDefinitions(existing.value.definition, definition) as CommandDefinition;
    else this.commands.push({ plugin, value: { name, definition } });
  }

  commandDefinition(name: string): CommandDefinition | undefined {
    return this.commands.find((entry) => entry.value.name === name)?.value.definition;
  }

  /** v3's `pluginManager.hooks`: each event's hooks, as `{ pluginName, hook }`. */
  hooksByEvent(): Record<string, Array<{ pluginName: string; hook: Hook }>> {
    return Object.fromEntries([...this.hooks].map(([event, list]) => [event, list.map(({ plugin, value }) => ({ pluginName: plugin.name, hook: value }))]));
  }

  extendSchema(extension: SchemaExtension): void {
    for (const section of ['topLevel', 'provider', 'function', 'custom'] as const) {
      for (const [key, schema] of Object.entries(extension[section] ?? {})) this.schema[section][key] = toSchema(schema);
    }
  }

  addEventType(plugin: LoadedPlugin, eventType: PluginEventType, schema?: ConfigSchema): void {
    if (typeof eventType?.type !== 'string') throw new PluginError(`Plugin "${plugin.name}": an event type needs a static "type" (its key under events)`);
    this.eventTypes.push({ plugin, value: eventType });
    if (schema !== undefined) this.schema.eventSchemas[eventType.type] = toSchema(schema);
  }

  addVariableSource(plugin: LoadedPlugin, name: string, source: VariableSource): void {
    if (typeof source?.resolve !== 'function') throw new PluginError(`Plugin "${plugin.name}": variable source "${name}" needs a resolve() function`);
    // fw's `${construct:…}` (constructs a service file in code adds) gives way to a plugin's: Lift's, in a serverless.ts/js.
    if (sources[name] === constructSource) delete sources[name];
    if (sources[name] !== undefined && !this.variableSources.has(name)) throw new PluginError(`Plugin "${plugin.name}" adds the variable source "${name}", which fw already has`);
    this.variableSources.set(name, { plugin, value: source });
  }

  /** Takes what a v3-style instance (or a factory's return value) declares. */
  declare(plugin: LoadedPlugin, declarations: PluginDeclarations | undefined): void {
    if (declarations === null || typeof declarations !== 'object') return;
    for (const [event, hook] of Object.entries(declarations.hooks ?? {})) this.hook(plugin, event, hook as Hook);
    for (const [name, definition] of Object.entries(declarations.commands ?? {})) this.addCommand(plugin, name, definition);
    for (const [name, source] of Object.entries(declarations.configurationVariablesSources ?? {})) this.addVariableSource(plugin, name, source);
  }

  /** The API object one plugin receives: fw's own methods over the shared v3 `serverless` object. */
  apiFor(plugin: LoadedPlugin, v3: object): PluginApi {
    // Each surface object seen through the plugin's view: a v3 member fw lacks fails naming the plugin.
    const { surface } = require('./v3-surface') as typeof import('./v3-surface');
    const shared = v3 as import('./v3').ServerlessV3;
    const views = {
      provider: surface(plugin.name, shared.awsProvider, 'provider', "serverless.getProvider('aws')"),
      pluginManager: surface(plugin.name, shared.pluginManager, 'pluginManager', 'serverless.pluginManager'),
      utils: surface(plugin.name, shared.utils, 'utils', 'serverless.utils'),
      cli: surface(plugin.name, shared.cli, 'cli', 'serverless.cli'),
      configSchemaHandler: surface(plugin.name, shared.configSchemaHandler, 'configSchemaHandler', 'serverless.configSchemaHandler'),
      classes: surface(plugin.name, shared.classes, 'classes', 'serverless.classes'),
    };
    const api = Object.create(v3) as PluginApi & Record<string, unknown>;
    Object.defineProperty(api, 'service', {
      get: () => surface(plugin.name, shared.service, 'service', 'serverless.service'),
      set: (value) => (shared.service = value),
    });
    Object.assign(api, {
      ...views,
      getProvider: (name: string) => (name === 'aws' ? views.provider : undefined),
      providers: { aws: views.provider },
      pluginName: plugin.name,
      serviceDir: this.serviceDir,
      options: this.options,
      log: this.logger(plugin),
      hook: (event: string, hook: Hook) => this.hook(plugin, event, hook),
      addCommand: (name: string, definition: CommandDefinition) => this.addCommand(plugin, name, definition),
      extendSchema: (extension: SchemaExtension) => this.extendSchema(extension),
      addEventType: (eventType: PluginEventType, schema?: ConfigSchema) => this.addEventType(plugin, eventType, schema),
      addVariableSource: (name: string, source: VariableSource) => this.addVariableSource(plugin, name, source),
    });
    return api;
  }

  logger(plugin?: LoadedPlugin): PluginLog {
    const line = (text: string) => this.write(`${text}\n`);
    const log = ((message: string) => line(message)) as PluginLog;
    log.error = (message) => process.stderr.write(`${plugin ? `[${plugin.name}] ` : ''}Error: ${message}\n`);
    log.warning = (message) => process.stderr.write(`${plugin ? `[${plugin.name}] ` : ''}Warning: ${message}\n`);
    log.notice = line;
    log.success = (message) => line(`✔ ${message}`);
    log.info = (message) => {
      if (this.options.verbose) line(message);
    };
    log.verbose = log.info;
    log.debug = (message) => {
      if (process.env.FW_DEBUG || process.env.SLS_DEBUG) line(message);
    };
    return log;
  }

  utils(plugin: LoadedPlugin): PluginUtils {
    const log = this.logger(plugin);
    const progressItem = (name?: string) => ({
      update: (message: string) => log.info(message),
      remove: () => undefined,
      notice: (message: string) => log.notice(message),
      info: (message: string) => log.info(message),
      name,
    });
    const items = new Map<string, ReturnType<typeof progressItem>>();
    return {
      log,
      progress: {
        create: ({ message, name } = {}) => {
          const item = progressItem(name);
          if (name) items.set(name, item);
          if (message) log.info(message);
          return item;
        },
        get: (name: string) => items.get(name) ?? progressItem(name),
      },
      writeText: (text) => this.write(`${Array.isArray(text) ? text.join('\n') : text}\n`),
    };
  }

  // ── running ────────────────────────────────────────────────────────────

  hasHooks(event: string): boolean {
    return (this.hooks.get(event)?.length ?? 0) > 0;
  }

  /** Runs the hooks of one event, in plugin order; a failing hook stops the command, naming its plugin. */
  async runEvent(event: string): Promise<void> {
    const hooks = this.hooks.get(event);
    if (!hooks) return;
    const context: HookContext = { event, options: this.options, ...this.state };
    for (const { plugin, value } of hooks) {
      try {
        await value.call(plugin.instance, context);
      } catch (error) {
        throw pluginFailure(plugin, error, `in "${event}"`);
      }
    }
  }

  /** `before:<step>`, then `body` (fw's own work), then `<step>`, then `after:<step>`. */
  async run<T>(step: string, body?: () => T | Promise<T>): Promise<T | undefined> {
    await this.runEvent(`before:${step}`);
    const result = body ? await body() : undefined;
    await this.runEvent(step);
    await this.runEvent(`after:${step}`);
    return result;
  }

  /** Runs `work` (variable resolution) with the plugins' variable sources known to the resolver. */
  async withVariableSources<T>(work: () => Promise<T>): Promise<T> {
    const added = this.installVariableSources();
    try {
      return await work();
    } finally {
      for (const name of added) delete sources[name];
    }
  }

  /** Adds the plugins' sources to the resolver; returns the names added (to take them out again). */
  installVariableSources(): string[] {
    const added: string[] = [];
    for (const [name, { plugin, value }] of this.variableSources) {
      if (sources[name] !== undefined) continue;
      sources[name] = pluginSource(plugin, name, value, this.options);
      added.push(name);
    }
    return added;
  }

  /** Runs `work` (building the tree) with the plugins' event types registered. */
  withEventTypes<T>(work: () => T): T {
    if (this.eventTypes.length === 0) return work();
    // Loaded here, not at the top: the registry's modules import the constructs, which import it back.
    const { registerEventType, unregisterEventType } = require('../constructs/events/registry') as typeof import('../constructs/events/registry');
    const added: EventType[] = [];
    try {
      for (const { plugin, value } of this.eventTypes) {
        try {
          registerEventType(value);
        } catch (error) {
          throw new PluginError(`Plugin "${plugin.name}": ${(error as Error).message}`);
        }
        added.push(value);
      }
      return work();
    } finally {
      for (const eventType of added) unregisterEventType(eventType);
    }
  }

  /** The schema additions, in the form the config validator takes. */
  schemaExtensions(): SchemaExtensions {
    const { eventSchemas, ...extend } = this.schema;
    return { eventSchemas, extend, functionStatements: [...this.functionStatements] };
  }

  /** Function properties v3 plugins declared as IAM statements (see SchemaExtensions.functionStatements). */
  readonly functionStatements = new Set<string>();

  // ── the template v3 plugins see ────────────────────────────────────────

  /**
   * Before synthesis (the compile steps) a v3 plugin gets a preview template synthesized from the
   * tree as it stands; what it adds, changes or deletes there is carried over to the real template.
   */
  private preview?: { template: Template; snapshot: Map<string, string>; fromTree: boolean };

  v3Template(): Template {
    if (this.state.template) return this.state.template;
    if (!this.preview || (!this.preview.fromTree && this.state.service)) {
      let template: Template = { AWSTemplateFormatVersion: '2010-09-09', Description: '', Resources: {}, Outputs: {} };
      if (this.state.service) {
        const { synthesize } = require('../constructs/synthesize') as typeof import('../constructs/synthesize');
        // A copy of its own (see finalize): plugins edit the preview in place.
        template = JSON.parse(JSON.stringify(synthesize(this.state.service))) as Template;
        template.Outputs ??= {};
      }
      const earlier = this.preview?.template as unknown as Record<string, Record<string, unknown>> | undefined;
      this.preview = { template, snapshot: snapshot(template), fromTree: this.state.service !== undefined };
      // What plugins added before the tree existed stays: as their additions, not as generated resources.
      const sections = template as unknown as Record<string, Record<string, unknown>>;
      for (const [section, values] of Object.entries(earlier ?? {})) {
        if (values !== null && typeof values === 'object') sections[section] = { ...sections[section], ...values };
      }
    }
    return this.preview.template;
  }

  replaceTemplate(template: Template): void {
    const target = this.v3Template() as unknown as Record<string, unknown>;
    for (const key of Object.keys(target)) delete target[key];
    Object.assign(target, template);
  }

  /**
   * Carries what v3 plugins did to the preview over to the synthesized template, change by change
   * (the preview was synthesized before the code was zipped, so its resources lack the code's location).
   */
  applyPreviewChanges(template: Template): void {
    const preview = this.preview;
    this.preview = undefined;
    if (!preview) return;
    const sections = template as unknown as Record<string, Record<string, unknown> | undefined>;
    const edited = preview.template as unknown as Record<string, Record<string, unknown> | undefined>;
    for (const section of ['Resources', 'Outputs', 'Conditions', 'Parameters', 'Mappings']) {
      const before = new Map([...preview.snapshot].filter(([key]) => key.startsWith(`${section}.`)));
      for (const [id, value] of Object.entries(edited[section] ?? {})) {
        const original = before.get(`${section}.${id}`);
        if (original === JSON.stringify(value)) continue;
        sections[section] ??= {};
        const target = sections[section]!;
        target[id] = original === undefined || !(id in target) ? value : patch(target[id], JSON.parse(original), value);
        // v3 exports every output in the compiled template when it finalizes, plugins' too.
        if (section === 'Outputs' && original === undefined) target[id] = this.exported(id, target[id]);
      }
      for (const key of before.keys()) {
        const id = key.slice(section.length + 1);
        if (!(id in (edited[section] ?? {}))) delete sections[section]?.[id];
      }
    }
  }

  /** The outputs plugins added since `before` (packaging steps, `before:package:finalize`), exported as v3 exports every output it finalizes. */
  exportAddedOutputs(template: Template, before: Set<string>): void {
    for (const [key, output] of Object.entries(template.Outputs ?? {})) {
      if (!before.has(key)) template.Outputs![key] = this.exported(key, output) as typeof output;
    }
  }

  private exported(key: string, output: unknown): unknown {
    const service = this.state.service;
    if (!service || output === null || typeof output !== 'object' || 'Export' in output) return output;
    const { exportName } = require('../synth/naming') as typeof import('../synth/naming');
    return { ...output, Export: { Name: exportName(service.name, service.stage, key) } };
  }

  /** An event type a v3 plugin declares (`defineFunctionEvent`): it compiles the event itself, so fw builds nothing. */
  addV3EventType(type: string, json: Record<string, unknown>): void {
    const { Construct } = require('constructs') as typeof import('constructs');
    const plugin = this.plugins[this.plugins.length - 1];
    const eventType = class extends Construct {
      static readonly type = type;
    };
    this.addEventType(plugin, eventType as unknown as PluginEventType, json);
  }
}

/** lodash's `merge` as v3 merges command definitions: objects key by key, arrays position by position. */
function mergeDefinitions(target: unknown, source: unknown): unknown {
  if (source === undefined) return target;
  if (Array.isArray(target) && Array.isArray(source)) {
    const length = Math.max(target.length, source.length);
    return Array.from({ length }, (_, index) => mergeDefinitions(target[index], source[index]));
  }
  const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
  if (isObject(target) && isObject(source)) {
    const result: Record<string, unknown> = { ...target };
    for (const [key, value] of Object.entries(source)) if (key !== '__proto__' && key !== 'constructor') result[key] = mergeDefinitions(target[key], value);
    return result;
  }
  return source;
}

/** `target` with the changes that turned `before` into `after` (keys added, changed, removed), recursively. */
function patch(target: unknown, before: unknown, after: unknown): unknown {
  const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isObject(target) || !isObject(before) || !isObject(after)) return after;
  const result: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(after)) {
    if (JSON.stringify(before[key]) === JSON.stringify(value)) continue;
    result[key] = key in before && key in target ? patch(target[key], before[key], value) : value;
  }
  for (const key of Object.keys(before)) if (!(key in after)) delete result[key];
  return result;
}

function snapshot(template: Template): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [section, values] of Object.entries(template as unknown as Record<string, unknown>)) {
    if (values === null || typeof values !== 'object') continue;
    for (const [id, value] of Object.entries(values)) entries.set(`${section}.${id}`, JSON.stringify(value));
  }
  return entries;
}

/** A plugin's `resolve()` as one of the resolver's sources. */
function pluginSource(plugin: LoadedPlugin, name: string, source: VariableSource, options: Record<string, unknown>): Source {
  return async (ref, helpers): Promise<Outcome> => {
    const address = (ref as { address?: string }).address ?? '';
    const params = ((ref as { params?: string[] }).params ?? []).map(String);
    let result: unknown;
    try {
      result = await source.resolve({ address, params, options, resolveVariable: (text) => helpers.resolveVariable(text) });
    } catch (error) {
      throw pluginFailure(plugin, error, `resolving \${${name}:${address}}`);
    }
    const value = result !== null && typeof result === 'object' && 'value' in result ? (result as { value: unknown }).value : result;
    if (value === undefined || value === null) return { missing: `has no value from plugin "${plugin.name}"` };
    return { value };
  };
}

/** `Plugin "./plugins/audit" failed in "before:package:finalize": boom (plugins/audit.js:4:11)` */
export function pluginFailure(plugin: LoadedPlugin, error: unknown, where: string): PluginError {
  if (error instanceof PluginError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? error.stack ?? '' : '';
  const url = pathToFileURL(plugin.file).href;
  const frame = stack
    .split('\n')
    .map((line) => (line.includes(plugin.file) || line.includes(url) ? /:(\d+):(\d+)\)?\s*$/.exec(line) : null))
    .find((match) => match !== null);
  const file = relative(process.cwd(), plugin.file) || plugin.file;
  return new PluginError(`Plugin "${plugin.name}" failed ${where}: ${message}${frame ? ` (${file}:${frame[1]}:${frame[2]})` : ''}`);
}
