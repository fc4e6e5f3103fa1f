import { validationError } from '../protocol/errors';
import type { Template } from '../template/types';

/**
 * The value of every template parameter for an operation: what the caller
 * gave, else the default. List types become arrays, as `Ref` returns them.
 */
export function parameterValues(
  template: Template,
  given: Record<string, string>,
  lookupSsm: (name: string) => string | undefined,
): Record<string, unknown> {
  const declarations = template.Parameters ?? {};
  const unknown = Object.keys(given).filter((name) => !(name in declarations));
  if (unknown.length > 0) throw validationError(`Parameters: [${unknown.join(', ')}] do not exist in the template`);
  const missing = Object.entries(declarations)
    .filter(([name, declaration]) => given[name] === undefined && declaration.Default === undefined)
    .map(([name]) => name);
  if (missing.length > 0) throw validationError(`Parameters: [${missing.join(', ')}] must have values`);

  const values: Record<string, unknown> = {};
  for (const [name, declaration] of Object.entries(declarations)) {
    let value = given[name] ?? String(declaration.Default);
    const allowed = declaration.AllowedValues?.map(String);
    if (allowed && !allowed.includes(value)) {
      throw validationError(`Parameter '${name}' must be one of AllowedValues`);
    }
    const type = String(declaration.Type ?? 'String');
    if (type.startsWith('AWS::SSM::Parameter::Value<')) {
      const stored = lookupSsm(value);
      if (stored === undefined) throw validationError(`Parameters [${value}] referenced by template have types not supported by CloudFormation.`);
      value = stored;
    }
    if (type === 'Number' && Number.isNaN(Number(value))) {
      throw validationError(`Parameter '${name}' must be a number.`);
    }
    values[name] = type === 'CommaDelimitedList' || type.startsWith('List<') || type.includes('<List<') ? value.split(',').map((item) => item.trim()) : value;
  }
  return values;
}
