import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudWatchClient, GetMetricDataCommand, GetMetricStatisticsCommand } from '@aws-sdk/client-cloudwatch';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { statistic } from '../../src/local/cloudwatch/service';
import { ANY_LOCAL_CREDENTIALS } from '../../src/local/access/credentials';
import { signedLocalFetch } from '../../src/local/access/sign';
import { LOCAL_CREDENTIALS, startTestService, type TestService } from '../helpers/local-cloud';

/** The local cloud's CloudWatch metrics (AWS/Lambda), fed by the invocations of its runtime, read with the SDK. */
type Context = TestService & { cloudWatch: CloudWatchClient; lambda: LambdaClient; start: Date };
const metrics = suite<Context>('Local CloudWatch metrics of Lambda invocations');

metrics.before(async context => {
  Object.assign(
    context,
    await startTestService({
      'serverless.yml': 'service: meter\nprovider:\n  name: aws\n  runtime: nodejs20.x\nfunctions:\n  work:\n    handler: handler.main\n  idle:\n    handler: handler.main\n',
      'handler.js': 'exports.main = async (event) => { if (event.fail) throw new Error("failed on purpose"); return "ok"; };\n',
    }),
  );
  const client = { endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS };
  context.cloudWatch = new CloudWatchClient(client);
  context.lambda = new LambdaClient(client);
  const deployed = await context.fw('deploy');
  assert.is(deployed.code, 0, deployed.stderr);
  context.start = new Date(Date.now() - 1000);
  for (const fail of [false, false, true]) {
    await context.lambda.send(new InvokeCommand({ FunctionName: 'meter-dev-work', Payload: Buffer.from(JSON.stringify({ fail })) }));
  }
});

metrics.after(async context => {
  await context.stop();
});

metrics('GetMetricData answers sums, averages and percentiles per function, newest period first', async context => {
  const end = new Date(Date.now() + 60_000);
  const query = (id: string, name: string, stat: string, fn = 'meter-dev-work') => ({
    Id: id,
    MetricStat: { Metric: { Namespace: 'AWS/Lambda', MetricName: name, Dimensions: [{ Name: 'FunctionName', Value: fn }] }, Period: 3600, Stat: stat },
  });
  const result = await context.cloudWatch.send(
    new GetMetricDataCommand({
      StartTime: context.start,
      EndTime: end,
      MetricDataQueries: [query('invocations', 'Invocations', 'Sum'), query('errors', 'Errors', 'Sum'), query('throttles', 'Throttles', 'Sum'), query('p99', 'Duration', 'p99'), query('idle', 'Invocations', 'Sum', 'meter-dev-idle')],
    }),
  );
  const byId = Object.fromEntries(result.MetricDataResults!.map(r => [r.Id, r]));
  assert.equal(byId.invocations.Values, [3]);
  assert.equal(byId.invocations.Timestamps, [new Date(context.start.getTime() - (context.start.getTime() % 1000))]);
  assert.is(byId.invocations.StatusCode, 'Complete');
  assert.is(byId.invocations.Label, 'Invocations');
  assert.equal(byId.errors.Values, [1]);
  assert.equal(byId.throttles.Values, [0]);
  assert.is(byId.p99.Values!.length, 1);
  assert.ok(byId.p99.Values![0] >= 0);
  assert.equal(byId.idle.Values, []);
});

metrics('GetMetricStatistics answers datapoints with statistics and extended statistics', async context => {
  const result = await context.cloudWatch.send(
    new GetMetricStatisticsCommand({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: 'meter-dev-work' }],
      StartTime: context.start,
      EndTime: new Date(Date.now() + 60_000),
      Period: 3600,
      Statistics: ['Sum', 'SampleCount', 'Average'],
    }),
  );
  assert.is(result.Label, 'Errors');
  assert.is(result.Datapoints!.length, 1);
  const [point] = result.Datapoints!;
  assert.equal({ Sum: point.Sum, SampleCount: point.SampleCount, Average: point.Average, Unit: point.Unit }, { Sum: 1, SampleCount: 3, Average: 1 / 3, Unit: 'Count' });
});

metrics("GetMetricStatistics in CloudWatch's query protocol (what the AWS SDK v2 sends) is answered in XML, as AWS answers it", async context => {
  const hour = new Date(context.start.getTime() - (context.start.getTime() % 1000));
  const form = new URLSearchParams({
    Action: 'GetMetricStatistics',
    Version: '2010-08-01',
    Namespace: 'AWS/Lambda',
    MetricName: 'Errors',
    'Dimensions.member.1.Name': 'FunctionName',
    'Dimensions.member.1.Value': 'meter-dev-work',
    StartTime: context.start.toISOString(),
    EndTime: new Date(Date.now() + 60_000).toISOString(),
    Period: '3600',
    'Statistics.member.1': 'Sum',
  });
  const response = await signedLocalFetch(`${context.cloud.url}/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body: form.toString() }, ANY_LOCAL_CREDENTIALS);
  assert.is(response.status, 200);
  const xml = await response.text();
  assert.is(
    xml.replace(/<RequestId>[^<]+<\/RequestId>/, '<RequestId/>'),
    '<GetMetricStatisticsResponse xmlns="http://monitoring.amazonaws.com/doc/2010-08-01/"><GetMetricStatisticsResult><Label>Errors</Label>' +
      `<Datapoints><member><Timestamp>${hour.toISOString()}</Timestamp><Unit>Count</Unit><Sum>1</Sum></member></Datapoints>` +
      '</GetMetricStatisticsResult><ResponseMetadata><RequestId/></ResponseMetadata></GetMetricStatisticsResponse>',
  );
});

metrics('a bad period or statistic is refused as CloudWatch refuses it', async context => {
  const error = await context.cloudWatch
    .send(new GetMetricStatisticsCommand({ Namespace: 'AWS/Lambda', MetricName: 'Errors', StartTime: context.start, EndTime: new Date(), Period: 90, Statistics: ['Sum'] }))
    .catch(e => e as Error);
  assert.is((error as Error).name, 'InvalidParameterValueException');
  assert.is((error as Error).message, 'The parameter Period must be 1, 5, 10, 30 or a multiple of 60; got 90.');
  assert.is(statistic([5, 1, 3, 2, 4], 'p50'), 3);
  assert.is(statistic([5, 1, 3, 2, 4], 'p99'), 5);
  assert.throws(() => statistic([1], 'median'), /The value median for parameter Stat is not supported/);
});

metrics.run();
