import { createHash } from 'node:crypto';
import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import { lambdaFunction as lambdaFunctionLogicalId } from '../synth/naming';
import { ConfigError } from '../errors';
import type { Json } from './model';
import { CfnOutput, Resource, getAtt, join, lambdaInvocationUri, ref, region } from './resource';
import { customResourceFunction } from './custom-resources';
import type { FunctionConstruct } from './function';
import type { Service } from './service';

const DEFAULT_DESCRIPTION = 'Serverless Websockets';
const DEFAULT_ACCESS_LOG_FORMAT =
  '$context.identity.sourceIp $context.identity.caller $context.identity.user [$context.requestTime] "$context.eventType $context.routeKey $context.connectionId" $context.requestId';

export interface WebsocketsResourceProps {
  logicalId: string;
  type: string;
  properties: () => Record<string, Json>;
  /** Attributes written before `Properties` (the reference puts `DependsOn` there for these resources). */
  before?: () => Record<string, Json> | undefined;
}

/** One resource of the websockets API; its fragment also feeds the deployment's hash, so key order matters. */
export class WebsocketsResource extends Resource {
  readonly type: string;
  constructor(scope: Construct, id: string, private readonly props: WebsocketsResourceProps) {
    super(scope, id);
    this.type = props.type;
  }
  get logicalId() {
    return this.props.logicalId;
  }
  protected properties() {
    return this.props.properties();
  }
  protected override attributes() {
    return { before: this.props.before?.() };
  }
}

interface RouteEntry {
  route: WebsocketsResource;
  response?: WebsocketsResource;
  fn: FunctionConstruct;
  path: string;
}

export interface WebsocketsAuthorizer {
  /** `auth` (a function of this service) or the last `:` part of an ARN. */
  name: string;
  /** The key of a function of this service, or the ARN of one elsewhere. */
  functionKey?: string;
  arn?: Json;
  identitySource: Json[];
}

export interface WebsocketsRouteProps {
  routeKey: string;
  routeResponseSelectionExpression?: string;
  authorizer?: WebsocketsAuthorizer;
}

/**
 * The service's one WebSocket API (`WebsocketsApi`), created by the first `websocket` event:
 * an integration and a permission per function, a route per event, the authorizers, the stage,
 * and a deployment named after a hash of all of them, so it is replaced exactly when they change.
 */
export class WebsocketsApi extends Construct {
  private readonly integrations = new Map<string, WebsocketsResource>();
  private readonly routeResponses: WebsocketsResource[] = [];
  private readonly authorizers = new Map<string, WebsocketsResource>();
  private readonly permissions = new Map<string, WebsocketsResource>();
  private readonly routes = new Map<string, RouteEntry>();
  /** The API and its stage, unless `provider.apiGateway.websocketApiId` names an API made elsewhere. */
  private readonly api?: WebsocketsResource;
  private readonly stage?: WebsocketsResource;
  private readonly externalApiId?: Json;
  readonly description: Json;

  static of(service: Service): WebsocketsApi {
    return service.shared('WebsocketsApi', (scope, id) => new WebsocketsApi(scope, id));
  }

  private constructor(readonly service: Service, id: string) {
    super(service, id);
    const provider = service.provider;
    this.description = provider.websocketsDescription ?? DEFAULT_DESCRIPTION;
    this.externalApiId = provider.apiGateway?.websocketApiId;
    new WebsocketsDeployment(this, 'Deployment', this);
    if (this.externalApiId === undefined) {
      this.api = this.createApi();
      const logs = websocketLogs((provider.logs as Record<string, Json> | undefined)?.websocket);
      this.stage = new WebsocketsResource(this, 'Stage', {
        logicalId: naming.websocketsStage(),
        type: 'AWS::ApiGatewayV2::Stage',
        properties: () => ({ ...this.stageProperties(logs), DeploymentId: ref(this.deploymentLogicalId) }),
      });
      if (logs) this.createLogGroup();
    }
    new CfnOutput(this, 'Endpoint', {
      key: naming.websocketsEndpointOutput(),
      description: 'URL of the service endpoint',
      value: join(['wss://', this.apiId, '.execute-api.', region, '.', ref('AWS::URLSuffix'), `/${service.stage}`]),
    });
  }

  get apiId(): Json {
    return this.externalApiId ?? ref(naming.websocketsApi());
  }

  /** Whether this stack creates the API (and its stage), rather than attaching to `provider.apiGateway.websocketApiId`. */
  get ownsApi(): boolean {
    return this.api !== undefined;
  }

