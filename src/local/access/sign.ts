import { createHash } from 'node:crypto';
import type { LocalCredentials } from './credentials';
import { expectedSignature } from './signature';

const amzDateOf = (now: Date) => now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/**
 * `fetch` of one of the local cloud's own endpoints (`/_fw/…`: the token issuer, the deploy
 * report), signed with Signature Version 4 like every management request, so it passes the
 * access checks, and the verification when the local cloud requires credentials.
 */
export function signedLocalFetch(url: string, init: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal }, credentials: LocalCredentials, now = new Date()): Promise<Response> {
  const target = new URL(url);
  const method = init.method ?? 'GET';
  const body = Buffer.from(init.body ?? '');
  const amzDate = amzDateOf(now);
  const hashedPayload = createHash('sha256').update(body).digest('hex');
  const headers: Record<string, string> = { ...init.headers, host: target.host, 'x-amz-date': amzDate, 'x-amz-content-sha256': hashedPayload };
  const signedHeaders = Object.keys(headers).map(name => name.toLowerCase()).sort();
  const rawHeaders = Object.entries(headers).flatMap(([name, value]) => [name.toLowerCase(), value]);
  const date = amzDate.slice(0, 8);
  const region = 'us-east-1';
  const service = 'execute-api';
  const scope = `${date}/${region}/${service}/aws4_request`;
  const signature = expectedSignature(
    { method, url: `${target.pathname}${target.search}`, rawHeaders, body },
    { accessKeyId: credentials.accessKeyId, scope, date, region, service, signedHeaders, signature: '', amzDate, presigned: false },
    credentials.secretAccessKey,
    hashedPayload,
  );
  const authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders.join(';')}, Signature=${signature}`;
  const { host: _host, ...sent } = headers;
  return fetch(url, { method, headers: { ...sent, authorization }, body: init.body, signal: init.signal });
}
