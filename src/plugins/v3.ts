import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import * as naming from '../synth/naming';
import type { Template } from '../synth/template';
import { fromJsonSchema, propertiesOf } from './json-schema';
import type { PluginManager } from './manager';
import { awsRequest, defaultAwsTarget } from './request';
import { v3Naming } from './v3-naming';

/**
 * The `serverless` object a Serverless Framework v3 plugin is constructed with, for the common
 * cases: `service` (the configuration, with `getAllFunctions()`, `getFunction()`, …, and
 * `provider.compiledCloudFormationTemplate`), `getProvider('aws')` (`naming`, `request`),
 * `configSchemaHandler`, `classes.Error`, `cli.log`, `extendConfiguration`.
 */

/** Serverless' own error class: a message for the user. */
export class ServerlessError extends Error {
  constructor(message: string, readonly code?: string) {
    super(message);
    this.name = 'ServerlessError';
  }
}

/** The version v3 plugins are told they run in (several check `serverless.version`). */
export const V3_VERSION = '3.40.0';

type Config = Record<string, unknown>;
type FunctionObject = Record<string, unknown> & { name: string; events: unknown[] };

/** `serverless.service`: the configuration as v3 shapes it. */
export class V3Service {
  [key: string]: unknown;
  service!: string;
  serviceObject!: { name: string };
  provider!: Record<string, unknown> & { compiledCloudFormationTemplate: Template; stage: string; region: string; name: string };
  functions: Record<string, FunctionObject> = {};
  custom: Record<string, unknown> = {};
  layers: Record<string, Record<string, unknown>> = {};
  resources: unknown;
  package: Record<string, unknown> = {};
  plugins: unknown;

  constructor(manager: PluginManager, config: Config, stage: string, region: string) {
    // A plugin may replace `service.provider` with a copy (Lift does, with its tokens resolved):
    // the copy gets the compiled template too, as v3's copy would carry it.
    let provider = this.provider;
    Object.defineProperty(this, 'provider', {
      enumerable: true,
      configurable: true,
      get: () => provider,
      set: (value: V3Service['provider']) => (provider = withCompiledTemplate(manager, value)),
    });
    this.refill(config, stage, region);
  }

  /** Refills every field from `config` (the raw one while plugins load, the resolved one after). */
  refill(config: Config, stage: string, region: string): void {
    for (const [key, value] of Object.entries(config)) {
      if (!['functions', 'provider', 'service', 'custom', 'layers', 'package'].includes(key)) this[key] = value;
    }
    const name = typeof config.service === 'object' && config.service !== null ? String((config.service as { name: unknown }).name) : String(config.service);
    this.service = name;
    this.serviceObject = { name };
    this.custom = (config.custom ?? {}) as Record<string, unknown>;
    this.layers = (config.layers ?? {}) as Record<string, Record<string, unknown>>;
    this.package = (config.package ?? {}) as Record<string, unknown>;
    this.initialServerlessConfig = config;
    const provider = { ...((config.provider ?? {}) as Record<string, unknown>), stage, region } as V3Service['provider'];
    provider.name ??= 'aws';
    this.provider = provider;
    // Each function as v3 completes it: the deployed name and an events list.
    const functions = (config.functions ?? {}) as Record<string, Record<string, unknown> | null>;
    this.functions = Object.fromEntries(
      Object.entries(functions).map(([key, fn]) => [
        key,
        { ...(fn ?? {}), name: typeof fn?.name === 'string' ? fn.name : naming.defaultFunctionName(name, stage, key), events: Array.isArray(fn?.events) ? fn.events : [] },
      ]),
    );
  }

