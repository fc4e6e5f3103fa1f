import type { Construct } from 'constructs';
import { ConfigError, invalid } from '../../errors';
import type { FunctionConstruct } from '../function';
import { HttpApiEvent } from './http-api';
import { HttpEvent } from './http';
import * as groupA from './group-a';
import * as groupB from './group-b';
import * as groupC from './group-c';
import { checkEventFields } from './fields';

/** An event type: its key under `events`, and the construct it becomes. */
export interface EventType {
  readonly type: string;
  new (fn: FunctionConstruct, id: string, config: unknown, path: string): Construct;
}

const registry = new Map<string, EventType>();
let builtInsRegistered = false;

/**
 * fw's own event types, registered on first use rather than at load time: event modules
 * import constructs that import this registry, and a load-time loop could meet a class
 * whose module is still loading.
 */
function registerBuiltIns(): void {
  if (builtInsRegistered) return;
  builtInsRegistered = true;
  for (const eventType of [HttpApiEvent, HttpEvent, ...groupA.eventTypes, ...groupB.eventTypes, ...groupC.eventTypes]) {
    registerEventType(eventType);
  }
}

/** Adds an event type; a second class for one type is a bug (or a clashing plugin) and fails loudly. */
export function registerEventType(eventType: EventType): void {
  registerBuiltIns();
  const existing = registry.get(eventType.type);
  if (existing && existing !== eventType) throw new Error(`Event type "${eventType.type}" is registered twice`);
  registry.set(eventType.type, eventType);
}

/** Takes a plugin's event type out again once its command is done (several services run in one process in tests). */
export function unregisterEventType(eventType: EventType): void {
  if (registry.get(eventType.type) === eventType) registry.delete(eventType.type);
}

export function eventTypes(): ReadonlyMap<string, EventType> {
  registerBuiltIns();
  return registry;
}

/** Builds one construct per entry of a function's `events` list. */
export function createEvents(fn: FunctionConstruct, events: unknown, path: string): void {
  registerBuiltIns();
  if (!Array.isArray(events)) throw invalid(path, 'a list of events', events);
  events.forEach((event, index) => {
    const at = `${path}[${index}]`;
    if (typeof event === 'string' && registry.has(event)) {
      // Serverless v2 allowed a bare `- alexaSkill` (a permission open to every skill); v3 deprecated it.
      throw new ConfigError(`Invalid configuration in '${at}': the "${event}" event needs its settings, e.g. "- ${event}: …" (see the ${event} event's documentation)`);
    }
    if (event === null || typeof event !== 'object' || Array.isArray(event)) throw invalid(at, 'an event like { httpApi: "GET /" }', event);
    const keys = Object.keys(event);
    if (keys.length !== 1) throw invalid(at, 'exactly one event type per list entry', keys.join(', ') || event);
    const [type] = keys;
    const EventClass = registry.get(type);
    if (!EventClass) {
      throw new ConfigError(`Invalid configuration in '${at}': unknown event type "${type}" (known: ${[...registry.keys()].sort().join(', ')})`);
    }
    checkEventFields(type, (event as Record<string, unknown>)[type], `${at}.${type}`);
    new EventClass(fn, `${type}${index}`, (event as Record<string, unknown>)[type], `${at}.${type}`);
  });
}
