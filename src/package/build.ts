import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, type Stats } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { ConfigError, invalid, show } from '../errors';
import type { Artifact, Artifacts } from '../artifacts/artifact';
import type { ArtifactInput, FunctionToPackage, PackageConfig } from './artifacts';
import { bundleHandlers, esbuildOptions, type Bundle, type BundleRequest } from './bundle';
import { findDevDependencies, isDevDependencyFile, type DevDependencies } from './dependencies';
import { relativeInside, walkFiles, type SourceFile } from './files';
import { excludedFolders, isIncluded, negate, rules } from './patterns';
import { DeflatePool, SyncDeflater } from './deflate';
import { EntryCache } from './entry-cache';
import type { WatchedTrust } from './watched-files';
import { compressedEntry, hashBytes, renamed, sortEntries, zipEntry, ZipWriter, type ZipEntry } from '../artifacts/zip';
import { byKey } from '../order';
import { timed } from '../terminal/timings';

/**
 * Files at least this big are deflated on zlib's thread pool, beside the main thread; the
 * rest (nearly every file) on the main thread with one reused zlib context, which costs no
 * thread hop: for a 5,242-file node_modules 307 ms against 593 ms with the pool for all.
 */
const POOL_MIN_BYTES = 256 << 10;

/** Always left out, as with the reference; `.env*` too, since it holds secrets. */
export const DEFAULT_EXCLUDES = [
  '.git/**',
  '.gitignore',
  '.DS_Store',
  'npm-debug.log',
  'yarn-*.log',
  '.serverless/**',
  '.serverless_plugins/**',
  '.env*',
];

type Packaging =
  | { kind: 'none' }
  | { kind: 'prebuilt'; path: string; configPath: string; value: string }
  | { kind: 'service' }
  | { kind: 'individual' };

/**
 * Builds every zip the service needs into `input.outDir`: the service zip, one per individually
 * packaged function, one per layer; prebuilt artifacts are hashed where they are. The bytes
 * depend only on the selected files' paths, contents and execute bits.
 */
