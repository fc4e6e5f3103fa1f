import { join } from 'node:path';
import type { PackagedService } from '../package/service';
import type { ArtifactInput } from '../package/artifacts';

/** Told how far the zips are: files written of all, zips finished of all. */
export type PackageProgressListener = NonNullable<ArtifactInput['onProgress']>;
import type { Template } from '../synth/template';
import { cwdOf, optionsOf, type ServiceRequest } from './request';

/** What `fw package` wrote to `.serverless/`. */
export interface PackageResult {
  service: string;
  stage: string;
  region: string;
  stackName: string;
  /** The folder written (`<service>/.serverless`). */
  outDir: string;
  /** The CloudFormation template of the stack. */
  template: Template;
  /** The template a first deploy creates the stack with (only the deployment bucket), when one is needed. */
  createTemplate?: Template;
  /** The files of outDir, in the order `fw package` lists them: templates, state file, then the artifacts. */
  files: string[];
  /** The code zips, with their absolute path. */
  artifacts: Array<{ name: string; path: string; size: number; sha256: string }>;
  /** @internal The packaged service, as deploy reads it. */
  packaged: PackagedService;
}

/**
 * `fw package` as a function: loads the service file, builds the template and the code
 * artifacts into `.serverless/` (or `outDir`, relative to `cwd`). Throws ConfigError (with the config `path`) for a mistake in
 * the service file.
 */
export async function packageService(request: ServiceRequest & { outDir?: string; onProgress?: PackageProgressListener } = {}): Promise<PackageResult> {
  const packaging = require('../package/service') as typeof import('../package/service');
  const packaged = await packaging.packageService({ cwd: cwdOf(request), options: optionsOf(request), outDir: request.outDir, onProgress: request.onProgress });
  return packageResult(packaged);
}

export function packageResult(packaged: PackagedService): PackageResult {
  const { UPDATE_TEMPLATE, CREATE_TEMPLATE, STATE_FILE } = require('../package/service') as typeof import('../package/service');
  const artifacts = packaged.state.artifacts.map(artifact => ({ ...artifact, path: join(packaged.outDir, artifact.name) }));
  return {
    service: packaged.serviceName,
    stage: packaged.stage,
    region: packaged.region,
    stackName: packaged.stackName,
    outDir: packaged.outDir,
    template: packaged.template,
    createTemplate: packaged.createTemplate,
    files: [UPDATE_TEMPLATE, ...(packaged.createTemplate ? [CREATE_TEMPLATE] : []), STATE_FILE, ...artifacts.map(artifact => artifact.name)],
    artifacts,
    packaged,
  };
}
