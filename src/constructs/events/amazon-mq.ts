import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import type { IamStatement, Json } from '../model';
import type { FunctionConstruct } from '../function';
import { expecting, isEventObject, isFilterPatterns, isIntegerIn, isIntrinsic, isNumberIn, validateEvent } from './event-schema';
import { brokerEventSourceMapping, filterCriteria, type RawEvent, registerBrokerPolicy, secretsStatement, vpcNetworkStatement } from './event-source-mapping';

/** `arn:aws:secretsmanager:<region>:<account>:secret:<name>`, as the reference's schema matches it. */
export const SECRET_ARN = /arn:[a-z-]+:secretsmanager:[a-z0-9-]+:\d+:secret:[A-Za-z0-9/_+=.@-]+/;

/** What `activemq` and `rabbitmq` events (Amazon MQ brokers) have in common. */
export const amazonMqFields = {
  arn: expecting(
    'an Amazon MQ broker ARN ("arn:aws:mq:<region>:<account>:broker:<name>:b-…") or a CloudFormation intrinsic',
    t.isOneOf([t.cascade(t.isString(), [t.matchesRegExp(/arn:[a-z-]+:mq:[a-z0-9-]+:\d+:broker:[A-Za-z0-9/_+=.@-]+:b-[a-z0-9-]+/)]), isIntrinsic()]),
  ),
  basicAuthArn: expecting(
    'a Secrets Manager secret ARN or a CloudFormation intrinsic',
    t.isOneOf([t.cascade(t.isString(), [t.matchesRegExp(SECRET_ARN)]), isIntrinsic()]),
  ),
  queue: t.isString(),
  batchSize: t.isOptional(isIntegerIn(1, 10000)),
  maximumBatchingWindow: t.isOptional(isNumberIn(0, 300)),
  enabled: t.isOptional(t.isBoolean()),
  filterPatterns: t.isOptional(isFilterPatterns()),
};

const amazonMqSchema = isEventObject({ ...amazonMqFields, virtualHost: t.isOptional(t.isString()) });
export type AmazonMqEventConfig = t.InferType<typeof amazonMqSchema>;

/** What makes one Amazon MQ event type (`activemq`, `rabbitmq`) differ from the other. */
export interface AmazonMqEventSpec<Type extends string, Config extends AmazonMqEventConfig> {
  type: Type;
  description: string;
  schema: t.StrictValidator<unknown, Config>;
  /** Position among the broker types when their statements are added to the role. */
  order: number;
  /** `{Fn}EventSourceMapping<Broker>{Queue}` */
  logicalId: (fn: string, queue: string) => string;
}

/**
 * The event type of one kind of Amazon MQ broker: an event source mapping from a queue of the
 * broker, authenticated with a Secrets Manager secret; the role may read the secrets and
 * describe the brokers.
 */
export function amazonMqEventType<Type extends string, Config extends AmazonMqEventConfig>(spec: AmazonMqEventSpec<Type, Config>) {
  const parse = (config: unknown, path: string): Config => validateEvent(spec.schema, config, path);
  const AmazonMqEvent = class extends Construct {
    static readonly type = spec.type;
    static readonly description = spec.description;
    static readonly schema = spec.schema;

    constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
      super(fn, id);
      const event = parse(config, path);
      amazonMqEventSourceMapping(this, fn, event, spec.logicalId(fn.key, event.queue), path);
    }
  };
  registerBrokerPolicy({ order: spec.order, type: spec.type, statements: amazonMqStatements(parse) });
  return AmazonMqEvent;
}

/** The mapping from one queue of the broker, authenticated with the secret (and virtual host for RabbitMQ). */
export function amazonMqEventSourceMapping(
  scope: Construct,
  fn: FunctionConstruct,
  event: AmazonMqEventConfig,
  logicalId: string,
  path: string,
): void {
  brokerEventSourceMapping(scope, fn, {
    logicalId,
    path,
    hint: 'use one event per queue',
    properties: () => {
      const access: Json[] = [{ Type: 'BASIC_AUTH', URI: event.basicAuthArn }];
      if (event.virtualHost !== undefined) access.push({ Type: 'VIRTUAL_HOST', URI: event.virtualHost });
      const properties: Record<string, Json> = {
        FunctionName: fn.targetArn,
        EventSourceArn: event.arn,
        Queues: [event.queue],
        SourceAccessConfigurations: access,
      };
      if (event.batchSize !== undefined) properties.BatchSize = event.batchSize;
      if (event.maximumBatchingWindow !== undefined) properties.MaximumBatchingWindowInSeconds = event.maximumBatchingWindow;
      if (event.enabled !== undefined) properties.Enabled = event.enabled;
      if (event.filterPatterns !== undefined) properties.FilterCriteria = filterCriteria(event.filterPatterns);
      return properties;
    },
  });
}

/** Per function: read the secrets, describe the brokers, reach them inside their VPC. */
export function amazonMqStatements(parse: (config: unknown, path: string) => AmazonMqEventConfig) {
  return (events: RawEvent[]): IamStatement[] => {
    const parsed = events.map(({ config, path }) => parse(config, path));
    return [
      secretsStatement(parsed.map(event => event.basicAuthArn)),
      { Effect: 'Allow', Action: ['mq:DescribeBroker'], Resource: parsed.map(event => event.arn) },
      vpcNetworkStatement(),
    ];
  };
}