export async function buildArtifacts(input: ArtifactInput): Promise<Artifacts> {
  const warn = input.warn ?? ((message: string) => process.stderr.write(`Warning: ${message}\n`));
  const servicePackage = checkPackage(input.package, 'package');
  for (const fn of input.functions) checkPackage(fn.package, `functions.${fn.key}.package`);
  for (const [key, layer] of Object.entries(input.layers ?? {})) checkPackage(layer?.package, `layers.${key}.package`);
  const result: Artifacts = { functions: {}, layers: {} };

  const packaging = new Map<string, Packaging>();
  let warnedFunctionPatterns = false;
  for (const fn of input.functions) {
    const own = fn.package ?? {};
    let how: Packaging;
    if (fn.image !== undefined && fn.image !== null) how = { kind: 'none' };
    else if (own.artifact) how = prebuilt(input.serviceDir, own.artifact, `functions.${fn.key}.package.artifact`);
    else if (own.individually || servicePackage.individually) how = { kind: 'individual' };
    else if (servicePackage.artifact) how = prebuilt(input.serviceDir, servicePackage.artifact, 'package.artifact');
    else how = { kind: 'service' };
    if (how.kind === 'service' && (own.patterns || own.include || own.exclude) && !warnedFunctionPatterns) {
      warnedFunctionPatterns = true;
      warn(`functions.${fn.key}.package.patterns apply only to functions packaged individually (package.individually: true); the service-wide patterns are used`);
    }
    packaging.set(fn.key, how);
  }

  const hashed = new Map<string, Artifact>();
  const usePrebuilt = (how: Extract<Packaging, { kind: 'prebuilt' }>): Artifact => {
    const s3 = parseS3Uri(how.value);
    if (s3) return { name: basename(s3.key), path: how.value, sha256: '', codeSha256: '', size: 0, s3 };
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(how.value)) {
      throw new ConfigError(`Invalid configuration in '${how.configPath}': ${show(how.value)} is neither a file nor an S3 object (s3://bucket/key)`);
    }
    let artifact = hashed.get(how.path);
    if (!artifact) {
      if (!existsSync(how.path) || !statSync(how.path).isFile()) {
        throw new ConfigError(`Invalid configuration in '${how.configPath}': the artifact ${show(how.value)} does not exist (${how.path})`);
      }
      artifact = { name: basename(how.path), path: how.path, ...hashBytes(readFileSync(how.path)) };
      hashed.set(how.path, artifact);
    }
    return artifact;
  };

  const zipped = input.functions.filter((fn) => {
    const kind = packaging.get(fn.key)!.kind;
    return kind === 'service' || kind === 'individual';
  });
  const layers = Object.entries(input.layers ?? {}).sort(byKey);
  if (zipped.length > 0 || layers.some(([, layer]) => !layer.package?.artifact)) mkdirSync(input.outDir, { recursive: true });

  const pool = new DeflatePool();
  const deflater = new SyncDeflater();
  const cache = input.cacheDir !== undefined ? new EntryCache(input.cacheDir) : undefined;
  try {
    if (zipped.length > 0) {
      const serviceFunctions = zipped.filter((fn) => packaging.get(fn.key)!.kind === 'service');
      const individual = zipped.filter((fn) => packaging.get(fn.key)!.kind === 'individual');
      const context = timed('package/artifacts/walk', () => new ServiceContext(input, warn, individual, serviceFunctions.length > 0, cache));
      const bundles = await timed('package/artifacts/bundle', () => bundleHandlers(input.serviceDir, context.bundleRequests(zipped), esbuildOptions(input.build), warn));
      // Keep compressed files in memory only when more than one zip is built from them.
      const reader = new EntryReader(pool, deflater, individual.length + (serviceFunctions.length > 0 ? 1 : 0) > 1, cache, input.watched);
      const servicePlan = serviceFunctions.length > 0 ? context.plan(undefined, serviceFunctions, bundles, 'the service package') : undefined;
      const plans = individual.map((fn) => context.plan(fn, [fn], bundles, `function "${fn.key}"`));
      const progress = packagingProgress(input.onProgress, servicePlan ? [servicePlan, ...plans] : plans);
      if (servicePlan) {
        const artifact = await timed('package/artifacts/zip', () => emit(input.outDir, `${input.serviceName}.zip`, servicePlan, reader, progress));
        result.service = artifact;
        for (const fn of serviceFunctions) result.functions[fn.key] = artifact;
      }
      for (const [i, fn] of individual.entries()) {
        result.functions[fn.key] = await emit(input.outDir, `${fn.key}.zip`, plans[i], reader, progress);
      }
    }
    for (const fn of input.functions) {
      const how = packaging.get(fn.key)!;
      if (how.kind !== 'prebuilt') continue;
      result.functions[fn.key] = usePrebuilt(how);
    }

    for (const [key, layer] of layers) {
      const own = layer.package ?? {};
      if (own.artifact) {
        result.layers[key] = usePrebuilt(prebuilt(input.serviceDir, own.artifact, `layers.${key}.package.artifact`));
        continue;
      }
      if (typeof layer.path !== 'string' || layer.path === '') {
        throw new ConfigError(`Invalid configuration in 'layers.${key}.path': expected the folder of the layer's files, got ${show(layer.path)}`);
      }
      const root = resolve(input.serviceDir, layer.path);
      if (!existsSync(root) || !statSync(root).isDirectory()) {
        throw new ConfigError(`Invalid configuration in 'layers.${key}.path': the folder ${show(layer.path)} does not exist (${root})`);
      }
      const patterns = [
        ...DEFAULT_EXCLUDES.map(negate),
        ...excludesOf(servicePackage).map(negate),
        ...excludesOf(own).map(negate),
        ...includesOf(servicePackage),
        ...includesOf(own),
      ];
      const skipped = excludedFolders([patterns]);
      const outDirInLayer = relativeInside(root, input.outDir);
      if (outDirInLayer) skipped.add(outDirInLayer);
      const files = walkFiles(root, { prune: skipped, warn });
      const ordered = rules(patterns);
      const selected = files.filter((file) => isIncluded(file.path, ordered));
      if (selected.length === 0) throw noFiles(`layer "${key}"`, `layers.${key}.package.patterns`);
      result.layers[key] = await emit(input.outDir, `${key}.zip`, { files: selected, extra: [] }, new EntryReader(pool, deflater, false, cache));
    }
    if (cache) {
      timed('package/artifacts/index', () => cache.save(input.outDir));
      result.cache = { reused: cache.hits, compressed: cache.misses };
    }
  } finally {
    pool.close();
    deflater.close();
    cache?.close();
  }
  return result;
}

