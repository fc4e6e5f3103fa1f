import type { EventType } from './registry';
import { MskEvent } from './msk';
import { KafkaEvent } from './kafka';
import { ActiveMqEvent } from './activemq';
import { RabbitMqEvent } from './rabbitmq';
import { AlbEvent } from './alb';
import { AlexaSkillEvent } from './alexa-skill';
import { AlexaSmartHomeEvent } from './alexa-smart-home';
import { IotEvent } from './iot';
import { IotFleetProvisioningEvent } from './iot-fleet-provisioning';

/** Event types registered by this group (see registry.ts). */
export const eventTypes: EventType[] = [
  MskEvent,
  KafkaEvent,
  ActiveMqEvent,
  RabbitMqEvent,
  AlbEvent,
  AlexaSkillEvent,
  AlexaSmartHomeEvent,
  IotEvent,
  IotFleetProvisioningEvent,
];
