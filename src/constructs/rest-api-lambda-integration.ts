import type { Json } from './model';
import type { FunctionConstruct } from './function';
import { getAtt, join, partition, region } from './resource';
import type { CorsConfig } from './rest-api-cors';

/**
 * What a REST integration invokes. With provisioned concurrency, v3 spells the alias inside the
 * URI's own join (`…/functions/`, the ARN, `:`, `provisioned`, `/invocations`).
 */
export function restIntegrationUri(fn: FunctionConstruct): Json {
  const qualifier = fn.targetAlias === undefined ? [] : [':', 'provisioned'];
  return join(['arn:', partition, ':apigateway:', region, ':lambda:path/2015-03-31/functions/', getAtt(fn.lambda.logicalId, 'Arn'), ...qualifier, '/invocations']);
}

/*
 * `integration: lambda` (the non-proxy form): API Gateway maps the request into an
 * event with these VTL templates and maps errors to status codes by message pattern.
 * The template text is what API Gateway receives, so it is kept byte-for-byte as
 * Serverless Framework v3 deploys it (documented in its apigateway guide).
 */

const JSON_BODY = '\n    #set( $body = $input.json("$") )\n\n    ';

const FORM_BODY = [
  '\n    #define( $body )',
  '      {',
  "      #foreach( $token in $input.path('$').split('&') )",
  "        #set( $keyVal = $token.split('=') )",
  '        #set( $keyValSize = $keyVal.size() )',
  '        #if( $keyValSize >= 1 )',
  '          #set( $key = $util.escapeJavaScript($util.urlDecode($keyVal[0])) )',
  '          #if( $keyValSize >= 2 )',
  `            #set($val = $util.escapeJavaScript($util.urlDecode($keyVal[1])).replaceAll("\\\\'","'"))`,
  '          #else',
  "            #set( $val = '' )",
  '          #end',
  '          "$key": "$val"#if($foreach.hasNext),#end',
  '        #end',
  '      #end',
  '      }',
  '    #end\n\n    ',
].join('\n');

function eventTemplate(claims: string[]): string {
  const claimLines = claims.map(claim => `"${claim}": "$context.authorizer.claims.${claim}",`).join('');
  return [
    '\n  #define( $loop )',
    '    {',
    '    #foreach($key in $map.keySet())',
    '        #set( $k = $util.escapeJavaScript($key) )',
    `        #set( $v = $util.escapeJavaScript($map.get($key)).replaceAll("\\\\'", "'") )`,
    '        "$k":',
    '          "$v"',
    '          #if( $foreach.hasNext ) , #end',
    '    #end',
    '    }',
    '  #end',
    '',
    '  {',
    '    "body": $body,',
    '    "method": "$context.httpMethod",',
    '    "principalId": "$context.authorizer.principalId",',
    '    "stage": "$context.stage",',
    '',
    '    "cognitoPoolClaims" : {',
    `       ${claimLines}`,
    '       "sub": "$context.authorizer.claims.sub"',
    '    },',
    '',
    '    #set( $map = $context.authorizer )',
    '    "enhancedAuthContext": $loop,',
    '',
    '    #set( $map = $input.params().header )',
    '    "headers": $loop,',
    '',
    '    #set( $map = $input.params().querystring )',
    '    "query": $loop,',
    '',
    '    #set( $map = $input.params().path )',
    '    "path": $loop,',
    '',
    '    #set( $map = $context.identity )',
    '    "identity": $loop,',
    '',
    '    #set( $map = $stageVariables )',
    '    "stageVariables": $loop,',
    '',
    '    "requestPath": "$context.resourcePath"',
    '  }',
    '',
    '  ',
  ].join('\n');
}

const STATUS_PATTERNS: Array<[string, string]> = [
  ['200', ''],
  ['400', '[\\s\\S]*\\[400\\][\\s\\S]*'],
  ['401', '[\\s\\S]*\\[401\\][\\s\\S]*'],
  ['403', '[\\s\\S]*\\[403\\][\\s\\S]*'],
  ['404', '[\\s\\S]*\\[404\\][\\s\\S]*'],
  ['422', '[\\s\\S]*\\[422\\][\\s\\S]*'],
  ['500', '[\\s\\S]*(Process\\s?exited\\s?before\\s?completing\\s?request|\\[500\\])[\\s\\S]*'],
  ['502', '[\\s\\S]*\\[502\\][\\s\\S]*'],
  ['504', '([\\s\\S]*\\[504\\][\\s\\S]*)|(.*Task timed out after \\d+\\.\\d+ seconds$)'],
];