/** The package settings, checked: they may come from a service file no schema has seen. */
function checkPackage(config: PackageConfig | undefined, path: string): PackageConfig {
  if (config === undefined || config === null) return {};
  if (typeof config !== 'object' || Array.isArray(config)) throw invalid(path, 'an object', config);
  for (const key of ['patterns', 'include', 'exclude'] as const) {
    const list = config[key];
    if (list !== undefined && (!Array.isArray(list) || !list.every((pattern) => typeof pattern === 'string' && pattern !== ''))) {
      throw invalid(`${path}.${key}`, 'a list of glob patterns', list);
    }
  }
  for (const key of ['individually', 'excludeDevDependencies'] as const) {
    if (config[key] !== undefined && typeof config[key] !== 'boolean') throw invalid(`${path}.${key}`, 'true or false', config[key]);
  }
  if (config.artifact !== undefined && (typeof config.artifact !== 'string' || config.artifact === '')) {
    throw invalid(`${path}.artifact`, 'the path of a zip file', config.artifact);
  }
  return config;
}

/** `s3://bucket/key`, `https://bucket.s3[.region].amazonaws.com/key`, `https://s3[.region].amazonaws.com/bucket/key`. */
export function parseS3Uri(value: string): { bucket: string; key: string } | undefined {
  let match = /^s3:\/\/([^/]+)\/(.+)$/.exec(value);
  if (match) return { bucket: match[1], key: match[2] };
  match = /^https?:\/\/([^/]+)\.s3(?:[.-][a-z0-9-]+)?\.amazonaws\.com(?:\.cn)?\/(.+)$/.exec(value);
  if (match) return { bucket: match[1], key: decodeURIComponent(match[2]) };
  match = /^https?:\/\/s3(?:[.-][a-z0-9-]+)?\.amazonaws\.com(?:\.cn)?\/([^/]+)\/(.+)$/.exec(value);
  if (match) return { bucket: match[1], key: decodeURIComponent(match[2]) };
  return undefined;
}

function prebuilt(serviceDir: string, value: string, configPath: string): Extract<Packaging, { kind: 'prebuilt' }> {
  const path = parseS3Uri(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value) || isAbsolute(value) ? value : resolve(serviceDir, value);
  return { kind: 'prebuilt', path, configPath, value };
}

/** What goes into one zip: files from disk (sorted by path) and generated entries (bundles). */
interface ZipPlan {
  files: SourceFile[];
  extra: ZipEntry[];
}

/** Writes the zip file by file, in path order, reading and deflating a few files ahead. */
async function emit(outDir: string, name: string, plan: ZipPlan, reader: EntryReader, progress?: ZipProgress): Promise<Artifact> {
  const path = join(outDir, name);
  const extra = sortEntries(plan.extra);
  const writer = new ZipWriter(path);
  const ahead: Array<Promise<ZipEntry>> = [];
  const add = (entry: ZipEntry) => {
    const offset = writer.add(entry);
    reader.cache?.written(entry, name, offset);
    progress?.entry();
  };
  try {
    let i = 0;
    let j = 0;
    while (i < plan.files.length || j < extra.length) {
      const next =
        j >= extra.length || (i < plan.files.length && plan.files[i].path < extra[j].name) ? reader.entry(plan.files[i++]) : Promise.resolve(extra[j++]);
      next.catch(() => undefined); // awaited below, in order; a later failure must not go unhandled
      ahead.push(next);
      if (ahead.length >= 16) add(await ahead.shift()!);
    }
    while (ahead.length > 0) add(await ahead.shift()!);
    progress?.zip();
  } catch (error) {
    writer.abort();
    rmSync(path, { force: true });
    throw error;
  }
  return { name, path, ...writer.finish() };
}

interface ZipProgress {
  entry(): void;
  zip(): void;
}

