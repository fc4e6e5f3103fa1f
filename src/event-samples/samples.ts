/**
 * `fw generate-event`'s event types (Serverless v3's list) and how `--body` goes into each. Where
 * the local cloud sends the event to functions, its own builder makes the sample, so both agree.
 */
import { createHash, randomUUID } from 'node:crypto';
import { ConfigError } from '../errors';
import { streamRecord } from '../local/dynamodb/streams';
import { eventBridgeEvent } from '../local/eventbridge/event';
import { s3LambdaRecord } from '../local/s3/notifications';
import { restEventV1 } from '../local/gateway/events';
import { kinesisLambdaRecord } from '../local/kinesis/lambda-source';
import { sqsLambdaRecord } from '../local/sqs/service';
import { snsLambdaRecord } from '../local/sns/service';
import { messageEvent } from '../local/websocket/events';
import { subscriptionEvent } from '../local/logs/subscriptions';
import { alexaSkillEvent, alexaSmartHomeEvent, cognitoUserPoolEvent, iotEvent } from './documented';

const ACCOUNT = '123456789012';
const REGION = 'us-east-1';
const API_ID = 'abcdef1234';
const DOMAIN = `${API_ID}.execute-api.${REGION}.amazonaws.com`;

/** How a type takes `--body`: as the message text, as JSON merged over (or replacing) a part, or not at all. */
export type BodyUse = 'text' | 'json' | 'none';

export interface EventType {
  /** What `--body` becomes, for `--help` and docs/guides/testing-functions.md. */
  body: string;
  use: BodyUse;
  build(body: string | undefined): unknown;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** The JSON object `--body` holds, or a one-line error naming the type. */
function jsonObject(type: string, body: string, what: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`Invalid --body ${JSON.stringify(body)}: ${type} takes a JSON object (${what})`);
  }
  return parsed as Record<string, unknown>;
}

const merged = (type: string, event: Record<string, unknown>, body: string | undefined) =>
  body === undefined ? event : { ...event, ...jsonObject(type, body, 'its properties are set on the event') };

