import type { LocalServices } from '../service-interfaces';
import type { ResourceRecord } from '../cloudformation/model';
import { header, type LocalRequest, type LocalResponse } from '../http';
import { UsagePlans } from '../auth/api-keys';
import { identitySourceList, identityValues } from '../auth/identity-sources';
import { LocalIssuer } from '../auth/issuer';
import { JwksCache } from '../auth/jwks';
import { decodeJwt } from '../auth/jwt';
import { authorizeJwt, type JwtConfiguration } from '../auth/jwt-authorizer';
import { LambdaAuthorizers, requestAuthorizerEvent, tokenAuthorizerEvent, type Admission } from '../auth/lambda-authorizer';
import { authorizerFailure, signatureRefused, tokenExpired, unauthorized, type ApiKind } from '../auth/responses';
import { poolIdOfToken, poolIssuer, verifyPoolToken } from '../cognito/tokens';
import { publicJwk } from '../cognito/user-pools';
import type { JsonWebKey } from 'node:crypto';
import { functionOfIntegration } from './routes';
import { verifySigV4 } from './sigv4';

/** The header a response carries when the route's authorizer was not enforced locally. */
export const NOT_ENFORCED_HEADER = 'x-fw-local-not-enforced';

export interface Protected {
  kind: ApiKind;
  api: ResourceRecord;
  stage: string;
  /** The path the function sees, for the method ARN. */
  path: string;
  /** The route (HTTP API) or method (REST API) resource. */
  route: ResourceRecord;
  /** The event the integration will get; the authorizer's answer goes into its requestContext. */
  event: Record<string, unknown>;
  format: '1.0' | '2.0';
}

/**
 * What stands in front of a route or method: IAM signatures, JWT and Lambda
 * authorizers, and (REST) API keys with their usage plans — answered the way
 * API Gateway answers.
 */
export class GatewayAuthorization {
  readonly issuer: LocalIssuer;
  private readonly lambdaAuthorizers: LambdaAuthorizers;
  private readonly jwks = new JwksCache();
  private readonly usagePlans = new UsagePlans();

  constructor(private readonly cloud: LocalServices) {
    this.issuer = new LocalIssuer(cloud.dataDir);
    this.lambdaAuthorizers = new LambdaAuthorizers((arn, event) => cloud.functions.invoke(arn, event), (line) => cloud.log(line));
  }

  /** Checks the request; a refusal is returned, an admission is written into the event. */
  async check(request: LocalRequest, target: Protected): Promise<{ refusal: LocalResponse } | { notEnforced: string | undefined }> {
    const requestContext = target.event.requestContext as Record<string, unknown>;
    const admission = await this.authorize(request, target, requestContext);
    if ('response' in admission) return { refusal: admission.response };
    if (admission.authorizer) requestContext.authorizer = admission.authorizer;
    if (target.kind === 'rest' && (target.route.properties.ApiKeyRequired === true || target.route.properties.ApiKeyRequired === 'true')) {
      const fromAuthorizer = String(target.api.properties.ApiKeySourceType ?? 'HEADER').toUpperCase() === 'AUTHORIZER';
      const value = fromAuthorizer ? admission.usageIdentifierKey : header(request, 'x-api-key');
      const checked = this.usagePlans.check(
        {
          keys: this.records('AWS::ApiGateway::ApiKey'),
          plans: this.records('AWS::ApiGateway::UsagePlan'),
          planKeys: this.records('AWS::ApiGateway::UsagePlanKey'),
        },
        target.api.physicalId,
        target.stage,
        value,
      );
      if ('response' in checked) return { refusal: checked.response };
      const identity = requestContext.identity as Record<string, unknown> | undefined;
      if (identity) Object.assign(identity, { apiKey: value, apiKeyId: checked.keyId });
    }
    return { notEnforced: admission.notEnforced };
  }

