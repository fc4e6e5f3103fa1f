import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import type { FunctionConstruct } from '../function';
import { isEventObject, validateEvent } from './event-schema';
import { registerBrokerPolicy } from './event-source-mapping';
import { amazonMqEventSourceMapping, amazonMqFields, amazonMqStatements } from './amazon-mq';

const rabbitMqSchema = isEventObject({ ...amazonMqFields, virtualHost: t.isOptional(t.isString()) });
export type RabbitMqEventConfig = t.InferType<typeof rabbitMqSchema>;

export const parseRabbitMq = (config: unknown, path: string): RabbitMqEventConfig => validateEvent(rabbitMqSchema, config, path);

/**
 * `rabbitmq` event: an event source mapping from a queue of an Amazon MQ for RabbitMQ
 * broker (`{Fn}EventSourceMappingRabbitMQ{Queue}`), authenticated with a Secrets Manager
 * secret, optionally on a virtual host.
 */
export class RabbitMqEvent extends Construct {
  static readonly type = 'rabbitmq';
  static readonly description = 'Messages from an Amazon MQ for RabbitMQ queue';
  static readonly schema = rabbitMqSchema;

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const event = parseRabbitMq(config, path);
    amazonMqEventSourceMapping(this, fn, event, naming.rabbitMqEventSourceMapping(fn.key, event.queue), path);
  }
}

registerBrokerPolicy({ order: 3, type: RabbitMqEvent.type, statements: amazonMqStatements(parseRabbitMq) });
