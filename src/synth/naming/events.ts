/** Logical ids and generated names of EventBridge / CloudWatch Events rules: `schedule`, `cloudwatchEvent` and `eventBridge` events. */
import { normalizeName, normalizeNameToAlphaNumericOnly, shortenName } from './normalize';

// ---- schedule ----
export const scheduleRule = (fn: string, index: number) => `${normalizeName(fn)}EventsRuleSchedule${index}`;
export const schedulePermission = (fn: string, index: number) => `${normalizeName(fn)}LambdaPermissionEventsRuleSchedule${index}`;
export const schedulerSchedule = (fn: string, index: number) => `${normalizeName(fn)}SchedulerSchedule${index}`;
/** The rule target's id: the function key as written (`crawlSchedule`). */
export const scheduleTargetId = (fn: string) => `${fn}Schedule`;

// ---- cloudwatchEvent ----
export const cloudWatchEventRule = (fn: string, index: number) => `${normalizeName(fn)}EventsRuleCloudWatchEvent${index}`;
export const cloudWatchEventPermission = (fn: string, index: number) =>
  `${normalizeName(fn)}LambdaPermissionEventsRuleCloudWatchEvent${index}`;
export const cloudWatchEventTargetId = (fn: string) => `${fn}CloudWatchEvent`;

// ---- eventBridge ----
export const eventBridgeEventBus = (bus: string) => `${normalizeName(bus)}EventBridgeEventBus`;
/** `app-dev-hello-rule-2`, shortened with a hash when it would pass EventBridge's 64 characters. */
export const eventBridgeRuleName = (functionName: string, position: number) => shortenName(functionName, `-rule-${position}`);
export const eventBridgeTargetId = (ruleName: string) => shortenName(ruleName, '-target');
export const eventBridgeRule = (functionName: string, position: number) =>
  `${normalizeNameToAlphaNumericOnly(`${functionName}-rule-${position}`)}EventBridgeRule`;
/** `{Fn}CustomEventBridge{n}`: the legacy (`useCloudFormation: false`) custom resource for one rule. */
export const eventBridgeCustomResource = (fn: string, position: number) => `${normalizeName(fn)}CustomEventBridge${position}`;
export const eventBridgePermission = (fn: string, position: number) => `${normalizeName(fn)}EventBridgeLambdaPermission${position}`;
