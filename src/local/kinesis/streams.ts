/**
 * Kinesis data streams and their records, in memory, persisted under <dataDir>/kinesis/:
 * `streams.json` holds the streams and their shards (written whole, atomically) and
 * `records.log` one JSON line per PutRecord(s) call, replayed on load.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import { readJson, writeFileAtomic, writeJsonAtomic } from '../state/files';
import { appendJsonLine, readJsonLines } from '../state/json-lines';
import { unlessDiskFull } from '../state/storage-failure';

export interface KinesisShard {
  ShardId: string;
  HashKeyRange: { StartingHashKey: string; EndingHashKey: string };
  SequenceNumberRange: { StartingSequenceNumber: string };
}

export interface KinesisStreamDefinition {
  StreamName: string;
  StreamARN: string;
  StreamModeDetails: { StreamMode: 'PROVISIONED' | 'ON_DEMAND' };
  RetentionPeriodHours: number;
  /** Epoch seconds, as the JSON protocol sends timestamps. */
  StreamCreationTimestamp: number;
  Shards: KinesisShard[];
  /** Enhanced fan-out consumers (RegisterStreamConsumer); absent when none was ever registered. */
  Consumers?: KinesisConsumer[];
}

export interface KinesisConsumer {
  ConsumerName: string;
  ConsumerARN: string;
  ConsumerStatus: 'ACTIVE';
  /** Epoch seconds. */
  ConsumerCreationTimestamp: number;
}

export interface KinesisRecord {
  SequenceNumber: string;
  /** Epoch milliseconds. */
  arrival: number;
  /** Base64, as the API carries it. */
  Data: string;
  PartitionKey: string;
}

export interface KinesisStream {
  definition: KinesisStreamDefinition;
  /** Shard id → its records, oldest first (sequence numbers increase). */
  records: Map<string, KinesisRecord[]>;
}

type LoggedPut = [streamArn: string, shardId: string, record: KinesisRecord][];

/** An ON_DEMAND stream starts with four shards, as in AWS. */
export const ON_DEMAND_SHARDS = 4;
const HASH_SPACE = 1n << 128n;
/** Kinesis sequence numbers are 56-digit decimal strings that only grow: equal length keeps string order numeric. */
const SEQUENCE_BASE = 49n * 10n ** 54n;
/** What one shard takes per second, as AWS enforces it. */
export const SHARD_RECORDS_PER_SECOND = 1000;
export const SHARD_BYTES_PER_SECOND = 1024 * 1024;

export function shardIdOf(index: number): string {
  return `shardId-${String(index).padStart(12, '0')}`;
}

/** The 128-bit hash key of a partition key: its MD5 read as an unsigned big-endian integer. */
export function hashKeyOf(partitionKey: string): bigint {
  return BigInt(`0x${createHash('md5').update(partitionKey, 'utf8').digest('hex')}`);
}

/** The hash key space split evenly, as CreateStream splits it. */
export function evenShards(count: number, startingSequenceNumber: string): KinesisShard[] {
  return Array.from({ length: count }, (_, index) => ({
    ShardId: shardIdOf(index),
    HashKeyRange: {
      StartingHashKey: ((HASH_SPACE * BigInt(index)) / BigInt(count)).toString(),
      EndingHashKey: ((HASH_SPACE * BigInt(index + 1)) / BigInt(count) - 1n).toString(),
    },
    SequenceNumberRange: { StartingSequenceNumber: startingSequenceNumber },
  }));
}

export const streamNotFound = (name: string, accountId: string) => new AwsError('ResourceNotFoundException', `Stream ${name} under account ${accountId} not found.`);

export class KinesisStore {
  private readonly streams = new Map<string, KinesisStream>();
  private readonly folder: string;
  private sequence = 0n;
  /** Per shard: the second being counted and what was written in it. */
  private readonly throughput = new Map<string, { second: number; records: number; bytes: number }>();
  /** Told about every stream that got records (stream event source mappings hang here). */
  onRecords: (streamArn: string) => void = () => {};

