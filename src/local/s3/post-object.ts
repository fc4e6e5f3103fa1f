import { AwsError } from '../protocol/errors';
import { header, type LocalRequest } from '../http';

/**
 * POST Object: a browser form (multipart/form-data) uploading one file to a bucket, authorized by the
 * POST policy in the form (what `@aws-sdk/s3-presigned-post` and boto3's `generate_presigned_post` make),
 * checked as S3 documents it ("POST Policy"): not expired, every condition held, every form field
 * named by a condition, the file's size within `content-length-range`.
 */

export interface PostForm {
  /** Form fields by lower-cased name (S3 reads field names case-insensitively). */
  fields: Map<string, string>;
  file?: { data: Buffer; filename: string };
}

/** Whether a request is a form upload to a bucket (decided on the headers, before the body is read). */
export function isFormUpload(method: string, contentType: string | undefined): boolean {
  return method === 'POST' && (contentType ?? '').toLowerCase().startsWith('multipart/form-data');
}

/** The form's fields and file, the file field last as S3 requires (fields after it are ignored, as S3 does). */
export async function parsePostForm(request: LocalRequest): Promise<PostForm> {
  let form: FormData;
  try {
    form = await new Response(request.body, { headers: { 'content-type': header(request, 'content-type') ?? '' } }).formData();
  } catch {
    throw new AwsError('MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.');
  }
  const fields = new Map<string, string>();
  for (const [name, value] of form) {
    if (name.toLowerCase() === 'file') {
      if (typeof value === 'string') return { fields, file: { data: Buffer.from(value), filename: '' } };
      return { fields, file: { data: Buffer.from(await value.arrayBuffer()), filename: value.name } };
    }
    if (typeof value === 'string') fields.set(name.toLowerCase(), value);
  }
  return { fields };
}

/** Fields a policy need not name: the signature and what carries it, the file, and `x-ignore-*`. */
const UNCONDITIONED = new Set(['policy', 'x-amz-signature', 'signature', 'awsaccesskeyid', 'file']);

const policyError = (message: string) => new AwsError('AccessDenied', `Invalid according to Policy: ${message}`, 403);
const invalidPolicy = (message: string) => new AwsError('InvalidPolicyDocument', `Invalid Policy: ${message}`);

type Condition = { kind: 'eq' | 'starts-with'; field: string; value: string; text: string } | { kind: 'content-length-range'; min: number; max: number };

function conditionsOf(policy: unknown): Condition[] {
  const conditions = (policy as { conditions?: unknown }).conditions;
  if (!Array.isArray(conditions)) throw invalidPolicy('Policy missing conditions.');
  return conditions.flatMap((condition): Condition[] => {
    if (Array.isArray(condition)) {
      const [operator, field, value] = condition as unknown[];
      const op = String(operator).toLowerCase();
      if (op === 'content-length-range') return [{ kind: op, min: Number(field), max: Number(value) }];
      if ((op === 'eq' || op === 'starts-with') && typeof field === 'string' && field.startsWith('$') && typeof value === 'string') {
        return [{ kind: op, field: field.slice(1).toLowerCase(), value, text: JSON.stringify([operator, field, value]).replace(/","/g, '", "') }];
      }
      throw invalidPolicy(`Invalid Condition: ${JSON.stringify(condition)}`);
    }
    if (condition && typeof condition === 'object') {
      return Object.entries(condition).map(([field, value]) => ({ kind: 'eq' as const, field: field.toLowerCase(), value: String(value), text: `["eq", "$${field}", "${String(value)}"]` }));
    }
    throw invalidPolicy(`Invalid Condition: ${JSON.stringify(condition)}`);
  });
}

/**
 * Checks the form against its policy; returns the key (with `${filename}` replaced) and the file.
 * `signatureRefusal` checks the policy's signature (the access guard's, with the configured secret),
 * once the form is known to carry one, before its conditions are read.
 */
export function checkPostForm(form: PostForm, bucket: string, signatureRefusal: (fields: Map<string, string>) => AwsError | undefined, now = Date.now()): { key: string; data: Buffer } {
  const { fields, file } = form;
  const key = fields.get('key');
  if (key === undefined) {
    throw new AwsError('InvalidArgument', "Bucket POST must contain a field named 'key'.  If it is specified, please check the order of the fields.", 400, { ArgumentName: 'key', ArgumentValue: '' });
  }
  const encoded = fields.get('policy');
  if (encoded === undefined || !(fields.has('x-amz-signature') || fields.has('signature'))) {
    // Without a policy and its signature the upload is anonymous, and no bucket here is publicly writable.
    throw new AwsError('AccessDenied', 'Access Denied', 403);
  }
  const refused = signatureRefusal(fields);
  if (refused) throw refused;
  if (!file) throw new AwsError('InvalidArgument', 'POST requires exactly one file upload per request.', 400, { ArgumentName: 'file', ArgumentValue: '0' });
  let policy: unknown;
  try {
    policy = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    throw invalidPolicy('Invalid JSON.');
  }
  const expiration = Date.parse(String((policy as { expiration?: unknown }).expiration));
  if (Number.isNaN(expiration)) throw invalidPolicy('Invalid \'expiration\' value.');
  if (expiration < now) throw policyError('Policy expired.');
  const conditions = conditionsOf(policy);
  const value = (field: string) => (field === 'bucket' ? bucket : (fields.get(field) ?? ''));
  for (const condition of conditions) {
    if (condition.kind === 'content-length-range') continue;
    const actual = value(condition.field);
    const holds = condition.kind === 'eq' ? actual === condition.value : actual.startsWith(condition.value);
    if (!holds) throw policyError(`Policy Condition failed: ${condition.text}`);
  }
  const named = new Set(conditions.flatMap((condition) => (condition.kind === 'content-length-range' ? [] : [condition.field])));
  const extra = [...fields.keys()].filter((field) => !UNCONDITIONED.has(field) && !field.startsWith('x-ignore-') && !named.has(field));
  if (extra.length > 0) throw policyError(`Extra input fields: ${extra.join(', ')}`);
  const size = file.data.length;
  for (const condition of conditions) {
    if (condition.kind !== 'content-length-range') continue;
    if (size > condition.max) throw new AwsError('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', 400, { ProposedSize: String(size), MaxSizeAllowed: String(condition.max) });
    if (size < condition.min) throw new AwsError('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size', 400, { ProposedSize: String(size), MinSizeAllowed: String(condition.min) });
  }
  return { key: key.replace(/\$\{filename\}/g, file.filename), data: file.data };
}

/** Metadata a form sets on the object: `x-amz-meta-*` fields. */
export function formMetadata(fields: Map<string, string>): Record<string, string> {
  return Object.fromEntries([...fields].filter(([name]) => name.startsWith('x-amz-meta-')).map(([name, value]) => [name.slice('x-amz-meta-'.length), value]));
}
