import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';
import { loadDotenv } from '../variables/dotenv';
import { resolveAvailableInPlace, resolveVariables, type AwsAccess, type ResolveContext } from '../variables';
import { hasVariables } from '../variables/parse';
import type { ServiceFile } from '../config/find';
import { checkFrameworkVersion } from '../config/framework-version';
import { loadSource, type LoadedSource } from '../config/load';
import { applyValidationMode, validateConfig, validationMode, type SchemaExtensions } from '../config/schema';
import { mergeListSections } from '../config/merged-lists';
import { coerceAsV3Validator } from '../config/v3-coercion';
import { ConfigError, show } from '../errors';
import type { FunctionConfig, ServiceConfig } from '../constructs/model';
import * as naming from '../synth/naming';
import { checkStackName } from '../synth/name-checks';

export interface LoadedService {
  serviceFile: string;
  serviceDir: string;
  serviceName: string;
  stage: string;
  region: string;
  stackName: string;
  config: ServiceConfig & { provider: NonNullable<ServiceConfig['provider']> };
}

export interface LoadOptions {
  /** Schema additions from plugins; `false` when the caller validates later. */
  validation?: SchemaExtensions | false;
  /** The service file as the plugin loader read it: not read again. */
  source?: LoadedSource;
  /** The object the resolved configuration is put into (the one v3 plugins were handed), else a new one. */
  into?: Record<string, unknown>;
  /** The sources' answers from `resolveBeforePlugins`, reused. */
  answers?: ResolveContext['answers'];
}

/** Service file → resolved, validated configuration, with the stage and region every later step uses. */
export async function loadServiceConfig(cwd: string, options: Record<string, unknown>, load: LoadOptions = {}): Promise<LoadedService> {
  // Events are checked strictly when their constructs are built (a one-line error naming the field);
  // checking them here as well would print a vaguer warning for the same mistake first.
  const validation = load.validation ?? {};
  const { file, config: resolved, stage, region } = await loadService({ cwd, options, validation, source: load.source, into: load.into, answers: load.answers });
  const config = resolved as unknown as ServiceConfig;
  const serviceName = typeof config.service === 'object' && config.service !== null ? config.service.name : config.service;
  if (typeof serviceName !== 'string' || !/^[a-zA-Z][0-9a-zA-Z-]*$/.test(serviceName)) {
    throw new ConfigError(
      `Invalid configuration in 'service': expected a name of letters, digits and dashes starting with a letter, got ${show(serviceName)}`,
    );
  }
  config.provider ??= { name: 'aws' };
  const stackName = typeof config.provider.stackName === 'string' ? config.provider.stackName : naming.stackName(serviceName, stage);
  checkStackName(stackName, typeof config.provider.stackName === 'string');
  return {
    serviceFile: file.path,
    serviceDir: file.dir,
    serviceName,
    stage,
    region,
    stackName,
    config: config as LoadedService['config'],
  };
}

/** A function of the service by its key, with the name it is deployed under; an unknown key names the known ones. */
export function functionOf(loaded: LoadedService, key: string): { fn: FunctionConfig; physicalName: string } {
  const fn = loaded.config.functions?.[key];
  if (!fn) {
    const known = Object.keys(loaded.config.functions ?? {});
    throw new ConfigError(`No function "${key}" in ${loaded.serviceName} (--function); the service has: ${known.join(', ') || 'no functions'}`);
  }
  return { fn, physicalName: fn.name ?? naming.defaultFunctionName(loaded.serviceName, loaded.stage, key) };
}

export interface LoadServiceOptions {
  cwd: string;
  /** CLI options: stage, region, config, param, … */
  options?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  /** Default: a new id (one per CLI run). */
  instanceId?: string;
  aws?: AwsAccess;
  /** Where validation warnings go; default stderr. */
  warn?: (line: string) => void;
  /** Schema extensions (event schemas, plugin additions); `false` skips validation (the caller validates later). */
  validation?: SchemaExtensions | false;
  /** The service file already found and loaded (by the plugin loader): not read again. */
  source?: LoadedSource;
  /**
   * Where the resolved configuration goes: its contents are replaced in place (nested objects
   * kept where both sides have one), as v3 resolves the very object its plugins hold.
   */
  into?: Record<string, unknown>;
  /** The sources' answers of an earlier resolution in this run (`resolveBeforePlugins`), reused. */
  answers?: ResolveContext['answers'];
}

