/**
 * How Lambda reads a stream with shards (Kinesis, DynamoDB Streams) for an event source mapping:
 * one poller per mapping and shard, so a function sees each shard's records in order, one batch
 * at a time. BatchSize, MaximumBatchingWindowInSeconds, StartingPosition (LATEST, TRIM_HORIZON,
 * AT_TIMESTAMP), FilterCriteria, MaximumRetryAttempts, BisectBatchOnFunctionError,
 * ReportBatchItemFailures and the on-failure destination (SQS or SNS) are honoured. Each poller's
 * position is saved after every batch (ShardPositions), so a restart resumes where it was.
 */
import { randomUUID } from 'node:crypto';
import type { LocalServices } from '../service-interfaces';
import type { ResourceRecord } from '../cloudformation/model';
import { matchesPattern } from '../eventbridge/event-pattern';
import { isThrottle } from '../runtime/concurrency';
import { ShardPositions } from './shard-positions';

/** One record of a shard as a function gets it. */
export interface ShardRecord {
  sequenceNumber: string;
  /** Epoch milliseconds. */
  arrival: number;
  event: Record<string, unknown>;
}

/** What a stream service tells the delivery about its shards. */
export interface ShardSource {
  /** The key of the batch description in an on-failure record: `KinesisBatchInfo`, `DDBStreamBatchInfo`. */
  readonly batchInfoKey: string;
  /** Whether an event source ARN is a stream of this source. */
  owns(streamArn: string): boolean;
  shardIds(streamArn: string): string[];
  /** Records above a sequence number (from the oldest kept when undefined), at most `limit`. */
  read(streamArn: string, shardId: string, after: string | undefined, limit: number): ShardRecord[];
  /** The position just before the first record that arrived at `time` or later. */
  positionAt(streamArn: string, shardId: string, time: number): string | undefined;
  /** The record as FilterCriteria patterns see it, when it differs from the event (Kinesis data decoded). */
  filterView?(event: Record<string, unknown>): Record<string, unknown>;
  /** The record as the function gets it, when it names the function's role (Kinesis `invokeIdentityArn`). */
  forFunction?(event: Record<string, unknown>, roleArn: string): Record<string, unknown>;
}

const DEFAULT_BATCH_SIZE = 100;
const MAX_RETRY_DELAY_MS = 1_000;

const truthy = (value: unknown) => value === true || value === 'true';

function passesFilters(criteria: unknown, record: Record<string, unknown>): boolean {
  const filters = (criteria as { Filters?: { Pattern?: string }[] } | undefined)?.Filters ?? [];
  return filters.length === 0 || filters.some((filter) => matchesPattern(JSON.parse(filter.Pattern ?? '{}') as Record<string, unknown>, record));
}

/** The enabled mappings reading a stream. */
function mappingsOf(cloud: LocalServices, streamArn: string): ResourceRecord[] {
  return cloud
    .resources('AWS::Lambda::EventSourceMapping')
    .map(({ record }) => record)
    .filter((record) => record.properties.EventSourceArn === streamArn && record.properties.Enabled !== false && record.properties.Enabled !== 'false');
}

type Outcome = { ok: true } | { ok: false; functionError: boolean; failedFrom: number; throttled?: boolean };

