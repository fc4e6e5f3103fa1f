import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import type { Json } from '../model';
import { CfnResource, accountId, join, partition, ref, region } from '../resource';
import type { FunctionConstruct } from '../function';
import { isEventObject, validateEvent } from './event-schema';
import { lambdaPermission } from './lambda-permission';

const iotSchema = isEventObject({
  sql: t.isString(),
  sqlVersion: t.isOptional(t.isEnum(['2015-10-08', '2016-03-23', 'beta'])),
  name: t.isOptional(t.isString()),
  enabled: t.isOptional(t.isBoolean()),
  description: t.isOptional(t.isString()),
});

/**
 * `iot` event: a topic rule (`{Fn}IotTopicRule{n}`, n counting the function's iot events
 * from 1) whose action invokes the function, and the permission that lets the rule do so.
 */
export class IotEvent extends Construct {
  static readonly type = 'iot';
  static readonly description = 'Messages matching an AWS IoT topic rule (sql)';
  static readonly schema = iotSchema;

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const event = validateEvent(iotSchema, config, path);
    const index = fn.node.children.filter(child => child instanceof IotEvent).length;
    const ruleId = naming.iotTopicRule(fn.key, index);

    const payload: Record<string, Json> = {
      RuleDisabled: event.enabled === false,
      Sql: event.sql,
      Actions: [{ Lambda: { FunctionArn: fn.targetArn } }],
    };
    if (event.description !== undefined) payload.Description = event.description;
    if (event.sqlVersion !== undefined) payload.AwsIotSqlVersion = event.sqlVersion;
    const properties: Record<string, Json> = { TopicRulePayload: payload };
    if (event.name !== undefined) properties.RuleName = event.name;
    new CfnResource(this, 'TopicRule', { logicalId: ruleId, type: 'AWS::IoT::TopicRule', properties: () => properties, dependsOn: () => fn.targetAlias });

    lambdaPermission(this, 'Permission', fn, {
      logicalId: naming.iotTopicRulePermission(fn.key, index),
      principal: 'iot.amazonaws.com',
      sourceArn: () => join(['arn:', partition, ':iot:', region, ':', accountId, ':rule/', ref(ruleId)]),
    });
  }
}
