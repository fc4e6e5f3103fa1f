import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { ConfigError } from '../errors';
import { Service } from '../constructs/service';
import { writeCustomResourcesZip } from '../constructs/custom-resources';
import { DEFAULT_RUNTIME } from '../constructs/function';
import type { ServiceConfig } from '../constructs/model';
import { createStackTemplate, synthesize } from '../constructs/synthesize';
import { splitPackagedTemplate } from '../synth/split/package';
import type { Template } from '../synth/template';
import { version } from '../version';
import type { Artifact, Artifacts } from '../artifacts/artifact';
import { buildArtifacts } from './build';
import { missingHandlerFiles } from './handler-files';
import { parseS3Uri } from './build';
import { loadServiceConfig, type LoadedService } from '../service/load';
import { attachPlugins, compile as compilePlugins, finalize as finalizePlugins, initialize as initializePlugins, loadPlugins, loadServiceWithPlugins, startPackage, type PluginArtifacts } from '../plugins';
import { byCodeUnits } from '../order';
import { removeStagingOnSignal, removeStaleStaging } from './staging';
import { timed, timedSince } from '../terminal/timings';

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
  /**
   * Stack splitting: where the deployed stack holds each resource (the `placement` of the last deployment's
   * state), kept so nothing moves; default: the placement in `.serverless/` from the last package, if any.
   */
  previousPlacement?: PackageState['placement'];
  /** Where the package goes (`fw package --package DIR`), relative to `cwd`; default `.serverless/` in the service folder. */
  outDir?: string;
  /**
   * `fw deploy`: with `package.path` set, what `fw package` wrote there is read, not packaged again
   * (v3's `deploy` packages only without `package.path`, and deploys the folder as `--package` does).
   */
  fromPackagePath?: boolean;
  /** @internal fw dev: what its watcher vouches for (see watched-files.ts). */
  watched?: import('./watched-files').WatchedTrust;
  /** Progress of the zips (files and zips written of all), for a progress line. */
  onProgress?: import('./artifacts').ArtifactInput['onProgress'];
  /**
   * Where packaging reaches AWS: container images pushed and tags resolved (ECR), `package.artifact`
   * objects downloaded (S3). The deploy's target; default: AWS in the service's region (or
   * $AWS_ENDPOINT_URL), asked only when an image must be built, a tag resolved or an object fetched.
   */
  imageTarget?: import('./images/service-images').ImageTargetSupplier;
}

/** What deploy needs to know about a packaged service (also written as the state file). */
/** What `fw deploy --hotswap` records in the bucket's copy of the state: when, and which functions it updated in place. */
export interface Drift {
  hotswappedAt: string;
  functions: string[];
}

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
  /**
   * What a deploy compares with the last one: the template without the fields that change
   * on every run (artifact folder, REST deployment id) plus every artifact's hash.
   */
  deploymentHash: string;
  /** Set by deploy in the bucket's copy: the S3 key each artifact is deployed from (an unchanged one keeps its earlier key). */
  artifactKeys?: Record<string, string>;
  artifacts: Array<{ name: string; sha256: string; size: number }>;
  /** Stack splitting (issue 10): the nested stacks' templates, written beside the root one and listed in `artifacts`. */
  nestedStacks?: Array<{ logicalId: string; file: string }>;
  /** Stack splitting: the stack every resource lives in (`root` or a nested stack's logical id), reused so a later package moves nothing. */
  placement?: { mode: string; resources: Record<string, string> };
  /** Set by deploy in the bucket's copy: the REST API stage settings it applied (src/deploy/rest-stage.ts), so the next deploy reverts what goes. */
  restStage?: import('./stack-settings').AppliedStageSettings;
  /** Set by `fw deploy --hotswap` in the bucket's copy: functions updated in place, not yet through CloudFormation. */
  drift?: Drift;
}

export interface PackagedService extends LoadedService {
  outDir: string;
  template: Template;
  createTemplate?: Template;
  artifacts: Artifacts;
  state: PackageState;
}

/** `--aws-s3-accelerate` (true) and `--no-aws-s3-accelerate` (false), as given on the command line. */
const s3AccelerateOption = (value: unknown) => (typeof value === 'boolean' ? value : undefined);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * `fw package`: load and resolve the service file, build the construct tree
 * (where bad config is caught, before any zip is built), build the artifacts,
 * synthesize, and replace `.serverless/` in one step so a failure never leaves it half-written.
 */
