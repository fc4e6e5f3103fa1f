import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  CloudWatchClient,
  DeleteDashboardsCommand,
  DescribeAlarmsCommand,
  DescribeAlarmsForMetricCommand,
  GetDashboardCommand,
  ListDashboardsCommand,
  PutDashboardCommand,
  PutMetricAlarmCommand,
  SetAlarmStateCommand,
} from '@aws-sdk/client-cloudwatch';
import { credentials as LOCAL_CREDENTIALS, failure, startTestCloud, type TestCloud } from './helpers';

const REPO = join(__dirname, '..', '..', '..');
/** aws-sdk v2 as Lambda's nodejs16.x runtime provided it, installed from the npm registry outside the repo (scripts/public-apps.js). */
const { runtimeSdkV2 } = require(join(REPO, 'scripts', 'public-apps.js')) as { runtimeSdkV2(): string };

type V2Call = (input: unknown) => { promise(): Promise<Record<string, unknown>> };
interface V2CloudWatch {
  setAlarmState: V2Call;
  describeAlarmsForMetric: V2Call;
  putDashboard: V2Call;
  getDashboard: V2Call;
  listDashboards: V2Call;
  deleteDashboards: V2Call;
}

type Context = { t: TestCloud; v2: V2CloudWatch; v3: CloudWatchClient };
const alarms = suite<Context>('CloudWatch SetAlarmState, DescribeAlarmsForMetric and dashboards, in both protocols');

alarms.before(async (context) => {
  context.t = await startTestCloud();
  const AWS = require(join(runtimeSdkV2(), 'aws-sdk')) as { CloudWatch: new (options: unknown) => V2CloudWatch };
  context.v2 = new AWS.CloudWatch({ endpoint: context.t.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxRetries: 0 });
  context.v3 = new CloudWatchClient({ endpoint: context.t.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  const alarm = { EvaluationPeriods: 1, Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' as const, Period: 60, Statistic: 'Sum' as const, Namespace: 'AWS/Lambda' };
  await context.v3.send(new PutMetricAlarmCommand({ ...alarm, AlarmName: 'errors-hello', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: 'hello' }] }));
  await context.v3.send(new PutMetricAlarmCommand({ ...alarm, AlarmName: 'errors-other', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: 'other' }] }));
  await context.v3.send(new PutMetricAlarmCommand({ ...alarm, AlarmName: 'throttles-hello', MetricName: 'Throttles', Dimensions: [{ Name: 'FunctionName', Value: 'hello' }] }));
});

alarms.after(async (context) => {
  context.v3.destroy();
  await context.t.stop();
});

alarms('SetAlarmState sets the state DescribeAlarms reports and filters by, kept across a restart', async (context) => {
  await context.v3.send(new SetAlarmStateCommand({ AlarmName: 'errors-hello', StateValue: 'ALARM', StateReason: 'testing the pager', StateReasonData: '{"source":"test"}' }));
  const described = await context.v3.send(new DescribeAlarmsCommand({ AlarmNames: ['errors-hello'] }));
  const alarm = described.MetricAlarms![0];
  assert.equal([alarm.StateValue, alarm.StateReason, alarm.StateReasonData], ['ALARM', 'testing the pager', '{"source":"test"}']);
  const inAlarm = await context.v3.send(new DescribeAlarmsCommand({ StateValue: 'ALARM' }));
  assert.equal(inAlarm.MetricAlarms!.map((a) => a.AlarmName), ['errors-hello']);

  await context.v2.setAlarmState({ AlarmName: 'errors-hello', StateValue: 'OK', StateReason: 'from v2' }).promise();
  await context.t.stop({ keepData: true });
  context.v3.destroy();
  context.t = await startTestCloud(context.t.dataDir);
  const AWS = require(join(runtimeSdkV2(), 'aws-sdk')) as { CloudWatch: new (options: unknown) => V2CloudWatch };
  context.v2 = new AWS.CloudWatch({ endpoint: context.t.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxRetries: 0 });
  context.v3 = new CloudWatchClient({ endpoint: context.t.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  const after = await context.v3.send(new DescribeAlarmsCommand({ AlarmNames: ['errors-hello'] }));
  assert.equal([after.MetricAlarms![0].StateValue, after.MetricAlarms![0].StateReason], ['OK', 'from v2']);
});

alarms('SetAlarmState refuses an unknown alarm, an unknown state and reason data that is not JSON', async ({ v3, v2 }) => {
  const unknown = await failure(v3.send(new SetAlarmStateCommand({ AlarmName: 'nowhere', StateValue: 'ALARM', StateReason: 'x' })));
  assert.equal([unknown?.name, unknown?.message], ['ResourceNotFound', 'Alarm nowhere not found']);
  const fromV2 = await failure(v2.setAlarmState({ AlarmName: 'nowhere', StateValue: 'ALARM', StateReason: 'x' }).promise());
  assert.equal([(fromV2 as { code?: string })?.code, fromV2?.message], ['ResourceNotFound', 'Alarm nowhere not found']);
  const state = await failure(v3.send(new SetAlarmStateCommand({ AlarmName: 'errors-other', StateValue: 'BROKEN' as never, StateReason: 'x' })));
  assert.is(state?.name, 'InvalidParameterValueException');
  const data = await failure(v3.send(new SetAlarmStateCommand({ AlarmName: 'errors-other', StateValue: 'ALARM', StateReason: 'x', StateReasonData: 'not json' })));
  assert.equal([data?.name, data?.message], ['InvalidFormatFault', 'StateReasonData must be valid JSON.']);
});

alarms('DescribeAlarmsForMetric answers the alarms on one metric and its dimensions, the same in both protocols', async ({ v3, v2 }) => {
  const onErrors = await v3.send(new DescribeAlarmsForMetricCommand({ Namespace: 'AWS/Lambda', MetricName: 'Errors' }));
  assert.equal(onErrors.MetricAlarms!.map((a) => a.AlarmName), ['errors-hello', 'errors-other']);
  const onHello = await v3.send(new DescribeAlarmsForMetricCommand({ Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: 'hello' }] }));
  assert.equal(onHello.MetricAlarms!.map((a) => a.AlarmName), ['errors-hello']);
  const fromV2 = await v2.describeAlarmsForMetric({ Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: 'hello' }], Period: 60 }).promise();
  assert.equal((fromV2.MetricAlarms as { AlarmName: string; Threshold: number }[]).map((a) => [a.AlarmName, a.Threshold]), [['errors-hello', 1]]);
  const none = await v3.send(new DescribeAlarmsForMetricCommand({ Namespace: 'AWS/Lambda', MetricName: 'Errors', Statistic: 'Average' }));
  assert.equal(none.MetricAlarms, []);
});

