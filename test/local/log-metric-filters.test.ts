import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  CreateLogStreamCommand,
  PutLogEventsCommand,
  DeleteLogGroupCommand,
  DeleteMetricFilterCommand,
  DescribeLogGroupsCommand,
  DescribeMetricFiltersCommand,
  PutMetricFilterCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import { CloudWatchClient, GetMetricStatisticsCommand } from '@aws-sdk/client-cloudwatch';
import { failure, settle, startTestCloud, type TestCloud } from './helpers';

const filters = suite<{ t: TestCloud; logs: CloudWatchLogsClient }>('CloudWatch Logs metric filters');
filters.before(async (context) => {
  context.t = await startTestCloud();
  context.logs = new CloudWatchLogsClient({ ...context.t.config, maxAttempts: 1 });
  await context.logs.send(new CreateLogGroupCommand({ logGroupName: '/app/orders' }));
  await context.logs.send(new CreateLogGroupCommand({ logGroupName: '/app/billing' }));
});
filters.after(async (context) => {
  context.logs.destroy();
  await context.t.stop();
});

const errors = { metricName: 'Errors', metricNamespace: 'App', metricValue: '1', defaultValue: 0 };

filters('PutMetricFilter keeps a filter that DescribeMetricFilters returns, by group and prefix or by metric, across a restart', async (context) => {
  const { logs } = context;
  await logs.send(new PutMetricFilterCommand({ logGroupName: '/app/orders', filterName: 'errors', filterPattern: 'ERROR', metricTransformations: [errors] }));
  await logs.send(new PutMetricFilterCommand({ logGroupName: '/app/orders', filterName: 'latency', filterPattern: '{ $.latency > 0 }', metricTransformations: [{ metricName: 'Latency', metricNamespace: 'App', metricValue: '$.latency', unit: 'Milliseconds', dimensions: { Route: '$.route' } }] }));
  await logs.send(new PutMetricFilterCommand({ logGroupName: '/app/billing', filterName: 'errors', filterPattern: 'ERROR', metricTransformations: [errors] }));
  // Putting a filter of the same name replaces it.
  await logs.send(new PutMetricFilterCommand({ logGroupName: '/app/orders', filterName: 'errors', filterPattern: '?ERROR ?FATAL', metricTransformations: [errors] }));

  await context.t.stop({ keepData: true });
  logs.destroy();
  context.t = await startTestCloud(context.t.dataDir);
  context.logs = new CloudWatchLogsClient({ ...context.t.config, maxAttempts: 1 });

  const ofOrders = await context.logs.send(new DescribeMetricFiltersCommand({ logGroupName: '/app/orders' }));
  assert.equal(
    ofOrders.metricFilters!.map(({ creationTime, ...filter }) => (assert.type(creationTime, 'number'), filter)),
    [
      { filterName: 'errors', filterPattern: '?ERROR ?FATAL', logGroupName: '/app/orders', metricTransformations: [{ metricName: 'Errors', metricNamespace: 'App', metricValue: '1', defaultValue: 0 }] },
      { filterName: 'latency', filterPattern: '{ $.latency > 0 }', logGroupName: '/app/orders', metricTransformations: [{ metricName: 'Latency', metricNamespace: 'App', metricValue: '$.latency', unit: 'Milliseconds', dimensions: { Route: '$.route' } }] },
    ],
  );
  const byPrefix = await context.logs.send(new DescribeMetricFiltersCommand({ logGroupName: '/app/orders', filterNamePrefix: 'lat' }));
  assert.equal(byPrefix.metricFilters!.map((filter) => filter.filterName), ['latency']);
  const byMetric = await context.logs.send(new DescribeMetricFiltersCommand({ metricName: 'Errors', metricNamespace: 'App' }));
  assert.equal(byMetric.metricFilters!.map((filter) => [filter.logGroupName, filter.filterName]), [['/app/billing', 'errors'], ['/app/orders', 'errors']]);
  const groups = await context.logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: '/app/' }));
  assert.equal(groups.logGroups!.map((group) => [group.logGroupName, group.metricFilterCount]), [['/app/billing', 1], ['/app/orders', 2]]);
});

filters('DeleteMetricFilter removes a filter; deleting the log group removes its filters', async ({ logs }) => {
  await logs.send(new CreateLogGroupCommand({ logGroupName: '/app/temp' }));
  await logs.send(new PutMetricFilterCommand({ logGroupName: '/app/temp', filterName: 'a', filterPattern: '', metricTransformations: [errors] }));
  await logs.send(new PutMetricFilterCommand({ logGroupName: '/app/temp', filterName: 'b', filterPattern: '', metricTransformations: [errors] }));
  await logs.send(new DeleteMetricFilterCommand({ logGroupName: '/app/temp', filterName: 'a' }));
  assert.equal((await logs.send(new DescribeMetricFiltersCommand({ logGroupName: '/app/temp' }))).metricFilters!.map((filter) => filter.filterName), ['b']);
  const missing = await failure(logs.send(new DeleteMetricFilterCommand({ logGroupName: '/app/temp', filterName: 'a' })));
  assert.equal([missing?.name, missing?.message], ['ResourceNotFoundException', 'The specified metric filter does not exist.']);
  await logs.send(new DeleteLogGroupCommand({ logGroupName: '/app/temp' }));
  await logs.send(new CreateLogGroupCommand({ logGroupName: '/app/temp' }));
  assert.equal((await logs.send(new DescribeMetricFiltersCommand({ logGroupName: '/app/temp' }))).metricFilters, []);
});

