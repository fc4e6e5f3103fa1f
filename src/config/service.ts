import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';
import { loadDotenv } from '../variables/dotenv';
import { resolveVariables, type AwsAccess } from '../variables';
import { hasVariables } from '../variables/parse';
import { findServiceFile, type ServiceFile } from './find';
import { checkFrameworkVersion } from './framework-version';
import { loadRawConfig } from './load';
import { applyValidationMode, validateConfig, validationMode, type SchemaExtensions } from './schema';
import { mergeFunctionsList } from './functions-list';
import { coerceAsV3Validator } from './v3-coercion';

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

/** A service file and its configuration as written, loaded once and handed down the steps that follow. */
export interface LoadedSource {
  file: ServiceFile;
  raw: Record<string, unknown>;
}

/** Finds and loads the service file (`--config`, else the first of fw.yml, …, serverless.*). */
export async function loadSource(cwd: string, options: Record<string, unknown>): Promise<LoadedSource> {
  const file = findServiceFile(cwd, typeof options.config === 'string' ? options.config : undefined);
  return { file, raw: await loadRawConfig(file, { options }) };
}

/** A copy of a configuration's objects and lists (anything else, a function of an fw.ts among them, is shared). */
export function copyConfig<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyConfig) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyConfig(item)])) as T;
  }
  return value;
}

export interface LoadedService {
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
export async function loadService({ cwd, options = {}, env = process.env, instanceId = randomUUID(), aws, warn, validation = {}, source }: LoadServiceOptions): Promise<LoadedService> {
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
