import * as t from 'typanion';
import { ConfigError, escapeInvisible, show } from '../errors';
import { isIntrinsic } from '../intrinsic';
import { clashingFunctionKeys, functionKeyProblem } from '../synth/name-checks';
import { lambdaFunction as functionLogicalId } from '../synth/naming';
import { closest } from '../synth/suggest';
import { anyOf, describe, intrinsicSchema, jsonSchemaOf, type JsonSchema } from './json-schema';

/**
 * The typanion schema of a service file. As permissive as Serverless
 * Framework v3 where it is permissive: anything goes under `custom` and in
 * CloudFormation sections, and an intrinsic function (`{ Ref }`,
 * `{ 'Fn::GetAtt' }`, …) is accepted wherever a string or number is.
 * Problems read `at "functions.hello.timeout": expected a number, got "x"`.
 */

export type ValidationMode = 'warn' | 'error' | 'off';
export type Schema = t.LooseValidator<unknown, unknown>;
/** A schema whose accepted values have the type T (`t.InferType` reads it). */
export type Typed<T> = t.LooseValidator<unknown, T>;

/** `{ Ref: 'X' }`, `{ 'Fn::GetAtt': ['X', 'Arn'] }`, `{ 'Fn::Sub': '…' }`, … */
export type Intrinsic = { Ref: string } | { [fn: `Fn::${string}`]: unknown } | { Condition: string };

export interface SchemaExtensions {
  /** One schema per event type (its key in `events`); other event types accept any value. */
  eventSchemas?: Record<string, Schema>;
  /** Properties plugins add (like Serverless' configSchemaHandler). */
  extend?: {
    topLevel?: Record<string, Schema>;
    provider?: Record<string, Schema>;
    function?: Record<string, Schema>;
    custom?: Record<string, Schema>;
  };
  /**
   * Function properties plugins declare as IAM statements (v3's `#/definitions/awsIamPolicyStatements`,
   * e.g. serverless-iam-roles-per-function's `iamRoleStatements`): v3's validator rewrites them as it
   * rewrites the provider's statements, before any plugin reads them.
   */
  functionStatements?: string[];
}

// ── building blocks ─────────────────────────────────────────────────────

/**
 * Ends a problem that fw cannot build the template with (a value its own code reads, such as
 * `runtime`, of the wrong type): an error whatever `configValidationMode` says, since going
 * on would only crash later.
 */
export const NEEDED = ' (fw needs it to build the template)';
/** How `needed` marks typanion's error strings until `parse` reads them. */
const NEEDED_MARK = '!';

/** A schema whose problems are errors in every validation mode (see NEEDED); same JSON Schema and type. */
export function needed<T>(schema: Typed<T>): Typed<T> {
  return describe(
    t.makeValidator<unknown, unknown>({
      test: (value, state) => {
        const errors: string[] = [];
        if (schema(value, { ...state, errors })) return true;
        state?.errors?.push(...errors.map((error) => `${NEEDED_MARK}${error}`));
        return false;
      },
    }),
    () => jsonSchemaOf(schema),
  ) as Typed<T>;
}

/** Records a problem the way typanion does (`.path: Message`) and fails. */
function pushError(state: t.ValidationState | undefined, message: string): false {
  state?.errors?.push(`${state.p ?? '.'}: ${message}`);
  return false;
}

function pushNeeded(state: t.ValidationState | undefined, message: string): false {
  state?.errors?.push(`${NEEDED_MARK}${state.p ?? '.'}: ${message}`);
  return false;
}

function fail(state: t.ValidationState | undefined, expected: string, value: unknown): false {
  return pushError(state, `Expected ${expected} (got ${show(value)})`);
}

const scalar = <T>(kind: 'string' | 'number' | 'boolean', expected: string): Typed<T | Intrinsic> =>
  describe(
    t.makeValidator<unknown, unknown>({
      test: (value, state) => typeof value === kind || isIntrinsic(value) || fail(state, expected, value),
    }),
    () => anyOf([{ type: kind }, intrinsicSchema()]),
  ) as Typed<T | Intrinsic>;

