import { createHash, randomUUID } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import { declaredTags, tagMap, type TagMap } from '../state/resource-tags';
import type { LocalServices } from '../service-interfaces';
import { localizeEndpoints } from '../gateway/endpoints';
import { jsonResponse, type LocalResponse } from '../http';
import { QueueJournal, type JournalMessage, type JournalQueue, type QueueChange, type QueueState } from './journal';
import { StorageFailure } from '../state/storage-failure';
import { MessageMoveTasks, type MovableQueues } from './move-tasks';
import { policyWithoutPermission, policyWithPermission } from './queue-permissions';

interface MessageAttribute {
  DataType: string;
  StringValue?: string;
  BinaryValue?: string;
}

type QueuedMessage = JournalMessage;
type Queue = JournalQueue;

const JSON_10 = 'application/x-amz-json-1.0';

const DEFAULT_ATTRIBUTES: Record<string, string> = {
  VisibilityTimeout: '30',
  MessageRetentionPeriod: '345600',
  DelaySeconds: '0',
  MaximumMessageSize: '262144',
  ReceiveMessageWaitTimeSeconds: '0',
};

/** JSON protocol shape names whose query-protocol codes differ. */
const JSON_SHAPES: Record<string, string> = {
  'AWS.SimpleQueueService.NonExistentQueue': 'QueueDoesNotExist',
  'AWS.SimpleQueueService.MessageNotInflight': 'MessageNotInflight',
  'AWS.SimpleQueueService.UnsupportedOperation': 'UnsupportedOperation',
  'AWS.SimpleQueueService.TooManyEntriesInBatchRequest': 'TooManyEntriesInBatchRequest',
  'AWS.SimpleQueueService.EmptyBatchRequest': 'EmptyBatchRequest',
  'AWS.SimpleQueueService.BatchEntryIdsNotDistinct': 'BatchEntryIdsNotDistinct',
  'AWS.SimpleQueueService.InvalidBatchEntryId': 'InvalidBatchEntryId',
};

/** A batch request's entries, refused whole as SQS refuses them: none, more than 10, an id repeated or malformed. */
function batchEntries(input: Record<string, unknown>, entryShape: string): Record<string, unknown>[] {
  const entries = Array.isArray(input.Entries) ? (input.Entries as Record<string, unknown>[]) : [];
  if (entries.length === 0) throw new AwsError('AWS.SimpleQueueService.EmptyBatchRequest', `There should be at least one ${entryShape} in the request.`);
  if (entries.length > 10) throw new AwsError('AWS.SimpleQueueService.TooManyEntriesInBatchRequest', `Maximum number of entries per request are 10. You have sent ${entries.length}.`);
  const seen = new Set<unknown>();
  for (const entry of entries) {
    if (typeof entry.Id !== 'string' || !/^[A-Za-z0-9_-]{1,80}$/.test(entry.Id)) {
      throw new AwsError('AWS.SimpleQueueService.InvalidBatchEntryId', 'A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.');
    }
    if (seen.has(entry.Id)) throw new AwsError('AWS.SimpleQueueService.BatchEntryIdsNotDistinct', `Id ${entry.Id} repeated.`);
    seen.add(entry.Id);
  }
  return entries;
}

/**
 * Runs each entry of a batch on its own, as SQS does: an entry that fails (a bad receipt handle, a
 * missing body) is listed in `Failed` with its code, the others succeed. A full disk fails the request.
 */
function eachEntry(entries: Record<string, unknown>[], run: (entry: Record<string, unknown>) => Record<string, unknown>): { Successful: Record<string, unknown>[]; Failed: Record<string, unknown>[] } {
  const Successful: Record<string, unknown>[] = [];
  const Failed: Record<string, unknown>[] = [];
  for (const entry of entries) {
    try {
      Successful.push({ Id: entry.Id, ...run(entry) });
    } catch (error) {
      if (!(error instanceof AwsError) || error instanceof StorageFailure) throw error;
      Failed.push({ Id: entry.Id, SenderFault: error.status < 500, Code: JSON_SHAPES[error.code] ?? error.code, Message: error.message });
    }
  }
  return { Successful, Failed };
}

const nonExistent = () => new AwsError('AWS.SimpleQueueService.NonExistentQueue', 'The specified queue does not exist.');

/**
 * The MD5 SQS returns for message attributes (the SDK checks it): over the attributes sorted by
 * name, each as length-prefixed name, data type, a transport byte (1 string, 2 binary) and value.
 */
