/**
 * The Kinesis Data Streams API (JSON 1.1, target prefix Kinesis_20131202) over the stream store:
 * streams, shards, PutRecord(s) with per-shard throughput limits, shard iterators and GetRecords;
 * retention periods and enhanced fan-out consumers in stream-settings.ts.
 */
import { AwsError } from '../protocol/errors';
import { ON_DEMAND_SHARDS, type KinesisRecord, type KinesisStore, type KinesisStream } from './streams';
import { consumerPage, deregisterConsumer, namedConsumer, registerConsumer, retentionChange } from './stream-settings';

/** How long a shard iterator stays usable, as in AWS. */
const ITERATOR_LIFETIME_MS = 5 * 60 * 1000;
const MAX_RECORD_BYTES = 1024 * 1024;

interface IteratorState {
  /** Stream ARN, shard id, the sequence number records must be above (none: from the oldest), when it was issued. */
  s: string;
  h: string;
  a?: string;
  t: number;
}

const invalid = (message: string) => new AwsError('InvalidArgumentException', message);
const validation = (message: string) => new AwsError('ValidationException', message);

function encodeIterator(state: IteratorState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64');
}

function decodeIterator(text: unknown): IteratorState {
  try {
    const state = JSON.parse(Buffer.from(String(text), 'base64').toString('utf8')) as IteratorState;
    if (typeof state.s === 'string' && typeof state.h === 'string' && typeof state.t === 'number') return state;
  } catch {
    // reported below
  }
  throw invalid(`Invalid ShardIterator.`);
}

function streamOf(store: KinesisStore, input: Record<string, unknown>, accountId: string): KinesisStream {
  const reference = input.StreamARN ?? input.StreamName;
  if (typeof reference !== 'string' || reference === '') throw validation('Either StreamName or StreamARN should be provided.');
  return store.get(reference, accountId);
}

function shardOf(stream: KinesisStream, shardId: unknown, accountId: string): KinesisRecord[] {
  const records = stream.records.get(String(shardId));
  if (!records) throw new AwsError('ResourceNotFoundException', `Shard ${String(shardId)} in stream ${stream.definition.StreamName} under account ${accountId} does not exist`);
  return records;
}

function summary(stream: KinesisStream): Record<string, unknown> {
  const { StreamName, StreamARN, StreamModeDetails, StreamCreationTimestamp } = stream.definition;
  return { StreamName, StreamARN, StreamStatus: 'ACTIVE', StreamModeDetails, StreamCreationTimestamp };
}

function checkPartitionKey(key: unknown): string {
  if (typeof key !== 'string' || key.length < 1 || key.length > 256) {
    throw validation(`1 validation error detected: Value '${String(key)}' at 'partitionKey' failed to satisfy constraint: Member must have length between 1 and 256`);
  }
  return key;
}

function checkData(data: unknown): { data: string; bytes: number } {
  if (typeof data !== 'string') throw validation('1 validation error detected: Value null at \'data\' failed to satisfy constraint: Member must not be null');
  const bytes = Buffer.from(data, 'base64').length;
  if (bytes > MAX_RECORD_BYTES) throw validation(`1 validation error detected: Value at 'data' failed to satisfy constraint: Member must have length less than or equal to ${MAX_RECORD_BYTES}`);
  return { data, bytes };
}

function rateExceeded(stream: KinesisStream, shardId: string, accountId: string): string {
  return `Rate exceeded for shard ${shardId} in stream ${stream.definition.StreamName} under account ${accountId}.`;
}

