import type { ObjectEvent } from './store';
import type { Stores, TriggerServices } from '../service-interfaces';

interface LambdaConfiguration {
  Event?: string;
  Function?: string;
  Filter?: { S3Key?: { Rules?: { Name?: string; Value?: string }[] } };
  Id?: string;
}

/** `s3:ObjectCreated:*` matches `ObjectCreated:Put`; an exact name matches itself. */
function eventMatches(configured: string, eventName: string): boolean {
  const wanted = configured.replace(/^s3:/, '');
  return wanted.endsWith(':*') ? eventName.startsWith(wanted.slice(0, -1)) : wanted === eventName;
}

function keyMatches(configuration: LambdaConfiguration, key: string): boolean {
  for (const rule of configuration.Filter?.S3Key?.Rules ?? []) {
    const name = String(rule.Name ?? '').toLowerCase();
    const value = String(rule.Value ?? '');
    if (name === 'prefix' && !key.startsWith(value)) return false;
    if (name === 'suffix' && !key.endsWith(value)) return false;
  }
  return true;
}

/** The function targets of a bucket: its stack's NotificationConfiguration, and what PutBucketNotificationConfiguration set. */
function lambdaConfigurations(cloud: TriggerServices & Pick<Stores, 's3'>, bucketName: string): LambdaConfiguration[] {
  const bucket = cloud.resources('AWS::S3::Bucket').find(({ record }) => record.physicalId === bucketName);
  const declared = ((bucket?.record.properties.NotificationConfiguration as { LambdaConfigurations?: LambdaConfiguration[] } | undefined)?.LambdaConfigurations) ?? [];
  const set = cloud.s3.hasBucket(bucketName) ? (cloud.s3.bucket(bucketName).notification?.functions ?? []) : [];
  const fromApi = set.flatMap((target) =>
    target.events.map((event) => ({ Id: target.id, Function: target.functionArn, Event: event, Filter: { S3Key: { Rules: target.rules.map((rule) => ({ Name: rule.name, Value: rule.value })) } } })),
  );
  return [...declared, ...fromApi];
}

/** Invokes the functions a bucket's notification configuration names, with the event S3 sends. */
export function notifyObjectEvent(cloud: TriggerServices & Pick<Stores, 's3'>, event: ObjectEvent): void {
  const configurations = lambdaConfigurations(cloud, event.bucket);
  const eventName = event.kind === 'created' ? 'ObjectCreated:Put' : 'ObjectRemoved:Delete';
  for (const configuration of configurations) {
    if (!configuration.Function || !eventMatches(String(configuration.Event ?? ''), eventName) || !keyMatches(configuration, event.object.key)) continue;
    cloud.functions.invokeAsync(configuration.Function, { Records: [s3LambdaRecord(event, eventName, configuration.Id ?? 'local')] });
  }
}

/** An S3 event notification record as Lambda receives it (also what `fw generate-event -t aws:s3` prints). */
export function s3LambdaRecord(
  event: { bucket: string; region: string; object: { key: string; size: number; etag: string } },
  eventName: string,
  configurationId: string,
): Record<string, unknown> {
  return {
    eventVersion: '2.1',
    eventSource: 'aws:s3',
    awsRegion: event.region,
    eventTime: new Date().toISOString(),
    eventName,
    userIdentity: { principalId: 'AWS:LOCAL' },
    requestParameters: { sourceIPAddress: '127.0.0.1' },
    responseElements: { 'x-amz-request-id': 'local', 'x-amz-id-2': 'local' },
    s3: {
      s3SchemaVersion: '1.0',
      configurationId,
      bucket: { name: event.bucket, ownerIdentity: { principalId: 'LOCAL' }, arn: `arn:aws:s3:::${event.bucket}` },
      object: {
        key: encodeURIComponent(event.object.key).replace(/%20/g, '+').replace(/%2F/g, '/'),
        size: event.object.size,
        eTag: event.object.etag.replace(/"/g, ''),
        sequencer: Date.now().toString(16).toUpperCase(),
      },
    },
  };
}
