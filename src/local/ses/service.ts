import { AwsError } from '../protocol/errors';
import type { QueryParams } from '../protocol/query';
import { flat } from '../protocol/xml';
import { mergedTemplateData, sendEmail, type SesServices } from './sending';
import { lowerCamel } from '../protocol/member-names';

/** The quota an account in the SES sandbox has (reported, not enforced locally). */
export const SANDBOX_QUOTA = { Max24HourSend: 200, MaxSendRate: 1 };

/** "Value null at 'message.subject.data'", as SES's validation names a missing member. */
function required(params: QueryParams, name: string): string {
  const value = params.string(name);
  if (value === undefined || value === '') {
    const path = name.split('.').map(lowerCamel).join('.');
    throw new AwsError('ValidationError', `1 validation error detected: Value null at '${path}' failed to satisfy constraint: Member must not be null`);
  }
  return value;
}

/** One page of a list: NextToken is the offset of the next item. */
export function page<T>(items: T[], size: number, token: string | undefined): { items: T[]; next?: string } {
  const start = token === undefined ? 0 : Number(token);
  if (!Number.isInteger(start) || start < 0 || start > items.length) throw new AwsError('InvalidParameterValue', 'Invalid NextToken.');
  const end = start + size;
  return { items: items.slice(start, end), next: end < items.length ? String(end) : undefined };
}

function destination(params: QueryParams) {
  return { ToAddresses: params.list('Destination.ToAddresses'), CcAddresses: params.list('Destination.CcAddresses'), BccAddresses: params.list('Destination.BccAddresses') };
}

function tags(params: QueryParams): { Name: string; Value: string }[] {
  return params.structs('Tags').map(({ Name, Value }) => ({ Name, Value }));
}

