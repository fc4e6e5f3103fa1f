/** Matching a request path against API Gateway path templates (`/users/{id}`, `/files/{proxy+}`). */

export interface PathMatch {
  parameters: Record<string, string>;
  /** Higher is more specific: literal segments beat `{param}`, which beats `{greedy+}`. */
  score: number;
}

export function matchPath(template: string, path: string): PathMatch | undefined {
  const wanted = template.split('/').filter(Boolean);
  const actual = path.split('/').filter(Boolean);
  const parameters: Record<string, string> = {};
  let score = 0;
  for (let i = 0; i < wanted.length; i++) {
    const part = wanted[i];
    const greedy = /^\{(.+)\+\}$/.exec(part);
    if (greedy) {
      if (i >= actual.length) return undefined;
      parameters[greedy[1]] = actual.slice(i).map(decodeSegment).join('/');
      return { parameters, score: score * 4 + 1 };
    }
    if (i >= actual.length) return undefined;
    const parameter = /^\{(.+)\}$/.exec(part);
    if (parameter) {
      parameters[parameter[1]] = decodeSegment(actual[i]);
      score = score * 4 + 2;
    } else if (part === actual[i] || part === decodeSegment(actual[i])) {
      score = score * 4 + 3;
    } else {
      return undefined;
    }
  }
  return wanted.length === actual.length ? { parameters, score } : undefined;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The best of several candidates: most specific path, then an exact method over ANY. */
export function bestMatch<T extends { method: string; path: string }>(candidates: T[], method: string, path: string): { item: T; parameters: Record<string, string> } | undefined {
  let best: { item: T; parameters: Record<string, string>; rank: number } | undefined;
  for (const item of candidates) {
    if (item.method !== 'ANY' && item.method !== method) continue;
    const match = matchPath(item.path, path);
    if (!match) continue;
    const rank = match.score * 2 + (item.method === 'ANY' ? 0 : 1);
    if (!best || rank > best.rank) best = { item, parameters: match.parameters, rank };
  }
  return best && { item: best.item, parameters: best.parameters };
}

/** The function ARN in an integration URI (a plain ARN or the `…:lambda:path/2015-03-31/functions/<arn>/invocations` form). */
export function functionOfIntegration(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return undefined;
  const path = /functions\/(arn:[^/]+)\/invocations/.exec(uri);
  if (path) return path[1];
  return uri.startsWith('arn:aws:lambda:') ? uri : undefined;
}
