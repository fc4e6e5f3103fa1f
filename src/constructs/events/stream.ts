import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import { ConfigError, invalid } from '../../errors';
import type { Json } from '../model';
import { CfnResource, ref } from '../resource';
import type { FunctionConstruct } from '../function';
import { EventRolePolicy } from './event-role-policy';
import { checkEvent, type Intrinsic, intrinsicName, isArn, isArnOrIntrinsic, isEither, isEventObject, isIntegerIn, isIntrinsic, isJsonObject } from './event-schema';
import { claimLogicalId } from './logical-id-claims';
import { filterCriteria, sharedRoleDependsOn } from './event-source-mapping';

const ARN = 'a DynamoDB or Kinesis stream ARN, or a CloudFormation intrinsic';
const isStreamArn = () => isArnOrIntrinsic(ARN);

const isStreamOptions = isEventObject({
  arn: isStreamArn(),
  type: t.isOptional(t.isEnum(['dynamodb', 'kinesis'] as const)),
  batchSize: t.isOptional(isIntegerIn(1, 10000)),
  batchWindow: t.isOptional(isIntegerIn(0, 300)),
  startingPosition: t.isOptional(t.isEnum(['LATEST', 'TRIM_HORIZON', 'AT_TIMESTAMP'] as const)),
  startingPositionTimestamp: t.isOptional(t.isNumber()),
  maximumRetryAttempts: t.isOptional(isIntegerIn(-1, 10000)),
  maximumRecordAgeInSeconds: t.isOptional(isIntegerIn(-1, 604800)),
  parallelizationFactor: t.isOptional(isIntegerIn(1, 10)),
  bisectBatchOnFunctionError: t.isOptional(t.isBoolean()),
  enabled: t.isOptional(t.isBoolean()),
  destinations: t.isOptional(
    isEventObject({
      onFailure: isEither<string | Intrinsic | { arn: string | Intrinsic; type?: 'sns' | 'sqs' }>('an SNS topic or SQS queue ARN, or { arn, type: "sns" | "sqs" }', [
        isArn(),
        isIntrinsic(),
        isEventObject({ arn: isArnOrIntrinsic('an ARN or a CloudFormation intrinsic'), type: t.isOptional(t.isEnum(['sns', 'sqs'] as const)) }),
      ]),
    }),
  ),
  filterPatterns: t.isOptional(t.isArray(isJsonObject())),
  functionResponseType: t.isOptional(t.isEnum(['ReportBatchItemFailures'] as const)),
  tumblingWindowInSeconds: t.isOptional(isIntegerIn(0, 900)),
  consumer: t.isOptional(isEither<boolean | string | Intrinsic>('true, or an existing consumer ARN', [t.isBoolean(), isArn(), isIntrinsic()])),
});

type StreamOptions = t.InferType<typeof isStreamOptions>;

/**
 * `stream` event: an event source mapping from an existing DynamoDB or Kinesis stream
 * (`{Fn}EventSourceMappingDynamodb{Name}` / `…Kinesis{Name}`), optionally through a Kinesis
 * fan-out consumer, with an on-failure destination; the shared role may read the stream
 * and send to the destination.
 */
export class StreamEvent extends Construct {
  static readonly type = 'stream';
  static readonly description = 'Records from a DynamoDB or Kinesis stream (an event source mapping)';
  static readonly schema = isEither<string | Intrinsic | t.InferType<typeof isStreamOptions>>(`${ARN}, or { arn, … }`, [isStreamArn(), isStreamOptions]);

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const parsed = checkEvent(config, path, { schema: isStreamArn(), expected: `${ARN}, or { arn, … }` }, isStreamOptions);
    const options: StreamOptions = 'shorthand' in parsed ? { arn: parsed.shorthand } : parsed.options;
    const arnPath = 'shorthand' in parsed ? path : `${path}.arn`;
    const type = streamType(options, path, arnPath);
    const streamName = streamNameOf(options.arn, arnPath);
    const statements = fn.usesSharedRole ? EventRolePolicy.of(fn.service).streamStatements(fn) : undefined;

    if (options.consumer !== undefined && options.consumer !== false && type !== 'kinesis') {
      throw new ConfigError(`Invalid configuration in '${path}.consumer': a fan-out consumer is for Kinesis streams only`);
    }
    const consumer = options.consumer === undefined || options.consumer === false ? undefined : options.consumer;
    if (options.startingPosition === 'AT_TIMESTAMP' && options.startingPositionTimestamp === undefined) {
      throw invalid(`${path}.startingPositionTimestamp`, 'a Unix time in seconds when startingPosition is AT_TIMESTAMP', undefined);
    }
    const logicalId = naming.streamEventSourceMapping(fn.key, type, streamName);
    claimLogicalId(fn.service, logicalId, path, 'a function can use each source only once');
    let eventSourceArn: Json = options.arn;
    const dependsOn = sharedRoleDependsOn(fn);
    if (consumer === true) {
      const serviceSpecific = (fn.service.provider as { kinesis?: { consumerNamingMode?: string } }).kinesis?.consumerNamingMode === 'serviceSpecific';
      const consumerName = naming.streamConsumerName(fn.key, streamName, serviceSpecific ? { service: fn.service.name, stage: fn.service.stage } : undefined);
      const consumerId = naming.streamConsumer(consumerName);
      new CfnResource(this, 'Consumer', {
        logicalId: consumerId,
        type: 'AWS::Kinesis::StreamConsumer',
        properties: () => ({ StreamARN: options.arn, ConsumerName: consumerName }),
      });
      eventSourceArn = ref(consumerId);
      dependsOn.push(consumerId);
    } else if (consumer !== undefined) {
      eventSourceArn = consumer;
    }

