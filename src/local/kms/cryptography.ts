import { constants, createCipheriv, createDecipheriv, createPrivateKey, createPublicKey, privateDecrypt, publicEncrypt, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import type { KmsKey } from './keys';

/**
 * A symmetric ciphertext blob: a version byte, the key id (36 ASCII characters, so Decrypt needs no
 * KeyId, as with AWS's blobs), then AES-256-GCM's 12-byte IV, 16-byte tag and the ciphertext. The
 * encryption context, canonicalized, is the additional authenticated data: Decrypt with another
 * context fails authentication, which KMS answers with InvalidCiphertextException.
 */
const VERSION = 1;
const KEY_ID_LENGTH = 36;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;

export type EncryptionContext = Record<string, string>;

export const invalidCiphertext = () => new AwsError('InvalidCiphertextException', '');

function additionalData(context: EncryptionContext | undefined): Buffer {
  const entries = Object.entries(context ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Buffer.from(JSON.stringify(entries));
}

export function encryptSymmetric(key: KmsKey, plaintext: Buffer, context: EncryptionContext | undefined): Buffer {
  const iv = randomBytes(IV_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key.Material, 'base64'), iv);
  cipher.setAAD(additionalData(context));
  const encrypted = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), Buffer.from(key.KeyId, 'ascii'), iv, cipher.getAuthTag(), encrypted]);
}

/** The key id a symmetric blob names, or undefined when the blob is not one of ours. */
export function blobKeyId(blob: Buffer): string | undefined {
  if (blob.length < 1 + KEY_ID_LENGTH + IV_LENGTH + TAG_LENGTH || blob[0] !== VERSION) return undefined;
  return blob.subarray(1, 1 + KEY_ID_LENGTH).toString('ascii');
}

export function decryptSymmetric(key: KmsKey, blob: Buffer, context: EncryptionContext | undefined): Buffer {
  const start = 1 + KEY_ID_LENGTH;
  const iv = blob.subarray(start, start + IV_LENGTH);
  const tag = blob.subarray(start + IV_LENGTH, start + IV_LENGTH + TAG_LENGTH);
  try {
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key.Material, 'base64'), iv);
    decipher.setAAD(additionalData(context));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(blob.subarray(start + IV_LENGTH + TAG_LENGTH)), decipher.final()]);
  } catch {
    throw invalidCiphertext();
  }
}

const privateKeyOf = (key: KmsKey): KeyObject => createPrivateKey(key.Material);
export const publicKeyOf = (key: KmsKey): Buffer => createPublicKey(privateKeyOf(key)).export({ type: 'spki', format: 'der' });

/** RSA keys for ENCRYPT_DECRYPT: the OAEP algorithms KMS offers. */
export const RSA_ENCRYPTION_ALGORITHMS: Record<string, string> = { RSAES_OAEP_SHA_1: 'sha1', RSAES_OAEP_SHA_256: 'sha256' };

export function encryptRsa(key: KmsKey, plaintext: Buffer, algorithm: string): Buffer {
  return publicEncrypt({ key: createPublicKey(privateKeyOf(key)), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: RSA_ENCRYPTION_ALGORITHMS[algorithm] }, plaintext);
}

export function decryptRsa(key: KmsKey, blob: Buffer, algorithm: string): Buffer {
  try {
    return privateDecrypt({ key: privateKeyOf(key), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: RSA_ENCRYPTION_ALGORITHMS[algorithm] }, blob);
  } catch {
    throw invalidCiphertext();
  }
}

/** The signing algorithms a key spec offers, as DescribeKey lists them. */
export function signingAlgorithms(spec: string): string[] {
  if (spec.startsWith('RSA_')) return ['RSASSA_PKCS1_V1_5_SHA_256', 'RSASSA_PKCS1_V1_5_SHA_384', 'RSASSA_PKCS1_V1_5_SHA_512', 'RSASSA_PSS_SHA_256', 'RSASSA_PSS_SHA_384', 'RSASSA_PSS_SHA_512'];
  if (spec === 'ECC_NIST_P384') return ['ECDSA_SHA_384'];
  if (spec === 'ECC_NIST_P521') return ['ECDSA_SHA_512'];
  return ['ECDSA_SHA_256'];
}

function signingOptions(key: KmsKey, algorithm: string) {
  if (!signingAlgorithms(key.KeySpec).includes(algorithm)) {
    throw new AwsError('InvalidKeyUsageException', `Algorithm ${algorithm} is incompatible with key spec ${key.KeySpec}.`);
  }
  const hash = `sha${algorithm.slice(-3)}`;
  const padding = algorithm.startsWith('RSASSA_PSS') ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } : {};
  return { hash, padding };
}

export function signMessage(key: KmsKey, message: Buffer, algorithm: string): Buffer {
  const { hash, padding } = signingOptions(key, algorithm);
  return sign(hash, message, { key: privateKeyOf(key), ...padding });
}

export function verifyMessage(key: KmsKey, message: Buffer, signature: Buffer, algorithm: string): boolean {
  const { hash, padding } = signingOptions(key, algorithm);
  return verify(hash, message, { key: createPublicKey(privateKeyOf(key)), ...padding }, signature);
}
