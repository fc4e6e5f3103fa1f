import { AwsError } from '../protocol/errors';
import { mimeHeaders } from './mime';
import type { SentEmail, SesOutbox } from './outbox';
import type { EmailTemplate, SesStore } from './store';

/** What SES v1 and v2 sends have in common, once read from their protocols. */
export interface OutgoingEmail {
  operation: string;
  region: string;
  /** The sender: Source (v1) or FromEmailAddress (v2); for a raw message, else its From header. */
  source?: string;
  destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
  replyTo?: string[];
  subject?: string;
  body?: { Text?: string; Html?: string };
  raw?: Buffer;
  /** A stored template by name, or one given inline (SES v2's TemplateContent). */
  template?: { name?: string; inline?: Omit<EmailTemplate, 'CreatedTimestamp'>; data: string };
  configurationSetName?: string;
  tags?: { Name: string; Value: string }[];
}

export interface SesServices {
  readonly ses: SesStore;
  readonly sesOutbox: SesOutbox;
}

/** SES accepts up to 50 recipients a message. */
const MAX_RECIPIENTS = 50;

const escapeHtml = (text: string) => text.replace(/[&<>"'`=]/g, (c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`);

/**
 * A template part with its `{{name}}` / `{{a.b}}` variables replaced (HTML-escaped in the HTML part, as
 * Handlebars does; `{{{name}}}` unescaped). A variable the data lacks is SES's rendering failure.
 */
function render(part: string | undefined, data: Record<string, unknown>, html: boolean, missing: Set<string>): string | undefined {
  if (part === undefined) return undefined;
  return part.replace(/\{\{(\{?)\s*([\w.-]+)\s*\}?\}\}/g, (_whole, triple: string, path: string) => {
    let value: unknown = data;
    for (const key of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined || value === null) {
      missing.add(path);
      return '';
    }
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    return html && !triple ? escapeHtml(text) : text;
  });
}

function renderTemplate(template: Omit<EmailTemplate, 'CreatedTimestamp'>, templateData: string): Pick<SentEmail, 'Subject' | 'Body' | 'RenderingFailure'> {
  let data: unknown;
  try {
    data = JSON.parse(templateData);
  } catch {
    throw new AwsError('InvalidParameterValue', `Template data is not valid JSON: ${templateData.slice(0, 200)}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new AwsError('InvalidParameterValue', 'Template data must be a JSON object.');
  const missing = new Set<string>();
  const values = data as Record<string, unknown>;
  const Subject = render(template.SubjectPart, values, false, missing);
  const Body = { Text: render(template.TextPart, values, false, missing), Html: render(template.HtmlPart, values, true, missing) };
  const RenderingFailure = missing.size > 0 ? `Attribute '${[...missing][0]}' is not present in the rendering data.` : undefined;
  return { Subject, Body, ...(RenderingFailure ? { RenderingFailure } : {}) };
}

/** Sends (keeps) a message as SES in the sandbox would accept it: from a verified identity only. */
export function sendEmail(services: SesServices, email: OutgoingEmail): SentEmail {
  const { ses, sesOutbox } = services;
  const headers = email.raw ? mimeHeaders(email.raw.toString('utf8')) : undefined;
  const source = email.source ?? headers?.from;
  if (!source) throw new AwsError('InvalidParameterValue', "Missing required header 'From'.");
  const destination = {
    ToAddresses: email.destination?.ToAddresses ?? headers?.to ?? [],
    CcAddresses: email.destination?.CcAddresses ?? headers?.cc ?? [],
    BccAddresses: email.destination?.BccAddresses ?? headers?.bcc ?? [],
  };
  const recipients = destination.ToAddresses.length + destination.CcAddresses.length + destination.BccAddresses.length;
  if (recipients === 0) throw new AwsError('InvalidParameterValue', "Missing required header 'To'.");
  if (recipients > MAX_RECIPIENTS) throw new AwsError('InvalidParameterValue', `Recipient count exceeds ${MAX_RECIPIENTS}.`);
  const unverified = [source, ...(headers?.from && headers.from !== source ? [headers.from] : [])].filter((sender) => !ses.isVerifiedSender(sender, email.region));
  if (unverified.length > 0) {
    throw new AwsError('MessageRejected', `Email address is not verified. The following identities failed the check in region ${email.region.toUpperCase()}: ${unverified.join(', ')}`);
  }
  if (email.configurationSetName !== undefined && !ses.configurationSet(email.configurationSetName, email.region)) {
    throw new AwsError('ConfigurationSetDoesNotExist', `Configuration set <${email.configurationSetName}> does not exist.`, 400, { ConfigurationSetName: email.configurationSetName });
  }
  const template = email.template?.inline ?? (email.template?.name === undefined ? undefined : ses.template(email.template.name, email.region));
  const content = email.template && template ? { ...(email.template.name ? { Template: email.template.name } : {}), TemplateData: email.template.data, ...renderTemplate(template, email.template.data) } : {};
  return sesOutbox.send({
    Region: email.region,
    Operation: email.operation,
    Source: source,
    Destination: destination,
    ...(email.replyTo && email.replyTo.length > 0 ? { ReplyToAddresses: email.replyTo } : {}),
    Subject: email.subject ?? headers?.subject,
    ...(email.body ? { Body: email.body } : {}),
    ...(email.raw ? { RawData: email.raw.toString('utf8') } : {}),
    ...content,
    ...(email.configurationSetName !== undefined ? { ConfigurationSetName: email.configurationSetName } : {}),
    ...(email.tags && email.tags.length > 0 ? { Tags: email.tags } : {}),
  });
}

/** Bulk sends' per-destination data over the default: a replacement's keys win. */
export function mergedTemplateData(defaults: string | undefined, replacement: string | undefined): string {
  const parse = (text: string | undefined, name: string): Record<string, unknown> => {
    if (text === undefined || text === '') return {};
    try {
      const value: unknown = JSON.parse(text);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // refused below
    }
    throw new AwsError('InvalidParameterValue', `${name} is not a JSON object: ${text.slice(0, 200)}`);
  };
  return JSON.stringify({ ...parse(defaults, 'DefaultTemplateData'), ...parse(replacement, 'ReplacementTemplateData') });
}
