import type { EventType } from './registry';
import { CloudWatchEventEvent } from './cloudwatch-event';
import { CloudWatchLogEvent } from './cloudwatch-log';
import { S3Event } from './s3';
import { ScheduleEvent } from './schedule';
import { SnsEvent } from './sns';
import { SqsEvent } from './sqs';
import { StreamEvent } from './stream';

/** Event types registered by this group (see registry.ts). */
export const eventTypes: EventType[] = [S3Event, ScheduleEvent, CloudWatchEventEvent, CloudWatchLogEvent, SnsEvent, SqsEvent, StreamEvent];
