import type { TriggerServices } from '../service-interfaces';
import { eventBridgeEvent } from './event';
import { cronMatches, rateInterval } from './schedule';
import { atPath, parsedOrText, renderInputTemplate, type InputTransformer } from './input-transformer';

interface Target {
  Arn?: string;
  Input?: string;
  InputPath?: string;
  InputTransformer?: InputTransformer;
  Id?: string;
}

/**
 * Fires the enabled schedule rules of the deployed stacks while the server
 * runs. Re-reads the rules after every stack operation.
 */
export class Scheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private cronTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly cloud: TriggerServices) {}

  private rules() {
    return this.cloud
      .resources('AWS::Events::Rule')
      .map(({ stack, record }) => ({ stack, record, expression: String(record.properties.ScheduleExpression ?? ''), key: `${record.physicalId}|${JSON.stringify(record.properties)}` }))
      .filter((rule) => rule.expression && (rule.record.properties.State ?? 'ENABLED') === 'ENABLED');
  }

  private fire(ruleArn: string, region: string, targets: Target[]): void {
    for (const target of targets) {
      if (!target.Arn?.includes(':lambda:')) continue;
      const event = eventBridgeEvent({ detailType: 'Scheduled Event', source: 'aws.events', account: this.cloud.accountId, region, resources: [ruleArn], detail: {} });
      const payload = target.Input
        ? (JSON.parse(target.Input) as unknown)
        : target.InputTransformer
          ? parsedOrText(renderInputTemplate(target.InputTransformer, event, { name: ruleArn.split('/').pop()!, arn: ruleArn }))
          : target.InputPath
            ? atPath(event, target.InputPath)
            : event;
      this.cloud.functions.invokeAsync(target.Arn, payload);
    }
  }

  sync(): void {
    if (this.stopped) return;
    const rules = this.rules();
    const wanted = new Set(rules.map((rule) => rule.key));
    for (const [key, timer] of this.timers) {
      if (!wanted.has(key)) {
        clearInterval(timer);
        this.timers.delete(key);
      }
    }
    for (const rule of rules) {
      const interval = rateInterval(rule.expression);
      if (interval === undefined || this.timers.has(rule.key)) continue;
      const timer = setInterval(() => this.fire(String(rule.record.attributes.Arn), rule.stack.region, (rule.record.properties.Targets as Target[]) ?? []), interval);
      timer.unref();
      this.timers.set(rule.key, timer);
    }
    if (!this.cronTimer && rules.some((rule) => rule.expression.startsWith('cron('))) this.scheduleCronTick();
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

  /** Fires the cron rules due in the minute of `now`; returns how many cron rules there are. */
  fireCronRules(now: Date): number {
    const cronRules = this.rules().filter((rule) => rule.expression.startsWith('cron('));
    for (const rule of cronRules) {
      if (cronMatches(rule.expression, now)) this.fire(String(rule.record.attributes.Arn), rule.stack.region, (rule.record.properties.Targets as Target[]) ?? []);
    }
    return cronRules.length;
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearInterval(timer);
    this.timers.clear();
    if (this.cronTimer) clearTimeout(this.cronTimer);
  }
}
