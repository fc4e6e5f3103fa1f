import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import { ConfigError } from '../../errors';
import type { IamStatement, Json } from '../model';
import type { FunctionConstruct } from '../function';
import { asList, expecting, isEventObject, isOneOrMany, validateEvent } from './event-schema';
import { brokerEventSourceMapping, kafkaConsumerFields, kafkaTopicFields, kafkaTopicProperties, type RawEvent, registerBrokerPolicy, requireTimestamp, secretsStatement, vpcNetworkStatement } from './event-source-mapping';
import { SECRET_ARN } from './amazon-mq';

// Strings only: the reference writes an intrinsic here as "[object Object]".
const secret = expecting('a Secrets Manager secret ARN', t.cascade(t.isString(), [t.matchesRegExp(SECRET_ARN)]));
const secrets = isOneOrMany('a Secrets Manager secret ARN or a list of them', secret);

/** Each way to reach and authenticate to the cluster, as the mapping's `SourceAccessConfigurations` spell it. */
const ACCESS_TYPES = {
  vpcSubnet: { type: 'VPC_SUBNET', uri: (value: Json) => `subnet:${value as string}` },
  vpcSecurityGroup: { type: 'VPC_SECURITY_GROUP', uri: (value: Json) => `security_group:${value as string}` },
  saslPlainAuth: { type: 'BASIC_AUTH', uri: (value: Json) => value },
  saslScram256Auth: { type: 'SASL_SCRAM_256_AUTH', uri: (value: Json) => value },
  saslScram512Auth: { type: 'SASL_SCRAM_512_AUTH', uri: (value: Json) => value },
  clientCertificateTlsAuth: { type: 'CLIENT_CERTIFICATE_TLS_AUTH', uri: (value: Json) => value },
  serverRootCaCertificate: { type: 'SERVER_ROOT_CA_CERTIFICATE', uri: (value: Json) => value },
} as const;
const SECRET_KEYS = ['saslPlainAuth', 'saslScram256Auth', 'saslScram512Auth', 'clientCertificateTlsAuth', 'serverRootCaCertificate'];
const VPC_KEYS = ['vpcSubnet', 'vpcSecurityGroup'];

const kafkaSchema = isEventObject({
  // A mistyped access key would leave the cluster unreachable, so unknown keys are refused here.
  accessConfigurations: t.cascade(
    t.isObject({
      vpcSubnet: t.isOptional(isOneOrMany('a subnet id ("subnet-…") or a list of them', expecting('a subnet id', t.cascade(t.isString(), [t.matchesRegExp(/subnet-[a-z0-9]+/)])))),
      vpcSecurityGroup: t.isOptional(isOneOrMany('a security group id ("sg-…") or a list of them', expecting('a security group id', t.cascade(t.isString(), [t.matchesRegExp(/sg-[a-z0-9]+/)])))),
      saslPlainAuth: t.isOptional(secrets),
      saslScram256Auth: t.isOptional(secrets),
      saslScram512Auth: t.isOptional(secrets),
      clientCertificateTlsAuth: t.isOptional(secrets),
      serverRootCaCertificate: t.isOptional(secrets),
    }),
    [
      expecting(
        'at least one of vpcSubnet, vpcSecurityGroup, saslPlainAuth, saslScram256Auth, saslScram512Auth, clientCertificateTlsAuth, serverRootCaCertificate',
        t.makeValidator<unknown, Record<string, unknown>>({ test: (value): value is Record<string, unknown> => Object.keys(value as object).length > 0 }),
      ),
    ],
  ),
  bootstrapServers: expecting('a list of "host:port" bootstrap servers', t.cascade(t.isArray(t.isString()), [t.hasMinLength(1)])),
  ...kafkaTopicFields,
  ...kafkaConsumerFields,
});

export type KafkaEventConfig = t.InferType<typeof kafkaSchema>;

export function parseKafka(config: unknown, path: string): KafkaEventConfig {
  const event = validateEvent(kafkaSchema, config, path);
  requireTimestamp(event, path);
  const { vpcSubnet, vpcSecurityGroup } = event.accessConfigurations;
  if ((vpcSubnet === undefined) !== (vpcSecurityGroup === undefined)) {
    const missing = vpcSubnet === undefined ? 'vpcSubnet' : 'vpcSecurityGroup';
    throw new ConfigError(
      `Invalid configuration in '${path}.accessConfigurations.${missing}': expected at least one ${missing === 'vpcSubnet' ? 'subnet id' : 'security group id'} (a VPC needs both subnets and security groups), got nothing`,
    );
  }
  return event;
}

/** In the order the user wrote them: `[{ Type: 'VPC_SUBNET', URI: 'subnet:subnet-1' }, …]`. */
function sourceAccessConfigurations(access: KafkaEventConfig['accessConfigurations']): Json[] {
  return Object.entries(access).flatMap(([key, value]) => {
    const accessType = ACCESS_TYPES[key as keyof typeof ACCESS_TYPES];
    return asList(value as Json).map(item => ({ Type: accessType.type, URI: accessType.uri(item) }));
  });
}

/**
 * `kafka` event: an event source mapping from a topic of a self-managed Apache Kafka
 * cluster (`{Fn}EventSourceMappingKafka{Topic}`), reached through its bootstrap servers
 * with the access configurations given (VPC, SASL, mTLS).
 */
export class KafkaEvent extends Construct {
  static readonly type = 'kafka';
  static readonly description = 'Records from a self-managed Apache Kafka topic';
  static readonly schema = kafkaSchema;

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const event = parseKafka(config, path);
    brokerEventSourceMapping(this, fn, {
      logicalId: naming.kafkaEventSourceMapping(fn.key, event.topic),
      path,
      hint: 'use one kafka event per topic',
      properties: () =>
        kafkaTopicProperties(
          {
            FunctionName: fn.targetArn,
            StartingPosition: event.startingPosition ?? 'TRIM_HORIZON',
            SelfManagedEventSource: { Endpoints: { KafkaBootstrapServers: event.bootstrapServers } },
            Topics: [event.topic],
            SourceAccessConfigurations: sourceAccessConfigurations(event.accessConfigurations),
          },
          event,
          { consumerGroupConfig: 'SelfManagedKafkaEventSourceConfig' },
        ),
    });
  }
}

registerBrokerPolicy({
  order: 1,
  type: KafkaEvent.type,
  statements(events: RawEvent[]): IamStatement[] {
    const parsed = events.map(({ config, path }) => parseKafka(config, path));
    const secretArns = parsed.flatMap(event =>
      Object.entries(event.accessConfigurations)
        .filter(([key]) => SECRET_KEYS.includes(key))
        .flatMap(([, value]) => asList(value as Json)),
    );
    const inVpc = parsed.some(event => Object.keys(event.accessConfigurations).some(key => VPC_KEYS.includes(key)));
    const statements: IamStatement[] = [];
    if (secretArns.length > 0) statements.push(secretsStatement(secretArns));
    if (inVpc) statements.push(vpcNetworkStatement());
    return statements;
  },
});
