import { randomBytes } from 'node:crypto';
import { jsonResponse, type LocalResponse } from '../http';
import { AwsError } from '../protocol/errors';
import {
  blobKeyId,
  decryptRsa,
  decryptSymmetric,
  encryptRsa,
  encryptSymmetric,
  invalidCiphertext,
  publicKeyOf,
  RSA_ENCRYPTION_ALGORITHMS,
  signingAlgorithms,
  signMessage,
  verifyMessage,
  type EncryptionContext,
} from './cryptography';
import { invalidState, type KeyStore, type KmsKey } from './keys';
import { lowerCamel } from '../protocol/member-names';

const JSON_11 = 'application/x-amz-json-1.1';
const respond = (body: Record<string, unknown>) => jsonResponse(body, 200, JSON_11);

const validation = (message: string) => new AwsError('ValidationException', message);

/** `1 validation error detected: …` for a member, named as KMS names it (camelCase). */
function constraint(member: string, value: unknown, rule: string): AwsError {
  const name = lowerCamel(member);
  return validation(`1 validation error detected: Value ${value === undefined ? 'null' : `'${String(value)}'`} at '${name}' failed to satisfy constraint: ${rule}`);
}

function requiredString(input: Record<string, unknown>, member: string): string {
  const value = input[member];
  if (typeof value !== 'string' || value === '') throw constraint(member, undefined, 'Member must not be null');
  return value;
}

/** A blob member (base64 in the JSON protocol) of 1 to `max` bytes. */
function blob(input: Record<string, unknown>, member: string, max: number): Buffer {
  const value = input[member];
  if (value === undefined) throw constraint(member, undefined, 'Member must not be null');
  if (typeof value !== 'string') throw new AwsError('SerializationException', `${member} must be a base64 string`);
  const bytes = Buffer.from(value, 'base64');
  const name = lowerCamel(member);
  if (bytes.length === 0) throw validation(`1 validation error detected: Value at '${name}' failed to satisfy constraint: Member must have length greater than or equal to 1`);
  if (bytes.length > max) throw validation(`1 validation error detected: Value at '${name}' failed to satisfy constraint: Member must have length less than or equal to ${max}`);
  return bytes;
}

function context(input: Record<string, unknown>, member: string): EncryptionContext | undefined {
  const value = input[member];
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((item) => typeof item !== 'string')) {
    throw new AwsError('SerializationException', `${member} must be a map of strings`);
  }
  return value as EncryptionContext;
}

function integerMember(input: Record<string, unknown>, member: string, max: number): number | undefined {
  const value = input[member];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new AwsError('SerializationException', `${member} must be an integer`);
  if (value < 1) throw constraint(member, value, 'Member must have value greater than or equal to 1');
  if (value > max) throw constraint(member, value, `Member must have value less than or equal to ${max}`);
  return value;
}

/** A key's metadata, as CreateKey and DescribeKey return it. */
export function keyMetadata(key: KmsKey, accountId: string): Record<string, unknown> {
  const encrypts = key.KeyUsage === 'ENCRYPT_DECRYPT';
  return {
    AWSAccountId: accountId,
    KeyId: key.KeyId,
    Arn: key.Arn,
    CreationDate: key.CreationDate,
    Enabled: key.KeyState === 'Enabled',
    Description: key.Description,
    KeyUsage: key.KeyUsage,
    KeyState: key.KeyState,
    DeletionDate: key.DeletionDate,
    PendingDeletionWindowInDays: key.PendingDeletionWindowInDays,
    Origin: 'AWS_KMS',
    KeyManager: key.KeyManager,
    CustomerMasterKeySpec: key.KeySpec,
    KeySpec: key.KeySpec,
    ...(encrypts ? { EncryptionAlgorithms: key.KeySpec === 'SYMMETRIC_DEFAULT' ? ['SYMMETRIC_DEFAULT'] : Object.keys(RSA_ENCRYPTION_ALGORITHMS) } : { SigningAlgorithms: signingAlgorithms(key.KeySpec) }),
    MultiRegion: false,
  };
}

