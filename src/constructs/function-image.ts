import { ConfigError, invalid } from '../errors';
import { ECR_URI } from '../artifacts/image-uri';
import type { Json } from './model';

/**
 * A function's container image, as v3 reads `functions.*.image` and `provider.ecr.images`: an ECR
 * URI given directly (a string or `{ uri }`), or the name of an image of `provider.ecr.images`
 * (a string naming one, or `{ name }`), which either gives a `uri` or is built from `path` with
 * docker; the object forms add `command`, `entryPoint` and `workingDirectory` (the function's `ImageConfig`).
 */
export interface FunctionImage {
  /** `ImageUri` of the function's `Code`. */
  uri: string;
  /** The digest's hex when the URI names one (`…@sha256:<hex>`): the version's `CodeSha256`. */
  digest?: string;
  imageConfig?: { Command?: Json; EntryPoint?: Json; WorkingDirectory?: Json };
}

/** How an image of `provider.ecr.images` with a `path` is built (the `docker build` arguments). */
export interface ImageBuild {
  /** The key under `provider.ecr.images`: the image's tag in the service's repository. */
  name: string;
  /** The build context, as written (relative to the service folder). */
  path: string;
  /** The Dockerfile inside the context (default `Dockerfile`). */
  file: string;
  buildArgs: Record<string, string>;
  cacheFrom: string[];
  platform?: string;
  /** fw's addition (v3 warns about it and ignores it): more `docker build` options, as words. */
  buildOptions: string[];
}

/** Where a function's image comes from before packaging resolves it to a digest. */
export type ImageSource =
  | { kind: 'uri'; uri: string; configPath: string }
  | { kind: 'build'; build: ImageBuild; configPath: string };

/** What packaging found out: each built image's URI, and each tagged URI's digest URI. */
export interface ResolvedImages {
  built: Record<string, string>;
  tagged: Record<string, string>;
}

type EcrImages = Record<string, unknown>;

/** Where the function's image comes from, checked as v3 checks it (one line naming the config path when wrong). */
export function imageSource(image: unknown, ecr: { images?: EcrImages } | undefined, key: string): { source: ImageSource; config: Record<string, unknown> } {
  const path = `functions.${key}.image`;
  const images = ecr?.images ?? {};
  let reference: { uri?: unknown; name?: unknown };
  let config: Record<string, unknown> = {};
  if (typeof image === 'string') reference = Object.hasOwn(images, image) ? { name: image } : { uri: image };
  else if (image && typeof image === 'object' && !Array.isArray(image)) {
    config = image as Record<string, unknown>;
    reference = { uri: config.uri, name: config.name };
  } else throw invalid(path, 'an image URI, the name of an image of provider.ecr.images, or { uri | name, command, entryPoint, workingDirectory }', image);

  if ((reference.uri === undefined) === (reference.name === undefined)) {
    throw new ConfigError(`Invalid configuration in '${path}': set either "uri" (an ECR image) or "name" (an image of provider.ecr.images), not both or neither`);
  }
  if (reference.name !== undefined) {
    const name = String(reference.name);
    if (!Object.hasOwn(images, name) || !images[name]) throw new ConfigError(`Invalid configuration in '${path}${typeof image === 'string' ? '' : '.name'}': "${name}" is not defined in provider.ecr.images`);
    return { source: ecrImageSource(name, images[name]), config };
  }
  const uriPath = typeof image === 'string' ? path : `${path}.uri`;
  return { source: { kind: 'uri', uri: checkedUri(String(reference.uri), uriPath), configPath: uriPath }, config };
}

/** An image of `provider.ecr.images`: a string is a build context; an object gives `uri` or `path` (not both). */
function ecrImageSource(name: string, defined: unknown): ImageSource {
  const path = `provider.ecr.images.${name}`;
  const image = (typeof defined === 'string' ? { path: defined } : defined) as Record<string, unknown>;
  if (typeof image !== 'object' || Array.isArray(image)) throw invalid(path, 'a build context path or { uri } or { path, file, buildArgs, cacheFrom, platform }', defined);
  if (image.uri !== undefined && image.path !== undefined) throw new ConfigError(`Invalid configuration in '${path}': set either "uri" or "path", not both`);
  if (image.uri === undefined && image.path === undefined) throw new ConfigError(`Invalid configuration in '${path}': set "uri" (an ECR image) or "path" (a docker build context)`);
  if (image.uri !== undefined) {
    for (const setting of ['file', 'buildArgs', 'cacheFrom', 'platform', 'buildOptions']) {
      if (image[setting] !== undefined) throw new ConfigError(`Invalid configuration in '${path}.${setting}': only for an image built from "path", not with "uri"`);
    }
    return { kind: 'uri', uri: checkedUri(String(image.uri), `${path}.uri`), configPath: `${path}.uri` };
  }
  const strings = (value: unknown, setting: string): string[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.some(item => typeof item !== 'string')) throw invalid(`${path}.${setting}`, 'a list of strings', value);
    return value as string[];
  };
  const buildArgs = image.buildArgs ?? {};
  if (typeof buildArgs !== 'object' || Array.isArray(buildArgs) || Object.values(buildArgs as object).some(value => typeof value !== 'string')) {
    throw invalid(`${path}.buildArgs`, 'an object of strings', buildArgs);
  }
  for (const setting of ['path', 'file', 'platform']) {
    if (image[setting] !== undefined && typeof image[setting] !== 'string') throw invalid(`${path}.${setting}`, 'a string', image[setting]);
  }
  return {
    kind: 'build',
    configPath: `${path}.path`,
    build: {
      name,
      path: image.path as string,
      file: (image.file as string | undefined) ?? 'Dockerfile',
      buildArgs: buildArgs as Record<string, string>,
      cacheFrom: strings(image.cacheFrom, 'cacheFrom'),
      platform: image.platform as string | undefined,
      buildOptions: strings(image.buildOptions, 'buildOptions'),
    },
  };
}

function checkedUri(uri: string, configPath: string): string {
  if (!ECR_URI.test(uri)) {
    throw invalid(configPath, 'an ECR image URI like "<account>.dkr.ecr.<region>.amazonaws.com/<repository>@sha256:<digest>" (or ":<tag>")', uri);
  }
  return uri;
}

/** The function's image once packaging resolved built images and tags to digests (`resolved`). */
export function functionImage(image: unknown, ecr: { images?: EcrImages } | undefined, key: string, resolved: ResolvedImages = { built: {}, tagged: {} }): FunctionImage {
  const { source, config } = imageSource(image, ecr, key);
  let uri: string;
  if (source.kind === 'build') {
    uri = resolved.built[source.build.name];
    // Packaging builds every image a function names before the tree is built; anything else is a bug.
    if (uri === undefined) throw new Error(`image "${source.build.name}" was not built before synthesis`);
  } else uri = resolved.tagged[source.uri] ?? source.uri;
  const result: FunctionImage = { uri, digest: /@sha256:([0-9a-f]{64})$/.exec(uri)?.[1] };
  const imageConfig: NonNullable<FunctionImage['imageConfig']> = {};
  if (config.command !== undefined) imageConfig.Command = config.command as Json;
  if (config.entryPoint !== undefined) imageConfig.EntryPoint = config.entryPoint as Json;
  if (config.workingDirectory !== undefined) imageConfig.WorkingDirectory = config.workingDirectory as Json;
  if (Object.keys(imageConfig).length > 0) result.imageConfig = imageConfig;
  return result;
}