class ShardPoller {
  private cursor: string | undefined;
  private readonly positionKey: string;
  private running = false;
  private again = false;
  private stopped = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly delivery: ShardDelivery,
    readonly mappingId: string,
    private readonly streamArn: string,
    private readonly shardId: string,
    mapping: ResourceRecord,
  ) {
    this.positionKey = ShardPositions.key(mappingId, streamArn, shardId);
    const saved = delivery.positions.get(this.positionKey);
    const position = String(mapping.properties.StartingPosition ?? 'LATEST');
    const source = delivery.source;
    if (saved !== undefined) this.cursor = saved;
    else if (position === 'AT_TIMESTAMP') this.cursor = source.positionAt(streamArn, shardId, Number(mapping.properties.StartingPositionTimestamp ?? 0) * 1000);
    // LATEST: what arrived since the mapping was made (before a restart too, when nothing was delivered yet).
    else if (position !== 'TRIM_HORIZON') this.cursor = source.positionAt(streamArn, shardId, Date.parse(mapping.timestamp) || delivery.startedAt);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.run();
  }

  private mapping(): ResourceRecord | undefined {
    return mappingsOf(this.delivery.cloud, this.streamArn).find((record) => record.physicalId === this.mappingId);
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      for (;;) {
        const mapping = this.mapping();
        if (this.stopped || !mapping) return;
        const properties = mapping.properties;
        const batchSize = Number(properties.BatchSize ?? DEFAULT_BATCH_SIZE);
        const batch = this.delivery.source.read(this.streamArn, this.shardId, this.cursor, batchSize);
        if (batch.length === 0) return;
        const windowMs = Number(properties.MaximumBatchingWindowInSeconds ?? 0) * 1000;
        const due = batch[0].arrival + windowMs;
        if (batch.length < batchSize && due > Date.now()) {
          // Wait for a full batch or the end of the window, whichever comes first.
          clearTimeout(this.timer);
          this.timer = setTimeout(() => this.wake(), due - Date.now());
          this.timer.unref();
          return;
        }
        const last = batch[batch.length - 1].sequenceNumber;
        const source = this.delivery.source;
        const selected = batch.filter((record) => passesFilters(properties.FilterCriteria, source.filterView ? source.filterView(record.event) : record.event));
        if (selected.length > 0) await this.deliver(mapping, selected, 0);
        // A poller stopped mid-batch (the local cloud stopping) keeps its last position: the batch comes again.
        if (this.stopped) return;
        this.cursor = last;
        this.delivery.positions.set(this.positionKey, last);
      }
    } catch (error) {
      this.delivery.cloud.log(`Stream delivery from ${this.streamArn} failed: ${(error as Error).message}`);
    } finally {
      this.running = false;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    }
  }

  /** One batch until it succeeds, its retries run out (then the on-failure destination hears of it), or the poller stops. */
  private async deliver(mapping: ResourceRecord, records: ShardRecord[], attempt: number): Promise<void> {
    const properties = mapping.properties;
    let outcome = await this.invoke(mapping, records);
    // A throttled batch is retried as it is until it goes through (records expire with the stream's retention): no retry attempt is spent.
    while (!outcome.ok && outcome.throttled && !this.stopped) {
      await new Promise((resolve) => setTimeout(resolve, MAX_RETRY_DELAY_MS));
      if (!this.stopped) outcome = await this.invoke(mapping, records);
    }
    if (outcome.ok || this.stopped) return;
    const remaining = records.slice(outcome.failedFrom);
    const maxRetries = Number(properties.MaximumRetryAttempts ?? -1);
    if (maxRetries >= 0 && attempt >= maxRetries) {
      this.onFailure(mapping, remaining, attempt + 1);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_RETRY_DELAY_MS, 20 * 2 ** attempt)));
    if (this.stopped) return;
    if (outcome.functionError && truthy(properties.BisectBatchOnFunctionError) && remaining.length > 1) {
      const half = Math.ceil(remaining.length / 2);
      await this.deliver(mapping, remaining.slice(0, half), attempt + 1);
      await this.deliver(mapping, remaining.slice(half), attempt + 1);
    } else {
      await this.deliver(mapping, remaining, attempt + 1);
    }
  }

  /**
   * Runs the function on a batch. With ReportBatchItemFailures, the records from the first one it
   * names (by sequence number) on are retried; a name that is no record of the batch fails it all.
   */
  private async invoke(mapping: ResourceRecord, records: ShardRecord[]): Promise<Outcome> {
    const functionName = String(mapping.properties.FunctionName);
    const { cloud, source } = this.delivery;
    try {
      const role = String(cloud.functions.record(functionName).properties.Role ?? '');
      const events = records.map((record) => (source.forFunction ? source.forFunction(record.event, role) : record.event));
      const outcome = await cloud.functions.invoke(functionName, { Records: events });
      if (outcome.functionError) return { ok: false, functionError: true, failedFrom: 0 };
      const reports = ((mapping.properties.FunctionResponseTypes as string[] | undefined) ?? []).includes('ReportBatchItemFailures');
      if (!reports) return { ok: true };
      let failures: { itemIdentifier?: unknown }[] = [];
      try {
        failures = (JSON.parse(outcome.payload) as { batchItemFailures?: { itemIdentifier?: unknown }[] } | null)?.batchItemFailures ?? [];
      } catch {
        return { ok: true };
      }
      if (failures.length === 0) return { ok: true };
      const indexes = failures.map((failure) => records.findIndex((record) => record.sequenceNumber === failure.itemIdentifier));
      return { ok: false, functionError: false, failedFrom: indexes.includes(-1) ? 0 : Math.min(...indexes) };
    } catch (error) {
      cloud.log(`Stream delivery to ${functionName} failed: ${(error as Error).message}`);
      return { ok: false, functionError: true, failedFrom: 0, throttled: isThrottle(error) };
    }
  }

  /** What Lambda sends to the mapping's on-failure destination about records it gave up on. */
  private onFailure(mapping: ResourceRecord, records: ShardRecord[], invokeCount: number): void {
    const destination = (mapping.properties.DestinationConfig as { OnFailure?: { Destination?: string } } | undefined)?.OnFailure?.Destination;
    const cloud = this.delivery.cloud;
    if (!destination) return;
    const functionName = String(mapping.properties.FunctionName);
    let functionArn = functionName;
    try {
      functionArn = String(cloud.functions.record(functionName).attributes.Arn);
    } catch {
      // a deleted function: its name is all there is
    }
    const message = JSON.stringify({
      requestContext: { requestId: randomUUID(), functionArn, condition: 'RetryAttemptsExhausted', approximateInvokeCount: invokeCount },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      version: '1.0',
      timestamp: new Date().toISOString(),
      [this.delivery.source.batchInfoKey]: {
        shardId: this.shardId,
        startSequenceNumber: records[0].sequenceNumber,
        endSequenceNumber: records[records.length - 1].sequenceNumber,
        approximateArrivalOfFirstRecord: new Date(records[0].arrival).toISOString(),
        approximateArrivalOfLastRecord: new Date(records[records.length - 1].arrival).toISOString(),
        batchSize: records.length,
        streamArn: this.streamArn,
      },
    });
    try {
      cloud.sendToDestination(destination, message);
    } catch (error) {
      cloud.log(`The on-failure destination ${destination} of a stream mapping could not be reached: ${(error as Error).message}`);
    }
  }
}

