import type { Source } from '../source';

/** `${env:TABLE}`: an environment variable (including `.env` files when `useDotenv: true`). */
export const env: Source = async (ref, { context }) => {
  const name = ref.address ?? '';
  const value = context.env[name];
  if (value === undefined) return { missing: 'is not set' };
  return { value };
};
