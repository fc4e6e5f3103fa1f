/**
 * Logical ids of the event source mappings Lambda polls from (`sqs`, `stream`, `msk`, `kafka`,
 * `activemq`, `rabbitmq` events) and of Kinesis fan-out consumers.
 */
import { normalizeName, normalizeNameToAlphaNumericOnly } from './normalize';

export const sqsEventSourceMapping = (fn: string, queueName: string) =>
  `${normalizeName(fn)}EventSourceMappingSQS${normalizeNameToAlphaNumericOnly(queueName)}`;

/** `(compute, dynamodb, foo)` → `ComputeEventSourceMappingDynamodbFoo` */
export const streamEventSourceMapping = (fn: string, type: 'dynamodb' | 'kinesis', streamName: string) =>
  `${normalizeName(fn)}EventSourceMapping${normalizeName(type)}${normalizeNameToAlphaNumericOnly(streamName)}`;
/** The fan-out consumer's physical name: `fanOutfoobarConsumer` (`fanOutfoobarappdevConsumer` when service specific). */
export const streamConsumerName = (fn: string, streamName: string, serviceSpecific?: { service: string; stage: string }) =>
  `${fn}${streamName}${serviceSpecific ? `${serviceSpecific.service}${serviceSpecific.stage}` : ''}Consumer`;
export const streamConsumer = (consumerName: string) => `${normalizeName(consumerName)}StreamConsumer`;

/** `compute` + `MyCluster` + `my-topic` → `ComputeEventSourceMappingMSKMyClusterMytopic` */
export const mskEventSourceMapping = (fn: string, clusterName: string, topic: string) =>
  `${normalizeName(fn)}EventSourceMappingMSK${normalizeNameToAlphaNumericOnly(clusterName)}${normalizeNameToAlphaNumericOnly(topic)}`;
export const kafkaEventSourceMapping = (fn: string, topic: string) =>
  `${normalizeName(fn)}EventSourceMappingKafka${normalizeNameToAlphaNumericOnly(topic)}`;
export const activeMqEventSourceMapping = (fn: string, queue: string) =>
  `${normalizeName(fn)}EventSourceMappingActiveMQ${normalizeNameToAlphaNumericOnly(queue)}`;
export const rabbitMqEventSourceMapping = (fn: string, queue: string) =>
  `${normalizeName(fn)}EventSourceMappingRabbitMQ${normalizeNameToAlphaNumericOnly(queue)}`;