export function kinesisOperation(store: KinesisStore, operation: string, input: Record<string, unknown>, region: string, accountId: string): Record<string, unknown> {
  switch (operation) {
    case 'CreateStream': {
      const name = input.StreamName;
      if (typeof name !== 'string' || !/^[a-zA-Z0-9_.-]{1,128}$/.test(name)) throw validation(`1 validation error detected: Value '${String(name)}' at 'streamName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+`);
      const mode = (input.StreamModeDetails as { StreamMode?: string } | undefined)?.StreamMode === 'ON_DEMAND' ? 'ON_DEMAND' : 'PROVISIONED';
      const shardCount = mode === 'ON_DEMAND' ? ON_DEMAND_SHARDS : Number(input.ShardCount ?? 0);
      if (!Number.isInteger(shardCount) || shardCount < 1) throw invalid('ShardCount must be given for a PROVISIONED stream and be at least 1.');
      store.create({ name, shardCount, mode }, region, accountId);
      return {};
    }
    case 'DeleteStream': {
      const stream = streamOf(store, input, accountId);
      store.delete(stream.definition.StreamName);
      return {};
    }
    case 'DescribeStream': {
      const stream = streamOf(store, input, accountId);
      const { StreamName, StreamARN, StreamModeDetails, RetentionPeriodHours, StreamCreationTimestamp, Shards } = stream.definition;
      return {
        StreamDescription: {
          StreamName,
          StreamARN,
          StreamStatus: 'ACTIVE',
          StreamModeDetails,
          Shards,
          HasMoreShards: false,
          RetentionPeriodHours,
          StreamCreationTimestamp,
          EnhancedMonitoring: [{ ShardLevelMetrics: [] }],
          EncryptionType: 'NONE',
        },
      };
    }
    case 'DescribeStreamSummary': {
      const stream = streamOf(store, input, accountId);
      return {
        StreamDescriptionSummary: {
          ...summary(stream),
          RetentionPeriodHours: stream.definition.RetentionPeriodHours,
          EnhancedMonitoring: [{ ShardLevelMetrics: [] }],
          EncryptionType: 'NONE',
          OpenShardCount: stream.definition.Shards.length,
          ConsumerCount: stream.definition.Consumers?.length ?? 0,
        },
      };
    }
    case 'ListStreams': {
      const start = typeof input.ExclusiveStartStreamName === 'string' ? input.ExclusiveStartStreamName : '';
      const limit = Number(input.Limit ?? 100);
      const names = store.names().filter((name) => name > start);
      const page = names.slice(0, limit);
      return { StreamNames: page, HasMoreStreams: names.length > page.length, StreamSummaries: page.map((name) => summary(store.get(name, accountId))) };
    }
    case 'ListShards':
      return { Shards: streamOf(store, input, accountId).definition.Shards };
    case 'PutRecord': {
      const stream = streamOf(store, input, accountId);
      const partitionKey = checkPartitionKey(input.PartitionKey);
      const { data, bytes } = checkData(input.Data);
      const shard = store.shardFor(stream, partitionKey, input.ExplicitHashKey as string | undefined);
      const now = Date.now();
      if (!store.admit(stream, shard.ShardId, bytes + partitionKey.length, now)) throw new AwsError('ProvisionedThroughputExceededException', rateExceeded(stream, shard.ShardId, accountId));
      const [record] = store.append(stream, [{ shardId: shard.ShardId, data, partitionKey }], now);
      return { ShardId: shard.ShardId, SequenceNumber: record.SequenceNumber };
    }
    case 'PutRecords': {
      const stream = streamOf(store, input, accountId);
      const entries = (input.Records as { Data?: unknown; PartitionKey?: unknown; ExplicitHashKey?: string }[] | undefined) ?? [];
      if (entries.length < 1 || entries.length > 500) throw validation(`1 validation error detected: Value '${entries.length}' at 'records' failed to satisfy constraint: Member must have length between 1 and 500`);
      const now = Date.now();
      // Checked before anything is written: an invalid entry fails the whole call, a full shard only its entries.
      const planned = entries.map((entry) => {
        const partitionKey = checkPartitionKey(entry.PartitionKey);
        const { data, bytes } = checkData(entry.Data);
        return { partitionKey, data, bytes, shardId: store.shardFor(stream, partitionKey, entry.ExplicitHashKey).ShardId };
      });
      const accepted = planned.map((entry) => store.admit(stream, entry.shardId, entry.bytes + entry.partitionKey.length, now));
      const written = store.append(stream, planned.filter((_, index) => accepted[index]), now);
      let next = 0;
      const results = planned.map((entry, index) =>
        accepted[index]
          ? { SequenceNumber: written[next++].SequenceNumber, ShardId: entry.shardId }
          : { ErrorCode: 'ProvisionedThroughputExceededException', ErrorMessage: rateExceeded(stream, entry.shardId, accountId) },
      );
      return { FailedRecordCount: accepted.filter((ok) => !ok).length, Records: results };
    }
    case 'GetShardIterator': {
      const stream = streamOf(store, input, accountId);
      const records = shardOf(stream, input.ShardId, accountId);
      const type = String(input.ShardIteratorType);
      const state: IteratorState = { s: stream.definition.StreamARN, h: String(input.ShardId), t: Date.now() };
      const sequenceNumber = input.StartingSequenceNumber;
      switch (type) {
        case 'TRIM_HORIZON':
          break;
        case 'LATEST':
          state.a = records.at(-1)?.SequenceNumber ?? stream.definition.Shards.find((shard) => shard.ShardId === state.h)!.SequenceNumberRange.StartingSequenceNumber;
          break;
        case 'AT_SEQUENCE_NUMBER':
        case 'AFTER_SEQUENCE_NUMBER': {
          if (typeof sequenceNumber !== 'string' || !/^\d{1,128}$/.test(sequenceNumber)) {
            throw invalid(`StartingSequenceNumber ${String(sequenceNumber)} used in GetShardIterator on shard ${state.h} in stream ${stream.definition.StreamName} under account ${accountId} is invalid.`);
          }
          // AT: above the number just below it, which no other record can hold.
          state.a = type === 'AFTER_SEQUENCE_NUMBER' ? sequenceNumber : (BigInt(sequenceNumber) - 1n).toString();
          break;
        }
        case 'AT_TIMESTAMP': {
          const timestamp = Number(input.Timestamp);
          if (!Number.isFinite(timestamp)) throw invalid('Must specify timestampInMillis parameter for iterator of type AT_TIMESTAMP. Current request has no timestamp parameter.');
          const first = records.findIndex((record) => record.arrival >= timestamp * 1000);
          state.a = first < 0 ? records.at(-1)?.SequenceNumber : first > 0 ? records[first - 1].SequenceNumber : undefined;
          break;
        }
        default:
          throw validation(`1 validation error detected: Value '${type}' at 'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: [AFTER_SEQUENCE_NUMBER, AT_SEQUENCE_NUMBER, AT_TIMESTAMP, TRIM_HORIZON, LATEST]`);
      }
      return { ShardIterator: encodeIterator(state) };
    }
    case 'GetRecords': {
      const state = decodeIterator(input.ShardIterator);
      const now = Date.now();
      if (now - state.t > ITERATOR_LIFETIME_MS) throw new AwsError('ExpiredIteratorException', `Iterator expired. The iterator was created at time ${new Date(state.t).toUTCString()} while right now it is ${new Date(now).toUTCString()} which is further in the future than the tolerated delay of 300000 milliseconds.`);
      const stream = store.get(state.s, accountId);
      const records = shardOf(stream, state.h, accountId);
      const limit = Number(input.Limit ?? 10_000);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw validation(`1 validation error detected: Value '${limit}' at 'limit' failed to satisfy constraint: Member must have value between 1 and 10000`);
      const start = store.indexAfter(records, state.a);
      const page = records.slice(start, start + limit);
      const last = page.at(-1)?.SequenceNumber ?? state.a;
      const behind = records[start + page.length];
      return {
        Records: page.map((record) => ({ SequenceNumber: record.SequenceNumber, ApproximateArrivalTimestamp: record.arrival / 1000, Data: record.Data, PartitionKey: record.PartitionKey })),
        NextShardIterator: encodeIterator({ s: state.s, h: state.h, a: last, t: now }),
        MillisBehindLatest: behind ? Math.max(0, now - behind.arrival) : 0,
      };
    }
    case 'IncreaseStreamRetentionPeriod':
    case 'DecreaseStreamRetentionPeriod': {
      const stream = streamOf(store, input, accountId);
      const hours = retentionChange(stream, input.RetentionPeriodHours, operation === 'IncreaseStreamRetentionPeriod' ? 'increase' : 'decrease');
      store.update(stream.definition.StreamName, { retentionHours: hours });
      return {};
    }
    case 'RegisterStreamConsumer': {
      if (typeof input.StreamARN !== 'string') throw validation("1 validation error detected: Value null at 'streamARN' failed to satisfy constraint: Member must not be null");
      return { Consumer: registerConsumer(store, store.get(input.StreamARN, accountId), input.ConsumerName, accountId) };
    }
    case 'DescribeStreamConsumer': {
      const { stream, consumer } = namedConsumer(store, input, accountId);
      return { ConsumerDescription: { ...consumer, StreamARN: stream.definition.StreamARN } };
    }
    case 'ListStreamConsumers': {
      if (typeof input.StreamARN !== 'string') throw validation("1 validation error detected: Value null at 'streamARN' failed to satisfy constraint: Member must not be null");
      return consumerPage(store.get(input.StreamARN, accountId), input);
    }
    case 'DeregisterStreamConsumer':
      deregisterConsumer(store, input, accountId);
      return {};
    default:
      throw new AwsError('UnknownOperationException', `not emulated: Kinesis ${operation}`);
  }
}

