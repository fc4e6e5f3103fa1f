import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { writeJsonAtomic } from '../state/files';
import { addressOf } from './store';

/** The local cloud's own view of the messages SES kept (a signed GET, like every management call). */
export const SES_MESSAGES_PATH = '/_fw/ses/messages';

/** A message SES accepted, as the local cloud keeps it instead of delivering it. */
export interface SentEmail {
  MessageId: string;
  /** ISO time SES accepted it. */
  Timestamp: string;
  Region: string;
  /** The operation that sent it: `SendEmail`, `SendRawEmail`, `SendTemplatedEmail` (SES v1) or `v2 SendEmail`. */
  Operation: string;
  Source: string;
  Destination: { ToAddresses: string[]; CcAddresses: string[]; BccAddresses: string[] };
  ReplyToAddresses?: string[];
  Subject?: string;
  Body?: { Text?: string; Html?: string };
  /** The whole MIME message of a raw send, as text. */
  RawData?: string;
  Template?: string;
  TemplateData?: string;
  /** Why SES would not deliver a templated message (a variable the data lacks): logged, kept, not delivered. */
  RenderingFailure?: string;
  ConfigurationSetName?: string;
  Tags?: { Name: string; Value: string }[];
}

/** Hex milliseconds first, so file names sort by time; the rest is SES's `<hex>-<uuid>-000000` shape. */
function messageId(now: number): string {
  return `${now.toString(16).padStart(16, '0')}-${randomUUID()}-000000`;
}

/**
 * Where sent messages go: one JSON file per message in `<dataDir>/ses/` (readable with any editor,
 * listed by `GET /_fw/ses/messages`), and one `SES email from … → …: subject` line in the log.
 */
export class SesOutbox {
  private readonly folder: string;

  constructor(
    dataDir: string,
    private readonly log: (line: string) => void,
  ) {
    this.folder = join(dataDir, 'ses');
  }

  send(message: Omit<SentEmail, 'MessageId' | 'Timestamp'>): SentEmail {
    const now = Date.now();
    const sent: SentEmail = { MessageId: messageId(now), Timestamp: new Date(now).toISOString(), ...message };
    writeJsonAtomic(join(this.folder, `${sent.MessageId}.json`), sent);
    const { ToAddresses, CcAddresses, BccAddresses } = sent.Destination;
    const failure = sent.RenderingFailure ? ` (not delivered: ${sent.RenderingFailure})` : '';
    this.log(`SES email from ${sent.Source} → ${[...ToAddresses, ...CcAddresses, ...BccAddresses].join(', ')}: ${sent.Subject ?? '(no subject)'}${failure}`);
    return sent;
  }

  /** Every kept message, oldest first. */
  list(): SentEmail[] {
    let names: string[];
    try {
      names = readdirSync(this.folder).filter((name) => name.endsWith('.json')).sort();
    } catch {
      return [];
    }
    return names.map((name) => JSON.parse(readFileSync(join(this.folder, name), 'utf8')) as SentEmail);
  }

  /** How many messages a region sent in the last 24 hours (GetSendQuota's SentLast24Hours). */
  sentLast24Hours(region: string): number {
    const since = Date.now() - 24 * 3600_000;
    return this.list().filter((message) => message.Region === region && Date.parse(message.Timestamp) >= since).length;
  }
}

/**
 * `GET /_fw/ses/messages[?email=ADDRESS]`: the kept messages, oldest first, optionally only those
 * sent from or to one address.
 */
export function sesMessagesResponse(outbox: SesOutbox, request: LocalRequest): LocalResponse | undefined {
  if (request.path !== SES_MESSAGES_PATH || request.method !== 'GET') return undefined;
  const email = request.search.get('email');
  const involves = (message: SentEmail) => {
    const { ToAddresses, CcAddresses, BccAddresses } = message.Destination;
    return [message.Source, ...ToAddresses, ...CcAddresses, ...BccAddresses].some((mailbox) => addressOf(mailbox) === email);
  };
  return jsonResponse({ messages: outbox.list().filter((message) => email === null || involves(message)) });
}