const isObject = (value: unknown): value is Record<string, Json> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * v3's `request.{template,passThrough,contentHandling}` and `response.{headers,template,statusCodes,
 * contentHandling}`: given templates are added to (or replace) the default ones; given status codes
 * replace the default table; the response headers go on every status code, a code's own headers after them.
 * `integration: mock` (`kind: 'mock'`) is the same without a function: no URI, no default request
 * templates, pass-through and status codes only as given. `integration: http` (`kind: 'http'`)
 * calls `request.uri` with the method's own verb: no default request templates, pass-through only
 * as given, the status codes as given.
 *
 * Given status codes without one whose `pattern` is `''` get v3's default `200` (pattern `''`) first:
 * without a default response, API Gateway answers every success with a 500. Where the given `200`
 * has no pattern, v3 replaces it (its template and headers are lost); fw keeps its settings.
 */
export function lambdaIntegration(
  fn: FunctionConstruct,
  event: { authorizer?: unknown; request?: unknown; response?: unknown },
  cors: CorsConfig | undefined,
  { kind = 'lambda' }: { kind?: 'lambda' | 'mock' | 'http' } = {},
): { integration: Record<string, Json> & { RequestTemplates: Record<string, Json> }; methodResponses: Json[] } {
  const authorizer = event.authorizer as { claims?: string[] } | undefined;
  const claims = typeof authorizer === 'object' && authorizer !== null ? authorizer.claims ?? [] : [];
  const template = eventTemplate(claims);
  const request = isObject(event.request) ? event.request : {};
  const response = isObject(event.response) ? event.response : {};
  const headers: Array<[string, Json]> = [];
  if (cors) {
    headers.push(['Access-Control-Allow-Origin', `'${cors.origins.join(',')}'`]);
    // The reference leaves this one unquoted; API Gateway accepts both.
    if (cors.allowCredentials) headers.push(['Access-Control-Allow-Credentials', 'true']);
  }
  if (isObject(response.headers)) headers.push(...Object.entries(response.headers));
  const mock = kind === 'mock';
  const givenCodes = isObject(response.statusCodes) ? { ...response.statusCodes } : undefined;
  if (givenCodes && !mock && !Object.values(givenCodes).some((setting) => isObject(setting) && setting.pattern === '')) {
    givenCodes['200'] = { ...(isObject(givenCodes['200']) ? givenCodes['200'] : {}), pattern: '' };
  }
  const statusCodes: Array<{ code: string; pattern: Json; template?: Json; headers: Array<[string, Json]> }> = givenCodes
    ? Object.entries(givenCodes).map(([code, setting]) => {
        const config = isObject(setting) ? setting : {};
        return { code, pattern: config.pattern ?? '', template: config.template, headers: isObject(config.headers) ? Object.entries(config.headers) : [] };
      })
    : mock
      ? []
      : STATUS_PATTERNS.map(([code, pattern]) => ({ code, pattern, headers: [] }));
  const parameters = (own: Array<[string, Json]>) => Object.fromEntries([...headers, ...own].map(([name, value]) => [`method.response.header.${name}`, value]));
  const responseTemplate = (own: Json | undefined): Record<string, Json> => {
    const chosen = own ?? (response.statusCodes !== undefined || response.template !== undefined ? response.template : undefined);
    if (chosen === undefined) return {};
    return isObject(chosen) ? chosen : { 'application/json': chosen };
  };
  const integration: Record<string, Json> & { RequestTemplates: Record<string, Json> } = {
    IntegrationHttpMethod: 'POST',
    Type: 'AWS',
    Uri: restIntegrationUri(fn),
    PassthroughBehavior: request.passThrough ?? 'NEVER',
    RequestTemplates: {
      'application/json': `${JSON_BODY}${template}`,
      'application/x-www-form-urlencoded': `${FORM_BODY}${template}`,
      ...(isObject(request.template) ? request.template : {}),
    },
    IntegrationResponses: statusCodes.map(({ code, pattern, template: own, headers: codeHeaders }) => {
      const entry: Record<string, Json> = { StatusCode: code, SelectionPattern: pattern, ResponseParameters: parameters(codeHeaders), ResponseTemplates: responseTemplate(own) };
      if (response.contentHandling !== undefined && pattern === '') entry.ContentHandling = response.contentHandling;
      return entry;
    }),
  };
  if (kind === 'http') {
    integration.IntegrationHttpMethod = String((event as { method?: unknown }).method ?? 'GET').toUpperCase();
    integration.Type = 'HTTP';
    integration.Uri = request.uri ?? null;
  }
  if (kind !== 'lambda') {
    if (request.passThrough === undefined) delete integration.PassthroughBehavior;
    if (isObject(request.template)) integration.RequestTemplates = request.template;
    else delete (integration as Record<string, Json>).RequestTemplates;
  }
  if (mock) {
    delete integration.Uri;
    integration.Type = 'MOCK';
  }
  if (request.contentHandling !== undefined) integration.ContentHandling = request.contentHandling;
  return {
    integration,
    methodResponses: statusCodes.map(({ code, headers: codeHeaders }) => ({
      ResponseParameters: Object.fromEntries([...headers, ...codeHeaders].map(([name]) => [`method.response.header.${name}`, true])),
      ResponseModels: {},
      StatusCode: code,
    })),
  };
}
