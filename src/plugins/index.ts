import { join, relative } from 'node:path';
import { findServiceFile } from '../config/find';
import { copyConfig, loadSource, type LoadedSource } from '../config/load';
import { fileStamp } from '../config/read-file';
import { importModule } from '../config/module';
import type { Service } from '../constructs/service';
import type { LoadedService } from '../service/load';
import type { Template } from '../synth/template';
import { pluginNames, resolvePlugin, type PluginSpec } from './load';
import type { PluginDeclarations } from './types';
import { PluginError, PluginManager, pluginFailure, type LoadedPlugin } from './manager';
import { sources } from '../variables/sources';
import { any } from '../config/schema';
import { constructSource, resolveConstructReferences } from './constructs';

export { PluginError, PluginManager } from './manager';

/** Plugins whose work fw does itself: listed in `plugins:`, they are not loaded, and fw says why. */
const NOT_NEEDED: Record<string, string> = {
  'serverless-plugin-typescript': 'fw bundles TypeScript handlers itself (build.esbuild)',
};

let session: PluginManager | undefined;

let sessionSources: string[] = [];

/**
 * The plugins `fw` loaded at start (to register their commands); commands of that run reuse them,
 * and every command resolves their variable sources.
 */
export function setPluginSession(manager: PluginManager): void {
  clearPluginSession();
  session = manager;
  sessionSources = manager.installVariableSources();
}

/** Ends a run's plugins (tests run many in one process). */
export function clearPluginSession(): void {
  for (const name of sessionSources) delete sources[name];
  if (sources.construct === constructSource) delete sources.construct;
  sessionSources = [];
  session = undefined;
}

/**
 * The plugins of the service in `cwd` (or `--config`), constructed in `plugins:` order with the
 * CLI options. The service file is read here, once: the manager keeps it as written
 * (`manager.source`) for the variables and validation that follow (`loadServiceWithPlugins`).
 */
export async function loadPlugins({ cwd, options }: { cwd: string; options: Record<string, unknown> }): Promise<PluginManager> {
  const file = findServiceFile(cwd, typeof options.config === 'string' ? options.config : undefined);
  if (session && session.serviceFile === file.path) {
    Object.assign(session.options, options);
    // The same file as when the session's plugins were loaded: what was read then is still the file.
    const stamp = fileStamp(file.path);
    if (session.source && session.sourceStamp === stamp) return session;
    session.source = await loadSource(cwd, options);
    session.sourceStamp = stamp;
    return session;
  }
  const stamp = fileStamp(file.path);
  const source = await loadSource(cwd, options);
  // Plugins change the configuration they are handed (`serverless.service`); variables start from the file as written.
  const written: LoadedSource = { file: source.file, raw: copyConfig(source.raw) };
  const raw = source.raw;
  const { names, localPath } = raw.plugins === undefined ? { names: [], localPath: undefined } : pluginNames(raw, relative(cwd, file.path) || file.path);
  const manager = new PluginManager(file.dir, file.path, raw);
  manager.source = written;
  manager.sourceStamp = stamp;
  if (names.length === 0) return manager;
  Object.assign(manager.options, options);
  const { resolveBeforePlugins } = require('../service/load') as typeof import('../service/load');
  manager.answers = await resolveBeforePlugins(raw, file.dir, options);
  const { createServerless } = require('./v3') as typeof import('./v3');
  manager.v3 = createServerless(manager);
  const before = JSON.parse(JSON.stringify(manager.v3.service)) as unknown;
  for (const name of names) {
    const instead = NOT_NEEDED[name];
    if (instead) process.stderr.write(`${name}: not loaded, ${instead}\n`);
    else await addPlugin(manager, resolvePlugin(name, file.dir, localPath));
  }
  // Constructors that set configuration on `serverless.service` (v3 plugins do, e.g. environment
  // variables from .env) change the configuration as written: applied again once it is resolved.
  const changes = configurationChanges(before, JSON.parse(JSON.stringify(manager.v3.service)));
  manager.configurationExtensions.push(...changes.filter(({ path }) => !['initialServerlessConfig', 'serviceObject', 'service'].includes(path[0])));
  return manager;
}


/** Every place `after` differs from `before`, as a path and the new value (deepest objects first compared key by key). */
function configurationChanges(before: unknown, after: unknown, path: string[] = []): Array<{ path: string[]; value: unknown }> {
  const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (!isObject(before) || !isObject(after)) return path.length === 0 ? [] : [{ path, value: after }];
  return Object.keys(after).flatMap((key) => configurationChanges(before[key], after[key], [...path, key]));
}