  private createApi(): WebsocketsResource {
    const { service } = this;
    const provider = service.provider;
    const api = new WebsocketsResource(this, 'Api', {
      logicalId: naming.websocketsApi(),
      type: 'AWS::ApiGatewayV2::Api',
      properties: () => {
        const properties: Record<string, Json> = {
          Name: provider.websocketsApiName ?? `${service.stage}-${service.name}-websockets`,
          RouteSelectionExpression: provider.websocketsApiRouteSelectionExpression ?? '$request.body.action',
          Description: this.description,
          ProtocolType: 'WEBSOCKET',
        };
        const websocket = provider.websocket as { useProviderTags?: boolean } | undefined;
        if (websocket?.useProviderTags && provider.tags && Object.keys(provider.tags).length > 0) properties.Tags = { ...provider.tags };
        return properties;
      },
    });
    service.role?.addStatement({
      Effect: 'Allow',
      Action: ['execute-api:ManageConnections'],
      Resource: [{ 'Fn::Sub': 'arn:${AWS::Partition}:execute-api:*:*:*/@connections/*' }],
    }, 'websocket');
    return api;
  }

  private createLogGroup(): void {
    const { service } = this;
    const provider = service.provider;
    new WebsocketsResource(this, 'LogGroup', {
      logicalId: naming.websocketsLogGroup(),
      type: 'AWS::Logs::LogGroup',
      properties: () => {
        const properties: Record<string, Json> = { LogGroupName: `/aws/websocket/${service.name}-${service.stage}` };
        if (provider.logRetentionInDays !== undefined) properties.RetentionInDays = provider.logRetentionInDays;
        if (provider.logDataProtectionPolicy !== undefined) properties.DataProtectionPolicy = provider.logDataProtectionPolicy;
        return properties;
      },
    });
    apiGatewayCloudWatchRole(service);
  }

  /** `{Fn}WebsocketsIntegration`, one per function, created with the function's permission. */
  integrationFor(fn: FunctionConstruct): string {
    const logicalId = naming.websocketsIntegration(fn.key);
    if (!this.integrations.has(fn.key)) {
      this.integrations.set(
        fn.key,
        new WebsocketsResource(this, `Integration-${fn.key}`, {
          logicalId,
          type: 'AWS::ApiGatewayV2::Integration',
          before: () => (fn.targetAlias === undefined ? undefined : { DependsOn: fn.targetAlias }),
          properties: () => ({ ApiId: this.apiId, IntegrationType: 'AWS_PROXY', IntegrationUri: lambdaInvocationUri(fn.targetArn) }),
        }),
      );
    }
    this.addPermission(naming.websocketsPermission(fn.key), () => ({
      FunctionName: fn.targetArn,
      Action: 'lambda:InvokeFunction',
      Principal: 'apigateway.amazonaws.com',
    }), () => [fn.targetAlias ?? fn.lambda.logicalId]);
    return logicalId;
  }

  /** `{Name}WebsocketsAuthorizer` (once per name) and the permission for API Gateway to call it. */
  authorizerFor(authorizer: WebsocketsAuthorizer): string {
    const logicalId = naming.websocketsAuthorizer(authorizer.name);
    const functionLogicalId = authorizer.functionKey === undefined ? undefined : lambdaFunctionLogicalId(authorizer.functionKey);
    // The authorizer function's construct, once every function exists (it may come after this one).
    const authorizerFunction = () => (authorizer.functionKey === undefined ? undefined : this.service.function(authorizer.functionKey));
    const functionArn = () => authorizerFunction()?.targetArn ?? (functionLogicalId ? getAtt(functionLogicalId, 'Arn') : authorizer.arn);
    if (!this.authorizers.has(authorizer.name)) {
      this.authorizers.set(
        authorizer.name,
        new WebsocketsResource(this, `Authorizer-${authorizer.name}`, {
          logicalId,
          type: 'AWS::ApiGatewayV2::Authorizer',
          before: () => {
            const alias = authorizerFunction()?.targetAlias;
            return alias === undefined ? undefined : { DependsOn: alias };
          },
          properties: () => ({
            ApiId: this.apiId,
            Name: authorizer.name,
            AuthorizerType: 'REQUEST',
            AuthorizerUri: lambdaInvocationUri(functionArn()),
            IdentitySource: authorizer.identitySource,
          }),
        }),
      );
    }
    const permissionId =
      authorizer.functionKey === undefined ? naming.websocketsAuthorizerPermission(authorizer.name) : naming.websocketsPermission(authorizer.functionKey);
    this.addPermission(permissionId, () => ({
      Action: 'lambda:InvokeFunction',
      Principal: 'apigateway.amazonaws.com',
      FunctionName: functionArn(),
    }), () => {
      const alias = authorizerFunction()?.targetAlias;
      return [...(functionLogicalId ? [functionLogicalId] : []), ...(alias === undefined ? [] : [alias])];
    });
    return logicalId;
  }

