import { createHash, randomBytes } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import { jsonResponse, type LocalResponse } from '../http';
import type { ImageRepositoryStore, StoredImage, StoredRepository } from './repositories';

const JSON_11 = 'application/x-amz-json-1.1';
const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
/** ECR's repository name rule. */
const REPOSITORY_NAME = /^(?=.{2,256}$)((?:[a-z0-9]+(?:[._-][a-z0-9]+)*\/)*[a-z0-9]+(?:[._-][a-z0-9]+)*)$/;

/**
 * ECR's control plane (JSON 1.1, `AmazonEC2ContainerRegistry_V20150921`): the repositories and
 * images that container image functions are packaged with. There is no registry behind it to
 * `docker push` to: fw records a locally built image with PutImage.
 */
export function ecrApi(store: ImageRepositoryStore, accountId: string, operation: string, input: Record<string, unknown>, region: string): LocalResponse {
  const uriOf = (name: string) => `${accountId}.dkr.ecr.${region}.amazonaws.com/${name}`;
  const shape = (repository: StoredRepository) => ({
    repositoryArn: `arn:aws:ecr:${region}:${accountId}:repository/${repository.name}`,
    registryId: accountId,
    repositoryName: repository.name,
    repositoryUri: uriOf(repository.name),
    createdAt: repository.createdAt,
    imageTagMutability: repository.tagMutability,
    imageScanningConfiguration: { scanOnPush: repository.scanOnPush },
    encryptionConfiguration: { encryptionType: 'AES256' },
  });
  const existing = (name: unknown): StoredRepository => {
    checkRegistry(input.registryId, accountId);
    const repository = store.find(region, String(name));
    if (!repository) throw new AwsError('RepositoryNotFoundException', `The repository with name '${String(name)}' does not exist in the registry with id '${accountId}'`);
    return repository;
  };
  const answer = (value: unknown) => jsonResponse(value, 200, JSON_11);

  switch (operation) {
    case 'CreateRepository': {
      const name = String(input.repositoryName ?? '');
      checkRegistry(input.registryId, accountId);
      if (!REPOSITORY_NAME.test(name)) {
        throw new AwsError('InvalidParameterException', `Invalid parameter at 'repositoryName' failed to satisfy constraint: 'must satisfy regular expression '${REPOSITORY_NAME.source}''`);
      }
      if (store.find(region, name)) throw new AwsError('RepositoryAlreadyExistsException', `The repository with name '${name}' already exists in the registry with id '${accountId}'`);
      const scanning = input.imageScanningConfiguration as { scanOnPush?: unknown } | undefined;
      const repository: StoredRepository = {
        name,
        region,
        createdAt: Math.floor(Date.now() / 1000),
        scanOnPush: scanning?.scanOnPush === true,
        tagMutability: typeof input.imageTagMutability === 'string' ? input.imageTagMutability : 'MUTABLE',
        images: [],
      };
      store.create(repository);
      return answer({ repository: shape(repository) });
    }
    case 'DescribeRepositories': {
      const names = input.repositoryNames as unknown[] | undefined;
      checkRegistry(input.registryId, accountId);
      const repositories = names === undefined ? store.list(region) : names.map(name => existing(name));
      return answer({ repositories: repositories.map(shape) });
    }
    case 'DeleteRepository': {
      const repository = existing(input.repositoryName);
      if (repository.images.length > 0 && input.force !== true) {
        throw new AwsError('RepositoryNotEmptyException', `The repository with name '${repository.name}' in registry with id '${accountId}' cannot be deleted because it still contains images`);
      }
      store.delete(region, repository.name);
      return answer({ repository: shape(repository) });
    }
    case 'GetAuthorizationToken': {
      // A password for `docker login` that nothing checks: there is no registry here.
      const token = Buffer.from(`AWS:${randomBytes(24).toString('base64')}`).toString('base64');
      return answer({ authorizationData: [{ authorizationToken: token, expiresAt: Math.floor(Date.now() / 1000) + 12 * 3600, proxyEndpoint: `https://${accountId}.dkr.ecr.${region}.amazonaws.com` }] });
    }
    case 'PutImage': {
      const repository = existing(input.repositoryName);
      const manifest = String(input.imageManifest ?? '');
      try {
        JSON.parse(manifest);
      } catch {
        throw new AwsError('InvalidParameterException', 'Invalid parameter at \'ImageManifest\' failed to satisfy constraint: \'Invalid JSON syntax\'');
      }
      const digest = `sha256:${createHash('sha256').update(manifest).digest('hex')}`;
      if (input.imageDigest !== undefined && input.imageDigest !== digest) {
        throw new AwsError('ImageDigestDoesNotMatchException', `The provided image digest '${String(input.imageDigest)}' does not match the calculated digest '${digest}'`);
      }
      const tag = typeof input.imageTag === 'string' ? input.imageTag : undefined;
      let image = repository.images.find(candidate => candidate.digest === digest);
      if (image && (tag === undefined || image.tags.includes(tag))) {
        throw new AwsError('ImageAlreadyExistsException', `Image with digest '${digest}'${tag ? ` and tag '${tag}'` : ''} already exists in the repository with name '${repository.name}' in registry with id '${accountId}'`);
      }
      if (tag !== undefined) {
        const holder = repository.images.find(candidate => candidate.tags.includes(tag));
        if (holder && repository.tagMutability === 'IMMUTABLE') {
          throw new AwsError('ImageTagAlreadyExistsException', `The image tag '${tag}' already exists in the '${repository.name}' repository and cannot be overwritten because the repository is immutable.`);
        }
        if (holder) holder.tags = holder.tags.filter(candidate => candidate !== tag);
      }
      if (!image) {
        image = { digest, tags: [], manifest, mediaType: String(input.imageManifestMediaType ?? mediaTypeOf(manifest)), pushedAt: Math.floor(Date.now() / 1000) };
        repository.images.push(image);
      }
      if (tag !== undefined) image.tags.push(tag);
      store.save();
      return answer({ image: { registryId: accountId, repositoryName: repository.name, imageId: { imageDigest: digest, ...(tag ? { imageTag: tag } : {}) }, imageManifest: manifest, imageManifestMediaType: image.mediaType } });
    }
    case 'DescribeImages': {
      const repository = existing(input.repositoryName);
      const ids = input.imageIds as Array<{ imageDigest?: string; imageTag?: string }> | undefined;
      const images = ids === undefined ? repository.images : ids.map(id => findImage(repository, id, accountId, true)!);
      return answer({
        imageDetails: images.map(image => ({
          registryId: accountId,
          repositoryName: repository.name,
          imageDigest: image.digest,
          ...(image.tags.length > 0 ? { imageTags: image.tags } : {}),
          imageSizeInBytes: image.manifest.length,
          imagePushedAt: image.pushedAt,
          imageManifestMediaType: image.mediaType,
        })),
      });
    }
    case 'BatchGetImage': {
      const repository = existing(input.repositoryName);
      const ids = (input.imageIds as Array<{ imageDigest?: string; imageTag?: string }> | undefined) ?? [];
      const images: unknown[] = [];
      const failures: unknown[] = [];
      for (const id of ids) {
        const image = findImage(repository, id, accountId, false);
        if (image) images.push({ registryId: accountId, repositoryName: repository.name, imageId: id, imageManifest: image.manifest, imageManifestMediaType: image.mediaType });
        else failures.push({ imageId: id, failureCode: 'ImageNotFound', failureReason: 'Requested image not found' });
      }
      return answer({ images, failures });
    }
    default:
      throw new AwsError('UnknownOperationException', `not emulated: ECR ${operation}`);
  }
}

function findImage(repository: StoredRepository, id: { imageDigest?: string; imageTag?: string }, accountId: string, required: boolean): StoredImage | undefined {
  const image = repository.images.find(candidate => (id.imageDigest === undefined || candidate.digest === id.imageDigest) && (id.imageTag === undefined || candidate.tags.includes(id.imageTag)));
  if (!image && required) {
    throw new AwsError(
      'ImageNotFoundException',
      `The image with imageId {imageDigest:'${id.imageDigest ?? 'null'}', imageTag:'${id.imageTag ?? 'null'}'} does not exist within the repository with name '${repository.name}' in the registry with id '${accountId}'`,
    );
  }
  return image;
}

/** One account here: another registry's repositories are not found (AWS would need its permission). */
function checkRegistry(registryId: unknown, accountId: string): void {
  if (registryId !== undefined && registryId !== accountId) {
    throw new AwsError('RepositoryNotFoundException', `The local cloud holds the registry of account ${accountId} only, not ${String(registryId)}`);
  }
}

function mediaTypeOf(manifest: string): string {
  const declared = (JSON.parse(manifest) as { mediaType?: unknown }).mediaType;
  return typeof declared === 'string' ? declared : DOCKER_MANIFEST;
}
