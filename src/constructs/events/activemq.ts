import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import type { FunctionConstruct } from '../function';
import { isEventObject, validateEvent } from './event-schema';
import { registerBrokerPolicy } from './event-source-mapping';
import { amazonMqEventSourceMapping, amazonMqFields, amazonMqStatements } from './amazon-mq';

const activeMqSchema = isEventObject(amazonMqFields);
export type ActiveMqEventConfig = t.InferType<typeof activeMqSchema>;

export const parseActiveMq = (config: unknown, path: string): ActiveMqEventConfig => validateEvent(activeMqSchema, config, path);

/**
 * `activemq` event: an event source mapping from a queue of an Amazon MQ for ActiveMQ
 * broker (`{Fn}EventSourceMappingActiveMQ{Queue}`), authenticated with a Secrets Manager secret.
 */
export class ActiveMqEvent extends Construct {
  static readonly type = 'activemq';
  static readonly description = 'Messages from an Amazon MQ for ActiveMQ queue (an event source mapping)';
  static readonly schema = activeMqSchema;

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const event = parseActiveMq(config, path);
    amazonMqEventSourceMapping(this, fn, event, naming.activeMqEventSourceMapping(fn.key, event.queue), path);
  }
}

registerBrokerPolicy({ order: 2, type: ActiveMqEvent.type, statements: amazonMqStatements(parseActiveMq) });