export async function packageService(request: PackageRequest): Promise<PackagedService> {
  // Plugin hooks (issue 9): plugins load before variables resolve (they may add variable sources).
  const plugins = await timed('package/plugins', () => loadPlugins({ cwd: request.cwd, options: request.options }));
  const loaded = await timed('package/config', () => loadServiceWithPlugins(plugins, request.cwd, request.options));
  const packagePath = (loaded.config.package as { path?: unknown } | undefined)?.path;
  if (request.fromPackagePath && typeof packagePath === 'string' && packagePath !== '') {
    const read = packagedFrom(loaded, resolve(loaded.serviceDir, packagePath), `package.path "${packagePath}"`);
    await initializePlugins(plugins, read);
    return attachPlugins(read, plugins);
  }
  await startPackage(plugins, loaded);
  const { config, stage, region, serviceDir, serviceFile } = loaded;
  const now = request.now ?? new Date();
  const prefix = config.provider.deploymentPrefix ?? 'serverless';
  // Container images are built, pushed and resolved to digests before the tree needs their URIs.
  const { serviceImages } = require('./images/service-images') as typeof import('./images/service-images');
  const images = await serviceImages(loaded, request.imageTarget, request.options);
  const service = plugins.withEventTypes(() => new Service({
    config: config as ServiceConfig,
    stage,
    region,
    artifactDirectory: `${prefix}/${loaded.serviceName}/${stage}/${now.getTime()}-${now.toISOString()}`,
    instanceId: String(now.getTime()),
    s3Accelerate: s3AccelerateOption(request.options['aws-s3-accelerate']),
    images,
  }));
  for (const fn of service.functions) if (fn.nameWarning) process.stderr.write(`Warning: ${fn.nameWarning}\n`);
  // Plugin hooks (issue 9): changes to the construct tree before synthesis go here.
  const madeByPlugins = await compilePlugins(plugins, service, config as Record<string, unknown>);

  // `--package`, else `package.path` (v3 packages into it, relative to the service), else `.serverless`.
  const configuredPath = (config.package as { path?: unknown } | undefined)?.path;
  const outDir = request.outDir !== undefined
    ? resolve(request.cwd, request.outDir)
    : typeof configuredPath === 'string' && configuredPath !== '' ? resolve(serviceDir, configuredPath) : join(serviceDir, OUTPUT_FOLDER);
  const staging = join(serviceDir, `${OUTPUT_FOLDER}.tmp-${process.pid}`);
  removeStaleStaging(serviceDir);
  // Listening before the folder exists: a signal between the two would otherwise end the process
  // with Node's default action and leave the folder behind.
  const stopListening = removeStagingOnSignal(staging);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    // A bundler plugin's zips are deployed as they are, as v3 deploys them (copied now: the plugin deletes its work folder later).
    const pluginZips = stagePluginArtifacts(madeByPlugins, serviceDir, staging);
    const withArtifact = (settings: unknown, artifact: string | undefined) => (artifact === undefined ? settings : { ...(settings as object | undefined), artifact });
    const functions = Object.entries(config.functions ?? {}).map(([key, fn]) => ({
      key,
      handler: fn.handler,
      runtime: fn.runtime ?? config.provider.runtime ?? DEFAULT_RUNTIME,
      image: fn.image,
      package: withArtifact(fn.package, pluginZips.functions[key]) as never,
    }));
    // A plugin may write the handler's file itself (a bundler, a compiler): then it is not checked.
    if (!config.plugins) for (const warning of missingHandlerFiles(serviceDir, functions, config.package as never)) process.stderr.write(`Warning: ${warning}\n`);
    const artifacts = await timed('package/artifacts', () => buildArtifacts({
      serviceDir,
      serviceName: loaded.serviceName,
      serviceFile,
      outDir: staging,
      // Unchanged files' compressed bytes come from the last package's zips.
      cacheDir: outDir,
      package: withArtifact(config.package, pluginZips.service) as never,
      functions,
      layers: config.layers as never,
      build: config.build as never,
      watched: request.watched,
      onProgress: request.onProgress,
    }));
    if (Object.values(artifacts.functions).some(artifact => artifact.s3)) {
      // `package.artifact: s3://…` is downloaded into the package, as v3 does: deployed from the deployment bucket with its own hash.
      const { fetchS3Artifacts } = require('./s3-artifacts') as typeof import('./s3-artifacts');
      const { defaultTarget } = require('./images/service-images') as typeof import('./images/service-images');
      await fetchS3Artifacts(artifacts, staging, request.imageTarget ? await request.imageTarget(loaded) : await defaultTarget(loaded, request.options));
    }
    Object.assign(service.artifacts, artifacts);
    const synthStarted = performance.now();
    // The handlers of the custom resources the template uses (existing buckets and user pools, API Gateway logging).
    const customResources = writeCustomResourcesZip(service, staging);
    const template = synthesize(service);
    // Plugin hooks (issue 9): changes to the synthesized template go here.
    const pluginFiles = (await finalizePlugins(plugins, template, staging)).filter(name => ![UPDATE_TEMPLATE, CREATE_TEMPLATE, STATE_FILE].includes(name));
    // Stack splitting (issue 10): nested templates are written into `staging` here, and added to state.artifacts below.
    const split = splitPackagedTemplate({
      template,
      provider: config.provider as Record<string, unknown>,
      userResources: Object.keys((config.resources as { Resources?: object } | undefined)?.Resources ?? {}),
      userOutputs: Object.keys((config.resources as { Outputs?: object } | undefined)?.Outputs ?? {}),
      artifactDirectory: service.artifactDirectory,
      bucket: service.deploymentBucketRef,
      previousStateFile: join(outDir, STATE_FILE),
      previousPlacement: request.previousPlacement,
      stage,
      region,
      folder: staging,
      volatile: [service.artifactDirectory, `ApiGatewayDeployment${service.instanceId}`],
    });
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
      deploymentHash: '',
      artifacts: [
        ...[...uniqueArtifacts(artifacts), ...(customResources ? [customResources] : [])].map(({ name, sha256: hash, size }) => ({ name, sha256: hash, size })),
        ...split.files,
        // Files plugins wrote into the package (serverless-plugin-split-stacks' nested templates): deployed with it.
        ...pluginFiles.map(name => {
          const bytes = readFileSync(join(staging, name));
          return { name, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
        }),
      ],
      ...(split.nestedStacks.length > 0 ? { nestedStacks: split.nestedStacks } : {}),
      ...(split.placement ? { placement: split.placement } : {}),
    };
    const stableTemplate = templateText
      .split(service.artifactDirectory).join('<artifacts>')
      .split(`ApiGatewayDeployment${service.instanceId}`).join('ApiGatewayDeployment<id>');
    // The deploy-time settings (stack policy, tags, topics, REST stage settings, …) change what a deploy sends without changing
    // the template: a change to one of them is a change to deploy, as in v3.
    const { deployTimeSettings } = require('./stack-settings') as typeof import('./stack-settings');
    state.deploymentHash = sha256(JSON.stringify([stableTemplate, state.artifacts, deployTimeSettings(loaded)]));
    writeFileSync(join(staging, STATE_FILE), JSON.stringify(state, null, 2));
    timedSince('package/synth', synthStarted);
    mkdirSync(dirname(outDir), { recursive: true });
    timed('package/replace', () => replaceFolder(staging, outDir));
    // Plugin hooks (issue 9): the plugins go along with the result, for deploy's hooks.
    return attachPlugins({ ...loaded, outDir, template, createTemplate, artifacts: relocate(artifacts, staging, outDir), state }, plugins);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    stopListening();
  }
}

