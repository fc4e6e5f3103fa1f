import type { JsonWebKey } from 'node:crypto';

type Jwk = JsonWebKey & { kid?: string };

const FETCH_TIMEOUT_MS = 3_000;
/** API Gateway keeps an issuer's keys for up to an hour; a key id it has not seen makes it look again. */
const KEEP_MS = 60 * 60 * 1000;
const REFETCH_AFTER_MS = 30 * 1000;

async function getJson(url: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

/** An issuer's signing keys, from `<issuer>/.well-known/openid-configuration` → `jwks_uri`, else `<issuer>/.well-known/jwks.json`. */
export class JwksCache {
  private readonly entries = new Map<string, { keys: Jwk[]; fetchedAt: number }>();

  async key(issuer: string, kid: string | undefined): Promise<Jwk | undefined> {
    const cached = this.entries.get(issuer);
    const age = cached ? Date.now() - cached.fetchedAt : Infinity;
    const found = cached?.keys.find((key) => key.kid === kid);
    if (found && age < KEEP_MS) return found;
    // A key id not seen yet makes it look again, but at most every REFETCH_AFTER_MS.
    if (cached && age < REFETCH_AFTER_MS) return undefined;
    let keys: Jwk[];
    try {
      keys = await this.fetchKeys(issuer);
    } catch (error) {
      // An unreachable issuer is asked again after a while, not on every request.
      this.entries.set(issuer, { keys: cached?.keys ?? [], fetchedAt: Date.now() });
      throw error;
    }
    this.entries.set(issuer, { keys, fetchedAt: Date.now() });
    return keys.find((key) => key.kid === kid);
  }

  private async fetchKeys(issuer: string): Promise<Jwk[]> {
    const base = issuer.replace(/\/+$/, '');
    let jwksUri = `${base}/.well-known/jwks.json`;
    try {
      const configuration = await getJson(`${base}/.well-known/openid-configuration`);
      if (typeof configuration.jwks_uri === 'string') jwksUri = configuration.jwks_uri;
    } catch {
      // Not every issuer publishes a discovery document; the conventional JWKS path is tried next.
    }
    const jwks = await getJson(jwksUri);
    return Array.isArray(jwks.keys) ? (jwks.keys as Jwk[]) : [];
  }
}
