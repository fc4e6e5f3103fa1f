import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import { invalid } from '../../errors';
import type { Json } from '../model';
import { CfnResource, accountId, getAtt, join, partition, ref, region } from '../resource';
import type { Service } from '../service';
import type { FunctionConstruct } from '../function';
import { checkEvent, isArnOrIntrinsic, isEither, isEventObject, isJsonObject } from './event-schema';
import { claimLogicalId } from './logical-id-claims';
import { lambdaPermission } from './lambda-permission';

const isTopicName = () => t.cascade(t.isString(), t.hasMinLength(1)) as t.StrictValidator<unknown, string>;

const isSnsOptions = isEventObject({
  arn: t.isOptional(isArnOrIntrinsic('a topic ARN ("arn:aws:sns:…") or a CloudFormation intrinsic')),
  topicName: t.isOptional(isTopicName()),
  displayName: t.isOptional(t.isString()),
  filterPolicy: t.isOptional(isJsonObject()),
  filterPolicyScope: t.isOptional(t.isEnum(['MessageAttributes', 'MessageBody'] as const)),
  redrivePolicy: t.isOptional(
    isEventObject({
      deadLetterTargetArn: t.isOptional(t.isString()),
      deadLetterTargetRef: t.isOptional(t.isString()),
      deadLetterTargetImport: t.isOptional(isEventObject({ arn: t.isString(), url: t.isString() })),
    }),
  ),
});

type SnsOptions = t.InferType<typeof isSnsOptions>;

/** A topic this stack creates (`SNSTopic{Name}`), shared by every function subscribing to it by name. */
class Topic extends Construct {
  readonly logicalId: string;
  displayName?: string;
  /** Subscriptions written inside the topic (those without a filter or redrive policy). */
  readonly endpoints: Json[] = [];
  /** The first function subscribed: the topic waits for its provisioned-concurrency alias, as in v3. */
  firstSubscriber?: FunctionConstruct;

  static of(service: Service, topicName: string): Topic {
    return service.shared(`SnsTopic:${topicName}`, (scope, id) => new Topic(scope, id, topicName));
  }

  private constructor(scope: Service, id: string, readonly topicName: string) {
    super(scope, id);
    this.logicalId = naming.snsTopic(topicName);
    new CfnResource(this, 'Topic', {
      logicalId: this.logicalId,
      type: 'AWS::SNS::Topic',
      properties: () => {
        const properties: Record<string, Json> = { TopicName: topicName };
        if (this.displayName !== undefined) properties.DisplayName = this.displayName;
        if (this.endpoints.length > 0) properties.Subscription = this.endpoints.map(endpoint => ({ Endpoint: endpoint, Protocol: 'lambda' }));
        return properties;
      },
      dependsOn: () => this.firstSubscriber?.targetAlias,
    });
  }
}

/** Which topics each function already has a permission for (a function may subscribe twice with different filters). */
const permitted = new WeakMap<FunctionConstruct, Set<string>>();

/**
 * `sns` event: subscribes the function to a topic this stack creates (`SNSTopic{Topic}`) or to
 * an existing one by ARN (`{Fn}SnsSubscription{Topic}`), and lets SNS invoke it; a redrive
 * policy also lets the topic send to the dead-letter queue.
 */
export class SnsEvent extends Construct {
  static readonly type = 'sns';
  static readonly description = 'Messages published to an SNS topic (created by the service from its name, or an existing topic ARN)';
  static readonly schema = isEither<string | t.InferType<typeof isSnsOptions>>('a topic name or ARN, or { topicName | arn, … }', [isTopicName(), isSnsOptions]);

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const parsed = checkEvent(config, path, { schema: isTopicName(), expected: 'a topic name or ARN, or { topicName | arn, … }' }, isSnsOptions);
    let options: SnsOptions;
    if ('shorthand' in parsed) options = parsed.shorthand.startsWith('arn:') ? { arn: parsed.shorthand } : { topicName: parsed.shorthand };
    else options = parsed.options;

    const arn = options.arn;
    let topicName: string;
    if (arn !== undefined) {
      if (options.topicName !== undefined) topicName = options.topicName;
      else if (typeof arn === 'string') topicName = arn.split(':').pop() as string;
      else throw invalid(`${path}.topicName`, 'a topic name to go with an intrinsic arn (it names the generated resources)', undefined);
    } else if (options.topicName !== undefined) {
      topicName = options.topicName;
    } else {
      throw invalid(path, 'a topic name or ARN, or { topicName | arn, … }', config);
    }

