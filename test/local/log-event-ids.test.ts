import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudWatchLogsClient, CreateLogGroupCommand, CreateLogStreamCommand, FilterLogEventsCommand, GetLogEventsCommand, PutLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { startLocalCloud } from '../../src/local';
import { LOCAL_CREDENTIALS, startTestCloud, type TestCloud } from '../helpers/local-cloud';

interface Context extends TestCloud {
  logs: CloudWatchLogsClient;
}

const ids = suite<Context>('CloudWatch Logs event ids of the local cloud');

ids.before(async (context) => {
  Object.assign(context, await startTestCloud());
  context.logs = new CloudWatchLogsClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  await context.logs.send(new CreateLogGroupCommand({ logGroupName: '/aws/lambda/tail' }));
  await context.logs.send(new CreateLogStreamCommand({ logGroupName: '/aws/lambda/tail', logStreamName: 's' }));
  const logEvents = ['START', 'hello', 'END', 'REPORT'].map((message, index) => ({ timestamp: 1_700_000_000_000 + index, message }));
  await context.logs.send(new PutLogEventsCommand({ logGroupName: '/aws/lambda/tail', logStreamName: 's', logEvents }));
});

ids.after(async (context) => {
  context.logs.destroy();
  await context.stop();
});

async function idsByMessage(logs: CloudWatchLogsClient, startTime: number, limit?: number): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  let nextToken: string | undefined;
  do {
    const page = await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/tail', startTime, limit, nextToken }));
    for (const event of page.events ?? []) found[event.message!] = event.eventId!;
    nextToken = page.nextToken;
  } while (nextToken);
  return found;
}

ids('an event keeps its eventId whatever startTime and page size put it elsewhere in the answer (fw logs --tail prints it once)', async ({ logs }) => {
  const all = await idsByMessage(logs, 0);
  assert.equal(Object.keys(all), ['START', 'hello', 'END', 'REPORT']);
  assert.is(new Set(Object.values(all)).size, 4);
  // `fw logs --tail` asks again from the last timestamp it printed: END and REPORT come first now.
  const later = await idsByMessage(logs, 1_700_000_000_002);
  assert.equal(later, { END: all.END, REPORT: all.REPORT });
  assert.equal(await idsByMessage(logs, 0, 1), all);
});

ids('ids survive a restart of the local cloud, and GetLogEvents answers the fields AWS documents', async (context) => {
  const before = await idsByMessage(context.logs, 0);
  await context.cloud.stop();
  const again = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true });
  const logs = new CloudWatchLogsClient({ endpoint: again.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  try {
    assert.equal(await idsByMessage(logs, 0), before);
    const { events } = await logs.send(new GetLogEventsCommand({ logGroupName: '/aws/lambda/tail', logStreamName: 's' }));
    assert.equal(Object.keys(events![0]).sort(), ['ingestionTime', 'message', 'timestamp']);
  } finally {
    logs.destroy();
    // The suite's cloud stopped above (stopping it again in after() does nothing): this one is stopped here.
    await again.stop();
  }
});

ids.run();
