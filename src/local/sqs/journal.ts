import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppendLog } from '../dynamodb/item-log';
import { writeFileAtomic } from '../state/files';
import { readJsonLines } from '../state/json-lines';
import { unlessDiskFull } from '../state/storage-failure';

/** An SQS queue as CreateQueue made it (stack queues live in their stacks). */
export interface JournalQueue {
  name: string;
  arn: string;
  url: string;
  attributes: Record<string, string>;
  created: number;
}

/** A message as SQS keeps it: what was sent, and where it is in its life (receives, visibility). */
export interface JournalMessage {
  MessageId: string;
  Body: string;
  MD5OfBody: string;
  MessageAttributes?: Record<string, { DataType: string; StringValue?: string; BinaryValue?: string }>;
  MD5OfMessageAttributes?: string;
  sentAt: number;
  group?: string;
  deduplicationId?: string;
  sequenceNumber?: string;
  receiveCount: number;
  firstReceivedAt?: number;
  visibleAt: number;
  receiptHandle?: string;
  /** The queue a dead-lettered message came from (its DeadLetterQueueSourceArn, where a redrive returns it). */
  deadLetterSourceArn?: string;
}

/** One change, as a journal line. Messages are named by queue ARN and MessageId. */
export type QueueChange =
  | { op: 'queue'; queue: JournalQueue }
  | { op: 'dropQueue'; name: string; arn: string }
  | { op: 'send'; arn: string; message: JournalMessage }
  | { op: 'receive'; arn: string; id: string; receiveCount: number; firstReceivedAt?: number; visibleAt: number; receiptHandle?: string }
  | { op: 'delete'; arn: string; id: string }
  | { op: 'purge'; arn: string };

export interface QueueState {
  queues: Map<string, JournalQueue>;
  messages: Map<string, JournalMessage[]>;
  /** FIFO messages sent in the last 5 minutes (deleted ones too), by queue ARN: what deduplication compares with. */
  recentlySent: Map<string, JournalMessage[]>;
}

const DEDUPLICATION_WINDOW_MS = 5 * 60_000;

/**
 * SQS's durable state: every change to API-made queues and to messages (any queue's) is appended
 * to `<dataDir>/sqs/journal.log` before it is answered, and replayed on start, so a restart keeps
 * what SQS acknowledged: queues, unread and in-flight messages, receive counts. The journal is
 * rewritten as a snapshot on start and when it grows to several times the messages it holds.
 */
export class QueueJournal {
  private readonly log: AppendLog;
  private lines = 0;

  constructor(
    dataDir: string,
    private readonly warn: (line: string) => void = () => {},
  ) {
    this.log = new AppendLog(join(dataDir, 'sqs', 'journal.log'));
  }

  private get file(): string {
    return this.log.file;
  }

  /** The state the journal holds; messages of queues that no longer exist (neither in the journal nor, `exists` says, in a stack) are dropped. */
  load(exists: (arn: string) => boolean): QueueState {
    const state: QueueState = { queues: new Map(), messages: new Map(), recentlySent: new Map() };
    if (!existsSync(this.file)) return state;
    const now = Date.now();
    for (const change of readJsonLines<QueueChange>(this.file)) {
      apply(state, change);
      if (change.op === 'send' && change.message.deduplicationId !== undefined && change.message.sentAt > now - DEDUPLICATION_WINDOW_MS) {
        const recent = state.recentlySent.get(change.arn) ?? [];
        recent.push(change.message);
        state.recentlySent.set(change.arn, recent);
      }
    }
    const made = new Set([...state.queues.values()].map((queue) => queue.arn));
    for (const arn of [...state.messages.keys()]) if (!made.has(arn) && !exists(arn)) state.messages.delete(arn);
    this.compact(state);
    return state;
  }

  /** Appends a change; throws (a StorageFailure on a full disk) before anything is acknowledged. */
  record(change: QueueChange): void {
    this.log.append(`${JSON.stringify(change)}\n`);
    this.lines += 1;
  }

  /** Rewrites the journal as the state it leads to, when it has grown to several times that (only saves space). */
  compactIfLarge(state: QueueState): void {
    const held = [...state.messages.values()].reduce((sum, list) => sum + list.length, 0) + state.queues.size;
    if (this.lines > 1000 && this.lines > 4 * held) this.compact(state);
  }

  private compact(state: QueueState): void {
    const changes: QueueChange[] = [
      ...[...state.queues.values()].map((queue) => ({ op: 'queue' as const, queue })),
      ...[...state.messages].flatMap(([arn, list]) => list.map((message) => ({ op: 'send' as const, arn, message }))),
    ];
    unlessDiskFull('SQS journal compaction', () => {
      writeFileAtomic(this.file, changes.map((change) => `${JSON.stringify(change)}\n`).join(''));
      this.log.reopen();
      this.lines = changes.length;
    }, this.warn);
  }

  close(): void {
    this.log.close();
  }
}

function apply(state: QueueState, change: QueueChange): void {
  const list = (arn: string) => {
    let found = state.messages.get(arn);
    if (!found) state.messages.set(arn, (found = []));
    return found;
  };
  switch (change.op) {
    case 'queue':
      state.queues.set(change.queue.name, change.queue);
      return;
    case 'dropQueue':
      state.queues.delete(change.name);
      state.messages.delete(change.arn);
      return;
    case 'send':
      list(change.arn).push(change.message);
      return;
    case 'receive': {
      const message = list(change.arn).find((candidate) => candidate.MessageId === change.id);
      if (message) Object.assign(message, { receiveCount: change.receiveCount, firstReceivedAt: change.firstReceivedAt, visibleAt: change.visibleAt, receiptHandle: change.receiptHandle });
      return;
    }
    case 'delete': {
      const messages = list(change.arn);
      const index = messages.findIndex((candidate) => candidate.MessageId === change.id);
      if (index >= 0) messages.splice(index, 1);
      return;
    }
    case 'purge':
      state.messages.set(change.arn, []);
      return;
  }
}
