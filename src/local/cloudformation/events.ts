import { randomUUID } from 'node:crypto';
import type { StackEvent, StackRecord } from './model';

export const STACK_TYPE = 'AWS::CloudFormation::Stack';

/** AWS keeps 90 days of events; the local cloud keeps the newest ones, so the state file stays small. */
const EVENTS_KEPT = 10_000;

/** Appends one event to the stack's history, newest last. */
export function recordEvent(
  stack: StackRecord,
  resource: { logicalId: string; physicalId: string; type: string },
  status: string,
  reason?: string,
  properties?: Record<string, unknown>,
): void {
  const event: StackEvent = {
    EventId: resource.type === STACK_TYPE ? randomUUID() : `${resource.logicalId}-${status}-${new Date().toISOString()}-${randomUUID().slice(0, 8)}`,
    StackId: stack.stackId,
    StackName: stack.stackName,
    LogicalResourceId: resource.logicalId,
    PhysicalResourceId: resource.physicalId,
    ResourceType: resource.type,
    Timestamp: new Date().toISOString(),
    ResourceStatus: status,
    ResourceStatusReason: reason,
    ResourceProperties: properties ? JSON.stringify(properties) : undefined,
  };
  stack.events.push(event);
  if (stack.events.length > EVENTS_KEPT) stack.events.splice(0, stack.events.length - EVENTS_KEPT);
}

/** Moves the stack to a status and says so in its events, as CloudFormation does. */
export function setStackStatus(stack: StackRecord, status: string, reason?: string): void {
  stack.status = status;
  stack.statusReason = reason;
  recordEvent(stack, { logicalId: stack.stackName, physicalId: stack.stackId, type: STACK_TYPE }, status, reason);
}
