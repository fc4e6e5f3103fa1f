import { ALIASES } from './aliases';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AwsError } from '../protocol/errors';
import type { S3Store } from '../s3/store';
import { PRIVATE_DIR, writePrivateFile } from '../state/files';
import { unpackSharing } from './shared-folders';

export interface FunctionCode {
  /** Base64 SHA-256 of the deployment package, as Lambda reports it. */
  sha256: string;
  size: number;
}

/** The function record's attribute holding the size of its deployment package (Lambda's CodeSize). */
export const CODE_SIZE = 'fw:CodeSize';

export function codeDirectory(dataDir: string, sha256: string): string {
  return join(dataDir, 'functions', Buffer.from(sha256, 'base64').toString('hex'));
}

/** How many packages this process has unpacked into a new code folder (one per content, however many functions run it). */
export const unpacked = { count: 0 };

/** `unpack` writes into a temporary folder that becomes `dir`; what it returns runs once the folder is in place. */
function unpackOnce(dataDir: string, bytes: Buffer, unpack: (temporary: string, dir: string) => (() => void) | void): FunctionCode {
  const sha256 = createHash('sha256').update(bytes).digest('base64');
  const dir = codeDirectory(dataDir, sha256);
  if (!existsSync(dir)) {
    const temporary = `${dir}.${randomBytes(4).toString('hex')}.tmp`;
    mkdirSync(temporary, { recursive: true, mode: PRIVATE_DIR });
    try {
      const placed = unpack(temporary, dir);
      renameSync(temporary, dir);
      unpacked.count++;
      placed?.();
    } catch (error) {
      rmSync(temporary, { recursive: true, force: true });
      if (!existsSync(dir)) throw error;
    }
  }
  return { sha256, size: bytes.length };
}

/** An S3 object's zip bytes, unpacked into a code folder: objects are never rewritten in place (a new PUT is a new blob), so a blob is read once. */
const unpackedObjects = new Map<string, FunctionCode>();

/** Unpacks a zip, linking the folders that earlier packages unpacked (see shared-folders.ts). */
const unpackZip = (zip: Buffer) => (temporary: string, dir: string) => unpackSharing(zip, temporary, dir).record;

/** A published version of a function: its number and the code it keeps (hash of its unpacked folder, where it was read from). */
export interface PublishedVersion {
  Version: string;
  Arn: string;
  CodeSha256: string;
  CodeSize?: number;
  Code: unknown;
}

/**
 * The function record's attribute listing its published versions. On the function, not on the
 * AWS::Lambda::Version resources: those leave the stack when a deploy publishes a new one (their
 * DeletionPolicy Retain keeps them on AWS), the versions stay as long as the function.
 */
const PUBLISHED_VERSIONS = 'fw:PublishedVersions';

export function publishedVersions(fn: { attributes: Record<string, unknown> }): PublishedVersion[] {
  return (fn.attributes[PUBLISHED_VERSIONS] as PublishedVersion[] | undefined) ?? [];
}

/** Where a published version's code is kept: Lambda's own copy, which outlives the deployment bucket's object (a pruned deployment). */
const VERSION_CODE = 'fw:VersionCode';
/**
 * Where the local server hands a version's copy out, as Lambda's Location does on AWS: a URL that is
 * its own permission (expiring, signed with a secret of this process), which any HTTP client can GET.
 */
export const VERSION_CODE_PATH = '/_fw/lambda-code/';

/** How long a version's code URL is honoured: AWS's presigned Location lasts 10 minutes. */
const CODE_URL_SECONDS = 600;
const CODE_URL_SECRET = randomBytes(32);

const codeUrlSignature = (name: string, expires: string) => createHmac('sha256', CODE_URL_SECRET).update(`${name}\n${expires}`).digest('hex');

/** GetFunction's Code.Location for a version's copy of its code. */
export function versionCodeUrl(baseUrl: string, name: string, now = Date.now()): string {
  const expires = String(Math.floor(now / 1000) + CODE_URL_SECONDS);
  return `${baseUrl}${VERSION_CODE_PATH}${name}.zip?Expires=${expires}&Signature=${codeUrlSignature(name, expires)}`;
}

/** Whether a request for a version's code carries the signature `versionCodeUrl` gave, unexpired. */
export function versionCodeUrlValid(name: string, search: URLSearchParams, now = Date.now()): boolean {
  const expires = search.get('Expires') ?? '';
  const signature = Buffer.from(search.get('Signature') ?? '');
  const expected = Buffer.from(codeUrlSignature(name, expires));
  return /^\d+$/.test(expires) && Number(expires) * 1000 >= now && signature.length === expected.length && timingSafeEqual(signature, expected);
}

export function versionCodeFile(dataDir: string, name: string): string | undefined {
  return /^[0-9a-f]{64}$/.test(name) ? join(dataDir, 'functions', 'published', `${name}.zip`) : undefined;
}

