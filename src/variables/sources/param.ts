import type { Source } from '../source';

/** `--param "key=value"` pairs, as given on the command line. */
export function cliParams(option: unknown): Record<string, string> {
  const list = Array.isArray(option) ? option : option === undefined ? [] : [option];
  const params: Record<string, string> = {};
  for (const entry of list) {
    const text = String(entry);
    const equals = text.indexOf('=');
    if (equals === -1) params[text] = '';
    else params[text.slice(0, equals).trim()] = text.slice(equals + 1);
  }
  return params;
}

/** `${param:domain}`: `--param "domain=…"`, then `params.<stage>.domain`, then `params.default.domain`. */
export const param: Source = async (ref, { context, self, stage }) => {
  const name = ref.address ?? '';
  const fromCli = cliParams(context.options.param);
  if (Object.hasOwn(fromCli, name)) return { value: fromCli[name] };
  const currentStage = await stage();
  for (const scope of [currentStage, 'default']) {
    const outcome = await self(['params', scope, name]);
    if ('value' in outcome) return outcome;
  }
  return { missing: `is not defined (no --param "${name}=…", params.${currentStage}.${name} or params.default.${name})` };
};
