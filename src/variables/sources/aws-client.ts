import type { ResolveContext } from '../index';

/** Client settings for the AWS-backed sources: the region, and the endpoint/credentials override if any. */
export function awsClientConfig(context: ResolveContext, region: string): { region: string; endpoint?: string; credentials?: NonNullable<ResolveContext['aws']>['credentials']; forcePathStyle?: boolean; maxAttempts?: number } {
  const config: ReturnType<typeof awsClientConfig> = { region };
  if (context.aws?.endpoint) {
    config.endpoint = context.aws.endpoint;
    config.forcePathStyle = true;
  }
  if (context.aws?.credentials) config.credentials = context.aws.credentials;
  return config;
}

/** An AWS "not found" answer, whatever the service calls it. */
export function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string })?.name ?? '';
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  return /NotFound|NoSuchKey|NoSuchBucket|does not exist/i.test(name) || status === 404;
}
