import * as naming from '../synth/naming';
import { ConfigError } from '../errors';
import type { Construct } from 'constructs';
import type { ExecutionRole } from './execution-role';
import type { FunctionConstruct } from './function';
import type { Json } from './model';
import { Resource, getAtt, ref } from './resource';

/** The permission a destination needs, from the service in its ARN. */
function destinationAction(arn: string): string | undefined {
  const service = arn.split(':')[2];
  return { lambda: 'lambda:InvokeFunction', sns: 'sns:Publish', sqs: 'sqs:SendMessage', events: 'events:PutEvents' }[service];
}

const TYPE_ACTIONS: Record<string, string> = { function: 'lambda:InvokeFunction', sns: 'sns:Publish', sqs: 'sqs:SendMessage', eventBus: 'events:PutEvents' };

function isTypedDestination(target: unknown): target is { arn: Json; type: string } {
  return typeof target === 'object' && target !== null && 'arn' in target && typeof (target as { type?: unknown }).type === 'string';
}

/**
 * `{Fn}LambdaEvConf`: where asynchronous invocations report (`destinations`)
 * and how often they are retried. A destination named by function key points
 * at that function in this service.
 */
export class EventInvokeConfig extends Resource {
  readonly type = 'AWS::Lambda::EventInvokeConfig';
  private readonly destinations: Record<string, Json> = {};

  constructor(scope: Construct, id: string, private readonly fn: FunctionConstruct, role: ExecutionRole | undefined) {
    super(scope, id);
    const { destinations } = fn.config;
    for (const [key, property] of [['onSuccess', 'OnSuccess'], ['onFailure', 'OnFailure']] as const) {
      const target = destinations?.[key];
      if (target === undefined) continue;
      if (typeof target === 'string' && !target.startsWith('arn:')) {
        // As v3 does (it refuses), rather than a Fn::GetAtt of a resource the template lacks, which CloudFormation rejects.
        if (!Object.hasOwn(fn.service.config.functions ?? {}, target)) {
          throw new ConfigError(
            `Invalid configuration in 'functions.${fn.key}.destinations.${key}': no function named ${JSON.stringify(target)} in this service (a function elsewhere is given by its ARN)`,
          );
        }
        const physical = fn.service.config.functions?.[target]?.name ?? naming.defaultFunctionName(fn.service.name, fn.service.stage, target);
        this.destinations[property] = { Destination: getAtt(naming.lambdaFunction(target), 'Arn') };
        role?.addDestinationStatement({
          Effect: 'Allow',
          Action: 'lambda:InvokeFunction',
          Resource: { 'Fn::Sub': `arn:\${AWS::Partition}:lambda:\${AWS::Region}:\${AWS::AccountId}:function:${physical}` },
        });
        continue;
      }
      // `{ arn, type }`: an ARN the template computes, and the kind of target it is.
      const typed = isTypedDestination(target) ? target : undefined;
      const arn = typed ? typed.arn : target;
      this.destinations[property] = { Destination: arn };
      const action = typed ? TYPE_ACTIONS[typed.type] : typeof arn === 'string' ? destinationAction(arn) : undefined;
      if (action) role?.addDestinationStatement({ Effect: 'Allow', Action: action, Resource: arn });
    }
  }

  get logicalId() {
    return naming.lambdaEventConfig(this.fn.key);
  }

  protected properties() {
    const properties: Record<string, Json> = {
      FunctionName: ref(this.fn.lambda.logicalId),
      DestinationConfig: this.destinations,
      // With provisioned concurrency, v3 configures the alias events invoke.
      Qualifier: this.fn.targetAlias === undefined ? '$LATEST' : 'provisioned',
    };
    if (this.fn.config.maximumEventAge !== undefined) properties.MaximumEventAgeInSeconds = this.fn.config.maximumEventAge;
    if (this.fn.config.maximumRetryAttempts !== undefined) properties.MaximumRetryAttempts = this.fn.config.maximumRetryAttempts;
    return properties;
  }

  protected override attributes() {
    return this.fn.targetAlias === undefined ? {} : { after: { DependsOn: this.fn.targetAlias } };
  }
}