alarms('PutDashboard, GetDashboard, ListDashboards and DeleteDashboards keep dashboards, from either protocol', async ({ v3, v2 }) => {
  const body = JSON.stringify({ widgets: [{ type: 'text', x: 0, y: 0, width: 6, height: 3, properties: { markdown: 'hi' } }] });
  const put = await v3.send(new PutDashboardCommand({ DashboardName: 'app-dev', DashboardBody: body }));
  assert.equal(put.DashboardValidationMessages, []);
  await v2.putDashboard({ DashboardName: 'app-prod', DashboardBody: '{"widgets":[]}' }).promise();
  await v3.send(new PutDashboardCommand({ DashboardName: 'other', DashboardBody: '{}' }));

  const got = await v3.send(new GetDashboardCommand({ DashboardName: 'app-dev' }));
  const account = got.DashboardArn!.split(':')[4];
  assert.equal([got.DashboardName, got.DashboardBody, got.DashboardArn], ['app-dev', body, `arn:aws:cloudwatch::${account}:dashboard/app-dev`]);
  const gotV2 = await v2.getDashboard({ DashboardName: 'app-prod' }).promise();
  assert.is(gotV2.DashboardBody, '{"widgets":[]}');

  const listed = await v3.send(new ListDashboardsCommand({ DashboardNamePrefix: 'app-' }));
  assert.equal(listed.DashboardEntries!.map((entry) => [entry.DashboardName, entry.Size]), [['app-dev', Buffer.byteLength(body)], ['app-prod', 14]]);
  assert.ok(listed.DashboardEntries![0].LastModified instanceof Date);
  const listedV2 = await v2.listDashboards({}).promise();
  assert.equal((listedV2.DashboardEntries as { DashboardName: string }[]).map((entry) => entry.DashboardName), ['app-dev', 'app-prod', 'other']);

  const partly = await failure(v3.send(new DeleteDashboardsCommand({ DashboardNames: ['other', 'missing'] })));
  assert.equal([partly?.name, partly?.message], ['ResourceNotFound', 'Dashboard missing does not exist']);
  await v2.deleteDashboards({ DashboardNames: ['other', 'app-prod'] }).promise();
  assert.equal((await v3.send(new ListDashboardsCommand({}))).DashboardEntries!.map((entry) => entry.DashboardName), ['app-dev']);
  const gone = await failure(v3.send(new GetDashboardCommand({ DashboardName: 'other' })));
  assert.equal([gone?.name, gone?.message], ['ResourceNotFound', 'Dashboard other does not exist']);
  const invalid = await failure(v3.send(new PutDashboardCommand({ DashboardName: 'bad', DashboardBody: 'not json' })));
  assert.equal([invalid?.name, invalid?.message], ['DashboardInvalidInputError', 'The field DashboardBody must be a valid JSON object']);
  const badName = await failure(v3.send(new PutDashboardCommand({ DashboardName: 'has space', DashboardBody: '{}' })));
  assert.is(badName?.name, 'DashboardInvalidInputError');
});

alarms.run();
