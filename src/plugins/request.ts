import { awsTarget, sdkConfig, type AwsTarget } from '../aws/clients';
import { withTimeouts } from '../aws/timeouts';

/** v3's `provider.request('Lambda', 'listVersionsByFunction', params)` service names → AWS SDK v3 packages fw ships. */
const CLIENTS: Record<string, { module: string; client: string }> = {
  Lambda: { module: '@aws-sdk/client-lambda', client: 'LambdaClient' },
  CloudFormation: { module: '@aws-sdk/client-cloudformation', client: 'CloudFormationClient' },
  S3: { module: '@aws-sdk/client-s3', client: 'S3Client' },
  CloudWatchLogs: { module: '@aws-sdk/client-cloudwatch-logs', client: 'CloudWatchLogsClient' },
  SSM: { module: '@aws-sdk/client-ssm', client: 'SSMClient' },
  STS: { module: '@aws-sdk/client-sts', client: 'STSClient' },
  SNS: { module: '@aws-sdk/client-sns', client: 'SNSClient' },
  SQS: { module: '@aws-sdk/client-sqs', client: 'SQSClient' },
  DynamoDB: { module: '@aws-sdk/client-dynamodb', client: 'DynamoDBClient' },
  EventBridge: { module: '@aws-sdk/client-eventbridge', client: 'EventBridgeClient' },
  SecretsManager: { module: '@aws-sdk/client-secrets-manager', client: 'SecretsManagerClient' },
};

interface SdkClient {
  send(command: unknown): Promise<Record<string, unknown>>;
  destroy(): void;
  middlewareStack: unknown;
}

/** v3's error shape: plugins look at `providerError.statusCode` and `code`. */
export class ProviderRequestError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly providerError: { statusCode?: number; code: string; message: string },
  ) {
    super(message);
    this.name = 'ServerlessError';
  }
}

/**
 * Where `provider.request` goes when no command connected (`fw package`, a plugin's own command):
 * AWS, or $AWS_ENDPOINT_URL, with the credentials v3 picks (`--aws-profile`, the stage's variables,
 * AWS_PROFILE, the environment keys, `provider.profile`).
 */
export function defaultAwsTarget(options: Record<string, unknown>, provider: { region: string; stage: string; profile?: unknown }): Promise<AwsTarget> {
  const awsProfile = typeof options['aws-profile'] === 'string' ? options['aws-profile'] : undefined;
  const providerProfile = typeof provider.profile === 'string' ? provider.profile : undefined;
  return awsTarget(provider.region, process.env.AWS_ENDPOINT_URL, { awsProfile, stage: provider.stage, providerProfile });
}

/**
 * One AWS call, the way a v3 plugin makes it: service and method by name (`'Lambda'`,
 * `'listVersionsByFunction'`), sent with the AWS SDK v3 client of that service (loaded on first
 * use) at the endpoint and with the credentials of the running command, with fw's time-outs.
 */
export async function awsRequest(target: AwsTarget, service: string, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const known = CLIENTS[service];
  if (!known) throw new Error(`provider.request: the AWS service "${service}" is not available in fw (available: ${Object.keys(CLIENTS).join(', ')})`);
  const sdk = require(known.module) as Record<string, new (input: unknown) => unknown>;
  const commandName = `${method.charAt(0).toUpperCase()}${method.slice(1)}Command`;
  const Command = sdk[commandName];
  if (typeof Command !== 'function') throw new Error(`provider.request: ${service} has no method "${method}"`);
  const client = withTimeouts(
    (settings) => new sdk[known.client]({ ...sdkConfig(target), ...settings, ...(service === 'S3' && target.endpoint ? { forcePathStyle: true } : {}) }) as SdkClient,
  );
  try {
    const response = await client.send(new Command(params));
    delete response.$metadata;
    return response;
  } catch (error) {
    const err = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const code = err.name ?? 'Error';
    throw new ProviderRequestError(`${service}.${method}: ${err.message ?? code}`, `AWS_${service.toUpperCase()}_${method.toUpperCase()}_${code.toUpperCase()}`, {
      statusCode: err.$metadata?.httpStatusCode,
      code,
      message: err.message ?? code,
    });
  } finally {
    client.destroy();
  }
}
