import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import { readJson, writeJsonAtomic } from '../state/files';

export type KeyState = 'Enabled' | 'Disabled' | 'PendingDeletion';

export interface KmsKey {
  KeyId: string;
  Arn: string;
  Region: string;
  /** Seconds since the epoch, as the JSON protocol carries timestamps. */
  CreationDate: number;
  Description: string;
  KeyUsage: string;
  KeySpec: string;
  KeyState: KeyState;
  KeyManager: 'CUSTOMER' | 'AWS';
  Policy?: string;
  DeletionDate?: number;
  PendingDeletionWindowInDays?: number;
  Tags: { TagKey: string; TagValue: string }[];
  /** The key itself: 32 random bytes (base64) for a symmetric key, a PKCS#8 PEM private key for an asymmetric one. */
  Material: string;
}

export interface KmsAlias {
  AliasName: string;
  AliasArn: string;
  TargetKeyId: string;
  CreationDate: number;
  LastUpdatedDate: number;
}

interface KmsState {
  keys: Record<string, KmsKey>;
  /** Per region, alias name → alias. */
  aliases: Record<string, Record<string, KmsAlias>>;
}

/** The key specs CreateKey accepts, with how node:crypto makes their material. */
const ASYMMETRIC_SPECS: Record<string, () => string> = {
  RSA_2048: () => rsa(2048),
  RSA_3072: () => rsa(3072),
  RSA_4096: () => rsa(4096),
  ECC_NIST_P256: () => ec('prime256v1'),
  ECC_NIST_P384: () => ec('secp384r1'),
  ECC_NIST_P521: () => ec('secp521r1'),
  ECC_SECG_P256K1: () => ec('secp256k1'),
};

