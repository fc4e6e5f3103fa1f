import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { ANY_LOCAL_CREDENTIALS } from '../../src/local/access/credentials';
import { signedLocalFetch } from '../../src/local/access/sign';
import { settle, startTestCloud, type TestCloud } from './helpers';

/**
 * On AWS, EventBridge publishes to an SNS topic or sends to an SQS queue only where the topic's or
 * queue's resource policy allows events.amazonaws.com (or the target has a role), and SNS sends to
 * a subscribed queue only where its policy allows sns.amazonaws.com: without them the deliveries fail
 * (the rule's FailedInvocations). The local cloud delivers anyway, and its deploy report says so.
 */
const report = suite<{ t: TestCloud }>('the deploy report names deliveries AWS would refuse for want of a resource policy');
report.before(async (context) => {
  context.t = await startTestCloud();
});
report.after(async (context) => {
  await context.t.stop();
});

const ALLOW = (service: string, action: string) => ({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: service }, Action: action, Resource: '*' }] });

function template(withPolicies: boolean) {
  return {
    Resources: {
      Bus: { Type: 'AWS::Events::EventBus', Properties: { Name: withPolicies ? 'granted-bus' : 'open-bus' } },
      Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: withPolicies ? 'granted-topic' : 'open-topic' } },
      Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: withPolicies ? 'granted-queue' : 'open-queue' } },
      Rule: {
        Type: 'AWS::Events::Rule',
        Properties: {
          EventBusName: { Ref: 'Bus' },
          EventPattern: { source: ['app'] },
          Targets: [
            { Id: 'ToTopic', Arn: { Ref: 'Topic' } },
            { Id: 'ToQueue', Arn: { 'Fn::GetAtt': ['Queue', 'Arn'] } },
          ],
        },
      },
      Subscription: { Type: 'AWS::SNS::Subscription', Properties: { TopicArn: { Ref: 'Topic' }, Protocol: 'sqs', Endpoint: { 'Fn::GetAtt': ['Queue', 'Arn'] } } },
      ...(withPolicies
        ? {
          TopicPolicy: { Type: 'AWS::SNS::TopicPolicy', Properties: { Topics: [{ Ref: 'Topic' }], PolicyDocument: ALLOW('events.amazonaws.com', 'sns:Publish') } },
          QueuePolicy: {
            Type: 'AWS::SQS::QueuePolicy',
            Properties: {
              Queues: [{ Ref: 'Queue' }],
              PolicyDocument: { Version: '2012-10-17', Statement: [...ALLOW('events.amazonaws.com', 'sqs:SendMessage').Statement, ...ALLOW('sns.amazonaws.com', 'sqs:SendMessage').Statement] },
            },
          },
        }
        : {}),
    },
  };
}

async function notEnforced(t: TestCloud, stack: string): Promise<string[]> {
  const response = await signedLocalFetch(`${t.cloud.url}/_fw/deploy-report?stack=${stack}`, {}, ANY_LOCAL_CREDENTIALS);
  return ((await response.json()) as { notEnforced: string[] }).notEnforced;
}

report('a rule’s topic and queue targets and a queue subscription without policies are listed; with the policies in the stack they are not', async ({ t }) => {
  await t.cfn.send(new CreateStackCommand({ StackName: 'open', TemplateBody: JSON.stringify(template(false)) }));
  assert.is((await settle(t.cfn, 'open')).StackStatus, 'CREATE_COMPLETE');
  const lines = (await notEnforced(t, 'open')).filter((line) => line.includes('delivers to'));
  assert.equal(lines, [
    "Rule: delivers to arn:aws:sns:us-east-1:000000000000:open-topic here; AWS delivers only if the topic's policy allows events.amazonaws.com (no policy in the stack does)",
    "Rule: delivers to arn:aws:sqs:us-east-1:000000000000:open-queue here; AWS delivers only if the queue's policy allows events.amazonaws.com (no policy in the stack does)",
    "Subscription: delivers to arn:aws:sqs:us-east-1:000000000000:open-queue here; AWS delivers only if the queue's policy allows sns.amazonaws.com (no policy in the stack does)",
  ]);

  await t.cfn.send(new CreateStackCommand({ StackName: 'granted', TemplateBody: JSON.stringify(template(true)) }));
  assert.is((await settle(t.cfn, 'granted')).StackStatus, 'CREATE_COMPLETE');
  assert.equal((await notEnforced(t, 'granted')).filter((line) => line.includes('delivers to')), []);
});

report.run();
