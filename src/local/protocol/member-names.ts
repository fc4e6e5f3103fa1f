/** Member names between CloudFormation's and the SDKs' PascalCase and the camelCase of APIs such as API Gateway v2 and Step Functions. */

export const lowerCamel = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);
export const upperCamel = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Renames every member of a structure, at every depth. A member `keep` names holds a map whose keys
 * are the user's (a tag map): it is kept as it is.
 */
export function renameMembers(value: unknown, rename: (name: string) => string, keep: (name: string, member: unknown) => boolean = () => false): unknown {
  if (Array.isArray(value)) return value.map((item) => renameMembers(item, rename, keep));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [rename(key), keep(key, member) ? member : renameMembers(member, rename, keep)]));
}