/** A string, or a CloudFormation intrinsic. */
export const str = scalar<string>('string', 'a string');
/** A number, or a CloudFormation intrinsic. */
export const num = scalar<number>('number', 'a number');
export const bool = scalar<boolean>('boolean', 'true or false');
export const any: Typed<unknown> = describe(t.isUnknown(), {});
export const anyObject: Typed<Record<string, unknown>> = describe(
  t.makeValidator<unknown, unknown>({
    test: (value, state) => (value !== null && typeof value === 'object' && !Array.isArray(value)) || fail(state, 'an object', value),
  }),
  { type: 'object' },
) as Typed<Record<string, unknown>>;

export function oneOfValues<const V extends readonly unknown[]>(values: V): Typed<V[number]> {
  const expected = values.map((value) => JSON.stringify(value)).join(', ').replace(/, ([^,]*)$/, ' or $1');
  return describe(
    t.makeValidator<unknown, unknown>({ test: (value, state) => values.includes(value) || fail(state, expected, value) }),
    { enum: [...values] },
  ) as Typed<V[number]>;
}

/** Attaches a description (shown by editors) to a schema's JSON Schema. */
export function documented<S extends Schema>(text: string, schema: S): S {
  const wrapped = ((value: unknown, state?: t.ValidationState) => schema(value, state)) as unknown as S;
  return describe(wrapped, () => ({ description: text, ...jsonSchemaOf(schema) }));
}

/**
 * Tries the alternatives in order. When none fits, the problems of the one
 * whose outer type matched (an object with a wrong field) are reported, else
 * one message naming every alternative.
 */
export function either<A extends Schema[]>(expected: string, ...alternatives: A): Typed<t.InferType<A[number]>> {
  return describe(t.makeValidator<unknown, unknown>({
    test: (value, state) => {
      if (alternatives.some((alternative) => alternative(value))) return true;
      const here = state?.p ?? '.';
      for (const alternative of alternatives) {
        const errors: string[] = [];
        alternative(value, { ...state, p: here, errors });
        if (errors.length > 0 && errors.every((error) => !error.startsWith(`${here}: `))) {
          state?.errors?.push(...errors);
          return false;
        }
      }
      return fail(state, expected, value);
    },
  }), () => anyOf(alternatives.map(jsonSchemaOf))) as Typed<t.InferType<A[number]>>;
}

export function list<T>(item: Typed<T>): Typed<T[] | Intrinsic> {
  return describe(t.makeValidator<unknown, unknown>({
    test: (value, state) => {
      if (!Array.isArray(value)) return isIntrinsic(value) || fail(state, 'a list', value);
      let valid = true;
      value.forEach((entry, index) => {
        valid = item(entry, { ...state, p: `${state?.p ?? '.'}[${index}]` }) && valid;
      });
      return valid;
    },
  }), () => anyOf([{ type: 'array', items: jsonSchemaOf(item) }, intrinsicSchema()])) as Typed<T[] | Intrinsic>;
}

function childPath(state: t.ValidationState | undefined, key: string): string {
  const base = state?.p ?? '.';
  return base === '.' ? `.${key}` : `${base}.${key}`;
}

export function record<T>(value: Typed<T>): Typed<Record<string, T> | Intrinsic> {
  return describe(t.makeValidator<unknown, unknown>({
    test: (input, state) => {
      if (input === null || typeof input !== 'object' || Array.isArray(input)) return isIntrinsic(input) || fail(state, 'an object', input);
      let valid = true;
      for (const [key, child] of Object.entries(input)) valid = value(child, { ...state, p: childPath(state, key) }) && valid;
      return valid;
    },
  }), () => anyOf([{ type: 'object', additionalProperties: jsonSchemaOf(value) }, intrinsicSchema()])) as Typed<Record<string, T> | Intrinsic>;
}

/** The type of a `shape`: required properties, optional ones, and what `extra` lets through. */
export type ShapeType<P extends Record<string, Schema>, R extends string, E> = {
  [K in keyof P as K extends R ? K : never]: t.InferType<P[K]>;
} & {
  // null: an empty key (`vpc: ~`) is the same as no key.
  [K in keyof P as K extends R ? never : K]?: t.InferType<P[K]> | null;
} & ([E] extends [never] ? unknown : Record<string, E>);

/**
 * An object with known properties. Unknown ones are reported with the
 * closest known name (`unknown property "runtme" (did you mean "runtime"?)`)
 * unless `extra` is given, which then validates them.
 */
