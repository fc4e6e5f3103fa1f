import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import type { Json } from '../model';
import { CfnResource, accountId, join, partition, region } from '../resource';
import type { FunctionConstruct } from '../function';
import { checkEvent, isEither, isEventObject } from './event-schema';
import { lambdaPermission } from './lambda-permission';

const isLogGroupName = () => t.cascade(t.isString(), t.hasMinLength(1)) as t.StrictValidator<unknown, string>;

const isLogOptions = isEventObject({
  logGroup: isLogGroupName(),
  filter: t.isOptional(t.isString()),
});

/**
 * The log groups a function subscribes to, and its one permission: logs may invoke the
 * function from the longest prefix all those groups share.
 */
class LogSubscriptions extends Construct {
  readonly logGroups: string[] = [];
  readonly permission: string;

  constructor(fn: FunctionConstruct, id: string) {
    super(fn, id);
    this.permission = naming.cloudWatchLogPermission(fn.key);
    lambdaPermission(this, 'Permission', fn, {
      logicalId: this.permission,
      principal: join(['logs.', region, '.amazonaws.com']),
      sourceArn: () => join(['arn:', partition, ':logs:', region, ':', accountId, ':log-group:', this.sourceLogGroups(), ':*']),
      aliasAsList: true,
    });
  }

  /** One group: its name; several: their common prefix and `*`. */
  private sourceLogGroups(): string {
    if (this.logGroups.length === 1) return this.logGroups[0];
    let prefix = this.logGroups[0];
    for (const name of this.logGroups) {
      while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
    }
    return `${prefix}*`;
  }
}

/**
 * `cloudwatchLog` event: a subscription filter on a log group
 * (`{Fn}LogsSubscriptionFilterCloudWatchLog{n}`) delivering to the function.
 */
export class CloudWatchLogEvent extends Construct {
  static readonly type = 'cloudwatchLog';
  static readonly description = 'Log events of a CloudWatch Logs group, through a subscription filter';
  static readonly schema = isEither<string | t.InferType<typeof isLogOptions>>('a log group name, or { logGroup, filter }', [isLogGroupName(), isLogOptions]);

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const parsed = checkEvent(config, path, { schema: isLogGroupName(), expected: 'a log group name, or { logGroup, filter }' }, isLogOptions);
    const options = 'shorthand' in parsed ? { logGroup: parsed.shorthand, filter: undefined } : parsed.options;
    const subscriptions =
      (fn.node.tryFindChild('CloudWatchLogSubscriptions') as LogSubscriptions | undefined) ?? new LogSubscriptions(fn, 'CloudWatchLogSubscriptions');
    subscriptions.logGroups.push(options.logGroup);
    new CfnResource(this, 'SubscriptionFilter', {
      logicalId: naming.cloudWatchLogSubscriptionFilter(fn.key, subscriptions.logGroups.length),
      type: 'AWS::Logs::SubscriptionFilter',
      properties: (): Record<string, Json> => ({
        LogGroupName: options.logGroup,
        FilterPattern: options.filter ?? '',
        DestinationArn: fn.targetArn,
      }),
      dependsOn: () => fn.dependsOnTarget([subscriptions.permission]),
    });
  }
}
