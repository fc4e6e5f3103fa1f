import type { LocalServices } from '../service-interfaces';
import { eventBridgeEvent } from './event';
import { matchesPattern } from './event-pattern';
import { jsonResponse, type LocalResponse } from '../http';
import { busName, eventResourceOperation } from './resources';
import { deliverToTarget, targetInput, type RuleTarget } from './targets';

interface Entry {
  Source?: string;
  DetailType?: string;
  Detail?: string;
  EventBusName?: string;
  Resources?: string[];
  Time?: number;
}

/** A Detail must be a JSON object; anything else fails its entry alone. */
function parseDetail(detail: string | undefined): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(detail ?? '{}') as unknown;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * EventBridge PutEvents (JSON 1.1): each event goes to the Lambda, SQS and SNS targets of the rules
 * whose pattern it matches; rules, targets and buses made by the API are in events-resources.ts.
 */
export function eventBridgeApi(cloud: LocalServices, operation: string, input: Record<string, unknown>, region: string): LocalResponse {
  if (operation !== 'PutEvents') return jsonResponse(eventResourceOperation(cloud, operation, input, region), 200, 'application/x-amz-json-1.1');
  const entries = (input.Entries as Entry[] | undefined) ?? [];
  const results: ({ EventId: string } | { ErrorCode: string; ErrorMessage: string })[] = [];
  for (const entry of entries) {
    const detail = parseDetail(entry.Detail);
    if (!detail) {
      results.push({ ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' });
      continue;
    }
    const event = eventBridgeEvent({
      detailType: entry.DetailType,
      source: entry.Source,
      account: cloud.accountId,
      region,
      resources: entry.Resources ?? [],
      detail,
      time: entry.Time ? entry.Time * 1000 : undefined,
    });
    results.push({ EventId: String(event.id) });
    for (const { record } of cloud.resources('AWS::Events::Rule')) {
      const pattern = record.properties.EventPattern;
      if (!pattern || (record.properties.State ?? 'ENABLED') !== 'ENABLED' || busName(record.properties.EventBusName) !== busName(entry.EventBusName)) continue;
      const parsed = (typeof pattern === 'string' ? JSON.parse(pattern) : pattern) as Record<string, unknown>;
      if (!matchesPattern(parsed, event)) continue;
      for (const target of (record.properties.Targets as RuleTarget[] | undefined) ?? []) {
        if (target.Arn) deliverToTarget(cloud, target.Arn, targetInput(target, event, { name: record.physicalId, arn: String(record.attributes.Arn) }), 'EventBridge');
      }
    }
  }
  const failed = results.filter((result) => 'ErrorCode' in result).length;
  return jsonResponse({ FailedEntryCount: failed, Entries: results }, 200, 'application/x-amz-json-1.1');
}
