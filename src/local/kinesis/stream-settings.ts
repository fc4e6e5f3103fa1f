/**
 * Kinesis calls that change a stream's settings rather than its records: the retention period
 * (IncreaseStreamRetentionPeriod / DecreaseStreamRetentionPeriod, 24 to 8760 hours) and enhanced
 * fan-out consumers (RegisterStreamConsumer, DescribeStreamConsumer, ListStreamConsumers,
 * DeregisterStreamConsumer). Consumers are ACTIVE at once; SubscribeToShard is not emulated.
 */
import { AwsError } from '../protocol/errors';
import type { KinesisConsumer, KinesisStore, KinesisStream } from './streams';

const MIN_RETENTION_HOURS = 24;
const MAX_RETENTION_HOURS = 8760;
/** Consumers a stream may have at once, as in AWS. */
const MAX_CONSUMERS = 20;

const invalid = (message: string) => new AwsError('InvalidArgumentException', message);

/** The new retention period, checked as Kinesis checks it against its bounds and the current one. */
export function retentionChange(stream: KinesisStream, hours: unknown, direction: 'increase' | 'decrease'): number {
  const requested = Number(hours);
  const name = stream.definition.StreamName;
  const current = stream.definition.RetentionPeriodHours;
  if (!Number.isInteger(requested)) throw new AwsError('ValidationException', `1 validation error detected: Value '${String(hours)}' at 'retentionPeriodHours' failed to satisfy constraint: Member must not be null`);
  if (requested < MIN_RETENTION_HOURS) throw invalid(`Minimum allowed retention period is ${MIN_RETENTION_HOURS} hours. Requested retention period (${requested} hours) is too short.`);
  if (requested > MAX_RETENTION_HOURS) throw invalid(`Maximum allowed retention period is ${MAX_RETENTION_HOURS} hours. Requested retention period (${requested} hours) is too long.`);
  if (direction === 'increase' && requested < current) {
    throw invalid(`Requested retention period (${requested} hours) for stream ${name} can not be shorter than existing retention period (${current} hours). Use DecreaseRetentionPeriod API.`);
  }
  if (direction === 'decrease' && requested > current) {
    throw invalid(`Requested retention period (${requested} hours) for stream ${name} can not be longer than existing retention period (${current} hours). Use IncreaseRetentionPeriod API.`);
  }
  return requested;
}

const consumerNotFound = (name: string, streamArn: string, accountId: string) =>
  new AwsError('ResourceNotFoundException', `Consumer ${name} under stream ${streamArn.split(':stream/')[1]} under account ${accountId} not found.`);

export function registerConsumer(store: KinesisStore, stream: KinesisStream, name: unknown, accountId: string): KinesisConsumer {
  if (typeof name !== 'string' || !/^[a-zA-Z0-9_.-]{1,128}$/.test(name)) {
    throw new AwsError('ValidationException', `1 validation error detected: Value '${String(name)}' at 'consumerName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+`);
  }
  const consumers = stream.definition.Consumers ?? [];
  if (consumers.some((consumer) => consumer.ConsumerName === name)) throw new AwsError('ResourceInUseException', `Consumer ${name} under stream ${stream.definition.StreamName} already exists for account ${accountId}.`);
  if (consumers.length >= MAX_CONSUMERS) throw new AwsError('LimitExceededException', `Stream ${stream.definition.StreamName} under account ${accountId} already has ${MAX_CONSUMERS} registered consumers.`);
  const created = Math.floor(Date.now() / 1000);
  const consumer: KinesisConsumer = { ConsumerName: name, ConsumerARN: `${stream.definition.StreamARN}/consumer/${name}:${created}`, ConsumerStatus: 'ACTIVE', ConsumerCreationTimestamp: created };
  store.setConsumers(stream, [...consumers, consumer]);
  return consumer;
}

/** The consumer DescribeStreamConsumer or DeregisterStreamConsumer names: by ConsumerARN, or by StreamARN and ConsumerName. */
export function namedConsumer(store: KinesisStore, input: Record<string, unknown>, accountId: string): { stream: KinesisStream; consumer: KinesisConsumer } {
  if (typeof input.ConsumerARN === 'string') {
    const found = store.consumerByArn(input.ConsumerARN);
    const [streamArn, name] = input.ConsumerARN.split('/consumer/');
    if (!found) throw consumerNotFound((name ?? '').split(':')[0], streamArn, accountId);
    return found;
  }
  if (typeof input.StreamARN !== 'string' || typeof input.ConsumerName !== 'string') throw invalid('Either ConsumerARN or both ConsumerName and StreamARN must be specified.');
  const stream = store.get(input.StreamARN, accountId);
  const consumer = stream.definition.Consumers?.find((candidate) => candidate.ConsumerName === input.ConsumerName);
  if (!consumer) throw consumerNotFound(input.ConsumerName, input.StreamARN, accountId);
  return { stream, consumer };
}

export function deregisterConsumer(store: KinesisStore, input: Record<string, unknown>, accountId: string): void {
  const { stream, consumer } = namedConsumer(store, input, accountId);
  store.setConsumers(stream, (stream.definition.Consumers ?? []).filter((candidate) => candidate !== consumer));
}

/** ListStreamConsumers, paged by MaxResults (1 to 10000) and NextToken. */
export function consumerPage(stream: KinesisStream, input: Record<string, unknown>): { Consumers: KinesisConsumer[]; NextToken?: string } {
  const consumers = stream.definition.Consumers ?? [];
  const max = Number(input.MaxResults ?? 100);
  if (!Number.isInteger(max) || max < 1 || max > 10_000) throw new AwsError('ValidationException', `1 validation error detected: Value '${String(input.MaxResults)}' at 'maxResults' failed to satisfy constraint: Member must have value between 1 and 10000`);
  const start = typeof input.NextToken === 'string' ? Number(Buffer.from(input.NextToken, 'base64').toString()) : 0;
  if (!Number.isInteger(start) || start < 0) throw invalid(`Invalid NextToken.`);
  const end = start + max;
  return { Consumers: consumers.slice(start, end), ...(end < consumers.length ? { NextToken: Buffer.from(String(end)).toString('base64') } : {}) };
}
