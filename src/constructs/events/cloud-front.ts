import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import { describe } from '../../config/json-schema';
import { ConfigError } from '../../errors';
import type { Json } from '../model';
import type { FunctionConstruct } from '../function';
import { CloudFrontDistribution } from '../cloudfront-distribution';
import { isEither, isJsonObject, isStringLike, validateEvent } from './event-schema';

const EVENT_TYPES = ['viewer-request', 'origin-request', 'origin-response', 'viewer-response'] as const;
/** CloudFront passes the request body only to request events. */
const BODY_EVENT_TYPES: readonly string[] = ['viewer-request', 'origin-request'];
const ORIGIN_URL = /^(s3|https?):\/\/([^/]+)(\/.*)?$/;

const schema = t.isObject({
  eventType: t.isEnum(EVENT_TYPES),
  origin: describe(
    isEither<string | Record<string, Json>>('an origin URL ("s3://bucket.s3.amazonaws.com/path", "https://example.com") or a CloudFront origin object', [
      t.cascade(t.isString(), [t.matchesRegExp(ORIGIN_URL)]),
      isJsonObject(),
    ]),
    // As `fw schema` has always shown it: the origin object's properties are CloudFront's, not checked here.
    { anyOf: [{ type: 'string', pattern: ORIGIN_URL.source }, { type: 'object' }] },
  ),
  pathPattern: t.isOptional(t.cascade(t.isString(), [t.hasMinLength(1)])),
  isDefaultOrigin: t.isOptional(t.isBoolean()),
  includeBody: t.isOptional(t.isBoolean()),
  behavior: t.isOptional(isJsonObject()),
  cachePolicy: t.isOptional(
    t.isOneOf([t.isObject({ name: t.cascade(t.isString(), [t.hasMinLength(1)]) }), t.isObject({ id: isStringLike() })], { exclusive: true }),
  ),
});

export type CloudFrontConfig = t.InferType<typeof schema>;

/**
 * `cloudFront` event: the function runs at the edge (Lambda@Edge) for one event type of a
 * behavior of the service's CloudFront distribution, in front of the given origin.
 */
export class CloudFrontEvent extends Construct {
  static readonly type = 'cloudFront';
  static readonly description = 'Lambda@Edge: a CloudFront event (viewer/origin request/response) of the service distribution, in us-east-1';
  static readonly schema = schema;

  constructor(fn: FunctionConstruct, id: string, raw: unknown, path: string) {
    super(fn, id);
    if (fn.service.region !== 'us-east-1') {
      throw new ConfigError(
        `Invalid configuration in '${path}': CloudFront associated functions (Lambda@Edge) have to be deployed to the us-east-1 region, but the service deploys to ${JSON.stringify(fn.service.region)} (provider.region or --region)`,
      );
    }
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && (raw as Record<string, unknown>).origin === undefined) {
      throw new ConfigError(`Invalid configuration in '${path}.origin': expected an origin URL ("s3://bucket.s3.amazonaws.com/path", "https://example.com") or a CloudFront origin object, got nothing`);
    }
    const config = validateEvent(schema, raw, path);
    if (config.includeBody !== undefined && !BODY_EVENT_TYPES.includes(config.eventType)) {
      throw new ConfigError(`Invalid configuration in '${path}.includeBody': CloudFront passes the body to viewer-request and origin-request functions only, got eventType ${JSON.stringify(config.eventType)}`);
    }
    checkEdgeLimits(fn, config.eventType, path);
    CloudFrontDistribution.of(fn.service).add({
      fn,
      eventType: config.eventType,
      includeBody: config.includeBody,
      origin: parseOrigin(config.origin, `${path}.origin`),
      pathPattern: config.pathPattern,
      isDefaultOrigin: config.isDefaultOrigin,
      behavior: config.behavior,
      cachePolicy: config.cachePolicy as { name?: string; id?: Json } | undefined,
      path,
    });
  }
}

/**
 * Lambda@Edge refuses viewer functions over 128 MB or 5 seconds and origin functions over 30 seconds;
 * the reference only finds out when CloudFormation associates the function.
 */
function checkEdgeLimits(fn: FunctionConstruct, eventType: string, path: string): void {
  const viewer = eventType.startsWith('viewer-');
  const { memorySize, timeout } = fn.config;
  if (viewer && typeof memorySize === 'number' && memorySize > 128) {
    throw new ConfigError(`Invalid configuration in 'functions.${fn.key}.memorySize': ${eventType.startsWith('origin-') ? 'an' : 'a'} ${eventType} function (at '${path}') may use at most 128 MB, got ${memorySize}`);
  }
  const maxTimeout = viewer ? 5 : 30;
  if (typeof timeout === 'number' && timeout > maxTimeout) {
    throw new ConfigError(`Invalid configuration in 'functions.${fn.key}.timeout': ${eventType.startsWith('origin-') ? 'an' : 'a'} ${eventType} function (at '${path}') may run at most ${maxTimeout} seconds, got ${timeout}`);
  }
}

/** `s3://bucket.s3.amazonaws.com/files` → an S3 origin; `https://example.com/x` → a custom origin; objects pass through. */
function parseOrigin(origin: string | Record<string, unknown>, path: string): Record<string, Json> {
  if (typeof origin !== 'string') {
    if (typeof origin.DomainName !== 'string' && typeof origin.DomainName !== 'object') {
      throw new ConfigError(`Invalid configuration in '${path}.DomainName': expected the origin's domain name, got ${JSON.stringify(origin.DomainName)}`);
    }
    return origin;
  }
  const [, scheme, domain, originPath] = ORIGIN_URL.exec(origin)!;
  const parsed: Record<string, Json> = { DomainName: domain };
  if (originPath !== undefined && originPath !== '/') parsed.OriginPath = originPath;
  if (scheme === 's3') parsed.S3OriginConfig = {};
  else parsed.CustomOriginConfig = { OriginProtocolPolicy: 'match-viewer' };
  return parsed;
}
