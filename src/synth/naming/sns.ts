/** Logical ids of the `sns` event's topics, subscriptions, permissions and dead-letter queue policies. */
import { normalizeName, normalizeNameToAlphaNumericOnly } from './normalize';

export const snsTopic = (topicName: string) => `SNSTopic${normalizeNameToAlphaNumericOnly(topicName)}`;
export const snsSubscription = (fn: string, topicName: string) =>
  `${normalizeName(fn)}SnsSubscription${normalizeNameToAlphaNumericOnly(topicName)}`;
export const snsPermission = (fn: string, topicName: string) => `${normalizeName(fn)}LambdaPermission${normalizeNameToAlphaNumericOnly(topicName)}SNS`;
/** The dead-letter queue's policy letting the topic send to it: `DispatcherToByArnDLQPolicy`. */
export const snsDlqPolicy = (fn: string, topicName: string) =>
  `${normalizeNameToAlphaNumericOnly(topicName)}To${normalizeName(fn)}DLQPolicy`;
