import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEcrUri } from '../../artifacts/image-uri';
import { imageSource, type ImageBuild } from '../../constructs/function-image';
import { ConfigError } from '../../errors';

/** What packaging must do for a service's container images before its template can be written. */
export interface ImagePlan {
  /** `serverless-<service>-<stage>`: the ECR repository built images are pushed to, as v3 names it. */
  repository: string;
  /** `provider.ecr.scanOnPush`: set on the repository when fw creates it. */
  scanOnPush: boolean;
  /** The images of `provider.ecr.images` a function names that are built from a `path`, once each. */
  builds: ImageBuild[];
  /** Image URIs given by tag, resolved to their digest with DescribeImages, once each. */
  tags: Array<{ uri: string; configPath: string }>;
}

interface ImageConfig {
  service: string;
  provider: { ecr?: unknown };
  functions?: Record<string, { image?: unknown } | undefined>;
}

/**
 * The images to build and the tags to resolve, checked first (a wrong setting is reported
 * before docker runs): only images some function uses are built, as v3 builds them.
 */
export function planImages(config: ImageConfig, stage: string, region: string, serviceDir: string): ImagePlan {
  const ecr = config.provider.ecr as { images?: Record<string, unknown>; scanOnPush?: unknown } | undefined;
  const builds = new Map<string, ImageBuild>();
  const tags = new Map<string, string>();
  for (const [key, fn] of Object.entries(config.functions ?? {})) {
    if (fn?.image === undefined || fn.image === null) continue;
    const { source } = imageSource(fn.image, ecr, key);
    if (source.kind === 'build') {
      if (!builds.has(source.build.name)) builds.set(source.build.name, checkDockerfile(source.build, serviceDir));
      continue;
    }
    const { region: imageRegion, tag } = parseEcrUri(source.uri);
    if (tag === undefined || tags.has(source.uri)) continue;
    // Lambda pulls from its own region; the tag is looked up there too.
    if (imageRegion !== region) {
      throw new ConfigError(`Invalid configuration in '${source.configPath}': the image's region "${imageRegion}" must be the provider region "${region}" (${source.uri})`);
    }
    tags.set(source.uri, source.configPath);
  }
  return {
    repository: `serverless-${config.service}-${stage}`,
    scanOnPush: ecr?.scanOnPush === true,
    builds: [...builds.values()],
    tags: [...tags].map(([uri, configPath]) => ({ uri, configPath })),
  };
}

function checkDockerfile(build: ImageBuild, serviceDir: string): ImageBuild {
  const dockerfile = resolve(serviceDir, build.path, build.file);
  if (!existsSync(dockerfile)) {
    const setting = build.file === 'Dockerfile' ? 'path' : 'file';
    throw new ConfigError(`Invalid configuration in 'provider.ecr.images.${build.name}.${setting}': no Dockerfile at ${dockerfile}`);
  }
  return build;
}
