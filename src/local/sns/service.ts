import { randomUUID } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import { declaredTags, tagList, tagMap } from '../state/resource-tags';
import type { QueryParams } from '../protocol/query';
import { flat } from '../protocol/xml';
import type { LocalServices } from '../service-interfaces';
import type { ResourceRecord } from '../cloudformation/model';
import { matchesPattern } from '../eventbridge/event-pattern';
import { isOptedOut, optedOutNumbers, optIn, setSmsAttributes, smsAttributes } from './sms';

const TOPIC = 'AWS::SNS::Topic';
const SUBSCRIPTION = 'AWS::SNS::Subscription';

interface Subscription {
  arn: string;
  topicArn: string;
  protocol: string;
  endpoint: string;
  attributes: Record<string, string>;
}

interface MessageAttribute {
  Type: string;
  Value: string;
}

export interface Publication {
  message: string;
  subject?: string;
  attributes?: Record<string, MessageAttribute>;
}

const notFound = (what = 'Topic') => new AwsError('NotFound', `${what} does not exist`, 404);
const invalid = (message: string) => new AwsError('InvalidParameter', `Invalid parameter: ${message}`);
const SUBSCRIPTION_ATTRIBUTES = ['FilterPolicy', 'FilterPolicyScope', 'RawMessageDelivery', 'RedrivePolicy', 'DeliveryPolicy', 'SubscriptionRoleArn'];

/** `Attributes.entry.N.key` / `.value` pairs of a query request. */
function attributeMap(params: QueryParams, name: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (let i = 1; params.string(`${name}.entry.${i}.key`) !== undefined; i++) map[params.string(`${name}.entry.${i}.key`)!] = params.string(`${name}.entry.${i}.value`) ?? '';
  return map;
}

/** A map in the query protocol's XML: `<entry><key/><value/></entry>` items. */
const entries = (map: Record<string, string>) => ({ entry: flat(Object.entries(map).map(([key, value]) => ({ key, value }))) });

function topics(cloud: LocalServices): ResourceRecord[] {
  return cloud.resources(TOPIC).map(({ record }) => record);
}

function topic(cloud: LocalServices, topicArn: string): ResourceRecord {
  const found = topics(cloud).find((record) => record.physicalId === topicArn);
  if (!found) throw notFound();
  return found;
}

/** The topic a tagging call names (ResourceArn), refused as SNS refuses an unknown one. */
function taggedTopic(cloud: LocalServices, params: QueryParams): string {
  const arn = params.required('ResourceArn');
  if (!topics(cloud).some((record) => record.physicalId === arn)) throw new AwsError('ResourceNotFound', 'Resource does not exist', 404);
  return arn;
}

/** A topic's subscriptions: those its stack lists inline (as Serverless writes them), the separate resources, and API-made ones. */
function subscriptions(cloud: LocalServices, topicArn?: string): Subscription[] {
  const found: Subscription[] = [];
  for (const record of topics(cloud)) {
    if (topicArn && record.physicalId !== topicArn) continue;
    for (const [index, inline] of ((record.properties.Subscription as { Endpoint?: unknown; Protocol?: unknown }[] | undefined) ?? []).entries()) {
      found.push({ arn: `${record.physicalId}:inline-${index}`, topicArn: record.physicalId, protocol: String(inline.Protocol), endpoint: String(inline.Endpoint), attributes: {} });
    }
  }
  for (const { record } of cloud.resources(SUBSCRIPTION)) {
    const properties = record.properties;
    if (topicArn && properties.TopicArn !== topicArn) continue;
    const attributes: Record<string, string> = {};
    for (const name of SUBSCRIPTION_ATTRIBUTES) {
      const value = properties[name];
      if (value !== undefined) attributes[name] = typeof value === 'string' ? value : JSON.stringify(value);
    }
    found.push({ arn: record.physicalId, topicArn: String(properties.TopicArn), protocol: String(properties.Protocol), endpoint: String(properties.Endpoint), attributes });
  }
  return found;
}

