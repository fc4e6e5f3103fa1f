import { AwsError } from './errors';

/** The SDK v3 client whose operation schemas describe each JSON-protocol service's inputs. */
const SCHEMA_PACKAGES: Record<string, string> = {
  dynamodb: '@aws-sdk/client-dynamodb',
  logs: '@aws-sdk/client-cloudwatch-logs',
  ssm: '@aws-sdk/client-ssm',
  sqs: '@aws-sdk/client-sqs',
  events: '@aws-sdk/client-eventbridge',
  kinesis: '@aws-sdk/client-kinesis',
  monitoring: '@aws-sdk/client-cloudwatch',
  ecr: '@aws-sdk/client-ecr',
  secretsmanager: '@aws-sdk/client-secrets-manager',
  kms: '@aws-sdk/client-kms',
};

/**
 * Smithy's static schemas as the SDK ships them: `[3|4, namespace, name, traits, memberNames, memberSchemas]`
 * for structures and unions, `[1, ns, name, traits, member]` for lists, `[2, ns, name, traits, key, value]`
 * for maps, a number for a simple type (0 string, 1 number, 2 boolean, 21 blob, 4–7 timestamps,
 * 15 document; `| 64` a list of it, `| 128` a map of it), a function for a schema defined later, and
 * `[schema, traits]` for a member with traits of its own.
 */
type Schema = number | (() => Schema) | unknown[];

const SERIALIZATION = 'SerializationException';

const NUMBER_TYPES = new Set([1, 17, 19]);
const TIMESTAMP_TYPES = new Set([4, 5, 6, 7]);

const loaded = new Map<string, Record<string, unknown> | null>();

/** The input schema of an operation, when fw's SDK client for the service defines it. */
function inputSchema(service: string, operation: string): Schema | undefined {
  const name = SCHEMA_PACKAGES[service];
  if (!name || !/^[A-Za-z0-9]+$/.test(operation)) return undefined;
  if (!loaded.has(name)) {
    try {
      // Loaded on the service's first request: these clients are fw's own dependencies.
      loaded.set(name, require(name) as Record<string, unknown>);
    } catch {
      loaded.set(name, null);
    }
  }
  const operationSchema = loaded.get(name)?.[`${operation}$`];
  if (!Array.isArray(operationSchema) || operationSchema[0] !== 9) return undefined;
  return operationSchema[4] as Schema;
}

function resolve(schema: Schema): Schema {
  let current = schema;
  for (;;) {
    if (typeof current === 'function') current = current();
    else if (Array.isArray(current) && current.length === 2) current = current[0] as Schema;
    else return current;
  }
}

const describe = (value: unknown) => (Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

/** Where a value does not have its schema's type, as `path: expected …, got …`; undefined when it does. */
function mismatch(value: unknown, schema: Schema, path: string): string | undefined {
  const resolved = resolve(schema);
  const wrong = (expected: string) => `${path || 'the request body'}: expected ${expected}, got ${describe(value)}`;
  if (typeof resolved === 'number') {
    if (resolved & 64) {
      if (!Array.isArray(value)) return wrong('a list');
      for (const [index, item] of value.entries()) {
        const found = mismatch(item, resolved & ~64, `${path}[${index}]`);
        if (found) return found;
      }
      return undefined;
    }
    if (resolved & 128) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return wrong('an object');
      for (const [key, item] of Object.entries(value)) {
        const found = mismatch(item, resolved & ~128, `${path}.${key}`);
        if (found) return found;
      }
      return undefined;
    }
    if (resolved === 0 || resolved === 21) return typeof value === 'string' ? undefined : wrong('a string');
    if (NUMBER_TYPES.has(resolved)) return typeof value === 'number' || (typeof value === 'string' && value !== '' && !Number.isNaN(Number(value))) ? undefined : wrong('a number');
    if (resolved === 2) return typeof value === 'boolean' ? undefined : wrong('a boolean');
    if (TIMESTAMP_TYPES.has(resolved)) return typeof value === 'number' || typeof value === 'string' ? undefined : wrong('a timestamp');
    return undefined;
  }
  if (!Array.isArray(resolved)) return undefined;
  const [kind] = resolved as [number];
  if (kind === 1) {
    if (!Array.isArray(value)) return wrong('a list');
    for (const [index, item] of value.entries()) {
      const found = mismatch(item, resolved[4] as Schema, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (kind === 2 || kind === 3 || kind === 4) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return wrong('an object');
    if (kind === 2) {
      for (const [key, item] of Object.entries(value)) {
        const found = mismatch(item, resolved[5] as Schema, `${path}.${key}`);
        if (found) return found;
      }
      return undefined;
    }
    const names = resolved[4] as string[];
    const schemas = resolved[5] as Schema[];
    for (const [index, name] of names.entries()) {
      const member = (value as Record<string, unknown>)[name];
      if (member === undefined) continue;
      const found = mismatch(member, schemas[index], path ? `${path}.${name}` : name);
      if (found) return found;
    }
  }
  return undefined;
}

/** Drops members set to null: AWS's JSON protocols read a null member as one not sent. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  const kept: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) if (member !== null) kept[key] = withoutNulls(member);
  return kept;
}

/**
 * A JSON-protocol request's input: a JSON object whose members have the types the operation's
 * schema gives them, else a 400 SerializationException as AWS answers (never a failure deeper in).
 */
export function jsonInput(service: string, operation: string, body: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8') || '{}');
  } catch {
    throw new AwsError(SERIALIZATION, 'The request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new AwsError(SERIALIZATION, `The request body must be a JSON object, got ${describe(parsed)}`);
  }
  const input = withoutNulls(parsed) as Record<string, unknown>;
  const schema = inputSchema(service, operation);
  const found = schema === undefined ? undefined : mismatch(input, schema, '');
  if (found) throw new AwsError(SERIALIZATION, `Cannot read ${operation} input at ${found}`);
  return input;
}
