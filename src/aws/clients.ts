import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { S3Client } from '@aws-sdk/client-s3';
import { DEFAULT_CHAIN, resolveCredentials, type ClientCredentials, type CredentialSources } from './credentials';
import { CloudError } from '../errors';
import { withTimeouts } from './timeouts';

/** Where and as whom fw talks to CloudFormation and S3. */
export interface AwsTarget {
  region: string;
  /** Any AWS-compatible endpoint (the local cloud, another emulator); none for AWS itself. */
  endpoint?: string;
  /**
   * Fixed keys (the local cloud accepts any, unless started with required ones) or a profile's
   * provider, as `resolveCredentials` chose them; none: the AWS SDK's default chain.
   */
  credentials?: ClientCredentials;
  /** Where the credentials came from, as the user set them (`AWS_PROFILE=p1`, `--aws-profile work`); never a secret. */
  credentialsFrom?: string;
}

/** A target on AWS (or `endpoint`) with the credentials Serverless v3 would pick for these sources. */
export async function awsTarget(region: string, endpoint: string | undefined, sources: CredentialSources): Promise<AwsTarget> {
  const { credentials, from } = await resolveCredentials(sources);
  return { region, ...(endpoint ? { endpoint } : {}), ...(credentials ? { credentials } : {}), credentialsFrom: from };
}

export interface AwsClients {
  target: AwsTarget;
  cloudFormation: CloudFormationClient;
  s3: S3Client;
}

export function createClients(target: AwsTarget): AwsClients {
  const common = { ...sdkConfig(target), maxAttempts: 6 };
  return {
    target,
    cloudFormation: withTimeouts(settings => new CloudFormationClient({ ...common, ...settings })),
    // Path-style addressing works with every emulator and with bucket names that contain dots.
    s3: withTimeouts(settings => new S3Client({ ...common, ...settings, forcePathStyle: Boolean(target.endpoint) })),
  };
}

/**
 * Turns an SDK failure into one line for the user: missing credentials say what was
 * tried; an AWS error keeps its code and message. Never includes credentials.
 */
export function describeAwsError(error: unknown, action: string, target: AwsTarget): Error {
  if (error instanceof CloudError) return error;
  const err = error as { name?: string; message?: string; Code?: string; $metadata?: unknown };
  if (err?.name === 'CredentialsProviderError' || /Could not load credentials/i.test(err?.message ?? '')) {
    if (target.credentialsFrom && target.credentialsFrom !== DEFAULT_CHAIN) {
      return new CloudError(`Cannot load the AWS credentials of ${target.credentialsFrom} for ${action}: ${err.message}`);
    }
    return new CloudError(
      `No AWS credentials found for ${action}: none named (--aws-profile, AWS_<STAGE>_PROFILE, AWS_<STAGE>_ACCESS_KEY_ID, AWS_PROFILE, ` +
        `AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, provider.profile), and the AWS SDK's default chain (the default profile of ` +
        `~/.aws/credentials and ~/.aws/config, SSO, the container/instance metadata service) gave none. ` +
        `Configure credentials, pick a profile with --aws-profile, or deploy locally with --local.`,
    );
  }
  if (err?.name === 'TimeoutError' || /ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(err?.message ?? '') || (err as { code?: string })?.code === 'ECONNREFUSED') {
    return new CloudError(`Cannot reach ${target.endpoint ?? `AWS in ${target.region}`} for ${action}: ${err.message}`);
  }
  // The step of the deploy that failed, when it named itself (`create change set`, `upload`, …).
  const step = (error as { step?: unknown })?.step;
  if (err?.$metadata !== undefined) return new CloudError(`${action} failed${typeof step === 'string' ? ` (${step})` : ''}: ${err.name ?? err.Code}: ${err.message}`);
  return error instanceof Error ? error : new Error(String(error));
}

export const sdkConfig = (target: AwsTarget) => ({
  region: target.region,
  ...(target.endpoint ? { endpoint: target.endpoint } : {}),
  ...(target.credentials ? { credentials: target.credentials } : {}),
});

/** Lambda, CloudWatch Logs and CloudWatch clients, loaded only by the commands that use them (`invoke`, `logs`, `metrics`). */
export function lambdaClient(target: AwsTarget): import('@aws-sdk/client-lambda').LambdaClient {
  const { LambdaClient } = require('@aws-sdk/client-lambda') as typeof import('@aws-sdk/client-lambda');
  return withTimeouts(settings => new LambdaClient({ ...sdkConfig(target), ...settings }));
}

export function logsClient(target: AwsTarget): import('@aws-sdk/client-cloudwatch-logs').CloudWatchLogsClient {
  const { CloudWatchLogsClient } = require('@aws-sdk/client-cloudwatch-logs') as typeof import('@aws-sdk/client-cloudwatch-logs');
  return withTimeouts(settings => new CloudWatchLogsClient({ ...sdkConfig(target), ...settings }));
}

/** API Gateway's management client, loaded only when `info` lists a stack's API keys. */
export function apiGatewayClient(target: AwsTarget): import('@aws-sdk/client-api-gateway').APIGatewayClient {
  const { APIGatewayClient } = require('@aws-sdk/client-api-gateway') as typeof import('@aws-sdk/client-api-gateway');
  return withTimeouts(settings => new APIGatewayClient({ ...sdkConfig(target), ...settings }));
}

export function cloudWatchClient(target: AwsTarget): import('@aws-sdk/client-cloudwatch').CloudWatchClient {
  const { CloudWatchClient } = require('@aws-sdk/client-cloudwatch') as typeof import('@aws-sdk/client-cloudwatch');
  return withTimeouts(settings => new CloudWatchClient({ ...sdkConfig(target), ...settings }));
}