/** Counts entries and zips for `onProgress`, reporting at most every 64 entries (and at each zip's end). */
function packagingProgress(onProgress: ArtifactInput['onProgress'], plans: ZipPlan[]): ZipProgress | undefined {
  if (!onProgress) return undefined;
  const state = { files: 0, totalFiles: plans.reduce((sum, plan) => sum + plan.files.length + plan.extra.length, 0), zips: 0, totalZips: plans.length };
  onProgress({ ...state });
  return {
    entry() {
      if (++state.files % 64 === 0) onProgress({ ...state });
    },
    zip() {
      state.zips += 1;
      onProgress({ ...state });
    },
  };
}

function noFiles(context: string, configPath: string): ConfigError {
  return new ConfigError(`Invalid configuration in '${configPath}': no file matches the include / exclude patterns of ${context}`);
}

/** `package.exclude` (older syntax) as plain patterns. */
function excludesOf(config: PackageConfig): string[] {
  return config.exclude ?? [];
}

function includesOf(config: PackageConfig): string[] {
  return [...(config.include ?? []), ...(config.patterns ?? [])];
}

/**
 * Reads and deflates files; with `shared`, each file once however many zips it goes into.
 * Small files are deflated on the main thread, big ones on the pool (see POOL_MIN_BYTES);
 * both give the same bytes.
 */
class EntryReader {
  private readonly entries = new Map<string, Promise<ZipEntry>>();

  constructor(
    private readonly pool: DeflatePool,
    private readonly deflater: SyncDeflater,
    private readonly shared: boolean,
    readonly cache?: EntryCache,
    private readonly watched?: WatchedTrust,
  ) {}

  entry(file: SourceFile): Promise<ZipEntry> {
    const cached = this.entries.get(file.abs);
    if (cached) return cached.then((entry) => (entry.name === file.path ? entry : renamed(entry, file.path)));
    // A file fw dev's watcher saw no change of is not even stat-ed.
    const trusted = this.watched?.unchanged(file) ? this.cache?.trustedEntry(file.path, file.abs) : undefined;
    const entry = trusted ? Promise.resolve(trusted) : this.read(file);
    if (this.shared) this.entries.set(file.abs, entry);
    return entry;
  }

  private async read(file: SourceFile): Promise<ZipEntry> {
    const slot = await this.pool.acquire();
    try {
      let fd: number | undefined;
      const open = () => {
        try {
          return (fd ??= openSync(file.abs, 'r'));
        } catch (error) {
          throw new ConfigError(`Cannot read ${show(file.path)} to package it: ${(error as Error).message}`);
        }
      };
      let content: Buffer | undefined;
      let stats: Stats;
      try {
        // With a cache, a stat by path decides whether the file is opened at all.
        stats = this.cache ? statOf(file) : fstatSync(open());
        const readAll = () => {
          const from = open();
          // Each slot reads into its own buffer, reused from file to file: no garbage per file.
          if (stats.size > slot.scratch.length) slot.scratch = Buffer.allocUnsafeSlow(Math.max(stats.size, slot.scratch.length * 2));
          const buffer = slot.scratch.subarray(0, stats.size);
          let read = 0;
          while (read < buffer.length) {
            const n = readSync(from, buffer, read, buffer.length - read, read);
            if (n === 0) break;
            read += n;
          }
          return (content = buffer.subarray(0, read));
        };
        const cached = this.cache?.fileEntry(file.path, file.abs, stats, readAll);
        if (cached) return cached;
        content ??= readAll();
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
      let deflated = content;
      if (content.length > 0) deflated = content.length < POOL_MIN_BYTES ? this.deflater.deflate(content) : await slot.deflate(content);
      const entry = compressedEntry(file.path, content, deflated, (stats.mode & 0o111) !== 0);
      this.cache?.madeFromFile(entry, file.abs, stats, content);
      return entry;
    } finally {
      this.pool.release(slot);
    }
  }
}

function statOf(file: SourceFile): Stats {
  try {
    return statSync(file.abs);
  } catch (error) {
    throw new ConfigError(`Cannot read ${show(file.path)} to package it: ${(error as Error).message}`);
  }
}

/** The service folder walked once, with what every zip built from it shares. */
class ServiceContext {
  readonly files: SourceFile[];
  /** Path → position in `files`. */
  private readonly index: Map<string, number>;
  private readonly dev: DevDependencies;
  private readonly baseExcludes: string[];
  private readonly serviceSelection: boolean[];
  private readonly bundledEntries = new Map<string, ZipEntry[]>();
  private readonly skipped: Set<string>;

