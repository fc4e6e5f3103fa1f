/**
 * The longest service name accepted. Function names are `<service>-<stage>-<function>`
 * and Lambda allows 64 characters, so a longer service name would only fail at deploy time.
 */
export const MAX_SERVICE_NAME_LENGTH = 40;

const SERVICE_NAME = /^[A-Za-z][A-Za-z0-9-]*$/;

/** Why `name` cannot be a service name, or undefined when it can. */
export function serviceNameProblem(name: string): string | undefined {
  if (name === '') return 'a service name is required';
  if (!/^[A-Za-z]/.test(name)) return `"${name}" must start with a letter`;
  if (!SERVICE_NAME.test(name)) return `"${name}" may contain only letters, digits and dashes`;
  if (name.length > MAX_SERVICE_NAME_LENGTH) return `"${name}" is longer than ${MAX_SERVICE_NAME_LENGTH} characters`;
  return undefined;
}