export function shape<P extends Record<string, Schema>, R extends keyof P & string = never, E = never>(
  properties: P,
  { required = [], extra }: { required?: readonly R[]; extra?: Typed<E> } = {},
): Typed<ShapeType<P, R, E>> {
  return describe(t.makeValidator<unknown, unknown>({
    test: (input, state) => {
      if (input === null || typeof input !== 'object' || Array.isArray(input)) return fail(state, 'an object', input);
      let valid = true;
      for (const name of required) {
        if ((input as Record<string, unknown>)[name] === undefined) valid = pushError({ ...state, p: childPath(state, name) }, 'Expected a value (it is required)');
      }
      for (const [key, child] of Object.entries(input)) {
        const childState = { ...state, p: childPath(state, key) };
        const schema = Object.hasOwn(properties, key) ? properties[key] : extra;
        if (schema) {
          if (child !== undefined && child !== null) valid = schema(child, childState) && valid;
          continue;
        }
        const near = closest(key, Object.keys(properties));
        valid = pushError(childState, `Unknown property${near ? ` (did you mean "${near}"?)` : ''}`) && valid;
      }
      return valid;
    },
  }), () => shapeSchema(properties, required, extra)) as Typed<ShapeType<P, R, E>>;
}

function shapeSchema(properties: Record<string, Schema>, required: readonly string[], extra: Schema | undefined): JsonSchema {
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, nullable(jsonSchemaOf(value))])),
  };
  if (required.length > 0) schema.required = [...required];
  schema.additionalProperties = extra ? jsonSchemaOf(extra) : false;
  return schema;
}

/** An empty key (`vpc: ~`) is the same as no key: shape skips null values. The description stays on top, where editors read it. */
function nullable({ description, ...schema }: JsonSchema): JsonSchema {
  const alternatives = anyOf([schema, { type: 'null' }]);
  return description === undefined ? alternatives : { description, ...alternatives };
}


// ── the service file ────────────────────────────────────────────────────

/**
 * The Lambda runtime identifiers (deprecated ones included: an existing function may still
 * use them). Another value is reported like any invalid setting.
 */
export const RUNTIMES = [
  'nodejs14.x', 'nodejs16.x', 'nodejs18.x', 'nodejs20.x', 'nodejs22.x', 'nodejs24.x',
  'python3.7', 'python3.8', 'python3.9', 'python3.10', 'python3.11', 'python3.12', 'python3.13', 'python3.14',
  'ruby2.7', 'ruby3.2', 'ruby3.3', 'ruby3.4',
  'java8', 'java8.al2', 'java11', 'java17', 'java21', 'java25',
  'dotnet6', 'dotnet8', 'dotnet10',
  'go1.x', 'provided', 'provided.al2', 'provided.al2023',
] as const;
export type Runtime = (typeof RUNTIMES)[number];
const strList = list(str);
/** A value fw's own code reads must have the right type; a problem inside it is advisory. */
const plainString = t.makeValidator<unknown, unknown>({ test: (value, state) => typeof value === 'string' || fail(state, 'a string', value) });
const plainList = t.makeValidator<unknown, unknown>({ test: (value, state) => Array.isArray(value) || fail(state, 'a list', value) });
const plainObject = t.makeValidator<unknown, unknown>({
  test: (value, state) => (value !== null && typeof value === 'object' && !Array.isArray(value)) || fail(state, 'an object', value),
});

/** `inner`'s problems are advisory, but the outer type is one fw's own code relies on. */
function neededOuter<T>(outer: Schema, inner: Typed<T>): Typed<T> {
  const check = needed(outer);
  return describe(
    t.makeValidator<unknown, unknown>({ test: (value, state) => (outer(value) ? inner(value, state) : check(value, state)) }),
    () => jsonSchemaOf(inner),
  ) as Typed<T>;
}

const knownRuntime = oneOfValues(RUNTIMES);
/** `FW_EXTRA_RUNTIMES` (comma-separated): runtime identifiers newer than this fw, accepted without the warning. */
const extraRuntimes = () => (process.env.FW_EXTRA_RUNTIMES ?? '').split(',').map(name => name.trim()).filter(Boolean);
const runtimeIdentifier = describe(
  t.makeValidator<unknown, unknown>({ test: (value, state) => (typeof value === 'string' && extraRuntimes().includes(value)) || knownRuntime(value, state) }),
  () => jsonSchemaOf(knownRuntime),
) as typeof knownRuntime;

