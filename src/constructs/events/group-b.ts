import type { EventType } from './registry';

/** Event types registered by this group (see registry.ts). */
export const eventTypes: EventType[] = [];
