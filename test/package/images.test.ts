import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateRepositoryCommand, DescribeImagesCommand, DescribeRepositoriesCommand, ECRClient, PutImageCommand } from '@aws-sdk/client-ecr';
import { runFw } from '../helpers/cli';
import { FIXTURES, normalize } from '../helpers/golden';
import { LOCAL_CREDENTIALS, TEST_ENV, startTestCloud, type TestCloud } from '../helpers/local-cloud';

const IMAGES = join(FIXTURES, 'images');
const FAKE_DOCKER = join(IMAGES, 'fake-docker');
const REGISTRY = '000000000000.dkr.ecr.us-east-1.amazonaws.com';

interface Context extends TestCloud {
  ecr: ECRClient;
  /** The local cloud behind a proxy that hides `/_fw/health`: fw then pushes as to AWS's ECR. */
  proxy: Server;
  proxyUrl: string;
  dirs: string[];
}

/** Forwards every request to the local cloud except its health check, so fw takes it for AWS. */
function startProxy(target: string): Promise<Server> {
  const { port } = new URL(target);
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/_fw/health')) {
      res.writeHead(404).end();
      return;
    }
    const forwarded = request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, answer => {
      res.writeHead(answer.statusCode ?? 500, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forwarded);
  });
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A copy of a fixture case (its `expected/` left out), deleted after the suite. */
function copyCase(context: Context, name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'fw-images-'));
  context.dirs.push(dir);
  cpSync(join(IMAGES, name), dir, { recursive: true, filter: source => !source.startsWith(join(IMAGES, name, 'expected')) });
  return dir;
}

/** Runs fw with the fake docker first on PATH (or no docker at all), recording its calls in `<dir>/docker.log`. */
async function fw(dir: string, args: string[], env: Record<string, string> = {}) {
  const result = await runFw(args, dir, { ...TEST_ENV, PATH: `${FAKE_DOCKER}${delimiter}${process.env.PATH}`, FAKE_DOCKER_LOG: join(dir, 'docker.log'), FAKE_DOCKER_MODE: '', ...env });
  const log = existsSync(join(dir, 'docker.log')) ? readFileSync(join(dir, 'docker.log'), 'utf8') : '';
  const calls = log.split('\n').filter(Boolean).map(line => JSON.parse(line.split(dir).join('<case>')) as { args: string[]; stdin?: string });
  return { ...result, calls };
}

const expected = (name: string, file: string) => JSON.parse(readFileSync(join(IMAGES, name, 'expected', file), 'utf8'));
const template = (dir: string) => JSON.parse(readFileSync(join(dir, '.serverless', 'cloudformation-template-update-stack.json'), 'utf8'));
/** One image's docker commands, in order (v3 runs its images' commands interleaved). */
const commandsOf = (calls: Array<{ args: string[] }>, image: string) => calls.map(call => call.args).filter(args => args.some(arg => arg.endsWith(`:${image}`)));

const images = suite<Context>('container images: built with docker, pushed to ECR, resolved to digests, as serverless@3 does');

images.before(async context => {
  Object.assign(context, await startTestCloud());
  context.ecr = new ECRClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  context.proxy = await startProxy(context.cloud.url);
  context.proxyUrl = `http://127.0.0.1:${(context.proxy.address() as AddressInfo).port}`;
  context.dirs = [];
});
images.after(async context => {
  await new Promise(resolve => context.proxy.close(resolve));
  await context.stop();
  for (const dir of context.dirs) rmSync(dir, { recursive: true, force: true });
});

