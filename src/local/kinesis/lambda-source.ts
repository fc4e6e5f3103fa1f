import type { ShardRecord, ShardSource } from '../lambda/shard-delivery';
import type { KinesisRecord, KinesisStore } from './streams';

/** A Kinesis record as a Lambda event's `Records` carry it (also what `fw generate-event -t aws:kinesis` prints). */
export function kinesisLambdaRecord(streamArn: string, shardId: string, record: KinesisRecord): ShardRecord {
  return {
    sequenceNumber: record.SequenceNumber,
    arrival: record.arrival,
    // The shape of "Using AWS Lambda with Amazon Kinesis"; invokeIdentityArn is added per function.
    event: {
      kinesis: {
        kinesisSchemaVersion: '1.0',
        partitionKey: record.PartitionKey,
        sequenceNumber: record.SequenceNumber,
        data: record.Data,
        approximateArrivalTimestamp: record.arrival / 1000,
      },
      eventSource: 'aws:kinesis',
      eventVersion: '1.0',
      eventID: `${shardId}:${record.SequenceNumber}`,
      eventName: 'aws:kinesis:record',
      invokeIdentityArn: '',
      awsRegion: streamArn.split(':')[3],
      eventSourceARN: streamArn,
    },
  };
}

/** Kinesis streams as the shard delivery reads them: the stored records of each shard. */
export function kinesisShardSource(store: KinesisStore): ShardSource {
  const shard = (streamArn: string, shardId: string) => store.find(streamArn)?.records.get(shardId) ?? [];
  return {
    batchInfoKey: 'KinesisBatchInfo',
    owns: (streamArn) => streamArn.startsWith('arn:') && streamArn.split(':')[2] === 'kinesis',
    shardIds: (streamArn) => store.find(streamArn)?.definition.Shards.map((entry) => entry.ShardId) ?? [],
    read(streamArn, shardId, after, limit) {
      const records = shard(streamArn, shardId);
      const start = store.indexAfter(records, after);
      return records.slice(start, start + limit).map((record) => kinesisLambdaRecord(streamArn, shardId, record));
    },
    positionAt(streamArn, shardId, time) {
      const records = shard(streamArn, shardId);
      const first = records.findIndex((record) => record.arrival >= time);
      if (first === 0) return undefined;
      return (first < 0 ? records.at(-1) : records[first - 1])?.SequenceNumber;
    },
    // Filter patterns match a record's data as JSON when it is JSON, as Lambda's filtering does.
    filterView(event) {
      const kinesis = event.kinesis as Record<string, unknown>;
      let data: unknown = kinesis.data;
      try {
        data = JSON.parse(Buffer.from(String(kinesis.data), 'base64').toString('utf8'));
      } catch {
        // not JSON: patterns see the base64 text
      }
      return { ...kinesis, data };
    },
    forFunction: (event, roleArn) => ({ ...event, invokeIdentityArn: roleArn }),
  };
}
