import type { ResourceRecord } from '../cloudformation/model';
import type { LocalResponse } from '../http';
import { forbidden, limitExceeded, tooManyRequests } from './responses';

interface UsagePlanLimits {
  Throttle?: { RateLimit?: number; BurstLimit?: number };
  Quota?: { Limit?: number; Period?: string; Offset?: number };
}

/** The resources API keys are checked against, from the live stacks. */
export interface KeyResources {
  keys: ResourceRecord[];
  plans: ResourceRecord[];
  planKeys: ResourceRecord[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Which quota window a moment falls in: a UTC day, a week from Sunday plus Offset days, a month from day 1 plus Offset. */
export function quotaWindow(period: string, offset: number, now: Date): string {
  const days = Math.floor(now.getTime() / DAY_MS);
  if (period === 'DAY') return `D${days}`;
  // 1970-01-01 was a Thursday: four days after a Sunday.
  if (period === 'WEEK') return `W${Math.floor((days + 4 - offset) / 7)}`;
  const shifted = new Date(now.getTime() - offset * DAY_MS);
  return `M${shifted.getUTCFullYear()}-${shifted.getUTCMonth()}`;
}

/**
 * `ApiKeyRequired` methods of REST APIs: the key (from `x-api-key`, or the
 * authorizer's `usageIdentifierKey`) must be an enabled API key in a usage plan
 * of the API's stage; the plan's throttle (a token bucket of BurstLimit,
 * refilled at RateLimit a second) and quota apply per key. Counters live in
 * memory: a restart of the local cloud starts them afresh.
 */
export class UsagePlans {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly quotas = new Map<string, { window: string; used: number }>();

  check(resources: KeyResources, apiId: string, stage: string, value: string | undefined, now = new Date()): { response: LocalResponse } | { keyId: string } {
    if (!value) return { response: forbidden('rest') };
    const key = resources.keys.find((record) => record.attributes.Value === value && record.properties.Enabled !== false && record.properties.Enabled !== 'false');
    if (!key) return { response: forbidden('rest') };
    const planIds = new Set(resources.planKeys.filter((record) => record.properties.KeyId === key.physicalId).map((record) => String(record.properties.UsagePlanId)));
    const plan = resources.plans.find(
      (record) =>
        planIds.has(record.physicalId) &&
        ((record.properties.ApiStages as { ApiId?: unknown; Stage?: unknown }[] | undefined) ?? []).some((entry) => entry.ApiId === apiId && entry.Stage === stage),
    );
    if (!plan) return { response: forbidden('rest') };
    const limits = plan.properties as UsagePlanLimits;
    const id = `${plan.physicalId}/${key.physicalId}`;
    if (limits.Throttle && !this.take(id, Number(limits.Throttle.RateLimit ?? 0), Number(limits.Throttle.BurstLimit ?? limits.Throttle.RateLimit ?? 0), now)) {
      return { response: tooManyRequests() };
    }
    if (limits.Quota?.Limit !== undefined) {
      const window = quotaWindow(String(limits.Quota.Period ?? 'DAY').toUpperCase(), Number(limits.Quota.Offset ?? 0), now);
      const quota = this.quotas.get(id);
      const used = quota?.window === window ? quota.used : 0;
      if (used >= Number(limits.Quota.Limit)) return { response: limitExceeded() };
      this.quotas.set(id, { window, used: used + 1 });
    }
    return { keyId: key.physicalId };
  }

  private take(id: string, rate: number, burst: number, now: Date): boolean {
    const capacity = Math.max(burst, 1);
    const bucket = this.buckets.get(id) ?? { tokens: capacity, at: now.getTime() };
    const tokens = Math.min(capacity, bucket.tokens + ((now.getTime() - bucket.at) / 1000) * rate);
    if (tokens < 1) {
      this.buckets.set(id, { tokens, at: now.getTime() });
      return false;
    }
    this.buckets.set(id, { tokens: tokens - 1, at: now.getTime() });
    return true;
  }
}
