import { tableAttributes, tableInput } from '../dynamodb/table-operations';
import { arn, generatedName, randomSuffix } from './names';
import type { ResourceProvider } from './provider';

/** Types whose only local behaviour is a name, an ARN and the attributes templates read. */

export const iamRoleProvider: ResourceProvider = {
  replaceOn: ['RoleName', 'Path'],
  create(properties, context) {
    const name = typeof properties.RoleName === 'string' ? properties.RoleName : generatedName(context.stackName, context.logicalId, 64);
    const path = typeof properties.Path === 'string' ? properties.Path : '/';
    return { physicalId: name, attributes: { Arn: `arn:aws:iam::${context.accountId}:role${path}${name}`, RoleId: `AROA${randomSuffix(17)}` } };
  },
};

export const iamPolicyProvider: ResourceProvider = {
  create(properties, context) {
    const name = typeof properties.ManagedPolicyName === 'string' ? properties.ManagedPolicyName : generatedName(context.stackName, context.logicalId, 128);
    const policyArn = `arn:aws:iam::${context.accountId}:policy/${name}`;
    return { physicalId: context.type === 'AWS::IAM::ManagedPolicy' ? policyArn : name, attributes: { PolicyArn: policyArn } };
  },
};

export const logGroupProvider: ResourceProvider = {
  replaceOn: ['LogGroupName'],
  create(properties, context) {
    const name = typeof properties.LogGroupName === 'string' ? properties.LogGroupName : generatedName(context.stackName, context.logicalId, 512);
    context.cloud.logs.createGroup(name);
    return { physicalId: name, attributes: { Arn: arn('logs', context.region, context.accountId, `log-group:${name}:*`) } };
  },
  delete(record, context) {
    context.cloud.logs.deleteGroup(record.physicalId);
  },
};

/** A subscription filter (what a `cloudwatchLog` event makes): logs/subscriptions.ts delivers through it; Ref is its name. */
export const logSubscriptionFilterProvider: ResourceProvider = {
  replaceOn: ['LogGroupName', 'FilterName'],
  create(properties, context) {
    return { physicalId: typeof properties.FilterName === 'string' ? properties.FilterName : generatedName(context.stackName, context.logicalId, 512) };
  },
};

export const sqsQueueProvider: ResourceProvider = {
  replaceOn: ['QueueName', 'FifoQueue'],
  create(properties, context) {
    const fifo = properties.FifoQueue === true || properties.FifoQueue === 'true';
    const name = typeof properties.QueueName === 'string' ? properties.QueueName : generatedName(context.stackName, context.logicalId, fifo ? 75 : 80) + (fifo ? '.fifo' : '');
    const url = `https://sqs.${context.region}.amazonaws.com/${context.accountId}/${name}`;
    return { physicalId: url, ref: url, attributes: { Arn: arn('sqs', context.region, context.accountId, name), QueueName: name, QueueUrl: url } };
  },
};

export const dynamoDbTableProvider: ResourceProvider = {
  replaceOn: ['TableName', 'KeySchema'],
  create(properties, context) {
    const name = typeof properties.TableName === 'string' ? properties.TableName : generatedName(context.stackName, context.logicalId, 255);
    const table = context.cloud.dynamodb.create(tableInput(name, properties), context.region, context.accountId);
    return { physicalId: name, attributes: tableAttributes(table) };
  },
  update(properties, previous, context) {
    const table = context.cloud.dynamodb.update(previous.physicalId, tableInput(previous.physicalId, properties));
    return { physicalId: previous.physicalId, attributes: tableAttributes(table) };
  },
  delete(record, context) {
    context.cloud.dynamodb.delete(record.physicalId);
  },
};

export const snsTopicProvider: ResourceProvider = {
  replaceOn: ['TopicName', 'FifoTopic'],
  create(properties, context) {
    const name = typeof properties.TopicName === 'string' ? properties.TopicName : generatedName(context.stackName, context.logicalId, 256);
    const topicArn = arn('sns', context.region, context.accountId, name);
    return { physicalId: topicArn, ref: topicArn, attributes: { TopicArn: topicArn, TopicName: name } };
  },
};

export const snsSubscriptionProvider: ResourceProvider = {
  replaceOn: ['TopicArn', 'Endpoint', 'Protocol'],
  create(properties) {
    const subscriptionArn = `${String(properties.TopicArn)}:${randomSuffix(8).toLowerCase()}-${randomSuffix(4).toLowerCase()}`;
    return { physicalId: subscriptionArn, attributes: { Arn: subscriptionArn } };
  },
};

