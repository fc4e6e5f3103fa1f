import type { TriggerServices } from '../service-interfaces';
import { atPath, parsedOrText, renderInputTemplate, type InputTransformer } from './input-transformer';

/** A rule's target, as a template or PutTargets gives it. */
export interface RuleTarget {
  Arn?: string;
  Id?: string;
  Input?: string;
  InputPath?: string;
  InputTransformer?: InputTransformer;
}

/**
 * What a rule's target receives for an event: its InputTransformer rendered, its Input, the part of
 * the event its InputPath selects, or the event. `payload` is what a function is invoked with,
 * `text` what a queue or topic gets (a rendered template as rendered, anything else as JSON).
 */
export function targetInput(target: RuleTarget, event: Record<string, unknown>, rule: { name: string; arn: string }): { payload: unknown; text: string } {
  const rendered = target.InputTransformer ? renderInputTemplate(target.InputTransformer, event, rule) : undefined;
  const payload = rendered !== undefined ? parsedOrText(rendered) : target.Input ? (JSON.parse(target.Input) as unknown) : target.InputPath ? atPath(event, target.InputPath) : event;
  return { payload, text: rendered ?? JSON.stringify(payload) };
}

/** Sends to a target: a function is invoked asynchronously, a queue or topic gets the text; another kind of target is logged as not emulated. */
export function deliverToTarget(cloud: TriggerServices, arn: string, input: { payload: unknown; text: string }, what: string): void {
  const service = arn.split(':')[2];
  if (service === 'lambda') cloud.functions.invokeAsync(arn, input.payload);
  else if (service === 'sqs' || service === 'sns') {
    try {
      cloud.sendToDestination(arn, input.text);
    } catch (error) {
      cloud.log(`${what} target ${arn} could not be reached: ${(error as Error).message}`);
    }
  } else cloud.log(`${what} target ${arn}: not emulated (the local cloud delivers to functions, queues and topics)`);
}
