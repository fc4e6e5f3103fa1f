import { createPublicKey, createSign, createVerify, type JsonWebKey, type KeyObject } from 'node:crypto';

/** A JSON Web Token split into its parts; the signature is not checked yet. */
export interface DecodedJwt {
  header: { alg?: string; kid?: string; typ?: string };
  claims: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

export class JwtError extends Error {}

/** HTTP API JWT authorizers accept RSA signatures only, as AWS documents. */
const RSA_HASHES: Record<string, string> = { RS256: 'sha256', RS384: 'sha384', RS512: 'sha512' };

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

function jsonPart(part: string, what: string): Record<string, unknown> {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new JwtError(`the token ${what} is not a base64url JSON object`);
}

export function decodeJwt(token: string): DecodedJwt {
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwtError('the token is not a JWT (three dot-separated parts)');
  return {
    header: jsonPart(parts[0], 'header') as DecodedJwt['header'],
    claims: jsonPart(parts[1], 'payload'),
    signingInput: `${parts[0]}.${parts[1]}`,
    signature: Buffer.from(parts[2], 'base64url'),
  };
}

export function verifySignature(jwt: DecodedJwt, jwk: JsonWebKey): boolean {
  const hash = RSA_HASHES[jwt.header.alg ?? ''];
  if (!hash) throw new JwtError(`the signing method ${String(jwt.header.alg)} is not supported`);
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    return false;
  }
  const verifier = createVerify(hash);
  verifier.update(jwt.signingInput);
  return verifier.verify(key, jwt.signature);
}

/** RS256, the algorithm the local issuer signs with. */
export function signJwt(claims: Record<string, unknown>, privateKey: KeyObject, kid: string): string {
  const signingInput = `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))}.${base64url(JSON.stringify(claims))}`;
  const signer = createSign('sha256');
  signer.update(signingInput);
  return `${signingInput}.${base64url(signer.sign(privateKey))}`;
}

/** What API Gateway checks of the time claims, in seconds since the epoch. */
export function timeProblem(claims: Record<string, unknown>, now = Math.floor(Date.now() / 1000)): string | undefined {
  const { exp, nbf, iat } = claims;
  if (typeof exp !== 'number') return 'the token has no exp claim';
  if (exp <= now) return 'the token has expired';
  if (typeof nbf === 'number' && nbf > now) return 'the token is not valid yet';
  if (typeof iat === 'number' && iat > now) return 'the token was issued in the future';
  return undefined;
}
