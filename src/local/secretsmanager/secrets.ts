import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import { readJson, writeJsonAtomic } from '../state/files';

export interface SecretVersion {
  VersionId: string;
  SecretString?: string;
  /** Base64, as the JSON protocol carries a blob. */
  SecretBinary?: string;
  CreatedDate: number;
  VersionStages: string[];
}

export interface Secret {
  ARN: string;
  Name: string;
  Description?: string;
  KmsKeyId?: string;
  Tags: { Key: string; Value: string }[];
  CreatedDate: number;
  LastChangedDate: number;
  /** When DeleteSecret was called; absent while the secret is live. */
  DeletedDate?: number;
  /** When a secret marked for deletion is removed for good. */
  DeletionDate?: number;
  Versions: SecretVersion[];
  /** PutResourcePolicy's JSON, as given. */
  ResourcePolicy?: string;
}

export interface SecretValue {
  SecretString?: string;
  SecretBinary?: string;
}

const CURRENT = 'AWSCURRENT';
const PREVIOUS = 'AWSPREVIOUS';
const SUFFIX_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export const notFound = () => new AwsError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
const markedForDeletion = () => new AwsError('InvalidRequestException', "You can't perform this operation on the secret because it was marked for deletion.");

/** The six random characters AWS appends to a secret's name in its ARN. */
function arnSuffix(): string {
  return [...randomBytes(6)].map((byte) => SUFFIX_ALPHABET[byte % SUFFIX_ALPHABET.length]).join('');
}

const now = () => Date.now() / 1000;

/** Secrets Manager's secrets and their versions, persisted in `<dataDir>/state/secretsmanager.json`. */
export class SecretStore {
  private readonly file: string;
  /** Keyed by ARN: a name is unique per region, which the ARN holds. */
  private readonly secrets: Record<string, Secret>;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'secretsmanager.json');
    this.secrets = readJson<Record<string, Secret>>(this.file, {});
  }

  private save(): void {
    writeJsonAtomic(this.file, this.secrets);
  }

  /** A secret by name, full ARN, or ARN without its random suffix, in a region; a secret past its deletion date is gone. */
  find(id: string, region: string): Secret | undefined {
    const secret = Object.values(this.secrets).find((candidate) => {
      if (candidate.ARN === id) return true;
      if (candidate.ARN.split(':')[3] !== region) return false;
      return candidate.Name === id || candidate.ARN.slice(0, -7) === id;
    });
    if (secret?.DeletionDate !== undefined && secret.DeletionDate <= now()) {
      delete this.secrets[secret.ARN];
      this.save();
      return undefined;
    }
    return secret;
  }

  /** A secret not marked for deletion: what reads and writes of a value need. */
  live(id: string, region: string): Secret {
    const secret = this.get(id, region);
    if (secret.DeletedDate !== undefined) throw markedForDeletion();
    return secret;
  }

  get(id: string, region: string): Secret {
    const secret = this.find(id, region);
    if (!secret) throw notFound();
    return secret;
  }

  list(region: string): Secret[] {
    return Object.values(this.secrets)
      .map((secret) => this.find(secret.ARN, region))
      .filter((secret): secret is Secret => secret !== undefined && secret.ARN.split(':')[3] === region);
  }

  create(input: { Name: string; Description?: string; KmsKeyId?: string; Tags?: { Key: string; Value: string }[]; value?: SecretValue; versionId?: string }, region: string, accountId: string): Secret {
    const existing = this.find(input.Name, region);
    if (existing?.DeletedDate !== undefined) throw new AwsError('InvalidRequestException', "You can't create this secret because a secret with this name is already scheduled for deletion.");
    if (existing) throw new AwsError('ResourceExistsException', `The operation failed because the secret ${input.Name} already exists.`);
    const created = now();
    const secret: Secret = {
      ARN: `arn:aws:secretsmanager:${region}:${accountId}:secret:${input.Name}-${arnSuffix()}`,
      Name: input.Name,
      Description: input.Description,
      KmsKeyId: input.KmsKeyId,
      Tags: input.Tags ?? [],
      CreatedDate: created,
      LastChangedDate: created,
      Versions: [],
    };
    if (input.value) addVersion(secret, input.value, input.versionId);
    this.secrets[secret.ARN] = secret;
    this.save();
    return secret;
  }

  /** A new version that becomes AWSCURRENT (or takes the stages given); the version it replaces becomes AWSPREVIOUS. */
  putValue(secret: Secret, value: SecretValue, versionId?: string, stages?: string[]): SecretVersion {
    const version = addVersion(secret, value, versionId, stages);
    this.save();
    return version;
  }

  update(secret: Secret, changes: { Description?: string; KmsKeyId?: string }): void {
    if (changes.Description !== undefined) secret.Description = changes.Description;
    if (changes.KmsKeyId !== undefined) secret.KmsKeyId = changes.KmsKeyId;
    secret.LastChangedDate = now();
    this.save();
  }

  /** TagResource and UntagResource: a key set again keeps its place, new keys go last. */
  retag(secret: Secret, set: Record<string, string>, removed: string[]): void {
    const tags = secret.Tags.filter((tag) => !removed.includes(tag.Key)).map((tag) => (tag.Key in set ? { Key: tag.Key, Value: set[tag.Key] } : tag));
    for (const [Key, Value] of Object.entries(set)) if (!tags.some((tag) => tag.Key === Key)) tags.push({ Key, Value });
    secret.Tags = tags;
    this.save();
  }

  /** PutResourcePolicy, or DeleteResourcePolicy with undefined. */
  setPolicy(secret: Secret, policy: string | undefined): void {
    if (policy === undefined) delete secret.ResourcePolicy;
    else secret.ResourcePolicy = policy;
    this.save();
  }

  /** Marks for deletion in `recoveryWindowInDays`, or removes the secret now when that is 0. */
  delete(secret: Secret, recoveryWindowInDays: number): number {
    const deleted = now();
    if (recoveryWindowInDays === 0) {
      delete this.secrets[secret.ARN];
    } else {
      secret.DeletedDate = deleted;
      secret.DeletionDate = deleted + recoveryWindowInDays * 86_400;
    }
    this.save();
    return recoveryWindowInDays === 0 ? deleted : (secret.DeletionDate as number);
  }

  restore(secret: Secret): void {
    delete secret.DeletedDate;
    delete secret.DeletionDate;
    this.save();
  }
}

