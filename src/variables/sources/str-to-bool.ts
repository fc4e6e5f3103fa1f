import { ConfigError } from '../../errors';
import type { Source } from '../source';

/** `${strToBool(${ssm:flag})}`: "true"/"1" → true, "false"/"0" → false, case-insensitive; anything else is an error. */
export const strToBool: Source = async (ref) => {
  const text = (ref.params[0] ?? '').trim().toLowerCase();
  if (text === 'true' || text === '1') return { value: true };
  if (text === 'false' || text === '0') return { value: false };
  throw new ConfigError(`strToBool expects "true", "false", "1" or "0", got ${JSON.stringify(ref.params.join(', '))}`);
};