/** The message attributes as a filter policy sees them: strings, numbers, and String.Array values as arrays. */
function filterView(attributes: Record<string, MessageAttribute>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(attributes).map(([name, attribute]) => {
      if (attribute.Type === 'Number') return [name, Number(attribute.Value)];
      if (attribute.Type === 'String.Array') {
        try {
          return [name, JSON.parse(attribute.Value) as unknown];
        } catch {
          return [name, attribute.Value];
        }
      }
      return [name, attribute.Value];
    }),
  );
}

function passesFilter(subscription: Subscription, publication: Publication): boolean {
  const policy = subscription.attributes.FilterPolicy;
  if (!policy) return true;
  const pattern = JSON.parse(policy) as Record<string, unknown>;
  if (subscription.attributes.FilterPolicyScope === 'MessageBody') {
    try {
      return matchesPattern(pattern, JSON.parse(publication.message) as Record<string, unknown>);
    } catch {
      return false;
    }
  }
  return matchesPattern(pattern, filterView(publication.attributes ?? {}));
}

/** The JSON document SNS delivers to SQS and HTTP endpoints without raw delivery. */
function notification(subscription: Subscription, messageId: string, publication: Publication, cloud: LocalServices): Record<string, unknown> {
  return {
    Type: 'Notification',
    MessageId: messageId,
    TopicArn: subscription.topicArn,
    ...(publication.subject !== undefined ? { Subject: publication.subject } : {}),
    Message: publication.message,
    Timestamp: new Date().toISOString(),
    SignatureVersion: '1',
    Signature: 'local',
    SigningCertURL: `${cloud.baseUrl}/_fw/sns/certificate.pem`,
    UnsubscribeURL: `${cloud.baseUrl}/?Action=Unsubscribe&SubscriptionArn=${encodeURIComponent(subscription.arn)}`,
    ...(publication.attributes && Object.keys(publication.attributes).length ? { MessageAttributes: publication.attributes } : {}),
  };
}

/** The SNS notification shape of a Lambda event's `Records` (also what `fw generate-event -t aws:sns` prints). */
export function snsLambdaRecord(subscriptionArn: string, topicArn: string, messageId: string, publication: Publication): Record<string, unknown> {
  return {
    EventSource: 'aws:sns',
    EventVersion: '1.0',
    EventSubscriptionArn: subscriptionArn,
    Sns: {
      Type: 'Notification',
      MessageId: messageId,
      TopicArn: topicArn,
      Subject: publication.subject ?? null,
      Message: publication.message,
      Timestamp: new Date().toISOString(),
      SignatureVersion: '1',
      Signature: 'local',
      SigningCertUrl: '',
      UnsubscribeUrl: '',
      MessageAttributes: publication.attributes ?? {},
    },
  };
}

function deliver(cloud: LocalServices, subscription: Subscription, messageId: string, publication: Publication): void {
  const raw = subscription.attributes.RawMessageDelivery === 'true';
  switch (subscription.protocol) {
    case 'lambda':
      cloud.functions.invokeAsync(subscription.endpoint, { Records: [snsLambdaRecord(subscription.arn, subscription.topicArn, messageId, publication)] });
      return;
    case 'sqs': {
      const attributes = raw
        ? Object.fromEntries(Object.entries(publication.attributes ?? {}).map(([name, attribute]) => [name, { DataType: attribute.Type, StringValue: attribute.Value }]))
        : undefined;
      cloud.sendToDestination(subscription.endpoint, raw ? publication.message : JSON.stringify(notification(subscription, messageId, publication, cloud)), attributes);
      return;
    }
    case 'http':
    case 'https': {
      const body = raw ? publication.message : JSON.stringify(notification(subscription, messageId, publication, cloud));
      const headers = {
        'content-type': 'text/plain; charset=UTF-8',
        'x-amz-sns-message-type': 'Notification',
        'x-amz-sns-message-id': messageId,
        'x-amz-sns-topic-arn': subscription.topicArn,
        'x-amz-sns-subscription-arn': subscription.arn,
        ...(raw ? { 'x-amz-sns-rawdelivery': 'true' } : {}),
      };
      fetch(subscription.endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(15_000) }).catch((error: Error) =>
        cloud.log(`SNS delivery to ${subscription.endpoint} failed: ${error.message}`),
      );
      return;
    }
    default:
      cloud.log(`SNS ${subscription.protocol} subscriptions are not emulated: ${subscription.endpoint} gets nothing`);
  }
}