/** `runtime`: a string fw reads itself (an intrinsic cannot stand in for it); an unknown identifier is advisory (a warning listing the known ones). */
const runtime = neededOuter(plainString, runtimeIdentifier);

/** `functions`: keys that can form logical ids, no two giving the same ones, each function an object. */
function functionsRecord<T>(functionSchema: Typed<T>): Typed<Record<string, T>> {
  const each = neededOuter(plainObject, functionSchema);
  const validator = t.makeValidator<unknown, unknown>({
    test: (input, state) => {
      if (!plainObject(input)) return needed(plainObject)(input, state);
      let valid = true;
      const keys = Object.keys(input as object);
      for (const key of keys) {
        const childState = { ...state, p: childPath(state, key) };
        const problem = functionKeyProblem(key);
        if (problem) valid = pushNeeded(childState, `${problem.charAt(0).toUpperCase()}${problem.slice(1)}`);
        else valid = each((input as Record<string, unknown>)[key], childState) && valid;
      }
      for (const { key, earlier } of clashingFunctionKeys(keys.filter((key) => !functionKeyProblem(key)))) {
        valid = pushNeeded(
          { ...state, p: childPath(state, key) },
          `Its logical ids (${functionLogicalId(key)}, …) would be those of "functions.${earlier}" too; rename one of them`,
        );
      }
      return valid;
    },
  });
  return describe(validator, () => ({ type: 'object', additionalProperties: jsonSchemaOf(functionSchema), propertyNames: { pattern: '^[A-Za-z0-9_-]+$' } })) as Typed<Record<string, T>>;
}
/** Environment variables and tags: text, though numbers and booleans are taken as their text. */
const strMap = record(either('a string', str, scalar('number', 'a number'), bool));
const architecture = oneOfValues(['x86_64', 'arm64']);
const tracingMode = either('true, false, "Active" or "PassThrough"', bool, oneOfValues(['Active', 'PassThrough']));
const runtimeManagement = either('"auto", "onFunctionUpdate" or { mode, arn }', oneOfValues(['auto', 'onFunctionUpdate']), shape({ mode: oneOfValues(['auto', 'onFunctionUpdate', 'manual']), arn: str }));
const vpc = shape({ securityGroupIds: strList, subnetIds: strList, ipv6AllowedForDualStack: bool });
const iamStatement = shape(
  { Sid: str, Effect: oneOfValues(['Allow', 'Deny']), Action: any, NotAction: any, Resource: any, NotResource: any, Condition: any, Principal: any, NotPrincipal: any },
  { required: ['Effect'] },
);

export const packageSchema = shape({
  artifact: str,
  exclude: strList,
  include: strList,
  patterns: strList,
  individually: bool,
  excludeDevDependencies: bool,
  path: str,
});

