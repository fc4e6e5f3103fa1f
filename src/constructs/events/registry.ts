import type { Construct } from 'constructs';
import { ConfigError, invalid } from '../../errors';
import type { FunctionConstruct } from '../function';
import { checkEventFields } from './fields';
import { closest } from '../../synth/suggest';

/** An event type: its key under `events`, and the construct it becomes. */
export interface EventType {
  readonly type: string;
  /** What its entry under `events` may hold (typanion, described for `fw schema`). */
  readonly schema?: unknown;
  /** One line for editors (`fw schema`). */
  readonly description?: string;
  new (fn: FunctionConstruct, id: string, config: unknown, path: string): Construct;
}

/**
 * The broker event types add their role statements together, type by type in the reference's
 * order (event-source-mapping.ts; each registers its part when its module loads): one of them
 * in a service loads all four.
 */
const brokers = () => ({
  msk: (require('./msk') as typeof import('./msk')).MskEvent,
  kafka: (require('./kafka') as typeof import('./kafka')).KafkaEvent,
  activemq: (require('./activemq') as typeof import('./activemq')).ActiveMqEvent,
  rabbitmq: (require('./rabbitmq') as typeof import('./rabbitmq')).RabbitMqEvent,
});

/**
 * fw's own event types, each module loaded when a service first uses its type: a service
 * with HTTP routes only then never loads (or initializes) the twenty other event modules.
 * Loading on use also keeps the registry out of the import cycle event → construct → registry.
 */
const BUILT_IN = {
  httpApi: () => (require('./http-api') as typeof import('./http-api')).HttpApiEvent,
  http: () => (require('./http') as typeof import('./http')).HttpEvent,
  s3: () => (require('./s3') as typeof import('./s3')).S3Event,
  schedule: () => (require('./schedule') as typeof import('./schedule')).ScheduleEvent,
  cloudwatchEvent: () => (require('./cloudwatch-event') as typeof import('./cloudwatch-event')).CloudWatchEventEvent,
  cloudwatchLog: () => (require('./cloudwatch-log') as typeof import('./cloudwatch-log')).CloudWatchLogEvent,
  sns: () => (require('./sns') as typeof import('./sns')).SnsEvent,
  sqs: () => (require('./sqs') as typeof import('./sqs')).SqsEvent,
  stream: () => (require('./stream') as typeof import('./stream')).StreamEvent,
  msk: () => brokers().msk,
  kafka: () => brokers().kafka,
  activemq: () => brokers().activemq,
  rabbitmq: () => brokers().rabbitmq,
  alb: () => (require('./alb') as typeof import('./alb')).AlbEvent,
  alexaSkill: () => (require('./alexa-skill') as typeof import('./alexa-skill')).AlexaSkillEvent,
  alexaSmartHome: () => (require('./alexa-smart-home') as typeof import('./alexa-smart-home')).AlexaSmartHomeEvent,
  iot: () => (require('./iot') as typeof import('./iot')).IotEvent,
  iotFleetProvisioning: () => (require('./iot-fleet-provisioning') as typeof import('./iot-fleet-provisioning')).IotFleetProvisioningEvent,
  cloudFront: () => (require('./cloud-front') as typeof import('./cloud-front')).CloudFrontEvent,
  cognitoUserPool: () => (require('./cognito-user-pool') as typeof import('./cognito-user-pool')).CognitoUserPoolEvent,
  eventBridge: () => (require('./event-bridge') as typeof import('./event-bridge')).EventBridgeEvent,
  websocket: () => (require('./websocket') as typeof import('./websocket')).WebsocketEvent,
} satisfies Record<string, () => EventType>;

/** Each built-in event type's class, by its key under `events` (src/service/types.ts derives the event types from their schemas). */
export type BuiltInEventTypes = { [type in keyof typeof BUILT_IN]: ReturnType<(typeof BUILT_IN)[type]> };

/** fw's own event types, every module loaded: for `fw schema`, which describes them all. */
export function builtInEventTypes(): EventType[] {
  return Object.values(BUILT_IN).map(load => load());
}

/** The event types plugins added. */
const added = new Map<string, EventType>();

/** The class of an event type, or undefined for an unknown one. */
function eventClassOf(type: string): EventType | undefined {
  const load = Object.hasOwn(BUILT_IN, type) ? BUILT_IN[type as keyof typeof BUILT_IN] : undefined;
  return load ? load() : added.get(type);
}

const knownTypes = () => [...Object.keys(BUILT_IN), ...added.keys()];

/** Adds an event type; a second class for one type is a bug (or a clashing plugin) and fails loudly. */
export function registerEventType(eventType: EventType): void {
  const existing = eventClassOf(eventType.type);
  if (existing && existing !== eventType) throw new Error(`Event type "${eventType.type}" is registered twice`);
  if (!Object.hasOwn(BUILT_IN, eventType.type)) added.set(eventType.type, eventType);
}

/** Takes a plugin's event type out again once its command is done (several services run in one process in tests). */
export function unregisterEventType(eventType: EventType): void {
  if (added.get(eventType.type) === eventType) added.delete(eventType.type);
}

/** Whether `type` is an event type fw or a loaded plugin knows. */
export function isEventType(type: string): boolean {
  return Object.hasOwn(BUILT_IN, type) || added.has(type);
}

/** Builds one construct per entry of a function's `events` list. */
export function createEvents(fn: FunctionConstruct, events: unknown, path: string): void {
  if (!Array.isArray(events)) throw invalid(path, 'a list of events', events);
  events.forEach((event, index) => {
    const at = `${path}[${index}]`;
    if (event === 'alexaSkill') {
      // Serverless v2 allowed a bare `- alexaSkill`; v3 accepts it with a deprecation warning and writes nothing for it.
      process.stderr.write(`Warning: ${at}: an alexaSkill event without an appId adds no permission; give the skill's id ("- alexaSkill: amzn1.ask.skill.…"). Serverless Framework v3 deprecated this form.\n`);
      return;
    }
    if (typeof event === 'string' && isEventType(event)) {
      throw new ConfigError(`Invalid configuration in '${at}': the "${event}" event needs its settings, e.g. "- ${event}: …" (see the ${event} event's documentation)`);
    }
    if (event === null || typeof event !== 'object' || Array.isArray(event)) throw invalid(at, 'an event like { httpApi: "GET /" }', event);
    const keys = Object.keys(event);
    if (keys.length !== 1) throw invalid(at, 'exactly one event type per list entry', keys.join(', ') || event);
    const [type] = keys;
    const EventClass = eventClassOf(type);
    if (!EventClass) {
      const meant = closest(type, knownTypes());
      throw new ConfigError(`Invalid configuration in '${at}': unknown event type "${type}"${meant ? `; did you mean "${meant}"?` : ''} (known: ${knownTypes().sort().join(', ')})`);
    }
    checkEventFields(type, (event as Record<string, unknown>)[type], `${at}.${type}`);
    new EventClass(fn, `${type}${index}`, (event as Record<string, unknown>)[type], `${at}.${type}`);
  });
}
