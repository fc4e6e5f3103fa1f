import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import type { Json } from './model';
import { Resource } from './resource';
import type { RestApi } from './rest-api';

export const DEFAULT_CORS_HEADERS = [
  'Content-Type', 'X-Amz-Date', 'Authorization', 'X-Api-Key', 'X-Amz-Security-Token', 'X-Amz-User-Agent', 'X-Amzn-Trace-Id',
];

/** An `http` event's `cors`, normalized. */
export interface CorsConfig {
  origins: string[];
  headers: string[];
  allowCredentials: boolean;
  maxAge?: number;
  cacheControl?: string;
  /** `cors.methods`: the methods the preflight allows besides the event's own (default OPTIONS). */
  methods?: string[];
  /** Whether `origin`/`origins` was given: a path's default `*` gives way to the origins another event names. */
  originsGiven: boolean;
  /** Whether `origins` (a list) was given: v3's preflight then answers with the request's origin when one matches. */
  matchesOrigin: boolean;
}

export function parseCors(cors: unknown): CorsConfig | undefined {
  if (!cors) return undefined;
  if (cors === true) return { origins: ['*'], headers: [...DEFAULT_CORS_HEADERS], allowCredentials: false, originsGiven: false, matchesOrigin: false };
  const c = cors as Record<string, unknown>;
  const origins = (c.origins as string[] | undefined) ?? (c.origin !== undefined ? [c.origin as string] : ['*']);
  const headers = c.headers === undefined ? [...DEFAULT_CORS_HEADERS] : Array.isArray(c.headers) ? (c.headers as string[]) : [c.headers as string];
  return {
    origins,
    headers,
    allowCredentials: Boolean(c.allowCredentials),
    maxAge: c.maxAge as number | undefined,
    cacheControl: c.cacheControl as string | undefined,
    methods: Array.isArray(c.methods) ? (c.methods as string[]).map(method => method.toUpperCase()) : undefined,
    originsGiven: c.origins !== undefined || c.origin !== undefined,
    matchesOrigin: Array.isArray(c.origins),
  };
}

const union = (first: string[], second: string[]) => [...new Set([...first, ...second])];

/** Turns `http://*.example.com` into the VTL regex `http://.+[.]example[.]com`. */
const originPattern = (origin: string) => origin.replace(/\./g, '[.]').replace(/\*/g, '.+');

/**
 * `ApiGatewayMethod{Path}Options`: the preflight answer for one path, merged from
 * every `cors` event on that path (the latest event's values first, as the reference does).
 */
export class CorsPreflight extends Resource {
  readonly type = 'AWS::ApiGateway::Method';
  private methods: string[] = [];
  private config?: CorsConfig;
  private readonly resourceRef: Json;

  constructor(scope: Construct, id: string, private readonly api: RestApi, private readonly path: string) {
    super(scope, id);
    this.resourceRef = api.resourceId(path);
  }

  get logicalId() {
    return naming.restApiMethod(this.path, 'options');
  }

  add(method: string, cors: CorsConfig): void {
    this.methods = union([...(cors.methods ?? ['OPTIONS']), method], this.methods);
    if (!this.config) {
      this.config = { ...cors };
      return;
    }
    const previous = this.config;
    this.config = {
      origins: cors.originsGiven === previous.originsGiven ? union(cors.origins, previous.origins) : cors.originsGiven ? cors.origins : previous.origins,
      originsGiven: cors.originsGiven || previous.originsGiven,
      matchesOrigin: cors.matchesOrigin || previous.matchesOrigin,
      headers: union(cors.headers, this.config.headers),
      allowCredentials: this.config.allowCredentials || cors.allowCredentials,
      maxAge: cors.maxAge ?? this.config.maxAge,
      cacheControl: cors.cacheControl ?? this.config.cacheControl,
    };
  }

  protected properties() {
    // A list of origins (even ['*'] or one) is matched by the response template, as v3 writes it; `origin` alone is written as is.
    return corsPreflightProperties(this.config!, this.methods, this.resourceRef, this.api.apiId, this.config!.matchesOrigin);
  }
}

/**
 * The properties of an OPTIONS method answering a CORS preflight: the headers as method responses
 * and a MOCK integration; with `matchOrigins`, a response template that echoes a matching `Origin`.
 */
export function corsPreflightProperties(
  cors: Pick<CorsConfig, 'origins' | 'headers' | 'allowCredentials' | 'maxAge' | 'cacheControl'>, methods: string[], resourceId: Json, restApiId: Json, matchOrigins: boolean,
): Record<string, Json> {
  const headers: Array<[string, string]> = [
    ['Access-Control-Allow-Origin', cors.origins[0]],
    ['Access-Control-Allow-Headers', cors.headers.join(',')],
    ['Access-Control-Allow-Methods', methods.join(',')],
  ];
  if (cors.allowCredentials) headers.push(['Access-Control-Allow-Credentials', 'true']);
  if (cors.maxAge !== undefined) headers.push(['Access-Control-Max-Age', String(cors.maxAge)]);
  if (cors.cacheControl !== undefined) headers.push(['Cache-Control', cors.cacheControl]);
  const responseTemplate = matchOrigins
    ? [
        '#set($origin = $input.params("Origin"))',
        '#if($origin == "") #set($origin = $input.params("origin")) #end',
        `#if(${cors.origins.map(origin => `$origin.matches("${originPattern(origin)}")`).join(' || ')}) #set($context.responseOverride.header.Access-Control-Allow-Origin = $origin) #end`,
      ].join('\n')
    : '';
  return {
    AuthorizationType: 'NONE',
    HttpMethod: 'OPTIONS',
    MethodResponses: [
      {
        StatusCode: '200',
        ResponseParameters: Object.fromEntries(headers.map(([name]) => [`method.response.header.${name}`, true])),
        ResponseModels: {},
      },
    ],
    RequestParameters: {},
    Integration: {
      Type: 'MOCK',
      RequestTemplates: { 'application/json': '{statusCode:200}' },
      ContentHandling: 'CONVERT_TO_TEXT',
      IntegrationResponses: [
        {
          StatusCode: '200',
          ResponseParameters: Object.fromEntries(headers.map(([name, value]) => [`method.response.header.${name}`, `'${value}'`])),
          ResponseTemplates: { 'application/json': responseTemplate },
        },
      ],
    },
    ResourceId: resourceId,
    RestApiId: restApiId,
  };
}