    const redrive = options.redrivePolicy ? deadLetterQueue(options.redrivePolicy, `${path}.redrivePolicy`) : undefined;
    const extra = (properties: Record<string, Json>) => {
      if (options.filterPolicy !== undefined) properties.FilterPolicy = options.filterPolicy;
      if (options.filterPolicyScope !== undefined) properties.FilterPolicyScope = options.filterPolicyScope;
      if (redrive) properties.RedrivePolicy = { deadLetterTargetArn: redrive.arn };
      return properties;
    };

    let topicArn: Json;
    let sourceArn: Json;
    if (arn !== undefined) {
      topicArn = arn;
      sourceArn = arn;
      const topicRegion = typeof arn === 'string' ? arn.split(':')[3] : undefined;
      const subscription = naming.snsSubscription(fn.key, topicName);
      claimLogicalId(fn.service, subscription, path, 'a function can use each source only once');
      new CfnResource(this, 'Subscription', {
        logicalId: subscription,
        type: 'AWS::SNS::Subscription',
        properties: () => {
          const properties = extra({ TopicArn: arn, Protocol: 'lambda', Endpoint: fn.targetArn });
          if (topicRegion && topicRegion !== fn.service.region) properties.Region = topicRegion;
          return properties;
        },
        dependsOn: () => fn.targetAlias,
      });
    } else {
      const topic = Topic.of(fn.service, topicName);
      topic.firstSubscriber ??= fn;
      if (options.displayName !== undefined) topic.displayName = options.displayName;
      topicArn = ref(topic.logicalId);
      sourceArn = join(['arn:', partition, ':sns:', region, ':', accountId, ':', topicName]);
      if (options.filterPolicy === undefined && redrive === undefined) {
        topic.endpoints.push(fn.targetArn);
      } else {
        const subscription = naming.snsSubscription(fn.key, topicName);
        claimLogicalId(fn.service, subscription, path, 'a function can use each source only once');
        new CfnResource(this, 'Subscription', {
          logicalId: subscription,
          type: 'AWS::SNS::Subscription',
          properties: () => extra({ Endpoint: fn.targetArn, Protocol: 'lambda', TopicArn: topicArn }),
        });
      }
    }

    if (redrive) {
      const policy = naming.snsDlqPolicy(fn.key, topicName);
      new CfnResource(this, 'DeadLetterQueuePolicy', {
        logicalId: policy,
        type: 'AWS::SQS::QueuePolicy',
        properties: () => ({
          PolicyDocument: {
            Version: '2012-10-17',
            Id: policy,
            Statement: [
              {
                Effect: 'Allow',
                Principal: { Service: 'sns.amazonaws.com' },
                Action: 'sqs:SendMessage',
                Resource: redrive.arn,
                // The reference restricts the source only for topics given by ARN; an empty
                // condition (no restriction) for topics it creates, reproduced as is.
                Condition: { ArnEquals: arn !== undefined ? { 'aws:SourceArn': arn } : {} },
              },
            ],
          },
          Queues: [redrive.url],
        }),
      });
    }

    const done = permitted.get(fn) ?? new Set<string>();
    permitted.set(fn, done);
    const permission = naming.snsPermission(fn.key, topicName);
    if (!done.has(permission)) {
      done.add(permission);
      lambdaPermission(this, 'Permission', fn, { logicalId: permission, principal: 'sns.amazonaws.com', sourceArn: () => sourceArn });
    }
  }
}

/** The dead-letter queue's ARN and URL from whichever way `redrivePolicy` names it. */
function deadLetterQueue(policy: NonNullable<SnsOptions['redrivePolicy']>, path: string): { arn: Json; url: Json } {
  if (policy.deadLetterTargetArn !== undefined) {
    const [, , service, queueRegion, account, name] = policy.deadLetterTargetArn.split(':');
    if (service !== 'sqs' || !queueRegion || !account || !name) {
      throw invalid(`${path}.deadLetterTargetArn`, 'an SQS queue ARN ("arn:aws:sqs:<region>:<account>:<name>")', policy.deadLetterTargetArn);
    }
    return {
      arn: policy.deadLetterTargetArn,
      url: join([`https://sqs.${queueRegion}.`, ref('AWS::URLSuffix'), `/${account}/${name}`]),
    };
  }
  if (policy.deadLetterTargetRef !== undefined) {
    return { arn: getAtt(policy.deadLetterTargetRef, 'Arn'), url: ref(policy.deadLetterTargetRef) };
  }
  if (policy.deadLetterTargetImport !== undefined) {
    return { arn: { 'Fn::ImportValue': policy.deadLetterTargetImport.arn }, url: { 'Fn::ImportValue': policy.deadLetterTargetImport.url } };
  }
  throw invalid(path, 'one of deadLetterTargetArn, deadLetterTargetRef or deadLetterTargetImport', policy);
}
