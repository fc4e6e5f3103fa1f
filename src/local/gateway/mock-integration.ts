import type { LocalRequest, LocalResponse } from '../http';
import { integrationResponse, requestTemplate, selectionMatches, templateInput, type IntegrationResponse } from './lambda-integration';
import { renderTemplate } from './vtl';

/**
 * A REST API MOCK integration (`integration: mock`, and the OPTIONS method `cors: true` writes):
 * API Gateway answers by itself. The request template (for the request's content type, else
 * `application/json`) renders a `statusCode`, 200 when there is none; the integration response whose
 * `SelectionPattern` matches that code is chosen, else the default one (no pattern); with none,
 * API Gateway answers 500. Its static headers are sent and its response template rendered over an
 * empty integration body (the request's parameters and context), its `responseOverride` applied.
 */
export function mockIntegration(integration: Record<string, unknown>, request: LocalRequest, proxyEvent: Record<string, unknown>): LocalResponse {
  const { template } = requestTemplate(integration, request);
  const rendered = template === undefined ? '' : renderTemplate(template, templateInput(request.body.toString('utf8'), proxyEvent)).text;
  // API Gateway reads the code leniently: the CORS template is `{statusCode:200}`, not JSON.
  const statusCode = /["']?statusCode["']?\s*:\s*(\d{3})/.exec(rendered)?.[1] ?? '200';
  const responses = (integration.IntegrationResponses as IntegrationResponse[] | undefined) ?? [];
  const chosen =
    responses.find((response) => response.SelectionPattern && selectionMatches(response.SelectionPattern, statusCode)) ?? responses.find((response) => !response.SelectionPattern);
  if (!chosen) return { status: 500, headers: { 'content-type': 'application/json' }, body: '{"message": "Internal server error"}' };
  const response = integrationResponse(chosen, '', proxyEvent);
  // A template that renders only whitespace (v3's CORS origin matching) answers an empty body.
  return typeof response.body === 'string' && response.body.trim() === '' ? { ...response, body: '' } : response;
}
