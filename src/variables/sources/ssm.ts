import type { Source } from '../source';
import { awsSourceClient, isNotFound } from './aws-client';

const INSTRUCTIONS = new Set(['raw', 'noDecrypt']);

/**
 * `${ssm:/path}`, `${ssm(eu-west-1, raw):/path}`, `${ssm(noDecrypt):/path}`.
 * SecureStrings are decrypted and JSON in them parsed, StringLists become
 * lists; `raw` keeps the text as stored, `noDecrypt` the encrypted text.
 */
export const ssm: Source = async (ref, helpers) => {
  const { region } = helpers;
  const name = ref.address ?? '';
  const raw = ref.params.includes('raw');
  const noDecrypt = ref.params.includes('noDecrypt');
  const regionParam = ref.params.find((param) => !INSTRUCTIONS.has(param));
  const { SSMClient, GetParameterCommand } = require('@aws-sdk/client-ssm') as typeof import('@aws-sdk/client-ssm');
  const client = await awsSourceClient(config => new SSMClient(config), helpers, regionParam ?? (await region()));
  try {
    const answer = await client.send(new GetParameterCommand({ Name: name, WithDecryption: !noDecrypt }));
    const value = answer.Parameter?.Value;
    if (value === undefined) return { missing: 'has no value' };
    if (raw) return { value, secret: true };
    if (answer.Parameter?.Type === 'StringList') return { value: value.split(','), secret: true };
    if ((answer.Parameter?.Type === 'SecureString' && !noDecrypt) || name.startsWith('/aws/reference/secretsmanager/')) {
      try {
        const parsed: unknown = JSON.parse(value);
        if (parsed !== null && typeof parsed === 'object') return { value: parsed, secret: true };
      } catch {
        // not JSON: the text itself
      }
    }
    return { value, secret: true };
  } catch (error) {
    if (isNotFound(error) || (error as { name?: string }).name === 'ParameterNotFound') return { missing: 'has no value (no such parameter)' };
    throw error;
  } finally {
    client.destroy();
  }
};