  /**
   * A WebSocket API's `$connect` route: a REQUEST Lambda authorizer (identity sources such as
   * `route.request.header.Auth`, all required: 401 without them; its policy evaluated on
   * `…/<stage>/$connect`, 403 unless allowed) or `AWS_IAM`. Its context is what every event of
   * the connection carries as `requestContext.authorizer`.
   */
  async checkWebSocketConnect(
    request: LocalRequest,
    api: ResourceRecord,
    route: ResourceRecord,
    event: Record<string, unknown>,
  ): Promise<{ refusal: LocalResponse } | { authorizer?: Record<string, unknown> }> {
    const type = String(route.properties.AuthorizationType ?? 'NONE').toUpperCase();
    if (type === 'NONE') return {};
    const requestContext = event.requestContext as Record<string, unknown>;
    const target: Protected = { kind: 'rest', api, stage: String(requestContext.stage), path: '/$connect', route, event, format: '1.0' };
    if (type === 'AWS_IAM') {
      const result = verifySigV4(request, this.cloud.credentials);
      return 'refused' in result ? { refusal: signatureRefused(result.refused.message, result.refused.errorType) } : {};
    }
    const authorizer = this.records('AWS::ApiGatewayV2::Authorizer').find((record) => record.physicalId === String(route.properties.AuthorizerId));
    if (!authorizer) return { refusal: authorizerFailure('rest') };
    const identity = identityValues(identitySourceList(authorizer.properties.IdentitySource), request, requestContext);
    if (!identity) return { refusal: unauthorized('rest') };
    const methodArn = this.methodArn(request, target).replace(/\/GET\/\$connect$/, '/$connect');
    const admission = await this.lambdaAuthorizers.authorize({
      kind: 'rest',
      authorizerId: authorizer.physicalId,
      functionArn: functionOfIntegration(authorizer.properties.AuthorizerUri),
      event: requestAuthorizerEvent('rest', { ...structuredClone(event), stageVariables: {} }, '1.0', methodArn, identity),
      identity,
      ttlSeconds: 0,
      methodArn,
      simpleResponses: false,
    });
    return 'response' in admission ? { refusal: admission.response } : { authorizer: admission.authorizer };
  }

  /** A JWT authorizer's issuer that names a local user pool (AWS's form or the local one): that pool's issuer and key. */
  private localPoolIssuer(issuer: string): { issuer: string; key: JsonWebKey & { kid: string } } | undefined {
    const match = /^https:\/\/cognito-idp\.[a-z0-9-]+\.amazonaws\.com\/([^/]+)\/?$/.exec(issuer) ?? (issuer.startsWith(`${this.cloud.baseUrl}/`) ? [issuer, issuer.slice(this.cloud.baseUrl.length + 1)] : null);
    const pool = match ? this.cloud.cognito.find(match[1]) : undefined;
    return pool ? { issuer: poolIssuer(this.cloud.baseUrl, pool.Id), key: publicJwk(pool) } : undefined;
  }

  private records(type: string): ResourceRecord[] {
    return this.cloud.resources(type).map(({ record }) => record);
  }

  /** `arn:aws:execute-api:{region}:{account}:{apiId}/{stage}/{METHOD}/{path}`, in the region of the API's stack. */
  private methodArn(request: LocalRequest, target: Protected): string {
    const region = this.cloud.resources(target.api.type).find(({ record }) => record === target.api)?.stack.region ?? request.region;
    return `arn:aws:execute-api:${region}:${this.cloud.accountId}:${target.api.physicalId}/${target.stage}/${request.method}/${target.path.replace(/^\//, '')}`;
  }