/**
 * The zips plugins made (PluginArtifacts), copied into the package folder being written; returns their new paths.
 * An S3 location is kept as it is.
 */
function stagePluginArtifacts(made: PluginArtifacts, serviceDir: string, staging: string): PluginArtifacts {
  const stage = (value: string, setting: string): string => {
    if (parseS3Uri(value)) return value;
    const path = resolve(serviceDir, value);
    if (!existsSync(path) || !statSync(path).isFile()) {
      throw new ConfigError(`A plugin set ${setting}.artifact to ${JSON.stringify(value)}, which is not a file (${path})`);
    }
    const target = join(staging, basename(path));
    copyFileSync(path, target);
    return target;
  };
  return {
    ...(made.service !== undefined ? { service: stage(made.service, 'package') } : {}),
    functions: Object.fromEntries(Object.entries(made.functions).map(([key, value]) => [key, stage(value, `functions.${key}.package`)])),
  };
}

function uniqueArtifacts(artifacts: Artifacts): Artifact[] {
  const byName = new Map<string, Artifact>();
  for (const artifact of [artifacts.service, ...Object.values(artifacts.functions), ...Object.values(artifacts.layers)]) {
    // An artifact already in S3 (`package.artifact: s3://…`) is neither uploaded nor hashed.
    if (artifact && !artifact.s3) byName.set(artifact.name, artifact);
  }
  return [...byName.values()].sort((a, b) => byCodeUnits(a.name, b.name));
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
  // Every function packaged with the service shares one artifact: moved once, shared again.
  const moved = new Map<Artifact, Artifact>();
  const move = (artifact: Artifact): Artifact => {
    let result = moved.get(artifact);
    if (!result) {
      result = artifact.path.startsWith(from) ? { ...artifact, path: join(to, relative(from, artifact.path)) } : artifact;
      moved.set(artifact, result);
    }
    return result;
  };
  return {
    service: artifacts.service && move(artifacts.service),
    functions: Object.fromEntries(Object.entries(artifacts.functions).map(([key, artifact]) => [key, move(artifact)])),
    layers: Object.fromEntries(Object.entries(artifacts.layers).map(([key, artifact]) => [key, move(artifact)])),
  };
}

