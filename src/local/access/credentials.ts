import { ConfigError } from '../../errors';

export interface LocalCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** What `fw local start --require-credentials` and `$FW_LOCAL_CREDENTIALS` hold. */
export const CREDENTIALS_ENV = 'FW_LOCAL_CREDENTIALS';

/** `KEY:SECRET` → credentials; `source` names the flag or variable in the one-line error, which never shows the secret. */
export function parseLocalCredentials(value: string, source: string): LocalCredentials {
  const colon = value.indexOf(':');
  const accessKeyId = colon === -1 ? '' : value.slice(0, colon);
  const secretAccessKey = colon === -1 ? '' : value.slice(colon + 1);
  if (!/^[A-Za-z0-9_.-]{1,128}$/.test(accessKeyId) || secretAccessKey === '') {
    const shown = colon === -1 ? '****' : `${accessKeyId}:****`;
    throw new ConfigError(`Invalid ${source}: expected ACCESS_KEY_ID:SECRET (the key of letters, digits, "_", "." or "-"), got "${shown}"`);
  }
  return { accessKeyId, secretAccessKey };
}

/** What fw signs with when no credentials are required: the local cloud then checks only the signature's shape. */
export const ANY_LOCAL_CREDENTIALS: LocalCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** `$FW_LOCAL_CREDENTIALS` (KEY:SECRET) when set: what the local cloud requires and fw signs with; else any. */
export function localCredentials(env: NodeJS.ProcessEnv = process.env): { required?: LocalCredentials; signWith: LocalCredentials } {
  const text = env[CREDENTIALS_ENV];
  if (text === undefined) return { signWith: ANY_LOCAL_CREDENTIALS };
  const required = parseLocalCredentials(text, `$${CREDENTIALS_ENV}`);
  return { required, signWith: required };
}
