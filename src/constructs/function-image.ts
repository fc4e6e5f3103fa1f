import { ConfigError, invalid } from '../errors';
import type { Json } from './model';

/**
 * A function's container image, as v3 reads `functions.*.image` and `provider.ecr.images`: an ECR
 * URI given directly (a string or `{ uri }`), or the name of an image of `provider.ecr.images`
 * (a string naming one, or `{ name }`); the object forms add `command`, `entryPoint` and
 * `workingDirectory` (the function's `ImageConfig`).
 */
export interface FunctionImage {
  /** `ImageUri` of the function's `Code`. */
  uri: string;
  /** The digest's hex when the URI names one (`…@sha256:<hex>`): the version's `CodeSha256`. */
  digest?: string;
  imageConfig?: { Command?: Json; EntryPoint?: Json; WorkingDirectory?: Json };
}

type EcrImages = Record<string, { uri?: string; path?: string } | undefined>;

/** An ECR image URI, by digest or by tag: what Lambda accepts as `Code.ImageUri`. */
export const ECR_URI = /^\d{12}\.dkr\.ecr\.[a-z0-9-]+\.amazonaws\.com(\.cn)?\/[^@:\s]+(@sha256:[0-9a-f]{64}|:[\w][\w.-]{0,127})$/;

export function functionImage(image: unknown, ecr: { images?: EcrImages } | undefined, key: string): FunctionImage {
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
  let uri: string;
  let uriPath = typeof image === 'string' ? path : `${path}.uri`;
  if (reference.name !== undefined) {
    const name = String(reference.name);
    const defined = images[name];
    if (!Object.hasOwn(images, name) || !defined) throw new ConfigError(`Invalid configuration in '${path}${typeof image === 'string' ? '' : '.name'}': "${name}" is not defined in provider.ecr.images`);
    if (defined.uri === undefined) {
      throw new ConfigError(
        `Invalid configuration in 'provider.ecr.images.${name}': fw does not build container images (no "uri"): build and push it with docker, then set "uri" to its ECR URI (…/repository@sha256:<digest>)`,
      );
    }
    uri = String(defined.uri);
    uriPath = `provider.ecr.images.${name}.uri`;
  } else uri = String(reference.uri);
  if (!ECR_URI.test(uri)) {
    throw invalid(uriPath, 'an ECR image URI like "<account>.dkr.ecr.<region>.amazonaws.com/<repository>@sha256:<digest>" (or ":<tag>")', uri);
  }
  const result: FunctionImage = { uri, digest: /@sha256:([0-9a-f]{64})$/.exec(uri)?.[1] };
  const imageConfig: NonNullable<FunctionImage['imageConfig']> = {};
  if (config.command !== undefined) imageConfig.Command = config.command as Json;
  if (config.entryPoint !== undefined) imageConfig.EntryPoint = config.entryPoint as Json;
  if (config.workingDirectory !== undefined) imageConfig.WorkingDirectory = config.workingDirectory as Json;
  if (Object.keys(imageConfig).length > 0) result.imageConfig = imageConfig;
  return result;
}
