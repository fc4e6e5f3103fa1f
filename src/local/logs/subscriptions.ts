/**
 * CloudWatch Logs subscription filters delivering to Lambda: those a stack declares
 * (`AWS::Logs::SubscriptionFilter`, what a `cloudwatchLog` event compiles to) and those
 * PutSubscriptionFilter makes (kept as the same records, beside the stacks'), one path for both.
 * Each batch of events a log group stores goes, filtered by each filter's pattern, to its
 * destination function as "Using CloudWatch Logs subscription filters" shows: `awslogs.data`, the
 * base64 of the gzipped JSON of the delivery.
 */
import { gzipSync } from 'node:zlib';
import type { ResourceRecord } from '../cloudformation/model';
import { functionNameOf } from '../runtime/functions';
import type { LocalServices } from '../service-interfaces';
import { GroupFilters } from './group-filters';
import { LogStore, type LogEvent } from './store';

export const SUBSCRIPTION_FILTER = 'AWS::Logs::SubscriptionFilter';

export interface SubscriptionDelivery {
  owner: string;
  logGroup: string;
  logStream: string;
  subscriptionFilters: string[];
  logEvents: { id: string; timestamp: number; message: string }[];
}

/** The event a subscription's function receives. */
export function subscriptionEvent(delivery: SubscriptionDelivery): { awslogs: { data: string } } {
  return { awslogs: { data: gzipSync(JSON.stringify({ messageType: 'DATA_MESSAGE', ...delivery })).toString('base64') } };
}

/** The subscription filters of every log group, read again after each stack or API change. */
export class LogSubscriptions {
  private readonly filters: GroupFilters;
  /** Filters already reported as delivering a function's own logs to itself. */
  private readonly reported = new Set<string>();

  constructor(private readonly cloud: LocalServices) {
    this.filters = new GroupFilters(cloud, SUBSCRIPTION_FILTER, (record, group) =>
      cloud.log(`Subscription filter ${String(record.properties.FilterName ?? record.physicalId)} on ${group} has a filter pattern the local cloud cannot read: it delivers nothing`),
    );
  }

  /** New events of a stream: each filter of its group sends the ones its pattern matches to its function. */
  deliver(group: string, stream: string, events: LogEvent[]): void {
    if (events.length === 0) return;
    for (const { record, matches } of this.filters.of(group)) {
      const destination = String(record.properties.DestinationArn ?? '');
      const filterName = String(record.properties.FilterName ?? record.physicalId);
      if (destination.split(':')[2] !== 'lambda') {
        this.reportOnce(record, `not emulated: CloudWatch Logs subscription filter ${filterName} on ${group} delivering to ${destination} (the local cloud delivers to Lambda functions)`);
        continue;
      }
      // A function subscribed to its own logs would be invoked by each line it logs, without end.
      if (group === `/aws/lambda/${functionNameOf(destination)}`) {
        this.reportOnce(record, `Subscription filter ${filterName} would deliver ${functionNameOf(destination)}'s own logs to it: not delivered`);
        continue;
      }
      const selected = events.filter((event) => matches(event.message));
      if (selected.length === 0) continue;
      const event = subscriptionEvent({
        owner: this.cloud.accountId,
        logGroup: group,
        logStream: stream,
        subscriptionFilters: [filterName],
        logEvents: selected.map((logEvent) => ({ id: LogStore.eventId(logEvent), timestamp: logEvent.timestamp, message: logEvent.message })),
      });
      try {
        this.cloud.functions.invokeAsync(destination, event, undefined);
      } catch (error) {
        this.cloud.log(`Subscription filter ${filterName} on ${group} could not invoke ${destination}: ${(error as Error).message}`);
      }
    }
  }

  private reportOnce(record: ResourceRecord, line: string): void {
    const key = `${String(record.properties.LogGroupName)} ${record.physicalId}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.cloud.log(line);
  }
}
