/**
 * Logical ids of the s3, schedule, sns, sqs, stream, cloudwatchEvent and cloudwatchLog
 * events and of the shared custom-resource function, as Serverless Framework v3 spells them.
 * Pure functions only.
 */
import { normalizeName, normalizeNameToAlphaNumericOnly } from './naming';

// ---- s3 ----
/** `photos` → `S3BucketPhotos`; `my-bucket.v2` → `S3BucketMybucketv2` */
export const s3Bucket = (bucket: string) => `S3Bucket${normalizeNameToAlphaNumericOnly(bucket)}`;
export const s3Permission = (fn: string, bucket: string) => `${normalizeName(fn)}LambdaPermission${normalizeNameToAlphaNumericOnly(bucket)}S3`;
/** The custom resource that configures an existing bucket's notifications: `UsersCustomS31`. */
export const s3CustomResource = (fn: string, index: number) => `${normalizeName(fn)}CustomS3${index}`;

// ---- schedule ----
export const scheduleRule = (fn: string, index: number) => `${normalizeName(fn)}EventsRuleSchedule${index}`;
export const schedulePermission = (fn: string, index: number) => `${normalizeName(fn)}LambdaPermissionEventsRuleSchedule${index}`;
export const schedulerSchedule = (fn: string, index: number) => `${normalizeName(fn)}SchedulerSchedule${index}`;
/** The rule target's id: the function key as written (`crawlSchedule`). */
export const scheduleTargetId = (fn: string) => `${fn}Schedule`;

// ---- sns ----
export const snsTopic = (topicName: string) => `SNSTopic${normalizeNameToAlphaNumericOnly(topicName)}`;
export const snsSubscription = (fn: string, topicName: string) =>
  `${normalizeName(fn)}SnsSubscription${normalizeNameToAlphaNumericOnly(topicName)}`;
export const snsPermission = (fn: string, topicName: string) => `${normalizeName(fn)}LambdaPermission${normalizeNameToAlphaNumericOnly(topicName)}SNS`;
/** The dead-letter queue's policy letting the topic send to it: `DispatcherToByArnDLQPolicy`. */
export const snsDlqPolicy = (fn: string, topicName: string) =>
  `${normalizeNameToAlphaNumericOnly(topicName)}To${normalizeName(fn)}DLQPolicy`;

// ---- sqs ----
export const sqsEventSourceMapping = (fn: string, queueName: string) =>
  `${normalizeName(fn)}EventSourceMappingSQS${normalizeNameToAlphaNumericOnly(queueName)}`;

// ---- stream ----
/** `(compute, dynamodb, foo)` → `ComputeEventSourceMappingDynamodbFoo` */
export const streamEventSourceMapping = (fn: string, type: 'dynamodb' | 'kinesis', streamName: string) =>
  `${normalizeName(fn)}EventSourceMapping${normalizeName(type)}${normalizeNameToAlphaNumericOnly(streamName)}`;
/** The fan-out consumer's physical name: `fanOutfoobarConsumer` (`fanOutfoobarappdevConsumer` when service specific). */
export const streamConsumerName = (fn: string, streamName: string, serviceSpecific?: { service: string; stage: string }) =>
  `${fn}${streamName}${serviceSpecific ? `${serviceSpecific.service}${serviceSpecific.stage}` : ''}Consumer`;
export const streamConsumer = (consumerName: string) => `${normalizeName(consumerName)}StreamConsumer`;

// ---- cloudwatchEvent ----
export const cloudWatchEventRule = (fn: string, index: number) => `${normalizeName(fn)}EventsRuleCloudWatchEvent${index}`;
export const cloudWatchEventPermission = (fn: string, index: number) =>
  `${normalizeName(fn)}LambdaPermissionEventsRuleCloudWatchEvent${index}`;
export const cloudWatchEventTargetId = (fn: string) => `${fn}CloudWatchEvent`;

// ---- cloudwatchLog ----
export const cloudWatchLogSubscriptionFilter = (fn: string, index: number) => `${normalizeName(fn)}LogsSubscriptionFilterCloudWatchLog${index}`;
export const cloudWatchLogPermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionLogsSubscriptionFilterCloudWatchLog`;

// ---- custom resources (one shared role, one function per kind) ----
export const customResourcesRole = () => 'IamRoleCustomResourcesLambdaExecution';
/** `existing-s3` → `CustomDashresourceDashexistingDashs3LambdaFunction` */
export const customResourceFunction = (kind: string) => `${normalizeName(`custom-resource-${kind}`)}LambdaFunction`;
export const customResourceFunctionName = (service: string, stage: string, kind: string) => `${service}-${stage}-custom-resource-${kind}`;
export const customResourcesArtifact = () => 'custom-resources.zip';
