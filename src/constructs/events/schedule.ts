import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import { ConfigError } from '../../errors';
import type { Json } from '../model';
import { CfnResource, getAtt } from '../resource';
import type { FunctionConstruct } from '../function';
import { EventRolePolicy, functionRoleArn } from './event-role-policy';
import { checkEvent, isEither, isEventObject, isJsonObject } from './event-schema';
import { lambdaPermission } from './lambda-permission';

const isExpression = () =>
  t.cascade(t.isString(), t.matchesRegExp(/^(rate|cron|at)\(.+\)$/s)) as t.StrictValidator<unknown, string>;
const EXPRESSION = 'a schedule expression like "rate(2 hours)" or "cron(0 12 * * ? *)"';

const isScheduleOptions = isEventObject({
  rate: isEither<string | string[]>(`${EXPRESSION}, or a list of them`, [isExpression(), t.isArray(isExpression())]),
  enabled: t.isOptional(t.isBoolean()),
  input: t.isOptional(isEither<string | Record<string, Json>>('a string or an object', [t.isString(), isJsonObject()])),
  inputPath: t.isOptional(t.isString()),
  inputTransformer: t.isOptional(isEventObject({ inputTemplate: t.isString(), inputPathsMap: t.isOptional(isJsonObject()) })),
  name: t.isOptional(t.isString()),
  description: t.isOptional(t.isString()),
  method: t.isOptional(t.isEnum(['eventBus', 'scheduler'] as const)),
  timezone: t.isOptional(t.isString()),
});

type ScheduleOptions = t.InferType<typeof isScheduleOptions>;

/** How many schedules (one per expression) each function has so far: they are numbered from 1 per function. */
const counters = new WeakMap<FunctionConstruct, number>();

/**
 * `schedule` event: one EventBridge rule per expression (`{Fn}EventsRuleSchedule{n}`, with the
 * permission to invoke the function), or with `method: scheduler` one EventBridge Scheduler
 * schedule (`{Fn}SchedulerSchedule{n}`) that invokes it with the function's role.
 */
export class ScheduleEvent extends Construct {
  static readonly type = 'schedule';
  static readonly description = 'A schedule: rate(…), cron(…) or at(…), with EventBridge rules or the EventBridge Scheduler (method: scheduler)';
  static readonly schema = isEither<string | ScheduleOptions>(`${EXPRESSION}, or { rate, … }`, [isExpression(), isScheduleOptions]);

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const parsed = checkEvent(config, path, { schema: isExpression(), expected: `${EXPRESSION}, or { rate, … }` }, isScheduleOptions);
    const options: ScheduleOptions = 'shorthand' in parsed ? { rate: parsed.shorthand } : parsed.options;
    const scheduler = options.method === 'scheduler';
    if (scheduler && options.inputPath !== undefined) {
      throw new ConfigError(`Invalid configuration in '${path}.inputPath': not supported with method "scheduler" (use the default method "eventBus")`);
    }
    if (scheduler && options.inputTransformer !== undefined) {
      throw new ConfigError(`Invalid configuration in '${path}.inputTransformer': not supported with method "scheduler" (use the default method "eventBus")`);
    }
    if (!scheduler && options.timezone !== undefined) {
      throw new ConfigError(`Invalid configuration in '${path}.timezone': only with method "scheduler" (EventBridge rules run in UTC)`);
    }
    if (options.name !== undefined && Array.isArray(options.rate) && options.rate.length > 1) {
      throw new ConfigError(`Invalid configuration in '${path}.name': a name is for one schedule, and rate lists ${options.rate.length} expressions`);
    }
    const input = typeof options.input === 'object' ? JSON.stringify(parsedBody(options.input, `${path}.input.body`)) : options.input;
    const expressions = Array.isArray(options.rate) ? options.rate : [options.rate];

    expressions.forEach((expression, position) => {
      const index = (counters.get(fn) ?? 0) + 1;
      counters.set(fn, index);
      const state = options.enabled === false ? 'DISABLED' : 'ENABLED';
      if (scheduler) {
        if (fn.usesSharedRole) EventRolePolicy.of(fn.service).addSchedulerTarget(fn);
        new CfnResource(this, `Schedule${position}`, {
          logicalId: naming.schedulerSchedule(fn.key, index),
          type: 'AWS::Scheduler::Schedule',
          properties: () => {
            const target: Record<string, Json> = { Arn: fn.targetArn, RoleArn: functionRoleArn(fn) };
            if (input !== undefined) target.Input = input;
            const properties: Record<string, Json> = {
              ScheduleExpression: expression,
              State: state,
              Target: target,
              FlexibleTimeWindow: { Mode: 'OFF' },
            };
            if (options.name !== undefined) properties.Name = options.name;
            if (options.description !== undefined) properties.Description = options.description;
            if (options.timezone !== undefined) properties.ScheduleExpressionTimezone = options.timezone;
            return properties;
          },
          dependsOn: () => fn.targetAlias,
        });
        return;
      }
      const rule = naming.scheduleRule(fn.key, index);
      new CfnResource(this, `Rule${position}`, {
        logicalId: rule,
        type: 'AWS::Events::Rule',
        properties: () => {
          const target: Record<string, Json> = {};
          if (input !== undefined) target.Input = input;
          if (options.inputPath !== undefined) target.InputPath = options.inputPath;
          if (options.inputTransformer !== undefined) target.InputTransformer = inputTransformer(options.inputTransformer);
          target.Arn = fn.targetArn;
          target.Id = naming.scheduleTargetId(fn.key);
          const properties: Record<string, Json> = { ScheduleExpression: expression, State: state };
          if (options.name !== undefined) properties.Name = options.name;
          if (options.description !== undefined) properties.Description = options.description;
          properties.Targets = [target];
          return properties;
        },
        dependsOn: () => fn.targetAlias,
      });
      lambdaPermission(this, `Permission${position}`, fn, {
        logicalId: naming.schedulePermission(fn.key, index),
        principal: 'events.amazonaws.com',
        sourceArn: () => getAtt(rule, 'Arn'),
      });
    });
  }
}

/** `{ inputTemplate, inputPathsMap }` → the rule target's `InputTransformer`. */
export function inputTransformer(config: { inputTemplate: string; inputPathsMap?: Record<string, Json> }): Json {
  const transformer: Record<string, Json> = { InputTemplate: config.inputTemplate };
  if (config.inputPathsMap !== undefined) transformer.InputPathsMap = config.inputPathsMap;
  return transformer;
}

/** `input.body` given as JSON text is sent as the value it spells, as the reference does. */
function parsedBody(input: Record<string, Json>, path: string): Record<string, Json> {
  if (typeof input.body !== 'string') return input;
  try {
    return { ...input, body: JSON.parse(input.body) as Json };
  } catch {
    throw new ConfigError(`Invalid configuration in '${path}': expected JSON text (it is sent parsed), got ${JSON.stringify(input.body)}`);
  }
}
