import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Service } from '../constructs/service';
import type { ServiceConfig } from '../constructs/model';
import { createStackTemplate, synthesize } from '../synth/synthesize';
import type { Template } from '../synth/template';
import { version } from '../version';
import { buildArtifacts, type Artifact, type Artifacts } from './artifacts';
import { loadServiceConfig, type LoadedService } from './load';

export const OUTPUT_FOLDER = '.serverless';
export const UPDATE_TEMPLATE = 'cloudformation-template-update-stack.json';
export const CREATE_TEMPLATE = 'cloudformation-template-create-stack.json';
export const STATE_FILE = 'serverless-state.json';

export interface PackageRequest {
  cwd: string;
  /** CLI options (`stage`, `region`, `config`, `param`, …). */
  options: Record<string, unknown>;
  /** Fixed clock, for reproducible tests; default now. */
  now?: Date;
}

/** What deploy needs to know about a packaged service (also written as the state file). */
export interface PackageState {
  fw: string;
  service: string;
  stage: string;
  region: string;
  stackName: string;
  /** `serverless/{service}/{stage}/{timestamp}-{iso}`: this deployment's folder in the bucket. */
  artifactDirectory: string;
  deploymentBucket?: string;
  templateSha256: string;
  artifacts: Array<{ name: string; sha256: string; size: number }>;
}

export interface PackagedService extends LoadedService {
  outDir: string;
  template: Template;
  createTemplate?: Template;
  artifacts: Artifacts;
  state: PackageState;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * `fw package`: load and resolve the service file, build the construct tree
 * (where bad config is caught, before any zip is built), build the artifacts,
 * synthesize, and replace `.serverless/` in one step so a failure never leaves it half-written.
 */
export async function packageService(request: PackageRequest): Promise<PackagedService> {
  const loaded = await loadServiceConfig(request.cwd, request.options);
  const { config, stage, region, serviceDir, serviceFile } = loaded;
  const now = request.now ?? new Date();
  const prefix = config.provider.deploymentPrefix ?? 'serverless';
  const service = new Service({
    config: config as ServiceConfig,
    stage,
    region,
    artifactDirectory: `${prefix}/${loaded.serviceName}/${stage}/${now.getTime()}-${now.toISOString()}`,
    instanceId: String(now.getTime()),
  });

  const outDir = join(serviceDir, OUTPUT_FOLDER);
  const staging = join(serviceDir, `${OUTPUT_FOLDER}.tmp-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const artifacts = await buildArtifacts({
      serviceDir,
      serviceName: loaded.serviceName,
      serviceFile,
      outDir: staging,
      package: config.package as never,
      functions: Object.entries(config.functions ?? {}).map(([key, fn]) => ({
        key,
        handler: fn.handler,
        runtime: fn.runtime ?? config.provider.runtime ?? 'nodejs14.x',
        image: fn.image,
        package: fn.package as never,
      })),
      layers: config.layers as never,
      build: config.build as never,
    });
    Object.assign(service.artifacts, artifacts);
    const template = synthesize(service);
    const createTemplate = createStackTemplate(template, service);
    const templateText = JSON.stringify(template, null, 2);
    writeFileSync(join(staging, UPDATE_TEMPLATE), templateText);
    if (createTemplate) writeFileSync(join(staging, CREATE_TEMPLATE), JSON.stringify(createTemplate, null, 2));
    const state: PackageState = {
      fw: version,
      service: loaded.serviceName,
      stage,
      region,
      stackName: loaded.stackName,
      artifactDirectory: service.artifactDirectory,
      deploymentBucket: service.deploymentBucketName,
      templateSha256: sha256(templateText),
      artifacts: uniqueArtifacts(artifacts).map(({ name, sha256: hash, size }) => ({ name, sha256: hash, size })),
    };
    writeFileSync(join(staging, STATE_FILE), JSON.stringify(state, null, 2));
    replaceFolder(staging, outDir);
    return { ...loaded, outDir, template, createTemplate, artifacts: relocate(artifacts, staging, outDir), state };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

function uniqueArtifacts(artifacts: Artifacts): Artifact[] {
  const byName = new Map<string, Artifact>();
  for (const artifact of [artifacts.service, ...Object.values(artifacts.functions), ...Object.values(artifacts.layers)]) {
    if (artifact) byName.set(artifact.name, artifact);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Swaps the freshly written folder in; the old one is removed only after the new one is in place. */
function replaceFolder(staging: string, target: string): void {
  const old = `${target}.old-${process.pid}`;
  rmSync(old, { recursive: true, force: true });
  try {
    renameSync(target, old);
  } catch {
    // no previous output
  }
  renameSync(staging, target);
  rmSync(old, { recursive: true, force: true });
}

/** Artifacts built in the staging folder now live in the output folder. */
function relocate(artifacts: Artifacts, from: string, to: string): Artifacts {
  const move = (artifact: Artifact): Artifact =>
    artifact.path.startsWith(from) ? { ...artifact, path: join(to, relative(from, artifact.path)) } : artifact;
  return {
    service: artifacts.service && move(artifacts.service),
    functions: Object.fromEntries(Object.entries(artifacts.functions).map(([key, artifact]) => [key, move(artifact)])),
    layers: Object.fromEntries(Object.entries(artifacts.layers).map(([key, artifact]) => [key, move(artifact)])),
  };
}
