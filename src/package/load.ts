import { loadService, type LoadedSource } from '../config/service';
import type { SchemaExtensions } from '../config/schema';
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