/** Loads one plugin module and constructs it (a class) or calls it (a factory). */
export async function addPlugin(manager: PluginManager, spec: PluginSpec): Promise<void> {
  let exported: unknown;
  const { serveV3Modules } = require('./v3-modules') as typeof import('./v3-modules');
  serveV3Modules();
  try {
    exported = await importModule(spec.file);
  } catch (error) {
    throw new PluginError(`Plugin "${spec.name}" cannot be loaded: ${(error as Error).message}`);
  }
  await addPluginInstance(manager, spec, exported);
}

/** Constructs (a class) or calls (a factory) what a plugin module exports, and takes what it declares. */
export async function addPluginInstance(manager: PluginManager, spec: PluginSpec, exported: unknown): Promise<void> {
  const plugin: LoadedPlugin = { name: spec.name, file: spec.file, instance: undefined };
  manager.plugins.push(plugin);
  const { createServerless } = require('./v3') as typeof import('./v3');
  manager.v3 ??= createServerless(manager);
  const api = manager.apiFor(plugin, manager.v3);
  const utils = manager.utils(plugin);
  try {
    if (isClass(exported)) {
      plugin.instance = new exported(api, manager.options, utils);
      manager.declare(plugin, plugin.instance as object);
    } else if (typeof exported === 'function') {
      const declared = await (exported as (...args: unknown[]) => unknown)(api, manager.options, utils);
      plugin.instance = declared ?? api;
      manager.declare(plugin, declared as object);
    } else if (exported !== null && typeof exported === 'object' && ('hooks' in exported || 'commands' in exported || 'configurationVariablesSources' in exported)) {
      plugin.instance = exported;
      manager.declare(plugin, exported as PluginDeclarations);
    } else {
      throw new PluginError(`Plugin "${spec.name}" (${relative(process.cwd(), spec.file) || spec.file}) exports neither a class nor a function, got ${typeof exported}`);
    }
    const asyncInit = (plugin.instance as { asyncInit?: () => unknown }).asyncInit;
    if (typeof asyncInit === 'function') await asyncInit.call(plugin.instance);
  } catch (error) {
    throw pluginFailure(plugin, error, 'while loading');
  }
}