const PROVIDER = {
  name: oneOfValues(['aws']),
  // Nested stacks beyond CloudFormation's limits (src/synth/split/config.ts checks the details).
  stackSplitting: either('a mode or { mode, resources }', oneOfValues(['auto', 'per-function', 'per-type', 'off']), bool, anyObject),
  stage: str,
  region: str,
  profile: str,
  runtime,
  runtimeManagement,
  memorySize: num,
  timeout: num,
  architecture,
  environment: strMap,
  tags: strMap,
  stackTags: strMap,
  stackName: str,
  stackParameters: list(shape({ ParameterKey: str, ParameterValue: str, UsePreviousValue: bool, ResolvedValue: str })),
  stackPolicy: list(anyObject),
  deploymentMethod: oneOfValues(['changesets', 'direct']),
  deploymentPrefix: str,
  deploymentBucket: either('a bucket name or an object', str, anyObject),
  notificationArns: strList,
  disableRollback: bool,
  rollbackConfiguration: anyObject,
  tracing: shape({ apiGateway: bool, lambda: tracingMode }),
  logRetentionInDays: num,
  logDataProtectionPolicy: anyObject,
  kmsKeyArn: str,
  lambdaHashingVersion: either('a string or a number', str, num),
  versionFunctions: bool,
  iam: shape({
    role: either('a role ARN or { statements, managedPolicies, … }', str, shape({
      name: str,
      path: str,
      statements: neededOuter(plainList, list(iamStatement)),
      managedPolicies: neededOuter(plainList, strList),
      permissionsBoundary: str,
      // The spelling Serverless v3 also accepts.
      permissionBoundary: str,
      tags: strMap,
    })),
    deploymentRole: str,
  }),
  iamRoleStatements: neededOuter(plainList, list(iamStatement)),
  iamManagedPolicies: neededOuter(plainList, strList),
  role: str,
  rolePermissionsBoundary: str,
  cfnRole: str,
  vpc,
  vpcEndpointIds: strList,
  httpApi: shape({
    id: str,
    name: str,
    payload: oneOfValues(['1.0', '2.0']),
    disableDefaultEndpoint: bool,
    metrics: bool,
    cors: either('true or a CORS object', bool, anyObject),
    authorizers: record(anyObject),
    useProviderTags: bool,
    shouldStartNameWithService: bool,
  }),
  apiGateway: anyObject,
  apiName: str,
  endpointType: str,
  websocketsApiName: str,
  websocketsApiRouteSelectionExpression: str,
  websocketsDescription: str,
  alb: anyObject,
  ecr: anyObject,
  cloudFront: anyObject,
  eventBridge: anyObject,
  logs: anyObject,
  s3: record(anyObject),
  layers: strList,
  websocket: anyObject,
  kinesis: anyObject,
};

/** Lambda keeps at most 256 characters of a function's description. */
const description = describe(
  t.makeValidator<unknown, unknown>({
    test: (value, state) => !str(value, state) ? false : typeof value !== 'string' || value.length <= 256 || fail(state, `a description of at most 256 characters (it has ${value.length})`, value),
  }),
  () => jsonSchemaOf(str),
) as typeof str;

const FUNCTION = {
  handler: str,
  image: either('an image name or an object', str, anyObject),
  name: str,
  description,
  runtime,
  runtimeManagement,
  memorySize: num,
  timeout: num,
  ephemeralStorageSize: num,
  architecture,
  environment: strMap,
  tags: strMap,
  role: str,
  onError: str,
  kmsKeyArn: str,
  awsKmsKeyArn: str,
  snapStart: bool,
  disableLogs: bool,
  logRetentionInDays: num,
  logDataProtectionPolicy: anyObject,
  reservedConcurrency: num,
  provisionedConcurrency: num,
  vpc,
  url: either('true or { authorizer, cors, invokeMode }', bool, shape({ authorizer: oneOfValues(['aws_iam']), cors: either('true or a CORS object', bool, anyObject), invokeMode: oneOfValues(['BUFFERED', 'RESPONSE_STREAM']) })),
  package: packageSchema,
  layers: strList,
  tracing: tracingMode,
  condition: str,
  dependsOn: either('a logical id or a list of them', str, strList),
  destinations: shape({ onSuccess: either('a target or { type, arn }', str, anyObject), onFailure: either('a target or { type, arn }', str, anyObject) }),
  fileSystemConfig: shape({ arn: str, localMountPath: str }, { required: ['arn', 'localMountPath'] }),
  maximumEventAge: num,
  maximumRetryAttempts: num,
  versionFunction: bool,
  httpApi: shape({ payload: oneOfValues(['1.0', '2.0']) }),
};

function eventSchema(eventSchemas: Record<string, Schema>): Schema {
  return describe(t.makeValidator<unknown, unknown>({
    test: (value, state) => {
      // A bare `- alexaSkill` (deprecated in v3): accepted with a warning when the function is built.
      if (value === 'alexaSkill') return true;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail(state, 'an event like { httpApi: … }', value);
      const keys = Object.keys(value);
      if (keys.length !== 1) return fail(state, 'one event type per list item', value);
      const schema = eventSchemas[keys[0]];
      if (!schema) return true;
      return schema((value as Record<string, unknown>)[keys[0]], { ...state, p: childPath(state, keys[0]) });
    },
  }), () => eventsJsonSchema(eventSchemas));
}

