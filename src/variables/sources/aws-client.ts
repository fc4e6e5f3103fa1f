import type { ResolveContext } from '../index';
import { timeoutSettings, withTimeouts } from '../../deploy/timeouts';

interface SourceClientConfig {
  region: string;
  endpoint?: string;
  credentials?: NonNullable<ResolveContext['aws']>['credentials'];
  forcePathStyle?: boolean;
  maxAttempts?: number;
  requestHandler: ReturnType<typeof timeoutSettings>['requestHandler'];
}

/**
 * A client for an AWS-backed source, built with its settings: the region, the endpoint/credentials
 * override if any, and fw's time-outs (so a silent endpoint fails the variable instead of hanging).
 */
export function awsSourceClient<Client extends { middlewareStack: unknown }>(create: (config: SourceClientConfig) => Client, context: ResolveContext, region: string): Client {
  return withTimeouts(settings => create(awsClientConfig(context, region, settings)));
}

/** Client settings for the AWS-backed sources: the region, and the endpoint/credentials override if any. */
function awsClientConfig(context: ResolveContext, region: string, settings: ReturnType<typeof timeoutSettings>): SourceClientConfig {
  const config: SourceClientConfig = { region, ...settings };
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