/** Amazon SES v1 (the query protocol, version 2010-12-01): identities, templates and sending. */
export function sesAction(services: SesServices, params: QueryParams, region: string): Record<string, unknown> {
  const { ses } = services;
  switch (params.action) {
    case 'VerifyEmailIdentity':
      ses.addIdentity(required(params, 'EmailAddress'), 'EmailAddress', region);
      return {};
    case 'VerifyEmailAddress':
      ses.addIdentity(required(params, 'EmailAddress'), 'EmailAddress', region);
      return {};
    case 'VerifyDomainIdentity':
      return { VerificationToken: ses.addIdentity(required(params, 'Domain'), 'Domain', region).verificationToken };
    case 'ListIdentities': {
      const type = params.string('IdentityType');
      const names = ses.identities(region).filter(([, identity]) => type === undefined || identity.type === type).map(([name]) => name);
      const { items, next } = page(names, Math.min(params.number('MaxItems') ?? 1000, 1000), params.string('NextToken'));
      return { Identities: items, NextToken: next };
    }
    case 'ListVerifiedEmailAddresses':
      return { VerifiedEmailAddresses: ses.identities(region).filter(([, identity]) => identity.type === 'EmailAddress').map(([name]) => name) };
    case 'GetIdentityVerificationAttributes': {
      // Identities the region does not have are left out of the map, as SES leaves them out.
      const entries = params.list('Identities').flatMap((name) => {
        const identity = ses.identity(name, region);
        return identity ? [{ key: name, value: { VerificationStatus: 'Success', VerificationToken: identity.verificationToken } }] : [];
      });
      return { VerificationAttributes: { entry: flat(entries) } };
    }
    case 'DeleteIdentity':
      ses.deleteIdentity(required(params, 'Identity'), region);
      return {};
    case 'DeleteVerifiedEmailAddress':
      ses.deleteIdentity(required(params, 'EmailAddress'), region);
      return {};
    case 'SendEmail': {
      const source = required(params, 'Source');
      const subject = required(params, 'Message.Subject.Data');
      const text = params.string('Message.Body.Text.Data');
      const html = params.string('Message.Body.Html.Data');
      const sent = sendEmail(services, {
        operation: 'SendEmail',
        region,
        source,
        destination: destination(params),
        replyTo: params.list('ReplyToAddresses'),
        subject,
        body: { ...(text !== undefined ? { Text: text } : {}), ...(html !== undefined ? { Html: html } : {}) },
        configurationSetName: params.string('ConfigurationSetName'),
        tags: tags(params),
      });
      return { MessageId: sent.MessageId };
    }
    case 'SendRawEmail': {
      const data = Buffer.from(required(params, 'RawMessage.Data'), 'base64');
      const destinations = params.list('Destinations');
      const sent = sendEmail(services, {
        operation: 'SendRawEmail',
        region,
        source: params.string('Source'),
        destination: destinations.length > 0 ? { ToAddresses: destinations, CcAddresses: [], BccAddresses: [] } : undefined,
        raw: data,
        configurationSetName: params.string('ConfigurationSetName'),
        tags: tags(params),
      });
      return { MessageId: sent.MessageId };
    }
    case 'SendTemplatedEmail': {
      const sent = sendEmail(services, {
        operation: 'SendTemplatedEmail',
        region,
        source: required(params, 'Source'),
        destination: destination(params),
        replyTo: params.list('ReplyToAddresses'),
        template: { name: required(params, 'Template'), data: required(params, 'TemplateData') },
        configurationSetName: params.string('ConfigurationSetName'),
        tags: tags(params),
      });
      return { MessageId: sent.MessageId };
    }
    case 'SendBulkTemplatedEmail': {
      const source = required(params, 'Source');
      const template = required(params, 'Template');
      // Checked once for the whole call, as SES refuses it before sending to anyone.
      ses.template(template, region);
      const destinations = params.structs('Destinations');
      if (destinations.length === 0) throw new AwsError('ValidationError', "1 validation error detected: Value null at 'destinations' failed to satisfy constraint: Member must not be null");
      if (destinations.length > 50) throw new AwsError('InvalidParameterValue', 'Number of destinations exceeds 50.');
      const status = destinations.map((fields) => {
        const addresses = (kind: string) => Object.keys(fields).filter((key) => key.startsWith(`Destination.${kind}.member.`)).sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop())).map((key) => fields[key]);
        const sent = sendEmail(services, {
          operation: 'SendBulkTemplatedEmail',
          region,
          source,
          destination: { ToAddresses: addresses('ToAddresses'), CcAddresses: addresses('CcAddresses'), BccAddresses: addresses('BccAddresses') },
          replyTo: params.list('ReplyToAddresses'),
          template: { name: template, data: mergedTemplateData(params.string('DefaultTemplateData'), fields.ReplacementTemplateData) },
          configurationSetName: params.string('ConfigurationSetName'),
        });
        return { Status: 'Success', MessageId: sent.MessageId };
      });
      return { Status: status };
    }
    case 'CreateTemplate':
    case 'UpdateTemplate': {
      const template = { TemplateName: required(params, 'Template.TemplateName'), SubjectPart: params.string('Template.SubjectPart'), TextPart: params.string('Template.TextPart'), HtmlPart: params.string('Template.HtmlPart') };
      ses.putTemplate(template, region, params.action === 'CreateTemplate' ? 'create' : 'update');
      return {};
    }
    case 'GetTemplate': {
      const { TemplateName, SubjectPart, TextPart, HtmlPart } = ses.template(required(params, 'TemplateName'), region);
      return { Template: { TemplateName, SubjectPart, TextPart, HtmlPart } };
    }
    case 'ListTemplates': {
      const { items, next } = page(ses.templates(region), Math.min(params.number('MaxItems') ?? 10, 100), params.string('NextToken'));
      return { TemplatesMetadata: items.map(({ TemplateName, CreatedTimestamp }) => ({ Name: TemplateName, CreatedTimestamp })), NextToken: next };
    }
    case 'DeleteTemplate':
      ses.deleteTemplate(required(params, 'TemplateName'), region);
      return {};
    case 'CreateConfigurationSet':
      ses.createConfigurationSet(required(params, 'ConfigurationSet.Name'), region);
      return {};
    case 'DescribeConfigurationSet': {
      const name = required(params, 'ConfigurationSetName');
      if (!ses.configurationSet(name, region)) throw new AwsError('ConfigurationSetDoesNotExist', `Configuration set <${name}> does not exist.`);
      return { ConfigurationSet: { Name: name } };
    }
    case 'ListConfigurationSets': {
      const { items, next } = page(ses.configurationSets(region), Math.min(params.number('MaxItems') ?? 1000, 1000), params.string('NextToken'));
      return { ConfigurationSets: items.map(({ Name }) => ({ Name })), NextToken: next };
    }
    case 'DeleteConfigurationSet': {
      const name = required(params, 'ConfigurationSetName');
      if (!ses.deleteConfigurationSet(name, region)) throw new AwsError('ConfigurationSetDoesNotExist', `Configuration set <${name}> does not exist.`);
      return {};
    }
    case 'GetSendQuota':
      return { ...SANDBOX_QUOTA, SentLast24Hours: services.sesOutbox.sentLast24Hours(region) };
    case 'GetAccountSendingEnabled':
      return { Enabled: true };
    default:
      throw new AwsError('InvalidAction', `not emulated: SES ${params.action}`);
  }
}
