import type { Construct } from 'constructs';
import type { Schema } from '../config/schema';
import type { FunctionConstruct } from '../constructs/function';
import type { Service } from '../constructs/service';
import type { Template } from '../synth/template';

/**
 * The plugin API, published from the package (`import type { PluginApi } from 'fw-deploy'`).
 *
 * A plugin module exports (default export or `module.exports`) either
 *  - a class, constructed as `new Plugin(api, options, { log, progress, writeText })`, or
 *  - a factory function, called as `plugin(api, options, { log, … })`.
 * Both register what they add through `api` (`api.hook(…)`, `api.addCommand(…)`, …) or, the
 * Serverless Framework v3 way, through properties of the instance (or of the object a factory
 * returns): `hooks`, `commands`, `configurationVariablesSources`. The same `api` object is the
 * `serverless` object a v3 plugin expects (`service`, `getProvider('aws')`, `configSchemaHandler`, …).
 */

/** The steps of the built-in commands; each also has a `before:` and an `after:` event. */
export type PackageStep = 'initialize' | 'compileFunctions' | 'compileEvents' | 'finalize';
export type DeployStep = 'deploy' | 'finalize';
export type RemoveStep = 'remove';
export type LifecycleStep = 'initialize' | `package:${PackageStep}` | `deploy:${DeployStep}` | `remove:${RemoveStep}`;
/** `before:package:finalize`, `package:compileEvents`, `after:deploy:deploy`, … or a plugin command's own event. */
export type LifecycleEvent = LifecycleStep | `before:${LifecycleStep}` | `after:${LifecycleStep}` | (string & {});

/** What a hook sees. Fields appear as the command gets to them. */
export interface HookContext {
  /** The event being run (`before:package:finalize`). */
  readonly event: string;
  /** CLI options of the running command (`stage`, `region`, plugin options, …). */
  readonly options: Record<string, unknown>;
  /** The resolved configuration (once variables are resolved; changes before `package:compileFunctions` shape the tree). */
  readonly config: Record<string, unknown>;
  /** The construct tree: from `package:compileFunctions` on (find, add and change constructs before synthesis). */
  readonly service?: Service;
  /** The synthesized template: from `package:finalize` on (changes are written to `.serverless/`). */
  readonly template?: Template;
  readonly stage?: string;
  readonly region?: string;
}

export type Hook = (context: HookContext) => void | Promise<void>;

export interface PluginLog {
  (message: string): void;
  error(message: string): void;
  warning(message: string): void;
  notice(message: string): void;
  success(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  verbose(message: string): void;
}

export interface PluginProgress {
  create(options?: { message?: string; name?: string }): { update(message: string): void; remove(): void; notice(message: string): void; info(message: string): void };
  get(name: string): { update(message: string): void; remove(): void; notice(message: string): void; info(message: string): void };
}

/** The third constructor argument of a v3 plugin. */
export interface PluginUtils {
  log: PluginLog;
  progress: PluginProgress;
  writeText(text: string | string[]): void;
}

/** One option of a plugin command (`fw prune --number 3`). */
export interface CommandOption {
  usage?: string;
  shortcut?: string;
  required?: boolean;
  type?: 'string' | 'boolean' | 'multiple';
  default?: unknown;
}

/** A command a plugin adds: its steps run as lifecycle events `<name>:<step>` (with `before:`/`after:`). */
export interface CommandDefinition {
  usage?: string;
  /** Default: `['run']`. */
  lifecycleEvents?: string[];
  options?: Record<string, CommandOption>;
  /** Sub-commands: `fw name sub`. */
  commands?: Record<string, CommandDefinition>;
  /** Hidden from help. */
  type?: 'entrypoint' | 'container';
}

/** A JSON schema (the form v3 plugins use) or a typanion validator (fw's own form). */
export type ConfigSchema = Schema | Record<string, unknown>;

export interface SchemaExtension {
  /** New top-level keys (`myPlugin:`). */
  topLevel?: Record<string, ConfigSchema>;
  /** New function properties (`functions.x.myProperty`). */
  function?: Record<string, ConfigSchema>;
  /** New `provider` properties. */
  provider?: Record<string, ConfigSchema>;
  /** Properties under `custom`. */
  custom?: Record<string, ConfigSchema>;
}

/** An event type a plugin adds: a construct class with its key under `events`. */
export interface PluginEventType {
  readonly type: string;
  new (fn: FunctionConstruct, id: string, config: unknown, path: string): Construct;
}

/** What `${name(params):address}` resolves to. */
export interface VariableSource {
  resolve(request: {
    address: string;
    params: string[];
    options: Record<string, unknown>;
    /** Resolves another variable, written without braces: `sls:stage`, `self:provider.region`. */
    resolveVariable(text: string): Promise<unknown>;
  }): unknown | Promise<{ value: unknown } | unknown>;
}

export interface PluginApi {
  /** How the plugin is named in `plugins:` (`./plugins/audit`, `serverless-prune-plugin`). */
  readonly pluginName: string;
  readonly serviceDir: string;
  /** CLI options of the command being run (filled in before the first hook runs). */
  readonly options: Record<string, unknown>;
  readonly log: PluginLog;
  /** Runs `hook` at `event`; hooks of one event run in plugin order, then registration order. */
  hook(event: LifecycleEvent, hook: Hook): void;
  /** Adds `fw <name>`; its steps are lifecycle events `<name>:<step>`. */
  addCommand(name: string, definition: CommandDefinition): void;
  /** Makes the configuration schema accept (and check) new keys. */
  extendSchema(extension: SchemaExtension): void;
  /** Adds an event type (`events: - myEvent: …`) built by `eventType`, checked against `schema`. */
  addEventType(eventType: PluginEventType, schema?: ConfigSchema): void;
  /** Adds `${name:address}`. */
  addVariableSource(name: string, source: VariableSource): void;
}

/** A factory plugin; for a class, implement a constructor `(api: PluginApi, options, utils)`. */
export type PluginFactory = (api: PluginApi, options: Record<string, unknown>, utils: PluginUtils) => void | PluginDeclarations;

/** What a v3 plugin instance (or a factory's return value) may declare. */
export interface PluginDeclarations {
  hooks?: Record<string, (...args: never[]) => unknown>;
  commands?: Record<string, CommandDefinition>;
  configurationVariablesSources?: Record<string, VariableSource>;
  asyncInit?(): unknown;
}

/** Identity at run time; types a factory plugin written in TypeScript. */
export function definePlugin(plugin: PluginFactory): PluginFactory {
  return plugin;
}