/** A folder written earlier by `fw package` (for `fw deploy --package DIR`), with the service's configuration. */
export async function readPackaged(cwd: string, folder: string, options: Record<string, unknown>): Promise<PackagedService> {
  return packagedFrom(await loadServiceConfig(cwd, options), resolve(cwd, folder), `--package "${folder}"`);
}

/** The package `fw package` wrote in `outDir` for the loaded service; `shown` names where the folder was given. */
function packagedFrom(loaded: LoadedService, outDir: string, shown: string): PackagedService {
  const read = (name: string) => {
    try {
      return JSON.parse(readFileSync(join(outDir, name), 'utf8'));
    } catch {
      return undefined;
    }
  };
  const state = read(STATE_FILE) as PackageState | undefined;
  const template = read(UPDATE_TEMPLATE) as Template | undefined;
  if (!state || !template || state.deploymentHash === undefined) {
    throw new ConfigError(`Invalid ${shown}: expected a folder written by "fw package" (with ${UPDATE_TEMPLATE} and ${STATE_FILE})`);
  }
  if (state.stage !== loaded.stage || state.region !== loaded.region) {
    throw new ConfigError(`Invalid ${shown}: it was packaged for stage ${state.stage} in ${state.region}, not stage ${loaded.stage} in ${loaded.region}`);
  }
  const artifacts = prebuiltArtifacts(loaded);
  const prebuilt = new Set([...Object.values(artifacts.functions), ...Object.values(artifacts.layers)].filter(a => existsSync(a.path)).map(a => a.name));
  for (const artifact of state.artifacts) {
    if (!existsSync(join(outDir, artifact.name)) && !prebuilt.has(artifact.name)) throw new ConfigError(`Invalid ${shown}: ${artifact.name} is missing`);
  }
  return { ...loaded, outDir, template, createTemplate: read(CREATE_TEMPLATE), artifacts, state };
}

/**
 * The prebuilt artifacts on disk (`package.artifact`: a jar, a Go binary's zip) of a packaged folder's
 * service: `fw package` leaves them where they are, as v3 does, so a deploy of the folder uploads them from there.
 */
function prebuiltArtifacts(loaded: LoadedService): Artifacts {
  const { config, serviceDir } = loaded;
  const onDisk = (value: unknown): Artifact | undefined => {
    if (typeof value !== 'string' || value === '' || parseS3Uri(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return undefined;
    const path = resolve(serviceDir, value);
    return { name: basename(path), path, sha256: '', codeSha256: '', size: 0 };
  };
  const servicePackage = config.package as { artifact?: unknown } | undefined;
  const functions: Record<string, Artifact> = {};
  for (const [key, fn] of Object.entries(config.functions ?? {})) {
    const artifact = fn.image === undefined ? onDisk((fn.package as { artifact?: unknown } | undefined)?.artifact ?? servicePackage?.artifact) : undefined;
    if (artifact) functions[key] = artifact;
  }
  const layers: Record<string, Artifact> = {};
  for (const [key, layer] of Object.entries((config.layers ?? {}) as Record<string, { package?: { artifact?: unknown } }>)) {
    const artifact = onDisk(layer?.package?.artifact);
    if (artifact) layers[key] = artifact;
  }
  return { functions, layers };
}
