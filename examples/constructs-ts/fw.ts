import { CfnOutput, CfnResource, Construct, defineConfig, getAtt, ref, withConstructs } from 'fw-deploy';

/**
 * A job queue as one construct: the queue, the dead-letter queue its failing messages move to,
 * and an alarm as soon as one lands there. `new JobQueue(service, 'jobs')` adds JobsQueue,
 * JobsDeadLetterQueue, JobsDeadLetterAlarm and the JobsQueueUrl output to the service's template.
 */
class JobQueue extends Construct {
  readonly queueLogicalId: string;
  readonly deadLetterLogicalId: string;

  constructor(scope: Construct, id: string, props: { maxReceiveCount?: number; alarmAfter?: number } = {}) {
    super(scope, id);
    const name = id.charAt(0).toUpperCase() + id.slice(1);
    this.queueLogicalId = `${name}Queue`;
    this.deadLetterLogicalId = `${name}DeadLetterQueue`;
    const maxReceiveCount = props.maxReceiveCount ?? 3;
    new CfnResource(this, 'DeadLetterQueue', {
      logicalId: this.deadLetterLogicalId,
      type: 'AWS::SQS::Queue',
      properties: () => ({ MessageRetentionPeriod: 1209600 }),
    });
    new CfnResource(this, 'Queue', {
      logicalId: this.queueLogicalId,
      type: 'AWS::SQS::Queue',
      properties: () => ({ RedrivePolicy: { deadLetterTargetArn: getAtt(this.deadLetterLogicalId, 'Arn'), maxReceiveCount } }),
    });
    new CfnResource(this, 'Alarm', {
      logicalId: `${name}DeadLetterAlarm`,
      type: 'AWS::CloudWatch::Alarm',
      properties: () => ({
        AlarmDescription: `A message of the ${id} queue failed ${maxReceiveCount} times`,
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: getAtt(this.deadLetterLogicalId, 'QueueName') }],
        Statistic: 'Maximum',
        Period: 60,
        EvaluationPeriods: 1,
        Threshold: props.alarmAfter ?? 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      }),
    });
    new CfnOutput(this, 'QueueUrl', { key: `${name}QueueUrl`, description: `URL of the ${id} queue`, value: ref(this.queueLogicalId) });
  }

  /** What `${construct:jobs.queueUrl}` resolves to. */
  get queueUrl() {
    return ref(this.queueLogicalId);
  }

  /** What `${construct:jobs.queueArn}` resolves to. */
  get queueArn() {
    return getAtt(this.queueLogicalId, 'Arn');
  }
}

export default withConstructs(
  defineConfig({
    service: 'constructs-ts',
    provider: {
      name: 'aws',
      runtime: 'nodejs20.x',
      region: 'us-east-1',
    },
    package: {
      patterns: ['!README.md', '!tsconfig.json'],
    },
    functions: {
      enqueue: {
        handler: 'src/handler.enqueue',
        // A variable naming the construct's property: { Ref: JobsQueue } in the template.
        environment: { QUEUE_URL: '${construct:jobs.queueUrl}' },
        events: [{ httpApi: 'POST /jobs' }],
      },
      worker: {
        handler: 'src/handler.work',
        // A plain CloudFormation reference to the construct's queue.
        events: [{ sqs: { arn: { 'Fn::GetAtt': ['JobsQueue', 'Arn'] }, batchSize: 5 } }],
      },
    },
    resources: {
      // `resources` reaches the construct's resources by logical id, like any generated one.
      extensions: {
        JobsQueue: { Properties: { VisibilityTimeout: 60 } },
      },
    },
  }),
  (service) => {
    new JobQueue(service, 'jobs', { maxReceiveCount: 5 });
  },
);