  constructor(
    dataDir: string,
    private readonly warn: (line: string) => void = () => {},
  ) {
    this.folder = join(dataDir, 'kinesis');
    for (const definition of readJson<KinesisStreamDefinition[]>(join(this.folder, 'streams.json'), [])) {
      this.streams.set(definition.StreamName, { definition, records: new Map(definition.Shards.map((shard) => [shard.ShardId, []])) });
    }
    const byArn = new Map([...this.streams.values()].map((stream) => [stream.definition.StreamARN, stream]));
    const now = Date.now();
    for (const put of readJsonLines<LoggedPut>(this.logFile)) {
      for (const [streamArn, shardId, record] of put) {
        const stream = byArn.get(streamArn);
        if (stream && !expired(stream, record, now)) stream.records.get(shardId)?.push(record);
        const sequence = BigInt(record.SequenceNumber) - SEQUENCE_BASE;
        if (sequence > this.sequence) this.sequence = sequence;
      }
    }
    for (const stream of this.streams.values()) {
      for (const shard of stream.definition.Shards) {
        const sequence = BigInt(shard.SequenceNumberRange.StartingSequenceNumber) - SEQUENCE_BASE;
        if (sequence > this.sequence) this.sequence = sequence;
      }
    }
  }

  private get logFile(): string {
    return join(this.folder, 'records.log');
  }

  private nextSequenceNumber(): string {
    this.sequence += 1n;
    return (SEQUENCE_BASE + this.sequence).toString();
  }

  private save(): void {
    writeJsonAtomic(join(this.folder, 'streams.json'), [...this.streams.values()].map((stream) => stream.definition));
  }

  /** Rewrites the log with the records of the streams that still exist. */
  private compact(): void {
    const lines = [...this.streams.values()].flatMap((stream) =>
      [...stream.records].flatMap(([shardId, records]) => records.map((record) => JSON.stringify([[stream.definition.StreamARN, shardId, record]]))),
    );
    // Only saves space (a deleted stream's records are skipped on load): on a full disk the log stays as it is.
    unlessDiskFull('Kinesis log compaction', () => writeFileAtomic(this.logFile, lines.length ? `${lines.join('\n')}\n` : ''), this.warn);
  }

  names(): string[] {
    return [...this.streams.keys()].sort();
  }

  /** A stream by name or ARN. */
  find(nameOrArn: string): KinesisStream | undefined {
    const name = nameOrArn.startsWith('arn:') ? nameOrArn.split(':stream/')[1] ?? '' : nameOrArn;
    const stream = this.streams.get(name);
    return stream && (!nameOrArn.startsWith('arn:') || stream.definition.StreamARN === nameOrArn) ? stream : undefined;
  }

  get(nameOrArn: string, accountId: string): KinesisStream {
    const stream = this.find(nameOrArn);
    if (!stream) throw streamNotFound(nameOrArn.startsWith('arn:') ? nameOrArn.split(':stream/')[1] ?? nameOrArn : nameOrArn, accountId);
    return stream;
  }

  create(input: { name: string; shardCount: number; mode: 'PROVISIONED' | 'ON_DEMAND'; retentionHours?: number }, region: string, accountId: string): KinesisStream {
    if (this.streams.has(input.name)) throw new AwsError('ResourceInUseException', `Stream ${input.name} under account ${accountId} already exists.`);
    const definition: KinesisStreamDefinition = {
      StreamName: input.name,
      StreamARN: `arn:aws:kinesis:${region}:${accountId}:stream/${input.name}`,
      StreamModeDetails: { StreamMode: input.mode },
      RetentionPeriodHours: input.retentionHours ?? 24,
      StreamCreationTimestamp: Math.floor(Date.now() / 1000),
      Shards: evenShards(input.shardCount, this.nextSequenceNumber()),
    };
    const stream: KinesisStream = { definition, records: new Map(definition.Shards.map((shard) => [shard.ShardId, []])) };
    this.streams.set(input.name, stream);
    this.save();
    return stream;
  }

