import { randomUUID } from 'node:crypto';
import { decodeJwt, JwtError, signJwt, timeProblem, verifySignature, type DecodedJwt } from '../auth/jwt';
import { now, publicJwk, type PoolUser, type UserPool, type UserPoolClient, type UserPoolStore } from './user-pools';

/** The scope of access tokens from the user pools API (InitiateAuth and the like), as Cognito gives it. */
export const API_SCOPE = 'aws.cognito.signin.user.admin';

/**
 * A local pool's issuer: `<local cloud URL>/<pool id>`, where its JWKS and discovery document are
 * served (AWS's is `https://cognito-idp.<region>.amazonaws.com/<pool id>`), so any verifier that
 * fetches `<iss>/.well-known/jwks.json` finds the pool's key.
 */
export const poolIssuer = (baseUrl: string, poolId: string) => `${baseUrl}/${poolId}`;

/** The user's groups, by precedence (lowest first) as Cognito orders `cognito:groups`. */
function groupsOf(pool: UserPool, user: PoolUser): string[] {
  const precedence = (name: string) => pool.groups[name]?.Precedence ?? Number.MAX_SAFE_INTEGER;
  return [...user.groups].sort((a, b) => precedence(a) - precedence(b));
}

/** The claims of the ID token a PreTokenGeneration trigger may not change (AWS's list). */
const FIXED_CLAIMS = new Set(['acr', 'amr', 'aud', 'at_hash', 'auth_time', 'azp', 'cognito:username', 'exp', 'iat', 'identities', 'iss', 'jti', 'nbf', 'nonce', 'origin_jti', 'sub', 'token_use']);

/** A PreTokenGeneration trigger's answer (V1_0 `response.claimsOverrideDetails`). */
export interface ClaimsOverride {
  claimsToAddOrOverride?: Record<string, unknown>;
  claimsToSuppress?: unknown[];
  /** Present (even null or empty): replaces `cognito:groups` in both tokens, and the roles in the ID token. */
  groupOverrideDetails?: { groupsToOverride?: unknown[]; iamRolesToOverride?: unknown[]; preferredRole?: unknown } | null;
}

/** What the PreTokenGeneration event tells the function of the user's groups (`request.groupConfiguration`). */
export function groupConfiguration(pool: UserPool, user: PoolUser): { groupsToOverride: string[]; iamRolesToOverride: string[]; preferredRole: string | null } {
  const groups = groupsOf(pool, user);
  const roles = groups.map((name) => pool.groups[name]?.RoleArn).filter((arn): arn is string => typeof arn === 'string');
  return { groupsToOverride: groups, iamRolesToOverride: roles, preferredRole: roles[0] ?? null };
}

const strings = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);

export interface IssuedTokens {
  AccessToken: string;
  IdToken: string;
  ExpiresIn: number;
  TokenType: 'Bearer';
}

/** The ID and access tokens Cognito issues on a sign-in or a refresh, signed with the pool's key (RS256). */
export function issueTokens(store: UserPoolStore, baseUrl: string, pool: UserPool, client: UserPoolClient, user: PoolUser, override: ClaimsOverride = {}, authTime = now()): IssuedTokens {
  const issuedAt = now();
  const kid = publicJwk(pool).kid;
  const key = store.signingKey(pool);
  const originJti = randomUUID();
  const eventId = randomUUID();
  const groupOverride = override.groupOverrideDetails;
  const groups = groupOverride === undefined ? groupsOf(pool, user) : strings(groupOverride?.groupsToOverride);
  const common = { sub: user.attributes.sub, ...(groups.length > 0 ? { 'cognito:groups': groups } : {}), iss: poolIssuer(baseUrl, pool.Id) };
  const { sub: _sub, ...attributes } = user.attributes;
  const idClaims: Record<string, unknown> = {
    ...common,
    ...Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name, name.endsWith('_verified') ? value === 'true' : value])),
    'cognito:username': user.Username,
    origin_jti: originJti,
    aud: client.ClientId,
    event_id: eventId,
    token_use: 'id',
    auth_time: authTime,
    exp: issuedAt + Math.round(client.idTokenMinutes * 60),
    iat: issuedAt,
    jti: randomUUID(),
  };
  if (groupOverride !== undefined) {
    const roles = strings(groupOverride?.iamRolesToOverride);
    if (roles.length > 0) idClaims['cognito:roles'] = roles;
    if (typeof groupOverride?.preferredRole === 'string' && groupOverride.preferredRole !== '') idClaims['cognito:preferred_role'] = groupOverride.preferredRole;
  }
  // Suppressing wins over adding, as AWS documents; the fixed claims stay as they are.
  for (const [name, value] of Object.entries(override.claimsToAddOrOverride ?? {})) if (!FIXED_CLAIMS.has(name)) idClaims[name] = value;
  for (const name of strings(override.claimsToSuppress)) if (!FIXED_CLAIMS.has(name)) delete idClaims[name];
  const accessSeconds = Math.round(client.accessTokenMinutes * 60);
  const accessClaims: Record<string, unknown> = {
    ...common,
    client_id: client.ClientId,
    origin_jti: originJti,
    event_id: eventId,
    token_use: 'access',
    scope: API_SCOPE,
    auth_time: authTime,
    exp: issuedAt + accessSeconds,
    iat: issuedAt,
    jti: randomUUID(),
    username: user.Username,
  };
  return { AccessToken: signJwt(accessClaims, key, kid), IdToken: signJwt(idClaims, key, kid), ExpiresIn: accessSeconds, TokenType: 'Bearer' };
}

export type TokenProblem = 'malformed' | 'signature' | 'issuer' | 'expired' | 'token_use';

/**
 * A token the pool issued, checked as Cognito and API Gateway check it: RS256 signature with the
 * pool's key, `iss`, `exp` (and `nbf`/`iat`), and the `token_use` expected when one is given.
 */
export function verifyPoolToken(pool: UserPool, baseUrl: string, token: string, use?: 'id' | 'access'): { claims: Record<string, unknown> } | { problem: TokenProblem } {
  let jwt: DecodedJwt;
  try {
    jwt = decodeJwt(token);
    const key = publicJwk(pool);
    if (jwt.header.kid !== key.kid || !verifySignature(jwt, key)) return { problem: 'signature' };
  } catch (error) {
    if (error instanceof JwtError) return { problem: 'malformed' };
    throw error;
  }
  if (jwt.claims.iss !== poolIssuer(baseUrl, pool.Id)) return { problem: 'issuer' };
  if (timeProblem(jwt.claims)) return { problem: 'expired' };
  if (use !== undefined && jwt.claims.token_use !== use) return { problem: 'token_use' };
  return { claims: jwt.claims };
}

/** The pool a token names in its `iss` (`<local cloud URL>/<pool id>`), without checking anything else. */
export function poolIdOfToken(token: string): string | undefined {
  try {
    const issuer = decodeJwt(token).claims.iss;
    return typeof issuer === 'string' ? issuer.split('/').pop() : undefined;
  } catch {
    return undefined;
  }
}