/** The service file's configuration resolved and validated, with the stage and region. */
export interface ResolvedConfig {
  file: ServiceFile;
  /** The configuration as written. */
  raw: Record<string, unknown>;
  /** Every variable resolved. */
  config: Record<string, unknown>;
  stage: string;
  region: string;
}

/**
 * find → load → frameworkVersion → variables → validation: the one way every
 * command turns the service folder into a resolved configuration.
 */
export async function loadService({ cwd, options = {}, env = process.env, instanceId = randomUUID(), aws, warn, validation = {}, source, into, answers }: LoadServiceOptions): Promise<ResolvedConfig> {
  const { file, raw } = source ?? (await loadSource(cwd, options));
  const shown = relative(cwd, file.path) || file.path;
  // A literal frameworkVersion is checked before any variable (and any AWS call) is resolved.
  const literalVersion = typeof raw.frameworkVersion !== 'string' || !hasVariables(raw.frameworkVersion);
  if (literalVersion) checkFrameworkVersion(raw.frameworkVersion, shown);

  const resolved = await resolveVariables(raw, { serviceDir: file.dir, options, env: withDotenv(raw, file.dir, options, env), instanceId, aws, answers });
  const config = into ? replaceContents(into, resolved) : resolved;
  if (!literalVersion) checkFrameworkVersion(config.frameworkVersion, shown);
  mergeListSections(config);
  coerceAsV3Validator(config, { functionStatements: validation === false ? [] : validation.functionStatements });

  if (validation !== false) {
    const mode = validationMode(config.configValidationMode, shown);
    applyValidationMode(validateConfig(config, { mode, ...validation }), mode, warn ?? ((line) => process.stderr.write(`${line}\n`)));
  }
  const provider = (config.provider !== null && typeof config.provider === 'object' ? config.provider : {}) as Record<string, unknown>;
  const stage = stringOption(options.stage) ?? stringOption(provider.stage) ?? 'dev';
  const region = stringOption(options.region) ?? stringOption(provider.region) ?? 'us-east-1';
  return { file, raw, config, stage, region };
}

/** `env` with the service's `.env` files under it, when `useDotenv: true`. */
function withDotenv(raw: Record<string, unknown>, serviceDir: string, options: Record<string, unknown>, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (raw.useDotenv !== true) return env;
  return { ...loadDotenv(serviceDir, earlyStage(raw, options), env).values, ...env };
}

/** The sources Serverless v3 resolves before it constructs plugins (`param`, the AWS sources and the plugins' own come later). */
const BEFORE_PLUGINS = ['env', 'file', 'opt', 'self', 'sls', 'strToBool'];

/**
 * The configuration as v3 plugins find it in their constructors (`serverless.configurationInput`,
 * `serverless.service`): `raw` itself, with the variables of the sources v3 resolves before
 * loading plugins; the rest stays as written until the full resolution, which starts again from
 * the file as written.
 */
export async function resolveBeforePlugins(raw: Record<string, unknown>, serviceDir: string, options: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): Promise<NonNullable<ResolveContext['answers']>> {
  const answers: NonNullable<ResolveContext['answers']> = new Map();
  await resolveAvailableInPlace(raw, { serviceDir, options, env: withDotenv(raw, serviceDir, options, env), instanceId: randomUUID(), answers }, BEFORE_PLUGINS);
  return answers;
}

/** `target` made equal to `source`, keeping `target`'s objects and lists where `source` has one at the same place. */
function replaceContents<T extends Record<string, unknown>>(target: Record<string, unknown>, source: T): T {
  const isPlain = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype);
  const fill = (into: Record<string, unknown>, from: Record<string, unknown>) => {
    if (Array.isArray(into)) into.length = (from as unknown as unknown[]).length;
    else for (const key of Object.keys(into)) if (!Object.hasOwn(from, key)) delete into[key];
    for (const [key, value] of Object.entries(from)) {
      const current = into[key];
      if (isPlain(current) && isPlain(value) && Array.isArray(current) === Array.isArray(value)) fill(current, value);
      else into[key] = value;
    }
  };
  fill(target, source);
  return target as T;
}

/** The stage before variables are resolved (for `.env.{stage}`): --stage, or a literal provider.stage, or "dev". */
function earlyStage(raw: Record<string, unknown>, options: Record<string, unknown>): string {
  const provider = raw.provider as { stage?: unknown } | undefined;
  const literal = typeof provider?.stage === 'string' && !hasVariables(provider.stage) ? provider.stage : undefined;
  return stringOption(options.stage) ?? literal ?? 'dev';
}

function stringOption(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}