/** Publishes to a topic: each subscription whose filter policy passes gets the message. */
export function publish(cloud: LocalServices, topicArn: string, publication: Publication): string {
  topic(cloud, topicArn);
  const messageId = randomUUID();
  for (const subscription of subscriptions(cloud, topicArn)) {
    if (!passesFilter(subscription, publication)) continue;
    try {
      deliver(cloud, subscription, messageId, publication);
    } catch (error) {
      cloud.log(`SNS delivery to ${subscription.endpoint} failed: ${(error as Error).message}`);
    }
  }
  return messageId;
}

/** `Prefix.entry.N.Name` / `.Value.DataType` / `.Value.StringValue` (or `BinaryValue`) of a query request. */
function messageAttributes(params: QueryParams, prefix: string): Record<string, MessageAttribute> {
  const attributes: Record<string, MessageAttribute> = {};
  for (let i = 1; params.string(`${prefix}.entry.${i}.Name`) !== undefined; i++) {
    attributes[params.string(`${prefix}.entry.${i}.Name`)!] = {
      Type: params.string(`${prefix}.entry.${i}.Value.DataType`) ?? 'String',
      Value: params.string(`${prefix}.entry.${i}.Value.StringValue`) ?? params.string(`${prefix}.entry.${i}.Value.BinaryValue`) ?? '',
    };
  }
  return attributes;
}

/** PublishBatch: up to 10 entries, each published as Publish does it; an entry's own mistake fails only that entry. */
function publishBatch(cloud: LocalServices, params: QueryParams): Record<string, unknown> {
  const topicArn = params.required('TopicArn');
  const entries = params.structs('PublishBatchRequestEntries');
  if (entries.length === 0) throw new AwsError('EmptyBatchRequest', "The batch request doesn't contain any entries.");
  if (entries.length > 10) throw new AwsError('TooManyEntriesInBatchRequest', 'The batch request contains more entries than permissible.');
  const ids = entries.map((entry) => entry.Id ?? '');
  if (new Set(ids).size !== ids.length) throw new AwsError('BatchEntryIdsNotDistinct', 'Two or more batch entries in the request have the same Id.');
  if (ids.some((id) => !/^[\w-]{1,80}$/.test(id))) throw new AwsError('InvalidBatchEntryId', "The Id of a batch entry in a batch request doesn't abide by the specification.");
  topic(cloud, topicArn);
  const successful: Record<string, string>[] = [];
  const failed: Record<string, unknown>[] = [];
  entries.forEach((entry, index) => {
    if (entry.Message === undefined || entry.Message === '') {
      failed.push({ Id: entry.Id, Code: 'InvalidParameter', Message: 'Invalid parameter: Empty message', SenderFault: true });
      return;
    }
    const attributes = messageAttributes(params, `PublishBatchRequestEntries.member.${index + 1}.MessageAttributes`);
    successful.push({ Id: entry.Id, MessageId: publish(cloud, topicArn, { message: entry.Message, subject: entry.Subject, attributes }) });
  });
  return { Successful: successful, Failed: failed };
}

function subscriptionMember(subscription: Subscription, cloud: LocalServices): Record<string, string> {
  return { SubscriptionArn: subscription.arn, Owner: cloud.accountId, Protocol: subscription.protocol, Endpoint: subscription.endpoint, TopicArn: subscription.topicArn };
}

function apiSubscription(cloud: LocalServices, subscriptionArn: string): ResourceRecord {
  return cloud.apiResources.get(SUBSCRIPTION, subscriptionArn, () => notFound('Subscription'));
}

