import type { Source } from '../source';

/** `${opt:stage}`: a CLI option; `${opt:}` is all of them. */
export const opt: Source = async (ref, { context }) => {
  const name = ref.address ?? '';
  if (name === '') return { value: { ...context.options } };
  const value = context.options[name];
  if (value === undefined || value === null) return { missing: `is not set (no --${name} option given)` };
  return { value };
};
