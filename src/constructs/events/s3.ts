import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import { ConfigError } from '../../errors';
import type { Json } from '../model';
import { CfnResource, accountId, join, partition } from '../resource';
import type { Service } from '../service';
import type { FunctionConstruct } from '../function';
import { CustomResource, customResourceFunction } from '../custom-resources';
import { checkEvent, type Intrinsic, isEither, isEventObject, isIntrinsic } from './event-schema';
import { isIntrinsic as isIntrinsicValue } from '../../intrinsic';
import { lambdaPermission } from './lambda-permission';

/** S3's bucket naming rules: lower-case labels of letters, digits and dashes, not an IP address. */
const BUCKET_NAME = /^(?!(\d{1,3}\.){3}\d{1,3}$)(([a-z0-9]|[a-z0-9][a-z0-9-]*[a-z0-9])\.)*([a-z0-9]|[a-z0-9][a-z0-9-]*[a-z0-9])$/;
const isBucket = () => t.cascade(t.isString(), t.hasMinLength(1)) as t.StrictValidator<unknown, string>;
const isRule = () =>
  isEither<{ prefix?: string; suffix?: string }>('{ prefix: "…" } or { suffix: "…" } (one rule per list item)', [
    t.isObject({ prefix: t.isString() }),
    t.isObject({ suffix: t.isString() }),
  ]);

const isS3Options = isEventObject({
  bucket: isEither<string | Intrinsic>('a bucket name (or, for an existing bucket, a CloudFormation intrinsic)', [isBucket(), isIntrinsic()]),
  event: t.isOptional(t.cascade(t.isString(), t.matchesRegExp(/^s3:/)) as t.StrictValidator<unknown, string>),
  rules: t.isOptional(t.isArray(isRule())),
  existing: t.isOptional(t.isBoolean()),
  forceDeploy: t.isOptional(t.isBoolean()),
});

type S3Options = t.InferType<typeof isS3Options>;
type Rule = { prefix?: string; suffix?: string };

const DEFAULT_EVENT = 's3:ObjectCreated:*';

/**
 * A bucket this stack creates (`S3Bucket{Bucket}`), shared by every function notified by it;
 * `provider.s3.<bucket>` configures it (name and any bucket property, camelCase accepted).
 */
class Bucket extends Construct {
  readonly logicalId: string;
  readonly bucketName: string;
  private readonly notifications: Json[] = [];
  private readonly permissions: string[] = [];

  static of(service: Service, bucket: string, path: string): Bucket {
    return service.shared(`S3Bucket:${bucket}`, (scope, id) => new Bucket(scope, id, bucket, path));
  }

  private constructor(scope: Service, id: string, bucket: string, path: string) {
    super(scope, id);
    this.logicalId = naming.s3Bucket(bucket);
    const settings = (scope.provider as { s3?: Record<string, Record<string, Json> | undefined> }).s3?.[bucket];
    const { name, ...properties } = settings ?? {};
    if (name !== undefined && typeof name !== 'string') {
      throw new ConfigError(`Invalid configuration in 'provider.s3.${bucket}.name': expected a bucket name, got ${JSON.stringify(name)}`);
    }
    this.bucketName = name ?? bucket;
    if (!BUCKET_NAME.test(this.bucketName) || this.bucketName.length < 3 || this.bucketName.length > 63) {
      const where = settings ? `provider.s3.${bucket}.name` : `${path}`;
      throw new ConfigError(
        `Invalid configuration in '${where}': expected a bucket name of 3 to 63 lower-case letters, digits, dots and dashes (S3's naming rules), got ${JSON.stringify(this.bucketName)}`,
      );
    }
    new CfnResource(this, 'Bucket', {
      logicalId: this.logicalId,
      type: 'AWS::S3::Bucket',
      properties: () => {
        const given = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key.charAt(0).toUpperCase() + key.slice(1), value]));
        // v3's order: the bucket's name and notifications, then the given settings.
        return Object.assign({ BucketName: this.bucketName, NotificationConfiguration: null }, given, {
          NotificationConfiguration: this.notificationConfiguration(given.NotificationConfiguration),
        });
      },
      dependsOn: () => this.permissions,
    });
  }

  /**
   * The functions' notifications with the bucket's own `notificationConfiguration`: v3 puts the
   * given keys over the generated ones, so queues and topics are added to the functions'. Where
   * the given keys hold `LambdaConfigurations` too, v3 drops the functions' (their events never
   * fire); fw keeps both, the given ones first.
   */
  private notificationConfiguration(given: Json | undefined): Json {
    if (given === undefined || given === null || typeof given !== 'object' || Array.isArray(given) || isIntrinsicValue(given)) {
      return given ?? { LambdaConfigurations: this.notifications };
    }
    const own = (given as Record<string, Json>).LambdaConfigurations;
    const lambdas = Array.isArray(own) ? [...own, ...this.notifications] : this.notifications;
    return Object.assign({ LambdaConfigurations: null }, given, { LambdaConfigurations: lambdas });
  }

  notify(fn: FunctionConstruct, event: string, rules: Rule[] | undefined, permission: string): void {
    const notification: Record<string, Json> = { Event: event, Function: fn.targetArn };
    if (rules && rules.length > 0) {
      notification.Filter = {
        S3Key: { Rules: rules.flatMap(rule => Object.entries(rule).map(([Name, Value]) => ({ Name, Value }))) },
      };
    }
    this.notifications.push(notification);
    this.permissions.push(permission);
    // The bucket checks its notification targets on creation: the alias must exist by then (v3 lists it once per notification, like the permission).
    if (fn.targetAlias !== undefined) this.permissions.push(fn.targetAlias);
  }
}