/** The pollers of every mapping that reads one kind of stream. */
export class ShardDelivery {
  private readonly pollers = new Map<string, ShardPoller>();
  /** LATEST for a mapping whose creation time is unknown. */
  readonly startedAt = Date.now();

  constructor(
    readonly cloud: LocalServices,
    readonly source: ShardSource,
    readonly positions: ShardPositions,
  ) {}

  /** Records arrived on a stream (or its mappings changed): its pollers look for work. */
  notify(streamArn: string): void {
    const mappings = mappingsOf(this.cloud, streamArn);
    for (const mapping of mappings) {
      for (const shardId of this.source.shardIds(streamArn)) {
        const key = ShardPositions.key(mapping.physicalId, streamArn, shardId);
        let poller = this.pollers.get(key);
        if (!poller) this.pollers.set(key, (poller = new ShardPoller(this, mapping.physicalId, streamArn, shardId, mapping)));
        poller.wake();
      }
    }
  }

  /** After a stack or mapping change: new mappings start (TRIM_HORIZON ones read what is there), removed ones stop. */
  sync(): void {
    const live = new Set<string>();
    const streams = new Set<string>();
    for (const { record } of this.cloud.resources('AWS::Lambda::EventSourceMapping')) {
      const streamArn = String(record.properties.EventSourceArn ?? '');
      if (!this.source.owns(streamArn)) continue;
      streams.add(streamArn);
      live.add(record.physicalId);
    }
    for (const [key, poller] of this.pollers) {
      if (!live.has(poller.mappingId)) {
        poller.stop();
        this.pollers.delete(key);
      }
    }
    this.positions.keepOnly(live);
    for (const streamArn of streams) this.notify(streamArn);
  }

  stop(): void {
    for (const poller of this.pollers.values()) poller.stop();
    this.pollers.clear();
  }
}
