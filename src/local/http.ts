import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** A request as the local services see it: whole body read, URL split. */
export interface LocalRequest {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The Host header without the port. */
  hostname: string;
  /** The region of the credential scope, or the default. */
  region: string;
  /** Path and query exactly as the client sent them, and the headers as sent: what a signature covers. */
  rawUrl?: string;
  rawHeaders?: string[];
  /** The client's address (deployed APIs tell functions as `sourceIp`). */
  sourceIp?: string;
}

export interface LocalResponse {
  status: number;
  headers?: Record<string, string>;
  /** Headers sent once per value (`Set-Cookie` from a function's `cookies` or `multiValueHeaders`); they win over `headers`. */
  multiValueHeaders?: Record<string, string[]>;
  body?: string | Buffer;
}

export function header(request: LocalRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(',') : value;
}

export const xmlResponse = (body: string, status = 200): LocalResponse => ({
  status,
  headers: { 'content-type': 'text/xml' },
  body,
});

export const jsonResponse = (value: unknown, status = 200, contentType = 'application/json'): LocalResponse => ({
  status,
  headers: { 'content-type': contentType },
  body: JSON.stringify(value),
});

/** A request's whole body, or undefined when the client went away while sending it. */
export function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  // Plain events, not an async iterator: cheaper on every request (measured on the DynamoDB path).
  return new Promise(resolve => {
    const chunks: Buffer[] = [];
    let ended = false;
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      ended = true;
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    });
    req.once('error', () => resolve(undefined));
    req.once('close', () => ended || resolve(undefined));
  });
}
