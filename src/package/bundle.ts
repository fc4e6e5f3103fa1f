import { join, relative, sep } from 'node:path';
import { ConfigError, invalid } from '../errors';
import { byKey } from '../order';

/** `build.esbuild` in the service file. */
export interface EsbuildOptions {
  /** Module names left out of the bundle (they must then be in node_modules). */
  external: string[];
  /** Module names left out of the bundle because the Lambda runtime provides them; undefined: the runtime's own (`runtimeModules`). */
  exclude?: string[];
  sourcemap: false | 'linked' | 'inline' | 'external';
  minify: boolean;
  /** Overrides the target derived from the runtime (`node18`, …). */
  target?: string;
}

/** One bundled handler: the files to put in the zip, at paths relative to the service. */
export interface Bundle {
  files: Array<{ path: string; contents: Buffer }>;
}

export interface BundleRequest {
  /** Handler module without extension, relative (`src/handler`). */
  module: string;
  runtime: string;
  /** Functions that use it, for error messages. */
  functions: string[];
}

/** Reads and checks `build.esbuild`. */
export function esbuildOptions(build: Record<string, unknown> | undefined): EsbuildOptions {
  const raw = build?.esbuild;
  const options: EsbuildOptions = { external: [], sourcemap: false, minify: false };
  if (raw === undefined || raw === null) return options;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid('build.esbuild', 'an object', raw);
  const config = raw as Record<string, unknown>;
  if (config.external !== undefined) {
    if (!Array.isArray(config.external) || !config.external.every((name) => typeof name === 'string')) {
      throw invalid('build.esbuild.external', 'a list of module names', config.external);
    }
    options.external = [...config.external];
  }
  if (config.exclude !== undefined) {
    if (!Array.isArray(config.exclude) || !config.exclude.every((name) => typeof name === 'string')) {
      throw invalid('build.esbuild.exclude', 'a list of module names', config.exclude);
    }
    options.exclude = [...config.exclude];
  }
  if (config.sourcemap !== undefined) options.sourcemap = sourcemapOption(config.sourcemap);
  if (config.minify !== undefined) {
    if (typeof config.minify !== 'boolean') throw invalid('build.esbuild.minify', 'true or false', config.minify);
    options.minify = config.minify;
  }
  if (config.target !== undefined) {
    if (typeof config.target !== 'string') throw invalid('build.esbuild.target', 'an esbuild target such as "node20"', config.target);
    options.target = config.target;
  }
  return options;
}

const SOURCEMAP_TYPES = ['linked', 'inline', 'external'] as const;

/**
 * `true`, `false`, a type, or Serverless v4's documented object `{ type, setNodeOptions }`. v4's
 * `setNodeOptions` adds `NODE_OPTIONS=--enable-source-maps` to the functions when it deploys; v3
 * ignores `build`, so fw keeps the template v3 writes and takes `setNodeOptions` as said only
 * (set `NODE_OPTIONS` in `environment` to have it).
 */
function sourcemapOption(value: unknown): EsbuildOptions['sourcemap'] {
  if (value === true) return 'linked';
  if (value === false) return false;
  if ((SOURCEMAP_TYPES as readonly unknown[]).includes(value)) return value as EsbuildOptions['sourcemap'];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const { type = 'linked', setNodeOptions } = value as { type?: unknown; setNodeOptions?: unknown };
    if (!(SOURCEMAP_TYPES as readonly unknown[]).includes(type)) throw invalid('build.esbuild.sourcemap.type', '"linked", "inline" or "external"', type);
    if (setNodeOptions !== undefined && typeof setNodeOptions !== 'boolean') throw invalid('build.esbuild.sourcemap.setNodeOptions', 'true or false', setNodeOptions);
    return type as EsbuildOptions['sourcemap'];
  }
  throw invalid('build.esbuild.sourcemap', 'true, false, "linked", "inline", "external" or { type, setNodeOptions }', value);
}

/** `nodejs18.x` → `node18`. */
export function nodeTarget(runtime: string): string {
  const match = /^nodejs(\d+)/.exec(runtime);
  return match ? `node${match[1]}` : 'node20';
}

/**
 * The AWS SDKs, left out of bundles unless `build.esbuild.exclude` says otherwise: the AWS SDK
 * for JavaScript v2 (`aws-sdk`) up to nodejs16.x, which provide it; from nodejs18.x on, v3
 * (`@aws-sdk/*`), which they provide, and v2 too, as the bundling plugins of v3 services leave it
 * out (serverless-esbuild's default `exclude`), so a service that packages with them packages
 * with fw (`sdkV2Unprovided` says when the runtime then lacks it).
 */
export function runtimeModules(runtime: string): string[] {
  return providesSdkV2(runtime) ? ['aws-sdk'] : ['@aws-sdk/*', 'aws-sdk'];
}

function providesSdkV2(runtime: string): boolean {
  return Number(/^nodejs(\d+)/.exec(runtime)?.[1] ?? 20) <= 16;
}

