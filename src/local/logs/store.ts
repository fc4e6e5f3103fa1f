import { join } from 'node:path';
import { readJson, writeJsonAtomic } from '../state/files';
import { StorageFailure } from '../state/storage-failure';

export interface LogEvent {
  timestamp: number;
  message: string;
  ingestionTime: number;
  /** Given once when the event is stored, so its eventId stays the same on every page and every read (as CloudWatch Logs' ids do). */
  sequence: number;
}

interface LogGroup {
  created: number;
  streams: Record<string, LogEvent[]>;
  retentionInDays?: number;
}

const EVENTS_KEPT_PER_STREAM = 10_000;
const MIN_FLUSH_DELAY_MS = 200;
const MAX_FLUSH_DELAY_MS = 5_000;

/**
 * CloudWatch Logs for the local cloud: what functions print, kept per group and
 * stream. Writes are batched because a busy function logs many lines a second.
 */
export class LogStore {
  private readonly file: string;
  private readonly groups: Record<string, LogGroup>;
  private flushTimer?: NodeJS.Timeout;
  private nextSequence = 0;

  constructor(
    dataDir: string,
    private readonly warn: (line: string) => void = () => {},
  ) {
    this.file = join(dataDir, 'state', 'logs.json');
    this.groups = readJson<Record<string, LogGroup>>(this.file, {});
    const stored = Object.values(this.groups).flatMap((group) => Object.values(group.streams).flat());
    this.nextSequence = stored.reduce((highest, event) => Math.max(highest, event.sequence ?? -1), -1) + 1;
    // Events stored by an older fw get their sequence now.
    for (const event of stored) event.sequence ??= this.nextSequence++;
  }

  /** The eventId FilterLogEvents gives the event: its time and the sequence it was stored with. */
  static eventId(event: LogEvent): string {
    return `${event.timestamp}${String(event.sequence).padStart(20, '0')}`;
  }

  createGroup(name: string): void {
    if (!this.groups[name]) this.groups[name] = { created: Date.now(), streams: {} };
    this.scheduleFlush();
  }

  deleteGroup(name: string): void {
    delete this.groups[name];
    this.scheduleFlush();
  }

  /** A stream made by CreateLogStream (functions' streams appear with their first line). */
  createStream(group: string, stream: string): boolean {
    const found = this.groups[group];
    if (!found || found.streams[stream]) return false;
    found.streams[stream] = [];
    this.scheduleFlush();
    return true;
  }

  hasStream(group: string, stream: string): boolean {
    return Object.hasOwn(this.groups[group]?.streams ?? {}, stream);
  }

  /** Events with their own timestamps (PutLogEvents), kept in time order. */
  put(group: string, stream: string, events: { timestamp: number; message: string }[]): void {
    const list = this.groups[group].streams[stream];
    const now = Date.now();
    for (const event of events) list.push({ timestamp: event.timestamp, message: event.message, ingestionTime: now, sequence: this.nextSequence++ });
    list.sort((a, b) => a.timestamp - b.timestamp);
    if (list.length > EVENTS_KEPT_PER_STREAM) list.splice(0, list.length - EVENTS_KEPT_PER_STREAM);
    this.scheduleFlush();
  }

  setRetention(group: string, days: number | undefined): void {
    this.groups[group].retentionInDays = days;
    this.scheduleFlush();
  }

  group(name: string): { created: number; retentionInDays?: number } | undefined {
    const found = this.groups[name];
    return found && { created: found.created, retentionInDays: found.retentionInDays };
  }

  hasGroup(name: string): boolean {
    return Object.hasOwn(this.groups, name);
  }

  groupNames(): string[] {
    return Object.keys(this.groups).sort();
  }

  append(group: string, stream: string, messages: string[]): void {
    this.createGroup(group);
    const events = (this.groups[group].streams[stream] ??= []);
    const now = Date.now();
    for (const message of messages) events.push({ timestamp: now, message, ingestionTime: now, sequence: this.nextSequence++ });
    if (events.length > EVENTS_KEPT_PER_STREAM) events.splice(0, events.length - EVENTS_KEPT_PER_STREAM);
    this.scheduleFlush();
  }

  /** Events of a group, oldest first, with the stream each came from. */
  events(group: string, streams?: string[]): (LogEvent & { logStreamName: string })[] {
    const found = this.groups[group];
    if (!found) return [];
    const all: (LogEvent & { logStreamName: string })[] = [];
    for (const [name, events] of Object.entries(found.streams)) {
      if (streams && !streams.includes(name)) continue;
      for (const event of events) all.push({ ...event, logStreamName: name });
    }
    return all.sort((a, b) => a.timestamp - b.timestamp);
  }

  streams(group: string): { name: string; lastEvent: number; created: number }[] {
    const found = this.groups[group];
    if (!found) return [];
    return Object.entries(found.streams).map(([name, events]) => ({
      name,
      created: events[0]?.timestamp ?? found.created,
      lastEvent: events[events.length - 1]?.timestamp ?? found.created,
    }));
  }

  /** The whole store is rewritten at each flush: under load, flushes are spaced so they take at most a twentieth of the time. */
  private flushDelayMs = MIN_FLUSH_DELAY_MS;

  private scheduleFlush(delay = this.flushDelayMs): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => this.flushLater(), delay);
    this.flushTimer.unref();
  }

  /** A batched flush: on a full disk the lines stay in memory and are written once there is room (one log line per failure). */
  private flushLater(): void {
    try {
      this.flush();
    } catch (error) {
      if (!(error instanceof StorageFailure)) throw error;
      this.warn(`function logs not saved yet: ${error.reason} (${error.file}); retrying in 5 s`);
      this.scheduleFlush(5_000);
    }
  }

  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const started = Date.now();
    writeJsonAtomic(this.file, this.groups);
    this.flushDelayMs = Math.min(MAX_FLUSH_DELAY_MS, Math.max(MIN_FLUSH_DELAY_MS, (Date.now() - started) * 20));
  }
}
