/**
 * Custom resources: Lambda-backed `Custom::…` resources that configure things
 * CloudFormation cannot (notifications of a bucket this stack does not own, triggers
 * of an existing user pool, …).
 *
 * How to use it from an event (see events/s3.ts for a complete one):
 *
 * ```ts
 * const provider = customResourceFunction(fn.service, 'existing-s3', 's3/handler.handler');
 * // Evaluated at synthesis, so one entry per kind can list everything its resources added:
 * provider.addStatements('existing-s3', () => buckets.map(bucket => ({ Effect: 'Allow', Action: [...], Resource: ... })));
 * new CustomResource(fn, 'ExistingS3', {
 *   logicalId: 'UsersCustomS31', type: 'Custom::S3', provider,
 *   dependsOn: [fn.lambda.logicalId],              // DependsOn: [these…, the provider function]
 *   properties: () => ({ FunctionName: …, … }),    // ServiceToken is added first
 * });
 * ```
 *
 * - Every kind (`existing-s3`, `existing-cognito-user-pool`, …) gets one function,
 *   `CustomDashresource…LambdaFunction` (nodejs18.x, 1024 MB, 180 s), created on first use.
 *   Its handler is written by us in `src/custom-resources/<folder>/handler.ts`;
 *   `src/custom-resources/response.ts` answers CloudFormation for every handler.
 * - All kinds run as one shared role, `IamRoleCustomResourcesLambdaExecution`; each kind
 *   adds its statements under a key (the first entry under a key wins), in first-use order.
 * - Every handler is packaged into one `custom-resources.zip` beside the service's zips: the
 *   packaging step calls `writeCustomResourcesZip(service, dir)`, which writes it only when
 *   the service uses a custom resource, and uploads the artifact it returns with the others.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import { writeZip, zipEntry, type ZipEntry } from '../artifacts/zip';
import type { Artifact } from '../artifacts/artifact';
import type { IamStatement, Json } from './model';
import { Resource, getAtt, join as fnJoin } from './resource';
import type { Service } from './service';

/** The runtime the handlers are written for; the reference pins it too, whatever the service's runtime. */
const RUNTIME = 'nodejs18.x';
const TIMEOUT = 180;
const MEMORY = 1024;
/** Lambda's limit on function names. */
const MAX_FUNCTION_NAME = 64;

/** The shared role and the functions of every custom-resource kind the service uses. */
export class CustomResources extends Construct {
  readonly role: CustomResourcesRole;
  private readonly functions = new Map<string, CustomResourceFunction>();

  static of(service: Service): CustomResources {
    return service.shared('CustomResources', (scope, id) => new CustomResources(scope, id));
  }

  private constructor(readonly service: Service, id: string) {
    super(service, id);
    this.role = new CustomResourcesRole(this, 'Role', service);
    if (this.logs) {
      // As the functions' role words them: every `{service}-{stage}…` log group.
      const prefix = `arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:/aws/lambda/${service.name}-${service.stage}*`;
      this.role.addStatements('logs', () => [
        { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:CreateLogGroup', 'logs:TagResource'], Resource: [{ 'Fn::Sub': `${prefix}:*` }] },
        { Effect: 'Allow', Action: ['logs:PutLogEvents'], Resource: [{ 'Fn::Sub': `${prefix}:*:*` }] },
      ]);
    }
  }

  /** `provider.logs.frameworkLambda`: the custom-resource functions get log groups, and their role the right to write to them. */
  get logs(): boolean {
    return (this.service.provider.logs as { frameworkLambda?: unknown } | undefined)?.frameworkLambda === true;
  }

  /** The function backing one kind of custom resource, created on first use. */
  function(kind: string, handler: string): CustomResourceFunction {
    let fn = this.functions.get(kind);
    if (!fn) {
      fn = new CustomResourceFunction(this, kind, this.service, { kind, handler });
      if (this.logs) new CustomResourceLogGroup(this, `${kind}LogGroup`, fn);
      this.functions.set(kind, fn);
    }
    return fn;
  }
}

/** Shorthand: the function (and shared role) for `kind`, created on first use. */
export function customResourceFunction(service: Service, kind: string, handler: string): CustomResourceFunction {
  return CustomResources.of(service).function(kind, handler);
}

/** `IamRoleCustomResourcesLambdaExecution`: statements are added by the kinds in use, in the order they are first added. */
export class CustomResourcesRole extends Resource {
  readonly type = 'AWS::IAM::Role';
  private readonly statements = new Map<string, () => IamStatement[]>();

  constructor(scope: Construct, id: string, private readonly service: Service) {
    super(scope, id);
  }

  get logicalId() {
    return naming.customResourcesRole();
  }

  /** Statements evaluated at synthesis, so a kind can list everything its resources added; the first one under `key` wins. */
  addStatements(key: string, statements: () => IamStatement[]): void {
    if (!this.statements.has(key)) this.statements.set(key, statements);
  }

  protected properties() {
    return {
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: ['lambda.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
      },
      Policies: [
        {
          PolicyName: fnJoin([this.service.stage, this.service.name, 'custom-resources-lambda'], '-'),
          PolicyDocument: { Version: '2012-10-17', Statement: [...this.statements.values()].flatMap(statements => statements()) },
        },
      ],
    };
  }
}

/** The Lambda function behind one kind of custom resource (`CustomDashresourceDashexistingDashs3LambdaFunction`). */
export class CustomResourceFunction extends Resource {
  readonly type = 'AWS::Lambda::Function';

