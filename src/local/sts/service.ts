import { randomBytes } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import type { QueryParams } from '../protocol/query';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** `prefix` and 16 characters of AWS's key-id alphabet (upper case and 2–7). */
function keyId(prefix: string): string {
  return prefix + [...randomBytes(16)].map((byte) => KEY_ALPHABET[byte % 32]).join('');
}

function validationError(value: string, member: string, constraint: string): AwsError {
  return new AwsError('ValidationError', `1 validation error detected: Value '${value}' at '${member}' failed to satisfy constraint: ${constraint}`);
}

/**
 * AssumeRole: temporary credentials for the role, which the local cloud
 * accepts like any other key (it verifies signatures only for the one pair
 * given with `--require-credentials`).
 */
function assumeRole(params: QueryParams, accountId: string): Record<string, unknown> {
  const roleArn = params.required('RoleArn');
  const sessionName = params.required('RoleSessionName');
  const duration = params.number('DurationSeconds') ?? 3600;
  if (roleArn.length < 20) throw validationError(roleArn, 'roleArn', 'Member must have length greater than or equal to 20');
  if (sessionName.length < 2) throw validationError(sessionName, 'roleSessionName', 'Member must have length greater than or equal to 2');
  if (sessionName.length > 64) throw validationError(sessionName, 'roleSessionName', 'Member must have length less than or equal to 64');
  if (!/^[\w+=,.@-]*$/.test(sessionName)) throw validationError(sessionName, 'roleSessionName', 'Member must satisfy regular expression pattern: [\\w+=,.@-]*');
  if (!Number.isInteger(duration) || duration < 900) throw validationError(String(params.string('DurationSeconds')), 'durationSeconds', 'Member must have value greater than or equal to 900');
  if (duration > 43200) throw validationError(String(duration), 'durationSeconds', 'Member must have value less than or equal to 43200');
  const role = /^arn:aws[\w-]*:iam::(\d{12})?:role\/(?:[\w+=,.@/-]*\/)?([\w+=,.@-]+)$/.exec(roleArn);
  if (!role) throw new AwsError('ValidationError', 'Request ARN is invalid');
  const [, roleAccount = accountId, roleName] = role;
  const expiration = new Date(Math.floor(Date.now() / 1000) * 1000 + duration * 1000);
  return {
    Credentials: {
      AccessKeyId: keyId('ASIA'),
      SecretAccessKey: randomBytes(30).toString('base64'),
      SessionToken: randomBytes(96).toString('base64'),
      Expiration: expiration,
    },
    AssumedRoleUser: {
      AssumedRoleId: `${keyId('AROA')}:${sessionName}`,
      Arn: `arn:aws:sts::${roleAccount}:assumed-role/${roleName}/${sessionName}`,
    },
  };
}

/** STS: who the caller is, and roles to assume. Any credentials are the one local account. */
export function stsAction(params: QueryParams, accountId: string): Record<string, unknown> {
  if (params.action === 'GetCallerIdentity') {
    return { UserId: 'AIDALOCALCLOUDUSER', Account: accountId, Arn: `arn:aws:iam::${accountId}:user/local` };
  }
  if (params.action === 'AssumeRole') return assumeRole(params, accountId);
  if (params.action === 'GetSessionToken') {
    const duration = params.number('DurationSeconds') ?? 43200;
    if (!Number.isInteger(duration) || duration < 900) throw validationError(String(params.string('DurationSeconds')), 'durationSeconds', 'Member must have value greater than or equal to 900');
    if (duration > 129600) throw validationError(String(duration), 'durationSeconds', 'Member must have value less than or equal to 129600');
    return { Credentials: { AccessKeyId: keyId('ASIA'), SecretAccessKey: randomBytes(30).toString('base64'), SessionToken: randomBytes(96).toString('base64'), Expiration: new Date(Math.floor(Date.now() / 1000) * 1000 + duration * 1000) } };
  }
  throw new AwsError('InvalidAction', `not emulated: STS ${params.action}`);
}