images('images built from a path give the template the reference gives, after the same docker commands', async context => {
  const dir = copyCase(context, 'build-path');
  const result = await fw(dir, ['package'], { AWS_ENDPOINT_URL: context.proxyUrl, FAKE_DOCKER_MODE: 'needs-login' });
  assert.is(result.code, 0, result.stderr + result.stdout);
  assert.equal(normalize(template(dir)), normalize(expected('build-path', 'update.json')));
  const reference = expected('build-path', 'docker.json') as Array<{ args: string[] }>;
  // v3 passes the password as an argument; fw passes it on stdin, where no process listing shows it.
  const asFw = (args: string[]) => (args[0] === 'login' ? ['login', '--username', 'AWS', '--password-stdin', args[5]] : args);
  // The first image's push fails without a login and is pushed again after it; v3 pushes both at once (both fail first), fw one after the other.
  assert.equal(commandsOf(result.calls, 'appimage'), commandsOf(reference, 'appimage'));
  const once = (commands: string[][]) => commands.filter((args, index) => index === 0 || JSON.stringify(args) !== JSON.stringify(commands[index - 1]));
  assert.equal(commandsOf(result.calls, 'plain'), once(commandsOf(reference, 'plain')));
  assert.equal(result.calls[0].args, ['--version']);
  const logins = result.calls.filter(call => call.args[0] === 'login');
  assert.equal(logins.map(call => call.args), reference.filter(call => call.args[0] === 'login').slice(0, 1).map(call => asFw(call.args)));
  assert.ok(logins[0].stdin && logins[0].stdin.length > 20, 'the password comes on stdin');
  const repositories = await context.ecr.send(new DescribeRepositoriesCommand({ repositoryNames: ['serverless-app-dev'] }));
  assert.equal(
    repositories.repositories!.map(repository => [repository.repositoryUri, repository.imageScanningConfiguration]),
    [[`${REGISTRY}/serverless-app-dev`, { scanOnPush: true }]],
  );
});

images('a tag is resolved to the digest ECR holds for it, as the reference does', async context => {
  const manifests = JSON.parse(readFileSync(join(IMAGES, 'tag-uri', 'ecr-images.json'), 'utf8'))['shared-images'] as Record<string, string>;
  await context.ecr.send(new CreateRepositoryCommand({ repositoryName: 'shared-images' }));
  for (const [tag, manifest] of Object.entries(manifests)) await context.ecr.send(new PutImageCommand({ repositoryName: 'shared-images', imageTag: tag, imageManifest: manifest }));
  const dir = copyCase(context, 'tag-uri');
  const result = await fw(dir, ['package'], { AWS_ENDPOINT_URL: context.proxyUrl });
  assert.is(result.code, 0, result.stderr + result.stdout);
  assert.equal(normalize(template(dir)), normalize(expected('tag-uri', 'update.json')));
  assert.equal(result.calls, [], 'no docker for images given by URI');
});

images('a tag ECR does not hold is one line naming the setting and ECR’s answer', async context => {
  const dir = copyCase(context, 'tag-uri');
  const result = await fw(dir, ['package'], { AWS_ENDPOINT_URL: context.proxyUrl, FAKE_DOCKER_MODE: '' });
  assert.is(result.code, 0, 'the images exist after the previous test');
  const missing = copyCase(context, 'tag-uri');
  const yml = readFileSync(join(missing, 'serverless.yml'), 'utf8').replace('shared-images:latest', 'shared-images:v9');
  require('node:fs').writeFileSync(join(missing, 'serverless.yml'), yml);
  const failed = await fw(missing, ['package'], { AWS_ENDPOINT_URL: context.proxyUrl });
  assert.is(failed.code, 1);
  assert.is(
    failed.stderr + failed.stdout,
    `Error: Cannot resolve the image ${REGISTRY}/shared-images:v9 (functions.hello.image) to a digest: ImageNotFoundException: The image with imageId {imageDigest:'null', imageTag:'v9'} does not exist within the repository with name 'shared-images' in the registry with id '000000000000'\n`,
  );
});

images('without docker, or with its daemon down, packaging says so in one line naming the image', async context => {
  const dir = copyCase(context, 'build-path');
  const empty = mkdtempSync(join(tmpdir(), 'fw-no-docker-'));
  context.dirs.push(empty);
  const missing = await fw(dir, ['package'], { AWS_ENDPOINT_URL: context.proxyUrl, PATH: empty });
  assert.is(missing.code, 1);
  assert.is(
    missing.stderr + missing.stdout,
    `Error: docker is required to build image 'appimage' (provider.ecr.images.appimage.path): "docker" was not found on PATH; install Docker, or give the image's "uri" instead of "path"\n`,
  );
  const down = await fw(dir, ['package'], { AWS_ENDPOINT_URL: context.proxyUrl, FAKE_DOCKER_MODE: 'daemon-down' });
  assert.is(down.code, 1);
  assert.is(
    down.stderr + down.stdout,
    `Error: docker with a running daemon is required to build image 'appimage' (provider.ecr.images.appimage.path): ERROR: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n`,
  );
});

