import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BatchGetImageCommand,
  CreateRepositoryCommand,
  DeleteRepositoryCommand,
  DescribeImagesCommand,
  DescribeRepositoriesCommand,
  ECRClient,
  GetAuthorizationTokenCommand,
  PutImageCommand,
} from '@aws-sdk/client-ecr';
import { LOCAL_CREDENTIALS, startTestCloud, type TestCloud } from '../helpers/local-cloud';

const MANIFEST = '{"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.manifest.v2+json","config":{"mediaType":"application/vnd.docker.container.image.v1+json","size":0,"digest":"sha256:2222222222222222222222222222222222222222222222222222222222222222"},"layers":[]}';
const DIGEST = `sha256:${createHash('sha256').update(MANIFEST).digest('hex')}`;

const ecr = suite<TestCloud & { client: ECRClient }>('the local ECR API answers as ECR does');

ecr.before(async context => {
  Object.assign(context, await startTestCloud());
  context.client = new ECRClient({ endpoint: context.cloud.url, region: 'eu-west-1', credentials: LOCAL_CREDENTIALS });
});
ecr.after(async context => context.stop());

/** The error an ECR call fails with: its name and message. */
async function failure(call: Promise<unknown>): Promise<[string, string]> {
  try {
    await call;
  } catch (error) {
    return [(error as Error).name, (error as Error).message];
  }
  throw new Error('the call succeeded');
}

ecr('a repository is created once, described, and named in the region it was created in', async ({ client }) => {
  const created = await client.send(new CreateRepositoryCommand({ repositoryName: 'serverless-app-dev', imageScanningConfiguration: { scanOnPush: true } }));
  const expected = {
    repositoryArn: 'arn:aws:ecr:eu-west-1:000000000000:repository/serverless-app-dev',
    registryId: '000000000000',
    repositoryName: 'serverless-app-dev',
    repositoryUri: '000000000000.dkr.ecr.eu-west-1.amazonaws.com/serverless-app-dev',
    imageTagMutability: 'MUTABLE',
    imageScanningConfiguration: { scanOnPush: true },
    encryptionConfiguration: { encryptionType: 'AES256' },
  };
  const { createdAt, ...rest } = created.repository!;
  assert.instance(createdAt, Date);
  assert.equal(rest, expected);
  assert.equal(await failure(client.send(new CreateRepositoryCommand({ repositoryName: 'serverless-app-dev' }))), [
    'RepositoryAlreadyExistsException',
    "The repository with name 'serverless-app-dev' already exists in the registry with id '000000000000'",
  ]);
  const described = await client.send(new DescribeRepositoriesCommand({ repositoryNames: ['serverless-app-dev'] }));
  assert.equal(described.repositories!.map(({ createdAt: _created, ...repository }) => repository), [expected]);
  assert.equal(await failure(client.send(new DescribeRepositoriesCommand({ repositoryNames: ['nope'] }))), [
    'RepositoryNotFoundException',
    "The repository with name 'nope' does not exist in the registry with id '000000000000'",
  ]);
});

ecr('an image put by manifest is found by tag and digest; a missing one is ImageNotFoundException or a BatchGetImage failure', async ({ client }) => {
  const put = await client.send(new PutImageCommand({ repositoryName: 'serverless-app-dev', imageTag: 'hello', imageManifest: MANIFEST }));
  assert.equal(put.image!.imageId, { imageDigest: DIGEST, imageTag: 'hello' });
  assert.equal(await failure(client.send(new PutImageCommand({ repositoryName: 'serverless-app-dev', imageTag: 'hello', imageManifest: MANIFEST }))), [
    'ImageAlreadyExistsException',
    `Image with digest '${DIGEST}' and tag 'hello' already exists in the repository with name 'serverless-app-dev' in registry with id '000000000000'`,
  ]);
  const described = await client.send(new DescribeImagesCommand({ repositoryName: 'serverless-app-dev', imageIds: [{ imageTag: 'hello' }] }));
  assert.equal(described.imageDetails!.map(image => [image.imageDigest, image.imageTags]), [[DIGEST, ['hello']]]);
  assert.equal(await failure(client.send(new DescribeImagesCommand({ repositoryName: 'serverless-app-dev', imageIds: [{ imageTag: 'latest' }] }))), [
    'ImageNotFoundException',
    "The image with imageId {imageDigest:'null', imageTag:'latest'} does not exist within the repository with name 'serverless-app-dev' in the registry with id '000000000000'",
  ]);
  const batch = await client.send(new BatchGetImageCommand({ repositoryName: 'serverless-app-dev', imageIds: [{ imageDigest: DIGEST }, { imageTag: 'latest' }] }));
  assert.equal(batch.images!.map(image => image.imageManifest), [MANIFEST]);
  assert.equal(batch.failures, [{ imageId: { imageTag: 'latest' }, failureCode: 'ImageNotFound', failureReason: 'Requested image not found' }]);
});

ecr('a login token is AWS:<password>; a repository with images is deleted only with force', async ({ client }) => {
  const token = await client.send(new GetAuthorizationTokenCommand({}));
  const data = token.authorizationData![0];
  assert.is(data.proxyEndpoint, 'https://000000000000.dkr.ecr.eu-west-1.amazonaws.com');
  assert.match(Buffer.from(data.authorizationToken!, 'base64').toString('utf8'), /^AWS:\S{20,}$/);
  assert.equal(await failure(client.send(new DeleteRepositoryCommand({ repositoryName: 'serverless-app-dev' }))), [
    'RepositoryNotEmptyException',
    "The repository with name 'serverless-app-dev' in registry with id '000000000000' cannot be deleted because it still contains images",
  ]);
  const deleted = await client.send(new DeleteRepositoryCommand({ repositoryName: 'serverless-app-dev', force: true }));
  assert.is(deleted.repository!.repositoryName, 'serverless-app-dev');
  assert.equal((await client.send(new DescribeRepositoriesCommand({}))).repositories, []);
});

ecr.run();
