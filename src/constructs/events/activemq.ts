import * as naming from '../../synth/naming';
import { amazonMqEventType, amazonMqFields } from './amazon-mq';
import { isEventObject } from './event-schema';

/**
 * `activemq` event: an event source mapping from a queue of an Amazon MQ for ActiveMQ
 * broker (`{Fn}EventSourceMappingActiveMQ{Queue}`), authenticated with a Secrets Manager secret.
 */
export const ActiveMqEvent = amazonMqEventType({
  type: 'activemq',
  description: 'Messages from an Amazon MQ for ActiveMQ queue (an event source mapping)',
  schema: isEventObject(amazonMqFields),
  order: 2,
  logicalId: naming.activeMqEventSourceMapping,
});