export const eventsRuleProvider: ResourceProvider = {
  replaceOn: ['Name', 'EventBusName'],
  create(properties, context) {
    const name = typeof properties.Name === 'string' ? properties.Name : generatedName(context.stackName, context.logicalId, 64);
    return { physicalId: name, attributes: { Arn: arn('events', context.region, context.accountId, `rule/${name}`) } };
  },
};

/** EventBridge Scheduler's schedules (the scheduler fires them, eventbridge/scheduler.ts) and their groups. */
export const schedulerScheduleProvider: ResourceProvider = {
  replaceOn: ['Name', 'GroupName'],
  create(properties, context) {
    const name = typeof properties.Name === 'string' ? properties.Name : generatedName(context.stackName, context.logicalId, 64);
    const group = typeof properties.GroupName === 'string' ? properties.GroupName : 'default';
    return { physicalId: name, attributes: { Arn: arn('scheduler', context.region, context.accountId, `schedule/${group}/${name}`) } };
  },
};

export const schedulerScheduleGroupProvider: ResourceProvider = {
  replaceOn: ['Name'],
  create(properties, context) {
    const name = typeof properties.Name === 'string' ? properties.Name : generatedName(context.stackName, context.logicalId, 64);
    return { physicalId: name, attributes: { Arn: arn('scheduler', context.region, context.accountId, `schedule-group/${name}`), CreationDate: new Date().toISOString(), LastModificationDate: new Date().toISOString(), State: 'ACTIVE' } };
  },
};

export const lambdaPermissionProvider: ResourceProvider = {
  replaceOn: ['FunctionName', 'Action', 'Principal', 'SourceArn', 'SourceAccount'],
  create(_properties, context) {
    return { physicalId: `${context.stackName}-${context.logicalId}-${randomSuffix(12)}` };
  },
};

export const lambdaEventInvokeConfigProvider: ResourceProvider = {
  replaceOn: ['FunctionName', 'Qualifier'],
  create(_properties, context) {
    return { physicalId: `${context.stackName}-${context.logicalId}-${randomSuffix(12)}` };
  },
};

/**
 * A parameter a stack declares is a parameter of the local Parameter Store: a function's GetParameter
 * of it reads its value, as on AWS. `Ref` is its name; `Fn::GetAtt` gives `Type` and `Value`.
 */
export const ssmParameterProvider: ResourceProvider = {
  replaceOn: ['Name'],
  create(properties, context) {
    // CloudFormation names an unnamed parameter after the stack and the logical id.
    const name = typeof properties.Name === 'string' ? properties.Name : `CFN-${context.logicalId}-${randomSuffix(12)}`;
    const parameter = context.cloud.ssm.put({ Name: name, Value: parameterValue(properties), Type: parameterType(properties), DataType: dataType(properties) });
    return { physicalId: name, attributes: { Type: parameter.Type, Value: parameter.Value } };
  },
  update(properties, previous, context) {
    const parameter = context.cloud.ssm.put({ Name: previous.physicalId, Value: parameterValue(properties), Type: parameterType(properties), DataType: dataType(properties), Overwrite: true });
    return { physicalId: previous.physicalId, attributes: { Type: parameter.Type, Value: parameter.Value } };
  },
  delete(record, context) {
    if (context.cloud.ssm.find(record.physicalId)) context.cloud.ssm.delete(record.physicalId);
  },
};

const parameterValue = (properties: Record<string, unknown>) => (Array.isArray(properties.Value) ? properties.Value.join(',') : String(properties.Value ?? ''));
const parameterType = (properties: Record<string, unknown>) => (typeof properties.Type === 'string' ? properties.Type : 'String');
const dataType = (properties: Record<string, unknown>) => (typeof properties.DataType === 'string' ? properties.DataType : undefined);

/**
 * An event bus a stack declares, under its declared name: rules on `!Ref Bus` or `!GetAtt Bus.Arn`
 * and PutEvents to that name meet on the same bus.
 */
export const eventBusProvider: ResourceProvider = {
  replaceOn: ['Name'],
  create(properties, context) {
    const name = String(properties.Name);
    const busArn = arn('events', context.region, context.accountId, `event-bus/${name}`);
    return { physicalId: name, ref: name, attributes: { Arn: busArn, Name: name } };
  },
};