/** Encryption under a key: AES-256-GCM for a symmetric key, RSA OAEP for an RSA ENCRYPT_DECRYPT key. */
function encrypt(key: KmsKey, plaintext: Buffer, encryptionContext: EncryptionContext | undefined, algorithm = 'SYMMETRIC_DEFAULT'): Buffer {
  if (key.KeyUsage !== 'ENCRYPT_DECRYPT') throw new AwsError('InvalidKeyUsageException', `${key.Arn} key usage is ${key.KeyUsage} which is not valid for Encrypt.`);
  if (key.KeySpec === 'SYMMETRIC_DEFAULT') {
    if (algorithm !== 'SYMMETRIC_DEFAULT') throw new AwsError('InvalidKeyUsageException', `Algorithm ${algorithm} is incompatible with key spec ${key.KeySpec}.`);
    return encryptSymmetric(key, plaintext, encryptionContext);
  }
  if (!RSA_ENCRYPTION_ALGORITHMS[algorithm]) throw new AwsError('InvalidKeyUsageException', `Algorithm ${algorithm} is incompatible with key spec ${key.KeySpec}.`);
  return encryptRsa(key, plaintext, algorithm);
}

/**
 * The key and plaintext of a ciphertext: a symmetric blob names its key, so KeyId is optional
 * (when given it must be that key: IncorrectKeyException); an RSA ciphertext needs KeyId.
 */
function decrypt(keys: KeyStore, region: string, blobBytes: Buffer, keyId: string | undefined, encryptionContext: EncryptionContext | undefined, algorithm = 'SYMMETRIC_DEFAULT'): { key: KmsKey; plaintext: Buffer } {
  const named = keyId === undefined ? undefined : keys.resolve(keyId, region);
  if (named && named.KeySpec !== 'SYMMETRIC_DEFAULT') {
    keys.usable(named);
    if (!RSA_ENCRYPTION_ALGORITHMS[algorithm]) throw new AwsError('InvalidKeyUsageException', `Algorithm ${algorithm} is incompatible with key spec ${named.KeySpec}.`);
    return { key: named, plaintext: decryptRsa(named, blobBytes, algorithm) };
  }
  const id = blobKeyId(blobBytes);
  if (id === undefined) throw invalidCiphertext();
  let key: KmsKey;
  try {
    key = keys.resolve(id, region);
  } catch {
    throw invalidCiphertext();
  }
  if (named && named.KeyId !== key.KeyId) throw new AwsError('IncorrectKeyException', 'The key ID in the request does not identify a CMK that can perform this operation.');
  keys.usable(key);
  return { key, plaintext: decryptSymmetric(key, blobBytes, encryptionContext) };
}

/** GenerateDataKey's size: KeySpec (AES_128, AES_256) or NumberOfBytes, exactly one. */
function dataKeyLength(input: Record<string, unknown>): number {
  const bytes = integerMember(input, 'NumberOfBytes', 1024);
  const spec = input.KeySpec;
  if ((bytes === undefined) === (spec === undefined)) throw validation('Please specify either number of bytes or key spec.');
  if (bytes !== undefined) return bytes;
  if (spec === 'AES_256') return 32;
  if (spec === 'AES_128') return 16;
  throw constraint('KeySpec', spec, 'Member must satisfy enum value set: [AES_256, AES_128]');
}

function page<T>(items: T[], input: Record<string, unknown>): { items: T[]; Truncated: boolean; NextMarker?: string } {
  const limit = integerMember(input, 'Limit', 1000) ?? 100;
  const start = typeof input.Marker === 'string' ? Number(input.Marker) : 0;
  if (!Number.isInteger(start) || start < 0) throw new AwsError('InvalidMarkerException', 'Invalid marker');
  const end = start + limit;
  return { items: items.slice(start, end), Truncated: end < items.length, ...(end < items.length ? { NextMarker: String(end) } : {}) };
}

function checkAliasName(keys: KeyStore, name: string, region: string): void {
  if (!name.startsWith('alias/') || name === 'alias/') throw validation(`Alias must start with the prefix "alias/". Please see https://docs.aws.amazon.com/kms/latest/developerguide/kms-alias.html`);
  if (name.startsWith('alias/aws/')) throw new AwsError('NotAuthorizedException', `Cannot create alias with prefix 'alias/aws/'`);
  if (!/^alias\/[a-zA-Z0-9/_-]+$/.test(name)) throw constraint('AliasName', name, 'Member must satisfy regular expression pattern: ^[a-zA-Z0-9:/_-]+$');
  if (keys.alias(name, region)) throw new AwsError('AlreadyExistsException', `An alias with the name ${keys.aliasArn(region, name)} already exists`);
}

