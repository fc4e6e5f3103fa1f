import { randomUUID } from 'node:crypto';
import { AwsError } from '../aws/errors';
import type { QueryParams } from '../aws/query';
import type { LocalServices } from '../service-interfaces';

/** SNS (query protocol): Publish delivers to the topic's Lambda subscriptions. */
export function snsAction(cloud: LocalServices, params: QueryParams): Record<string, unknown> {
  if (params.action === 'ListTopics') {
    return { Topics: cloud.resources('AWS::SNS::Topic').map(({ record }) => ({ TopicArn: record.physicalId })) };
  }
  if (params.action !== 'Publish') throw new AwsError('InvalidAction', `The action ${params.action} is not valid for this web service.`);
  const topicArn = params.required('TopicArn');
  const topic = cloud.resources('AWS::SNS::Topic').find(({ record }) => record.physicalId === topicArn);
  if (!topic) throw new AwsError('NotFound', 'Topic does not exist', 404);
  const messageId = randomUUID();
  const attributes: Record<string, { Type: string; Value: string }> = {};
  for (let i = 1; params.string(`MessageAttributes.entry.${i}.Name`) !== undefined; i++) {
    attributes[params.string(`MessageAttributes.entry.${i}.Name`)!] = {
      Type: params.string(`MessageAttributes.entry.${i}.Value.DataType`) ?? 'String',
      Value: params.string(`MessageAttributes.entry.${i}.Value.StringValue`) ?? '',
    };
  }
  // Subscriptions are resources of their own or, as Serverless writes them, a list on the topic.
  const inline = ((topic.record.properties.Subscription as { Endpoint?: unknown; Protocol?: unknown }[] | undefined) ?? []).map((subscription) => ({
    arn: `${topicArn}:inline`,
    protocol: subscription.Protocol,
    endpoint: subscription.Endpoint,
  }));
  const separate = cloud
    .resources('AWS::SNS::Subscription')
    .filter(({ record }) => record.properties.TopicArn === topicArn)
    .map(({ record }) => ({ arn: record.physicalId, protocol: record.properties.Protocol, endpoint: record.properties.Endpoint }));
  for (const subscription of [...inline, ...separate]) {
    if (subscription.protocol !== 'lambda') continue;
    cloud.functions.invokeAsync(String(subscription.endpoint), {
      Records: [
        {
          EventSource: 'aws:sns',
          EventVersion: '1.0',
          EventSubscriptionArn: subscription.arn,
          Sns: {
            Type: 'Notification',
            MessageId: messageId,
            TopicArn: topicArn,
            Subject: params.string('Subject') ?? null,
            Message: params.required('Message'),
            Timestamp: new Date().toISOString(),
            SignatureVersion: '1',
            Signature: 'local',
            SigningCertUrl: '',
            UnsubscribeUrl: '',
            MessageAttributes: attributes,
          },
        },
      ],
    });
  }
  return { MessageId: messageId };
}