  private async authorize(
    request: LocalRequest,
    target: Protected,
    requestContext: Record<string, unknown>,
  ): Promise<{ response: LocalResponse } | { authorizer?: Record<string, unknown>; usageIdentifierKey?: string; notEnforced?: string }> {
    const route = target.route.properties;
    const type = String(route.AuthorizationType ?? 'NONE').toUpperCase();
    if (type === 'NONE') return {};
    if (type === 'AWS_IAM') return this.iam(request, target, requestContext);
    const authorizerType = target.kind === 'http' ? 'AWS::ApiGatewayV2::Authorizer' : 'AWS::ApiGateway::Authorizer';
    const authorizer = this.records(authorizerType).find((record) => record.physicalId === String(route.AuthorizerId));
    if (!authorizer) {
      this.cloud.log(`${request.method} ${target.path}: authorizer ${JSON.stringify(route.AuthorizerId)} is in no local stack, so the route is refused`);
      return { response: authorizerFailure(target.kind) };
    }
    const properties = authorizer.properties;
    const sources = identitySourceList(properties.IdentitySource);
    if (type === 'JWT') {
      return authorizeJwt(
        request,
        requestContext,
        {
          identitySource: sources[0] ?? '$request.header.Authorization',
          configuration: (properties.JwtConfiguration ?? {}) as JwtConfiguration,
          routeScopes: ((route.AuthorizationScopes as unknown[] | undefined) ?? []).map(String),
          format: target.format,
        },
        { issuer: this.issuer, jwks: this.jwks, log: (line) => this.cloud.log(line), localPool: (issuer) => this.localPoolIssuer(issuer) },
      );
    }
    if (type === 'COGNITO_USER_POOLS') return this.cognito(request, requestContext, sources, authorizer, ((route.AuthorizationScopes as unknown[] | undefined) ?? []).map(String));
    return this.lambda(request, target, authorizer, sources);
  }

  private async lambda(request: LocalRequest, target: Protected, authorizer: ResourceRecord, sources: string[]): Promise<Admission> {
    const properties = authorizer.properties;
    const requestContext = target.event.requestContext as Record<string, unknown>;
    const ttlSeconds = Number(properties.AuthorizerResultTtlInSeconds ?? (target.kind === 'rest' ? 300 : 0));
    const methodArn = this.methodArn(request, target);
    const functionArn = functionOfIntegration(properties.AuthorizerUri);
    const tokenType = target.kind === 'rest' && String(properties.Type ?? 'TOKEN').toUpperCase() === 'TOKEN';
    // REST REQUEST authorizers check their identity sources only when results are cached, as AWS documents.
    const checked = target.kind === 'http' || tokenType || ttlSeconds > 0;
    const identity = checked ? identityValues(sources, request, requestContext) : [];
    if (!identity) return { response: unauthorized(target.kind) };
    if (tokenType) {
      const token = identity[0];
      if (token === undefined) return { response: unauthorized('rest') };
      const expression = properties.IdentityValidationExpression;
      if (typeof expression === 'string' && expression && !new RegExp(`^(?:${expression})$`).test(token)) return { response: unauthorized('rest') };
      return this.lambdaAuthorizers.authorize({
        kind: 'rest',
        authorizerId: authorizer.physicalId,
        functionArn,
        event: tokenAuthorizerEvent(token, methodArn),
        identity,
        ttlSeconds,
        methodArn,
        simpleResponses: false,
      });
    }
    const format = target.kind === 'rest' ? '1.0' : String(properties.AuthorizerPayloadFormatVersion ?? '2.0') === '1.0' ? '1.0' : '2.0';
    return this.lambdaAuthorizers.authorize({
      kind: target.kind,
      authorizerId: authorizer.physicalId,
      functionArn,
      event: requestAuthorizerEvent(target.kind, structuredClone(target.event), format, methodArn, identity),
      // Without identity sources there is nothing to key a cached answer on.
      identity,
      ttlSeconds: sources.length > 0 ? ttlSeconds : 0,
      methodArn,
      simpleResponses: format === '2.0' && (properties.EnableSimpleResponses === true || properties.EnableSimpleResponses === 'true'),
    });
  }