function isClass(value: unknown): value is new (...args: unknown[]) => unknown {
  if (typeof value !== 'function') return false;
  if (/^class[\s{]/.test(Function.prototype.toString.call(value))) return true;
  // A constructor function written before classes: methods on its prototype.
  const prototype = (value as { prototype?: object }).prototype;
  return prototype !== undefined && Object.getOwnPropertyNames(prototype).length > 1;
}

/**
 * The service's configuration, resolved with the plugins' variable sources and validated with
 * the schema they extended (their top-level keys, function properties, `custom` keys, event types).
 */
export async function loadServiceWithPlugins(manager: PluginManager, cwd: string, options: Record<string, unknown>): Promise<LoadedService> {
  const { loadServiceConfig } = require('../service/load') as typeof import('../service/load');
  // `${construct:…}` is known to service files that can add constructs (fw.ts, fw.js).
  const withConstructs = /\.[cm]?[jt]s$/.test(manager.serviceFile);
  const addSource = withConstructs && sources.construct === undefined && !manager.variableSources.has('construct');
  if (addSource) sources.construct = constructSource;
  try {
    // The file as the plugin loader read it, once (a copy: a later load in the same process, fw dev's next round, reads it again if it changed).
    const source = manager.source && { file: manager.source.file, raw: copyConfig(manager.source.raw) };
    if (manager.empty && !withConstructs) return await loadServiceConfig(cwd, options, { source });
    const { eventSchemas: pluginEvents = {}, extend = {}, functionStatements } = manager.schemaExtensions();
    if (withConstructs) extend.topLevel = { addConstructs: any, ...extend.topLevel };
    // Resolved into the object plugins were handed in their constructors, as v3 resolves that very
    // object; once only: a later load in the process (fw dev's next round) gets an object of its own,
    // so nothing built from the last round's configuration (its template) changes under it.
    const into = manager.v3 && !manager.state.resolved ? manager.raw : undefined;
    const answers = manager.answers;
    manager.answers = undefined;
    return await manager.withVariableSources(() => loadServiceConfig(cwd, options, { validation: { eventSchemas: pluginEvents, extend, functionStatements }, source, into, answers }));
  } finally {
    if (addSource) delete sources.construct;
  }
}

export interface ResolvedService {
  config: Record<string, unknown>;
  stage: string;
  region: string;
}

/**
 * Once variables are resolved: plugin configuration checked, `serverless.service` refilled,
 * then `initialize`. Every command that runs hooks starts here.
 */
export async function initialize(manager: PluginManager, loaded: ResolvedService): Promise<void> {
  if (manager.empty) {
    Object.assign(manager.state, { config: loaded.config, resolved: true, stage: loaded.stage, region: loaded.region });
    return;
  }
  // As Serverless v3 does: plugins read the stage and region from the options even when none was passed.
  manager.options.stage ??= loaded.stage;
  manager.options.region ??= loaded.region;
  const { setPath } = require('./v3') as typeof import('./v3');
  for (const { path, value } of manager.configurationExtensions) setPath(loaded.config, path, value);
  Object.assign(manager.state, { config: loaded.config, resolved: true, stage: loaded.stage, region: loaded.region });
  manager.v3?.resetService();
  const before = JSON.stringify(manager.v3?.v3Service ?? {});
  await manager.runEvent('initialize');
  // What `initialize` hooks set on `serverless.service` (lift adds its IAM statements there) is configuration.
  applyServiceChanges(manager, loaded.config, before);
}

/** Carries changes hooks made to `serverless.service` (outside functions and resources, taken on their own) into the configuration. */
function applyServiceChanges(manager: PluginManager, config: Record<string, unknown>, before: string): void {
  const v3Service = manager.v3?.v3Service;
  if (!v3Service) return;
  const { setPath } = require('./v3') as typeof import('./v3');
  const changes = configurationChanges(JSON.parse(before), JSON.parse(JSON.stringify(v3Service)));
  for (const { path, value } of changes) {
    if (['initialServerlessConfig', 'serviceObject', 'service', 'functions', 'resources'].includes(path[0])) continue;
    if (path[0] === 'provider' && (path[1] === 'stage' || path[1] === 'region')) continue;
    setPath(config, path, value);
  }
}

/** `fw package`, up to the construct tree: `initialize`, then `package:initialize` (the config may still change). */
export async function startPackage(manager: PluginManager, loaded: ResolvedService): Promise<void> {
  await initialize(manager, loaded);
  if (manager.empty) return;
  await manager.run('package:cleanup');
  await manager.run('package:initialize');
  await manager.run('package:setupProviderConfiguration');
  addFunctionsFromPlugins(manager, loaded.config);
}

/** v3 plugins that add functions or resources do it on `serverless.service`; fw builds them too. */
function addFunctionsFromPlugins(manager: PluginManager, config: Record<string, unknown>): void {
  const v3Service = manager.v3?.v3Service;
  if (!v3Service) return;
  // `service.resources` replaced or created by a plugin (a warmer's role) is the service's `resources`.
  if (v3Service.resources !== undefined && v3Service.resources !== config.resources) config.resources = v3Service.resources;
  const added = v3Service.functions;
  const functions = (config.functions ??= {}) as Record<string, unknown>;
  for (const [key, fn] of Object.entries(added)) {
    if (key in functions) continue;
    const { name, events, ...rest } = fn;
    functions[key] = { ...rest, ...(name !== `${manager.v3!.v3Service!.service}-${manager.state.stage}-${key}` ? { name } : {}), events };
  }
}

/**
 * The construct tree exists: constructs from the service file's `addConstructs`, then
 * `package:compileFunctions` and `package:compileEvents`, where plugins find, add and change constructs.
 */
export async function compile(manager: PluginManager, service: Service, config: Record<string, unknown>): Promise<PluginArtifacts> {
  const addConstructs = config.addConstructs;
  if (typeof addConstructs === 'function') {
    try {
      await addConstructs(service, { stage: service.stage, region: service.region });
    } catch (error) {
      const { ConfigError } = require('../errors') as typeof import('../errors');
      if (error instanceof ConfigError) throw error;
      throw new ConfigError(`addConstructs in the service file failed: ${(error as Error).message}`);
    }
  }
  manager.state.service = service;
  if (manager.empty) return { functions: {} };
  const configured = artifactsOf(manager);
  // fw zips the code after the compile steps; plugins that build code before it and clean up after it
  // (bundlers, warmers) get `before:` here and the step itself and `after:` once the zips exist.
  await manager.runEvent('before:package:createDeploymentArtifacts');
  await manager.run('package:compileLayers');
  await manager.run('package:compileFunctions');
  await manager.run('package:compileEvents');
  // `service.resources` extended during the compile steps (lift merges its constructs' resources there) is synthesized with the rest.
  const resources = manager.v3?.v3Service?.resources;
  if (resources !== undefined && resources !== config.resources) config.resources = resources;
  return madeByPlugins(configured, artifactsOf(manager));
}

/**
 * Zips v3 plugins made while packaging: a bundler (serverless-esbuild, serverless-webpack) bundles and
 * zips each function in `before:package:createDeploymentArtifacts` and sets its `package.artifact` (or
 * the service's) to the zip; v3 then packages nothing itself for them and deploys those zips. The paths
 * are as the plugin wrote them (relative to the service folder, or absolute).
 */
export interface PluginArtifacts {
  service?: string;
  functions: Record<string, string>;
}

interface ArtifactSettings {
  service?: unknown;
  functions: Record<string, unknown>;
}

/** `package.artifact` of the service and of each function, where v3 plugins read and write them. */
function artifactsOf(manager: PluginManager): ArtifactSettings {
  const v3Service = manager.v3?.v3Service;
  if (!v3Service) return { functions: {} };
  const artifactIn = (value: unknown) => (value !== null && typeof value === 'object' ? (value as { artifact?: unknown }).artifact : undefined);
  return {
    service: artifactIn(v3Service.package),
    functions: Object.fromEntries(Object.entries(v3Service.functions).map(([key, fn]) => [key, artifactIn(fn?.package)])),
  };
}

function madeByPlugins(before: ArtifactSettings, after: ArtifactSettings): PluginArtifacts {
  const changed = (was: unknown, now: unknown): now is string => typeof now === 'string' && now !== '' && now !== was;
  const result: PluginArtifacts = { functions: {} };
  if (changed(before.service, after.service)) result.service = after.service;
  for (const [key, artifact] of Object.entries(after.functions)) {
    if (changed(before.functions[key], artifact)) result.functions[key] = artifact;
  }
  return result;
}

/**
 * The template exists: edits v3 plugins made during the compile steps, then `package:finalize`.
 * `folder` is where `.serverless/` is being built; the names of the files plugins wrote into it are returned.
 */
export async function finalize(manager: PluginManager, template: Template, folder?: string): Promise<string[]> {
  if (manager.state.service) resolveConstructReferences(template, manager.state.service);
  if (manager.empty) return [];
  const written = new Set<string>();
  if (folder) manager.packageFolder = { from: join(manager.serviceDir, '.serverless'), to: folder, written };
  try {
    await finalizeSteps(manager, template);
  } finally {
    manager.packageFolder = undefined;
  }
  return [...written].sort();
}

async function finalizeSteps(manager: PluginManager, template: Template): Promise<void> {
  // Plugins change the template in place: they get one in which no object appears twice or is
  // shared with the configuration (structuredClone would keep such sharing; a JSON copy does not).
  Object.assign(template, JSON.parse(JSON.stringify(template)));
  manager.applyPreviewChanges(template);
  // The outputs so far (fw's, `resources.Outputs`, and the compile steps' plugins', exported above).
  const outputsAtFinalize = new Set(Object.keys(template.Outputs ?? {}));
  manager.state.template = template;
  showArtifacts(manager);
  await manager.runEvent('package:createDeploymentArtifacts');
  await manager.runEvent('after:package:createDeploymentArtifacts');
  // v3 exports the outputs, merges `resources` and writes the state inside package:finalize; plugins hook those steps too.
  await manager.runEvent('before:package:finalize');
  await manager.run('aws:package:finalize:addExportNameForOutputs', () => manager.exportAddedOutputs(template, outputsAtFinalize));
  await manager.run('aws:package:finalize:mergeCustomProviderResources');
  await manager.run('aws:package:finalize:saveServiceState');
  await manager.runEvent('package:finalize');
  await manager.runEvent('after:package:finalize');
}

/** v3 sets `package.artifact` of the service (or each function) to its zip once packaged; plugins that add files to the zips read it. */
function showArtifacts(manager: PluginManager): void {
  const artifacts = manager.state.service?.artifacts;
  const v3Service = manager.v3?.v3Service;
  if (!v3Service) return;
  // Where this deployment's files go in the bucket (serverless-plugin-split-stacks points its nested stacks there).
  if (manager.state.service) v3Service.package.artifactDirectoryName ??= manager.state.service.artifactDirectory;
  if (!artifacts) return;
  if (artifacts.service) v3Service.package.artifact ??= artifacts.service.path;
  for (const [key, artifact] of Object.entries(artifacts.functions)) {
    const fn = v3Service.functions[key];
    if (fn && artifact !== artifacts.service) fn.package = { ...(fn.package as object | undefined), artifact: artifact.path };
  }
}

const attached = new WeakMap<object, PluginManager>();

/** Keeps a command's plugins with what it produced (a packaged service), for the steps after it (deploy). */
export function attachPlugins<T extends object>(value: T, manager: PluginManager): T {
  attached.set(value, manager);
  return value;
}

export function pluginsOf(value: object): PluginManager | undefined {
  return attached.get(value);
}
