import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import { ConfigError } from '../errors';
import type { HttpApiProviderConfig, Json } from './model';
import { CfnOutput, CfnResource, getAtt, join, lambdaInvocationUri, partition, ref, region } from './resource';
import type { Service } from './service';
import type { FunctionConstruct } from './function';

const DEFAULT_CORS_HEADERS = [
  'Content-Type', 'X-Amz-Date', 'Authorization', 'X-Api-Key', 'X-Amz-Security-Token', 'X-Amz-User-Agent', 'X-Amzn-Trace-Id',
];

const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  httpMethod: '$context.httpMethod',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
});


/**
 * The service's one HTTP API (API Gateway v2): `HttpApi`, `HttpApiStage`, authorizers,
 * one integration and permission per function, and the Outputs. Shared by every `httpApi` event.
 */
export class HttpApi extends Construct {
  private readonly config: HttpApiProviderConfig;
  private readonly methods: string[] = [];
  private readonly routes = new Map<string, string[]>();
  private readonly integrations = new Map<string, string>();
  private readonly authorizers = new Map<string, string>();
  /** Set when `provider.httpApi.id` points at an API created elsewhere. */
  readonly externalId?: Json;

  constructor(readonly service: Service, id: string) {
    super(service, id);
    this.config = service.provider.httpApi ?? {};
    this.externalId = this.config.id;
    this.node.addValidation({
      validate: () =>
        [...this.routes]
          .filter(([, owners]) => owners.length > 1)
          .map(([routeKey, [first, ...others]]) =>
            `Invalid configuration in '${others[0]}': route "${routeKey}" is already used by '${first}'`),
    });
    if (this.externalId !== undefined) return;

    new CfnResource(this, 'Api', {
      logicalId: naming.httpApi(),
      type: 'AWS::ApiGatewayV2::Api',
      properties: () => this.apiProperties(),
    });
    const logs = service.provider.logs?.httpApi;
    if (logs) {
      new CfnResource(this, 'LogGroup', {
        logicalId: naming.httpApiLogGroup(),
        type: 'AWS::Logs::LogGroup',
        properties: () => {
          const properties: Record<string, Json> = { LogGroupName: `/aws/http-api/${service.name}-${service.stage}` };
          const retention = service.provider.logRetentionInDays;
          if (retention !== undefined) properties.RetentionInDays = retention;
          return properties;
        },
      });
    }
    new CfnResource(this, 'Stage', {
      logicalId: naming.httpApiStage(),
      type: 'AWS::ApiGatewayV2::Stage',
      properties: () => this.stageProperties(),
      dependsOn: () => (logs ? naming.httpApiLogGroup() : undefined),
    });
    for (const [name, authorizer] of Object.entries(this.config.authorizers ?? {})) {
      this.addAuthorizer(name, authorizer);
    }
    new CfnOutput(this, 'IdOutput', { key: 'HttpApiId', description: 'Id of the HTTP API', value: ref(naming.httpApi()) });
    new CfnOutput(this, 'UrlOutput', {
      key: 'HttpApiUrl',
      description: 'URL of the HTTP API',
      value: join(['https://', ref(naming.httpApi()), '.execute-api.', region, '.', ref('AWS::URLSuffix')]),
    });
  }

  /** `{ Ref: HttpApi }`, or the external API's id. */
  get apiId(): Json {
    return this.externalId ?? ref(naming.httpApi());
  }

  private apiProperties(): Record<string, Json> {
    const { service, config } = this;
    const properties: Record<string, Json> = {
      Name: config.name ?? (config.shouldStartNameWithService ? `${service.name}-${service.stage}` : `${service.stage}-${service.name}`),
      ProtocolType: 'HTTP',
    };
    if (config.disableDefaultEndpoint) properties.DisableExecuteApiEndpoint = true;
    const cors = this.corsConfiguration();
    if (cors) properties.CorsConfiguration = cors;
    const tags = this.tags();
    if (tags) properties.Tags = tags;
    return properties;
  }

  private stageProperties(): Record<string, Json> {
    const properties: Record<string, Json> = {
      ApiId: this.apiId,
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { DetailedMetricsEnabled: Boolean(this.config.metrics) },
    };
    const logs = this.service.provider.logs?.httpApi;
    if (logs) {
      const format = typeof logs === 'object' && (logs as { format?: string }).format;
      properties.AccessLogSettings = {
        DestinationArn: getAtt(naming.httpApiLogGroup(), 'Arn'),
        Format: format || ACCESS_LOG_FORMAT,
      };
    }
    const tags = this.tags();
    if (tags) properties.Tags = tags;
    return properties;
  }

  private tags(): Record<string, Json> | undefined {
    if (!this.config.useProviderTags || !this.service.provider.tags) return undefined;
    return { ...this.service.provider.tags };
  }

  private corsConfiguration(): Record<string, Json> | undefined {
    const cors = this.config.cors;
    if (!cors) return undefined;
    const options = cors === true ? {} : cors;
    const result: Record<string, Json> = {};
    if (options.allowCredentials !== undefined) result.AllowCredentials = options.allowCredentials;
    result.AllowHeaders = options.allowedHeaders ?? DEFAULT_CORS_HEADERS;
    result.AllowMethods = options.allowedMethods ?? this.corsMethods();
    result.AllowOrigins = options.allowedOrigins ?? ['*'];
    if (options.exposedResponseHeaders !== undefined) result.ExposeHeaders = options.exposedResponseHeaders;
    if (options.maxAge !== undefined) result.MaxAge = options.maxAge;
    return result;
  }