    if (statements) {
      if (type === 'dynamodb') statements.dynamodb.push(options.arn);
      else if (consumer === undefined) statements.kinesis.push(options.arn);
      else {
        statements.kinesisConsumer.push(options.arn);
        statements.subscribeToShard.push(eventSourceArn);
      }
    }
    const destination = options.destinations ? onFailure(options.destinations.onFailure, `${path}.destinations.onFailure`) : undefined;
    if (destination && statements) {
      (destination.type === 'sns' ? statements.snsDestinations : statements.sqsDestinations).push(destination.arn);
    }

    new CfnResource(this, 'EventSourceMapping', {
      logicalId,
      type: 'AWS::Lambda::EventSourceMapping',
      dependsOn: () => dependsOn,
      properties: () => {
        const properties: Record<string, Json> = {
          BatchSize: options.batchSize ?? 10,
          Enabled: options.enabled ?? true,
          EventSourceArn: eventSourceArn,
          FunctionName: fn.targetArn,
        };
        if (options.parallelizationFactor !== undefined) properties.ParallelizationFactor = options.parallelizationFactor;
        properties.StartingPosition = options.startingPosition ?? 'TRIM_HORIZON';
        // v3 writes the timestamp for fan-out consumers only; without one its mapping says AT_TIMESTAMP
        // with no timestamp, which Lambda rejects, so fw writes it there too (corrected-settings.ts).
        if (options.startingPositionTimestamp !== undefined && (consumer !== undefined || options.startingPosition === 'AT_TIMESTAMP')) {
          properties.StartingPositionTimestamp = options.startingPositionTimestamp;
        }
        if (options.batchWindow !== undefined) properties.MaximumBatchingWindowInSeconds = options.batchWindow;
        if (options.maximumRetryAttempts !== undefined) properties.MaximumRetryAttempts = options.maximumRetryAttempts;
        if (options.bisectBatchOnFunctionError !== undefined) properties.BisectBatchOnFunctionError = options.bisectBatchOnFunctionError;
        if (options.maximumRecordAgeInSeconds !== undefined) properties.MaximumRecordAgeInSeconds = options.maximumRecordAgeInSeconds;
        if (destination) properties.DestinationConfig = { OnFailure: { Destination: destination.arn } };
        if (options.functionResponseType !== undefined) properties.FunctionResponseTypes = [options.functionResponseType];
        if (options.tumblingWindowInSeconds !== undefined) properties.TumblingWindowInSeconds = options.tumblingWindowInSeconds;
        if (options.filterPatterns !== undefined) properties.FilterCriteria = filterCriteria(options.filterPatterns);
        return properties;
      },
    });
  }
}

/** `type`, or the service named in the ARN (`arn:aws:dynamodb:…`, `arn:aws:kinesis:…`). */
function streamType(options: StreamOptions, path: string, arnPath: string): 'dynamodb' | 'kinesis' {
  if (options.type !== undefined) return options.type;
  if (typeof options.arn === 'string') {
    const service = options.arn.split(':')[2];
    if (service === 'dynamodb' || service === 'kinesis') return service;
    throw invalid(arnPath, 'a DynamoDB ("arn:aws:dynamodb:…") or Kinesis ("arn:aws:kinesis:…") stream ARN', options.arn);
  }
  throw invalid(`${path}.type`, '"dynamodb" or "kinesis" (required when arn is an intrinsic)', undefined);
}

/** The table or stream name (`table/foo/stream/…` → `foo`), or what an intrinsic points at. */
function streamNameOf(arn: string | Intrinsic, path: string): string {
  if (typeof arn === 'string') {
    const name = arn.split('/')[1];
    if (!name) throw invalid(path, 'a stream ARN ending in "table/<name>/stream/<label>" or "stream/<name>"', arn);
    return name;
  }
  const name = intrinsicName(arn);
  if (name === undefined) throw invalid(path, `${ARN} naming its resource (Ref, Fn::GetAtt, Fn::ImportValue or Fn::Join)`, arn);
  return name.split('/').pop() ?? name;
}

function onFailure(config: unknown, path: string): { arn: Json; type: 'sns' | 'sqs' } {
  if (typeof config === 'string') {
    const service = config.split(':')[2];
    if (service === 'sns' || service === 'sqs') return { arn: config, type: service };
    throw invalid(path, 'an SNS topic ("arn:aws:sns:…") or SQS queue ("arn:aws:sqs:…") ARN', config);
  }
  const { arn, type } = config as { arn: string | Intrinsic; type?: 'sns' | 'sqs' };
  if (arn === undefined) throw invalid(path, 'an ARN string, or { arn, type: "sns" | "sqs" } when the ARN is an intrinsic', config);
  if (type !== undefined) return { arn, type };
  if (typeof arn === 'string') return onFailure(arn, `${path}.arn`);
  throw invalid(`${path}.type`, '"sns" or "sqs" (required when arn is an intrinsic)', undefined);
}