export function md5OfAttributes(attributes: Record<string, MessageAttribute>): string {
  const hash = createHash('md5');
  const lengthPrefixed = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length).update(bytes);
  };
  for (const name of Object.keys(attributes).sort()) {
    const attribute = attributes[name];
    lengthPrefixed(Buffer.from(name));
    lengthPrefixed(Buffer.from(attribute.DataType));
    const binary = attribute.BinaryValue !== undefined;
    hash.update(Buffer.from([binary ? 2 : 1]));
    lengthPrefixed(binary ? Buffer.from(attribute.BinaryValue!, 'base64') : Buffer.from(attribute.StringValue ?? ''));
  }
  return hash.digest('hex');
}

/**
 * SQS (JSON 1.0): queues from stacks and CreateQueue, messages with delays,
 * visibility timeouts, receive counts and redrive to a dead-letter queue. A queue that an
 * event source mapping reads delivers its messages to that function: a failed batch (or the
 * items a ReportBatchItemFailures response names) comes back after the visibility timeout.
 */
export class SqsApi {
  /** Queues made by CreateQueue, messages by queue ARN, recent FIFO sends: replayed from the journal, which every change goes to first. */
  private readonly state: QueueState;
  private readonly created: Map<string, Queue>;
  private readonly messages: Map<string, QueuedMessage[]>;
  private readonly journal: QueueJournal;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly delivering = new Set<string>();
  /** Queues whose delivery was asked for while one was running: it runs again when that one ends. */
  private readonly deliverAgain = new Set<string>();
  /** FIFO messages of the last 5 minutes, by queue ARN, for deduplication. */
  private readonly sent: Map<string, QueuedMessage[]>;
  private sequence = 0;
  private stopped = false;
  private readonly moveTasks = new MessageMoveTasks(this.movableQueues());

  constructor(private readonly cloud: LocalServices) {
    this.journal = new QueueJournal(cloud.dataDir, (line) => cloud.log(line));
    this.state = this.journal.load((arn) => this.stackQueues().some((queue) => queue.arn === arn));
    this.created = this.state.queues;
    this.messages = this.state.messages;
    this.sent = this.state.recentlySent;
    for (const list of this.messages.values()) {
      for (const message of list) if (message.sequenceNumber) this.sequence = Math.max(this.sequence, Number(BigInt(message.sequenceNumber) - 10n ** 19n));
    }
    // Messages kept from before a restart are delivered to the functions that read their queues.
    for (const queue of this.queues()) if (this.messages.get(queue.arn)?.length) this.scheduleDelivery(queue, Date.now());
    // A mapping made after messages were sent (CreateEventSourceMapping, a new stack) reads them at once.
    cloud.onStackChange(() => {
      for (const queue of this.queues()) if (this.messages.get(queue.arn)?.length) this.scheduleDelivery(queue, Date.now());
    });
  }

  /** No delivery starts after the server stops. */
  stop(): void {
    this.stopped = true;
    this.moveTasks.stop();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.journal.close();
  }

  /**
   * A receive is journaled so a restart keeps receive counts and in-flight messages invisible; on a
   * full disk it is served all the same (a restart would then deliver the message again, sooner:
   * SQS delivers at least once), so a full disk stops new messages, never the reading of old ones.
   */
  private recordReceive(change: QueueChange): void {
    try {
      this.record(change);
    } catch (error) {
      if (!(error instanceof StorageFailure)) throw error;
    }
  }

  /** Writes a change to the journal; only then is it made in memory and answered. */
  private record(change: QueueChange): void {
    this.journal.record(change);
    this.journal.compactIfLarge(this.state);
  }

  /** A message from inside the local cloud (an on-failure destination, an SNS subscription). */
  sendTo(queueArn: string, body: string, attributes?: Record<string, MessageAttribute>): void {
    this.send(this.queue(queueArn), { MessageBody: body, ...(attributes && Object.keys(attributes).length ? { MessageAttributes: attributes } : {}) });
  }

