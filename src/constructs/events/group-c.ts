import type { EventType } from './registry';
import { CloudFrontEvent } from './cloud-front';
import { CognitoUserPoolEvent } from './cognito-user-pool';
import { EventBridgeEvent } from './event-bridge';
import { WebsocketEvent } from './websocket';

/** Event types registered by this group (see registry.ts). */
export const eventTypes: EventType[] = [CloudFrontEvent, CognitoUserPoolEvent, EventBridgeEvent, WebsocketEvent];
