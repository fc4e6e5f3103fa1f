/**
 * How Serverless Framework v3 turns names into parts of logical ids. Every file of this
 * folder builds its ids from these. Pure functions only.
 */
import { createHash } from 'node:crypto';

/** `upload-file_x` → `UploadDashfileUnderscorex` */
export function normalizeName(name: string): string {
  const spelled = name.replace(/-/g, 'Dash').replace(/_/g, 'Underscore');
  return spelled.charAt(0).toUpperCase() + spelled.slice(1);
}

/** Keeps letters and digits only, first letter upper-cased: `my-bucket.v2` → `Mybucketv2`. */
export function normalizeNameToAlphaNumericOnly(name: string): string {
  return normalizeName(name.replace(/[^0-9A-Za-z]/g, ''));
}

/** `/users/{id}/{proxy+}` → `UsersIdVarProxyVar` (empty for the root path). */
export function pathToLogicalPart(path: string): string {
  return path
    .split('/')
    .filter(Boolean)
    .map(segment => {
      // Lower-cased first: `my-path` → `MyDashpath`, `{postId}` → `PostidVar`, `sub.json` → `Subjson`
      const lower = segment.toLowerCase();
      const variable = /^\{(.+?)\+?\}$/.exec(lower);
      const name = normalizeNameToAlphaNumericOnly((variable ? variable[1] : lower).replace(/-/g, 'Dash'));
      return variable ? `${name}Var` : name;
    })
    .join('');
}

export const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** Names over `limit` characters keep their start and `suffix`, with an md5 of the whole name between. */
export function shortenName(name: string, suffix: string, limit = 64): string {
  const full = `${name}${suffix}`;
  if (full.length <= limit) return full;
  return `${full.slice(0, limit - 32 - suffix.length)}${md5(full)}${suffix}`;
}