  private stackQueues(): Queue[] {
    return this.cloud.resources('AWS::SQS::Queue').map(({ record }) => {
      const attributes: Record<string, string> = { ...DEFAULT_ATTRIBUTES };
      for (const [name, value] of Object.entries(record.properties)) {
        if (name === 'RedrivePolicy' || name === 'RedriveAllowPolicy') attributes[name] = typeof value === 'string' ? value : JSON.stringify(value);
        else if (name !== 'QueueName' && name !== 'Tags' && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) attributes[name] = String(value);
      }
      return { name: String(record.attributes.QueueName), arn: String(record.attributes.Arn), url: record.physicalId, attributes, created: Date.parse(record.timestamp) };
    });
  }

  /** A queue's tags: its stack's or CreateQueue's, under TagQueue's and UntagQueue's. */
  private tagsOf(queue: Queue): TagMap {
    const deployed = this.cloud.resources('AWS::SQS::Queue').find(({ record }) => record.attributes.Arn === queue.arn);
    return this.cloud.tags.of(queue.arn, deployed ? declaredTags(deployed) : {});
  }

  private queues(): Queue[] {
    return [...this.stackQueues(), ...this.created.values()];
  }

  /** A queue by URL (AWS's form or this server's: only `/<account>/<name>` counts), name or ARN. */
  private queue(reference: unknown): Queue {
    const path = typeof reference === 'string' ? /^https?:\/\/[^/]+(\/\d{12}\/[^/]+)$/.exec(reference)?.[1] : undefined;
    const found = this.queues().find((queue) => queue.url === reference || queue.name === reference || queue.arn === reference || (path !== undefined && queue.url.endsWith(path)));
    if (!found) throw nonExistent();
    return found;
  }

  private localUrl(queue: Queue): string {
    return localizeEndpoints(queue.url, this.cloud.baseUrl);
  }

  private waiting(queue: Queue): QueuedMessage[] {
    let list = this.messages.get(queue.arn);
    if (!list) this.messages.set(queue.arn, (list = []));
    return list;
  }

  /**
   * Errors as SQS's JSON protocol sends them: the JSON shape name in `__type` (what the SDK's typed
   * exceptions match, e.g. QueueDoesNotExist) and the query-protocol code in `x-amzn-query-error`
   * (what the AWS CLI prints, e.g. AWS.SimpleQueueService.NonExistentQueue).
   */
  async handle(operation: string, input: Record<string, unknown>): Promise<LocalResponse> {
    try {
      return jsonResponse(await this.operation(operation, input), 200, JSON_10);
    } catch (error) {
      // A full disk is the server's failure, answered and logged as such by the dispatcher.
      if (!(error instanceof AwsError) || error instanceof StorageFailure) throw error;
      const shape = JSON_SHAPES[error.code] ?? error.code;
      const response = jsonResponse({ __type: `com.amazonaws.sqs#${shape}`, message: error.message }, error.status, JSON_10);
      Object.assign(response.headers!, { 'x-amzn-query-error': `${error.code};Sender`, 'x-amzn-errortype': shape });
      return response;
    }
  }