  private iam(request: LocalRequest, target: Protected, requestContext: Record<string, unknown>): { response: LocalResponse } | { authorizer?: Record<string, unknown> } {
    const result = verifySigV4(request, this.cloud.credentials);
    if ('refused' in result) return { response: signatureRefused(result.refused.message, result.refused.errorType) };
    const caller = { accessKey: result.accessKeyId, accountId: this.cloud.accountId, userArn: `arn:aws:iam::${this.cloud.accountId}:root` };
    if (target.kind === 'rest') {
      Object.assign(requestContext.identity as Record<string, unknown>, { ...caller, caller: this.cloud.accountId, user: this.cloud.accountId });
      return {};
    }
    return { authorizer: { iam: { ...caller, callerId: this.cloud.accountId, principalOrgId: null, userId: this.cloud.accountId } } };
  }

  /**
   * A COGNITO_USER_POOLS authorizer on pools of the local Cognito: the token (`Bearer ` optional) must be
   * signed by one of them and unexpired, an ID token for a method without scopes, an access token
   * holding one of the method's scopes otherwise; `IdentityValidationExpression` is matched against `aud`.
   * The verified claims reach the function as API Gateway passes them: every value a string.
   * Pools that are not local keep the old behaviour: no token is refused, a token's claims pass
   * unverified, and the response says so in a header.
   */
  private cognito(
    request: LocalRequest,
    requestContext: Record<string, unknown>,
    sources: string[],
    authorizer: ResourceRecord,
    methodScopes: string[],
  ): { response: LocalResponse } | { authorizer: Record<string, unknown>; notEnforced?: string } {
    const properties = authorizer.properties;
    const identity = identityValues(sources.length > 0 ? sources : ['method.request.header.Authorization'], request, requestContext);
    if (!identity) return { response: unauthorized('rest') };
    const token = identity[0].replace(/^Bearer\s+/i, '');
    const pools = ((properties.ProviderARNs as unknown[] | undefined) ?? []).map((arn) => this.cloud.cognito.find(String(arn).split('/').pop() ?? '')).filter((pool) => pool !== undefined);
    if (pools.length === 0) {
      let claims: Record<string, unknown> = {};
      try {
        claims = decodeJwt(token).claims;
      } catch {
        // Not a JWT: the function gets no claims.
      }
      const notEnforced = `COGNITO_USER_POOLS authorizer ${String(properties.Name ?? authorizer.logicalId)}: the token is not verified by the local cloud`;
      this.cloud.log(`${request.method} ${request.path}: ${notEnforced}`);
      return { authorizer: { claims }, notEnforced };
    }
    const pool = pools.find((candidate) => candidate.Id === poolIdOfToken(token));
    if (!pool) return { response: unauthorized('rest') };
    const verified = verifyPoolToken(pool, this.cloud.baseUrl, token, methodScopes.length > 0 ? 'access' : 'id');
    if ('problem' in verified) return { response: verified.problem === 'expired' ? tokenExpired() : unauthorized('rest') };
    const claims = verified.claims;
    const expression = properties.IdentityValidationExpression;
    if (typeof expression === 'string' && expression !== '' && !new RegExp(`^(?:${expression})$`).test(String(claims.aud ?? claims.client_id))) return { response: unauthorized('rest') };
    if (methodScopes.length > 0 && !String(claims.scope ?? '').split(' ').some((scope) => methodScopes.includes(scope))) return { response: unauthorized('rest') };
    return { authorizer: { claims: restClaims(claims) } };
  }
}

/** `Thu Nov 27 22:40:00 UTC 2026`: how a REST API's Cognito authorizer writes `exp` and `iat`. */
function javaDate(seconds: number): string {
  // `Thu, 27 Nov 2026 22:40:00 GMT`
  const [weekday, day, month, year, time] = new Date(seconds * 1000).toUTCString().replace(',', '').split(' ');
  return `${weekday} ${month} ${day} ${time} UTC ${year}`;
}

/** A token's claims as a REST API's Cognito authorizer passes them: strings, lists joined with commas, times as dates. */
function restClaims(claims: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(claims).map(([name, value]) => [
      name,
      (name === 'exp' || name === 'iat') && typeof value === 'number' ? javaDate(value) : Array.isArray(value) ? value.map(String).join(',') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value),
    ]),
  );
}
