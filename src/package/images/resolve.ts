import { resolve } from 'node:path';
import type { ImageBuild, ResolvedImages } from '../../constructs/function-image';
import { parseEcrUri } from '../../artifacts/image-uri';
import { describeAwsError, type AwsTarget } from '../../aws/clients';
import { CloudError } from '../../errors';
import { DockerFailure, runDocker, type DockerOutput } from './docker';
import type { ImagePlan } from './plan';
import { EcrRegistry } from './registry';

export interface ImageTarget {
  /** Where ECR is: AWS, another endpoint, or fw's local cloud. */
  target: AwsTarget;
  /**
   * fw's local cloud: it has ECR's API but no registry to push to, so a built image is recorded
   * there by its manifest (PutImage) instead of tagged and pushed.
   */
  local: boolean;
}

/** `docker push` names the pushed manifest: `<tag>: digest: sha256:<hex> size: <n>`. */
const PUSHED_DIGEST = /digest: (sha256:[0-9a-f]{64})/;
/** What docker says when it holds no (or an expired) login for the registry: log in and push again. */
const NEEDS_LOGIN = /no basic auth credentials|authorization token has expired|authentication required|unauthorized/i;

/**
 * Builds and pushes the images the plan names and resolves tags to digests, the way v3 does it:
 * `docker --version`, the service's repository found or created, then per image `docker build`,
 * `docker tag`, `docker push` (a `docker login` with a fresh ECR password on stdin when the push
 * needs one, then the push again); the digest from the push's output, else DescribeImages.
 */
export async function resolveImages(plan: ImagePlan, where: ImageTarget, serviceDir: string): Promise<ResolvedImages> {
  const resolved: ResolvedImages = { built: {}, tagged: {} };
  if (plan.builds.length === 0 && plan.tags.length === 0) return resolved;
  const registry = new EcrRegistry(where.target);
  const ecr = <T>(action: string, call: () => Promise<T>): Promise<T> => call().catch(error => Promise.reject(describeAwsError(error, action, where.target)));

  for (const { uri, configPath } of plan.tags) {
    const { registryId, repository, tag } = parseEcrUri(uri);
    const digest = await registry.digestOf(repository, tag!, registryId).catch(error => {
      throw new CloudError(`Cannot resolve the image ${uri} (${configPath}) to a digest: ${(error as Error).name}: ${(error as Error).message}`);
    });
    resolved.tagged[uri] = uri.replace(/:[^:/]+$/, `@${digest}`);
  }
  if (plan.builds.length === 0) return resolved;

  const first = plan.builds[0];
  await docker(['--version'], first, serviceDir);
  const repositoryUri = await ecr(`creating the image repository ${plan.repository}`, () => registry.repositoryUri(plan.repository, plan.scanOnPush));
  let loggedIn = false;
  for (const build of plan.builds) {
    const localTag = `${plan.repository}:${build.name}`;
    await docker(buildArguments(build, localTag, serviceDir), build, serviceDir);
    let digest: string;
    if (where.local) {
      const { stdout } = await docker(['image', 'inspect', '--format', '{{.Id}}', localTag], build, serviceDir);
      digest = await ecr(`recording image ${build.name}`, () => registry.putImage(plan.repository, build.name, localManifest(stdout.trim())));
    } else {
      const remoteTag = `${repositoryUri}:${build.name}`;
      await docker(['tag', localTag, remoteTag], build, serviceDir);
      let pushed: DockerOutput;
      try {
        pushed = await runDocker(['push', remoteTag], { cwd: serviceDir });
      } catch (error) {
        if (loggedIn || !(error instanceof DockerFailure) || !NEEDS_LOGIN.test(`${error.output.stderr}\n${error.output.stdout}`)) throw dockerError(error, 'push', build);
        const { username, password, endpoint } = await ecr('getting a registry login', () => registry.login());
        await docker(['login', '--username', username, '--password-stdin', endpoint], build, serviceDir, { input: password, secrets: [password] });
        loggedIn = true;
        pushed = await docker(['push', remoteTag], build, serviceDir);
      }
      digest = PUSHED_DIGEST.exec(pushed.stdout)?.[1] ?? (await ecr(`reading the digest of image ${build.name}`, () => registry.digestOf(plan.repository, build.name)));
    }
    resolved.built[build.name] = `${repositoryUri}@${digest}`;
  }
  return resolved;
}

/** `docker build` as v3 runs it, then fw's `buildOptions` before the context. */
export function buildArguments(build: ImageBuild, localTag: string, serviceDir: string): string[] {
  const args = ['build', '-t', localTag, '-f', resolve(serviceDir, build.path, build.file)];
  for (const [name, value] of Object.entries(build.buildArgs)) args.push('--build-arg', `${name}=${value}`);
  for (const image of build.cacheFrom) args.push('--cache-from', image);
  args.push(...build.buildOptions, build.path);
  if (build.platform !== undefined) args.push(`--platform=${build.platform}`);
  return args;
}

/** The manifest the local cloud records for a locally built image: it names the image by its id. */
function localManifest(imageId: string): string {
  return JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
    config: { mediaType: 'application/vnd.docker.container.image.v1+json', size: 0, digest: imageId },
    layers: [],
  });
}

async function docker(args: string[], build: ImageBuild, cwd: string, options: { input?: string; secrets?: string[] } = {}): Promise<DockerOutput> {
  try {
    return await runDocker(args, { cwd, ...options });
  } catch (error) {
    throw dockerError(error, args[0], build);
  }
}

/** One line: what docker needed, for which image and setting, and docker's own reason. */
function dockerError(error: unknown, command: string, build: ImageBuild): Error {
  if (!(error instanceof DockerFailure)) return error as Error;
  const where = `image '${build.name}' (provider.ecr.images.${build.name}.path)`;
  if (error.missing) return new CloudError(`docker is required to build ${where}: ${error.message}; install Docker, or give the image's "uri" instead of "path"`);
  if (error.daemonDown) return new CloudError(`docker with a running daemon is required to build ${where}: ${error.reason}`);
  return new CloudError(`docker ${command} failed for ${where}: ${error.reason}`);
}
