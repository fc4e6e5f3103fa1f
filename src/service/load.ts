import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';
import { loadDotenv } from '../variables/dotenv';
import { resolveVariables, type AwsAccess } from '../variables';
import { hasVariables } from '../variables/parse';
import type { ServiceFile } from '../config/find';
import { checkFrameworkVersion } from '../config/framework-version';
import { loadSource, type LoadedSource } from '../config/load';
import { applyValidationMode, validateConfig, validationMode, type SchemaExtensions } from '../config/schema';
import { mergeFunctionsList } from '../config/functions-list';
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
}

/** Service file → resolved, validated configuration, with the stage and region every later step uses. */
export async function loadServiceConfig(cwd: string, options: Record<string, unknown>, load: LoadOptions = {}): Promise<LoadedService> {
  // Events are checked strictly when their constructs are built (a one-line error naming the field);
  // checking them here as well would print a vaguer warning for the same mistake first.
  const validation = load.validation ?? {};
  const { file, config: resolved, stage, region } = await loadService({ cwd, options, validation, source: load.source });
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
export async function loadService({ cwd, options = {}, env = process.env, instanceId = randomUUID(), aws, warn, validation = {}, source }: LoadServiceOptions): Promise<ResolvedConfig> {
  const { file, raw } = source ?? (await loadSource(cwd, options));
  const shown = relative(cwd, file.path) || file.path;
  // A literal frameworkVersion is checked before any variable (and any AWS call) is resolved.
  const literalVersion = typeof raw.frameworkVersion !== 'string' || !hasVariables(raw.frameworkVersion);
  if (literalVersion) checkFrameworkVersion(raw.frameworkVersion, shown);

  let environment = env;
  if (raw.useDotenv === true) {
    const dotenv = loadDotenv(file.dir, earlyStage(raw, options), env);
    environment = { ...dotenv.values, ...env };
  }
  const config = await resolveVariables(raw, { serviceDir: file.dir, options, env: environment, instanceId, aws });
  if (!literalVersion) checkFrameworkVersion(config.frameworkVersion, shown);
  mergeFunctionsList(config);
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

/** The stage before variables are resolved (for `.env.{stage}`): --stage, or a literal provider.stage, or "dev". */
function earlyStage(raw: Record<string, unknown>, options: Record<string, unknown>): string {
  const provider = raw.provider as { stage?: unknown } | undefined;
  const literal = typeof provider?.stage === 'string' && !hasVariables(provider.stage) ? provider.stage : undefined;
  return stringOption(options.stage) ?? literal ?? 'dev';
}

function stringOption(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}