  addRoute(fn: FunctionConstruct, props: WebsocketsRouteProps, path: string): void {
    const routeLogicalId = naming.websocketsRoute(props.routeKey);
    const claimed = this.routes.get(props.routeKey);
    if (claimed) {
      // An API has one route per key. Serverless Framework v3 keeps the last function's route and says
      // nothing; published services rely on that (they deploy to AWS), so fw keeps it too, and says so.
      process.stderr.write(
        `Warning: ${path}: the websocket route ${JSON.stringify(props.routeKey)} is also handled by function "${claimed.fn.key}" at '${claimed.path}'; ` +
          `an API has one route per key, so it invokes "${fn.key}" only (as Serverless Framework v3 deploys it)\n`,
      );
      this.node.tryRemoveChild(`Route-${routeLogicalId}`);
      if (claimed.response) {
        this.node.tryRemoveChild(`RouteResponse-${routeLogicalId}`);
        this.routeResponses.splice(this.routeResponses.indexOf(claimed.response), 1);
      }
      this.routes.delete(props.routeKey);
    }
    const integration = this.integrationFor(fn);
    const authorizerId = props.authorizer ? this.authorizerFor(props.authorizer) : undefined;
    const route = new WebsocketsResource(this, `Route-${routeLogicalId}`, {
      logicalId: routeLogicalId,
      type: 'AWS::ApiGatewayV2::Route',
      properties: () => {
        const properties: Record<string, Json> = {
          ApiId: this.apiId,
          RouteKey: props.routeKey,
          AuthorizationType: authorizerId ? 'CUSTOM' : 'NONE',
          Target: join(['integrations', ref(integration)], '/'),
        };
        if (authorizerId) properties.AuthorizerId = ref(authorizerId);
        if (props.routeResponseSelectionExpression !== undefined) properties.RouteResponseSelectionExpression = props.routeResponseSelectionExpression;
        return properties;
      },
    });
    let response: WebsocketsResource | undefined;
    if (props.routeResponseSelectionExpression !== undefined) {
      response = new WebsocketsResource(this, `RouteResponse-${routeLogicalId}`, {
        logicalId: naming.websocketsRouteResponse(props.routeKey),
        type: 'AWS::ApiGatewayV2::RouteResponse',
        properties: () => ({ ApiId: this.apiId, RouteId: ref(routeLogicalId), RouteResponseKey: '$default' }),
      });
      this.routeResponses.push(response);
    }
    this.routes.set(props.routeKey, { route, response, fn, path });
  }

  private addPermission(logicalId: string, properties: () => Record<string, Json>, dependsOn: () => string[]): void {
    if (this.permissions.has(logicalId)) return;
    this.permissions.set(
      logicalId,
      new WebsocketsResource(this, `Permission-${logicalId}`, {
        logicalId,
        type: 'AWS::Lambda::Permission',
        before: () => ({ DependsOn: this.ownsApi ? [naming.websocketsApi(), ...dependsOn()] : dependsOn() }),
        properties,
      }),
    );
  }

  private stageProperties(logs: WebsocketLogs | undefined): Record<string, Json> {
    const properties: Record<string, Json> = {
      ApiId: this.apiId,
      StageName: this.service.stage,
      Description: this.description,
    };
    if (logs) {
      properties.DefaultRouteSettings = {
        DataTraceEnabled: logs.fullExecutionData !== false,
        LoggingLevel: logs.executionLogging === false ? 'OFF' : logs.level ?? 'INFO',
      };
      if (logs.accessLogging !== false) {
        properties.AccessLogSettings = {
          DestinationArn: { 'Fn::Sub': `arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:\${${naming.websocketsLogGroup()}}` },
          Format: logs.format ?? DEFAULT_ACCESS_LOG_FORMAT,
        };
      }
    }
    return properties;
  }

  /** Every route (each preceded by its route response), in the order the events declare them. */
  deploymentDependencies(): string[] {
    return [...this.routes.values()].flatMap(({ route, response }) => (response ? [response.logicalId, route.logicalId] : [route.logicalId]));
  }

