import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import { ConfigError } from '../../errors';
import type { Json } from '../model';
import { CfnResource } from '../resource';
import type { FunctionConstruct } from '../function';
import { EventRolePolicy } from './event-role-policy';
import { checkEvent, type Intrinsic, intrinsicName, isArnOrIntrinsic, isEither, isEventObject, isIntegerIn, isJsonObject } from './event-schema';
import { claimLogicalId } from './logical-id-claims';
import { filterCriteria, sharedRoleDependsOn } from './event-source-mapping';

const ARN = 'a queue ARN ("arn:aws:sqs:…") or { "Fn::GetAtt" | "Fn::ImportValue" | "Fn::Join" }';
const isQueueArn = () => isArnOrIntrinsic(ARN);

const isSqsOptions = isEventObject({
  arn: isQueueArn(),
  batchSize: t.isOptional(isIntegerIn(1, 10000)),
  maximumBatchingWindow: t.isOptional(isIntegerIn(0, 300)),
  functionResponseType: t.isOptional(t.isEnum(['ReportBatchItemFailures'] as const)),
  filterPatterns: t.isOptional(t.isArray(isJsonObject())),
  maximumConcurrency: t.isOptional(isIntegerIn(2, 1000)),
  enabled: t.isOptional(t.isBoolean()),
});

/**
 * `sqs` event: an event source mapping from an existing queue
 * (`{Fn}EventSourceMappingSQS{Queue}`); the shared role may read and delete its messages.
 */
export class SqsEvent extends Construct {
  static readonly type = 'sqs';
  static readonly description = 'Messages from an SQS queue (an event source mapping from its ARN)';
  static readonly schema = isEither<string | Intrinsic | t.InferType<typeof isSqsOptions>>(`${ARN}, or { arn, … }`, [isQueueArn(), isSqsOptions]);

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const parsed = checkEvent(config, path, { schema: isQueueArn(), expected: `${ARN}, or { arn, … }` }, isSqsOptions);
    const options = 'shorthand' in parsed ? { arn: parsed.shorthand } : parsed.options;
    const arnPath = 'shorthand' in parsed ? path : `${path}.arn`;
    const queueName = queueNameOf(options.arn, arnPath);
    if (fn.usesSharedRole) EventRolePolicy.of(fn.service).addQueue(options.arn);

    const logicalId = naming.sqsEventSourceMapping(fn.key, queueName);
    claimLogicalId(fn.service, logicalId, path, 'a function can use each source only once');
    new CfnResource(this, 'EventSourceMapping', {
      logicalId,
      type: 'AWS::Lambda::EventSourceMapping',
      dependsOn: () => sharedRoleDependsOn(fn),
      properties: () => {
        const properties: Record<string, Json> = { BatchSize: options.batchSize ?? 10 };
        if (options.maximumBatchingWindow !== undefined) properties.MaximumBatchingWindowInSeconds = options.maximumBatchingWindow;
        properties.EventSourceArn = options.arn;
        properties.FunctionName = fn.targetArn;
        properties.Enabled = options.enabled ?? true;
        if (options.functionResponseType !== undefined) properties.FunctionResponseTypes = [options.functionResponseType];
        if (options.filterPatterns !== undefined) properties.FilterCriteria = filterCriteria(options.filterPatterns);
        if (options.maximumConcurrency !== undefined) properties.ScalingConfig = { MaximumConcurrency: options.maximumConcurrency };
        return properties;
      },
    });
  }
}

/**
 * The queue's name, for the logical id: the ARN's last part, the `Fn::GetAtt` target,
 * the import name or the last `Fn::Join` part. Anything else (a queue's `Ref` is its URL, an
 * `Fn::Sub` names nothing) crashes the reference: refused, with a pointer to `Fn::GetAtt`.
 */
function queueNameOf(arn: string | Intrinsic, path: string): string {
  if (typeof arn === 'string') return arn.split(':').pop() ?? arn;
  const name = 'Ref' in arn ? undefined : intrinsicName(arn);
  if (name === undefined) {
    const hint = 'Ref' in arn ? ` (a queue's Ref is its URL; use { "Fn::GetAtt": [<queue>, "Arn"] })` : '';
    throw new ConfigError(`Invalid configuration in '${path}': expected ${ARN}, got ${JSON.stringify(arn)}${hint}`);
  }
  return name;
}