filters('PutMetricFilter and DescribeMetricFilters refuse what AWS refuses', async ({ logs }) => {
  const noGroup = await failure(logs.send(new PutMetricFilterCommand({ logGroupName: '/nowhere', filterName: 'x', filterPattern: '', metricTransformations: [errors] })));
  assert.equal([noGroup?.name, noGroup?.message], ['ResourceNotFoundException', 'The specified log group does not exist.']);
  const pattern = await failure(logs.send(new PutMetricFilterCommand({ logGroupName: '/app/orders', filterName: 'x', filterPattern: '{ $.a = ', metricTransformations: [errors] })));
  assert.is(pattern?.name, 'InvalidParameterException');
  const both = await failure(logs.send(new PutMetricFilterCommand({ logGroupName: '/app/orders', filterName: 'x', filterPattern: '', metricTransformations: [{ ...errors, dimensions: { A: '$.a' } }] })));
  assert.equal([both?.name, both?.message], ['InvalidParameterException', 'Invalid metric transformation: dimensions and default value are mutually exclusive properties.']);
  const prefix = await failure(logs.send(new DescribeMetricFiltersCommand({ filterNamePrefix: 'x' })));
  assert.is(prefix?.name, 'InvalidParameterException');
  const half = await failure(logs.send(new DescribeMetricFiltersCommand({ metricName: 'Errors' })));
  assert.is(half?.name, 'InvalidParameterException');
});

filters("a stack's AWS::Logs::MetricFilter is described beside the API's and cannot be deleted by the API", async ({ t, logs }) => {
  const template = {
    Resources: {
      Group: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: '/stack/app' } },
      Filter: {
        Type: 'AWS::Logs::MetricFilter',
        Properties: { LogGroupName: { Ref: 'Group' }, FilterName: 'stack-errors', FilterPattern: 'ERROR', MetricTransformations: [{ MetricName: 'Errors', MetricNamespace: 'Stack', MetricValue: '1' }] },
      },
    },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'metric-filters', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(t.cfn, 'metric-filters')).StackStatus, 'CREATE_COMPLETE');
  const described = await logs.send(new DescribeMetricFiltersCommand({ logGroupName: '/stack/app' }));
  assert.equal(described.metricFilters!.map(({ filterName, filterPattern, metricTransformations }) => ({ filterName, filterPattern, metricTransformations })), [
    { filterName: 'stack-errors', filterPattern: 'ERROR', metricTransformations: [{ metricName: 'Errors', metricNamespace: 'Stack', metricValue: '1' }] },
  ]);
  const refused = await failure(logs.send(new DeleteMetricFilterCommand({ logGroupName: '/stack/app', filterName: 'stack-errors' })));
  assert.equal([refused?.name, refused?.message], ['InvalidParameterException', 'Metric filter stack-errors belongs to a stack: remove it from the template']);
});

filters('matching events publish the filter\'s metric: a number, or $.field of a JSON event with $.field dimensions; a batch that matches nothing its defaultValue', async ({ t, logs }) => {
  await logs.send(new CreateLogGroupCommand({ logGroupName: '/app/published' }));
  await logs.send(new CreateLogStreamCommand({ logGroupName: '/app/published', logStreamName: 's' }));
  await logs.send(new PutMetricFilterCommand({ logGroupName: '/app/published', filterName: 'errors', filterPattern: 'ERROR', metricTransformations: [{ metricName: 'PublishedErrors', metricNamespace: 'Published', metricValue: '1', defaultValue: 0 }] }));
  await logs.send(new PutMetricFilterCommand({ logGroupName: '/app/published', filterName: 'latency', filterPattern: '{ $.latency > 0 }', metricTransformations: [{ metricName: 'Latency', metricNamespace: 'Published', metricValue: '$.latency', unit: 'Milliseconds', dimensions: { Route: '$.route' } }] }));
  const now = Date.now();
  const put = (messages: string[]) => logs.send(new PutLogEventsCommand({ logGroupName: '/app/published', logStreamName: 's', logEvents: messages.map((message, index) => ({ timestamp: now + index, message })) }));
  await put(['ERROR one', 'fine', 'ERROR two', '{"route":"/orders","latency":120}', '{"route":"/orders","latency":80}', '{"route":"/users","latency":5}']);
  await put(['all good']);
  const cloudwatch = new CloudWatchClient({ ...t.config, maxAttempts: 1 });
  const statistics = async (MetricName: string, Dimensions?: { Name: string; Value: string }[]) =>
    (await cloudwatch.send(new GetMetricStatisticsCommand({ Namespace: 'Published', MetricName, Dimensions, StartTime: new Date(now - 60_000), EndTime: new Date(now + 60_000), Period: 300, Statistics: ['Sum', 'SampleCount', 'Maximum'] }))).Datapoints!.map(({ Sum, SampleCount, Maximum, Unit }) => ({ Sum, SampleCount, Maximum, Unit }));
  // Two matches (1 each) in the first batch, the second batch's default 0.
  assert.equal(await statistics('PublishedErrors'), [{ Sum: 2, SampleCount: 3, Maximum: 1, Unit: 'None' }]);
  assert.equal(await statistics('Latency', [{ Name: 'Route', Value: '/orders' }]), [{ Sum: 200, SampleCount: 2, Maximum: 120, Unit: 'Milliseconds' }]);
  assert.equal(await statistics('Latency', [{ Name: 'Route', Value: '/users' }]), [{ Sum: 5, SampleCount: 1, Maximum: 5, Unit: 'Milliseconds' }]);
  cloudwatch.destroy();
});

filters.run();
