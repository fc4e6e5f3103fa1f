import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AwsError } from '../aws/errors';
import type { S3Store } from '../s3/store';
import { PRIVATE_DIR, writePrivateFile } from '../state/files';
import { extractZip } from './unzip';

export interface FunctionCode {
  /** Base64 SHA-256 of the deployment package, as Lambda reports it. */
  sha256: string;
  size: number;
}

export function codeDirectory(dataDir: string, sha256: string): string {
  return join(dataDir, 'functions', Buffer.from(sha256, 'base64').toString('hex'));
}

function unpackOnce(dataDir: string, bytes: Buffer, unpack: (dir: string) => void): FunctionCode {
  const sha256 = createHash('sha256').update(bytes).digest('base64');
  const dir = codeDirectory(dataDir, sha256);
  if (!existsSync(dir)) {
    const temporary = `${dir}.${randomBytes(4).toString('hex')}.tmp`;
    mkdirSync(temporary, { recursive: true, mode: PRIVATE_DIR });
    try {
      unpack(temporary);
      renameSync(temporary, dir);
    } catch (error) {
      rmSync(temporary, { recursive: true, force: true });
      if (!existsSync(dir)) throw error;
    }
  }
  return { sha256, size: bytes.length };
}

/** What a version keeps of its function: the code's hash (its unpacked folder) and where the code was read from. */
export function publishedCode(fn: { attributes: Record<string, unknown>; properties: Record<string, unknown> }): Record<string, unknown> {
  return { [VERSION_CODE_SHA]: fn.attributes.CodeSha256, [VERSION_CODE]: fn.properties.Code };
}
export const VERSION_CODE_SHA = 'fw:CodeSha256';
export const VERSION_CODE = 'fw:Code';

/** A deployment package given as bytes (UpdateFunctionCode with ZipFile), unpacked once per package. */
export function materializeZip(dataDir: string, zip: Buffer): FunctionCode {
  try {
    return unpackOnce(dataDir, zip, (dir) => extractZip(zip, dir));
  } catch (error) {
    throw new AwsError('InvalidParameterValueException', `Could not unzip uploaded file: ${(error as Error).message}`, 400);
  }
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
  try {
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
    return unpackOnce(dataDir, zip, (dir) => extractZip(zip, dir));
  } catch (error) {
    throw new AwsError('InvalidParameterValueException', `Resource handler returned message: "${(error as Error).message}" (Service: Lambda, Status Code: 400)`);
  }
}