/** One alternative per event type: `{ sqs: … }`, `{ httpApi: … }`, …; any one-key object when none is known. */
function eventsJsonSchema(eventSchemas: Record<string, Schema>): JsonSchema {
  const types = Object.keys(eventSchemas);
  if (types.length === 0) return { type: 'object', minProperties: 1, maxProperties: 1 };
  return anyOf(
    types.map((type) => ({ type: 'object', properties: { [type]: jsonSchemaOf(eventSchemas[type]) }, required: [type], additionalProperties: false })),
  );
}

export const resourcesSection = shape(
  {
    AWSTemplateFormatVersion: str,
    Description: str,
    Metadata: anyObject,
    Parameters: record(anyObject),
    Mappings: anyObject,
    Conditions: anyObject,
    Transform: any,
    // A `Fn::Transform` entry (a macro that rewrites the section) sits beside the resources, as CloudFormation allows.
    Resources: shape(
      { 'Fn::Transform': shape({ Name: str, Parameters: anyObject }, { required: ['Name'] }) },
      { extra: shape({ Type: str }, { required: ['Type'], extra: any }) },
    ),
    Outputs: record(anyObject),
    extensions: record(anyObject),
  },
);

export const layerSchema = shape({
  path: str,
  name: str,
  description: str,
  compatibleRuntimes: list(runtime),
  compatibleArchitectures: list(architecture),
  licenseInfo: str,
  allowedAccounts: strList,
  retain: bool,
  package: packageSchema,
});

/** The top-level keys but `provider`, `functions` and `custom`, which plugins may extend. */
const TOP_LEVEL = {
  service: documented('The service name: the stack is {service}-{stage}', either('a service name', str, shape({ name: str }, { extra: any }))),
  frameworkVersion: documented("A semver range of fw's version; ranges for Serverless Framework v3 ('3', '^3') are accepted", either('a version range', str, num)),
  configValidationMode: documented('warn (default): print each problem and go on; error: exit 1; off: skip the check', oneOfValues(['warn', 'error', 'off'])),
  useDotenv: documented('Load .env.<stage> (or .env) for ${env:…}', bool),
  // fw.ts / fw.js: a function that adds constructs to the tree (see src/plugins/constructs.ts).
  addConstructs: any,
  deprecationNotificationMode: oneOfValues(['error', 'warn', 'warn:summary']),
  disabledDeprecations: either('"*" or a list of codes', oneOfValues(['*']), strList),
  variablesResolutionMode: any,
  unresolvedVariablesNotificationMode: any,
  projectDir: str,
  console: any,
  dashboard: anyObject,
  org: str,
  app: str,
  tenant: str,
  outputs: anyObject,
  params: documented('Values for ${param:…}: `default` and one entry per stage', record(anyObject)),
  layers: documented('Lambda layers, by name', record(layerSchema)),
  package: documented('What goes into the code zips (patterns, individually, artifact)', packageSchema),
  build: documented("Serverless v4's build settings: build.esbuild bundles TypeScript handlers (external, exclude, sourcemap, minify, target)", shape({ esbuild: either('true, false or the esbuild settings', bool, anyObject) }, { extra: any })),
  plugins: either('a list of plugin names or { localPath, modules }', strList, shape({ localPath: str, modules: strList }, { required: ['modules'] })),
  resources: documented('CloudFormation added to the stack: Resources, Outputs, Conditions, … and extensions of the generated resources', either('CloudFormation sections (Resources, Outputs, …) or a list of them', resourcesSection, list(resourcesSection))),
};

/** The parts of the file's schema, typed: src/service/types.ts derives the service file's types from them. */
export const providerSchema = shape(PROVIDER, { required: ['name'] });
export const functionSchema = shape(FUNCTION);
export const topLevelSchema = shape(TOP_LEVEL, { required: ['service'] });

/** The whole-file schema, with what the caller adds. */
export function serviceSchema({ eventSchemas = {}, extend = {} }: SchemaExtensions = {}): Schema {
  return shape(
    {
      ...TOP_LEVEL,
      provider: documented('The cloud provider (aws) and the settings every function shares', neededOuter(plainObject, shape({ ...PROVIDER, ...extend.provider }, { required: ['name'] }))),
      functions: documented(
        'The functions, by key',
        functionsRecord(shape({ ...FUNCTION, ...extend.function, events: documented('What invokes the function: one event type per entry', neededOuter(plainList, list(eventSchema(eventSchemas)))) })),
      ),
      custom: documented('Free-form settings, read with ${self:custom.…} and by plugins', extend.custom ? shape(extend.custom, { extra: any }) : anyObject),
      ...extend.topLevel,
    },
    { required: ['service', 'provider'] },
  );
}