  /** The routes' methods after OPTIONS, in route order; a `*` or `ANY` route stands for every method, spelled out as v3 spells it. */
  private corsMethods(): string[] {
    const methods = new Set(['OPTIONS']);
    for (const method of this.methods) {
      for (const one of method === '*' || method === 'ANY' ? ['GET', 'POST', 'PUT', 'PATCH', 'HEAD', 'DELETE'] : [method]) methods.add(one);
    }
    return [...methods];
  }

  private addAuthorizer(key: string, config: Record<string, Json>): void {
    const name = (config.name as string | undefined) ?? key;
    const logicalId = naming.httpApiAuthorizer(name);
    this.authorizers.set(key, logicalId);
    const type = String(config.type ?? 'jwt').toLowerCase();
    if (type === 'jwt') {
      new CfnResource(this, `Authorizer${key}`, {
        logicalId,
        type: 'AWS::ApiGatewayV2::Authorizer',
        properties: () => ({
          ApiId: this.apiId,
          Name: name,
          IdentitySource: [config.identitySource],
          AuthorizerType: 'JWT',
          JwtConfiguration: { Audience: toList(config.audience), Issuer: config.issuerUrl },
        }),
      });
      return;
    }
    if (type !== 'request') {
      throw new ConfigError(`Invalid configuration in 'provider.httpApi.authorizers.${key}.type': expected "jwt" or "request", got ${JSON.stringify(config.type)}`);
    }
    const functionArn = config.functionArn ?? (config.functionName !== undefined ? undefined : null);
    if (functionArn === null) {
      throw new ConfigError(`Invalid configuration in 'provider.httpApi.authorizers.${key}': a request authorizer needs "functionName" or "functionArn"`);
    }
    // The authorizer function's construct, once every function exists: with provisioned concurrency, its alias is called.
    const authorizerFunction = () => (config.functionArn === undefined ? this.service.function(String(config.functionName)) : undefined);
    const target = () => (config.functionArn ?? authorizerFunction()?.targetArn ?? getAtt(naming.lambdaFunction(String(config.functionName)), 'Arn')) as Json;
    const aliasDependsOn = () => authorizerFunction()?.targetAlias;
    if (!config.managedExternally) {
      new CfnResource(this, `AuthorizerPermission${key}`, {
        logicalId: naming.httpApiAuthorizerPermission(name),
        type: 'AWS::Lambda::Permission',
        properties: () => ({
          FunctionName: target(),
          Action: 'lambda:InvokeFunction',
          Principal: 'apigateway.amazonaws.com',
          SourceArn: this.executeApiArn(),
        }),
        dependsOn: aliasDependsOn,
      });
    }
    new CfnResource(this, `Authorizer${key}`, {
      logicalId,
      type: 'AWS::ApiGatewayV2::Authorizer',
      properties: () => {
        const properties: Record<string, Json> = {
          ApiId: this.apiId,
          Name: name,
          IdentitySource: config.identitySource === undefined ? [] : toList(config.identitySource),
          AuthorizerType: 'REQUEST',
        };
        if (config.enableSimpleResponses !== undefined) properties.EnableSimpleResponses = config.enableSimpleResponses;
        if (config.resultTtlInSeconds !== undefined) properties.AuthorizerResultTtlInSeconds = config.resultTtlInSeconds;
        properties.AuthorizerPayloadFormatVersion = config.payloadVersion ?? '2.0';
        properties.AuthorizerUri = lambdaInvocationUri(target());
        return properties;
      },
      dependsOn: aliasDependsOn,
    });
  }

  authorizerLogicalId(name: string): string | undefined {
    return this.authorizers.get(name);
  }

  executeApiArn(): Json {
    return join(['arn:', partition, ':execute-api:', region, ':', ref('AWS::AccountId'), ':', this.apiId, '/*']);
  }

  /** The one integration (and invoke permission) a function has, however many routes point at it. */
  integrationFor(fn: FunctionConstruct, payload: string): string {
    const existing = this.integrations.get(fn.key);
    if (existing) return existing;
    const logicalId = naming.httpApiIntegration(fn.key);
    this.integrations.set(fn.key, logicalId);
    new CfnResource(fn, 'HttpApiPermission', {
      logicalId: naming.httpApiPermission(fn.key),
      type: 'AWS::Lambda::Permission',
      properties: () => ({
        FunctionName: fn.targetArn,
        Action: 'lambda:InvokeFunction',
        Principal: 'apigateway.amazonaws.com',
        SourceArn: this.executeApiArn(),
      }),
      dependsOn: () => fn.targetAlias,
    });
    new CfnResource(fn, 'HttpApiIntegration', {
      logicalId,
      type: 'AWS::ApiGatewayV2::Integration',
      properties: () => ({
        ApiId: this.apiId,
        IntegrationType: 'AWS_PROXY',
        IntegrationUri: fn.targetArn,
        PayloadFormatVersion: payload,
        // API Gateway's maximum (and the reference's fixed value): keep functions below 29 s.
        TimeoutInMillis: 30000,
      }),
      dependsOn: () => fn.targetAlias,
    });
    return logicalId;
  }

  /** Records who uses a route key; two events on one route are reported together at validation. */
  claimRoute(routeKey: string, owner: string): void {
    const owners = this.routes.get(routeKey) ?? [];
    owners.push(owner);
    this.routes.set(routeKey, owners);
    const method = routeKey === '$default' ? '*' : routeKey.split(' ')[0];
    if (!this.methods.includes(method)) this.methods.push(method);
  }

  get defaultPayload(): string {
    return this.config.payload ?? '2.0';
  }
}

function toList(value: Json): Json[] {
  return Array.isArray(value) ? value : [value];
}