/** The target of an alias: a key (by id or ARN, never another alias) that is not pending deletion. */
function aliasTarget(keys: KeyStore, input: Record<string, unknown>, region: string): KmsKey {
  const target = requiredString(input, 'TargetKeyId');
  if (target.startsWith('alias/') || target.includes(':alias/')) throw validation('Aliases must refer to keys. Not aliases');
  const key = keys.resolve(target, region);
  if (key.KeyState === 'PendingDeletion') throw invalidState(`${key.Arn} is pending deletion.`);
  return key;
}

/** The key policy KMS gives a key made without one: the account may do everything. */
function defaultPolicy(accountId: string): string {
  return JSON.stringify({ Version: '2012-10-17', Id: 'key-default-1', Statement: [{ Sid: 'Enable IAM User Permissions', Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${accountId}:root` }, Action: 'kms:*', Resource: '*' }] });
}

/** The string members the operations read, and the lists of them. */
const STRING_MEMBERS = ['KeyId', 'SourceKeyId', 'DestinationKeyId', 'AliasName', 'TargetKeyId', 'Description', 'KeyUsage', 'KeySpec', 'CustomerMasterKeySpec', 'Policy', 'PolicyName', 'EncryptionAlgorithm', 'SourceEncryptionAlgorithm', 'DestinationEncryptionAlgorithm', 'SigningAlgorithm', 'MessageType', 'Marker'];

/** Members of the wrong type are refused before an operation reads them, as the JSON protocol's deserializer does. */
function checkTypes(input: Record<string, unknown>): void {
  const wrong = (member: string, expected: string) => new AwsError('SerializationException', `${member}: expected ${expected}`);
  for (const member of STRING_MEMBERS) if (input[member] !== undefined && typeof input[member] !== 'string') throw wrong(member, 'a string');
  const tags = input.Tags;
  if (tags !== undefined && (!Array.isArray(tags) || tags.some((tag) => tag === null || typeof tag !== 'object' || typeof tag.TagKey !== 'string' || typeof tag.TagValue !== 'string'))) throw wrong('Tags', 'a list of {TagKey, TagValue} strings');
  const tagKeys = input.TagKeys;
  if (tagKeys !== undefined && (!Array.isArray(tagKeys) || tagKeys.some((key) => typeof key !== 'string'))) throw wrong('TagKeys', 'a list of strings');
}

/** AWS KMS (JSON 1.1, `X-Amz-Target: TrentService.<Operation>`). */
export function kmsApi(keys: KeyStore, operation: string, input: Record<string, unknown>, region: string): LocalResponse {
  const accountId = keys.accountId;
  checkTypes(input);
  switch (operation) {
    case 'CreateKey': {
      const policy = input.Policy === undefined ? undefined : String(input.Policy);
      const key = keys.create({ Description: input.Description as string | undefined, KeyUsage: input.KeyUsage as string | undefined, KeySpec: (input.KeySpec ?? input.CustomerMasterKeySpec) as string | undefined, Policy: policy, Tags: input.Tags as KmsKey['Tags'] | undefined }, region);
      return respond({ KeyMetadata: keyMetadata(key, accountId) });
    }
    case 'DescribeKey':
      return respond({ KeyMetadata: keyMetadata(keys.resolve(requiredString(input, 'KeyId'), region), accountId) });
    case 'ListKeys': {
      const { items, ...rest } = page(keys.keys(region), input);
      return respond({ Keys: items.map((key) => ({ KeyId: key.KeyId, KeyArn: key.Arn })), ...rest });
    }
    case 'UpdateKeyDescription': {
      const key = keys.resolve(requiredString(input, 'KeyId'), region);
      key.Description = String(input.Description ?? '');
      keys.save();
      return respond({});
    }
    case 'GetKeyPolicy': {
      const key = keys.resolve(requiredString(input, 'KeyId'), region);
      return respond({ Policy: key.Policy ?? defaultPolicy(accountId), PolicyName: 'default' });
    }
    case 'PutKeyPolicy': {
      const key = keys.resolve(requiredString(input, 'KeyId'), region);
      key.Policy = requiredString(input, 'Policy');
      keys.save();
      return respond({});
    }
    case 'GetKeyRotationStatus':
      keys.resolve(requiredString(input, 'KeyId'), region);
      return respond({ KeyRotationEnabled: false });
    case 'TagResource': {
      const key = keys.resolve(requiredString(input, 'KeyId'), region);
      for (const tag of (input.Tags as KmsKey['Tags'] | undefined) ?? []) key.Tags = [...key.Tags.filter((existing) => existing.TagKey !== tag.TagKey), tag];
      keys.save();
      return respond({});
    }
    case 'UntagResource': {
      const key = keys.resolve(requiredString(input, 'KeyId'), region);
      const removed = new Set((input.TagKeys as string[] | undefined) ?? []);
      key.Tags = key.Tags.filter((tag) => !removed.has(tag.TagKey));
      keys.save();
      return respond({});
    }
    case 'ListResourceTags':
      return respond({ Tags: keys.resolve(requiredString(input, 'KeyId'), region).Tags, Truncated: false });
    case 'EnableKey':
    case 'DisableKey': {
      const key = keys.resolve(requiredString(input, 'KeyId'), region);
      if (key.KeyState === 'PendingDeletion') throw invalidState(`${key.Arn} is pending deletion.`);
      keys.setState(key, operation === 'EnableKey' ? 'Enabled' : 'Disabled');
      return respond({});
    }
    case 'ScheduleKeyDeletion': {
      const key = keys.resolve(requiredString(input, 'KeyId'), region);
      const days = integerMember(input, 'PendingWindowInDays', 30) ?? 30;
      if (days < 7) throw constraint('PendingWindowInDays', days, 'Member must have value greater than or equal to 7');
      if (key.KeyState === 'PendingDeletion') throw invalidState(`${key.Arn} is pending deletion.`);
      const date = Math.floor(Date.now() / 1000) + days * 86_400;
      keys.setState(key, 'PendingDeletion', { date, days });
      return respond({ KeyId: key.Arn, DeletionDate: date, KeyState: 'PendingDeletion', PendingWindowInDays: days });
    }
    case 'CancelKeyDeletion': {
      const key = keys.resolve(requiredString(input, 'KeyId'), region);
      if (key.KeyState !== 'PendingDeletion') throw invalidState(`${key.Arn} is not pending deletion.`);
      // A key whose deletion is cancelled is disabled, as KMS leaves it.
      keys.setState(key, 'Disabled');
      return respond({ KeyId: key.Arn });
    }
    case 'CreateAlias': {
      const name = requiredString(input, 'AliasName');
      checkAliasName(keys, name, region);
      keys.createAlias(name, aliasTarget(keys, input, region), region);
      return respond({});
    }
    case 'UpdateAlias': {
      const name = requiredString(input, 'AliasName');
      const alias = keys.alias(name, region);
      if (!alias) throw new AwsError('NotFoundException', `Alias ${keys.aliasArn(region, name)} is not found.`);
      keys.retarget(alias, aliasTarget(keys, input, region));
      return respond({});
    }
    case 'DeleteAlias': {
      const name = requiredString(input, 'AliasName');
      if (!keys.deleteAlias(name, region)) throw new AwsError('NotFoundException', `Alias ${keys.aliasArn(region, name)} is not found.`);
      return respond({});
    }
    case 'ListAliases': {
      const keyId = input.KeyId === undefined ? undefined : keys.resolve(String(input.KeyId), region).KeyId;
      const { items, ...rest } = page(keys.aliases(region).filter((alias) => keyId === undefined || alias.TargetKeyId === keyId), input);
      return respond({ Aliases: items, ...rest });
    }
    case 'Encrypt': {
      const key = keys.usable(keys.resolve(requiredString(input, 'KeyId'), region));
      const algorithm = (input.EncryptionAlgorithm as string | undefined) ?? 'SYMMETRIC_DEFAULT';
      const ciphertext = encrypt(key, blob(input, 'Plaintext', 4096), context(input, 'EncryptionContext'), algorithm);
      return respond({ CiphertextBlob: ciphertext.toString('base64'), KeyId: key.Arn, EncryptionAlgorithm: algorithm });
    }
    case 'Decrypt': {
      const algorithm = (input.EncryptionAlgorithm as string | undefined) ?? 'SYMMETRIC_DEFAULT';
      const { key, plaintext } = decrypt(keys, region, blob(input, 'CiphertextBlob', 6144), input.KeyId as string | undefined, context(input, 'EncryptionContext'), algorithm);
      return respond({ KeyId: key.Arn, Plaintext: plaintext.toString('base64'), EncryptionAlgorithm: algorithm });
    }
    case 'ReEncrypt': {
      const sourceAlgorithm = (input.SourceEncryptionAlgorithm as string | undefined) ?? 'SYMMETRIC_DEFAULT';
      const destinationAlgorithm = (input.DestinationEncryptionAlgorithm as string | undefined) ?? 'SYMMETRIC_DEFAULT';
      const source = decrypt(keys, region, blob(input, 'CiphertextBlob', 6144), input.SourceKeyId as string | undefined, context(input, 'SourceEncryptionContext'), sourceAlgorithm);
      const destination = keys.usable(keys.resolve(requiredString(input, 'DestinationKeyId'), region));
      const ciphertext = encrypt(destination, source.plaintext, context(input, 'DestinationEncryptionContext'), destinationAlgorithm);
      return respond({ CiphertextBlob: ciphertext.toString('base64'), SourceKeyId: source.key.Arn, KeyId: destination.Arn, SourceEncryptionAlgorithm: sourceAlgorithm, DestinationEncryptionAlgorithm: destinationAlgorithm });
    }
    case 'GenerateDataKey':
    case 'GenerateDataKeyWithoutPlaintext': {
      const key = keys.usable(keys.resolve(requiredString(input, 'KeyId'), region));
      if (key.KeySpec !== 'SYMMETRIC_DEFAULT') throw new AwsError('InvalidKeyUsageException', `${key.Arn} key usage is ${key.KeyUsage} with key spec ${key.KeySpec}, which is not valid for ${operation}.`);
      const plaintext = randomBytes(dataKeyLength(input));
      const ciphertext = encryptSymmetric(key, plaintext, context(input, 'EncryptionContext'));
      return respond({ CiphertextBlob: ciphertext.toString('base64'), ...(operation === 'GenerateDataKey' ? { Plaintext: plaintext.toString('base64') } : {}), KeyId: key.Arn });
    }
    case 'GenerateRandom': {
      const bytes = integerMember(input, 'NumberOfBytes', 1024);
      if (bytes === undefined) throw constraint('NumberOfBytes', undefined, 'Member must not be null');
      return respond({ Plaintext: randomBytes(bytes).toString('base64') });
    }
    case 'GetPublicKey': {
      const key = keys.resolve(requiredString(input, 'KeyId'), region);
      if (key.KeySpec === 'SYMMETRIC_DEFAULT') throw new AwsError('UnsupportedOperationException', `${key.Arn} key usage is ENCRYPT_DECRYPT with key spec SYMMETRIC_DEFAULT, which has no public key.`);
      const { KeySpec, KeyUsage, EncryptionAlgorithms, SigningAlgorithms } = keyMetadata(key, accountId);
      return respond({ KeyId: key.Arn, PublicKey: publicKeyOf(key).toString('base64'), KeySpec, CustomerMasterKeySpec: KeySpec, KeyUsage, EncryptionAlgorithms, SigningAlgorithms });
    }
    case 'Sign':
    case 'Verify': {
      const key = keys.usable(keys.resolve(requiredString(input, 'KeyId'), region));
      if (key.KeyUsage !== 'SIGN_VERIFY') throw new AwsError('InvalidKeyUsageException', `${key.Arn} key usage is ${key.KeyUsage} which is not valid for ${operation}.`);
      const algorithm = requiredString(input, 'SigningAlgorithm');
      if ((input.MessageType ?? 'RAW') !== 'RAW') throw new AwsError('UnsupportedOperationException', 'not emulated: KMS MessageType DIGEST (send the RAW message)');
      const message = blob(input, 'Message', 4096);
      if (operation === 'Sign') return respond({ KeyId: key.Arn, Signature: signMessage(key, message, algorithm).toString('base64'), SigningAlgorithm: algorithm });
      if (!verifyMessage(key, message, blob(input, 'Signature', 6144), algorithm)) throw new AwsError('KMSInvalidSignatureException', '');
      return respond({ KeyId: key.Arn, SignatureValid: true, SigningAlgorithm: algorithm });
    }
    default:
      throw new AwsError('UnknownOperationException', `not emulated: KMS ${operation}`);
  }
}
