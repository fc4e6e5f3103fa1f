import { createHash } from 'node:crypto';
import type { ECRClient } from '@aws-sdk/client-ecr';
import { sdkConfig, type AwsTarget } from '../../aws/clients';
import { withTimeouts } from '../../aws/timeouts';

/** The ECR calls image packaging and `fw remove` make, on AWS or an AWS-compatible endpoint. */
export class EcrRegistry {
  private readonly client: ECRClient;
  private readonly ecr = require('@aws-sdk/client-ecr') as typeof import('@aws-sdk/client-ecr');

  constructor(readonly target: AwsTarget) {
    const { ECRClient } = this.ecr;
    this.client = withTimeouts(settings => new ECRClient({ ...sdkConfig(target), ...settings }));
  }

  /** The repository's URI; created (with `scanOnPush`) when it does not exist, as v3 does. */
  async repositoryUri(name: string, scanOnPush: boolean): Promise<string> {
    const { DescribeRepositoriesCommand, CreateRepositoryCommand } = this.ecr;
    try {
      const found = await this.client.send(new DescribeRepositoriesCommand({ repositoryNames: [name] }));
      return found.repositories![0].repositoryUri!;
    } catch (error) {
      if ((error as Error).name !== 'RepositoryNotFoundException') throw error;
    }
    const created = await this.client.send(new CreateRepositoryCommand({ repositoryName: name, imageScanningConfiguration: { scanOnPush } }));
    return created.repository!.repositoryUri!;
  }

  /** Whether the repository exists (what `fw remove` asks before deleting it). */
  async hasRepository(name: string): Promise<boolean> {
    const { DescribeRepositoriesCommand } = this.ecr;
    try {
      await this.client.send(new DescribeRepositoriesCommand({ repositoryNames: [name] }));
      return true;
    } catch (error) {
      if ((error as Error).name === 'RepositoryNotFoundException') return false;
      throw error;
    }
  }

  /** Deletes the repository with its images (`force`), as `serverless remove` does. */
  async deleteRepository(name: string): Promise<void> {
    const { DeleteRepositoryCommand } = this.ecr;
    await this.client.send(new DeleteRepositoryCommand({ repositoryName: name, force: true }));
  }

  /** `docker login` credentials for the registry: user `AWS`, a 12-hour password, the registry's endpoint. */
  async login(): Promise<{ username: string; password: string; endpoint: string }> {
    const { GetAuthorizationTokenCommand } = this.ecr;
    const answer = await this.client.send(new GetAuthorizationTokenCommand({}));
    const data = answer.authorizationData![0];
    const [username, ...rest] = Buffer.from(data.authorizationToken!, 'base64').toString('utf8').split(':');
    return { username, password: rest.join(':'), endpoint: data.proxyEndpoint! };
  }

  /** The digest (`sha256:…`) the tag points at; ImageNotFoundException when there is none. */
  async digestOf(repository: string, tag: string, registryId?: string): Promise<string> {
    const { DescribeImagesCommand } = this.ecr;
    const answer = await this.client.send(new DescribeImagesCommand({ repositoryName: repository, registryId, imageIds: [{ imageTag: tag }] }));
    return answer.imageDetails![0].imageDigest!;
  }

  /**
   * Records an image by its manifest under a tag (fw's local cloud, which has no registry for
   * `docker push`): the digest is the manifest's, as ECR computes it; putting the same again is no change.
   */
  async putImage(repository: string, tag: string, manifest: string): Promise<string> {
    const { PutImageCommand } = this.ecr;
    try {
      const answer = await this.client.send(new PutImageCommand({ repositoryName: repository, imageTag: tag, imageManifest: manifest }));
      return answer.image!.imageId!.imageDigest!;
    } catch (error) {
      if ((error as Error).name !== 'ImageAlreadyExistsException') throw error;
      return `sha256:${createHash('sha256').update(manifest).digest('hex')}`;
    }
  }
}
