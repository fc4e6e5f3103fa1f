import { AwsError } from '../protocol/errors';
import { identityType } from '../ses/store';
import { generatedName } from './names';
import type { ProviderContext, Provisioned, ResourceProvider } from './provider';

/** Fn::GetAtt DkimDNSTokenName1–3 / DkimDNSTokenValue1–3: the CNAME records Easy DKIM asks a domain for. */
function dkimRecords(name: string, tokens: string[] | undefined): Record<string, string> {
  const records: Record<string, string> = {};
  (tokens ?? []).forEach((token, index) => {
    records[`DkimDNSTokenName${index + 1}`] = `${token}._domainkey.${name}`;
    records[`DkimDNSTokenValue${index + 1}`] = `${token}.dkim.amazonses.com`;
  });
  return records;
}

/** AWS::SES::EmailIdentity: an identity of the local SES, verified at once; Ref is the identity. */
export const sesEmailIdentityProvider: ResourceProvider = {
  replaceOn: ['EmailIdentity'],
  create(properties, context) {
    const name = String(properties.EmailIdentity ?? '');
    if (name === '') throw new AwsError('InvalidRequest', 'Property EmailIdentity cannot be empty.');
    if (context.cloud.ses.identity(name, context.region)) throw new AwsError('AlreadyExists', `Email identity ${name} already exist.`);
    const identity = context.cloud.ses.addIdentity(name, identityType(name), context.region);
    return { physicalId: name, attributes: dkimRecords(name, identity.dkimTokens) };
  },
  delete(record, context) {
    context.cloud.ses.deleteIdentity(record.physicalId, context.region);
  },
};

function putTemplate(properties: Record<string, unknown>, name: string, context: ProviderContext, mode: 'create' | 'update'): Provisioned {
  const template = (properties.Template ?? {}) as { SubjectPart?: string; TextPart?: string; HtmlPart?: string };
  context.cloud.ses.putTemplate({ TemplateName: name, SubjectPart: template.SubjectPart, TextPart: template.TextPart, HtmlPart: template.HtmlPart }, context.region, mode);
  return { physicalId: name, attributes: { Id: name } };
}

function declaredTemplateName(properties: Record<string, unknown>): string | undefined {
  const declared = (properties.Template as { TemplateName?: unknown } | undefined)?.TemplateName;
  return typeof declared === 'string' ? declared : undefined;
}

/** AWS::SES::Template: a template SendTemplatedEmail and SES v2 can use; Ref (and Id) is its name. */
export const sesTemplateProvider: ResourceProvider = {
  create(properties, context) {
    return putTemplate(properties, declaredTemplateName(properties) ?? generatedName(context.stackName, context.logicalId), context, 'create');
  },
  update(properties, previous, context) {
    // A new TemplateName is a new template (the name sits inside Template, so replaceOn cannot say it).
    const name = declaredTemplateName(properties) ?? previous.physicalId;
    if (name === previous.physicalId) return putTemplate(properties, name, context, 'update');
    const made = putTemplate(properties, name, context, 'create');
    context.cloud.ses.deleteTemplate(previous.physicalId, context.region);
    return made;
  },
  delete(record, context) {
    context.cloud.ses.deleteTemplate(record.physicalId, context.region);
  },
};

/** AWS::SES::ConfigurationSet: a set sends may name; Ref is its name. Event destinations are not emulated. */
export const sesConfigurationSetProvider: ResourceProvider = {
  replaceOn: ['Name'],
  create(properties, context) {
    const name = typeof properties.Name === 'string' ? properties.Name : generatedName(context.stackName, context.logicalId);
    context.cloud.ses.createConfigurationSet(name, context.region);
    return { physicalId: name };
  },
  delete(record, context) {
    context.cloud.ses.deleteConfigurationSet(record.physicalId, context.region);
  },
};
