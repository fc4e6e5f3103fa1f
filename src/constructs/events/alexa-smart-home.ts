import { Construct } from 'constructs';
import * as naming from '../../synth/naming';
import type { FunctionConstruct } from '../function';
import { alexaEventSchema, alexaPermission, parseAlexaEvent } from './alexa-skill';

/** `alexaSmartHome` event: `{Fn}LambdaPermissionAlexaSmartHome{n}`, n counting the function's alexaSmartHome events from 1. */
export class AlexaSmartHomeEvent extends Construct {
  static readonly type = 'alexaSmartHome';
  static readonly description = 'Directives from an Alexa Smart Home skill (appId)';
  static readonly schema = alexaEventSchema;

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const event = parseAlexaEvent(config, path);
    const index = fn.node.children.filter(child => child instanceof AlexaSmartHomeEvent).length;
    alexaPermission(this, fn, naming.alexaSmartHomePermission(fn.key, index), 'alexa-connectedhome.amazon.com', event);
  }
}
