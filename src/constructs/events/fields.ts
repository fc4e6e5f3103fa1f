import { ConfigError } from '../../errors';
import { distance } from '../../synth/suggest';

/**
 * The documented fields of each event type. Serverless v3 only warns about an unknown field;
 * fw refuses one that is a near miss of a documented field (`batchsize`, `bachSize`), which is
 * a typo that would otherwise silently drop a setting. Other unknown fields pass, as in v3.
 */
const FIELDS: Record<string, string[]> = {
  httpApi: ['method', 'path', 'authorizer'],
  http: ['path', 'method', 'cors', 'private', 'authorizer', 'integration', 'request', 'response', 'async', 'operationId', 'connectionType', 'connectionId'],
  s3: ['bucket', 'event', 'rules', 'existing', 'forceDeploy'],
  schedule: ['rate', 'enabled', 'input', 'inputPath', 'inputTransformer', 'name', 'description', 'timezone', 'method', 'roleArn'],
  sns: ['arn', 'topicName', 'displayName', 'filterPolicy', 'filterPolicyScope', 'redrivePolicy', 'kmsMasterKeyId'],
  sqs: ['arn', 'batchSize', 'maximumBatchingWindow', 'functionResponseType', 'filterPatterns', 'maximumConcurrency', 'enabled'],
  stream: [
    'arn', 'type', 'batchSize', 'startingPosition', 'startingPositionTimestamp', 'enabled', 'bisectBatchOnFunctionError',
    'maximumRetryAttempts', 'maximumRecordAgeInSeconds', 'parallelizationFactor', 'destinations', 'filterPatterns',
    'consumer', 'tumblingWindowInSeconds', 'functionResponseType', 'maximumBatchingWindow',
  ],
  msk: ['arn', 'topic', 'batchSize', 'maximumBatchingWindow', 'enabled', 'startingPosition', 'startingPositionTimestamp', 'saslScram512', 'consumerGroupId', 'filterPatterns'],
  kafka: ['accessConfigurations', 'bootstrapServers', 'topic', 'batchSize', 'maximumBatchingWindow', 'enabled', 'startingPosition', 'startingPositionTimestamp', 'consumerGroupId', 'filterPatterns'],
  activemq: ['arn', 'basicAuthArn', 'queue', 'batchSize', 'maximumBatchingWindow', 'enabled', 'filterPatterns'],
  rabbitmq: ['arn', 'basicAuthArn', 'queue', 'virtualHost', 'batchSize', 'maximumBatchingWindow', 'enabled', 'filterPatterns'],
  alb: ['listenerArn', 'priority', 'conditions', 'healthCheck', 'multiValueHeaders', 'targetGroupName', 'authorizer'],
  alexaSkill: ['appId', 'enabled'],
  alexaSmartHome: ['appId', 'enabled'],
  iot: ['sql', 'sqlVersion', 'name', 'enabled', 'description'],
  iotFleetProvisioning: ['templateBody', 'provisioningRoleArn', 'templateName', 'enabled'],
  cloudwatchEvent: ['event', 'input', 'inputPath', 'inputTransformer', 'enabled', 'name', 'description'],
  cloudwatchLog: ['logGroup', 'filter'],
  cognitoUserPool: ['pool', 'trigger', 'existing', 'forceDeploy', 'kmsKeyId'],
  eventBridge: ['eventBus', 'pattern', 'schedule', 'input', 'inputPath', 'inputTransformer', 'retryPolicy', 'deadLetterQueueArn', 'name', 'description', 'enabled', 'method'],
  cloudFront: ['eventType', 'origin', 'pathPattern', 'behavior', 'cachePolicy', 'includeBody', 'isDefaultOrigin'],
  websocket: ['route', 'routeResponseSelectionExpression', 'authorizer'],
};

/** A documented field the unknown one is a typo of, if it is that close. */
function nearMiss(field: string, known: string[]): string | undefined {
  const lower = field.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = candidate.toLowerCase() === lower ? 0 : distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && field.length >= 4 && bestDistance <= (field.length >= 8 ? 2 : 1) ? best : undefined;
}

/** Refuses a field of an event's object form that is a near miss of a documented one. */
export function checkEventFields(type: string, config: unknown, path: string): void {
  const known = FIELDS[type];
  if (!known || config === null || typeof config !== 'object' || Array.isArray(config)) return;
  for (const field of Object.keys(config)) {
    if (known.includes(field)) continue;
    const meant = nearMiss(field, known);
    if (meant) throw new ConfigError(`Invalid configuration in '${path}.${field}': unknown property; did you mean "${meant}"?`);
  }
}
