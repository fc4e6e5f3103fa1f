import { loadService } from '../config/service';
import type { SchemaExtensions, Schema } from '../config/schema';
import { ConfigError } from '../errors';
import type { ServiceConfig } from '../constructs/model';
import { eventTypes } from '../constructs/events/registry';
import * as naming from '../synth/naming';
import type { AwsAccess } from '../variables';

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
  /** Where `${cf:…}`, `${ssm:…}`, `${s3:…}` go (the local cloud with --local). */
  aws?: AwsAccess;
  /** Schema additions from plugins; `false` when the caller validates later. */
  validation?: SchemaExtensions | false;
}

/** Each event type's own schema, so a wrong field inside an event is reported with its path. */
export function eventSchemas(): Record<string, Schema> {
  const schemas: Record<string, Schema> = {};
  for (const [type, eventClass] of eventTypes()) {
    const schema = (eventClass as unknown as { schema?: Schema }).schema;
    if (schema) schemas[type] = schema;
  }
  return schemas;
}

/** Service file → resolved, validated configuration, with the stage and region every later step uses. */
export async function loadServiceConfig(cwd: string, options: Record<string, unknown>, load: LoadOptions = {}): Promise<LoadedService> {
  // Events are checked strictly when their constructs are built (a one-line error naming the field);
  // checking them here as well would print a vaguer warning for the same mistake first.
  const validation = load.validation === false ? false : { ...load.validation };
  const { file, config: resolved, stage, region } = await loadService({ cwd, options, aws: load.aws, validation });
  const config = resolved as unknown as ServiceConfig;
  const serviceName = typeof config.service === 'object' && config.service !== null ? config.service.name : config.service;
  if (typeof serviceName !== 'string' || !/^[a-zA-Z][0-9a-zA-Z-]*$/.test(serviceName)) {
    throw new ConfigError(
      `Invalid configuration in 'service': expected a name of letters, digits and dashes starting with a letter, got ${JSON.stringify(serviceName)}`,
    );
  }
  config.provider ??= { name: 'aws' };
  return {
    serviceFile: file.path,
    serviceDir: file.dir,
    serviceName,
    stage,
    region,
    stackName: typeof config.provider.stackName === 'string' ? config.provider.stackName : naming.stackName(serviceName, stage),
    config: config as LoadedService['config'],
  };
}
