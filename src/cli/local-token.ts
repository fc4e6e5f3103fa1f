import { Command, Option } from 'clipanion';
import { FwCommand } from './base';
import { localDataDir } from '../local/state/data-dir';
import { ConfigError, CloudError } from '../errors';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `3600`, `30m`, `1h`, `7d`; a leading `-` gives a token that has already expired. */
export function parseDuration(value: string): number {
  const match = /^(-?\d+)([smhd]?)$/.exec(value.trim());
  if (!match) throw new ConfigError(`Invalid --expires-in: expected a duration like 3600, 30m, 1h or 7d, got ${JSON.stringify(value)}`);
  return Number(match[1]) * UNITS[match[2] || 's'];
}

function parseClaims(value: string | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(value);
  } catch {
    claims = undefined;
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) throw new ConfigError(`Invalid --claims: expected a JSON object, got ${JSON.stringify(value)}`);
  return claims as Record<string, unknown>;
}

export class LocalTokenCommand extends FwCommand {
  static override paths = [['local', 'token']];
  static override usage = Command.Usage({
    description: "Mint a JWT signed by the local cloud's issuer, for routes behind a JWT authorizer",
    details: `
      The local cloud serves an OpenID issuer at <url>/_fw/issuer (keys at /_fw/issuer/.well-known/jwks.json),
      with a key pair kept in its data folder. HTTP API JWT authorizers of the local cloud accept its tokens,
      whatever issuer they name, so a service whose authorizer points at Cognito or Auth0 can be tried offline:
      pass that issuer with --issuer. Tokens are minted by the running local cloud, or with the key in --data
      when none answers.
    `,
    examples: [
      ['A token for the audience my-client, from the local cloud on port 4566', '$0 local token --audience my-client'],
      ['With claims and scopes, valid 15 minutes', `$0 local token --audience my-client --claims '{"sub":"u1"}' --scope "read write" --expires-in 15m`],
      ['For an authorizer whose issuer is a Cognito user pool', '$0 local token --issuer https://cognito-idp.us-east-1.amazonaws.com/us-east-1_abc --audience 1example23456789'],
      ['Call a protected route with it', '$ curl -H "Authorization: Bearer $(fw local token --audience my-client)" http://127.0.0.1:4566/_fw/execute-api/…'],
    ],
  });

  issuer = Option.String('--issuer', { description: 'The iss claim (default: the local issuer, <url>/_fw/issuer)' });
  audience = Option.Array('--audience', { description: 'The aud claim; repeatable' });
  claims = Option.String('--claims', { description: 'More claims, as a JSON object (e.g. \'{"sub":"u1"}\')' });
  scope = Option.String('--scope', { description: 'The scope claim: scopes separated by spaces' });
  expiresIn = Option.String('--expires-in', '1h', { description: 'Lifetime: seconds, or 30m, 1h, 7d (default 1h)' });
  port = Option.String('--port,-p', '4566', { description: 'Port of the local cloud' });
  url = Option.String('--url', { description: 'URL of the local cloud (default http://127.0.0.1:<port>)' });
  data = Option.String('--data', { description: 'State folder whose key signs when no local cloud answers (default: $FW_LOCAL_DATA or ~/.fw/local)' });

  async run(): Promise<number> {
    const base = (this.url ?? `http://127.0.0.1:${this.port}`).replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]+$/.test(base)) throw new ConfigError(`Invalid --url: expected http://host:port, got ${JSON.stringify(this.url)}`);
    const request = {
      issuer: this.issuer,
      audience: this.audience && this.audience.length === 1 ? this.audience[0] : this.audience,
      scope: this.scope,
      claims: parseClaims(this.claims),
      expiresInSeconds: parseDuration(this.expiresIn),
    };
    const token = (await this.fromRunningCloud(base, request)) ?? this.fromDataFolder(base, request);
    this.context.stdout.write(`${token}\n`);
    return 0;
  }

  private async fromRunningCloud(base: string, request: Record<string, unknown>): Promise<string | undefined> {
    let response: Response;
    try {
      const { signedLocalFetch } = require('../local/access/sign') as typeof import('../local/access/sign');
      const { localCredentials } = require('../local/access/credentials') as typeof import('../local/access/credentials');
      response = await signedLocalFetch(
        `${base}/_fw/issuer/token`,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request), signal: AbortSignal.timeout(5_000) },
        localCredentials().signWith,
      );
    } catch {
      return undefined;
    }
    const body = (await response.json().catch(() => ({}))) as { token?: string; message?: string };
    if (!response.ok || typeof body.token !== 'string') throw new CloudError(`The local cloud at ${base} did not mint a token: ${body.message ?? `HTTP ${response.status}`}`);
    return body.token;
  }

  private fromDataFolder(base: string, request: { issuer?: string } & Record<string, unknown>): string {
    const { LocalIssuer } = require('../local/auth/issuer') as typeof import('../local/auth/issuer');
    const issuer = new LocalIssuer(localDataDir(this.data));
    return issuer.mint({ ...request, issuer: request.issuer ?? issuer.url(base) });
  }
}
