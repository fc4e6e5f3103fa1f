import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import type { IamStatement, Json } from './model';
import { Resource, join, partition, region } from './resource';

export interface ExecutionRoleProps {
  service: string;
  stage: string;
  name?: Json;
  path?: string;
  statements: IamStatement[];
  managedPolicies: Json[];
  permissionsBoundary?: Json;
  tags?: Record<string, Json>;
}

/**
 * `IamRoleLambdaExecution`: the role every function without its own `role` runs as.
 * Events add the statements they need (queues, streams) while the tree is built.
 */
export class ExecutionRole extends Resource {
  readonly type = 'AWS::IAM::Role';
  private readonly logResources: { streams: Json[]; events: Json[] } = { streams: [], events: [] };
  private readonly customLogResources: { streams: Json[]; events: Json[] } = { streams: [], events: [] };
  private readonly deniedLogGroups: Json[] = [];
  private tracing = false;
  private servicePrefixUsed = false;
  /** Statements functions need (dead-letter topics, keys, file systems), their destinations', then those events need (queues, streams). */
  private readonly functionStatements: IamStatement[] = [];
  private readonly destinationStatements: IamStatement[] = [];
  private readonly eventStatements: Array<{ statement: IamStatement; source?: string }> = [];
  private readonly extraManagedPolicies: Json[] = [];

  constructor(scope: Construct, id: string, private readonly props: ExecutionRoleProps) {
    super(scope, id);
    const prefix = `arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:/aws/lambda/${props.service}-${props.stage}*`;
    this.logResources.streams.push({ 'Fn::Sub': `${prefix}:*` });
    this.logResources.events.push({ 'Fn::Sub': `${prefix}:*:*` });
  }

  get logicalId() {
    return naming.roleLambdaExecution();
  }

  /** The `{service}-{stage}*` log resources, when a function that logs is named `{service}-{stage}-…`. */
  private get coversServicePrefix(): boolean {
    return this.servicePrefixUsed;
  }

  /** A function whose physical name does not start with `{service}-{stage}` needs its own log statement. */
  addLogGroup(logGroupName: string): void {
    const arn = logGroupArn(logGroupName);
    this.customLogResources.streams.push({ 'Fn::Sub': `${arn}:*` });
    this.customLogResources.events.push({ 'Fn::Sub': `${arn}:*:*` });
  }

  /** `disableLogs` on a function named `{service}-{stage}-…`: denied explicitly where the service-wide log statement covers it. */
  denyLogs(logGroupName: string): void {
    this.deniedLogGroups.push({ 'Fn::Sub': `${logGroupArn(logGroupName)}:*` });
  }

  enableTracing(): void {
    this.tracing = true;
  }

  /** `once`: a statement another function already added is not repeated (v3 writes an `onError` topic or a KMS key once, a file system per function). */
  addFunctionStatement(statement: IamStatement, { once = false } = {}): void {
    if (once && this.functionStatements.some(existing => JSON.stringify(existing) === JSON.stringify(statement))) return;
    this.functionStatements.push(statement);
  }

  /** What a function's `destinations` need: after every other function statement, each one once, as in v3. */
  addDestinationStatement(statement: IamStatement): void {
    if (this.destinationStatements.some(existing => JSON.stringify(existing) === JSON.stringify(statement))) return;
    this.destinationStatements.push(statement);
  }

  /** A statement an event needs; `source` (its event type) places it where the reference does. */
  addStatement(statement: IamStatement, source?: string): void {
    this.eventStatements.push({ statement, source });
  }

  /** A function named `{service}-{stage}-…` is covered by the service-wide log statement. */
  useServicePrefix(): void {
    this.servicePrefixUsed = true;
  }

  addManagedPolicy(arn: Json): void {
    const key = JSON.stringify(arn);
    if (!this.extraManagedPolicies.some(existing => JSON.stringify(existing) === key)) this.extraManagedPolicies.push(arn);
  }

  protected properties() {
    const { service, stage } = this.props;
    const statements: IamStatement[] = [];
    // When every function has `disableLogs`, v3 writes these two with empty Resource lists, which
    // IAM rejects (a statement needs a resource): fw leaves them out.
    if (this.customLogResources.streams.length > 0 || this.coversServicePrefix) {
      statements.push(
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:CreateLogGroup', 'logs:TagResource'],
          Resource: [...this.customLogResources.streams, ...(this.coversServicePrefix ? this.logResources.streams : [])],
        },
        {
          Effect: 'Allow',
          Action: ['logs:PutLogEvents'],
          Resource: [...this.customLogResources.events, ...(this.coversServicePrefix ? this.logResources.events : [])],
        },
      );
    }
    if (this.deniedLogGroups.length > 0 && this.coversServicePrefix) statements.push({ Effect: 'Deny', Action: 'logs:PutLogEvents', Resource: this.deniedLogGroups });
    statements.push(...this.props.statements);
    if (this.tracing) statements.push({ Effect: 'Allow', Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], Resource: ['*'] });
    statements.push(...this.functionStatements, ...this.destinationStatements, ...orderBySource(this.eventStatements));
    const managed = [...this.props.managedPolicies, ...this.extraManagedPolicies];
    const properties: Record<string, Json> = {
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: ['lambda.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
      },
      Policies: [
        {
          PolicyName: join([service, stage, 'lambda'], '-'),
          PolicyDocument: { Version: '2012-10-17', Statement: statements },
        },
      ],
      Path: this.props.path ?? '/',
      RoleName: this.props.name ?? join([service, stage, region, 'lambdaRole'], '-'),
    };
    // A policy without statements is not a valid policy document: the role then has none.
    if (statements.length === 0) delete properties.Policies;
    if (managed.length > 0) properties.ManagedPolicyArns = managed;
    if (this.props.permissionsBoundary !== undefined) properties.PermissionsBoundary = this.props.permissionsBoundary;
    if (this.props.tags !== undefined) {
      properties.Tags = Object.entries(this.props.tags).map(([Key, Value]) => ({ Key, Value }));
    }
    return properties;
  }
}

/** The order in which the reference's event plugins add their statements to the shared role. */
const STATEMENT_ORDER = [
  'schedule', 's3', 'http', 'websocket', 'sns', 'stream', 'kafka', 'activemq', 'rabbitmq', 'msk', 'alb',
  'alexaSkill', 'alexaSmartHome', 'iot', 'iotFleetProvisioning', 'cloudwatchEvent', 'cloudwatchLog',
  'cognitoUserPool', 'eventBridge', 'sqs', 'cloudFront', 'httpApi',
];

function orderBySource(entries: Array<{ statement: IamStatement; source?: string }>): IamStatement[] {
  const rank = (source?: string) => {
    const index = source === undefined ? -1 : STATEMENT_ORDER.indexOf(source);
    return index === -1 ? STATEMENT_ORDER.length : index;
  };
  return entries
    .map((entry, position) => ({ ...entry, position }))
    .sort((a, b) => rank(a.source) - rank(b.source) || a.position - b.position)
    .map(entry => entry.statement);
}

const logGroupArn = (logGroupName: string) =>
  `arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:${logGroupName}`;

export const vpcAccessPolicyArn = join(['arn:', partition, ':iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole']);
