import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import type { Json } from '../model';
import { CfnResource, getAtt } from '../resource';
import type { FunctionConstruct } from '../function';
import { isEither, isEventObject, isJsonObject, validateEvent } from './event-schema';
import { lambdaPermission } from './lambda-permission';
import { inputTransformer } from './schedule';

const schema = isEventObject({
  event: isJsonObject(),
  input: t.isOptional(isEither<string | Record<string, Json>>('a string or an object', [t.isString(), isJsonObject()])),
  inputPath: t.isOptional(t.isString()),
  inputTransformer: t.isOptional(isEventObject({ inputTemplate: t.isString(), inputPathsMap: t.isOptional(isJsonObject()) })),
  enabled: t.isOptional(t.isBoolean()),
  name: t.isOptional(t.isString()),
  description: t.isOptional(t.isString()),
});

/** How many cloudwatchEvent rules each function has so far: numbered from 1 per function. */
const counters = new WeakMap<FunctionConstruct, number>();

/**
 * `cloudwatchEvent` event: an EventBridge rule on the default bus matching `event`
 * (`{Fn}EventsRuleCloudWatchEvent{n}`) and the permission for it to invoke the function.
 */
export class CloudWatchEventEvent extends Construct {
  static readonly type = 'cloudwatchEvent';
  static readonly description = 'Events matching an EventBridge (CloudWatch Events) pattern on the default bus';
  static readonly schema = schema;

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const options = validateEvent(schema, config, path);
    const index = (counters.get(fn) ?? 0) + 1;
    counters.set(fn, index);
    const rule = naming.cloudWatchEventRule(fn.key, index);
    new CfnResource(this, 'Rule', {
      logicalId: rule,
      type: 'AWS::Events::Rule',
      properties: () => {
        const target: Record<string, Json> = {};
        if (options.input !== undefined) target.Input = typeof options.input === 'string' ? options.input : JSON.stringify(options.input);
        if (options.inputPath !== undefined) target.InputPath = options.inputPath;
        if (options.inputTransformer !== undefined) target.InputTransformer = inputTransformer(options.inputTransformer);
        target.Arn = fn.targetArn;
        target.Id = naming.cloudWatchEventTargetId(fn.key);
        const properties: Record<string, Json> = { EventPattern: options.event };
        properties.State = options.enabled === false ? 'DISABLED' : 'ENABLED';
        if (options.description !== undefined) properties.Description = options.description;
        if (options.name !== undefined) properties.Name = options.name;
        properties.Targets = [target];
        return properties;
      },
      dependsOn: () => fn.targetAlias,
    });
    lambdaPermission(this, 'Permission', fn, {
      logicalId: naming.cloudWatchEventPermission(fn.key, index),
      principal: 'events.amazonaws.com',
      sourceArn: () => getAtt(rule, 'Arn'),
    });
  }
}
