import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readJson, writeFileAtomic } from '../state/files';
import { appendJsonLines, readJsonLines } from '../state/json-lines';
import { guardWrite, StorageFailure } from '../state/storage-failure';

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

/** A line of the journal: an event appended to a stream (made if need be), or without a message, a stream made empty. */
type JournalLine = [sequence: number, group: string, stream: string, timestamp: number, message?: string];

/** The newest events kept of a stream, and of a group (all its streams: a burst of traffic makes an environment, so a stream, per concurrent request). */
export const EVENTS_KEPT_PER_STREAM = 10_000;
export const EVENTS_KEPT_PER_GROUP = 50_000;

/**
 * Drops the oldest events of a stream past the newest EVENTS_KEPT_PER_STREAM, a tenth of that at a
 * time: dropping one per line appended moved the whole array each time (a splice), a fifth of a
 * busy local cloud's time once its functions' streams were full. Returns how many it dropped.
 */
function dropOldest(events: LogEvent[]): number {
  if (events.length <= EVENTS_KEPT_PER_STREAM + EVENTS_KEPT_PER_STREAM / 10) return 0;
  const dropped = events.length - EVENTS_KEPT_PER_STREAM;
  events.splice(0, dropped);
  return dropped;
}

const FLUSH_DELAY_MS = 200;
/**
 * The journal is folded into the snapshot once it is this big and twice the snapshot: writing a
 * snapshot holds the server for as long as serializing every group takes (tens of ms for 10 MB).
 */
const JOURNAL_BYTES_BEFORE_SNAPSHOT = 16 * 1024 * 1024;

/**
 * CloudWatch Logs for the local cloud: what functions print, kept per group and stream. Saved as a
 * snapshot of every group (logs.json) and a journal of the lines appended since (logs.jsonl): a
 * busy function logs several lines per invocation, which a flush appends, where rewriting the
 * whole store each time cost more the more it held. Anything but an appended line (a group made
 * or deleted, PutLogEvents, a retention) is saved with a new snapshot, as is a journal grown big.
 */
export class LogStore {
  private readonly file: string;
  private readonly journal: string;
  private readonly groups: Record<string, LogGroup>;
  /** Events held per group, to keep it to the newest EVENTS_KEPT_PER_GROUP (a bound on the memory a busy function's logs hold). */
  private readonly counts = new Map<string, number>();
  private flushTimer?: NodeJS.Timeout;
  private nextSequence = 0;
  /** Lines appended since the last flush, for the journal. */
  private unsaved: JournalLine[] = [];
  /** Whether the next flush writes a snapshot: something else than lines changed, or the journal is big. */
  private snapshotDue = false;
  private journalBytes = 0;
  private snapshotBytes = 0;
  /** Told of the events each write stored (subscription filters deliver them). */
  onEvents: (group: string, stream: string, events: LogEvent[]) => void = () => {};

  constructor(
    dataDir: string,
    private readonly warn: (line: string) => void = () => {},
  ) {
    this.file = join(dataDir, 'state', 'logs.json');
    this.journal = join(dataDir, 'state', 'logs.jsonl');
    this.recoverSnapshot();
    this.groups = readJson<Record<string, LogGroup>>(this.file, {});
    const stored = Object.values(this.groups).flatMap((group) => Object.values(group.streams).flat());
    this.nextSequence = stored.reduce((highest, event) => Math.max(highest, event.sequence ?? -1), -1) + 1;
    // Events stored by an older fw get their sequence now, saved with the next snapshot.
    for (const event of stored) {
      if (event.sequence !== undefined) continue;
      event.sequence = this.nextSequence++;
      this.snapshotDue = true;
    }
    for (const [sequence, group, stream, timestamp, message] of readJsonLines<JournalLine>(this.journal)) {
      const events = ((this.groups[group] ??= { created: timestamp, streams: {} }).streams[stream] ??= []);
      this.nextSequence = Math.max(this.nextSequence, sequence + 1);
      if (message === undefined) continue;
      events.push({ timestamp, message, ingestionTime: timestamp, sequence });
      dropOldest(events);
    }
    for (const [name, group] of Object.entries(this.groups)) this.counted(name, Object.values(group.streams).reduce((sum, events) => sum + events.length, 0));
    this.snapshotBytes = existsSync(this.file) ? statSync(this.file).size : 0;
    this.journalBytes = existsSync(this.journal) ? statSync(this.journal).size : 0;
  }

  /**
   * A snapshot replaces the snapshot and the journal together (see writeSnapshot): a crash between
   * its steps leaves either the old pair or the new snapshot, never the new snapshot with the old journal.
   */
  private recoverSnapshot(): void {
    const next = `${this.file}.next`;
    const replayed = `${this.journal}.replayed`;
    if (existsSync(next)) {
      // The new snapshot never took the old one's place: the old pair stands.
      if (existsSync(replayed)) renameSync(replayed, this.journal);
      rmSync(next, { force: true });
    }
    rmSync(replayed, { force: true });
  }

