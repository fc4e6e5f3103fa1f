/**
 * DynamoDB Streams as Lambda sees them: every write to a table with a stream becomes a record
 * (INSERT, MODIFY, REMOVE with the images its StreamViewType keeps), kept for 24 hours in one
 * shard per stream, and read by the shard delivery for the mappings on the stream's ARN.
 */
import { randomUUID } from 'node:crypto';
import type { ShardRecord, ShardSource } from '../lambda/shard-delivery';
import type { ItemChange, TableDefinition } from './tables';
import { itemSize } from './values';

const RETENTION_MS = 24 * 60 * 60 * 1000;
/** Records kept per stream at most, so a long benchmark run cannot grow memory without end. */
const MAX_KEPT = 100_000;

/** A DynamoDB stream record as Lambda receives it (also what `fw generate-event -t aws:dynamo` prints). */
export function streamRecord(
  change: Omit<ItemChange, 'table'> & { table: { definition: Pick<TableDefinition, 'StreamSpecification' | 'LatestStreamArn'> } },
  region: string,
  sequenceNumber: string,
  now: number,
): Record<string, unknown> {
  const { table, key, old, next, expired } = change;
  const view = table.definition.StreamSpecification?.StreamViewType ?? 'NEW_AND_OLD_IMAGES';
  return {
    eventID: randomUUID().replace(/-/g, ''),
    eventName: !old ? 'INSERT' : next ? 'MODIFY' : 'REMOVE',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(now / 1000),
      Keys: key,
      ...(next && (view === 'NEW_IMAGE' || view === 'NEW_AND_OLD_IMAGES') ? { NewImage: next } : {}),
      ...(old && (view === 'OLD_IMAGE' || view === 'NEW_AND_OLD_IMAGES') ? { OldImage: old } : {}),
      SequenceNumber: sequenceNumber,
      SizeBytes: itemSize(next ?? old ?? key),
      StreamViewType: view,
    },
    eventSourceARN: table.definition.LatestStreamArn,
    // How DynamoDB marks the deletions its TTL process makes.
    ...(expired ? { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } : {}),
  };
}

/** The records of the tables' streams, in memory, as a shard source. */
export class DynamoDbStreams implements ShardSource {
  readonly batchInfoKey = 'DDBStreamBatchInfo';
  private readonly streams = new Map<string, ShardRecord[]>();
  private sequence = 0n;
  /** Told which streams got records. */
  onRecords: (streamArn: string) => void = () => {};

  /** Turns the changes of one write (a transaction's or a batch's together) into stream records. */
  record(changes: ItemChange[]): void {
    const touched = new Set<string>();
    const now = Date.now();
    for (const change of changes) {
      const streamArn = change.table.definition.LatestStreamArn;
      if (!streamArn || change.table.definition.StreamSpecification?.StreamEnabled === false) continue;
      this.sequence += 1n;
      const sequenceNumber = (10n ** 20n + this.sequence).toString();
      let records = this.streams.get(streamArn);
      if (!records) this.streams.set(streamArn, (records = []));
      records.push({ sequenceNumber, arrival: now, event: streamRecord(change, streamArn.split(':')[3], sequenceNumber, now) });
      touched.add(streamArn);
    }
    for (const streamArn of touched) {
      const records = this.streams.get(streamArn)!;
      const expired = records.findIndex((record) => record.arrival > now - RETENTION_MS);
      records.splice(0, Math.max(expired < 0 ? records.length : expired, records.length - MAX_KEPT));
      this.onRecords(streamArn);
    }
  }

  owns(streamArn: string): boolean {
    return /^arn:aws[a-z-]*:dynamodb:[^:]*:[^:]*:table\/[^/]+\/stream\//.test(streamArn);
  }

  shardIds(streamArn: string): string[] {
    return this.owns(streamArn) ? ['shardId-00000000000000000000-00000001'] : [];
  }

  read(streamArn: string, _shardId: string, after: string | undefined, limit: number): ShardRecord[] {
    const records = this.streams.get(streamArn) ?? [];
    // Sequence numbers here all have 21 digits, so string order is numeric order.
    const start = after === undefined ? 0 : records.findIndex((record) => record.sequenceNumber > after);
    return start < 0 ? [] : records.slice(start, start + limit);
  }

  positionAt(streamArn: string, _shardId: string, time: number): string | undefined {
    const records = this.streams.get(streamArn) ?? [];
    const first = records.findIndex((record) => record.arrival >= time);
    if (first === 0) return undefined;
    return (first < 0 ? records.at(-1) : records[first - 1])?.sequenceNumber;
  }
}
