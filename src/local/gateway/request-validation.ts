import type { ResourceRecord } from '../cloudformation/model';
import { header, type LocalRequest, type LocalResponse } from '../http';

/**
 * A REST method's request validator, as API Gateway applies it once the caller is authorized:
 * required parameters (`method.request.{querystring,header,path}.X: true`) present and not blank,
 * else 400 `Missing required request parameters: [a, b]`; the body valid against the method's
 * model for the request's content type (`$default` when none matches; no model, no check), else
 * 400 `Invalid request body`.
 */
export function validateRequest(
  request: LocalRequest,
  method: ResourceRecord,
  pathParameters: Record<string, string>,
  records: (type: string) => ResourceRecord[],
): LocalResponse | undefined {
  const validatorId = method.properties.RequestValidatorId;
  if (validatorId === undefined) return undefined;
  const restApiId = method.properties.RestApiId;
  const validator = records('AWS::ApiGateway::RequestValidator').find(
    record => record.physicalId === String(validatorId) && record.properties.RestApiId === restApiId,
  );
  if (!validator) return undefined;
  if (isTrue(validator.properties.ValidateRequestParameters)) {
    const missing = missingParameters(request, (method.properties.RequestParameters ?? {}) as Record<string, unknown>, pathParameters);
    if (missing.length > 0) return badRequest(`Missing required request parameters: [${missing.join(', ')}]`);
  }
  if (isTrue(validator.properties.ValidateRequestBody)) {
    const models = (method.properties.RequestModels ?? {}) as Record<string, unknown>;
    const contentType = (header(request, 'content-type') ?? 'application/json').split(';')[0].trim().toLowerCase();
    const modelId = Object.entries(models).find(([type]) => type.toLowerCase() === contentType)?.[1] ?? models.$default;
    const model = modelId === undefined ? undefined : records('AWS::ApiGateway::Model').find(record => record.physicalId === String(modelId));
    if (model && !bodyMatches(request.body, model.properties.Schema)) return badRequest('Invalid request body');
  }
  return undefined;
}

/** API Gateway's BAD_REQUEST_PARAMETERS and BAD_REQUEST_BODY answers. */
const badRequest = (message: string): LocalResponse => ({
  status: 400,
  headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'BadRequestException' },
  body: JSON.stringify({ message }),
});

const isTrue = (value: unknown) => value === true || value === 'true';

function missingParameters(request: LocalRequest, parameters: Record<string, unknown>, pathParameters: Record<string, string>): string[] {
  const missing: string[] = [];
  for (const [key, required] of Object.entries(parameters)) {
    if (!isTrue(required)) continue;
    const match = /^method\.request\.(querystring|header|path)\.(.+)$/.exec(key);
    if (!match) continue;
    const [, where, name] = match;
    const value = where === 'querystring' ? request.search.get(name) : where === 'header' ? header(request, name) : pathParameters[name];
    if (value === undefined || value === null || value.trim() === '') missing.push(name);
  }
  return missing;
}

type Validate = (value: unknown) => boolean;
const compiled = new Map<string, Validate>();

/** The body against a JSON schema (API Gateway speaks draft-04; its `$schema` is left out for ajv). A body that is not JSON fails. */
function bodyMatches(body: Buffer, schema: unknown): boolean {
  const text = typeof schema === 'string' ? schema : JSON.stringify(schema ?? {});
  let validate = compiled.get(text);
  if (!validate) {
    const parsed = typeof schema === 'string' ? (JSON.parse(schema) as Record<string, unknown>) : { ...(schema as Record<string, unknown>) };
    delete parsed.$schema;
    // Loaded on first use: only services with request models pay for it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Ajv = require('ajv').default as new (options: Record<string, unknown>) => { compile(schema: unknown): Validate };
    validate = new Ajv({ strict: false, allErrors: false }).compile(parsed);
    compiled.set(text, validate);
  }
  let value: unknown;
  try {
    value = JSON.parse(body.length === 0 ? 'null' : body.toString('utf8'));
  } catch {
    return false;
  }
  return validate(value);
}
