import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { AwsError } from '../protocol/errors';
import { page, SANDBOX_QUOTA } from './service';
import { mergedTemplateData, sendEmail, type OutgoingEmail, type SesServices } from './sending';
import { identityType, type Identity } from './store';

export const SES_V2_PREFIX = '/v2/email/';

const notFound = (message: string) => new AwsError('NotFoundException', message, 404);
const badRequest = (message: string) => new AwsError('BadRequestException', message);

/** SES v2's names for an identity type. */
const V2_TYPES = { EmailAddress: 'EMAIL_ADDRESS', Domain: 'DOMAIN' } as const;

function bodyOf(request: LocalRequest): Record<string, unknown> {
  if (request.body.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.body.toString('utf8'));
  } catch {
    throw new AwsError('SerializationException', 'The request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new AwsError('SerializationException', 'The request body must be a JSON object');
  return parsed as Record<string, unknown>;
}

function text(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw badRequest(`${name} is required.`);
  return value;
}

/** An optional string member (a path like `Content.Simple.Subject.Data`), refused when it has another type. */
function optionalString(value: unknown, name: string): string | undefined {
  if (value !== undefined && value !== null && typeof value !== 'string') throw badRequest(`${name} must be a string.`);
  return value ?? undefined;
}

function addressList(value: unknown, name: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw badRequest(`${name} must be a list of email addresses.`);
  return value as string[];
}

function objectAt(value: unknown, name: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest(`${name} must be an object.`);
  return value as Record<string, unknown>;
}

/** DKIM as SES v2 reports it: signing with Easy DKIM for a domain (verified at once, locally), none for an address. */
function dkimOf(identity: Identity): Record<string, unknown> {
  if (identity.type === 'EmailAddress') return { SigningEnabled: false, Status: 'NOT_STARTED', SigningAttributesOrigin: 'AWS_SES' };
  return { SigningEnabled: true, Status: 'SUCCESS', Tokens: identity.dkimTokens, SigningAttributesOrigin: 'AWS_SES', NextSigningKeyLength: 'RSA_2048_BIT', CurrentSigningKeyLength: 'RSA_2048_BIT', LastKeyGenerationTimestamp: identity.createdAt / 1000 };
}

/** SES v2 SendEmail: Simple, Raw or Template content, one of them. */
function send(services: SesServices, input: Record<string, unknown>, region: string, operation = 'v2 SendEmail'): LocalResponse {
  const content = objectAt(input.Content, 'Content');
  const kinds = (['Simple', 'Raw', 'Template'] as const).filter((kind) => content[kind] !== undefined && content[kind] !== null);
  if (kinds.length !== 1) throw badRequest('Exactly one of Simple, Raw or Template content must be specified.');
  const destination = objectAt(input.Destination, 'Destination');
  const tags = input.EmailTags;
  if (tags !== undefined && tags !== null && (!Array.isArray(tags) || tags.some((tag) => tag === null || typeof tag !== 'object' || typeof tag.Name !== 'string' || typeof tag.Value !== 'string'))) {
    throw badRequest('EmailTags must be a list of {Name, Value} strings.');
  }
  const common = {
    operation,
    region,
    source: optionalString(input.FromEmailAddress, 'FromEmailAddress'),
    destination: input.Destination === undefined || input.Destination === null ? undefined : {
      ToAddresses: addressList(destination.ToAddresses, 'Destination.ToAddresses'),
      CcAddresses: addressList(destination.CcAddresses, 'Destination.CcAddresses'),
      BccAddresses: addressList(destination.BccAddresses, 'Destination.BccAddresses'),
    },
    replyTo: addressList(input.ReplyToAddresses, 'ReplyToAddresses'),
    configurationSetName: optionalString(input.ConfigurationSetName, 'ConfigurationSetName'),
    tags: (tags ?? undefined) as { Name: string; Value: string }[] | undefined,
  };
  if (common.configurationSetName !== undefined && !services.ses.configurationSet(common.configurationSetName, region)) throw notFound(`Configuration set ${common.configurationSetName} does not exist.`);
  // SES v1's InvalidParameterValue is v2's BadRequestException.
  const sent = (email: OutgoingEmail) => {
    try {
      return jsonResponse({ MessageId: sendEmail(services, email).MessageId });
    } catch (error) {
      if (error instanceof AwsError && error.code === 'InvalidParameterValue') throw badRequest(error.message);
      throw error;
    }
  };
  if (kinds[0] === 'Raw') return sent({ ...common, raw: Buffer.from(text(objectAt(content.Raw, 'Content.Raw').Data, 'Raw.Data'), 'base64') });
  if (common.source === undefined) throw badRequest('FromEmailAddress is required.');
  if (kinds[0] === 'Simple') {
    const simple = objectAt(content.Simple, 'Content.Simple');
    const body = objectAt(simple.Body, 'Content.Simple.Body');
    const textPart = optionalString(objectAt(body.Text, 'Content.Simple.Body.Text').Data, 'Content.Simple.Body.Text.Data');
    const htmlPart = optionalString(objectAt(body.Html, 'Content.Simple.Body.Html').Data, 'Content.Simple.Body.Html.Data');
    const subject = text(objectAt(simple.Subject, 'Content.Simple.Subject').Data, 'Subject.Data');
    return sent({ ...common, subject, body: { ...(textPart !== undefined ? { Text: textPart } : {}), ...(htmlPart !== undefined ? { Html: htmlPart } : {}) } });
  }
  const template = objectAt(content.Template, 'Content.Template');
  const data = optionalString(template.TemplateData, 'Content.Template.TemplateData') ?? '{}';
  if (template.TemplateContent !== undefined && template.TemplateContent !== null) {
    const inline = objectAt(template.TemplateContent, 'Content.Template.TemplateContent');
    const part = (key: string) => optionalString(inline[key], `Content.Template.TemplateContent.${key}`);
    return sent({ ...common, template: { inline: { TemplateName: '', SubjectPart: part('Subject'), TextPart: part('Text'), HtmlPart: part('Html') }, data } });
  }
  const name = optionalString(template.TemplateName, 'Content.Template.TemplateName') ?? optionalString(template.TemplateArn, 'Content.Template.TemplateArn')?.split(':template/')[1];
  if (!name) throw badRequest('Template name or ARN is required.');
  if (!services.ses.hasTemplate(name, region)) throw notFound(`Template ${name} does not exist.`);
  return sent({ ...common, template: { name, data } });
}

function templateContent(value: unknown): { Subject?: string; Text?: string; Html?: string } {
  const content = objectAt(value, 'TemplateContent');
  return { Subject: optionalString(content.Subject, 'TemplateContent.Subject'), Text: optionalString(content.Text, 'TemplateContent.Text'), Html: optionalString(content.Html, 'TemplateContent.Html') };
}

function listPage<T>(items: T[], input: { NextToken?: unknown; PageSize?: unknown }, fallback: number): { items: T[]; next?: string } {
  const size = input.PageSize === undefined ? fallback : Number(input.PageSize);
  if (!Number.isInteger(size) || size < 1) throw badRequest('PageSize must be a positive number.');
  return page(items, size, input.NextToken === undefined ? undefined : String(input.NextToken));
}

/** SES v2's operations by method and path (`{name}`: the identity, template or set the path names). */
const ROUTES: Record<string, string> = {
  'POST outbound-emails': 'SendEmail',
  'POST outbound-bulk-emails': 'SendBulkEmail',
  'POST identities': 'CreateEmailIdentity',
  'GET identities': 'ListEmailIdentities',
  'POST list-identities': 'ListEmailIdentities',
  'GET identities/{name}': 'GetEmailIdentity',
  'DELETE identities/{name}': 'DeleteEmailIdentity',
  'POST templates': 'CreateEmailTemplate',
  'PUT templates/{name}': 'UpdateEmailTemplate',
  'GET templates/{name}': 'GetEmailTemplate',
  'GET templates': 'ListEmailTemplates',
  'DELETE templates/{name}': 'DeleteEmailTemplate',
  'POST configuration-sets': 'CreateConfigurationSet',
  'GET configuration-sets': 'ListConfigurationSets',
  'POST list-configuration-sets': 'ListConfigurationSets',
  'GET configuration-sets/{name}': 'GetConfigurationSet',
  'DELETE configuration-sets/{name}': 'DeleteConfigurationSet',
  'GET account': 'GetAccount',
};

/** Amazon SES v2 (REST-JSON under `/v2/email/`): sending, identities, templates, configuration sets, the account. */
export function sesV2Api(services: SesServices, request: LocalRequest): LocalResponse {
  const { ses } = services;
  const region = request.region;
  const [resource = '', rawName, ...rest] = request.path.slice(SES_V2_PREFIX.length).split('/');
  const name = rawName === undefined || rawName === '' ? undefined : decodeURIComponent(rawName);
  const route = `${request.method} ${resource}${name === undefined ? '' : '/{name}'}${rest.length > 0 ? `/${rest.join('/')}` : ''}`;
  const query = Object.fromEntries(request.search);
  switch (ROUTES[route]) {
    case 'SendEmail':
      return send(services, bodyOf(request), region);
    case 'SendBulkEmail': {
      const input = bodyOf(request);
      const template = objectAt(objectAt(input.DefaultContent, 'DefaultContent').Template, 'DefaultContent.Template');
      const entries = input.BulkEmailEntries;
      if (!Array.isArray(entries) || entries.length === 0) throw badRequest('BulkEmailEntries must be a non-empty list.');
      if (entries.length > 50) throw badRequest('Number of destinations exceeds 50.');
      const templateName = text(template.TemplateName, 'DefaultContent.Template.TemplateName');
      if (!ses.hasTemplate(templateName, region)) throw notFound(`Template ${templateName} does not exist.`);
      const results = entries.map((entry: unknown, index) => {
        const fields = objectAt(entry, `BulkEmailEntries[${index}]`);
        const replacement = objectAt(objectAt(fields.ReplacementEmailContent, 'ReplacementEmailContent').ReplacementTemplate, 'ReplacementTemplate');
        let data: string;
        try {
          data = mergedTemplateData(optionalString(template.TemplateData, 'TemplateData'), optionalString(replacement.ReplacementTemplateData, 'ReplacementTemplateData'));
        } catch (error) {
          throw error instanceof AwsError && error.code === 'InvalidParameterValue' ? badRequest(error.message) : error;
        }
        const email = { FromEmailAddress: input.FromEmailAddress, Destination: fields.Destination, ReplyToAddresses: input.ReplyToAddresses, ConfigurationSetName: input.ConfigurationSetName, Content: { Template: { TemplateName: templateName, TemplateData: data } } };
        const { MessageId } = JSON.parse(String(send(services, email, region, 'v2 SendBulkEmail').body)) as { MessageId: string };
        return { Status: 'SUCCESS', MessageId };
      });
      return jsonResponse({ BulkEmailEntryResults: results });
    }
    case 'CreateEmailIdentity': {
      const input = bodyOf(request);
      const identityName = text(input.EmailIdentity, 'EmailIdentity');
      if (ses.identity(identityName, region)) throw new AwsError('AlreadyExistsException', `Email identity ${identityName} already exist.`);
      const tags = input.Tags;
      if (tags !== undefined && tags !== null && (!Array.isArray(tags) || tags.some((tag) => tag === null || typeof tag !== 'object' || typeof tag.Key !== 'string' || typeof tag.Value !== 'string'))) throw badRequest('Tags must be a list of {Key, Value} strings.');
      const identity = ses.addIdentity(identityName, identityType(identityName), region, (tags ?? undefined) as Identity['tags']);
      return jsonResponse({ IdentityType: V2_TYPES[identity.type], VerifiedForSendingStatus: true, DkimAttributes: dkimOf(identity) });
    }
    case 'ListEmailIdentities': {
      const input = request.method === 'GET' ? query : bodyOf(request);
      const identities = ses.identities(region).map(([identityName, identity]) => ({ IdentityType: V2_TYPES[identity.type], IdentityName: identityName, SendingEnabled: true, VerificationStatus: 'SUCCESS' }));
      const { items, next } = listPage(identities, input, 1000);
      return jsonResponse({ EmailIdentities: items, NextToken: next });
    }
    case 'GetEmailIdentity': {
      const identity = ses.identity(name!, region);
      if (!identity) throw notFound(`Email identity ${name} does not exist.`);
      return jsonResponse({
        IdentityType: V2_TYPES[identity.type],
        FeedbackForwardingStatus: true,
        VerifiedForSendingStatus: true,
        DkimAttributes: dkimOf(identity),
        MailFromAttributes: { BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' },
        Policies: {},
        Tags: identity.tags ?? [],
        VerificationStatus: 'SUCCESS',
      });
    }
    case 'DeleteEmailIdentity':
      if (!ses.deleteIdentity(name!, region)) throw notFound(`Email identity ${name} does not exist.`);
      return jsonResponse({});
    case 'CreateEmailTemplate': {
      const input = bodyOf(request);
      const content = templateContent(input.TemplateContent);
      const templateName = text(input.TemplateName, 'TemplateName');
      if (ses.hasTemplate(templateName, region)) throw new AwsError('AlreadyExistsException', `Template ${templateName} already exists.`);
      ses.putTemplate({ TemplateName: templateName, SubjectPart: content.Subject, TextPart: content.Text, HtmlPart: content.Html }, region, 'create');
      return jsonResponse({});
    }
    case 'UpdateEmailTemplate': {
      const content = templateContent(bodyOf(request).TemplateContent);
      if (!ses.hasTemplate(name!, region)) throw notFound(`Template ${name} does not exist.`);
      ses.putTemplate({ TemplateName: name!, SubjectPart: content.Subject, TextPart: content.Text, HtmlPart: content.Html }, region, 'update');
      return jsonResponse({});
    }
    case 'GetEmailTemplate': {
      if (!ses.hasTemplate(name!, region)) throw notFound(`Template ${name} does not exist.`);
      const { TemplateName, SubjectPart, TextPart, HtmlPart } = ses.template(name!, region);
      return jsonResponse({ TemplateName, TemplateContent: { Subject: SubjectPart, Text: TextPart, Html: HtmlPart } });
    }
    case 'ListEmailTemplates': {
      const { items, next } = listPage(ses.templates(region), query, 10);
      return jsonResponse({ TemplatesMetadata: items.map(({ TemplateName, CreatedTimestamp }) => ({ TemplateName, CreatedTimestamp: Date.parse(CreatedTimestamp) / 1000 })), NextToken: next });
    }
    case 'DeleteEmailTemplate':
      if (!ses.deleteTemplate(name!, region)) throw notFound(`Template ${name} does not exist.`);
      return jsonResponse({});
    case 'CreateConfigurationSet': {
      const setName = text(bodyOf(request).ConfigurationSetName, 'ConfigurationSetName');
      if (ses.configurationSet(setName, region)) throw new AwsError('AlreadyExistsException', `Configuration set ${setName} already exists.`);
      ses.createConfigurationSet(setName, region);
      return jsonResponse({});
    }
    case 'ListConfigurationSets': {
      const input = request.method === 'GET' ? query : bodyOf(request);
      const { items, next } = listPage(ses.configurationSets(region).map((set) => set.Name), input, 1000);
      return jsonResponse({ ConfigurationSets: items, NextToken: next });
    }
    case 'GetConfigurationSet':
      if (!ses.configurationSet(name!, region)) throw notFound(`Configuration set ${name} does not exist.`);
      return jsonResponse({ ConfigurationSetName: name, SendingOptions: { SendingEnabled: true }, Tags: [] });
    case 'DeleteConfigurationSet':
      if (!ses.deleteConfigurationSet(name!, region)) throw notFound(`Configuration set ${name} does not exist.`);
      return jsonResponse({});
    case 'GetAccount':
      return jsonResponse({
        DedicatedIpAutoWarmupEnabled: false,
        EnforcementStatus: 'HEALTHY',
        ProductionAccessEnabled: false,
        SendQuota: { ...SANDBOX_QUOTA, SentLast24Hours: services.sesOutbox.sentLast24Hours(region) },
        SendingEnabled: true,
      });
    default:
      throw new AwsError('UnknownOperationException', `not emulated: SES ${request.method} ${request.path}`);
  }
}
