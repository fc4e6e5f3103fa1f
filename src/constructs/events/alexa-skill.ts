import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import type { Json } from '../model';
import { CfnResource } from '../resource';
import type { FunctionConstruct } from '../function';
import { expecting, isEventObject, validateEvent } from './event-schema';

/** An Alexa skill id (`amzn1.ask.skill.…`), as the reference's schema accepts it. */
export const isAlexaAppId = expecting(
  'an Alexa skill id like "amzn1.ask.skill.…"',
  t.cascade(t.isString(), [t.matchesRegExp(/^[a-zA-Z0-9._-]+$/), t.hasMaxLength(256)]),
);

const alexaObjectSchema = isEventObject({ appId: isAlexaAppId, enabled: t.isOptional(t.isBoolean()) });

/** `"<appId>"` or `{ appId, enabled }`. */
export const alexaEventSchema = t.isOneOf([isAlexaAppId, alexaObjectSchema]);

/**
 * Normalizes the two spellings; the app id is required (the reference's schema requires it too;
 * without one it would let any skill invoke the function).
 */
export function parseAlexaEvent(config: unknown, path: string): { appId: string; enabled: boolean } {
  if (typeof config === 'string') return { appId: validateEvent(isAlexaAppId, config, path), enabled: true };
  const event = validateEvent(alexaObjectSchema, config, path);
  return { appId: event.appId, enabled: event.enabled ?? true };
}

/** The permission that lets one Alexa skill (or smart home skill) invoke the function. */
export function alexaPermission(scope: Construct, fn: FunctionConstruct, logicalId: string, principal: string, event: { appId: string; enabled: boolean }): void {
  new CfnResource(scope, 'Permission', {
    logicalId,
    type: 'AWS::Lambda::Permission',
    properties: (): Record<string, Json> => ({
      FunctionName: fn.targetArn,
      Action: event.enabled ? 'lambda:InvokeFunction' : 'lambda:DisableInvokeFunction',
      Principal: principal,
      EventSourceToken: event.appId,
    }),
    dependsOn: () => fn.targetAlias,
  });
}

/** `alexaSkill` event: `{Fn}LambdaPermissionAlexaSkill{n}`, n counting the function's alexaSkill events from 1. */
export class AlexaSkillEvent extends Construct {
  static readonly type = 'alexaSkill';
  static readonly description = 'Requests from an Alexa skill (appId)';
  static readonly schema = alexaEventSchema;

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const event = parseAlexaEvent(config, path);
    const index = fn.node.children.filter(child => child instanceof AlexaSkillEvent).length;
    alexaPermission(this, fn, naming.alexaSkillPermission(fn.key, index), 'alexa-appkit.amazon.com', event);
  }
}