  private async operation(operation: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
    switch (operation) {
      case 'CreateQueue':
        return { QueueUrl: this.localUrl(this.createQueue(input)) };
      case 'DeleteQueue': {
        const queue = this.queue(input.QueueUrl);
        if (!this.created.has(queue.name)) throw new AwsError('InvalidParameterValue', `Queue ${queue.name} belongs to a stack: delete the stack to delete it`);
        this.record({ op: 'dropQueue', name: queue.name, arn: queue.arn });
        this.created.delete(queue.name);
        this.cloud.tags.forget(queue.arn);
        this.messages.delete(queue.arn);
        return {};
      }
      case 'GetQueueUrl':
        return { QueueUrl: this.localUrl(this.queue(input.QueueName)) };
      case 'ListQueues': {
        const prefix = typeof input.QueueNamePrefix === 'string' ? input.QueueNamePrefix : '';
        return { QueueUrls: this.queues().filter((queue) => queue.name.startsWith(prefix)).map((queue) => this.localUrl(queue)) };
      }
      case 'GetQueueAttributes':
        return { Attributes: this.attributes(this.queue(input.QueueUrl), (input.AttributeNames as string[] | undefined) ?? ['All']) };
      case 'SetQueueAttributes':
        this.changeAttributes(this.queue(input.QueueUrl), input.Attributes as Record<string, string>);
        return {};
      case 'AddPermission': {
        const queue = this.queue(input.QueueUrl);
        this.changeAttributes(queue, { Policy: policyWithPermission(queue.attributes.Policy, queue.arn, input) });
        return {};
      }
      case 'RemovePermission': {
        const queue = this.queue(input.QueueUrl);
        this.changeAttributes(queue, { Policy: policyWithoutPermission(queue.attributes.Policy, input.Label) });
        return {};
      }
      case 'ListDeadLetterSourceQueues':
        return this.deadLetterSources(this.queue(input.QueueUrl), input);
      case 'PurgeQueue': {
        const queue = this.queue(input.QueueUrl);
        this.record({ op: 'purge', arn: queue.arn });
        this.waiting(queue).length = 0;
        return {};
      }
      case 'SendMessage':
        return this.send(this.queue(input.QueueUrl), input);
      case 'SendMessageBatch': {
        const queue = this.queue(input.QueueUrl);
        return eachEntry(batchEntries(input, 'SendMessageBatchRequestEntry'), (entry) => this.send(queue, entry));
      }
      case 'ReceiveMessage':
        return this.receiveMessages(this.queue(input.QueueUrl), input);
      case 'DeleteMessage':
        this.deleteMessage(this.queue(input.QueueUrl), input.ReceiptHandle);
        return {};
      case 'DeleteMessageBatch': {
        const queue = this.queue(input.QueueUrl);
        return eachEntry(batchEntries(input, 'DeleteMessageBatchRequestEntry'), (entry) => {
          this.deleteMessage(queue, entry.ReceiptHandle);
          return {};
        });
      }
      case 'ChangeMessageVisibility':
        this.changeVisibility(this.queue(input.QueueUrl), input);
        return {};
      case 'ChangeMessageVisibilityBatch': {
        const queue = this.queue(input.QueueUrl);
        return eachEntry(batchEntries(input, 'ChangeMessageVisibilityBatchRequestEntry'), (entry) => {
          this.changeVisibility(queue, entry);
          return {};
        });
      }
      case 'StartMessageMoveTask':
        return this.moveTasks.start(input);
      case 'ListMessageMoveTasks':
        return this.moveTasks.list(input);
      case 'CancelMessageMoveTask':
        return this.moveTasks.cancel(input);
      case 'TagQueue':
        this.cloud.tags.tag(this.queue(input.QueueUrl).arn, tagMap(input.Tags));
        return {};
      case 'UntagQueue':
        this.cloud.tags.untag(this.queue(input.QueueUrl).arn, Array.isArray(input.TagKeys) ? input.TagKeys.map(String) : []);
        return {};
      case 'ListQueueTags': {
        const tags = this.tagsOf(this.queue(input.QueueUrl));
        // SQS leaves Tags out when a queue has none.
        return Object.keys(tags).length > 0 ? { Tags: tags } : {};
      }
      default:
        throw new AwsError('AWS.SimpleQueueService.UnsupportedOperation', `not emulated: SQS ${operation}`);
    }
  }

  /** SetQueueAttributes and the permission calls: a stack's queue changes with its template. An empty value removes the attribute, as in SQS. */
  private changeAttributes(queue: Queue, changes: Record<string, string>): void {
    if (!this.created.has(queue.name)) throw new AwsError('InvalidParameterValue', `Queue ${queue.name} belongs to a stack: change its properties in the template`);
    const attributes = { ...queue.attributes, ...changes };
    if (changes.Policy === '') delete attributes.Policy;
    this.record({ op: 'queue', queue: { ...queue, attributes } });
    queue.attributes = attributes;
  }

  /** ListDeadLetterSourceQueues: the queues whose RedrivePolicy names this one, paged by MaxResults. */
  private deadLetterSources(target: Queue, input: Record<string, unknown>): Record<string, unknown> {
    const sources = this.queues().filter((queue) => {
      if (!queue.attributes.RedrivePolicy) return false;
      return (JSON.parse(queue.attributes.RedrivePolicy) as { deadLetterTargetArn?: string }).deadLetterTargetArn === target.arn;
    });
    const urls = sources.map((queue) => this.localUrl(queue));
    if (input.MaxResults === undefined) return { queueUrls: urls };
    const max = Number(input.MaxResults);
    if (!Number.isInteger(max) || max < 1 || max > 1000) throw new AwsError('InvalidParameterValue', `Value ${String(input.MaxResults)} for parameter MaxResults is invalid. Reason: must be between 1 and 1000.`);
    const start = typeof input.NextToken === 'string' ? Number(Buffer.from(input.NextToken, 'base64').toString()) || 0 : 0;
    const page = urls.slice(start, start + max);
    return { queueUrls: page, ...(start + max < urls.length ? { NextToken: Buffer.from(String(start + max)).toString('base64') } : {}) };
  }