export const EVENT_TYPES: Record<string, EventType> = {
  'aws:alexaSkill': { body: 'a JSON object: its properties set on the event', use: 'json', build: (body) => merged('aws:alexaSkill', alexaSkillEvent(), body) },
  'aws:alexaSmartHome': { body: 'a JSON object: its properties set on the event', use: 'json', build: (body) => merged('aws:alexaSmartHome', alexaSmartHomeEvent(), body) },
  'aws:apiGateway': {
    body: 'the request body',
    use: 'text',
    build: (body = '{}') =>
      restEventV1(
        {
          method: 'POST',
          path: '/hello',
          search: new URLSearchParams(),
          headers: { 'content-type': 'application/json', host: DOMAIN, 'user-agent': 'curl/8.5.0' },
          rawHeaders: ['Content-Type', 'application/json', 'Host', DOMAIN, 'User-Agent', 'curl/8.5.0'],
          body: Buffer.from(body),
          hostname: DOMAIN,
          region: REGION,
          sourceIp: '198.51.100.1',
        },
        { accountId: ACCOUNT, apiId: API_ID, stage: 'dev', routeKey: 'POST /hello', path: '/hello', pathParameters: {}, domainName: DOMAIN, resourceId: 'abc123', resourcePath: '/hello' },
      ),
  },
  'aws:cloudWatch': {
    body: 'a JSON object: its properties set on the event',
    use: 'json',
    build: (body) =>
      merged(
        'aws:cloudWatch',
        eventBridgeEvent({
          detailType: 'EC2 Instance State-change Notification',
          source: 'aws.ec2',
          account: ACCOUNT,
          region: REGION,
          resources: [`arn:aws:ec2:${REGION}:${ACCOUNT}:instance/i-1234567890abcdef0`],
          detail: { 'instance-id': 'i-1234567890abcdef0', state: 'terminated' },
        }),
        body,
      ),
  },
  'aws:cloudWatchLog': { body: 'the log event\'s message (inside the gzipped awslogs.data)', use: 'text', build: (body = 'example log message') => cloudWatchLogEvent(body) },
  'aws:cognitoUserPool': { body: 'a JSON object: its properties set on the event', use: 'json', build: (body) => merged('aws:cognitoUserPool', cognitoUserPoolEvent(), body) },
  'aws:dynamo': {
    body: "a JSON object: its properties set on the record's dynamodb (Keys, NewImage, …)",
    use: 'json',
    build: (body) => {
      const item = { id: { S: '101' }, message: { S: 'New item!' } };
      const tableArn = `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/example`;
      const change = {
        table: { definition: { StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' }, LatestStreamArn: `${tableArn}/stream/2026-01-01T00:00:00.000` } },
        key: { id: item.id },
        next: item,
      };
      const record = streamRecord(change, REGION, '111100000000000000000001', Date.now());
      if (body !== undefined) record.dynamodb = { ...(record.dynamodb as object), ...jsonObject('aws:dynamo', body, "its properties are set on the record's dynamodb") };
      return { Records: [record] };
    },
  },
  'aws:iot': {
    body: 'a JSON object: the message the rule passes (the whole event)',
    use: 'json',
    build: (body) => (body === undefined ? iotEvent() : jsonObject('aws:iot', body, 'the message the rule passes')),
  },
  'aws:kinesis': {
    body: 'the record data (base64 in the event)',
    use: 'text',
    build: (body = '{}') => {
      const sequenceNumber = '49590338271490256608559692538361571095921575989136588898';
      const record = { SequenceNumber: sequenceNumber, arrival: Date.now(), Data: Buffer.from(body).toString('base64'), PartitionKey: 'partition-1' };
      const { event } = kinesisLambdaRecord(`arn:aws:kinesis:${REGION}:${ACCOUNT}:stream/example`, 'shardId-000000000000', record);
      return { Records: [{ ...event, invokeIdentityArn: `arn:aws:iam::${ACCOUNT}:role/example-role` }] };
    },
  },
  'aws:s3': {
    body: 'not used (as in Serverless v3)',
    use: 'none',
    build: () => ({ Records: [s3LambdaRecord({ bucket: 'example-bucket', region: REGION, object: { key: 'photos/cat.jpg', size: 1024, etag: '0123456789abcdef0123456789abcdef' } }, 'ObjectCreated:Put', 'example-notification')] }),
  },
  'aws:sns': {
    body: 'the message',
    use: 'text',
    build: (body = '{}') => ({
      Records: [snsLambdaRecord(`arn:aws:sns:${REGION}:${ACCOUNT}:example-topic:${randomUUID()}`, `arn:aws:sns:${REGION}:${ACCOUNT}:example-topic`, randomUUID(), { message: body })],
    }),
  },
  'aws:sqs': {
    body: 'the message body',
    use: 'text',
    build: (body = '{}') => {
      const now = String(Date.now());
      const attributes = { ApproximateReceiveCount: '1', SentTimestamp: now, SenderId: ACCOUNT, ApproximateFirstReceiveTimestamp: now };
      const message = { MessageId: randomUUID(), receiptHandle: randomUUID(), Body: body, MD5OfBody: md5(body) };
      return { Records: [sqsLambdaRecord(message, attributes, `arn:aws:sqs:${REGION}:${ACCOUNT}:example-queue`, REGION)] };
    },
  },
  'aws:websocket': {
    body: 'the message',
    use: 'text',
    build: (body = '{}') =>
      messageEvent(
        { connectionId: 'ZX0bAcEXAMPLE=', apiId: API_ID, stage: 'dev', domainName: DOMAIN, connectedAt: Date.now(), sourceIp: '198.51.100.1', userAgent: 'wscat/5.2.0' },
        '$default',
        Buffer.from(body),
        false,
      ),
  },
};

/** The event of `type` with `body` placed as the type takes it; an unknown type is a one-line error listing the valid ones. */
export function generateEvent(type: string, body: string | undefined): unknown {
  const eventType = Object.hasOwn(EVENT_TYPES, type) ? EVENT_TYPES[type] : undefined;
  if (!eventType) throw new ConfigError(`Invalid --type "${type}": expected one of ${Object.keys(EVENT_TYPES).join(', ')}`);
  return eventType.build(body);
}

/** A CloudWatch Logs subscription delivery, as the local cloud's subscription filters send it. */
function cloudWatchLogEvent(message: string): Record<string, unknown> {
  const now = Date.now();
  return subscriptionEvent({
    owner: ACCOUNT,
    logGroup: '/aws/lambda/example',
    logStream: `${new Date(now).toISOString().slice(0, 10).replace(/-/g, '/')}/[$LATEST]${randomUUID().replace(/-/g, '')}`,
    subscriptionFilters: ['example-filter'],
    logEvents: [{ id: String(now).padEnd(56, '0'), timestamp: now, message }],
  });
}