  getServiceName(): string {
    return this.service;
  }
  getServiceObject(): { name: string } {
    return this.serviceObject;
  }
  /** v3 fills in each function's deployed name (`<service>-<stage>-<key>`) where the config has none. */
  setFunctionNames(options: { stage?: string } = {}): void {
    const stage = options.stage ?? this.provider.stage;
    for (const [key, fn] of Object.entries(this.functions)) {
      if (fn && typeof fn === 'object') fn.name ??= naming.defaultFunctionName(this.service, stage, key);
    }
  }
  getAllFunctions(): string[] {
    return Object.keys(this.functions);
  }
  getAllFunctionsNames(): string[] {
    return Object.values(this.functions).map((fn) => fn.name);
  }
  getFunction(name: string): FunctionObject {
    const fn = this.functions[name];
    if (!fn) throw new ServerlessError(`Function "${name}" doesn't exist in this Service`, 'FUNCTION_MISSING_IN_SERVICE');
    return fn;
  }
  getAllEventsInFunction(name: string): unknown[] {
    return this.getFunction(name).events;
  }
  getAllLayers(): string[] {
    return Object.keys(this.layers);
  }
  getLayer(name: string): Record<string, unknown> {
    const layer = this.layers[name];
    if (!layer) throw new ServerlessError(`Layer "${name}" doesn't exist in this Service`, 'LAYER_MISSING_IN_SERVICE');
    return layer;
  }
  getEventInFunction(event: string, fn: string): unknown {
    return this.getAllEventsInFunction(fn).find((entry) => entry !== null && typeof entry === 'object' && event in (entry as object));
  }
}

/**
 * `provider` with `compiledCloudFormationTemplate`, the template being built: a template the object
 * brings as its own value (a plugin's copy of the provider) replaces it.
 */
function withCompiledTemplate(manager: PluginManager, provider: V3Service['provider']): V3Service['provider'] {
  if (provider === null || typeof provider !== 'object') return provider;
  const own = Object.getOwnPropertyDescriptor(provider, 'compiledCloudFormationTemplate');
  if (own && !('value' in own)) return provider;
  if (own?.value !== null && typeof own?.value === 'object') manager.replaceTemplate(own.value as Template);
  Object.defineProperty(provider, 'compiledCloudFormationTemplate', {
    enumerable: false,
    configurable: true,
    get: () => manager.v3Template(),
    set: (template: Template) => manager.replaceTemplate(template),
  });
  return provider;
}

