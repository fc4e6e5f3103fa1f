import { isIntrinsic } from '../intrinsic';

/**
 * What Serverless Framework v3's configuration validator rewrites before anything reads the
 * configuration. v3 validates with Ajv and `coerceTypes: 'array'` (in every validation mode,
 * `off` included), so where its schema says "a list" a single value becomes a one-item list
 * (`Action: s3:*` → `["s3:*"]`, `DependsOn: Queue` → `["Queue"]`), and where it says "a string"
 * a one-item list of a scalar becomes that value (`Resource: [arn:aws:s3:::b/*]` →
 * `"arn:aws:s3:::b/*"`). Templates keep those shapes, so fw rewrites the same places the same
 * way (the settings that reach the template as written; see test/config/v3-coercion.test.ts).
 *
 * One place differs on purpose: v3 also rewrites inside intrinsic functions, which turns
 * `Fn::GetAtt: Queue.Arn` (a form CloudFormation accepts) into `Fn::GetAtt: [Queue.Arn]`
 * (which it rejects); fw leaves intrinsics as written.
 */
export function coerceAsV3Validator(config: Record<string, unknown>, { functionStatements = [] }: { functionStatements?: string[] } = {}): void {
  const provider = objectAt(config, 'provider');
  if (provider) {
    coerceStatements(provider.iamRoleStatements);
    const role = objectAt(objectAt(provider, 'iam') ?? {}, 'role');
    if (role) coerceStatements(role.statements);
  }
  const functions = objectAt(config, 'functions');
  for (const [key, fn] of Object.entries(functions ?? {})) {
    if (!FUNCTION_KEY.test(key) || !isObject(fn)) continue;
    if ('dependsOn' in fn) fn.dependsOn = stringList(fn.dependsOn);
    for (const property of functionStatements) coerceStatements(fn[property]);
  }
  const resources = config.resources;
  for (const block of Array.isArray(resources) ? resources : [resources]) {
    if (!isObject(block)) continue;
    for (const section of ['Resources', 'extensions']) {
      for (const [logicalId, resource] of Object.entries(objectAt(block, section) ?? {})) {
        if (!LOGICAL_ID.test(logicalId) || !isObject(resource)) continue;
        if ('DependsOn' in resource) resource.DependsOn = stringList(resource.DependsOn);
        if ('Condition' in resource) resource.Condition = string(resource.Condition);
      }
    }
  }
}

/** The keys v3's schema gives the settings below (other keys are reported, and left alone). */
const FUNCTION_KEY = /^[a-zA-Z0-9-_]+$/;
const LOGICAL_ID = /^[a-zA-Z0-9]{1,255}$/;
/** v3's `awsLogicalResourceId`, one of the forms of a statement's Resource. */
const RESOURCE_LOGICAL_ID = /^[#A-Za-z0-9-_./]+[*]?$/;

function coerceStatements(statements: unknown): void {
  if (!Array.isArray(statements)) return;
  for (const statement of statements) {
    if (!isObject(statement)) continue;
    if ('Sid' in statement) statement.Sid = string(statement.Sid);
    for (const key of ['Action', 'NotAction']) if (key in statement) statement[key] = stringList(statement[key]);
    for (const key of ['Resource', 'NotResource']) if (key in statement) statement[key] = resource(statement[key]);
    for (const key of ['Principal', 'NotPrincipal']) if (key in statement) statement[key] = principal(statement[key]);
  }
}

/** `"*"`, an ARN, an intrinsic, a logical id, or a list of those: the first form the value can be made to fit. */
function resource(value: unknown): unknown {
  if (value === '*') return value;
  const text = string(value);
  if (typeof text === 'string' && (text.startsWith('arn:') || RESOURCE_LOGICAL_ID.test(text))) return text;
  if (isIntrinsic(text)) return text;
  // Ajv keeps a coercion made while trying an alternative that then failed: `["*"]` becomes
  // "*" trying the ARN form, then `["*"]` again in the list form.
  const list = isScalar(text) ? [text] : text;
  return Array.isArray(list) ? list.map(string) : list;
}

/** `"*"` or `{ AWS, Service, Federated, CanonicalUser }`, each a list. */
function principal(value: unknown): unknown {
  if (!isObject(value) || isIntrinsic(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const key of ['Federated', 'Service', 'CanonicalUser']) if (key in out) out[key] = stringList(out[key]);
  if ('AWS' in out && out.AWS !== '*' && !isIntrinsic(out.AWS)) {
    const list = isScalar(out.AWS) ? [out.AWS] : out.AWS;
    out.AWS = Array.isArray(list) ? list.map(string) : list;
  }
  return out;
}

/** Ajv's coercion to an array of strings: a scalar becomes a one-item list, scalar items become text. */
function stringList(value: unknown): unknown {
  if (isIntrinsic(value)) return value;
  const list = isScalar(value) ? [value] : value;
  return Array.isArray(list) ? list.map(string) : list;
}

/** Ajv's coercion to a string: a one-item list of a scalar, a number or a boolean becomes text. */
function string(value: unknown): unknown {
  const single = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (typeof single === 'string') return single;
  if (typeof single === 'number' || typeof single === 'boolean') return String(single);
  if (single === null) return '';
  return value;
}

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const objectAt = (parent: Record<string, unknown>, key: string) => (isObject(parent[key]) ? (parent[key] as Record<string, unknown>) : undefined);
