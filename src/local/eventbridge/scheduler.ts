import type { TriggerServices } from '../service-interfaces';
import { eventBridgeEvent } from './event';
import { atInstant, cronMatches, rateInterval } from './schedule';
import { deliverToTarget, targetInput, type RuleTarget } from './targets';

/** An EventBridge Scheduler target: one per schedule. */
interface ScheduleTarget {
  Arn?: string;
  Input?: string;
  EventBridgeParameters?: { DetailType?: string; Source?: string };
}

/** A rule or schedule that fires by the clock, and what firing it does. */
interface Timed {
  key: string;
  expression: string;
  /** EventBridge Scheduler's ScheduleExpressionTimezone (rules run in UTC). */
  timeZone?: string;
  /** Scheduler's StartDate and EndDate: outside them a schedule does not fire. */
  start?: number;
  end?: number;
  fire: () => void;
}

const instant = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : undefined);

/**
 * Fires, while the server runs, the enabled schedule rules of the deployed stacks (AWS::Events::Rule
 * with a ScheduleExpression) and EventBridge Scheduler's schedules (AWS::Scheduler::Schedule: `rate`,
 * `cron` in the schedule's time zone, one-time `at`, within StartDate and EndDate). Re-reads them
 * after every stack operation. Targets: functions (invoked asynchronously), queues, topics and event
 * buses.
 */
export class Scheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private cronTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly cloud: TriggerServices) {}

  private timed(): Timed[] {
    const rules = this.cloud
      .resources('AWS::Events::Rule')
      .filter(({ record }) => record.properties.ScheduleExpression && (record.properties.State ?? 'ENABLED') === 'ENABLED')
      .map(({ stack, record }) => ({
        key: `${record.physicalId}|${JSON.stringify(record.properties)}`,
        expression: String(record.properties.ScheduleExpression),
        fire: () => this.fireRule(String(record.attributes.Arn), stack.region, (record.properties.Targets as RuleTarget[]) ?? []),
      }));
    const schedules = this.cloud
      .resources('AWS::Scheduler::Schedule')
      .filter(({ record }) => record.properties.ScheduleExpression && (record.properties.State ?? 'ENABLED') === 'ENABLED')
      .map(({ record }) => ({
        key: `${String(record.attributes.Arn)}|${JSON.stringify(record.properties)}`,
        expression: String(record.properties.ScheduleExpression),
        timeZone: typeof record.properties.ScheduleExpressionTimezone === 'string' ? record.properties.ScheduleExpressionTimezone : undefined,
        start: instant(record.properties.StartDate),
        end: instant(record.properties.EndDate),
        fire: () => this.fireSchedule(String(record.attributes.Arn), (record.properties.Target as ScheduleTarget | undefined) ?? {}),
      }));
    return [...rules, ...schedules];
  }

  private fireRule(ruleArn: string, region: string, targets: RuleTarget[]): void {
    for (const target of targets) {
      if (!target.Arn) continue;
      const event = eventBridgeEvent({ detailType: 'Scheduled Event', source: 'aws.events', account: this.cloud.accountId, region, resources: [ruleArn], detail: {} });
      deliverToTarget(this.cloud, target.Arn, targetInput(target, event, { name: ruleArn.split('/').pop()!, arn: ruleArn }), 'schedule');
    }
  }

  /** A schedule's target gets its Input as given (an empty JSON object without one). */
  private fireSchedule(scheduleArn: string, target: ScheduleTarget): void {
    if (!target.Arn) return;
    const input = target.Input ?? '{}';
    if (target.Arn.split(':')[2] === 'events') {
      const parameters = target.EventBridgeParameters ?? {};
      try {
        this.cloud.sendToDestination(target.Arn, input, undefined, { source: parameters.Source ?? 'aws.scheduler', detailType: parameters.DetailType ?? 'Scheduled Event', resources: [scheduleArn] });
      } catch (error) {
        this.cloud.log(`schedule target ${target.Arn} could not be reached: ${(error as Error).message}`);
      }
      return;
    }
    let payload: unknown = input;
    try {
      payload = JSON.parse(input);
    } catch {
      // Text, for a queue or a topic.
    }
    deliverToTarget(this.cloud, target.Arn, { payload, text: input }, 'schedule');
  }

  sync(): void {
    if (this.stopped) return;
    const timed = this.timed();
    const wanted = new Set(timed.map((entry) => entry.key));
    for (const [key, timer] of this.timers) {
      if (!wanted.has(key)) {
        clearInterval(timer);
        this.timers.delete(key);
      }
    }
    for (const entry of timed) {
      if (this.timers.has(entry.key)) continue;
      const interval = rateInterval(entry.expression);
      const at = atInstant(entry.expression, entry.timeZone);
      if (interval !== undefined) {
        const timer = setInterval(() => this.fireWithin(entry, Date.now()), interval);
        timer.unref();
        this.timers.set(entry.key, timer);
      } else if (at !== undefined && at > Date.now()) {
        // setTimeout waits at most 2^31-1 ms (24.8 days): a later one-time schedule waits in steps.
        const wait = () => {
          const left = at - Date.now();
          const timer = left > MAX_TIMEOUT_MS ? setTimeout(wait, MAX_TIMEOUT_MS) : setTimeout(() => this.fireWithin(entry, at), Math.max(0, left));
          timer.unref();
          this.timers.set(entry.key, timer);
        };
        wait();
      }
    }
    if (!this.cronTimer && timed.some((entry) => entry.expression.startsWith('cron('))) this.scheduleCronTick();
  }

  private fireWithin(entry: Timed, now: number): void {
    if ((entry.start !== undefined && now < entry.start) || (entry.end !== undefined && now > entry.end)) return;
    entry.fire();
  }

  private scheduleCronTick(): void {
    const untilNextMinute = 60_000 - (Date.now() % 60_000);
    this.cronTimer = setTimeout(() => {
      this.cronTimer = undefined;
      const remaining = this.fireCronRules(new Date());
      if (!this.stopped && remaining > 0) this.scheduleCronTick();
    }, untilNextMinute);
    this.cronTimer.unref();
  }

  /** Fires the cron rules and schedules due in the minute of `now`; returns how many there are. */
  fireCronRules(now: Date): number {
    const cron = this.timed().filter((entry) => entry.expression.startsWith('cron('));
    for (const entry of cron) if (cronMatches(entry.expression, now, entry.timeZone)) this.fireWithin(entry, now.getTime());
    return cron.length;
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearInterval(timer);
    this.timers.clear();
    if (this.cronTimer) clearTimeout(this.cronTimer);
  }
}

const MAX_TIMEOUT_MS = 2 ** 31 - 1;