/** The existing buckets the custom-resource function may configure, in first-use order. */
class ExistingBuckets extends Construct {
  readonly names: Json[] = [];

  static of(service: Service): ExistingBuckets {
    return service.shared('ExistingS3Buckets', (scope, id) => new ExistingBuckets(scope, id));
  }
}

/** One function's `Custom::S3` resource: the existing bucket and every notification the function wants from it. */
class ExistingBucketNotifications extends Construct {
  readonly configs: Json[] = [];
  forceDeploy = false;

  constructor(fn: FunctionConstruct, id: string, readonly bucket: string | Intrinsic) {
    super(fn, id);
    const service = fn.service;
    const buckets = ExistingBuckets.of(service);
    if (!buckets.names.some(name => sameValue(name, bucket))) buckets.names.push(bucket);
    const provider = customResourceFunction(service, 'existing-s3', 's3/handler.handler');
    provider.addStatements('existing-s3', () => [
      ...buckets.names.map(name => ({
        Effect: 'Allow',
        Resource: join(['arn', partition, 's3', '', '', name], ':'),
        Action: ['s3:PutBucketNotification', 's3:GetBucketNotification'],
      })),
      {
        Effect: 'Allow',
        Resource: join(['arn', partition, 'lambda', { Ref: 'AWS::Region' }, accountId, 'function', '*'], ':'),
        Action: ['lambda:AddPermission', 'lambda:RemovePermission'],
      },
    ]);
    new CustomResource(this, 'Resource', {
      logicalId: naming.s3CustomResource(fn.key, 1),
      type: 'Custom::S3',
      provider,
      dependsOn: [fn.lambda.logicalId],
      properties: () => {
        const properties: Record<string, Json> = { FunctionName: fn.physicalName, BucketName: bucket, BucketConfigs: this.configs };
        if (this.forceDeploy) properties.ForceDeploy = deploymentTimestamp(service);
        return properties;
      },
    });
  }
}

const sameValue = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b);

/** The packaging instant in milliseconds, as it appears in the artifact directory (`…/1704067200000-2024-01-01T…`). */
function deploymentTimestamp(service: Service): number {
  const match = /\/(\d+)-[^/]*$/.exec(service.artifactDirectory);
  return match ? Number(match[1]) : 0;
}

/**
 * `s3` event: the function is notified of a bucket's events. The bucket is created by the
 * stack (`S3Bucket{Bucket}`, shared by all functions and events naming it, with
 * `{Fn}LambdaPermission{Bucket}S3`), or with `existing: true` configured through a
 * `Custom::S3` resource (`{Fn}CustomS31`, one existing bucket per function).
 */
export class S3Event extends Construct {
  static readonly type = 's3';
  static readonly description = 'Notifications of an S3 bucket (created by the service, or existing: true)';
  static readonly schema = isEither<string | t.InferType<typeof isS3Options>>('a bucket name, or { bucket, event, rules, existing }', [isBucket(), isS3Options]);

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const parsed = checkEvent(config, path, { schema: isBucket(), expected: 'a bucket name, or { bucket, event, rules, existing }' }, isS3Options);
    const options: S3Options = 'shorthand' in parsed ? { bucket: parsed.shorthand } : parsed.options;
    const event = options.event ?? DEFAULT_EVENT;

    if (options.existing) {
      const current = fn.node.tryFindChild('ExistingS3') as ExistingBucketNotifications | undefined;
      if (current && !sameValue(current.bucket, options.bucket)) {
        throw new ConfigError(
          `Invalid configuration in '${path}.bucket': a function can be notified by one existing bucket only; "${fn.key}" already uses ${JSON.stringify(current.bucket)}, got ${JSON.stringify(options.bucket)}`,
        );
      }
      const notifications = current ?? new ExistingBucketNotifications(fn, 'ExistingS3', options.bucket);
      const rules = (options.rules ?? []).flatMap(rule => Object.entries(rule).map(([name, value]) => ({ [name.charAt(0).toUpperCase() + name.slice(1)]: value })));
      notifications.configs.push({ Event: event, Rules: rules });
      if (options.forceDeploy) notifications.forceDeploy = true;
      return;
    }
    if (options.forceDeploy) {
      throw new ConfigError(`Invalid configuration in '${path}.forceDeploy': only for existing buckets (add existing: true)`);
    }

    const bucketPath = 'shorthand' in parsed ? path : `${path}.bucket`;
    if (typeof options.bucket !== 'string') {
      throw new ConfigError(
        `Invalid configuration in '${bucketPath}': expected a bucket name, got ${JSON.stringify(options.bucket)} (a bucket this stack creates needs a name; intrinsics are for existing buckets, with existing: true)`,
      );
    }
    const bucket = Bucket.of(fn.service, options.bucket, bucketPath);
    const permission = naming.s3Permission(fn.key, options.bucket);
    if (!fn.node.tryFindChild(`S3Permission:${options.bucket}`)) {
      lambdaPermission(fn, `S3Permission:${options.bucket}`, fn, {
        logicalId: permission,
        principal: 's3.amazonaws.com',
        sourceArn: () => join(['arn:', partition, `:s3:::${bucket.bucketName}`]),
        sourceAccount: accountId,
      });
    }
    bucket.notify(fn, event, options.rules, permission);
  }
}
