import { header, type LocalRequest, type LocalResponse } from '../http';

export interface CorsConfiguration {
  AllowOrigins?: string[];
  AllowHeaders?: string[];
  AllowMethods?: string[];
  ExposeHeaders?: string[];
  AllowCredentials?: boolean;
  MaxAge?: number;
}

function allowedOrigin(cors: CorsConfiguration, origin: string): string | undefined {
  const origins = cors.AllowOrigins ?? [];
  if (origins.includes('*')) return cors.AllowCredentials ? origin : '*';
  return origins.includes(origin) ? origin : undefined;
}

/** An HTTP API answers CORS preflight requests itself when the API has a CorsConfiguration. */
export function corsPreflight(request: LocalRequest, cors: CorsConfiguration | undefined): LocalResponse | undefined {
  const origin = header(request, 'origin');
  if (!cors || request.method !== 'OPTIONS' || !origin || !header(request, 'access-control-request-method')) return undefined;
  const allowed = allowedOrigin(cors, origin);
  if (!allowed) return { status: 204 };
  const headers: Record<string, string> = {
    'access-control-allow-origin': allowed,
    'access-control-allow-methods': (cors.AllowMethods ?? ['*']).join(','),
    'access-control-allow-headers': (cors.AllowHeaders ?? [header(request, 'access-control-request-headers') ?? '']).join(','),
  };
  if (cors.AllowCredentials) headers['access-control-allow-credentials'] = 'true';
  if (cors.MaxAge !== undefined) headers['access-control-max-age'] = String(cors.MaxAge);
  return { status: 204, headers };
}

/** CORS headers an HTTP API adds to a function's response. */
export function withCorsHeaders(request: LocalRequest, cors: CorsConfiguration | undefined, response: LocalResponse): LocalResponse {
  const origin = header(request, 'origin');
  const allowed = cors && origin ? allowedOrigin(cors, origin) : undefined;
  if (!cors || !allowed) return response;
  const headers: Record<string, string> = { ...response.headers, 'access-control-allow-origin': allowed };
  if (cors.ExposeHeaders?.length) headers['access-control-expose-headers'] = cors.ExposeHeaders.join(',');
  if (cors.AllowCredentials) headers['access-control-allow-credentials'] = 'true';
  return { ...response, headers };
}

/** The static headers of an integration response's `method.response.header.X: "'value'"` parameters (mappings from the integration are not evaluated). */
export function staticResponseHeaders(parameters: Record<string, unknown> | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parameters ?? {})) {
    const match = /^method\.response\.header\.(.+)$/.exec(name);
    const literal = /^'(.*)'$/s.exec(String(value));
    if (match && literal) headers[match[1].toLowerCase()] = literal[1];
  }
  return headers;
}