  /**
   * `WebsocketsDeployment{hash}`: the hash covers the API, integrations, route responses,
   * authorizers, permissions, routes and stage as the template states them, so a change to any
   * of them deploys the API again and an unchanged redeploy leaves it alone.
   * With an API made elsewhere (`provider.apiGateway.websocketApiId`) v3 hashes an empty set, so
   * the id is constant and a later deploy that changes only routes makes no new deployment; fw
   * writes the same id, as the template must match v3's (docs/guides/moving-from-serverless-v3.md).
   */
  get deploymentLogicalId(): string {
    const resources: Record<string, Json> = {};
    if (!this.ownsApi) return naming.websocketsDeployment(deploymentHash(resources));
    const ordered = [
      ...(this.api ? [this.api] : []),
      ...this.integrations.values(),
      ...this.routeResponses,
      ...this.authorizers.values(),
      ...this.permissions.values(),
      ...[...this.routes.values()].map(entry => entry.route),
    ];
    for (const resource of ordered) Object.assign(resources, resource.toCloudFormation().Resources);
    if (this.stage) {
      const logs = websocketLogs((this.service.provider.logs as Record<string, Json> | undefined)?.websocket);
      resources[naming.websocketsStage()] = { Type: 'AWS::ApiGatewayV2::Stage', Properties: this.stageProperties(logs) };
    }
    return naming.websocketsDeployment(deploymentHash(resources));
  }
}

const deploymentHash = (resources: Record<string, Json>) =>
  createHash('sha256').update(JSON.stringify(resources)).digest('base64').replace(/[^0-9A-Za-z]/g, '');

/** `WebsocketsDeployment{hash}`: waits for every route, so the deployment sees them all. */
class WebsocketsDeployment extends Resource {
  readonly type = 'AWS::ApiGatewayV2::Deployment';
  constructor(scope: Construct, id: string, private readonly api: WebsocketsApi) {
    super(scope, id);
  }
  get logicalId() {
    return this.api.deploymentLogicalId;
  }
  protected properties() {
    const properties: Record<string, Json> = { ApiId: this.api.apiId, Description: this.api.description };
    // Without a stage resource of its own (an API made elsewhere), the deployment names the stage.
    if (!this.api.ownsApi) properties.StageName = this.api.service.stage;
    return properties;
  }
  protected override attributes() {
    return { before: { DependsOn: this.api.deploymentDependencies() } };
  }
}

interface WebsocketLogs {
  level?: string;
  format?: string;
  accessLogging?: boolean;
  executionLogging?: boolean;
  fullExecutionData?: boolean;
}

function websocketLogs(config: Json): WebsocketLogs | undefined {
  if (config === undefined || config === null || config === false) return undefined;
  if (config === true) return {};
  if (typeof config !== 'object' || Array.isArray(config)) {
    throw new ConfigError(`Invalid configuration in 'provider.logs.websocket': expected true or { level, format, accessLogging, executionLogging, fullExecutionData }, got ${JSON.stringify(config)}`);
  }
  const logs = config as WebsocketLogs;
  if (logs.level !== undefined && logs.level !== 'INFO' && logs.level !== 'ERROR') {
    throw new ConfigError(`Invalid configuration in 'provider.logs.websocket.level': expected "INFO" or "ERROR", got ${JSON.stringify(logs.level)}`);
  }
  return logs;
}

/**
 * `CustomApiGatewayAccountCloudWatchRole`: API Gateway needs an account-wide role to write logs;
 * a custom resource sets it up once. Shared with any other API that enables logs.
 */
export function apiGatewayCloudWatchRole(service: Service): Resource {
  return service.shared('ApiGatewayAccountCloudWatchRole', (scope, id) => {
    const provider = customResourceFunction(service, 'apigw-cw-role', 'api-gateway-cloud-watch-role/handler.handler');
    provider.addStatements('apigw-cw-role', () => [
      {
        Effect: 'Allow',
        Resource: join(['arn', { Ref: 'AWS::Partition' }, 'iam:', { Ref: 'AWS::AccountId' }, 'role/*'], ':'),
        Action: ['iam:AttachRolePolicy', 'iam:CreateRole', 'iam:ListAttachedRolePolicies', 'iam:PassRole'],
      },
      {
        Effect: 'Allow',
        Resource: join(['arn', { Ref: 'AWS::Partition' }, 'apigateway:*::/account'], ':'),
        Action: ['apigateway:GET', 'apigateway:PATCH'],
      },
    ]);
    return new WebsocketsResource(scope, id, {
      logicalId: 'CustomApiGatewayAccountCloudWatchRole',
      type: 'Custom::ApiGatewayAccountRole',
      before: () => ({ Version: 1 }),
      properties: () => {
        // `provider.logs.restApi.role`: an existing role to set on the account instead of one fw creates.
        const restApiLogs = service.provider.logs?.restApi;
        const role = typeof restApiLogs === 'object' && restApiLogs !== null ? (restApiLogs as { role?: Json }).role : undefined;
        return role === undefined ? { ServiceToken: getAtt(provider.logicalId, 'Arn') } : { ServiceToken: getAtt(provider.logicalId, 'Arn'), RoleArn: role };
      },
    });
  });
}