  private changeVisibility(queue: Queue, input: Record<string, unknown>): void {
    const message = this.inFlight(queue, input.ReceiptHandle);
    const visibleAt = Date.now() + Number(input.VisibilityTimeout) * 1000;
    this.record({ op: 'receive', arn: queue.arn, id: message.MessageId, receiveCount: message.receiveCount, firstReceivedAt: message.firstReceivedAt, visibleAt, receiptHandle: message.receiptHandle });
    message.visibleAt = visibleAt;
    this.scheduleDelivery(queue, message.visibleAt);
  }

  private createQueue(input: Record<string, unknown>): Queue {
    const name = input.QueueName;
    if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,80}(\.fifo)?$/.test(name)) {
      throw new AwsError('InvalidParameterValue', 'Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length');
    }
    const attributes = { ...DEFAULT_ATTRIBUTES, ...(input.Attributes as Record<string, string> | undefined) };
    const existing = this.queues().find((queue) => queue.name === name);
    if (existing) {
      const differs = Object.entries(attributes).some(([key, value]) => existing.attributes[key] !== undefined && existing.attributes[key] !== String(value));
      if (differs) throw new AwsError('QueueAlreadyExists', `A queue already exists with the same name and a different value for attribute(s) ${Object.keys(input.Attributes ?? {}).join(', ')}`);
      return existing;
    }
    const queue: Queue = {
      name,
      arn: `arn:aws:sqs:us-east-1:${this.cloud.accountId}:${name}`,
      url: `https://sqs.us-east-1.amazonaws.com/${this.cloud.accountId}/${name}`,
      attributes,
      created: Date.now(),
    };
    this.record({ op: 'queue', queue });
    this.created.set(name, queue);
    if (input.tags) this.cloud.tags.tag(queue.arn, tagMap(input.tags));
    return queue;
  }

  private attributes(queue: Queue, names: string[]): Record<string, string> {
    const now = Date.now();
    const messages = this.waiting(queue);
    const all: Record<string, string> = {
      ...queue.attributes,
      QueueArn: queue.arn,
      ApproximateNumberOfMessages: String(messages.filter((message) => message.visibleAt <= now).length),
      ApproximateNumberOfMessagesNotVisible: String(messages.filter((message) => message.visibleAt > now && message.receiveCount > 0).length),
      ApproximateNumberOfMessagesDelayed: String(messages.filter((message) => message.visibleAt > now && message.receiveCount === 0).length),
      CreatedTimestamp: String(Math.floor(queue.created / 1000)),
      LastModifiedTimestamp: String(Math.floor(queue.created / 1000)),
    };
    if (names.includes('All')) return all;
    return Object.fromEntries(names.filter((name) => all[name] !== undefined).map((name) => [name, all[name]]));
  }

  private send(queue: Queue, input: Record<string, unknown>): Record<string, string> {
    const body = input.MessageBody;
    if (typeof body !== 'string' || body === '') throw new AwsError('MissingParameter', 'The request must contain the parameter MessageBody.');
    const attributes = input.MessageAttributes as Record<string, MessageAttribute> | undefined;
    const delay = Number(input.DelaySeconds ?? queue.attributes.DelaySeconds ?? 0);
    const fifo = this.fifo(queue, input, body);
    if (fifo?.duplicate) return { MessageId: fifo.duplicate.MessageId, MD5OfMessageBody: fifo.duplicate.MD5OfBody, SequenceNumber: fifo.duplicate.sequenceNumber! };
    const message: QueuedMessage = {
      ...(fifo ? { group: fifo.group, deduplicationId: fifo.deduplicationId, sequenceNumber: (10n ** 19n + BigInt(++this.sequence)).toString() } : {}),
      MessageId: randomUUID(),
      Body: body,
      MD5OfBody: createHash('md5').update(body).digest('hex'),
      ...(attributes && Object.keys(attributes).length ? { MessageAttributes: attributes, MD5OfMessageAttributes: md5OfAttributes(attributes) } : {}),
      sentAt: Date.now(),
      receiveCount: 0,
      visibleAt: Date.now() + delay * 1000,
    };
    this.record({ op: 'send', arn: queue.arn, message });
    this.waiting(queue).push(message);
    if (message.deduplicationId) this.sent.get(queue.arn)!.push(message);
    this.scheduleDelivery(queue, message.visibleAt);
    return {
      MessageId: message.MessageId,
      MD5OfMessageBody: message.MD5OfBody,
      ...(message.MD5OfMessageAttributes ? { MD5OfMessageAttributes: message.MD5OfMessageAttributes } : {}),
      ...(message.sequenceNumber ? { SequenceNumber: message.sequenceNumber } : {}),
    };
  }

  /**
   * A FIFO queue's rules for a new message: a MessageGroupId, and a deduplication id (given, or the
   * body's SHA-256 with ContentBasedDeduplication) that makes a resend within 5 minutes a no-op.
   */
  private fifo(queue: Queue, input: Record<string, unknown>, body: string): { group: string; deduplicationId: string; duplicate?: QueuedMessage } | undefined {
    if (queue.attributes.FifoQueue !== 'true') return undefined;
    if (typeof input.MessageGroupId !== 'string' || input.MessageGroupId === '') throw new AwsError('MissingParameter', 'The request must contain the parameter MessageGroupId.');
    const deduplicationId =
      typeof input.MessageDeduplicationId === 'string'
        ? input.MessageDeduplicationId
        : queue.attributes.ContentBasedDeduplication === 'true'
          ? createHash('sha256').update(body).digest('hex')
          : undefined;
    if (deduplicationId === undefined) {
      throw new AwsError('InvalidParameterValue', 'The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly');
    }
    const recent = (this.sent.get(queue.arn) ?? []).filter((message) => message.sentAt > Date.now() - 5 * 60_000);
    this.sent.set(queue.arn, recent);
    return { group: input.MessageGroupId, deduplicationId, duplicate: recent.find((message) => message.deduplicationId === deduplicationId) };
  }

  private redrive(queue: Queue): { target: Queue; maxReceiveCount: number } | undefined {
    if (!queue.attributes.RedrivePolicy) return undefined;
    const policy = JSON.parse(queue.attributes.RedrivePolicy) as { deadLetterTargetArn?: string; maxReceiveCount?: number | string };
    const target = this.queues().find((candidate) => candidate.arn === policy.deadLetterTargetArn);
    return target ? { target, maxReceiveCount: Number(policy.maxReceiveCount) } : undefined;
  }

  /** Moves a message to another queue as `moved`: sent there before it leaves this one, so a crash in between repeats it, never loses it. */
  private moveMessage(from: Queue, message: QueuedMessage, to: Queue, moved: QueuedMessage): void {
    this.record({ op: 'send', arn: to.arn, message: moved });
    this.record({ op: 'delete', arn: from.arn, id: message.MessageId });
    const messages = this.waiting(from);
    messages.splice(messages.indexOf(message), 1);
    this.waiting(to).push(moved);
    this.scheduleDelivery(to, moved.visibleAt);
  }

  /** What message move tasks (DLQ redrive) see of the queues. */
  private movableQueues(): MovableQueues<Queue> {
    return {
      find: (arn) => this.queues().find((queue) => queue.arn === arn),
      isDeadLetterQueue: (queue) => this.queues().some((candidate) => this.redrive(candidate)?.target.arn === queue.arn),
      messageIds: (queue) => this.waiting(queue).map((message) => message.MessageId),
      move: (from, id, to) => {
        const message = this.waiting(from).find((candidate) => candidate.MessageId === id);
        const target = to ?? this.queues().find((queue) => queue.arn === message?.deadLetterSourceArn);
        if (!message || !target) return false;
        // Redriven as new: received none yet, visible at once.
        const { deadLetterSourceArn: _source, firstReceivedAt: _first, ...rest } = message;
        this.moveMessage(from, message, target, { ...rest, receiveCount: 0, visibleAt: Date.now(), receiptHandle: undefined });
        return true;
      },
    };
  }

  /** Takes up to `count` visible messages, moving those received too often to the dead-letter queue first. */
  private take(queue: Queue, count: number, visibilitySeconds: number): QueuedMessage[] {
    const now = Date.now();
    const messages = this.waiting(queue);
    const redrive = this.redrive(queue);
    const taken: QueuedMessage[] = [];
    // FIFO: while a message of a group is in flight, the later messages of that group wait.
    const busyGroups = new Set(messages.filter((message) => message.group !== undefined && message.receiveCount > 0 && message.visibleAt > now).map((message) => message.group));
    for (const message of [...messages]) {
      if (taken.length >= count) break;
      if (message.visibleAt > now || busyGroups.has(message.group)) continue;
      if (redrive && message.receiveCount >= redrive.maxReceiveCount) {
        this.moveMessage(queue, message, redrive.target, { ...message, visibleAt: now, receiptHandle: undefined, deadLetterSourceArn: queue.arn });
        continue;
      }
      const received = { receiveCount: message.receiveCount + 1, firstReceivedAt: message.firstReceivedAt ?? now, visibleAt: now + visibilitySeconds * 1000, receiptHandle: `${randomUUID()}#${message.MessageId}` };
      this.recordReceive({ op: 'receive', arn: queue.arn, id: message.MessageId, ...received });
      Object.assign(message, received);
      taken.push(message);
    }
    return taken;
  }

  private async receiveMessages(queue: Queue, input: Record<string, unknown>): Promise<Record<string, unknown>> {
    const count = Math.min(Math.max(Number(input.MaxNumberOfMessages ?? 1), 1), 10);
    const visibility = Number(input.VisibilityTimeout ?? queue.attributes.VisibilityTimeout);
    const waitSeconds = Math.min(Number(input.WaitTimeSeconds ?? queue.attributes.ReceiveMessageWaitTimeSeconds ?? 0), 20);
    const deadline = Date.now() + waitSeconds * 1000;
    let taken = this.take(queue, count, visibility);
    while (taken.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      taken = this.take(queue, count, visibility);
    }
    const wantedAttributes = [...((input.AttributeNames as string[] | undefined) ?? []), ...((input.MessageSystemAttributeNames as string[] | undefined) ?? [])];
    const wantedMessageAttributes = (input.MessageAttributeNames as string[] | undefined) ?? [];
    const messages = taken.map((message) => {
      const system = this.systemAttributes(message);
      const attributes = wantedAttributes.includes('All') ? system : Object.fromEntries(Object.entries(system).filter(([name]) => wantedAttributes.includes(name)));
      const messageAttributes = Object.fromEntries(
        Object.entries(message.MessageAttributes ?? {}).filter(([name]) => wantedMessageAttributes.some((wanted) => wanted === 'All' || wanted === '.*' || wanted === name || (wanted.endsWith('.*') && name.startsWith(wanted.slice(0, -1))))),
      );
      return {
        MessageId: message.MessageId,
        ReceiptHandle: message.receiptHandle,
        Body: message.Body,
        MD5OfBody: message.MD5OfBody,
        ...(Object.keys(attributes).length ? { Attributes: attributes } : {}),
        ...(Object.keys(messageAttributes).length ? { MessageAttributes: messageAttributes, MD5OfMessageAttributes: md5OfAttributes(messageAttributes) } : {}),
      };
    });
    return messages.length ? { Messages: messages } : {};
  }

  private systemAttributes(message: QueuedMessage): Record<string, string> {
    return {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAt),
      SenderId: this.cloud.accountId,
      ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt ?? message.sentAt),
      ...(message.group !== undefined ? { MessageGroupId: message.group, MessageDeduplicationId: message.deduplicationId!, SequenceNumber: message.sequenceNumber! } : {}),
      ...(message.deadLetterSourceArn !== undefined ? { DeadLetterQueueSourceArn: message.deadLetterSourceArn } : {}),
    };
  }

  private inFlight(queue: Queue, handle: unknown): QueuedMessage {
    const message = this.waiting(queue).find((candidate) => candidate.receiptHandle === handle);
    if (!message) {
      if (typeof handle !== 'string' || !/^[0-9a-f-]{36}#/.test(handle)) throw new AwsError('ReceiptHandleIsInvalid', `The input receipt handle "${String(handle)}" is not a valid receipt handle.`);
      throw new AwsError('AWS.SimpleQueueService.MessageNotInflight', 'The message referred to is not in flight.');
    }
    return message;
  }

  private deleteMessage(queue: Queue, handle: unknown): void {
    if (typeof handle !== 'string' || !/^[0-9a-f-]{36}#/.test(handle)) throw new AwsError('ReceiptHandleIsInvalid', `The input receipt handle "${String(handle)}" is not a valid receipt handle.`);
    const messages = this.waiting(queue);
    const index = messages.findIndex((message) => message.receiptHandle === handle);
    // A handle of a message already deleted succeeds, as in SQS.
    if (index < 0) return;
    this.record({ op: 'delete', arn: queue.arn, id: messages[index].MessageId });
    messages.splice(index, 1);
  }

  /** The enabled event source mapping reading a queue, if any. */
  private mapping(queue: Queue) {
    return this.cloud
      .resources('AWS::Lambda::EventSourceMapping')
      .find(({ record }) => record.properties.EventSourceArn === queue.arn && record.properties.Enabled !== false && record.properties.Enabled !== 'false');
  }

  /** Delivers to the queue's function when a message becomes visible (timers do not keep the process alive). */
  private scheduleDelivery(queue: Queue, at: number): void {
    if (this.stopped || !this.mapping(queue)) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      // A delivery cut short (a full disk refusing the receive) is said in one line; the messages stay queued.
      this.deliver(queue).catch((error: Error) => this.cloud.log(`SQS delivery from ${queue.name} stopped: ${error.message}`));
    }, Math.max(0, at - Date.now()));
    timer.unref();
    this.timers.add(timer);
  }

  private async deliver(queue: Queue): Promise<void> {
    const mapping = this.mapping(queue);
    if (this.stopped || !mapping) return;
    if (this.delivering.has(queue.arn)) {
      this.deliverAgain.add(queue.arn);
      return;
    }
    this.delivering.add(queue.arn);
    try {
      const { stack, record } = mapping;
      const batchSize = Number(record.properties.BatchSize ?? 10);
      const visibility = Number(queue.attributes.VisibilityTimeout);
      for (let batch = this.take(queue, batchSize, visibility); batch.length; batch = this.take(queue, batchSize, visibility)) {
        const event = { Records: batch.map((message) => sqsLambdaRecord(message, this.systemAttributes(message), queue.arn, stack.region)) };
        let failed = new Set(batch.map((message) => message.MessageId));
        try {
          const outcome = await this.cloud.functions.invoke(String(record.properties.FunctionName), event);
          if (!outcome.functionError) {
            const reportsItems = ((record.properties.FunctionResponseTypes as string[] | undefined) ?? []).includes('ReportBatchItemFailures');
            const response = JSON.parse(outcome.payload) as { batchItemFailures?: { itemIdentifier: string }[] } | null;
            failed = new Set(reportsItems ? (response?.batchItemFailures ?? []).map((item) => item.itemIdentifier) : []);
          }
        } catch (error) {
          this.cloud.log(`SQS delivery to ${String(record.properties.FunctionName)} failed: ${(error as Error).message}`);
        }
        for (const message of batch) {
          if (!failed.has(message.MessageId)) this.deleteMessage(queue, message.receiptHandle);
          else this.scheduleDelivery(queue, message.visibleAt);
        }
      }
    } finally {
      this.delivering.delete(queue.arn);
      if (this.deliverAgain.delete(queue.arn)) this.scheduleDelivery(queue, Date.now());
      // Node's timers run on the event loop's clock, which may lag Date.now(): a timer can fire a
      // little before the message it was set for is visible. The next visible message always has one.
      const next = this.waiting(queue).reduce((earliest, message) => (message.visibleAt > Date.now() ? Math.min(earliest, message.visibleAt) : earliest), Infinity);
      if (next !== Infinity) this.scheduleDelivery(queue, next);
    }
  }

}

/** The SQS message shape of a Lambda event's `Records` (also what `fw generate-event -t aws:sqs` prints). */
export function sqsLambdaRecord(
  message: Pick<QueuedMessage, 'MessageId' | 'receiptHandle' | 'Body' | 'MD5OfBody' | 'MessageAttributes' | 'MD5OfMessageAttributes'>,
  attributes: Record<string, string>,
  queueArn: string,
  region: string,
): Record<string, unknown> {
  const messageAttributes = Object.fromEntries(
    Object.entries(message.MessageAttributes ?? {}).map(([name, attribute]) => [
      name,
      { stringValue: attribute.StringValue, binaryValue: attribute.BinaryValue, stringListValues: [], binaryListValues: [], dataType: attribute.DataType },
    ]),
  );
  return {
    messageId: message.MessageId,
    receiptHandle: message.receiptHandle,
    body: message.Body,
    attributes,
    messageAttributes,
    md5OfBody: message.MD5OfBody,
    ...(message.MD5OfMessageAttributes ? { md5OfMessageAttributes: message.MD5OfMessageAttributes } : {}),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}