/** The shared `serverless` object (each plugin gets it through its own API object). */
export function createServerless(manager: PluginManager) {
  let v3Service: V3Service | undefined;
  const service = () => (v3Service ??= new V3Service(manager, manager.raw, stageOf(manager), regionOf(manager)));
  const provider = {
    naming: v3Naming({
      service: () => service().service,
      stage: () => service().provider.stage,
      region: () => service().provider.region,
      stackName: () => (typeof service().provider.stackName === 'string' ? (service().provider.stackName as string) : undefined),
      albTargetGroupPrefix: () => String((service().provider.alb as { targetGroupPrefix?: string } | undefined)?.targetGroupPrefix ?? ''),
    }),
    getStage: () => service().provider.stage,
    getRegion: () => service().provider.region,
    getServerlessDeploymentBucketName: async () => (service().provider.deploymentBucket as string | undefined) ?? undefined,
    request: async (awsService: string, method: string, params: Record<string, unknown> = {}, options: { region?: string } = {}) => {
      const target = manager.awsTarget ? await manager.awsTarget() : await defaultAwsTarget(manager.options, service().provider);
      return awsRequest({ ...target, region: options.region ?? target.region }, awsService, method, params);
    },
    getAccountId: async () => ((await provider.request('STS', 'getCallerIdentity')) as { Account: string }).Account,
    getCredentials: () => ({ region: service().provider.region }),
    getRuntime: (runtime?: string) => runtime ?? (service().provider.runtime as string | undefined) ?? 'nodejs20.x',
    getApiGatewayPredefinedResources: () => {
      const apiGateway = (service().provider.apiGateway ?? {}) as { restApiResources?: unknown };
      const resources = apiGateway.restApiResources;
      if (!resources) return [];
      if (Array.isArray(resources)) return resources;
      return Object.entries(resources as Record<string, unknown>).map(([path, resourceId]) => ({ path, resourceId }));
    },
    getApiGatewayRestApiId: () => (service().provider.apiGateway as { restApiId?: unknown } | undefined)?.restApiId ?? { Ref: 'ApiGatewayRestApi' },
    getApiGatewayRestApiRootResourceId: () =>
      (service().provider.apiGateway as { restApiRootResourceId?: unknown } | undefined)?.restApiRootResourceId ?? { 'Fn::GetAtt': ['ApiGatewayRestApi', 'RootResourceId'] },
    getLogRetentionInDays: () => service().provider.logRetentionInDays,
    getDeploymentPrefix: () => ((service().provider.deploymentPrefix as string | undefined) ?? 'serverless'),
    getAlbTargetGroupPrefix: () => String((service().provider.alb as { targetGroupPrefix?: string } | undefined)?.targetGroupPrefix ?? ''),
    isExistingRoleProvided: (role: unknown) => role !== undefined && role !== null,
    options: manager.options,
    hooks: {},
    get serverless() {
      return serverless;
    },
  };
  const schema = manager.schema;
  const deprecations = new Set<string>();
  const spawn = async (command: string | string[]) => {
    const path = Array.isArray(command) ? command : command.split(':');
    let definition = manager.commandDefinition(path[0]);
    for (const name of path.slice(1)) definition = definition?.commands?.[name];
    for (const step of definition?.lifecycleEvents ?? []) await manager.run(`${path.join(':')}:${step}`);
  };
  const serverless = {
    version: V3_VERSION,
    get service() {
      return service();
    },
    set service(value: V3Service) {
      v3Service = value;
    },
    serviceDir: manager.serviceDir,
    config: { servicePath: manager.serviceDir, serviceDir: manager.serviceDir },
    configurationFilename: manager.serviceFile,
    // v3 resolves the variables of this very object in place: in constructors it holds what v3
    // resolves before loading plugins, while plugin sources resolve it is still that (the
    // appsync source reads `appSync` from it), then the resolved values (serverless-step-functions).
    get configurationInput() {
      return manager.state.resolved ? manager.state.config : manager.raw;
    },
    set configurationInput(value: Record<string, unknown>) {
      const current = serverless.configurationInput;
      if (value !== current) Object.assign(current, value);
    },
    processedInput: { commands: manager.commandPath, options: manager.options },
    getVersion: () => V3_VERSION,
    /** v3 prints each deprecation once; fw prints it as a warning on stderr. */
    logDeprecation: (code: string, message: string) => {
      if (deprecations.has(code)) return;
      deprecations.add(code);
      process.stderr.write(`Deprecation warning: ${message}\n`);
    },
    isDashboardEnabled: false,
    /** Sections v3 prints after `info`/`deploy`; fw keeps them (its own output lists the stack's outputs). */
    serviceOutputs: new Map<string, unknown>(),
    servicePluginOutputs: new Map<string, unknown>(),
    addServiceOutputSection: (title: string, content: unknown) => serverless.serviceOutputs.set(title, content),
    variables: { options: manager.options, get service() { return service(); } },
    isStandaloneExecutable: false,
    /** As v3's: the packaging run's id (ApiGatewayDeployment<id>), once fw has one. */
    get instanceId() {
      return manager.state.service?.instanceId ?? 'fw';
    },
    providers: { aws: provider },
    getProvider: (name: string) => (name === 'aws' ? provider : undefined),
    setProvider: () => undefined,
    classes: { Error: ServerlessError },
    cli: { log: (message: string) => manager.write(`${message}\n`), consoleLog: (message: string) => manager.write(`${message}\n`) },
    utils: {
      readFileSync: (path: string) => {
        const text = readFileSync(path, 'utf8');
        return path.endsWith('.json') ? JSON.parse(text) : text;
      },
      writeFileSync: (path: string, contents: unknown) => {
        const target = inPackageFolder(manager, path);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, typeof contents === 'string' ? contents : JSON.stringify(contents, null, 2));
      },
      fileExistsSync: (path: string) => existsSync(path) && statSync(path).isFile(),
      dirExistsSync: (path: string) => existsSync(path) && statSync(path).isDirectory(),
      getVersion: () => V3_VERSION,
      readFile: async (path: string) => JSON.parse(readFileSync(path, 'utf8')),
      writeFile: async (path: string, contents: unknown) => serverless.utils.writeFileSync(path, contents),
      appendFileSync: (path: string, contents: string) => appendFileSync(path, contents),
      writeFileDir: (path: string) => mkdirSync(dirname(path), { recursive: true }),
      getTmpDirPath: () => mkdtempSync(join(tmpdir(), 'fw-plugin-')),
      generateShortId: (length = 6) => Math.random().toString(36).slice(2, 2 + length),
      isEventUsed: (functions: Record<string, { events?: unknown[] }>, type: string) =>
        Object.values(functions).some((fn) => (fn.events ?? []).some((event) => event !== null && typeof event === 'object' && type in event)),
    },
    configSchemaHandler: {
      defineTopLevelProperty: (name: string, json: Record<string, unknown>) => {
        schema.topLevel[name] = fromJsonSchema(json);
      },
      defineCustomProperties: (json: Record<string, unknown>) => Object.assign(schema.custom, propertiesOf(json)),
      defineFunctionProperties: (_provider: string, json: Record<string, unknown>) => {
        Object.assign(schema.function, propertiesOf(json));
        for (const [key, child] of Object.entries((json?.properties ?? {}) as Record<string, { $ref?: unknown }>)) {
          if (child?.$ref === '#/definitions/awsIamPolicyStatements') manager.functionStatements.add(key);
        }
      },
      defineFunctionEvent: (_provider: string, event: string, json: Record<string, unknown>) => manager.addV3EventType(event, json),
      defineFunctionEventProperties: () => undefined,
      defineProvider: () => undefined,
    },
    extendConfiguration: (path: string[], value: unknown) => {
      if (!Array.isArray(path) || path.length === 0) throw new ServerlessError('extendConfiguration: the configuration path must be a non-empty list of keys');
      manager.configurationExtensions.push({ path, value });
      setPath(manager.raw, path, value);
    },
    pluginManager: {
      /** Runs another command's steps (`warmup:addWarmers` is the sub-command addWarmers of warmup). */
      spawn,
      run: spawn,
      /** Adds a plugin class at run time (plugins that bundle others do), constructed as `plugins:` entries are. */
      addPlugin: async (Plugin: new (...args: unknown[]) => unknown) => {
        const { addPluginInstance } = require('./index') as typeof import('./index');
        await addPluginInstance(manager, { name: Plugin.name || 'plugin', file: manager.serviceFile }, Plugin);
      },
      // The plugins constructed so far (v3 lists the ones before the plugin asking, in its constructor).
      get plugins() {
        return manager.plugins.filter((plugin) => plugin.instance !== undefined).map((plugin) => plugin.instance);
      },
      getPlugins: () => manager.plugins.filter((plugin) => plugin.instance !== undefined).map((plugin) => plugin.instance),
      get hooks() {
        return manager.hooksByEvent();
      },
      get commands() {
        return Object.fromEntries(manager.commands.map(({ value }) => [value.name, value.definition]));
      },
      cliOptions: manager.options,
      cliCommands: manager.commandPath,
    },
    /** fw's own: refill `service` from the resolved configuration. */
    resetService: () => {
      v3Service = new V3Service(manager, manager.state.config, stageOf(manager), regionOf(manager));
    },
    /** fw's own: the v3 provider object, for the per-plugin views. */
    awsProvider: provider,
    get v3Service() {
      return v3Service;
    },
  };
  return serverless;
}

