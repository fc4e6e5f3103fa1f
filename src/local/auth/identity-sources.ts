import { header, type LocalRequest } from '../http';

/**
 * The value of one identity source, in either spelling: HTTP APIs say
 * `$request.header.Authorization`, `$request.querystring.token`, `$context.requestId`;
 * REST APIs say `method.request.header.Authorization`, `method.request.querystring.token`,
 * `context.requestId`; WebSocket APIs say `route.request.header.Auth`. Stage variables are not emulated, so `stageVariables.x` is never present.
 */
export function identityValue(source: string, request: LocalRequest, requestContext: Record<string, unknown>): string | undefined {
  const trimmed = source.trim().replace(/^\$/, '');
  const requestPart = /^(?:method\.|route\.)?request\.(header|querystring)\.(.+)$/.exec(trimmed);
  let value: unknown;
  if (requestPart) {
    value = requestPart[1] === 'header' ? header(request, requestPart[2]) : request.search.getAll(requestPart[2]).join(',') || undefined;
  } else if (trimmed.startsWith('context.')) {
    value = trimmed
      .slice('context.'.length)
      .split('.')
      .reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), requestContext);
  }
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

/** The values of all the sources, or undefined as soon as one is missing or empty (API Gateway then answers 401). */
export function identityValues(sources: string[], request: LocalRequest, requestContext: Record<string, unknown>): string[] | undefined {
  const values: string[] = [];
  for (const source of sources) {
    const value = identityValue(source, request, requestContext);
    if (value === undefined) return undefined;
    values.push(value);
  }
  return values;
}

/** `IdentitySource` as templates give it: a list (HTTP APIs) or one comma-separated string (REST APIs). */
export function identitySourceList(value: unknown): string[] {
  const items = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : typeof value === 'string' ? value.split(',') : [];
  return items.map((item) => item.trim()).filter(Boolean);
}
