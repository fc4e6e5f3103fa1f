/** Logical ids of the `cloudwatchLog` event's subscription filters and permission. */
import { normalizeName } from './normalize';

export const cloudWatchLogSubscriptionFilter = (fn: string, index: number) => `${normalizeName(fn)}LogsSubscriptionFilterCloudWatchLog${index}`;
export const cloudWatchLogPermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionLogsSubscriptionFilterCloudWatchLog`;
