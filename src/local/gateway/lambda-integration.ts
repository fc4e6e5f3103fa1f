import { header, type LocalRequest, type LocalResponse } from '../http';
import type { InvokeOutcome } from '../runtime/functions';
import { staticResponseHeaders } from './cors';
import { renderTemplate, type TemplateInput } from './vtl';

/**
 * REST `integration: lambda` (Integration Type `AWS`, what serverless.yml's `integration: lambda`
 * writes): the request template turns the request into the function's event, and the integration
 * responses pick the status from the function's error message. The request template Serverless
 * Framework writes (JSON and form bodies, with the authorizer's claims) is recognised and its output
 * built directly; any other request or response template is rendered by `vtl.ts`. Static response
 * headers (`'value'`) are sent.
 */

/** A request template whose output is not the JSON Lambda takes: API Gateway answers 500. */
export class TemplateOutputError extends Error {}

/** What a mapping template sees of a request: its body, parameters, context and stage variables, from the proxy event built for it. */
export function templateInput(body: string, proxyEvent: Record<string, unknown>): TemplateInput {
  return {
    body,
    params: { path: strings(proxyEvent.pathParameters), querystring: strings(proxyEvent.queryStringParameters), header: strings(proxyEvent.headers) },
    context: { ...(proxyEvent.requestContext as Record<string, unknown>) },
    stageVariables: strings(proxyEvent.stageVariables),
  };
}

/** The Serverless Framework request template: its `$loop` maps and `requestPath` line. */
const isServerlessTemplate = (template: string) => template.includes('"enhancedAuthContext": $loop') && template.includes('"requestPath": "$context.resourcePath"');

/** VTL renders null and missing values as empty strings inside the template's quotes. */
const strings = (map: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries((map as Record<string, unknown> | null | undefined) ?? {}).map(([key, value]) => [key, value === null || value === undefined ? '' : String(value)]));

function formBody(text: string): Record<string, string> {
  const body: Record<string, string> = {};
  for (const token of text.split('&')) {
    if (!token) continue;
    const [key, value = ''] = token.split('=');
    const decode = (part: string) => {
      try {
        return decodeURIComponent(part.replace(/\+/g, ' '));
      } catch {
        return part;
      }
    };
    body[decode(key)] = decode(value);
  }
  return body;
}

/** The template API Gateway applies: the one for the request's content type, else `application/json`. */
export function requestTemplate(integration: Record<string, unknown>, request: LocalRequest): { contentType: string; template: string | undefined } {
  const templates = (integration.RequestTemplates as Record<string, string> | undefined) ?? {};
  const contentType = (header(request, 'content-type') ?? 'application/json').split(';')[0].trim().toLowerCase();
  const chosen = contentType in templates ? contentType : 'application/json';
  return { contentType: chosen, template: templates[chosen] };
}

/**
 * The event Serverless Framework's template makes of a request, from the proxy event already
 * built for it (whose requestContext the authorizer has filled in).
 */
export function lambdaIntegrationEvent(request: LocalRequest, proxyEvent: Record<string, unknown>, contentType: string, template: string | undefined): unknown {
  if (template !== undefined && template.trim() !== '' && !isServerlessTemplate(template)) {
    const { text } = renderTemplate(template, templateInput(request.body.toString('utf8'), proxyEvent));
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new TemplateOutputError(`the request template's output is not JSON, so Lambda refuses it: ${text.slice(0, 200)}`);
    }
  }
  const context = proxyEvent.requestContext as Record<string, unknown>;
  const authorizer = (context.authorizer as Record<string, unknown> | undefined) ?? {};
  const text = request.body.toString('utf8');
  let body: unknown = {};
  if (contentType === 'application/x-www-form-urlencoded') body = formBody(text);
  else if (text.trim()) {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = text;
    }
  }
  const claimNames = [...(template ?? '').matchAll(/"([^"]+)": "\$context\.authorizer\.claims\.\1"/g)].map((match) => match[1]);
  const claims = strings(authorizer.claims);
  return {
    body,
    method: request.method,
    principalId: authorizer.principalId === undefined ? '' : String(authorizer.principalId),
    stage: context.stage,
    cognitoPoolClaims: { ...Object.fromEntries(claimNames.map((name) => [name, claims[name] ?? ''])), sub: claims.sub ?? '' },
    enhancedAuthContext: strings(authorizer),
    headers: strings(proxyEvent.headers),
    query: strings(proxyEvent.queryStringParameters),
    path: strings(proxyEvent.pathParameters),
    identity: strings(context.identity),
    stageVariables: strings(proxyEvent.stageVariables),
    requestPath: context.resourcePath,
  };
}

export interface IntegrationResponse {
  StatusCode?: string | number;
  SelectionPattern?: string;
  ResponseParameters?: Record<string, unknown>;
  ResponseTemplates?: Record<string, unknown>;
}

/**
 * The function's answer through the integration responses: an error's `errorMessage` is matched
 * against each `SelectionPattern` (the whole message, as Java regular expressions match); a success,
 * or an error no pattern matches, takes the default response (no pattern). The body is the
 * function's result (or error) as JSON.
 */
export function lambdaIntegrationResponse(integration: Record<string, unknown>, outcome: InvokeOutcome, proxyEvent: Record<string, unknown>): LocalResponse {
  const responses = (integration.IntegrationResponses as IntegrationResponse[] | undefined) ?? [];
  const fallback = responses.find((response) => !response.SelectionPattern) ?? { StatusCode: 200 };
  let chosen: IntegrationResponse = fallback;
  if (outcome.functionError) {
    const message = String((JSON.parse(outcome.payload) as { errorMessage?: unknown }).errorMessage ?? '');
    chosen = responses.find((response) => response.SelectionPattern && selectionMatches(response.SelectionPattern, message)) ?? fallback;
  }
  return integrationResponse(chosen, outcome.payload, proxyEvent);
}

/** A selection pattern matches the whole text (an error message, a status code), as Java regular expressions match. */
export function selectionMatches(pattern: string, text: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(text);
  } catch {
    return false;
  }
}

/** The chosen integration response: its status, static headers, and its template rendered over the integration's body (else that body). */
export function integrationResponse(chosen: IntegrationResponse, body: string, proxyEvent: Record<string, unknown>): LocalResponse {
  const status = Number(chosen.StatusCode ?? 200);
  const headers = { 'content-type': 'application/json', ...staticResponseHeaders(chosen.ResponseParameters) };
  const templates = Object.entries(chosen.ResponseTemplates ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== '');
  // API Gateway picks the template for the response's content type, application/json by default.
  const [contentType, template] = templates.find(([type]) => type === 'application/json') ?? templates[0] ?? [];
  if (!template) return { status, headers, body };
  const rendered = renderTemplate(template, { ...templateInput(body, proxyEvent), body });
  // Header names are case-insensitive: an override replaces the static header of any spelling.
  const overrides = Object.entries(rendered.responseOverride.header).map(([name, value]) => [name.toLowerCase(), value]);
  return {
    status: rendered.responseOverride.status ?? status,
    headers: { ...headers, 'content-type': contentType!, ...Object.fromEntries(overrides) },
    body: rendered.text,
  };
}