  /** Settings a stack update may change in place. */
  update(name: string, changes: { retentionHours?: number; mode?: 'PROVISIONED' | 'ON_DEMAND' }): KinesisStream {
    const stream = this.streams.get(name);
    if (!stream) throw new AwsError('ResourceNotFoundException', `Stream ${name} not found.`);
    if (changes.retentionHours !== undefined) stream.definition.RetentionPeriodHours = changes.retentionHours;
    if (changes.mode) stream.definition.StreamModeDetails = { StreamMode: changes.mode };
    this.save();
    return stream;
  }

  /** Registers or deregisters a stream's consumers (the whole list, saved with the stream). */
  setConsumers(stream: KinesisStream, consumers: KinesisConsumer[]): void {
    stream.definition.Consumers = consumers;
    this.save();
  }

  /** A consumer by ARN, over every stream. */
  consumerByArn(consumerArn: string): { stream: KinesisStream; consumer: KinesisConsumer } | undefined {
    for (const stream of this.streams.values()) {
      const consumer = stream.definition.Consumers?.find((candidate) => candidate.ConsumerARN === consumerArn);
      if (consumer) return { stream, consumer };
    }
    return undefined;
  }

  delete(name: string): boolean {
    if (!this.streams.delete(name)) return false;
    this.save();
    this.compact();
    return true;
  }

  /** The shard a record goes to: the one whose hash key range holds its explicit hash key or its partition key's MD5. */
  shardFor(stream: KinesisStream, partitionKey: string, explicitHashKey?: string): KinesisShard {
    const hash = explicitHashKey !== undefined ? BigInt(explicitHashKey) : hashKeyOf(partitionKey);
    return stream.definition.Shards.find((shard) => BigInt(shard.HashKeyRange.StartingHashKey) <= hash && hash <= BigInt(shard.HashKeyRange.EndingHashKey))!;
  }

  /**
   * Whether a shard can take one more record of this size in the current second (1,000 records
   * and 1 MiB a second, as AWS enforces); counts it if so.
   */
  admit(stream: KinesisStream, shardId: string, bytes: number, now: number): boolean {
    const key = `${stream.definition.StreamARN} ${shardId}`;
    const second = Math.floor(now / 1000);
    let used = this.throughput.get(key);
    if (!used || used.second !== second) this.throughput.set(key, (used = { second, records: 0, bytes: 0 }));
    if (used.records + 1 > SHARD_RECORDS_PER_SECOND || used.bytes + bytes > SHARD_BYTES_PER_SECOND) return false;
    used.records += 1;
    used.bytes += bytes;
    return true;
  }

  /** Appends records (one PutRecord or the accepted entries of one PutRecords) as one log line. */
  append(stream: KinesisStream, entries: { shardId: string; data: string; partitionKey: string }[], now: number): KinesisRecord[] {
    const put: LoggedPut = entries.map(({ shardId, data, partitionKey }) => [
      stream.definition.StreamARN,
      shardId,
      { SequenceNumber: this.nextSequenceNumber(), arrival: now, Data: data, PartitionKey: partitionKey },
    ]);
    if (put.length === 0) return [];
    // On the disk first: records the disk refuses (full) are answered as failed and never read.
    appendJsonLine(this.logFile, put);
    const written = put.map(([, shardId, record]) => {
      const records = stream.records.get(shardId)!;
      records.push(record);
      // Records older than the stream's retention period are gone, as on AWS.
      let kept = 0;
      while (expired(stream, records[kept], now)) kept += 1;
      if (kept > 0) records.splice(0, kept);
      return record;
    });
    this.onRecords(stream.definition.StreamARN);
    return written;
  }

  /** Index of the first record of a shard whose sequence number is above `after` (all of them when undefined). */
  indexAfter(records: KinesisRecord[], after: string | undefined): number {
    if (after === undefined) return 0;
    let low = 0;
    let high = records.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compareSequenceNumbers(records[middle].SequenceNumber, after) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

function expired(stream: KinesisStream, record: KinesisRecord, now: number): boolean {
  return record.arrival < now - stream.definition.RetentionPeriodHours * 3_600_000;
}

export function compareSequenceNumbers(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}
