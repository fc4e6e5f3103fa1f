import type { JsonWebKey } from 'node:crypto';
import type { LocalRequest } from '../http';
import { identityValue } from './identity-sources';
import type { LocalIssuer } from './issuer';
import type { JwksCache } from './jwks';
import { decodeJwt, JwtError, timeProblem, verifySignature, type DecodedJwt } from './jwt';
import type { Admission } from './lambda-authorizer';
import { forbidden, unauthorized } from './responses';

export interface JwtConfiguration {
  Issuer?: string;
  Audience?: string[];
}

const invalidToken = (description: string) => unauthorized('http', { 'www-authenticate': `Bearer scope="" error="invalid_token" error_description="${description}"` });

/** Claims as HTTP APIs hand them to integrations: every value a string, lists as `[a b]`. */
function flattenClaims(claims: Record<string, unknown>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(claims)) {
    flat[name] = Array.isArray(value) ? `[${value.map(String).join(' ')}]` : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  }
  return flat;
}

function tokenScopes(claims: Record<string, unknown>): string[] {
  const scope = claims.scope ?? claims.scp;
  if (Array.isArray(scope)) return scope.map(String);
  return typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
}

/**
 * An HTTP API JWT authorizer: the token from the identity source (with or without
 * `Bearer `), its RSA signature against the issuer's JWKS — or the local issuer's
 * key, which is trusted for any issuer so a template pointing at Cognito or Auth0
 * can be tried offline, or a local Cognito pool's key when the issuer names one — then `iss`, `aud`/`client_id`, `exp`/`nbf`/`iat` and the
 * route's scopes.
 */
export async function authorizeJwt(
  request: LocalRequest,
  requestContext: Record<string, unknown>,
  authorizer: { identitySource: string; configuration: JwtConfiguration; routeScopes: string[]; format: '1.0' | '2.0' },
  keys: { issuer: LocalIssuer; jwks: JwksCache; log: (line: string) => void; localPool?: (issuer: string) => { issuer: string; key: JsonWebKey & { kid: string } } | undefined },
): Promise<Admission> {
  const raw = identityValue(authorizer.identitySource, request, requestContext);
  if (raw === undefined) return { response: unauthorized('http') };
  const token = raw.replace(/^Bearer\s+/i, '');
  let jwt: DecodedJwt;
  try {
    jwt = decodeJwt(token);
    // An issuer naming a user pool of the local Cognito (`https://cognito-idp.<region>.amazonaws.com/<id>`) is that pool's local issuer.
    const localPool = keys.localPool?.(String(authorizer.configuration.Issuer));
    const expected = localPool?.issuer ?? authorizer.configuration.Issuer;
    if (jwt.claims.iss !== expected) return { response: invalidToken(`the token issuer ${String(jwt.claims.iss)} is not ${String(expected)}`) };
    const key = localPool ? (jwt.header.kid === localPool.key.kid ? localPool.key : undefined) : jwt.header.kid === keys.issuer.kid ? keys.issuer.publicJwk : await keys.jwks.key(String(expected), jwt.header.kid).catch((error: Error) => {
      keys.log(`JWT authorizer: cannot fetch the signing keys of ${expected}: ${error.message}`);
      return undefined;
    });
    if (!key) return { response: invalidToken(`no signing key ${String(jwt.header.kid)} at the issuer`) };
    if (!verifySignature(jwt, key)) return { response: invalidToken('the token signature is invalid') };
  } catch (error) {
    if (error instanceof JwtError) return { response: invalidToken(error.message) };
    throw error;
  }
  const audiences = authorizer.configuration.Audience ?? [];
  const tokenAudiences = [...(Array.isArray(jwt.claims.aud) ? jwt.claims.aud : [jwt.claims.aud]), jwt.claims.client_id].filter((value) => value !== undefined);
  if (!tokenAudiences.some((audience) => audiences.includes(String(audience)))) return { response: invalidToken('the token audience does not match') };
  const timing = timeProblem(jwt.claims);
  if (timing) return { response: invalidToken(timing) };
  const scopes = tokenScopes(jwt.claims);
  if (authorizer.routeScopes.length > 0 && !authorizer.routeScopes.some((scope) => scopes.includes(scope))) {
    return {
      response: forbidden('http', { 'www-authenticate': `Bearer scope="${authorizer.routeScopes.join(' ')}" error="insufficient_scope" error_description="the token does not have the required scopes"` }),
    };
  }
  const claims = flattenClaims(jwt.claims);
  const found = scopes.length > 0 ? scopes : null;
  return { authorizer: authorizer.format === '2.0' ? { jwt: { claims, scopes: found } } : { claims, scopes: found } };
}