function addVersion(secret: Secret, value: SecretValue, versionId: string = randomUUID(), stages = [CURRENT]): SecretVersion {
  const same = secret.Versions.find((version) => version.VersionId === versionId);
  if (same) {
    // A retried request with the same token is answered with the version it made.
    if (same.SecretString === value.SecretString && same.SecretBinary === value.SecretBinary) return same;
    throw new AwsError('ResourceExistsException', "You can't modify an existing version, you can only create new versions.");
  }
  if (stages.includes(CURRENT)) {
    const current = secret.Versions.find((version) => version.VersionStages.includes(CURRENT));
    for (const version of secret.Versions) version.VersionStages = version.VersionStages.filter((stage) => stage !== PREVIOUS);
    if (current) current.VersionStages = [...current.VersionStages.filter((stage) => stage !== CURRENT), PREVIOUS];
  }
  for (const version of secret.Versions) version.VersionStages = version.VersionStages.filter((stage) => stage === CURRENT || stage === PREVIOUS || !stages.includes(stage));
  const version: SecretVersion = { VersionId: versionId, ...value, CreatedDate: now(), VersionStages: [...stages] };
  secret.Versions.push(version);
  secret.LastChangedDate = version.CreatedDate;
  return version;
}

/** The version a read asks for: by id, by stage, else AWSCURRENT. */
export function versionOf(secret: Secret, versionId?: string, stage?: string): SecretVersion {
  if (versionId !== undefined) {
    const version = secret.Versions.find((candidate) => candidate.VersionId === versionId);
    if (!version) throw new AwsError('ResourceNotFoundException', `Secrets Manager can't find the specified secret value for VersionId: ${versionId}`);
    if (stage === undefined || version.VersionStages.includes(stage)) return version;
  }
  const label = stage ?? CURRENT;
  const version = versionId === undefined ? secret.Versions.find((candidate) => candidate.VersionStages.includes(label)) : undefined;
  if (!version) throw new AwsError('ResourceNotFoundException', `Secrets Manager can't find the specified secret value for staging label: ${label}`);
  return version;
}

export interface PasswordOptions {
  PasswordLength?: number;
  ExcludeCharacters?: string;
  ExcludeNumbers?: boolean;
  ExcludePunctuation?: boolean;
  ExcludeUppercase?: boolean;
  ExcludeLowercase?: boolean;
  IncludeSpace?: boolean;
  RequireEachIncludedType?: boolean;
}

export const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/**
 * A password as GetRandomPassword makes one: 32 characters unless told, from upper- and
 * lower-case letters, digits and punctuation (space only when asked), each included type
 * at least once unless RequireEachIncludedType is false.
 */
export function randomPassword(options: PasswordOptions): string {
  const length = options.PasswordLength ?? 32;
  if (!Number.isInteger(length) || length < 1 || length > 4096) {
    throw new AwsError('InvalidParameterException', 'Password length must be between 1 and 4096.');
  }
  const excluded = new Set(options.ExcludeCharacters ?? '');
  const classes = [
    options.ExcludeUppercase ? '' : 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    options.ExcludeLowercase ? '' : 'abcdefghijklmnopqrstuvwxyz',
    options.ExcludeNumbers ? '' : '0123456789',
    options.ExcludePunctuation ? '' : PUNCTUATION,
    options.IncludeSpace ? ' ' : '',
  ]
    .map((characters) => [...characters].filter((character) => !excluded.has(character)).join(''))
    .filter((characters) => characters.length > 0);
  if (classes.length === 0) throw new AwsError('InvalidParameterException', 'The password cannot be generated: every character type was excluded.');
  const all = classes.join('');
  const pick = (characters: string) => characters[randomInt(characters.length)];
  const required = options.RequireEachIncludedType === false ? [] : classes.map(pick);
  if (required.length > length) throw new AwsError('InvalidParameterException', `A password of ${length} characters cannot hold one character of each of the ${required.length} included types.`);
  const characters = [...required, ...Array.from({ length: length - required.length }, () => pick(all))];
  // Fisher–Yates, so the required characters are not always first.
  for (let index = characters.length - 1; index > 0; index--) {
    const other = randomInt(index + 1);
    [characters[index], characters[other]] = [characters[other], characters[index]];
  }
  return characters.join('');
}
