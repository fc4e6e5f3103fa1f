import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { S3Client } from '@aws-sdk/client-s3';
import { CloudError } from '../errors';
import { withTimeouts } from './timeouts';

/** Where and as whom fw talks to CloudFormation and S3. */
export interface AwsTarget {
  region: string;
  /** Any AWS-compatible endpoint (the local cloud, another emulator); none for AWS itself. */
  endpoint?: string;
  /** A named profile from the shared config/credentials files. */
  profile?: string;
  /** Fixed credentials (the local cloud accepts any, unless started with required ones). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
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
    const profile = target.profile ?? process.env.AWS_PROFILE ?? 'default';
    return new CloudError(
      `No AWS credentials found for ${action}: tried the environment (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY), ` +
        `the shared files ~/.aws/credentials and ~/.aws/config (profile "${profile}", including SSO and credential_process), ` +
        `and the container/instance metadata service. Configure credentials, pick a profile with --aws-profile, or deploy locally with --local.`,
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
  ...(target.profile ? { profile: target.profile } : {}),
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
