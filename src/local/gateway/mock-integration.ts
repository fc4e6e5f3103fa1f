import type { LocalRequest, LocalResponse } from '../http';
import { staticResponseHeaders } from './cors';
import { requestTemplate, templateInput } from './lambda-integration';
import { renderTemplate } from './vtl';

/**
 * A REST API MOCK integration (`integration: mock`, and the OPTIONS method `cors: true` writes):
 * API Gateway answers by itself. The request template (for the request's content type, else
 * `application/json`) renders a `statusCode`, 200 when there is none; the integration response whose
 * `SelectionPattern` matches that code is chosen, else the default one (no pattern); with none,
 * API Gateway answers 500. Its static headers are sent and its response template rendered over an
 * empty integration body.
 */
export function mockIntegration(integration: Record<string, unknown>, request: LocalRequest, proxyEvent: Record<string, unknown>): LocalResponse {
  const { template } = requestTemplate(integration, request);
  const rendered = template === undefined ? '' : renderTemplate(template, templateInput(request.body.toString('utf8'), proxyEvent)).text;
  // API Gateway reads the code leniently: the CORS template is `{statusCode:200}`, not JSON.
  const statusCode = /["']?statusCode["']?\s*:\s*(\d{3})/.exec(rendered)?.[1] ?? '200';
  const responses = (integration.IntegrationResponses as MockIntegrationResponse[] | undefined) ?? [];
  const chosen =
    responses.find((response) => response.SelectionPattern && matches(response.SelectionPattern, statusCode)) ?? responses.find((response) => !response.SelectionPattern);
  if (!chosen) return { status: 500, headers: { 'content-type': 'application/json' }, body: '{"message": "Internal server error"}' };
  const headers = { 'content-type': 'application/json', ...staticResponseHeaders(chosen.ResponseParameters) };
  const templates = Object.entries(chosen.ResponseTemplates ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== '');
  const [contentType, responseTemplate] = templates.find(([type]) => type === 'application/json') ?? templates[0] ?? [];
  if (!responseTemplate) return { status: Number(chosen.StatusCode ?? 200), headers, body: '' };
  const output = renderTemplate(responseTemplate, templateInput('', proxyEvent));
  return {
    status: output.responseOverride.status ?? Number(chosen.StatusCode ?? 200),
    headers: { ...headers, 'content-type': contentType!, ...output.responseOverride.header },
    body: output.text,
  };
}

interface MockIntegrationResponse {
  StatusCode?: string | number;
  SelectionPattern?: string;
  ResponseParameters?: Record<string, unknown>;
  ResponseTemplates?: Record<string, unknown>;
}

/** A selection pattern matches the whole status code, as Java regular expressions match. */
function matches(pattern: string, statusCode: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(statusCode);
  } catch {
    return false;
  }
}