  private writeSnapshot(): void {
    const next = `${this.file}.next`;
    const replayed = `${this.journal}.replayed`;
    const text = JSON.stringify(this.groups);
    writeFileAtomic(next, text);
    if (existsSync(this.journal)) guardWrite(this.journal, () => renameSync(this.journal, replayed));
    guardWrite(this.file, () => renameSync(next, this.file));
    rmSync(replayed, { force: true });
    this.snapshotBytes = Buffer.byteLength(text);
    this.journalBytes = 0;
  }

  /** The eventId FilterLogEvents gives the event: its time and the sequence it was stored with. */
  static eventId(event: LogEvent): string {
    return `${event.timestamp}${String(event.sequence).padStart(20, '0')}`;
  }

  createGroup(name: string): void {
    if (this.groups[name]) return;
    this.groups[name] = { created: Date.now(), streams: {} };
    this.snapshotDue = true;
    this.scheduleFlush();
  }

  deleteGroup(name: string): void {
    delete this.groups[name];
    this.counts.delete(name);
    this.snapshotDue = true;
    this.scheduleFlush();
  }

  /** A stream made by CreateLogStream (functions' streams appear with their first line). */
  createStream(group: string, stream: string): boolean {
    const found = this.groups[group];
    if (!found || found.streams[stream]) return false;
    found.streams[stream] = [];
    this.snapshotDue = true;
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
    const stored = events.map((event) => ({ timestamp: event.timestamp, message: event.message, ingestionTime: now, sequence: this.nextSequence++ }));
    list.push(...stored);
    list.sort((a, b) => a.timestamp - b.timestamp);
    const dropped = Math.max(0, list.length - EVENTS_KEPT_PER_STREAM);
    list.splice(0, dropped);
    this.counted(group, stored.length - dropped);
    this.snapshotDue = true;
    this.scheduleFlush();
    this.onEvents(group, stream, stored);
  }

  setRetention(group: string, days: number | undefined): void {
    this.groups[group].retentionInDays = days;
    this.snapshotDue = true;
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
    const streams = this.groups[group].streams;
    const now = Date.now();
    // A stream made empty (a function environment's, from its start) is a line of its own.
    if (messages.length === 0 && !Object.hasOwn(streams, stream)) this.unsaved.push([this.nextSequence++, group, stream, now]);
    const events = (streams[stream] ??= []);
    const stored = messages.map((message) => ({ timestamp: now, message, ingestionTime: now, sequence: this.nextSequence++ }));
    for (const event of stored) {
      events.push(event);
      this.unsaved.push([event.sequence, group, stream, now, event.message]);
    }
    this.counted(group, stored.length - dropOldest(events));
    this.scheduleFlush();
    if (stored.length > 0) this.onEvents(group, stream, stored);
  }

  /** Counts events added to (or, negative, dropped from) a group; past EVENTS_KEPT_PER_GROUP and a tenth, its oldest are dropped. */
  private counted(group: string, added: number): void {
    const count = (this.counts.get(group) ?? 0) + added;
    this.counts.set(group, count);
    if (count > EVENTS_KEPT_PER_GROUP + EVENTS_KEPT_PER_GROUP / 10) this.dropOldestOfGroup(group, count - EVENTS_KEPT_PER_GROUP);
  }

  /** Drops the group's `count` events stored first, whichever streams they are in (streams stay, emptied). */
  private dropOldestOfGroup(group: string, count: number): void {
    const streams = this.groups[group].streams;
    const sequences = Float64Array.from(Object.values(streams).flatMap((events) => events.map((event) => event.sequence))).sort();
    const newestDropped = sequences[count - 1];
    let kept = 0;
    for (const [name, events] of Object.entries(streams)) {
      const keep = events.filter((event) => event.sequence > newestDropped);
      kept += keep.length;
      if (keep.length !== events.length) streams[name] = keep;
    }
    // The journal still holds them; a restart replays it and drops them again, by the same rule.
    this.counts.set(group, kept);
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
    // Events of the same millisecond in the order they were stored, whichever streams they are in.
    return all.sort((a, b) => a.timestamp - b.timestamp || a.sequence - b.sequence);
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

  private scheduleFlush(delay = FLUSH_DELAY_MS): void {
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

  /** Saves everything as one snapshot, the journal folded in: what a stopping local cloud leaves. */
  close(): void {
    if (this.journalBytes > 0 || this.unsaved.length > 0) this.snapshotDue = true;
    this.flush();
  }

  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (!this.snapshotDue && this.unsaved.length > 0) {
      const size = this.journalBytes;
      appendJsonLines(this.journal, this.unsaved);
      this.unsaved = [];
      this.journalBytes = existsSync(this.journal) ? statSync(this.journal).size : size;
      this.snapshotDue = this.journalBytes > Math.max(JOURNAL_BYTES_BEFORE_SNAPSHOT, 2 * this.snapshotBytes);
      if (!this.snapshotDue) return;
    }
    if (!this.snapshotDue && existsSync(this.file)) return;
    this.writeSnapshot();
    this.unsaved = [];
    this.snapshotDue = false;
  }
}