const rsa = (modulusLength: number) => generateKeyPairSync('rsa', { modulusLength }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const ec = (namedCurve: string) => generateKeyPairSync('ec', { namedCurve }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

export const KEY_SPECS = ['SYMMETRIC_DEFAULT', ...Object.keys(ASYMMETRIC_SPECS)];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const now = () => Date.now() / 1000;

export const notFoundKey = (arn: string) => new AwsError('NotFoundException', `Key '${arn}' does not exist`);
export const invalidState = (message: string) => new AwsError('KMSInvalidStateException', message);

/**
 * KMS keys (with their key material) and aliases, per region, in `<dataDir>/state/kms.json` (readable
 * by this user only, like every state file). A key scheduled for deletion is removed, aliases and
 * all, once its deletion date has passed.
 */
export class KeyStore {
  private readonly file: string;
  private readonly state: KmsState;

  constructor(dataDir: string, readonly accountId: string) {
    this.file = join(dataDir, 'state', 'kms.json');
    this.state = { keys: {}, aliases: {}, ...readJson<Partial<KmsState>>(this.file, {}) };
  }

  save(): void {
    writeJsonAtomic(this.file, this.state);
  }

  private keyArn(region: string, keyId: string): string {
    return `arn:aws:kms:${region}:${this.accountId}:key/${keyId}`;
  }

  aliasArn(region: string, name: string): string {
    return `arn:aws:kms:${region}:${this.accountId}:${name}`;
  }

  create(input: { Description?: string; KeyUsage?: string; KeySpec?: string; Policy?: string; Tags?: KmsKey['Tags']; KeyManager?: 'CUSTOMER' | 'AWS' }, region: string): KmsKey {
    const spec = input.KeySpec ?? 'SYMMETRIC_DEFAULT';
    const usage = input.KeyUsage ?? 'ENCRYPT_DECRYPT';
    if (!KEY_SPECS.includes(spec)) throw new AwsError('ValidationException', `1 validation error detected: Value '${spec}' at 'keySpec' failed to satisfy constraint: Member must satisfy enum value set: [${KEY_SPECS.join(', ')}]`);
    if (!['ENCRYPT_DECRYPT', 'SIGN_VERIFY'].includes(usage)) throw new AwsError('ValidationException', `1 validation error detected: Value '${usage}' at 'keyUsage' failed to satisfy constraint: Member must satisfy enum value set: [ENCRYPT_DECRYPT, SIGN_VERIFY]`);
    if ((spec === 'SYMMETRIC_DEFAULT') !== (usage === 'ENCRYPT_DECRYPT') && !(spec.startsWith('RSA_') && usage === 'ENCRYPT_DECRYPT')) {
      throw new AwsError('ValidationException', `KeyUsage ${usage} is not compatible with KeySpec ${spec}`);
    }
    const keyId = randomUUID();
    const key: KmsKey = {
      KeyId: keyId,
      Arn: this.keyArn(region, keyId),
      Region: region,
      CreationDate: now(),
      Description: input.Description ?? '',
      KeyUsage: usage,
      KeySpec: spec,
      KeyState: 'Enabled',
      KeyManager: input.KeyManager ?? 'CUSTOMER',
      ...(input.Policy !== undefined ? { Policy: input.Policy } : {}),
      Tags: input.Tags ?? [],
      Material: spec === 'SYMMETRIC_DEFAULT' ? randomBytes(32).toString('base64') : ASYMMETRIC_SPECS[spec](),
    };
    this.state.keys[key.Arn] = key;
    this.save();
    return key;
  }

  /** The live keys of a region, oldest first. */
  keys(region: string): KmsKey[] {
    return Object.values(this.state.keys).filter((key) => key.Region === region && !this.expired(key));
  }

  /** A key by id or ARN; one past its deletion date is gone. */
  private byId(id: string, region: string): KmsKey | undefined {
    const arn = id.startsWith('arn:') ? id : this.keyArn(region, id);
    const key = this.state.keys[arn];
    return key && !this.expired(key) ? key : undefined;
  }

  private expired(key: KmsKey): boolean {
    if (key.DeletionDate === undefined || key.DeletionDate > now()) return false;
    delete this.state.keys[key.Arn];
    const aliases = this.state.aliases[key.Region] ?? {};
    for (const [name, alias] of Object.entries(aliases)) if (alias.TargetKeyId === key.KeyId) delete aliases[name];
    this.save();
    return true;
  }

  /**
   * The key a KeyId names: a key id, a key ARN, an alias name (`alias/…`) or an alias ARN. An
   * AWS managed alias (`alias/aws/s3`, …) gets its key the first time it is named, as AWS makes it
   * the first time a service uses it.
   */
  resolve(keyId: string, region: string): KmsKey {
    const aliasArn = /^arn:aws:kms:([^:]+):\d{12}:(alias\/.+)$/.exec(keyId);
    if (aliasArn || keyId.startsWith('alias/')) {
      const [aliasRegion, name] = aliasArn ? [aliasArn[1], aliasArn[2]] : [region, keyId];
      const alias = this.alias(name, aliasRegion) ?? (name.startsWith('alias/aws/') ? this.managedAlias(name, aliasRegion) : undefined);
      if (!alias) throw new AwsError('NotFoundException', `Alias ${this.aliasArn(aliasRegion, name)} is not found.`);
      return this.resolve(alias.TargetKeyId, aliasRegion);
    }
    const keyArn = /^arn:aws:kms:([^:]+):\d{12}:key\/(.+)$/.exec(keyId);
    const id = keyArn ? keyArn[2] : keyId;
    if (!UUID.test(id)) throw new AwsError('NotFoundException', `Invalid keyId ${keyId}`);
    const key = this.byId(keyArn ? keyId : id, keyArn ? keyArn[1] : region);
    if (!key) throw notFoundKey(keyArn ? keyId : this.keyArn(region, id));
    return key;
  }

  /** A key crypto operations may use: enabled, else DisabledException or KMSInvalidStateException. */
  usable(key: KmsKey): KmsKey {
    if (key.KeyState === 'Disabled') throw new AwsError('DisabledException', `${key.Arn} is disabled.`);
    if (key.KeyState === 'PendingDeletion') throw invalidState(`${key.Arn} is pending deletion.`);
    return key;
  }

  private managedAlias(name: string, region: string): KmsAlias {
    const service = name.slice('alias/aws/'.length);
    const key = this.create({ Description: `Default key that protects my ${service} data when no other key is defined`, KeyManager: 'AWS' }, region);
    return this.createAlias(name, key, region);
  }

  setState(key: KmsKey, state: KeyState, deletion?: { date: number; days: number }): void {
    key.KeyState = state;
    if (deletion) {
      key.DeletionDate = deletion.date;
      key.PendingDeletionWindowInDays = deletion.days;
    } else {
      delete key.DeletionDate;
      delete key.PendingDeletionWindowInDays;
    }
    this.save();
  }

  aliases(region: string): KmsAlias[] {
    this.keys(region);
    return Object.values(this.state.aliases[region] ?? {});
  }

  alias(name: string, region: string): KmsAlias | undefined {
    return this.state.aliases[region]?.[name];
  }

  createAlias(name: string, key: KmsKey, region: string): KmsAlias {
    const created = now();
    const alias: KmsAlias = { AliasName: name, AliasArn: this.aliasArn(region, name), TargetKeyId: key.KeyId, CreationDate: created, LastUpdatedDate: created };
    (this.state.aliases[region] ??= {})[name] = alias;
    this.save();
    return alias;
  }

  retarget(alias: KmsAlias, key: KmsKey): void {
    alias.TargetKeyId = key.KeyId;
    alias.LastUpdatedDate = now();
    this.save();
  }

  deleteAlias(name: string, region: string): boolean {
    const aliases = this.state.aliases[region];
    if (!aliases?.[name]) return false;
    delete aliases[name];
    this.save();
    return true;
  }
}
