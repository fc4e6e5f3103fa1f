import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors';

/** Each service's stack outputs, by service name. */
export type StoredOutputs = Record<string, Record<string, string>>;

/** Where the outputs of the last deploy of a stage are kept, so one service can be deployed alone. */
export function outputStorePath(applicationDir: string, stage: string): string {
  return join(applicationDir, '.serverless', `compose-outputs-${stage}.json`);
}

export function readStoredOutputs(applicationDir: string, stage: string): StoredOutputs {
  const path = outputStorePath(applicationDir, stage);
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as StoredOutputs;
  } catch {
    throw new ConfigError(`Cannot read ${path}: it is not JSON (delete it and deploy the application again)`);
  }
}

/** Writes the outputs: the services given, the others as stored (a service set to undefined is dropped). */
export function storeOutputs(applicationDir: string, stage: string, changes: Record<string, Record<string, string> | undefined>): void {
  const outputs: StoredOutputs = { ...readStoredOutputs(applicationDir, stage) };
  for (const [service, serviceOutputs] of Object.entries(changes)) {
    if (serviceOutputs === undefined) delete outputs[service];
    else outputs[service] = serviceOutputs;
  }
  mkdirSync(join(applicationDir, '.serverless'), { recursive: true });
  writeFileSync(outputStorePath(applicationDir, stage), `${JSON.stringify(outputs, null, 2)}\n`);
}