/** The warning for handlers that load `aws-sdk` (v2), left out of their bundle, on runtimes without it. */
export function sdkV2Unprovided(functions: string[], runtimes: string[]): string {
  return `aws-sdk (v2) is left out of the bundle of ${functions.join(', ')} (as serverless-esbuild leaves it out), and the ${runtimes.join(', ')} runtime does not provide it: ` +
    'package it from node_modules, bundle it with build.esbuild.exclude: [], or move to @aws-sdk/* (v3)';
}

/**
 * Bundles TypeScript handlers with esbuild (CommonJS, platform node), one output per handler
 * module at `<module>.js`, so the handler string keeps resolving inside the zip. One esbuild
 * call per target bundles every handler at once.
 */
export async function bundleHandlers(
  serviceDir: string,
  requests: BundleRequest[],
  options: EsbuildOptions,
  warn: (message: string) => void = () => undefined,
): Promise<Map<string, Bundle>> {
  const bundles = new Map<string, Bundle>();
  if (requests.length === 0) return bundles;
  const esbuild = require('esbuild') as typeof import('esbuild');
  // One esbuild call per target and set of runtime-provided modules.
  const byTarget = new Map<string, BundleRequest[]>();
  for (const request of requests) {
    const key = JSON.stringify([options.target ?? nodeTarget(request.runtime), options.exclude ?? runtimeModules(request.runtime)]);
    byTarget.set(key, [...(byTarget.get(key) ?? []), request]);
  }
  for (const [key, group] of [...byTarget].sort(byKey)) {
    const [target, excluded] = JSON.parse(key) as [string, string[]];
    let result;
    try {
      result = await build(esbuild, {
        absWorkingDir: serviceDir,
        entryPoints: group.map((request) => join(serviceDir, `${request.module}.ts`)),
        outdir: serviceDir,
        outbase: serviceDir,
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target,
        external: [...excluded, ...options.external],
        sourcemap: options.sourcemap,
        minify: options.minify,
        write: false,
        logLevel: 'silent',
        charset: 'utf8',
        legalComments: 'none',
        metafile: true,
      } as const);
    } catch (error) {
      const failures = (error as { errors?: Array<{ text: string; location?: { file: string; line: number; column: number } | null }> }).errors ?? [];
      const details = failures
        .slice(0, 5)
        .map((failure) => (failure.location ? `${failure.location.file}:${failure.location.line}:${failure.location.column}: ${failure.text}` : failure.text))
        .join('\n  ');
      const names = group.flatMap((request) => request.functions).join(', ');
      throw new ConfigError(`Cannot bundle the TypeScript handlers of ${names}:\n  ${details || (error as Error).message}`);
    }
    const outputs = new Map<string, Buffer>();
    for (const file of result.outputFiles) {
      outputs.set(relative(serviceDir, file.path).split(sep).join('/'), Buffer.from(file.contents));
    }
    const loadingSdkV2 = new Set<string>();
    for (const [out, meta] of Object.entries(result.metafile?.outputs ?? {})) {
      if (meta.imports.some((i) => i.external && /^aws-sdk(\/|$)/.test(i.path))) loadingSdkV2.add(out.split(sep).join('/').replace(/\.js$/, ''));
    }
    const unprovided = group.filter((request) => excluded.includes('aws-sdk') && !providesSdkV2(request.runtime) && loadingSdkV2.has(request.module));
    if (unprovided.length > 0) warn(sdkV2Unprovided(unprovided.flatMap((r) => r.functions), [...new Set(unprovided.map((r) => r.runtime))]));
    for (const request of group) {
      const js = `${request.module}.js`;
      const files = [js, `${js}.map`]
        .filter((path) => outputs.has(path))
        .map((path) => ({ path, contents: outputs.get(path)! }));
      bundles.set(request.module, { files });
    }
  }
  return bundles;
}

/** esbuild contexts kept between packages of one process (fw dev), by their options: a rebuild reparses only what changed. */
let contexts: Map<string, Promise<import('esbuild').BuildContext>> | undefined;

/**
 * From now on, bundling keeps esbuild's incremental context per set of handlers and options and
 * rebuilds it (fw dev). Returns the function that disposes of them all.
 */
export function keepBundlerContexts(): () => Promise<void> {
  const kept: Map<string, Promise<import('esbuild').BuildContext>> = (contexts ??= new Map());
  return async () => {
    if (contexts === kept) contexts = undefined;
    const all = [...kept.values()];
    kept.clear();
    await Promise.all(all.map(context => context.then(c => c.dispose(), () => undefined)));
  };
}

/** One esbuild build: a kept context's rebuild when contexts are kept, a one-off build otherwise. */
async function build(esbuild: typeof import('esbuild'), options: import('esbuild').BuildOptions & { write: false }): Promise<import('esbuild').BuildResult<{ write: false }>> {
  if (!contexts) return esbuild.build(options);
  const key = JSON.stringify(options);
  let context = contexts.get(key);
  if (!context) {
    context = esbuild.context(options);
    contexts.set(key, context);
    context.catch(() => contexts?.delete(key));
  }
  return (await context).rebuild() as Promise<import('esbuild').BuildResult<{ write: false }>>;
}
