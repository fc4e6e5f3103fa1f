/**
 * `Custom::S3`: subscribes a function to a bucket this stack does not own.
 *
 * The bucket's other notification settings (other functions, queues, topics, EventBridge)
 * are kept: only the configurations whose id starts with this function's name are
 * replaced or removed, and S3 gets (or loses) the permission to invoke the function.
 */
import { GetBucketNotificationConfigurationCommand, PutBucketNotificationConfigurationCommand, S3Client } from '@aws-sdk/client-s3';
import { AddPermissionCommand, LambdaClient, RemovePermissionCommand } from '@aws-sdk/client-lambda';
import { arnParts, respond, type CustomResourceEvent, type LambdaContext } from '../response';

interface BucketConfig {
  Event: string;
  Rules?: Array<{ Prefix?: string; Suffix?: string }>;
}

export interface Properties {
  FunctionName: string;
  BucketName: string;
  BucketConfigs: BucketConfig[];
}

/** The two clients the handler calls (tests pass fakes). */
export interface Clients {
  s3: Pick<S3Client, 'send'>;
  lambda: Pick<LambdaClient, 'send'>;
}

export function makeHandler(clients: Clients) {
  return async (event: CustomResourceEvent<Properties>, context: LambdaContext): Promise<void> => {
    const { FunctionName, BucketName } = event.ResourceProperties;
    await respond(event, context, `${FunctionName}-${BucketName}`, async () => {
      const { partition, region, account } = arnParts(context.invokedFunctionArn);
      const functionArn = (name: string) => `arn:${partition}:lambda:${region}:${account}:function:${name}`;
      const old = event.OldResourceProperties;
      if (event.RequestType === 'Delete') {
        await configure(clients, BucketName, FunctionName, functionArn(FunctionName), []);
        await revoke(clients, FunctionName, BucketName);
        return;
      }
      if (old && (old.BucketName !== BucketName || old.FunctionName !== FunctionName)) {
        await configure(clients, old.BucketName, old.FunctionName, functionArn(old.FunctionName), []);
        await revoke(clients, old.FunctionName, old.BucketName);
      }
      await allow(clients, FunctionName, BucketName, partition, account);
      await configure(clients, BucketName, FunctionName, functionArn(FunctionName), event.ResourceProperties.BucketConfigs ?? []);
    });
  };
}

// Lambda's Node.js 18+ runtimes ship the AWS SDK v3 clients used here.
export const handler = makeHandler({ s3: new S3Client({}), lambda: new LambdaClient({}) });

/** The permission's statement id: one per bucket on the function. */
export const statementId = (bucket: string) => `fw-existing-s3-${bucket.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 100);

async function allow({ lambda }: Clients, functionName: string, bucket: string, partition: string, account: string): Promise<void> {
  try {
    await lambda.send(
      new AddPermissionCommand({
        FunctionName: functionName,
        StatementId: statementId(bucket),
        Action: 'lambda:InvokeFunction',
        Principal: 's3.amazonaws.com',
        SourceArn: `arn:${partition}:s3:::${bucket}`,
        SourceAccount: account,
      }),
    );
  } catch (error) {
    // Already granted by an earlier create or update.
    if ((error as { name?: string }).name !== 'ResourceConflictException') throw error;
  }
}

async function revoke({ lambda }: Clients, functionName: string, bucket: string): Promise<void> {
  try {
    await lambda.send(new RemovePermissionCommand({ FunctionName: functionName, StatementId: statementId(bucket) }));
  } catch (error) {
    if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
  }
}

/** Replaces this function's configurations on the bucket by `configs` (none removes them). */
async function configure({ s3 }: Clients, bucket: string, functionName: string, functionArn: string, configs: BucketConfig[]): Promise<void> {
  const current = await s3.send(new GetBucketNotificationConfigurationCommand({ Bucket: bucket }));
  const prefix = `fw:${functionName}:`;
  const others = (current.LambdaFunctionConfigurations ?? []).filter(config => !config.Id?.startsWith(prefix));
  const ours = configs.map((config, index) => {
    const rules = (config.Rules ?? []).flatMap(rule =>
      Object.entries(rule).map(([name, value]) => ({ Name: name.toLowerCase() as 'prefix' | 'suffix', Value: String(value) })),
    );
    return {
      Id: `${prefix}${index}`,
      LambdaFunctionArn: functionArn,
      Events: [config.Event as never],
      ...(rules.length > 0 ? { Filter: { Key: { FilterRules: rules } } } : {}),
    };
  });
  await s3.send(
    new PutBucketNotificationConfigurationCommand({
      Bucket: bucket,
      NotificationConfiguration: {
        TopicConfigurations: current.TopicConfigurations,
        QueueConfigurations: current.QueueConfigurations,
        EventBridgeConfiguration: current.EventBridgeConfiguration,
        LambdaFunctionConfigurations: [...others, ...ours],
      },
    }),
  );
}
