import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { AwsError } from '../protocol/errors';
import { page, SANDBOX_QUOTA } from './service';
import { sendEmail, type OutgoingEmail, type SesServices } from './sending';
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

/** DKIM as SES v2 reports it: signing with Easy DKIM for a domain (verified at once, locally), none for an address. */
function dkimOf(identity: Identity): Record<string, unknown> {
  if (identity.type === 'EmailAddress') return { SigningEnabled: false, Status: 'NOT_STARTED', SigningAttributesOrigin: 'AWS_SES' };
  return { SigningEnabled: true, Status: 'SUCCESS', Tokens: identity.dkimTokens, SigningAttributesOrigin: 'AWS_SES', NextSigningKeyLength: 'RSA_2048_BIT', CurrentSigningKeyLength: 'RSA_2048_BIT', LastKeyGenerationTimestamp: identity.createdAt / 1000 };
}

interface V2Content {
  Simple?: { Subject?: { Data?: string }; Body?: { Text?: { Data?: string }; Html?: { Data?: string } } };
  Raw?: { Data?: string };
  Template?: { TemplateName?: string; TemplateArn?: string; TemplateData?: string; TemplateContent?: { Subject?: string; Text?: string; Html?: string } };
}

/** SES v2 SendEmail: Simple, Raw or Template content, one of them. */
function send(services: SesServices, input: Record<string, unknown>, region: string): LocalResponse {
  const content = (input.Content ?? {}) as V2Content;
  const kinds = (['Simple', 'Raw', 'Template'] as const).filter((kind) => content[kind] !== undefined);
  if (kinds.length !== 1) throw badRequest('Exactly one of Simple, Raw or Template content must be specified.');
  const common = {
    operation: 'v2 SendEmail',
    region,
    source: input.FromEmailAddress as string | undefined,
    destination: input.Destination as { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] } | undefined,
    replyTo: input.ReplyToAddresses as string[] | undefined,
    configurationSetName: input.ConfigurationSetName as string | undefined,
    tags: input.EmailTags as { Name: string; Value: string }[] | undefined,
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
  if (content.Raw) return sent({ ...common, raw: Buffer.from(text(content.Raw.Data, 'Raw.Data'), 'base64') });
  if (common.source === undefined) throw badRequest('FromEmailAddress is required.');
  if (content.Simple) {
    const { Subject, Body } = content.Simple;
    const body = { ...(Body?.Text?.Data !== undefined ? { Text: Body.Text.Data } : {}), ...(Body?.Html?.Data !== undefined ? { Html: Body.Html.Data } : {}) };
    return sent({ ...common, subject: text(Subject?.Data, 'Subject.Data'), body });
  }
  const template = content.Template!;
  const data = template.TemplateData ?? '{}';
  if (template.TemplateContent) {
    const { Subject, Text, Html } = template.TemplateContent;
    return sent({ ...common, template: { inline: { TemplateName: '', SubjectPart: Subject, TextPart: Text, HtmlPart: Html }, data } });
  }
  const name = template.TemplateName ?? template.TemplateArn?.split(':template/')[1];
  if (!name) throw badRequest('Template name or ARN is required.');
  if (!services.ses.hasTemplate(name, region)) throw notFound(`Template ${name} does not exist.`);
  return sent({ ...common, template: { name, data } });
}

function listPage<T>(items: T[], input: { NextToken?: unknown; PageSize?: unknown }, fallback: number): { items: T[]; next?: string } {
  const size = input.PageSize === undefined ? fallback : Number(input.PageSize);
  if (!Number.isInteger(size) || size < 1) throw badRequest('PageSize must be a positive number.');
  return page(items, size, input.NextToken === undefined ? undefined : String(input.NextToken));
}

/** SES v2's operations by method and path (`{name}`: the identity, template or set the path names). */
const ROUTES: Record<string, string> = {
  'POST outbound-emails': 'SendEmail',
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
    case 'CreateEmailIdentity': {
      const input = bodyOf(request);
      const identityName = text(input.EmailIdentity, 'EmailIdentity');
      if (ses.identity(identityName, region)) throw new AwsError('AlreadyExistsException', `Email identity ${identityName} already exist.`);
      const identity = ses.addIdentity(identityName, identityType(identityName), region, input.Tags as Identity['tags']);
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
      const content = (input.TemplateContent ?? {}) as { Subject?: string; Text?: string; Html?: string };
      const templateName = text(input.TemplateName, 'TemplateName');
      if (ses.hasTemplate(templateName, region)) throw new AwsError('AlreadyExistsException', `Template ${templateName} already exists.`);
      ses.putTemplate({ TemplateName: templateName, SubjectPart: content.Subject, TextPart: content.Text, HtmlPart: content.Html }, region, 'create');
      return jsonResponse({});
    }
    case 'UpdateEmailTemplate': {
      const content = (bodyOf(request).TemplateContent ?? {}) as { Subject?: string; Text?: string; Html?: string };
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
