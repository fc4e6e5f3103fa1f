import type { ClientCredentials } from '../../aws/credentials';
import { timeoutSettings, withTimeouts } from '../../aws/timeouts';
import type { SourceHelpers } from '../source';

interface SourceClientConfig {
  region: string;
  endpoint?: string;
  credentials?: ClientCredentials;
  forcePathStyle?: boolean;
  maxAttempts?: number;
  requestHandler: ReturnType<typeof timeoutSettings>['requestHandler'];
}

/**
 * A client for an AWS-backed source, built with its settings: the region, the endpoint/credentials
 * override if any, else the credentials Serverless v3 picks for the command (`--aws-profile`, the
 * stage's variables, AWS_PROFILE, the environment keys, `provider.profile`), and fw's time-outs (so a
 * silent endpoint fails the variable instead of hanging).
 */
export async function awsSourceClient<Client extends { middlewareStack: unknown }>(create: (config: SourceClientConfig) => Client, helpers: SourceHelpers, region: string): Promise<Client> {
  const config = await awsClientConfig(helpers, region);
  return withTimeouts(settings => create({ ...config, ...settings }));
}

async function awsClientConfig(helpers: SourceHelpers, region: string): Promise<Omit<SourceClientConfig, 'requestHandler'>> {
  const { context } = helpers;
  const config: Omit<SourceClientConfig, 'requestHandler'> = { region };
  if (context.aws?.endpoint) {
    config.endpoint = context.aws.endpoint;
    config.forcePathStyle = true;
  }
  if (context.aws?.credentials) {
    config.credentials = context.aws.credentials;
    return config;
  }
  const { resolveCredentials } = require('../../aws/credentials') as typeof import('../../aws/credentials');
  const awsProfile = context.options['aws-profile'];
  const { credentials } = await resolveCredentials({
    awsProfile: typeof awsProfile === 'string' ? awsProfile : undefined,
    stage: await helpers.stage(),
    providerProfile: await helpers.profile(),
    env: context.env,
  });
  if (credentials) config.credentials = credentials;
  return config;
}

/** An AWS "not found" answer, whatever the service calls it. */
export function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string })?.name ?? '';
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  return /NotFound|NoSuchKey|NoSuchBucket|does not exist/i.test(name) || status === 404;
}
