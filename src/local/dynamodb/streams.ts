/**
 * DynamoDB Streams as Lambda sees them: every write to a table with a stream becomes a record
 * (INSERT, MODIFY, REMOVE with the images its StreamViewType keeps), kept for 24 hours in one
 * shard per stream, and read by the shard delivery for the mappings on the stream's ARN. The
 * records of one write are appended as one line to `dynamodb/stream-records.log` before the write
 * is answered, so a restart keeps what a consumer has not read yet.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { readJsonLines } from '../state/json-lines';
import { writeFileAtomic } from '../state/files';
import { unlessDiskFull } from '../state/storage-failure';
import { AppendLog } from './item-log';
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

/** One line of the log: the records of one write, each with its stream's ARN. */
type LoggedRecords = [streamArn: string, record: ShardRecord][];

const SEQUENCE_BASE = 10n ** 20n;

/** The records of the tables' streams, in memory and in their log, as a shard source. */
export class DynamoDbStreams implements ShardSource {
  readonly batchInfoKey = 'DDBStreamBatchInfo';
  private readonly streams = new Map<string, ShardRecord[]>();
  private sequence = 0n;
  private readonly log: AppendLog;
  /** Records in the log, kept or not: it is rewritten when it holds several times what is kept. */
  private logged = 0;
  /** Told which streams got records. */
  onRecords: (streamArn: string) => void = () => {};

  constructor(
    dataDir: string,
    private readonly warn: (line: string) => void = () => {},
  ) {
    this.log = new AppendLog(join(dataDir, 'dynamodb', 'stream-records.log'));
    for (const line of readJsonLines<LoggedRecords>(this.log.file)) {
      for (const [streamArn, record] of line) {
        let records = this.streams.get(streamArn);
        if (!records) this.streams.set(streamArn, (records = []));
        records.push(record);
        const sequence = BigInt(record.sequenceNumber) - SEQUENCE_BASE;
        if (sequence > this.sequence) this.sequence = sequence;
        this.logged += 1;
      }
    }
    for (const streamArn of this.streams.keys()) this.trim(streamArn, Date.now());
    if (this.logged > this.kept()) this.compact();
  }

  private kept(): number {
    return [...this.streams.values()].reduce((sum, records) => sum + records.length, 0);
  }

  /** Drops the records past the retention period, and the oldest beyond MAX_KEPT. */
  private trim(streamArn: string, now: number): void {
    const records = this.streams.get(streamArn)!;
    const expired = records.findIndex((record) => record.arrival > now - RETENTION_MS);
    records.splice(0, Math.max(expired < 0 ? records.length : expired, records.length - MAX_KEPT));
  }

  /** Rewrites the log with the records kept. Only saves space: on a full disk the longer log stays. */
  private compact(): void {
    const lines = [...this.streams].flatMap(([streamArn, records]) => records.map((record) => JSON.stringify([[streamArn, record]])));
    unlessDiskFull('DynamoDB stream log compaction', () => {
      writeFileAtomic(this.log.file, lines.length ? `${lines.join('\n')}\n` : '');
      this.log.reopen();
      this.logged = lines.length;
    }, this.warn);
  }

  /** Closes the log (the local cloud stops). */
  close(): void {
    this.log.close();
  }

  /** Turns the changes of one write (a transaction's or a batch's together) into stream records. */
  record(changes: ItemChange[]): void {
    const now = Date.now();
    const made: LoggedRecords = [];
    let sequence = this.sequence;
    for (const change of changes) {
      const streamArn = change.table.definition.LatestStreamArn;
      if (!streamArn || change.table.definition.StreamSpecification?.StreamEnabled === false) continue;
      sequence += 1n;
      const sequenceNumber = (SEQUENCE_BASE + sequence).toString();
      made.push([streamArn, { sequenceNumber, arrival: now, event: streamRecord(change, streamArn.split(':')[3], sequenceNumber, now) }]);
    }
    if (made.length === 0) return;
    // On the disk first, as the write itself: what is answered survives a restart.
    this.log.append(`${JSON.stringify(made)}\n`);
    this.sequence = sequence;
    this.logged += made.length;
    const touched = new Set<string>();
    for (const [streamArn, record] of made) {
      let records = this.streams.get(streamArn);
      if (!records) this.streams.set(streamArn, (records = []));
      records.push(record);
      touched.add(streamArn);
    }
    for (const streamArn of touched) this.trim(streamArn, now);
    if (this.logged > 1000 && this.logged > 4 * this.kept()) this.compact();
    for (const streamArn of touched) this.onRecords(streamArn);
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