/**
 * Every problem in the configuration, each naming its path and what was expected; with
 * mode `off`, only those fw cannot build the template with (they end with NEEDED).
 */
export function validateConfig(config: Record<string, unknown>, options: SchemaExtensions & { mode?: ValidationMode } = {}): string[] {
  const errors: string[] = [];
  serviceSchema(options)(config, { errors });
  const problems = merge(errors.map(parse)).filter((problem) => options.mode !== 'off' || problem.needed);
  return problems.map(({ path, what, got, needed }) => `at "${path}": ${what}${got !== undefined ? `, got ${got}${meantValue(what, got)}` : ''}${needed ? NEEDED : ''}`);
}

/** `expected "x86_64" or "arm64", got "arm65"` → ` (did you mean "arm64"?)`: the closest listed value to a mistyped one. */
function meantValue(what: string, got: string): string {
  if (!/^expected "/.test(what)) return '';
  let value: unknown;
  try {
    value = JSON.parse(got);
  } catch {
    return '';
  }
  if (typeof value !== 'string') return '';
  const meant = closest(value, [...what.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]));
  return meant && meant !== value ? ` (did you mean "${meant}"?)` : '';
}

/** Whether a problem from `validateConfig` stops fw in every validation mode. */
export const isNeeded = (problem: string) => problem.endsWith(NEEDED);

interface Problem {
  path: string;
  what: string;
  got?: string;
  needed: boolean;
}

/** `.functions.hello.timeout: Expected a number (got "x")` → path, expectation, value. */
function parse(error: string): Problem {
  const needed = error.startsWith(NEEDED_MARK);
  const text = needed ? error.slice(NEEDED_MARK.length) : error;
  const match = /^(\.[^:]*?): (.*?)(?: \(got (.*)\))?$/s.exec(text);
  if (!match) return { path: '', what: text, needed };
  // typanion's isOneOf marks alternatives as `path#1`, `path#2`: same place for the user.
  const path = escapeInvisible(match[1] === '.' ? '' : match[1].replace(/#\d+/g, '').replace(/^\./, ''));
  return { path, what: match[2].charAt(0).toLowerCase() + match[2].slice(1), got: match[3], needed };
}

/** Alternatives that failed at one place become one problem: `expected a string or expected an object, got 1`. */
function merge(problems: Problem[]): Problem[] {
  const merged: Problem[] = [];
  for (const problem of problems) {
    const previous = merged[merged.length - 1];
    if (previous && previous.path === problem.path && previous.got === problem.got && problem.got !== undefined) {
      previous.what = `${previous.what} or ${problem.what.replace(/^expected /, '')}`;
      previous.needed ||= problem.needed;
    } else merged.push({ ...problem });
  }
  return merged;
}

export function validationMode(value: unknown, file: string): ValidationMode {
  if (value === undefined || value === null) return 'warn';
  if (value === 'warn' || value === 'error' || value === 'off') return value;
  throw new ConfigError(`Invalid configuration in ${file}: configValidationMode expected "warn", "error" or "off", got ${show(value)}`);
}

/**
 * warn: print every problem and go on; error: one ConfigError listing all; off: nothing.
 * In every mode, problems fw cannot build the template with (NEEDED) stop it: after the
 * warnings, one ConfigError naming them.
 */
export function applyValidationMode(problems: string[], mode: ValidationMode, warn: (line: string) => void): void {
  if (problems.length === 0) return;
  if (mode === 'error') {
    throw new ConfigError(`Invalid configuration (configValidationMode: error):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  const blocking = problems.filter(isNeeded);
  if (mode === 'warn') for (const problem of problems) if (!isNeeded(problem)) warn(`Warning: invalid configuration ${problem}`);
  if (blocking.length === 1) throw new ConfigError(`Invalid configuration ${blocking[0]}`);
  if (blocking.length > 1) throw new ConfigError(`Invalid configuration:\n${blocking.map((problem) => `  - ${problem}`).join('\n')}`);
}