export type ServerlessV3 = ReturnType<typeof createServerless>;

function stageOf(manager: PluginManager): string {
  const provider = (manager.state.config.provider ?? manager.raw.provider ?? {}) as Record<string, unknown>;
  return String(manager.state.stage ?? manager.options.stage ?? (typeof provider.stage === 'string' ? provider.stage : 'dev'));
}

function regionOf(manager: PluginManager): string {
  const provider = (manager.state.config.provider ?? manager.raw.provider ?? {}) as Record<string, unknown>;
  return String(manager.state.region ?? manager.options.region ?? (typeof provider.region === 'string' ? provider.region : 'us-east-1'));
}

/** A path in the service's `.serverless/` while fw packages into a staging folder: the same path there (recorded, to be deployed). */
function inPackageFolder(manager: PluginManager, path: string): string {
  const folder = manager.packageFolder;
  if (!folder) return path;
  const inside = relative(folder.from, resolve(manager.serviceDir, path));
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return path;
  folder.written.add(inside.split(sep).join('/'));
  return join(folder.to, inside);
}

export function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let current = target;
  for (const key of path.slice(0, -1)) {
    if (key === '__proto__' || key === 'constructor') return;
    if (current[key] === null || typeof current[key] !== 'object') current[key] = {};
    current = current[key] as Record<string, unknown>;
  }
  current[path[path.length - 1]] = value;
}