/** SNS (query protocol): topics and subscriptions from stacks and from the API; Publish delivers to Lambda, SQS and HTTP(S) subscriptions; SMS settings in sms.ts. */
export function snsAction(cloud: LocalServices, params: QueryParams, region = 'us-east-1'): Record<string, unknown> {
  switch (params.action) {
    case 'CreateTopic': {
      const name = params.required('Name');
      const attributes = attributeMap(params, 'Attributes');
      const fifo = attributes.FifoTopic === 'true';
      if (!/^[A-Za-z0-9_-]{1,256}$/.test(fifo ? name.replace(/\.fifo$/, '') : name) || (fifo && !name.endsWith('.fifo'))) {
        throw invalid('Topic Name');
      }
      const topicArn = `arn:aws:sns:${region}:${cloud.accountId}:${name}`;
      // Idempotent, as in SNS: the same name answers the existing topic.
      if (!topics(cloud).some((record) => record.physicalId === topicArn)) {
        cloud.apiResources.add(region, TOPIC, topicArn, { TopicName: name, ...attributes }, { TopicArn: topicArn, TopicName: name }, topicArn);
        const tags = params.structs('Tags');
        if (tags.length > 0) cloud.tags.tag(topicArn, tagMap(tags));
      }
      return { TopicArn: topicArn };
    }
    case 'DeleteTopic': {
      const topicArn = params.required('TopicArn');
      if (topics(cloud).some((record) => record.physicalId === topicArn) && !cloud.apiResources.remove(TOPIC, topicArn)) {
        throw new AwsError('InvalidParameter', `Invalid parameter: TopicArn: topic ${topicArn} belongs to a stack: delete the stack to delete it`);
      }
      for (const subscription of cloud.apiResources.list(SUBSCRIPTION)) if (subscription.record.properties.TopicArn === topicArn) cloud.apiResources.remove(SUBSCRIPTION, subscription.record.physicalId);
      cloud.tags.forget(topicArn);
      return {};
    }
    case 'ListTopics':
      return { Topics: topics(cloud).map((record) => ({ TopicArn: record.physicalId })) };
    case 'GetTopicAttributes': {
      const record = topic(cloud, params.required('TopicArn'));
      const subscribed = subscriptions(cloud, record.physicalId).length;
      const settable = Object.fromEntries(Object.entries(record.properties).filter(([key, value]) => key !== 'TopicName' && key !== 'Subscription' && key !== 'Tags' && typeof value !== 'object'));
      return {
        Attributes: entries({
          TopicArn: record.physicalId,
          Owner: cloud.accountId,
          DisplayName: '',
          SubscriptionsConfirmed: String(subscribed),
          SubscriptionsPending: '0',
          SubscriptionsDeleted: '0',
          ...Object.fromEntries(Object.entries(settable).map(([key, value]) => [key, String(value)])),
        }),
      };
    }
    case 'SetTopicAttributes': {
      const topicArn = params.required('TopicArn');
      topic(cloud, topicArn);
      const record = cloud.apiResources.find(TOPIC, topicArn);
      if (!record) throw new AwsError('InvalidParameter', `Invalid parameter: TopicArn: topic ${topicArn} belongs to a stack: change its properties in the template`);
      record.properties[params.required('AttributeName')] = params.string('AttributeValue') ?? '';
      cloud.apiResources.changed(record);
      return {};
    }
    case 'Subscribe': {
      const topicArn = params.required('TopicArn');
      const protocol = params.required('Protocol');
      const endpoint = params.string('Endpoint') ?? '';
      topic(cloud, topicArn);
      if (!['lambda', 'sqs', 'http', 'https', 'email', 'email-json', 'sms', 'application', 'firehose'].includes(protocol)) throw invalid('Amazon SNS does not support this protocol string: ' + protocol);
      if (protocol === 'sqs' && !endpoint.startsWith('arn:aws:sqs:')) throw invalid('SQS endpoint ARN');
      if (protocol === 'lambda' && !endpoint.startsWith('arn:aws:lambda:')) throw invalid('Lambda endpoint ARN');
      if ((protocol === 'http' || protocol === 'https') && !endpoint.startsWith(`${protocol}://`)) throw invalid(`${protocol.toUpperCase()} endpoint should begin with ${protocol}://`);
      const attributes = attributeMap(params, 'Attributes');
      if (attributes.FilterPolicy !== undefined) {
        try {
          JSON.parse(attributes.FilterPolicy);
        } catch {
          throw invalid('FilterPolicy: failed to parse JSON.');
        }
      }
      const existing = subscriptions(cloud, topicArn).find((subscription) => subscription.protocol === protocol && subscription.endpoint === endpoint);
      if (existing) return { SubscriptionArn: existing.arn };
      const subscriptionArn = `${topicArn}:${randomUUID()}`;
      cloud.apiResources.add(region, SUBSCRIPTION, subscriptionArn, { TopicArn: topicArn, Protocol: protocol, Endpoint: endpoint, ...attributes }, { Arn: subscriptionArn });
      return { SubscriptionArn: subscriptionArn };
    }
    case 'Unsubscribe': {
      const subscriptionArn = params.required('SubscriptionArn');
      if (!cloud.apiResources.remove(SUBSCRIPTION, subscriptionArn) && !subscriptions(cloud).some((subscription) => subscription.arn === subscriptionArn)) throw notFound('Subscription');
      return {};
    }
    case 'GetSubscriptionAttributes': {
      const subscriptionArn = params.required('SubscriptionArn');
      const subscription = subscriptions(cloud).find((candidate) => candidate.arn === subscriptionArn);
      if (!subscription) throw notFound('Subscription');
      return {
        Attributes: entries({
          ...subscriptionMember(subscription, cloud),
          ConfirmationWasAuthenticated: 'true',
          PendingConfirmation: 'false',
          RawMessageDelivery: 'false',
          ...subscription.attributes,
        }),
      };
    }
    case 'SetSubscriptionAttributes': {
      const record = apiSubscription(cloud, params.required('SubscriptionArn'));
      const name = params.required('AttributeName');
      if (!SUBSCRIPTION_ATTRIBUTES.includes(name)) throw invalid(`AttributeName`);
      record.properties[name] = params.string('AttributeValue') ?? '';
      cloud.apiResources.changed(record);
      return {};
    }
    case 'ListSubscriptions':
      return { Subscriptions: subscriptions(cloud).map((subscription) => subscriptionMember(subscription, cloud)) };
    case 'ListSubscriptionsByTopic': {
      const topicArn = params.required('TopicArn');
      topic(cloud, topicArn);
      return { Subscriptions: subscriptions(cloud, topicArn).map((subscription) => subscriptionMember(subscription, cloud)) };
    }
    case 'Publish': {
      const phoneNumber = params.string('PhoneNumber');
      if (phoneNumber !== undefined && params.string('TopicArn') === undefined && params.string('TargetArn') === undefined) {
        // A text message, as SNS's SMS sandbox takes it: accepted with a message id, sent to no phone.
        if (!/^\+[1-9]\d{1,14}$/.test(phoneNumber)) throw new AwsError('InvalidParameter', `Invalid parameter: PhoneNumber Reason: ${phoneNumber} is not valid to publish to`);
        const message = params.required('Message');
        cloud.log(`SNS SMS to ${phoneNumber} not sent (the local cloud sends no text messages): ${message.slice(0, 80)}`);
        return { MessageId: randomUUID() };
      }
      const topicArn = params.string('TopicArn') ?? params.required('TargetArn');
      return { MessageId: publish(cloud, topicArn, { message: params.required('Message'), subject: params.string('Subject'), attributes: messageAttributes(params, 'MessageAttributes') }) };
    }
    case 'PublishBatch':
      return publishBatch(cloud, params);
    case 'SetSMSAttributes':
      setSmsAttributes(cloud, region, attributeMap(params, 'attributes'));
      return {};
    case 'GetSMSAttributes':
      return { attributes: entries(smsAttributes(cloud, region, params.list('attributes'))) };
    case 'CheckIfPhoneNumberIsOptedOut':
      return { isOptedOut: isOptedOut(cloud, region, params.string('phoneNumber')) };
    case 'ListPhoneNumbersOptedOut':
      return optedOutNumbers(cloud, region, params.string('nextToken'));
    case 'OptInPhoneNumber':
      optIn(cloud, region, params.string('phoneNumber'));
      return {};
    case 'TagResource':
      cloud.tags.tag(taggedTopic(cloud, params), tagMap(params.structs('Tags')));
      return {};
    case 'UntagResource':
      cloud.tags.untag(taggedTopic(cloud, params), params.list('TagKeys'));
      return {};
    case 'ListTagsForResource': {
      const topicArn = taggedTopic(cloud, params);
      const deployed = cloud.resources(TOPIC).find(({ record }) => record.physicalId === topicArn)!;
      return { Tags: tagList(cloud.tags.of(topicArn, declaredTags(deployed))) };
    }
    default:
      throw new AwsError('InvalidAction', `not emulated: SNS ${params.action}`);
  }
}
