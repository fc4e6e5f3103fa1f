/**
 * Contract between the packaging step and the rest of fw (owned by the packaging work, issue 5).
 * `buildArtifacts` zips the code into `outDir` and reports each zip's hashes (src/artifacts/artifact.ts).
 */
export interface PackageConfig {
  patterns?: string[];
  /** Serverless v2 names, still accepted: treated as patterns / `!`patterns. */
  include?: string[];
  exclude?: string[];
  individually?: boolean;
  artifact?: string;
  excludeDevDependencies?: boolean;
}

export interface FunctionToPackage {
  /** The function's key under `functions:` (e.g. "hello"). */
  key: string;
  handler?: string;
  runtime: string;
  /** Container-image functions have no zip. */
  image?: unknown;
  package?: PackageConfig;
}

export interface ArtifactInput {
  serviceDir: string;
  serviceName: string;
  /** Absolute path of the service file (never zipped). */
  serviceFile: string;
  /** Folder the zips are written to. */
  outDir: string;
  package?: PackageConfig;
  functions: FunctionToPackage[];
  layers?: Record<string, { path?: string; package?: PackageConfig }>;
  build?: Record<string, unknown>;
  /**
   * The folder of the last package (`.serverless`): its zips and their index are where unchanged
   * files' compressed bytes are reused from; the new index is written into `outDir`. Without it,
   * every file is read and compressed.
   */
  cacheDir?: string;
  /** @internal fw dev: what its watcher vouches for (the last walk, files without a change event); see watched-files.ts. */
  watched?: import('./watched-files').WatchedTrust;
  /** Where warnings go (a symlink skipped, function patterns ignored); stderr when absent. */
  warn?: (message: string) => void;
  /** Called as files go into zips (often: keep it cheap), to show progress. */
  onProgress?: (progress: PackagingProgress) => void;
}

/** How far the zips are: files written of all files of all zips, zips finished of all. */
export interface PackagingProgress {
  files: number;
  totalFiles: number;
  zips: number;
  totalZips: number;
}

/** `Packaging: 1,200/3,000 files, 4/100 zips` (zips only when there are several). */
export function packagingLine(progress: PackagingProgress): string {
  // Not toLocaleString: loading Intl's number data costs ~10 ms of a 100 ms `fw package`.
  const n = (value: number) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const zips = progress.totalZips > 1 ? `, ${n(progress.zips)}/${n(progress.totalZips)} zips` : '';
  return `Packaging: ${n(progress.files)}/${n(progress.totalFiles)} files${zips}`;
}
