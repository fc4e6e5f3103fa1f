import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { ConfigError, show } from '../errors';
import type { Artifact, ArtifactInput, Artifacts, FunctionToPackage, PackageConfig } from './artifacts';
import { bundleHandlers, esbuildOptions, type Bundle, type BundleRequest } from './bundle';
import { findDevDependencies, isDevDependencyFile, type DevDependencies } from './dependencies';
import { relativeInside, walkFiles, type SourceFile } from './files';
import { isIncluded, negate, rules, type PatternRule } from './patterns';
import { hashBytes, renamed, sortEntries, writeZip, zipEntry, type ZipEntry } from './zip';

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
  const servicePackage = input.package ?? {};
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
  const usePrebuilt = (how: Extract<Packaging, { kind: 'prebuilt' }>): Artifact | undefined => {
    if (/^(s3:\/\/|https?:\/\/)/.test(how.value)) return undefined;
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
  const layers = Object.entries(input.layers ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (zipped.length > 0 || layers.some(([, layer]) => !layer.package?.artifact)) mkdirSync(input.outDir, { recursive: true });

  const reader = new EntryReader();
  if (zipped.length > 0) {
    const context = new ServiceContext(input, warn);
    const bundles = await bundleHandlers(input.serviceDir, context.bundleRequests(zipped), esbuildOptions(input.build));
    const serviceFunctions = zipped.filter((fn) => packaging.get(fn.key)!.kind === 'service');
    if (serviceFunctions.length > 0) {
      const entries = context.entries(reader, undefined, serviceFunctions, bundles, 'the service package');
      const artifact = emit(input.outDir, `${input.serviceName}.zip`, entries);
      result.service = artifact;
      for (const fn of serviceFunctions) result.functions[fn.key] = artifact;
    }
    for (const fn of zipped) {
      if (packaging.get(fn.key)!.kind !== 'individual') continue;
      const entries = context.entries(reader, fn, [fn], bundles, `function "${fn.key}"`);
      result.functions[fn.key] = emit(input.outDir, `${fn.key}.zip`, entries);
    }
  }
  for (const fn of input.functions) {
    const how = packaging.get(fn.key)!;
    if (how.kind !== 'prebuilt') continue;
    const artifact = usePrebuilt(how);
    if (artifact) result.functions[fn.key] = artifact;
  }

  for (const [key, layer] of layers) {
    const own = layer.package ?? {};
    if (own.artifact) {
      const artifact = usePrebuilt(prebuilt(input.serviceDir, own.artifact, `layers.${key}.package.artifact`));
      if (artifact) result.layers[key] = artifact;
      continue;
    }
    if (typeof layer.path !== 'string' || layer.path === '') {
      throw new ConfigError(`Invalid configuration in 'layers.${key}.path': expected the folder of the layer's files, got ${show(layer.path)}`);
    }
    const root = resolve(input.serviceDir, layer.path);
    if (!existsSync(root) || !statSync(root).isDirectory()) {
      throw new ConfigError(`Invalid configuration in 'layers.${key}.path': the folder ${show(layer.path)} does not exist (${root})`);
    }
    const outDirInLayer = relativeInside(root, input.outDir);
    const files = walkFiles(root, { prune: new Set(outDirInLayer ? [outDirInLayer] : []), warn });
    const ordered = rules([
      ...DEFAULT_EXCLUDES.map(negate),
      ...excludesOf(servicePackage).map(negate),
      ...excludesOf(own).map(negate),
      ...includesOf(servicePackage),
      ...includesOf(own),
    ]);
    const selected = files.filter((file) => isIncluded(file.path, ordered));
    if (selected.length === 0) throw noFiles(`layer "${key}"`, `layers.${key}.package.patterns`);
    result.layers[key] = emit(input.outDir, `${key}.zip`, selected.map((file) => reader.entry(file)));
  }
  return result;
}

function prebuilt(serviceDir: string, value: string, configPath: string): Extract<Packaging, { kind: 'prebuilt' }> {
  return { kind: 'prebuilt', path: isAbsolute(value) ? value : resolve(serviceDir, value), configPath, value };
}

function emit(outDir: string, name: string, entries: ZipEntry[]): Artifact {
  const path = join(outDir, name);
  return { name, path, ...writeZip(path, sortEntries(entries)) };
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

/** Reads and compresses each file once, however many zips it goes into. */
class EntryReader {
  private readonly cache = new Map<string, ZipEntry>();

  entry(file: SourceFile): ZipEntry {
    const cached = this.cache.get(file.abs);
    if (cached) return cached.name === file.path ? cached : renamed(cached, file.path);
    const fd = openSync(file.abs, 'r');
    let entry: ZipEntry;
    try {
      const stats = fstatSync(fd);
      const content = Buffer.allocUnsafe(stats.size);
      let read = 0;
      while (read < content.length) {
        const n = readSync(fd, content, read, content.length - read, read);
        if (n === 0) break;
        read += n;
      }
      entry = zipEntry(file.path, read === content.length ? content : content.subarray(0, read), (stats.mode & 0o111) !== 0);
    } finally {
      closeSync(fd);
    }
    this.cache.set(file.abs, entry);
    return entry;
  }

  bundled(path: string, contents: Buffer): ZipEntry {
    return zipEntry(path, contents, false);
  }
}

/** The service folder walked once, with what every zip built from it shares. */
class ServiceContext {
  readonly files: SourceFile[];
  private readonly paths: Set<string>;
  private readonly dev: DevDependencies;
  private readonly baseExcludes: string[];
  private readonly serviceSelection: boolean[];
  private readonly bundledEntries = new Map<string, ZipEntry[]>();

  constructor(
    private readonly input: ArtifactInput,
    warn: (message: string) => void,
  ) {
    const servicePackage = input.package ?? {};
    const prune = new Set<string>();
    const outDir = relativeInside(input.serviceDir, input.outDir);
    if (outDir) prune.add(outDir);
    const userIncludes = [
      ...includesOf(servicePackage),
      ...input.functions.flatMap((fn) => includesOf(fn.package ?? {})),
    ].filter((pattern) => !pattern.startsWith('!'));
    for (const folder of ['.git', '.serverless']) {
      if (!userIncludes.some((pattern) => pattern.startsWith(folder) || pattern.startsWith(`./${folder}`))) prune.add(folder);
    }
    this.files = walkFiles(input.serviceDir, { prune, warn });
    this.paths = new Set(this.files.map((file) => file.path));
    this.dev = servicePackage.excludeDevDependencies === false ? { packages: new Set(), bins: new Set() } : findDevDependencies(input.serviceDir, this.files);

    const others: string[] = [];
    const serviceFile = relativeInside(input.serviceDir, input.serviceFile);
    if (serviceFile) others.push(serviceFile);
    for (const layer of Object.values(input.layers ?? {})) {
      const dir = layer.path ? relativeInside(input.serviceDir, resolve(input.serviceDir, layer.path)) : undefined;
      if (dir) others.push(`${dir}/**`);
    }
    const artifacts = [input.package?.artifact, ...input.functions.map((fn) => fn.package?.artifact), ...Object.values(input.layers ?? {}).map((layer) => layer.package?.artifact)];
    for (const artifact of artifacts) {
      const rel = artifact ? relativeInside(input.serviceDir, resolve(input.serviceDir, artifact)) : undefined;
      if (rel) others.push(rel);
    }
    this.baseExcludes = [...DEFAULT_EXCLUDES, ...others, ...excludesOf(servicePackage)];
    const serviceRules = rules([...this.baseExcludes.map(negate), ...includesOf(servicePackage)]);
    this.serviceSelection = this.files.map((file) => isIncluded(file.path, serviceRules) && !isDevDependencyFile(file.path, this.dev));
  }

  /** TypeScript handlers to bundle: `<module>.ts` exists and `<module>.js` does not. */
  bundleRequests(functions: FunctionToPackage[]): BundleRequest[] {
    const byModule = new Map<string, BundleRequest>();
    for (const fn of functions) {
      if (!fn.handler || !fn.runtime.startsWith('nodejs')) continue;
      const module = nodeModule(fn.handler);
      if (!this.paths.has(`${module}.ts`) || this.paths.has(`${module}.js`)) continue;
      const request = byModule.get(module);
      if (request) request.functions.push(fn.key);
      else byModule.set(module, { module, runtime: fn.runtime, functions: [fn.key] });
    }
    return [...byModule.values()];
  }

  /** The entries of one zip: the service's (fn undefined) or an individually packaged function's. */
  entries(reader: EntryReader, fn: FunctionToPackage | undefined, served: FunctionToPackage[], bundles: Map<string, Bundle>, context: string): ZipEntry[] {
    const own = fn?.package ?? {};
    let selected: SourceFile[];
    if (!fn || (!own.patterns && !own.include && !own.exclude)) {
      selected = this.files.filter((_, i) => this.serviceSelection[i]);
    } else {
      const ordered = rules([
        ...this.baseExcludes.map(negate),
        ...excludesOf(own).map(negate),
        ...includesOf(this.input.package ?? {}),
        ...includesOf(own),
      ]);
      selected = this.files.filter((file) => isIncluded(file.path, ordered) && !isDevDependencyFile(file.path, this.dev));
    }

    const added = new Map<string, ZipEntry>();
    for (const served1 of served) {
      if (!served1.handler) continue;
      const bundle = bundles.get(nodeModule(served1.handler));
      if (!bundle || !served1.runtime.startsWith('nodejs')) continue;
      for (const entry of this.bundleEntries(reader, bundle)) added.set(entry.name, entry);
    }
    const entries = selected.filter((file) => !added.has(file.path)).map((file) => reader.entry(file));
    entries.push(...added.values());
    if (entries.length === 0) throw noFiles(context, fn ? `functions.${fn.key}.package.patterns` : 'package.patterns');

    const names = new Set(entries.map((entry) => entry.name));
    for (const served1 of served) this.checkHandler(served1, names);
    return entries;
  }

  private bundleEntries(reader: EntryReader, bundle: Bundle): ZipEntry[] {
    const key = bundle.files.map((file) => file.path).join('\n');
    let entries = this.bundledEntries.get(key);
    if (!entries) {
      entries = bundle.files.map((file) => reader.bundled(file.path, file.contents));
      this.bundledEntries.set(key, entries);
    }
    return entries;
  }

  /** A handler whose file exists but is left out by the patterns is a mistake worth stopping for. */
  private checkHandler(fn: FunctionToPackage, names: ReadonlySet<string>): void {
    if (!fn.handler) return;
    const candidates = handlerFiles(fn.handler, fn.runtime);
    if (candidates.length === 0 || candidates.some((file) => names.has(file))) return;
    const onDisk = candidates.filter((file) => this.paths.has(file));
    if (onDisk.length === 0) return;
    const where = (this.input.package?.individually || fn.package?.individually) ? `functions.${fn.key}.package.patterns` : 'package.patterns';
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