/** The name of the version's own copy of its code zip, when it has one. */
export function versionCodeName(version: PublishedVersion): string | undefined {
  const name = (version.Code as Record<string, unknown> | undefined)?.[VERSION_CODE];
  return typeof name === 'string' ? name : undefined;
}

/** Copies the zip the function runs now (its S3 object) to Lambda's own storage, as Lambda keeps each version's code. */
function keepVersionCode(cloud: { dataDir: string; s3: S3Store }, code: unknown): unknown {
  const s3 = code as { S3Bucket?: unknown; S3Key?: unknown } | undefined;
  if (typeof s3?.S3Bucket !== 'string' || typeof s3.S3Key !== 'string') return code;
  let zip: Buffer;
  try {
    zip = cloud.s3.readObject(s3.S3Bucket, s3.S3Key).data;
  } catch {
    return code;
  }
  return { ...s3, [VERSION_CODE]: keepCodeZip(cloud.dataDir, zip) };
}

/** Keeps a copy of a zip in Lambda's own storage (a version's code, a layer version's content): its name for `versionCodeUrl`. */
export function keepCodeZip(dataDir: string, zip: Buffer): string {
  const name = createHash('sha256').update(zip).digest('hex');
  const file = versionCodeFile(dataDir, name)!;
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR });
    const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    writePrivateFile(temporary, zip);
    renameSync(temporary, file);
  }
  return name;
}

/** Publishes the function's current code as its next version number, keeping a copy of the code. */
export function publishVersion(cloud: { dataDir: string; s3: S3Store }, fn: { attributes: Record<string, unknown>; properties: Record<string, unknown> }, arnOf: (version: string) => string): PublishedVersion {
  const versions = publishedVersions(fn);
  const number = String(Math.max(0, ...versions.map(version => Number(version.Version))) + 1);
  const published = { Version: number, Arn: arnOf(number), CodeSha256: String(fn.attributes.CodeSha256), CodeSize: Number(fn.attributes[CODE_SIZE] ?? 0), Code: keepVersionCode(cloud, fn.properties.Code) };
  fn.attributes[PUBLISHED_VERSIONS] = [...versions, published];
  return published;
}

/** The attributes a function's update keeps: its published versions and its aliases (runtime/aliases.ts). */
export function keptOnUpdate(previous: { attributes: Record<string, unknown> }): Record<string, unknown> {
  return Object.fromEntries([PUBLISHED_VERSIONS, ALIASES].filter((key) => previous.attributes[key] !== undefined).map((key) => [key, previous.attributes[key]]));
}

/**
 * A function's code, unpacked once per package under dataDir/functions/<sha>,
 * from `Code.S3Bucket/S3Key` in the local S3 or from inline `Code.ZipFile`.
 */
export function materializeCode(dataDir: string, s3: S3Store, code: Record<string, unknown> | undefined, runtime: string): FunctionCode {
  if (code && typeof code.ZipFile === 'string') {
    const source = code.ZipFile;
    const file = runtime.startsWith('python') ? 'index.py' : 'index.js';
    return unpackOnce(dataDir, Buffer.from(`${runtime}\0${source}`), (dir) => writePrivateFile(join(dir, file), source));
  }
  if (!code || typeof code.S3Bucket !== 'string' || typeof code.S3Key !== 'string') {
    throw new AwsError('InvalidParameterValueException', 'Resource handler returned message: "Please provide a source for function code." (Service: Lambda, Status Code: 400)');
  }
  let zip: Buffer;
  let blob: string;
  try {
    blob = `${dataDir}\0${s3.headObject(code.S3Bucket, code.S3Key).blob}`;
    // Twenty functions updated to one object (fw dev, a shared service zip) read and hash it once.
    const known = unpackedObjects.get(blob);
    if (known && existsSync(codeDirectory(dataDir, known.sha256))) return known;
    zip = s3.readObject(code.S3Bucket, code.S3Key).data;
  } catch (error) {
    if (error instanceof AwsError) {
      throw new AwsError(
        'InvalidParameterValueException',
        `Resource handler returned message: "Error occurred while GetObject. S3 Error Code: ${error.code}. S3 Error Message: ${error.message} (Service: Lambda, Status Code: 400)"`,
      );
    }
    throw error;
  }
  try {
    const code = unpackOnce(dataDir, zip, unpackZip(zip));
    unpackedObjects.set(blob, code);
    return code;
  } catch (error) {
    throw new AwsError('InvalidParameterValueException', `Resource handler returned message: "${(error as Error).message}" (Service: Lambda, Status Code: 400)`);
  }
}

/** Code given as zip bytes (the API's `Code.ZipFile`), unpacked once per content. */
export function materializeZip(dataDir: string, zip: Buffer): FunctionCode {
  try {
    return unpackOnce(dataDir, zip, unpackZip(zip));
  } catch (error) {
    throw new AwsError('InvalidParameterValueException', `Could not unzip uploaded file. Please check your file, then try to upload again. (${(error as Error).message})`);
  }
}
