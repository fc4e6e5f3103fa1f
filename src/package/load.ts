import { randomUUID } from 'node:crypto';
import { findServiceFile } from '../config/find';
import { loadRawConfig } from '../config/load';
import { ConfigError } from '../errors';
import type { ServiceConfig } from '../constructs/model';
import { resolveVariables } from '../variables';
import * as naming from '../synth/naming';

export interface LoadedService {
  serviceFile: string;
  serviceDir: string;
  serviceName: string;
  stage: string;
  region: string;
  stackName: string;
  config: ServiceConfig & { provider: NonNullable<ServiceConfig['provider']> };
}

/** Service file → resolved configuration, with the stage and region every later step uses. */
export async function loadServiceConfig(cwd: string, options: Record<string, unknown>): Promise<LoadedService> {
  const file = findServiceFile(cwd, options.config as string | undefined);
  const raw = await loadRawConfig(file);
  const config = (await resolveVariables(raw, {
    serviceDir: file.dir,
    options,
    env: process.env,
    instanceId: randomUUID(),
  })) as unknown as ServiceConfig;
  const serviceName = typeof config.service === 'object' && config.service !== null ? config.service.name : config.service;
  if (typeof serviceName !== 'string' || !/^[a-zA-Z][0-9a-zA-Z-]*$/.test(serviceName)) {
    throw new ConfigError(
      `Invalid configuration in 'service': expected a name of letters, digits and dashes starting with a letter, got ${JSON.stringify(serviceName)}`,
    );
  }
  config.provider ??= { name: 'aws' };
  const stage = String(options.stage ?? config.provider.stage ?? 'dev');
  const region = String(options.region ?? config.provider.region ?? 'us-east-1');
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
