/**
 * Bucket CORS as S3 applies it: the rules PutBucketCors stores, the answer to a browser's
 * preflight (`OPTIONS` on a bucket or object) and the `Access-Control-*` headers of the actual
 * response, from the first rule that matches the origin, the method and the requested headers.
 */
import { AwsError } from '../protocol/errors';
import { document, flat, textsOf } from '../protocol/xml';
import { header, type LocalRequest, type LocalResponse } from '../http';

export interface CorsRule {
  ID?: string;
  AllowedOrigins: string[];
  AllowedMethods: string[];
  AllowedHeaders: string[];
  ExposeHeaders: string[];
  MaxAgeSeconds?: number;
}

const NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';
const METHODS = ['GET', 'PUT', 'HEAD', 'POST', 'DELETE'];

const malformed = (message = 'The XML you provided was not well-formed or did not validate against our published schema') => new AwsError('MalformedXML', message);

/** The rules of a `<CORSConfiguration>` document. */
export function parseCorsConfiguration(xml: string): CorsRule[] {
  const rules = [...xml.matchAll(/<CORSRule>([\s\S]*?)<\/CORSRule>/g)].map(([, body]) => {
    const maxAge = textsOf(body, 'MaxAgeSeconds')[0];
    const rule: CorsRule = {
      ...(textsOf(body, 'ID')[0] !== undefined ? { ID: textsOf(body, 'ID')[0] } : {}),
      AllowedOrigins: textsOf(body, 'AllowedOrigin'),
      AllowedMethods: textsOf(body, 'AllowedMethod'),
      AllowedHeaders: textsOf(body, 'AllowedHeader'),
      ExposeHeaders: textsOf(body, 'ExposeHeader'),
      ...(maxAge !== undefined ? { MaxAgeSeconds: Number(maxAge) } : {}),
    };
    if (rule.AllowedOrigins.length === 0 || rule.AllowedMethods.length === 0) throw malformed();
    const unsupported = rule.AllowedMethods.find((method) => !METHODS.includes(method));
    if (unsupported) throw new AwsError('InvalidRequest', `Found unsupported HTTP method in CORS config. Unsupported method is ${unsupported}`);
    return rule;
  });
  if (rules.length === 0 || rules.length > 100) throw malformed();
  return rules;
}

export function corsConfigurationXml(rules: CorsRule[]): string {
  const members = rules.map((rule) => ({
    ...(rule.ID !== undefined ? { ID: rule.ID } : {}),
    AllowedHeader: flat(rule.AllowedHeaders),
    AllowedMethod: flat(rule.AllowedMethods),
    AllowedOrigin: flat(rule.AllowedOrigins),
    ExposeHeader: flat(rule.ExposeHeaders),
    ...(rule.MaxAgeSeconds !== undefined ? { MaxAgeSeconds: rule.MaxAgeSeconds } : {}),
  }));
  return document('CORSConfiguration', { CORSRule: flat(members) }, NAMESPACE);
}

/** `*` in an allowed origin or header stands for any characters (at most one in S3). */
function wildcardMatch(pattern: string, value: string): boolean {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern.toLowerCase() === value.toLowerCase();
  const [before, after] = [pattern.slice(0, star).toLowerCase(), pattern.slice(star + 1).toLowerCase()];
  const lower = value.toLowerCase();
  return lower.length >= before.length + after.length && lower.startsWith(before) && lower.endsWith(after);
}

/** The first rule that allows this origin, method and request headers. */
export function matchingRule(rules: CorsRule[] | undefined, origin: string, method: string, requestHeaders: string[] = []): CorsRule | undefined {
  return rules?.find(
    (rule) =>
      rule.AllowedOrigins.some((allowed) => wildcardMatch(allowed, origin)) &&
      rule.AllowedMethods.includes(method) &&
      requestHeaders.every((name) => rule.AllowedHeaders.some((allowed) => wildcardMatch(allowed, name))),
  );
}

function allowOrigin(rule: CorsRule, origin: string): string {
  return rule.AllowedOrigins.includes('*') ? '*' : origin;
}

/** A browser's preflight: 200 with the rule's allowances, or 403 as S3 answers when no rule matches. */
export function preflight(rules: CorsRule[] | undefined, request: LocalRequest): LocalResponse {
  const origin = header(request, 'origin');
  const method = header(request, 'access-control-request-method');
  if (origin === undefined || method === undefined) throw new AwsError('BadRequest', 'Insufficient information. Origin request header needed.');
  if (!rules) throw new AwsError('AccessForbidden', 'CORSResponse: CORS is not enabled for this bucket.', 403, { Method: method, ResourceType: 'OBJECT' });
  const requested = (header(request, 'access-control-request-headers') ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  const rule = matchingRule(rules, origin, method, requested);
  if (!rule) {
    throw new AwsError('AccessForbidden', 'CORSResponse: This CORS request is not allowed. This is usually because the evalution of Origin, request method / Access-Control-Request-Method or Access-Control-Request-Headers are not whitelisted by the resource\'s CORS spec.', 403, {
      Method: method,
      ResourceType: 'OBJECT',
    });
  }
  return {
    status: 200,
    headers: {
      'access-control-allow-origin': allowOrigin(rule, origin),
      'access-control-allow-methods': rule.AllowedMethods.join(', '),
      ...(requested.length ? { 'access-control-allow-headers': requested.join(', ') } : {}),
      ...(rule.ExposeHeaders.length ? { 'access-control-expose-headers': rule.ExposeHeaders.join(', ') } : {}),
      ...(rule.MaxAgeSeconds !== undefined ? { 'access-control-max-age': String(rule.MaxAgeSeconds) } : {}),
      ...(rule.AllowedOrigins.includes('*') ? {} : { 'access-control-allow-credentials': 'true' }),
      vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
    },
  };
}

/** The CORS headers of an actual request's response (none when no rule matches). */
export function corsHeaders(rules: CorsRule[] | undefined, request: LocalRequest): Record<string, string> {
  const origin = header(request, 'origin');
  if (origin === undefined) return {};
  const rule = matchingRule(rules, origin, request.method);
  if (!rule) return {};
  return {
    'access-control-allow-origin': allowOrigin(rule, origin),
    'access-control-allow-methods': rule.AllowedMethods.join(', '),
    ...(rule.ExposeHeaders.length ? { 'access-control-expose-headers': rule.ExposeHeaders.join(', ') } : {}),
    ...(rule.MaxAgeSeconds !== undefined ? { 'access-control-max-age': String(rule.MaxAgeSeconds) } : {}),
    ...(rule.AllowedOrigins.includes('*') ? {} : { 'access-control-allow-credentials': 'true' }),
    vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
  };
}
