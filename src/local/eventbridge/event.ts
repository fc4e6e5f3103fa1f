import { randomUUID } from 'node:crypto';

export interface EventBridgeEventFields {
  /** Undefined when a PutEvents entry lacks it: the field is then left out, as the JSON drops it. */
  detailType: string | undefined;
  source: string | undefined;
  account: string;
  region: string;
  resources: string[];
  detail: unknown;
  /** Epoch milliseconds; now when absent. */
  time?: number;
}

/**
 * The event EventBridge delivers to a rule's targets (PutEvents, schedules), also what
 * `fw generate-event -t aws:cloudWatch` prints: times to the second, as EventBridge writes them.
 */
export function eventBridgeEvent(fields: EventBridgeEventFields): Record<string, unknown> {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': fields.detailType,
    source: fields.source,
    account: fields.account,
    time: new Date(fields.time ?? Date.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
    region: fields.region,
    resources: fields.resources,
    detail: fields.detail,
  };
}