  constructor(
    private readonly input: ArtifactInput,
    warn: (message: string) => void,
    /** The individually packaged functions; whether a service zip is built too. */
    individual: FunctionToPackage[],
    serviceZip: boolean,
    private readonly cache?: EntryCache,
  ) {
    const servicePackage = input.package ?? {};
    const others: string[] = [];
    const serviceFile = relativeInside(input.serviceDir, input.serviceFile);
    if (serviceFile) others.push(serviceFile);
    for (const layer of Object.values(input.layers ?? {})) {
      const dir = typeof layer?.path === 'string' && layer.path ? relativeInside(input.serviceDir, resolve(input.serviceDir, layer.path)) : undefined;
      if (dir) others.push(`${dir}/**`);
    }
    const artifacts = [input.package?.artifact, ...input.functions.map((fn) => fn.package?.artifact), ...Object.values(input.layers ?? {}).map((layer) => layer?.package?.artifact)];
    for (const artifact of artifacts) {
      const rel = artifact && !artifact.includes('://') ? relativeInside(input.serviceDir, resolve(input.serviceDir, artifact)) : undefined;
      if (rel) others.push(rel);
    }
    // `package.path`, the folder packages are written to: v3 zips the last package into the next one; fw leaves it out, as `.serverless`.
    const packagePath = (input.package as { path?: unknown } | undefined)?.path;
    const packageDir = typeof packagePath === 'string' && packagePath ? relativeInside(input.serviceDir, resolve(input.serviceDir, packagePath)) : undefined;
    if (packageDir) others.push(`${packageDir}/**`);
    this.baseExcludes = [...DEFAULT_EXCLUDES, ...others, ...excludesOf(servicePackage)];

    // Folders no zip can contain are not walked at all (.git, .serverless, `!node_modules/**` …).
    const lists = individual.map((fn) => this.patternsOf(fn));
    if (serviceZip) lists.push(this.patternsOf(undefined));
    this.skipped = excludedFolders(lists);
    const outDir = relativeInside(input.serviceDir, input.outDir);
    if (outDir) this.skipped.add(outDir);
    // `.serverless.tmp-*` / `.serverless.old-*`: fw's own staging folders, left behind by a killed run.
    const pruned = (path: string) => this.skipped.has(path) || (path.startsWith('.serverless.') && !path.includes('/'));
    const walk = () => walkFiles(input.serviceDir, { prune: pruned, warn });
    this.files = input.watched ? input.watched.walk(`${input.serviceDir}\n${[...this.skipped].sort().join('\n')}`, walk) : walk();
    this.index = new Map(this.files.map((file, i) => [file.path, i]));
    this.dev = servicePackage.excludeDevDependencies === false ? { packages: new Set(), bins: new Set() } : findDevDependencies(input.serviceDir, this.files);

    const serviceRules = rules(this.patternsOf(undefined));
    this.serviceSelection = this.files.map((file) => isIncluded(file.path, serviceRules) && !isDevDependencyFile(file.path, this.dev));
  }

  /** The ordered patterns of the service zip (fn undefined) or of an individually packaged function. */
  private patternsOf(fn: FunctionToPackage | undefined): string[] {
    const servicePackage = this.input.package ?? {};
    const own = fn?.package ?? {};
    return [...this.baseExcludes.map(negate), ...excludesOf(own).map(negate), ...includesOf(servicePackage), ...includesOf(own)];
  }

  /** Whether a file exists in the service, walked or in a skipped folder. */
  private exists(path: string): boolean {
    if (this.index.has(path)) return true;
    const inSkipped = [...this.skipped].some((folder) => path.startsWith(`${folder}/`));
    return inSkipped && existsSync(join(this.input.serviceDir, path));
  }

  /** TypeScript handlers to bundle: `<module>.ts` exists and `<module>.js` does not. */
  bundleRequests(functions: FunctionToPackage[]): BundleRequest[] {
    const byModule = new Map<string, BundleRequest>();
    for (const fn of functions) {
      if (!fn.handler || !fn.runtime.startsWith('nodejs')) continue;
      const module = nodeModule(fn.handler);
      if (!this.exists(`${module}.ts`) || this.exists(`${module}.js`)) continue;
      const request = byModule.get(module);
      if (request) request.functions.push(fn.key);
      else byModule.set(module, { module, runtime: fn.runtime, functions: [fn.key] });
    }
    return [...byModule.values()];
  }

