import { AwsError, validationError } from '../protocol/errors';
import type { S3Store } from '../s3/store';
import { checkTemplateBodySize, checkTemplateUrlSize } from '../template/parse';

/** Bucket and key of a TemplateURL in any of the forms S3 URLs take (AWS or this server). */
export function s3Location(templateUrl: string): { bucket: string; key: string } {
  let url: URL;
  try {
    url = new URL(templateUrl);
  } catch {
    throw validationError('TemplateURL must be a supported URL.');
  }
  const path = decodeURIComponent(url.pathname.slice(1));
  const virtual = /^(.+?)\.s3[.-]/.exec(url.hostname);
  if (virtual) return { bucket: virtual[1], key: path };
  const slash = path.indexOf('/');
  if (slash <= 0) throw validationError('TemplateURL must reference a valid S3 object to which you have access.');
  return { bucket: path.slice(0, slash), key: path.slice(slash + 1) };
}

/** The template text of a call: TemplateBody, or the object TemplateURL names in the local S3. */
export function templateText(input: { body?: string; url?: string }, s3: S3Store): string {
  if (input.body !== undefined) {
    checkTemplateBodySize(input.body);
    return input.body;
  }
  if (input.url !== undefined) {
    const { bucket, key } = s3Location(input.url);
    let text: string;
    try {
      text = s3.readObject(bucket, key).data.toString('utf8');
    } catch (error) {
      if (error instanceof AwsError) throw validationError(`S3 error: ${error.code}: ${error.message} (${input.url})`);
      throw error;
    }
    checkTemplateUrlSize(text);
    return text;
  }
  throw validationError('Either Template URL or Template Body must be specified.');
}
