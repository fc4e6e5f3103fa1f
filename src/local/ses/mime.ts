/**
 * The headers of a raw (MIME) message that SES reads: the sender, the recipients and the subject.
 * The body is kept as sent; nothing else of it is interpreted.
 */
export interface MimeHeaders {
  from?: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject?: string;
}

/** `=?UTF-8?B?…?=` and `=?UTF-8?Q?…?=` encoded words (RFC 2047), decoded. */
function decodeWords(text: string): string {
  return text.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, encoding: string, data: string) => {
    const bytes = encoding.toUpperCase() === 'B' ? Buffer.from(data, 'base64') : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
    return bytes.toString(/^utf-?8$/i.test(charset) ? 'utf8' : 'latin1');
  });
}

/** Mailboxes of an address list, split on commas outside quotes and angle brackets. */
function mailboxes(value: string | undefined): string[] {
  if (!value) return [];
  const found: string[] = [];
  let current = '';
  let quoted = false;
  let angle = false;
  for (const char of value) {
    if (char === '"') quoted = !quoted;
    else if (char === '<' && !quoted) angle = true;
    else if (char === '>' && !quoted) angle = false;
    if (char === ',' && !quoted && !angle) {
      found.push(current.trim());
      current = '';
    } else current += char;
  }
  found.push(current.trim());
  return found.filter((mailbox) => mailbox !== '');
}

export function mimeHeaders(raw: string): MimeHeaders {
  const end = raw.search(/\r?\n\r?\n/);
  const head = (end === -1 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  const subject = headers.get('subject');
  return {
    from: headers.get('from'),
    to: mailboxes(headers.get('to')),
    cc: mailboxes(headers.get('cc')),
    bcc: mailboxes(headers.get('bcc')),
    subject: subject === undefined ? undefined : decodeWords(subject),
  };
}
