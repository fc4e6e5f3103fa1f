import { randomBytes } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import type { QueryParams } from '../protocol/query';

/** What roles, users and managed policies share: their ids, their policy documents and policy ARNs. */

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** An IAM unique id: its kind's prefix (AROA a role, AIDA a user, ANPA a policy, AKIA an access key) and base-32 characters. */
export const iamId = (prefix: string, length = 17) => `${prefix}${[...randomBytes(length)].map((byte) => ID_ALPHABET[byte % 32]).join('')}`;

/** A policy document must be JSON with a Statement (MalformedPolicyDocument otherwise, as IAM answers). */
export function policyDocument(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AwsError('MalformedPolicyDocument', 'This policy contains invalid Json');
  }
  if (!parsed || typeof parsed !== 'object' || !('Statement' in parsed)) throw new AwsError('MalformedPolicyDocument', 'Syntax errors in policy.');
  return text;
}

/** The request's PolicyArn, an IAM policy's ARN (InvalidInput otherwise). */
export function policyArn(params: QueryParams): string {
  const arn = params.required('PolicyArn');
  if (!/^arn:aws[\w-]*:iam::(\d{12}|aws):policy\/.+/.test(arn)) throw new AwsError('InvalidInput', `ARN ${arn} is not valid.`);
  return arn;
}
