import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import { ConfigError } from '../../errors';
import type { IamStatement } from '../model';
import type { FunctionConstruct } from '../function';
import { expecting, isEventObject, isImportValue, isIntrinsic, isRef, validateEvent } from './event-schema';
import { brokerEventSourceMapping, kafkaConsumerFields, kafkaTopicFields, kafkaTopicProperties, type RawEvent, registerBrokerPolicy, requireTimestamp, vpcNetworkStatement } from './event-source-mapping';

const mskSchema = isEventObject({
  arn: expecting(
    'an MSK cluster ARN ("arn:aws:kafka:…:cluster/<name>/<id>"), { Ref } or { "Fn::ImportValue" }',
    t.isOneOf([t.cascade(t.isString(), [t.matchesRegExp(/^arn:[^/]+\/[^/]+/)]), isRef(), isImportValue()]),
  ),
  ...kafkaTopicFields,
  saslScram512: t.isOptional(expecting('a Secrets Manager secret ARN', t.isOneOf([t.isString(), isIntrinsic()]))),
  ...kafkaConsumerFields,
});

export type MskEventConfig = t.InferType<typeof mskSchema>;

/** Validates one `msk` event, including the rules the schema cannot state. */
export function parseMsk(config: unknown, path: string): MskEventConfig {
  const event = validateEvent(mskSchema, config, path);
  requireTimestamp(event, path);
  return event;
}

/** The part of the logical id that names the cluster: from the ARN, the export, or the referenced resource. */
function clusterName(arn: MskEventConfig['arn']): string {
  if (typeof arn === 'string') return arn.split('/')[1];
  if ('Ref' in arn) return arn.Ref;
  const exported = arn['Fn::ImportValue'];
  return typeof exported === 'string' ? exported : '';
}

/**
 * `msk` event: an event source mapping from a topic of an Amazon MSK cluster
 * (`{Fn}EventSourceMappingMSK{Cluster}{Topic}`); the role may describe the cluster
 * and manage the network interfaces Lambda uses to reach it.
 */
export class MskEvent extends Construct {
  static readonly type = 'msk';
  static readonly description = 'Records from an Amazon MSK (managed Kafka) topic';
  static readonly schema = mskSchema;

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const event = parseMsk(config, path);
    const name = clusterName(event.arn);
    if (name === '') throw new ConfigError(`Invalid configuration in '${path}.arn': expected { "Fn::ImportValue": "<export name>" } with a plain export name, got an intrinsic`);
    brokerEventSourceMapping(this, fn, {
      logicalId: naming.mskEventSourceMapping(fn.key, name, event.topic),
      path,
      hint: 'use one msk event per cluster and topic',
      properties: () =>
        kafkaTopicProperties(
          { EventSourceArn: event.arn, FunctionName: fn.targetArn, StartingPosition: event.startingPosition ?? 'TRIM_HORIZON', Topics: [event.topic] },
          event,
          {
            consumerGroupConfig: 'AmazonManagedKafkaEventSourceConfig',
            sourceAccess: event.saslScram512 === undefined ? undefined : [{ Type: 'SASL_SCRAM_512_AUTH', URI: event.saslScram512 }],
          },
        ),
    });
  }
}

registerBrokerPolicy({
  order: 4,
  type: MskEvent.type,
  statements(events: RawEvent[]): IamStatement[] {
    const clusters = events.map(({ config, path }) => parseMsk(config, path).arn);
    return [
      { Effect: 'Allow', Action: ['kafka:DescribeCluster', 'kafka:GetBootstrapBrokers'], Resource: clusters },
      vpcNetworkStatement(),
    ];
  },
});