  /** The content of one zip: the service's (fn undefined) or an individually packaged function's. */
  plan(fn: FunctionToPackage | undefined, served: FunctionToPackage[], bundles: Map<string, Bundle>, context: string): ZipPlan {
    const own = fn?.package ?? {};
    let selection = this.serviceSelection;
    if (fn && (own.patterns || own.include || own.exclude)) {
      const ordered = rules(this.patternsOf(fn));
      selection = this.files.map((file) => isIncluded(file.path, ordered) && !isDevDependencyFile(file.path, this.dev));
    }

    const extra = new Map<string, ZipEntry>();
    for (const served1 of served) {
      if (!served1.handler || !served1.runtime.startsWith('nodejs')) continue;
      const bundle = bundles.get(nodeModule(served1.handler));
      if (bundle) for (const entry of this.bundleEntries(bundle)) extra.set(entry.name, entry);
    }
    const files = this.files.filter((file, i) => selection[i] && !extra.has(file.path));
    if (files.length + extra.size === 0) throw noFiles(context, fn ? `functions.${fn.key}.package.patterns` : 'package.patterns');

    const packaged = (path: string) => {
      if (extra.has(path)) return true;
      const index = this.index.get(path);
      return index !== undefined && selection[index];
    };
    for (const served1 of served) this.checkHandler(served1, packaged);
    return { files, extra: [...extra.values()] };
  }

  private bundleEntries(bundle: Bundle): ZipEntry[] {
    const key = bundle.files.map((file) => file.path).join('\n');
    let entries = this.bundledEntries.get(key);
    if (!entries) {
      entries = bundle.files.map((file) => {
        const key = `bundle:${file.path}`;
        const cached = this.cache?.contentEntry(file.path, key, file.contents);
        if (cached) return cached;
        const entry = zipEntry(file.path, file.contents, false);
        this.cache?.madeFromContent(entry, key, file.contents);
        return entry;
      });
      this.bundledEntries.set(key, entries);
    }
    return entries;
  }

  /** A handler whose file exists but is left out by the patterns is a mistake worth stopping for. */
  private checkHandler(fn: FunctionToPackage, packaged: (path: string) => boolean): void {
    if (!fn.handler) return;
    const candidates = handlerFiles(fn.handler, fn.runtime);
    if (candidates.length === 0 || candidates.some(packaged)) return;
    const onDisk = candidates.filter((file) => this.exists(file));
    if (onDisk.length === 0) return;
    const own = fn.package ?? {};
    const individually = this.input.package?.individually || own.individually;
    const where = individually && (own.patterns || own.include || own.exclude) ? `functions.${fn.key}.package.patterns` : 'package.patterns';
    throw new ConfigError(
      `Invalid configuration in '${where}': no pattern includes ${show(onDisk[0])}, the handler file of function "${fn.key}" (handler ${show(fn.handler)})`,
    );
  }
}

/** `src/handler.main` → `src/handler` (Node splits at the first dot of the file name). */
export function nodeModule(handler: string): string {
  const slash = handler.lastIndexOf('/');
  const dot = handler.indexOf('.', slash + 1);
  return dot < 0 ? handler : handler.slice(0, dot);
}

/** Files that can hold the handler's code for runtimes whose handler names a file. */
export function handlerFiles(handler: string, runtime: string): string[] {
  if (runtime.startsWith('nodejs')) {
    const module = nodeModule(handler);
    return ['.js', '.mjs', '.cjs', '.ts'].map((extension) => `${module}${extension}`);
  }
  if (runtime.startsWith('python')) {
    const dot = handler.lastIndexOf('.');
    if (dot < 0) return [];
    const module = handler.slice(0, dot);
    const slash = module.lastIndexOf('/');
    const dotted = `${module.slice(0, slash + 1)}${module.slice(slash + 1).split('.').join('/')}`;
    return [...new Set([`${module}.py`, `${dotted}.py`])];
  }
  return [];
}
