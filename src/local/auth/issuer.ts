import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { signJwt } from './jwt';

export const ISSUER_PATH = '/_fw/issuer';

export interface TokenRequest {
  issuer: string;
  audience?: string | string[];
  /** Space-separated, as the `scope` claim holds them. */
  scope?: string;
  claims?: Record<string, unknown>;
  expiresInSeconds?: number;
}

/**
 * The local cloud's own OpenID issuer, so JWT authorizers can be tried offline:
 * an RSA key pair made once and kept in the data folder, its JWKS served at
 * `<url>/_fw/issuer/.well-known/jwks.json`, and tokens minted on request.
 */
export class LocalIssuer {
  private key?: { privateKey: KeyObject; publicJwk: JsonWebKey & { kid: string } };

  constructor(private readonly dataDir: string) {}

  url(baseUrl: string): string {
    return `${baseUrl}${ISSUER_PATH}`;
  }

  get kid(): string {
    return this.keys().publicJwk.kid;
  }

  get publicJwk(): JsonWebKey {
    return this.keys().publicJwk;
  }

  mint(request: TokenRequest, now = Math.floor(Date.now() / 1000)): string {
    const claims: Record<string, unknown> = { iss: request.issuer, iat: now, exp: now + (request.expiresInSeconds ?? 3600) };
    if (request.audience !== undefined) claims.aud = request.audience;
    if (request.scope) claims.scope = request.scope;
    return signJwt({ ...claims, ...request.claims }, this.keys().privateKey, this.kid);
  }

  private keys(): NonNullable<LocalIssuer['key']> {
    if (this.key) return this.key;
    const file = join(this.dataDir, 'issuer', 'private-key.json');
    let privateKey: KeyObject;
    if (existsSync(file)) {
      privateKey = createPrivateKey({ key: JSON.parse(readFileSync(file, 'utf8')) as JsonWebKey, format: 'jwk' });
    } else {
      privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      mkdirSync(join(this.dataDir, 'issuer'), { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify(privateKey.export({ format: 'jwk' })), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    }
    const { n, e } = createPublicKey(privateKey).export({ format: 'jwk' });
    // RFC 7638 thumbprint: the key id stays the same for as long as the key does.
    const kid = createHash('sha256').update(JSON.stringify({ e, kty: 'RSA', n })).digest('base64url');
    this.key = { privateKey, publicJwk: { kty: 'RSA', n, e, kid, alg: 'RS256', use: 'sig' } };
    return this.key;
  }

  /** `GET …/.well-known/openid-configuration`, `GET …/.well-known/jwks.json`, `POST …/token`. */
  handle(request: LocalRequest, baseUrl: string): LocalResponse | undefined {
    if (!request.path.startsWith(ISSUER_PATH)) return undefined;
    const rest = request.path.slice(ISSUER_PATH.length);
    const issuer = this.url(baseUrl);
    if (request.method === 'GET' && rest === '/.well-known/openid-configuration') {
      return jsonResponse({
        issuer,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ['token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (request.method === 'GET' && rest === '/.well-known/jwks.json') return jsonResponse({ keys: [this.publicJwk] });
    if (request.method === 'POST' && rest === '/token') return this.tokenResponse(request, issuer);
    return jsonResponse({ message: `The local issuer serves ${ISSUER_PATH}/.well-known/openid-configuration, ${ISSUER_PATH}/.well-known/jwks.json and POST ${ISSUER_PATH}/token` }, 404);
  }

  private tokenResponse(request: LocalRequest, issuer: string): LocalResponse {
    let body: Partial<TokenRequest>;
    try {
      body = JSON.parse(request.body.toString('utf8') || '{}') as Partial<TokenRequest>;
    } catch {
      return jsonResponse({ message: 'The token request is not JSON' }, 400);
    }
    const problem = tokenRequestProblem(body);
    if (problem) return jsonResponse({ message: problem }, 400);
    return jsonResponse({ token: this.mint({ ...body, issuer: body.issuer ?? issuer }), issuer: body.issuer ?? issuer });
  }
}

function tokenRequestProblem(body: Partial<TokenRequest>): string | undefined {
  if (body.issuer !== undefined && typeof body.issuer !== 'string') return `issuer: expected a string, got ${JSON.stringify(body.issuer)}`;
  const audiences = Array.isArray(body.audience) ? body.audience : [body.audience];
  if (body.audience !== undefined && !audiences.every((value) => typeof value === 'string')) return `audience: expected a string or a list of strings, got ${JSON.stringify(body.audience)}`;
  if (body.scope !== undefined && typeof body.scope !== 'string') return `scope: expected a space-separated string, got ${JSON.stringify(body.scope)}`;
  if (body.claims !== undefined && (body.claims === null || typeof body.claims !== 'object' || Array.isArray(body.claims))) return `claims: expected an object, got ${JSON.stringify(body.claims)}`;
  if (body.expiresInSeconds !== undefined && !Number.isInteger(body.expiresInSeconds)) return `expiresInSeconds: expected a whole number, got ${JSON.stringify(body.expiresInSeconds)}`;
  return undefined;
}