images('a push without a digest in its output asks ECR for the tag’s digest', async context => {
  const dir = copyCase(context, 'build-path');
  // The digest the previous push left under the tag is what DescribeImages answers; the local cloud records it with PutImage.
  const manifest = '{"schemaVersion":2,"layers":[]}';
  await context.ecr.send(new PutImageCommand({ repositoryName: 'serverless-app-dev', imageTag: 'appimage', imageManifest: manifest }));
  await context.ecr.send(new PutImageCommand({ repositoryName: 'serverless-app-dev', imageTag: 'plain', imageManifest: manifest }));
  const { imageDetails } = await context.ecr.send(new DescribeImagesCommand({ repositoryName: 'serverless-app-dev', imageIds: [{ imageTag: 'appimage' }] }));
  const result = await fw(dir, ['package'], { AWS_ENDPOINT_URL: context.proxyUrl, FAKE_DOCKER_MODE: 'no-digest' });
  assert.is(result.code, 0, result.stderr + result.stdout);
  assert.is(template(dir).Resources.HelloLambdaFunction.Properties.Code.ImageUri, `${REGISTRY}/serverless-app-dev@${imageDetails![0].imageDigest}`);
});

images('a wrong image setting is refused before docker runs', async context => {
  const dir = copyCase(context, 'build-path');
  const yml = readFileSync(join(dir, 'serverless.yml'), 'utf8').replace('file: Dockerfile.lambda', 'file: Nope.docker');
  require('node:fs').writeFileSync(join(dir, 'serverless.yml'), yml);
  const result = await fw(dir, ['package'], { AWS_ENDPOINT_URL: context.proxyUrl });
  assert.is(result.code, 1);
  assert.is(result.stderr + result.stdout, `Error: Invalid configuration in 'provider.ecr.images.appimage.file': no Dockerfile at ${join(dir, 'context', 'Nope.docker')}\n`);
  assert.equal(result.calls, []);
});

images('fw deploy to the local cloud builds the image and records it in the local ECR (no push), and fw remove deletes the repository', async context => {
  const dir = copyCase(context, 'build-path');
  const yml = readFileSync(join(dir, 'serverless.yml'), 'utf8').replace('service: app', 'service: local-images');
  require('node:fs').writeFileSync(join(dir, 'serverless.yml'), yml);
  const deployed = await fw(dir, ['deploy', '--endpoint-url', context.cloud.url]);
  assert.is(deployed.code, 0, deployed.stderr + deployed.stdout);
  assert.equal(
    deployed.calls.map(call => call.args[0] === 'build' ? call.args.slice(0, 3) : call.args),
    [
      ['--version'],
      ['build', '-t', 'serverless-local-images-dev:appimage'],
      ['image', 'inspect', '--format', '{{.Id}}', 'serverless-local-images-dev:appimage'],
      ['build', '-t', 'serverless-local-images-dev:plain'],
      ['image', 'inspect', '--format', '{{.Id}}', 'serverless-local-images-dev:plain'],
    ],
  );
  const { imageDetails } = await context.ecr.send(new DescribeImagesCommand({ repositoryName: 'serverless-local-images-dev' }));
  assert.equal(imageDetails!.map(image => image.imageTags), [['appimage', 'plain']]);
  assert.match(deployed.stdout, 'HelloLambdaFunction: container image not run by the local cloud');
  const removed = await fw(dir, ['remove', '--endpoint-url', context.cloud.url]);
  assert.is(removed.code, 0, removed.stderr + removed.stdout);
  assert.match(removed.stdout, 'Removed the image repository serverless-local-images-dev');
  try {
    await context.ecr.send(new DescribeRepositoriesCommand({ repositoryNames: ['serverless-local-images-dev'] }));
    assert.unreachable('the repository is still there');
  } catch (error) {
    assert.is((error as Error).name, 'RepositoryNotFoundException');
  }
});

images.run();
