import type { ResolvedImages } from '../../constructs/function-image';
import type { AwsTarget } from '../../aws/clients';
import type { LoadedService } from '../../service/load';
import { planImages } from './plan';

/** Where packaging reaches ECR for a loaded service (the deploy's connection, or AWS as `fw package` does). */
export type ImageTargetSupplier = (loaded: LoadedService) => Promise<AwsTarget>;

/**
 * A service's container images made ready for its template: the images built from a `path` built
 * and pushed, and tags resolved to digests. Nothing is asked of docker or ECR when every image is
 * given by digest.
 */
export async function serviceImages(loaded: LoadedService, supplier: ImageTargetSupplier | undefined, options: Record<string, unknown>): Promise<ResolvedImages | undefined> {
  const { config, stage, region, serviceDir } = loaded;
  const plan = planImages({ service: loaded.serviceName, provider: config.provider as { ecr?: unknown }, functions: config.functions as never }, stage, region, serviceDir);
  if (plan.builds.length === 0 && plan.tags.length === 0) return undefined;
  // Only now: resolving reaches the AWS SDK (ECR, and aws/clients.ts), which `fw package` of a service without images never loads.
  const { resolveImages } = require('./resolve') as typeof import('./resolve');
  const target = supplier ? await supplier(loaded) : await defaultTarget(loaded, options);
  return resolveImages(plan, { target, local: await isFwLocalCloud(target.endpoint) }, serviceDir);
}

/** `fw package`: AWS in the service's region (or $AWS_ENDPOINT_URL), with the credentials v3 picks. */
export function defaultTarget(loaded: LoadedService, options: Record<string, unknown>): Promise<AwsTarget> {
  const { awsTarget } = require('../../aws/clients') as typeof import('../../aws/clients');
  const { credentialSourcesOf } = require('../../aws/credentials') as typeof import('../../aws/credentials');
  const awsProfile = typeof options['aws-profile'] === 'string' ? options['aws-profile'] : undefined;
  return awsTarget(loaded.region, process.env.AWS_ENDPOINT_URL, credentialSourcesOf(loaded, awsProfile));
}

/** Whether the endpoint is fw's local cloud (it answers `/_fw/health` with `x-fw-local`). */
async function isFwLocalCloud(endpoint: string | undefined): Promise<boolean> {
  if (!endpoint) return false;
  try {
    const response = await fetch(`${endpoint.replace(/\/+$/, '')}/_fw/health`, { signal: AbortSignal.timeout(3_000) });
    await response.arrayBuffer();
    return response.headers.has('x-fw-local');
  } catch {
    return false;
  }
}