  constructor(
    private readonly resources: CustomResources,
    id: string,
    readonly service: Service,
    private readonly props: { kind: string; handler: string },
  ) {
    super(resources, id);
  }

  get logicalId() {
    return naming.customResourceFunction(this.props.kind);
  }

  get arn(): Json {
    return getAtt(this.logicalId, 'Arn');
  }

  /** Adds statements to the shared role (see CustomResourcesRole.addStatements). */
  addStatements(key: string, statements: () => IamStatement[]): void {
    this.resources.role.addStatements(key, statements);
  }

  protected properties() {
    return {
      Code: {
        S3Bucket: this.service.deploymentBucketRef,
        S3Key: `${this.service.artifactDirectory}/${naming.customResourcesArtifact()}`,
      },
      FunctionName: this.physicalName,
      Handler: this.props.handler,
      MemorySize: MEMORY,
      Runtime: RUNTIME,
      Timeout: TIMEOUT,
      Role: getAtt(naming.customResourcesRole(), 'Arn'),
    };
  }

  get physicalName(): string {
    return functionName(naming.customResourceFunctionName(this.service.name, this.service.stage, this.props.kind));
  }

  get logGroupLogicalId(): string {
    return naming.logGroup(`custom-resource-${this.props.kind}`);
  }

  protected override attributes() {
    return { after: { DependsOn: [naming.customResourcesRole(), ...(this.resources.logs ? [this.logGroupLogicalId] : [])] } };
  }
}

/** `CustomDashresource…LogGroup`, with `provider.logs.frameworkLambda`. */
class CustomResourceLogGroup extends Resource {
  readonly type = 'AWS::Logs::LogGroup';

  constructor(scope: Construct, id: string, private readonly fn: CustomResourceFunction) {
    super(scope, id);
  }

  get logicalId() {
    return this.fn.logGroupLogicalId;
  }

  protected properties() {
    const retention = this.fn.service.provider.logRetentionInDays;
    return { LogGroupName: naming.logGroupName(this.fn.physicalName), ...(retention !== undefined ? { RetentionInDays: retention } : {}) };
  }
}

/** A name over Lambda's limit keeps its first 32 characters and adds the md5 of the whole. */
function functionName(name: string): string {
  if (name.length <= MAX_FUNCTION_NAME) return name;
  return `${name.slice(0, 32)}${createHash('md5').update(name).digest('hex')}`;
}

export interface CustomResourceProps {
  logicalId: string;
  /** `Custom::S3`, … */
  type: string;
  provider: CustomResourceFunction;
  /** Logical ids the resource waits for besides its function (the function it configures). */
  dependsOn?: string[];
  /** Everything but the `ServiceToken`, evaluated at synthesis. */
  properties: () => Record<string, Json>;
}

/** One `Custom::…` resource, answered by its kind's function. */
export class CustomResource extends Resource {
  readonly type: string;

  constructor(scope: Construct, id: string, private readonly props: CustomResourceProps) {
    super(scope, id);
    this.type = props.type;
  }

  get logicalId() {
    return this.props.logicalId;
  }

  protected properties() {
    return { ServiceToken: this.props.provider.arn, ...this.props.properties() };
  }

  protected override attributes() {
    return { before: { Version: 1, DependsOn: [...(this.props.dependsOn ?? []), this.props.provider.logicalId] } };
  }
}

/**
 * Where the compiled handlers are, `dist/src/custom-resources`: beside this file's folder when
 * run from `dist/src/constructs`, below it when run from the one-file bundle `dist/fw.js`.
 */
export const HANDLERS_DIR =
  [join(__dirname, '..', 'custom-resources'), join(__dirname, 'src', 'custom-resources')].find(dir => existsSync(join(dir, 'response.js'))) ??
  join(__dirname, '..', 'custom-resources');

/**
 * Packaging hook: writes `custom-resources.zip` (every handler, paths relative to
 * `src/custom-resources`, e.g. `s3/handler.js`) into `outDir` when the service uses a custom
 * resource. Returns the artifact to upload with the others, or undefined.
 */
export function writeCustomResourcesZip(service: Service, outDir: string, handlersDir = HANDLERS_DIR): Artifact | undefined {
  if (service.node.tryFindChild('CustomResources') === undefined) return undefined;
  if (!existsSync(join(handlersDir, 'response.js'))) throw new Error(`The custom resource handlers are missing from ${handlersDir} (is fw built?)`);
  const entries: ZipEntry[] = handlerFiles(handlersDir).map(file =>
    zipEntry(relative(handlersDir, file).split(sep).join('/'), readFileSync(file), false),
  );
  const name = naming.customResourcesArtifact();
  const path = join(outDir, name);
  const written = writeZip(path, entries);
  return { name, path, sha256: written.sha256, codeSha256: written.codeSha256, size: written.size };
}

/** The handlers' JavaScript files (compiled output; declaration files left out), sorted. */
function handlerFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...handlerFiles(path));
    else if (name.endsWith('.js')) files.push(path);
  }
  return files;
}

