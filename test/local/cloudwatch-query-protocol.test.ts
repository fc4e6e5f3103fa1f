import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudWatchClient, DeleteAlarmsCommand, DescribeAlarmsCommand, GetMetricDataCommand, GetMetricStatisticsCommand, ListMetricsCommand, PutMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { LOCAL_CREDENTIALS, startTestCloud, type TestCloud } from '../helpers/local-cloud';

const REPO = join(__dirname, '..', '..', '..');
/** aws-sdk v2 as Lambda's nodejs16.x runtime provided it, installed from the npm registry outside the repo (scripts/public-apps.js). */
const { runtimeSdkV2 } = require(join(REPO, 'scripts', 'public-apps.js')) as { runtimeSdkV2(): string };

interface V2CloudWatch {
  putMetricData(input: unknown): { promise(): Promise<Record<string, unknown>> };
  listMetrics(input: unknown): { promise(): Promise<Record<string, unknown>> };
  getMetricStatistics(input: unknown): { promise(): Promise<Record<string, unknown>> };
  getMetricData(input: unknown): { promise(): Promise<Record<string, unknown>> };
  describeAnomalyDetectors(input: unknown): { promise(): Promise<Record<string, unknown>> };
  putMetricAlarm(input: unknown): { promise(): Promise<Record<string, unknown>> };
  describeAlarms(input: unknown): { promise(): Promise<Record<string, unknown>> };
}

/**
 * CloudWatch in its query protocol (form-encoded `Action=…&MetricData.member.1.…`, XML answers), what
 * the AWS SDK for JavaScript v2 sends, against the same operations SDK v3 reaches in JSON: each call
 * made from both SDKs, the whole answers compared.
 */
type Context = { t: TestCloud; v2: V2CloudWatch; v3: CloudWatchClient; start: Date };
const query = suite<Context>("CloudWatch's query protocol (aws-sdk v2) answers as its JSON protocol (SDK v3)");

