import { Compile, parse } from 'velocityjs';

/**
 * API Gateway mapping templates: Velocity (the `velocityjs` engine) with the variables API Gateway
 * gives a template ("API Gateway mapping template and access logging variable reference"):
 * `$input` (the payload, JSONPath `json`/`path`, `params`), `$util`, `$context`, `$stageVariables`.
 * A reference to nothing renders as an empty string, as API Gateway renders it.
 */
export interface TemplateInput {
  /** The request body (request templates) or the integration's answer (response templates). */
  body: string;
  params: { path: Record<string, string>; querystring: Record<string, string>; header: Record<string, string> };
  context: Record<string, unknown>;
  stageVariables: Record<string, string>;
}

/** A JSONPath expression of the forms API Gateway templates use: `$`, `$.a.b`, `$['a']`, `$.a[0]`, `$.a[*].b`. */
export function jsonPath(value: unknown, path: string): unknown {
  const steps: (string | number | '*')[] = [];
  const pattern = /\.\*|\[\*\]|\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/gy;
  const rest = path.trim().replace(/^\$/, '');
  pattern.lastIndex = 0;
  while (pattern.lastIndex < rest.length) {
    const start = pattern.lastIndex;
    const match = pattern.exec(rest);
    if (!match || match.index !== start) throw new Error(`Invalid JSONPath expression: ${path}`);
    if (match[0] === '.*' || match[0] === '[*]') steps.push('*');
    else steps.push(match[1] ?? (match[2] !== undefined ? Number(match[2]) : (match[3] ?? match[4])));
  }
  let current: unknown[] = [value];
  let many = false;
  for (const step of steps) {
    const next: unknown[] = [];
    for (const item of current) {
      if (item === null || typeof item !== 'object') continue;
      if (step === '*') next.push(...(Array.isArray(item) ? item : Object.values(item)));
      else if ((item as Record<string | number, unknown>)[step] !== undefined) next.push((item as Record<string | number, unknown>)[step]);
    }
    if (step === '*') many = true;
    current = next;
  }
  return many ? current : current[0];
}

/** What `$util.escapeJavaScript` does: a JavaScript string's escapes, single quotes included. */
function escapeJavaScript(text: unknown): string {
  return String(text ?? '').replace(/[\\"'\n\r\t\b\f/]|[\u0000-\u001f]/g, (c) => {
    const named: Record<string, string> = { '\\': '\\\\', '"': '\\"', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '/': '\\/' };
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** Java's URLEncoder (what `$util.urlEncode` is): spaces become `+`, and only `.-*_` stay as they are. */
function urlEncode(text: unknown): string {
  return encodeURIComponent(String(text ?? ''))
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

function urlDecode(text: unknown): string {
  try {
    return decodeURIComponent(String(text ?? '').replace(/\+/g, ' '));
  } catch {
    return String(text ?? '');
  }
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** Java's `String.matches(regex)` (v3's CORS origin template calls it): the whole string must match. */
const JAVA_STRING_MATCHES = {
  uid: 'java-string-matches',
  match: ({ property, context, params }: { property: string; context: unknown; params: unknown[] }) => property === 'matches' && typeof context === 'string' && params.length === 1,
  resolve: ({ context, params }: { context: unknown; params: unknown[] }) => {
    try {
      return new RegExp(`^(?:${String(params[0])})$`).test(String(context));
    } catch {
      return false;
    }
  },
};

/** Renders a mapping template; the `$context.responseOverride` a response template set comes back beside the text. */
export function renderTemplate(template: string, input: TemplateInput): { text: string; responseOverride: { status?: number; header: Record<string, string> } } {
  const payload = parsed(input.body);
  const responseOverride: { status?: unknown; header: Record<string, string> } = { header: {} };
  const templateInput = {
    body: input.body,
    json: (path: string) => JSON.stringify(jsonPath(payload, String(path)) ?? null),
    path: (path: string) => jsonPath(payload, String(path)),
    params: (name?: string) => {
      if (name === undefined) return input.params;
      const header = Object.entries(input.params.header).find(([key]) => key.toLowerCase() === String(name).toLowerCase())?.[1];
      return input.params.path[name] ?? input.params.querystring[name] ?? header ?? '';
    },
  };
  const util = {
    escapeJavaScript,
    parseJson: (text: string) => JSON.parse(String(text)) as unknown,
    urlEncode,
    urlDecode,
    base64Encode: (text: string) => Buffer.from(String(text ?? '')).toString('base64'),
    base64Decode: (text: string) => Buffer.from(String(text ?? ''), 'base64').toString('utf8'),
  };
  const context = { ...input.context, responseOverride };
  const text = new Compile(parse(template), { escape: false, customMethodHandlers: [JAVA_STRING_MATCHES] }).render({ input: templateInput, util, context, stageVariables: input.stageVariables }, undefined, true);
  const status = Number(responseOverride.status);
  return { text, responseOverride: { status: Number.isInteger(status) && status >= 100 ? status : undefined, header: responseOverride.header } };
}
