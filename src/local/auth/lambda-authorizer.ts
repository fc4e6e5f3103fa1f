import type { LocalResponse } from '../http';
import type { InvokeOutcome } from '../runtime/functions';
import { evaluatePolicy, isPolicyDocument } from './policy';
import { authorizerFailure, explicitDeny, forbidden, notAllowed, unauthorized, type ApiKind } from './responses';

/** What an authorizer decided: a refusal, or what the integration sees in `requestContext.authorizer`. */
export type Admission = { response: LocalResponse } | { authorizer: Record<string, unknown>; usageIdentifierKey?: string };

export interface LambdaAuthorizerCall {
  kind: ApiKind;
  /** The authorizer's physical id: cached results are per authorizer. */
  authorizerId: string;
  functionArn: string | undefined;
  event: Record<string, unknown>;
  /** The identity source values, the cache key; with `ttlSeconds` 0 nothing is cached. */
  identity: string[];
  ttlSeconds: number;
  /** The ARN the returned policy is evaluated against (`methodArn` / `routeArn`). */
  methodArn: string;
  /** HTTP API `EnableSimpleResponses`: `{ isAuthorized, context }`. */
  simpleResponses: boolean;
}

type Invoke = (functionArn: string, event: unknown) => Promise<InvokeOutcome>;

/** The event a REST TOKEN authorizer receives. */
export function tokenAuthorizerEvent(token: string, methodArn: string): Record<string, unknown> {
  return { type: 'TOKEN', authorizationToken: token, methodArn };
}

/** A REQUEST authorizer's event: the request as the integration would see it, without the body. */
export function requestAuthorizerEvent(
  kind: ApiKind,
  integrationEvent: Record<string, unknown>,
  format: '1.0' | '2.0',
  methodArn: string,
  identity: string[],
): Record<string, unknown> {
  const { body: _body, isBase64Encoded: _encoded, version: _version, ...request } = integrationEvent;
  if (kind === 'rest') return { type: 'REQUEST', methodArn, ...request };
  if (format === '2.0') return { version: '2.0', type: 'REQUEST', routeArn: methodArn, identitySource: identity, ...request };
  return { version: '1.0', type: 'REQUEST', methodArn, identitySource: identity.join(','), authorizationToken: identity.join(','), ...request };
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Runs Lambda authorizers through the local runtime and reads their answers
 * the way API Gateway does, caching them by identity for the authorizer's TTL.
 */
export class LambdaAuthorizers {
  private readonly cache = new Map<string, { result: unknown; until: number }>();

  constructor(
    private readonly invoke: Invoke,
    private readonly log: (line: string) => void,
  ) {}

  async authorize(call: LambdaAuthorizerCall): Promise<Admission> {
    if (!call.functionArn) return { response: authorizerFailure(call.kind) };
    const key = JSON.stringify([call.authorizerId, ...call.identity]);
    const cached = this.cache.get(key);
    let result: unknown;
    if (cached && cached.until > Date.now()) {
      result = cached.result;
    } else {
      let outcome: InvokeOutcome;
      try {
        outcome = await this.invoke(call.functionArn, call.event);
      } catch (error) {
        this.log(`authorizer ${call.functionArn} could not run: ${(error as Error).message}`);
        return { response: authorizerFailure(call.kind) };
      }
      if (outcome.functionError) {
        const message = (JSON.parse(outcome.payload) as { errorMessage?: string }).errorMessage;
        if (message === 'Unauthorized') return { response: unauthorized(call.kind) };
        this.log(`authorizer ${call.functionArn} failed: ${message ?? outcome.payload}`);
        return { response: authorizerFailure(call.kind) };
      }
      result = JSON.parse(outcome.payload) as unknown;
      if (call.ttlSeconds > 0) this.cache.set(key, { result, until: Date.now() + call.ttlSeconds * 1000 });
    }
    return this.decide(call, result);
  }

  private decide(call: LambdaAuthorizerCall, result: unknown): Admission {
    const refuse = (why: string): Admission => {
      this.log(`authorizer ${call.functionArn} answered ${JSON.stringify(result)}: ${why}`);
      return { response: authorizerFailure(call.kind) };
    };
    if (!isObject(result)) return refuse('expected an object');
    const context = result.context === undefined || result.context === null ? undefined : result.context;
    if (context !== undefined && !isObject(context)) return refuse('context must be an object');
    if (call.simpleResponses && typeof result.isAuthorized === 'boolean') {
      return result.isAuthorized ? { authorizer: { lambda: context ?? {} } } : { response: forbidden('http') };
    }
    if (!isPolicyDocument(result.policyDocument)) return refuse(call.simpleResponses ? 'expected isAuthorized or a policyDocument' : 'expected a policyDocument');
    if (call.kind === 'rest' && (typeof result.principalId !== 'string' || result.principalId === '')) return refuse('a principalId is required');
    const decision = evaluatePolicy(result.policyDocument, call.methodArn);
    if (decision !== 'allow') {
      if (call.kind === 'http') return { response: forbidden('http') };
      return { response: decision === 'deny' ? explicitDeny() : notAllowed() };
    }
    if (call.kind === 'http') return { authorizer: { lambda: context ?? {} } };
    // REST passes only string, number and boolean context values; anything else is a configuration error.
    if (context && Object.values(context).some((value) => value !== null && typeof value === 'object')) return refuse('context values must be strings, numbers or booleans');
    const usageIdentifierKey = typeof result.usageIdentifierKey === 'string' ? result.usageIdentifierKey : undefined;
    // REST integrations see every context value as a string.
    const strings = Object.fromEntries(Object.entries(context ?? {}).map(([name, value]) => [name, value === null ? null : String(value)]));
    return { authorizer: { principalId: result.principalId, ...strings, integrationLatency: 0 }, usageIdentifierKey };
  }
}
