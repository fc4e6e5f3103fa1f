/**
 * DynamoDB Streams as Lambda sees them: every write to a table with a stream becomes a record
 * (INSERT, MODIFY, REMOVE with the images its StreamViewType keeps), delivered in order to the
 * functions whose event source mapping reads the stream, filtered by their FilterCriteria.
 */
import { randomUUID } from 'node:crypto';
import type { TriggerServices } from '../service-interfaces';
import { matchesPattern } from '../events/event-pattern';
import type { ItemChange } from './tables';
import { itemSize } from './values';

let sequence = 0n;
const deliveries = new WeakMap<object, Promise<void>>();

function streamRecord(change: ItemChange, region: string): Record<string, unknown> {
  const { table, key, old, next } = change;
  const view = table.definition.StreamSpecification?.StreamViewType ?? 'NEW_AND_OLD_IMAGES';
  sequence += 1n;
  return {
    eventID: randomUUID().replace(/-/g, ''),
    eventName: !old ? 'INSERT' : next ? 'MODIFY' : 'REMOVE',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      Keys: key,
      ...(next && (view === 'NEW_IMAGE' || view === 'NEW_AND_OLD_IMAGES') ? { NewImage: next } : {}),
      ...(old && (view === 'OLD_IMAGE' || view === 'NEW_AND_OLD_IMAGES') ? { OldImage: old } : {}),
      SequenceNumber: (10n ** 20n + sequence).toString(),
      SizeBytes: itemSize(next ?? old ?? key),
      StreamViewType: view,
    },
    eventSourceARN: table.definition.LatestStreamArn,
  };
}

function passesFilters(criteria: unknown, record: Record<string, unknown>): boolean {
  const filters = (criteria as { Filters?: { Pattern?: string }[] } | undefined)?.Filters ?? [];
  return filters.length === 0 || filters.some((filter) => matchesPattern(JSON.parse(filter.Pattern ?? '{}') as Record<string, unknown>, record));
}

/** Hands the changes of one write (a transaction's are one batch) to the mappings reading the table's stream. */
export function deliverStreamRecords(cloud: TriggerServices, changes: ItemChange[]): void {
  const byStream = new Map<string, ItemChange[]>();
  for (const change of changes) {
    const stream = change.table.definition.LatestStreamArn;
    if (stream && change.table.definition.StreamSpecification?.StreamEnabled !== false) byStream.set(stream, [...(byStream.get(stream) ?? []), change]);
  }
  for (const [streamArn, streamChanges] of byStream) {
    const region = streamArn.split(':')[3];
    const records = streamChanges.map((change) => streamRecord(change, region));
    for (const { record: mapping } of cloud.resources('AWS::Lambda::EventSourceMapping')) {
      const properties = mapping.properties;
      if (properties.EventSourceArn !== streamArn || properties.Enabled === false || properties.Enabled === 'false') continue;
      const delivered = records.filter((record) => passesFilters(properties.FilterCriteria, record));
      if (delivered.length === 0) continue;
      // One batch at a time per mapping, so a function sees a table's changes in the order they happened.
      const previous = deliveries.get(mapping) ?? Promise.resolve();
      const next = previous.then(() =>
        cloud.functions.invoke(String(properties.FunctionName), { Records: delivered }).then(
          () => undefined,
          (error: Error) => cloud.log(`DynamoDB stream delivery to ${String(properties.FunctionName)} failed: ${error.message}`),
        ),
      );
      deliveries.set(mapping, next);
    }
  }
}
