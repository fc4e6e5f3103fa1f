/**
 * Logical ids and generated names for the broker (msk, kafka, activemq, rabbitmq),
 * load balancer (alb), Alexa and IoT events, spelled as Serverless Framework v3 does.
 * Pure functions only.
 */
import { createHash } from 'node:crypto';
import { normalizeName, normalizeNameToAlphaNumericOnly } from './naming';

// ---- Event source mappings ----
/** `compute` + `MyCluster` + `my-topic` → `ComputeEventSourceMappingMSKMyClusterMytopic` */
export const mskEventSourceMapping = (fn: string, clusterName: string, topic: string) =>
  `${normalizeName(fn)}EventSourceMappingMSK${normalizeNameToAlphaNumericOnly(clusterName)}${normalizeNameToAlphaNumericOnly(topic)}`;
export const kafkaEventSourceMapping = (fn: string, topic: string) =>
  `${normalizeName(fn)}EventSourceMappingKafka${normalizeNameToAlphaNumericOnly(topic)}`;
export const activeMqEventSourceMapping = (fn: string, queue: string) =>
  `${normalizeName(fn)}EventSourceMappingActiveMQ${normalizeNameToAlphaNumericOnly(queue)}`;
export const rabbitMqEventSourceMapping = (fn: string, queue: string) =>
  `${normalizeName(fn)}EventSourceMappingRabbitMQ${normalizeNameToAlphaNumericOnly(queue)}`;

// ---- Application load balancer ----
/** One target group per function, load balancer and header mode: `HelloAlbMultiValueTargetGroup50dc6c495c0c9188`. */
export const albTargetGroup = (fn: string, loadBalancerId: string, multiValueHeaders: boolean) =>
  `${normalizeName(fn)}Alb${multiValueHeaders ? 'MultiValue' : ''}TargetGroup${loadBalancerId}`;
export const albListenerRule = (fn: string, priority: number) => `${normalizeName(fn)}AlbListenerRule${priority}`;
export const albPermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionAlb`;
export const albRegisterTargetPermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionRegisterTarget`;

/** The `Name` tag of a target group: `app-hello-50dc6c495c0c9188-dev`. */
export const albTargetGroupTag = (service: string, fn: string, loadBalancerId: string, stage: string) =>
  `${service}-${fn}-${loadBalancerId}-${stage}`;

/**
 * The target group's physical name: an md5 of service, function, load balancer,
 * header mode and stage (32 hex characters, the most AWS allows), after the prefix if any.
 */
export function albTargetGroupName(
  service: string,
  fn: string,
  loadBalancerId: string,
  multiValueHeaders: boolean,
  stage: string,
  prefix = '',
): string {
  const hash = createHash('md5')
    .update(`${service}-${fn}-${loadBalancerId}-${multiValueHeaders ? 'multi-value-' : ''}${stage}`)
    .digest('hex');
  return `${prefix}${hash}`.slice(0, 32);
}

// ---- Alexa ----
/** `index` counts the function's events of this type from 1. */
export const alexaSkillPermission = (fn: string, index: number) => `${normalizeName(fn)}LambdaPermissionAlexaSkill${index}`;
export const alexaSmartHomePermission = (fn: string, index: number) => `${normalizeName(fn)}LambdaPermissionAlexaSmartHome${index}`;

// ---- IoT ----
export const iotTopicRule = (fn: string, index: number) => `${normalizeName(fn)}IotTopicRule${index}`;
export const iotTopicRulePermission = (fn: string, index: number) => `${normalizeName(fn)}LambdaPermissionIotTopicRule${index}`;
export const iotProvisioningTemplate = (fn: string) => `${normalizeName(fn)}IotProvisioningTemplate`;
export const iotProvisioningTemplatePermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionIotProvisioningTemplate`;