query.before(async (context) => {
  context.t = await startTestCloud();
  const AWS = require(join(runtimeSdkV2(), 'aws-sdk')) as { CloudWatch: new (options: unknown) => V2CloudWatch };
  context.v2 = new AWS.CloudWatch({ endpoint: context.t.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxRetries: 0 });
  context.v3 = new CloudWatchClient({ endpoint: context.t.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  context.start = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
});

query.after(async (context) => {
  await context.t.stop();
});

/**
 * An answer without its per-request metadata (v2's ResponseMetadata, v3's $metadata). aws-sdk v2 reads
 * a list the XML leaves out as empty (ListMetrics' OwningAccounts, each result's Messages), which the
 * expected v2 answers say.
 */
function answer(result: object): Record<string, unknown> {
  const { ResponseMetadata, $metadata, ...rest } = result as Record<string, unknown>;
  return rest;
}

query('PutMetricData from aws-sdk v2 keeps values, value lists with counts and statistic sets, with their dimensions and units', async (context) => {
  const at = new Date(context.start.getTime() + 1000);
  const put = await context.v2
    .putMetricData({
      Namespace: 'Shop',
      MetricData: [
        { MetricName: 'Orders', Dimensions: [{ Name: 'Stage', Value: 'dev' }, { Name: 'Region', Value: 'eu' }], Value: 3, Unit: 'Count', Timestamp: at },
        { MetricName: 'Orders', Dimensions: [{ Name: 'Stage', Value: 'dev' }, { Name: 'Region', Value: 'eu' }], Values: [1, 5], Counts: [2, 1], Unit: 'Count', Timestamp: at },
        { MetricName: 'Latency', StatisticValues: { SampleCount: 4, Sum: 100, Minimum: 10, Maximum: 40 }, Unit: 'Milliseconds', Timestamp: at, StorageResolution: 60 },
      ],
    })
    .promise();
  assert.equal(answer(put), {});
  // SDK v3 adds to the same metric through the JSON protocol.
  await context.v3.send(new PutMetricDataCommand({ Namespace: 'Shop', MetricData: [{ MetricName: 'Orders', Dimensions: [{ Name: 'Region', Value: 'eu' }, { Name: 'Stage', Value: 'dev' }], Value: 7, Unit: 'Count', Timestamp: at }] }));
});

query('ListMetrics answers the same metrics, dimensions sorted, to both SDKs', async (context) => {
  const expected = {
    Metrics: [
      { Namespace: 'Shop', MetricName: 'Orders', Dimensions: [{ Name: 'Region', Value: 'eu' }, { Name: 'Stage', Value: 'dev' }] },
      { Namespace: 'Shop', MetricName: 'Latency', Dimensions: [] },
    ],
  };
  assert.equal(answer(await context.v2.listMetrics({ Namespace: 'Shop' }).promise()), { ...expected, OwningAccounts: [] });
  assert.equal(answer(await context.v3.send(new ListMetricsCommand({ Namespace: 'Shop' }))), expected);
  const filtered = { Metrics: [expected.Metrics[0]] };
  assert.equal(answer(await context.v2.listMetrics({ Namespace: 'Shop', Dimensions: [{ Name: 'Stage', Value: 'dev' }] }).promise()), { ...filtered, OwningAccounts: [] });
  assert.equal(answer(await context.v3.send(new ListMetricsCommand({ Namespace: 'Shop', Dimensions: [{ Name: 'Stage', Value: 'dev' }] }))), filtered);
});

query('GetMetricStatistics answers statistics and extended statistics (a map in XML) alike to both SDKs', async (context) => {
  const input = {
    Namespace: 'Shop',
    MetricName: 'Orders',
    Dimensions: [{ Name: 'Stage', Value: 'dev' }, { Name: 'Region', Value: 'eu' }],
    StartTime: context.start,
    EndTime: new Date(context.start.getTime() + 120_000),
    Period: 60,
    Statistics: ['Sum', 'SampleCount', 'Maximum'] as ('Sum' | 'SampleCount' | 'Maximum')[],
    ExtendedStatistics: ['p50'],
  };
  // The samples: 3, 1, 1, 5 (Values with Counts) and 7.
  const expected = { Label: 'Orders', Datapoints: [{ Timestamp: context.start, Unit: 'Count', Sum: 17, SampleCount: 5, Maximum: 7, ExtendedStatistics: { p50: 3 } }] };
  assert.equal(answer(await context.v2.getMetricStatistics(input).promise()), expected);
  assert.equal(answer(await context.v3.send(new GetMetricStatisticsCommand(input))), expected);
});

query('GetMetricData answers nested MetricStat queries alike to both SDKs; ReturnData false leaves a query out', async (context) => {
  const input = {
    StartTime: context.start,
    EndTime: new Date(context.start.getTime() + 120_000),
    MetricDataQueries: [
      { Id: 'latency', MetricStat: { Metric: { Namespace: 'Shop', MetricName: 'Latency' }, Period: 60, Stat: 'Average' } },
      { Id: 'orders', Label: 'All orders', MetricStat: { Metric: { Namespace: 'Shop', MetricName: 'Orders', Dimensions: [{ Name: 'Stage', Value: 'dev' }, { Name: 'Region', Value: 'eu' }] }, Period: 60, Stat: 'Sum' } },
      { Id: 'hidden', ReturnData: false, MetricStat: { Metric: { Namespace: 'Shop', MetricName: 'Orders' }, Period: 60, Stat: 'Sum' } },
    ],
  };
  const expected = {
    MetricDataResults: [
      { Id: 'latency', Label: 'Latency', Timestamps: [context.start], Values: [25], StatusCode: 'Complete' },
      { Id: 'orders', Label: 'All orders', Timestamps: [context.start], Values: [17], StatusCode: 'Complete' },
    ],
    Messages: [],
  };
  assert.equal(answer(await context.v2.getMetricData(input).promise()), { ...expected, MetricDataResults: expected.MetricDataResults.map((result) => ({ ...result, Messages: [] })) });
  assert.equal(answer(await context.v3.send(new GetMetricDataCommand(input))), expected);
});

query("CloudWatch's query errors reach aws-sdk v2 with their codes; an operation not emulated says so", async (context) => {
  const failure = (promise: Promise<unknown>) => promise.then(() => assert.unreachable('no error'), (error: { code?: string; name?: string; message: string; statusCode?: number }) => ({ code: error.code ?? error.name, message: error.message }));
  assert.equal(await failure(context.v2.putMetricData({ Namespace: 'AWS/Lambda', MetricData: [{ MetricName: 'x', Value: 1 }] }).promise()), {
    code: 'InvalidParameterValue',
    message: 'The value AWS/ for parameter Namespace is invalid.',
  });
  assert.equal(await failure(context.v2.getMetricStatistics({ Namespace: 'Shop', MetricName: 'Orders', StartTime: context.start, EndTime: new Date(), Period: 90, Statistics: ['Sum'] }).promise()), {
    code: 'InvalidParameterValue',
    message: 'The parameter Period must be 1, 5, 10, 30 or a multiple of 60; got 90.',
  });
  assert.equal(await failure(context.v2.describeAnomalyDetectors({}).promise()), {
    code: 'InvalidAction',
    message: 'not emulated: CloudWatch DescribeAnomalyDetectors (the local cloud serves DeleteAlarms, DeleteDashboards, DescribeAlarms, DescribeAlarmsForMetric, GetDashboard, GetMetricData, GetMetricStatistics, ListDashboards, ListMetrics, PutDashboard, PutMetricAlarm, PutMetricData, SetAlarmState)',
  });
});

const ALARM_SETTINGS = {
  AlarmDescription: 'Orders fail',
  ActionsEnabled: false,
  AlarmActions: ['arn:aws:sns:us-east-1:000000000000:ops'],
  MetricName: 'Orders',
  Namespace: 'Shop',
  Statistic: 'Sum',
  Dimensions: [{ Name: 'Stage', Value: 'dev' }],
  Period: 60,
  EvaluationPeriods: 2,
  DatapointsToAlarm: 1,
  Threshold: 1.5,
  ComparisonOperator: 'GreaterThanOrEqualToThreshold',
  TreatMissingData: 'notBreaching',
};

query('PutMetricAlarm from aws-sdk v2 is described alike to both SDKs; DeleteAlarms removes it', async (context) => {
  const before = Date.now();
  const put = await context.v2
    .putMetricAlarm({ AlarmName: 'orders-failing', ...ALARM_SETTINGS })
    .promise();
  assert.equal(answer(put), {});
  const v3 = answer(await context.v3.send(new DescribeAlarmsCommand({ AlarmNamePrefix: 'orders-' }))) as { MetricAlarms: Record<string, unknown>[] };
  const at = v3.MetricAlarms[0].AlarmConfigurationUpdatedTimestamp as Date;
  assert.ok(at.getTime() >= Math.floor(before / 1000) * 1000 && at.getTime() <= Date.now());
  // The settings as given, with the alarm's name, ARN, times, state and the action lists it was given none of.
  const alarm = {
    AlarmName: 'orders-failing',
    AlarmArn: 'arn:aws:cloudwatch:us-east-1:000000000000:alarm:orders-failing',
    ...ALARM_SETTINGS,
    AlarmConfigurationUpdatedTimestamp: at,
    OKActions: [],
    InsufficientDataActions: [],
    StateValue: 'INSUFFICIENT_DATA',
    StateReason: 'Unchecked: Initial alarm creation',
    StateUpdatedTimestamp: at,
    StateTransitionedTimestamp: at,
  };
  assert.equal(v3, { MetricAlarms: [alarm], CompositeAlarms: [] });
  assert.equal(answer(await context.v2.describeAlarms({ AlarmNames: ['orders-failing'] }).promise()), { MetricAlarms: [{ ...alarm, Metrics: [] }], CompositeAlarms: [] });
  await context.v3.send(new DeleteAlarmsCommand({ AlarmNames: ['orders-failing', 'never-made'] }));
  assert.equal(answer(await context.v3.send(new DescribeAlarmsCommand({}))), { MetricAlarms: [], CompositeAlarms: [] });
});

query('DescribeAlarms lists the alarms a stack declares, by their AlarmName', async (context) => {
  const template = {
    Resources: {
      Errors: { Type: 'AWS::CloudWatch::Alarm', Properties: { AlarmName: 'stack-errors', MetricName: 'Errors', Namespace: 'AWS/Lambda', Statistic: 'Sum', Period: 60, EvaluationPeriods: 1, Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' } },
    },
  };
  await context.t.cfn.send(new CreateStackCommand({ StackName: 'alarms', TemplateBody: JSON.stringify(template) }));
  for (let i = 0; i < 100 && (await context.t.cfn.send(new DescribeStacksCommand({ StackName: 'alarms' }))).Stacks![0].StackStatus !== 'CREATE_COMPLETE'; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  const { MetricAlarms } = await context.v3.send(new DescribeAlarmsCommand({ AlarmNames: ['stack-errors'] }));
  assert.equal(MetricAlarms!.map((alarm) => [alarm.AlarmName, alarm.AlarmArn, alarm.MetricName, alarm.Period, alarm.Threshold, alarm.StateValue]), [
    ['stack-errors', 'arn:aws:cloudwatch:us-east-1:000000000000:alarm:stack-errors', 'Errors', 60, 1, 'INSUFFICIENT_DATA'],
  ]);
});

query.run();
