import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import { readJson, writeJsonAtomic } from '../state/files';

export type IdentityType = 'EmailAddress' | 'Domain';

export interface Identity {
  type: IdentityType;
  /** The TXT record value VerifyDomainIdentity hands out (domains only). */
  verificationToken?: string;
  /** The three DKIM tokens SES v2 hands out for a domain. */
  dkimTokens?: string[];
  createdAt: number;
  tags?: { Key: string; Value: string }[];
}

/** A template as SES v1 names its parts; SES v2 reads and writes the same templates. */
export interface EmailTemplate {
  TemplateName: string;
  SubjectPart?: string;
  TextPart?: string;
  HtmlPart?: string;
  CreatedTimestamp: string;
}

export interface ConfigurationSet {
  Name: string;
  CreatedTimestamp: string;
}

interface SesState {
  /** Per region, identity → its record: SES keeps identities per region. */
  identities: Record<string, Record<string, Identity>>;
  templates: Record<string, Record<string, EmailTemplate>>;
  configurationSets: Record<string, Record<string, ConfigurationSet>>;
}

/** An email address (the part in angle brackets of `Name <a@b.c>`), or the text itself. */
export function addressOf(mailbox: string): string {
  return /<([^<>]+)>\s*$/.exec(mailbox)?.[1].trim() ?? mailbox.trim();
}

/** An identity with an `@` is an email address, anything else a domain. */
export function identityType(name: string): IdentityType {
  return name.includes('@') ? 'EmailAddress' : 'Domain';
}

/** 44 characters of base64, the shape of SES's domain verification tokens. */
const token = () => randomBytes(33).toString('base64');

/**
 * SES's identities, templates and configuration sets, per region, in `<dataDir>/state/ses.json`.
 * An identity is verified as soon as it is added: the local cloud has no mailbox to click a link in
 * and no DNS to look a TXT record up in (docs/guides/local-cloud.md, "SES").
 */
export class SesStore {
  private readonly file: string;
  private readonly state: SesState;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'ses.json');
    this.state = { identities: {}, templates: {}, configurationSets: {}, ...readJson<Partial<SesState>>(this.file, {}) };
  }

  private save(): void {
    writeJsonAtomic(this.file, this.state);
  }

  private regionOf<T>(table: Record<string, Record<string, T>>, region: string): Record<string, T> {
    return (table[region] ??= {});
  }

  identities(region: string): [string, Identity][] {
    return Object.entries(this.state.identities[region] ?? {});
  }

  identity(name: string, region: string): Identity | undefined {
    return this.state.identities[region]?.[name];
  }

  /** Adds (or keeps) an identity; a domain gets its verification token and DKIM tokens. */
  addIdentity(name: string, type: IdentityType, region: string, tags?: Identity['tags']): Identity {
    const identities = this.regionOf(this.state.identities, region);
    const existing = identities[name];
    if (existing) return existing;
    const identity: Identity = { type, createdAt: Date.now(), ...(type === 'Domain' ? { verificationToken: token(), dkimTokens: [0, 1, 2].map(() => randomBytes(16).toString('hex')) } : {}), ...(tags ? { tags } : {}) };
    identities[name] = identity;
    this.save();
    return identity;
  }

  deleteIdentity(name: string, region: string): boolean {
    const identities = this.state.identities[region];
    if (!identities?.[name]) return false;
    delete identities[name];
    this.save();
    return true;
  }

  /** Whether mail may be sent from this address: it, or its domain, is a verified identity of the region. */
  isVerifiedSender(mailbox: string, region: string): boolean {
    const address = addressOf(mailbox);
    const domain = address.split('@').pop()!.toLowerCase();
    const identities = this.state.identities[region] ?? {};
    return identities[address] !== undefined || Object.entries(identities).some(([name, identity]) => identity.type === 'Domain' && name.toLowerCase() === domain);
  }

  templates(region: string): EmailTemplate[] {
    return Object.values(this.state.templates[region] ?? {});
  }

  template(name: string, region: string): EmailTemplate {
    const template = this.state.templates[region]?.[name];
    if (!template) throw new AwsError('TemplateDoesNotExist', `Template ${name} does not exist.`);
    return template;
  }

  hasTemplate(name: string, region: string): boolean {
    return this.state.templates[region]?.[name] !== undefined;
  }

  /** Creates a template, or replaces one when `replace` (UpdateTemplate, a stack's update). */
  putTemplate(template: Omit<EmailTemplate, 'CreatedTimestamp'>, region: string, mode: 'create' | 'update'): EmailTemplate {
    const templates = this.regionOf(this.state.templates, region);
    const existing = templates[template.TemplateName];
    if (mode === 'create' && existing) throw new AwsError('AlreadyExists', `Template ${template.TemplateName} already exists.`);
    if (mode === 'update' && !existing) throw new AwsError('TemplateDoesNotExist', `Template ${template.TemplateName} does not exist.`);
    const stored: EmailTemplate = { ...template, CreatedTimestamp: existing?.CreatedTimestamp ?? new Date().toISOString() };
    templates[template.TemplateName] = stored;
    this.save();
    return stored;
  }

  deleteTemplate(name: string, region: string): boolean {
    const templates = this.state.templates[region];
    if (!templates?.[name]) return false;
    delete templates[name];
    this.save();
    return true;
  }

  configurationSets(region: string): ConfigurationSet[] {
    return Object.values(this.state.configurationSets[region] ?? {});
  }

  configurationSet(name: string, region: string): ConfigurationSet | undefined {
    return this.state.configurationSets[region]?.[name];
  }

  createConfigurationSet(name: string, region: string): ConfigurationSet {
    const sets = this.regionOf(this.state.configurationSets, region);
    if (sets[name]) throw new AwsError('ConfigurationSetAlreadyExists', `Configuration set <${name}> already exists.`);
    sets[name] = { Name: name, CreatedTimestamp: new Date().toISOString() };
    this.save();
    return sets[name];
  }

  deleteConfigurationSet(name: string, region: string): boolean {
    const sets = this.state.configurationSets[region];
    if (!sets?.[name]) return false;
    delete sets[name];
    this.save();
    return true;
  }
}
