import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import { amazonMqEventType, amazonMqFields } from './amazon-mq';
import { isEventObject } from './event-schema';

/**
 * `rabbitmq` event: an event source mapping from a queue of an Amazon MQ for RabbitMQ
 * broker (`{Fn}EventSourceMappingRabbitMQ{Queue}`), authenticated with a Secrets Manager
 * secret, optionally on a virtual host.
 */
export const RabbitMqEvent = amazonMqEventType({
  type: 'rabbitmq',
  description: 'Messages from an Amazon MQ for RabbitMQ queue',
  schema: isEventObject({ ...amazonMqFields, virtualHost: t.isOptional(t.isString()) }),
  order: 3,
  logicalId: naming.rabbitMqEventSourceMapping,
});
