import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudWatchLogsClient, CreateLogGroupCommand, CreateLogStreamCommand, FilterLogEventsCommand, PutLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { startTestCloud, type TestCloud } from './helpers';

interface Context extends TestCloud {
  logs: CloudWatchLogsClient;
}

const patterns = suite<Context>('CloudWatch Logs filter patterns of the local cloud (FilterLogEvents)');
const GROUP = '/aws/lambda/filters';

const MESSAGES = [
  JSON.stringify({ level: 'error', latency: 1200, user: { id: 7, name: 'ana' }, tags: ['db', 'slow'], note: null, ok: false }),
  JSON.stringify({ level: 'info', latency: 40, user: { id: 8, name: 'bob' }, tags: ['http'], ok: true }),
  JSON.stringify({ level: 'warn', latency: 500, user: { name: 'carl' }, tags: [], ip: '10.0.0.12' }),
  'ERROR Timeout after 3000 ms in MainThread',
  'WARN Deadlock detected',
  'INFO request done',
  '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /index.html HTTP/1.0" 404 2326',
  '127.0.0.2 - jane [10/Oct/2000:13:56:01 -0700] "GET /apache_pb.gif HTTP/1.0" 200 512',
  '127.0.0.3 - omar [10/Oct/2000:13:57:12 -0700] "POST /login HTTP/1.0" 500 9000',
];

patterns.before(async (context) => {
  Object.assign(context, await startTestCloud());
  context.logs = new CloudWatchLogsClient({ ...context.config, maxAttempts: 1 });
  await context.logs.send(new CreateLogGroupCommand({ logGroupName: GROUP }));
  await context.logs.send(new CreateLogStreamCommand({ logGroupName: GROUP, logStreamName: 's' }));
  const logEvents = MESSAGES.map((message, index) => ({ timestamp: 1_700_000_000_000 + index, message }));
  await context.logs.send(new PutLogEventsCommand({ logGroupName: GROUP, logStreamName: 's', logEvents }));
});

patterns.after(async (context) => {
  context.logs.destroy();
  await context.stop();
});

/** The indexes in MESSAGES of what FilterLogEvents answers for this pattern. */
async function matching(logs: CloudWatchLogsClient, filterPattern: string): Promise<number[]> {
  const { events } = await logs.send(new FilterLogEventsCommand({ logGroupName: GROUP, filterPattern }));
  return (events ?? []).map((event) => MESSAGES.indexOf(event.message!));
}

patterns('plain terms: all must appear, quoted phrases, -term excludes, ?term alternatives, %regex%', async ({ logs }) => {
  assert.equal(await matching(logs, 'ERROR MainThread'), [3]);
  assert.equal(await matching(logs, '"Deadlock detected"'), [4]);
  assert.equal(await matching(logs, '"detected Deadlock"'), []);
  assert.equal(await matching(logs, 'HTTP/1.0 -GET'), [8]);
  assert.equal(await matching(logs, '?ERROR ?WARN'), [3, 4]);
  assert.equal(await matching(logs, '%Time[a-z]+ after \\d+%'), [3]);
  assert.equal(await matching(logs, ''), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
});

patterns('JSON patterns compare strings (with * wildcards), numbers, nested fields and array items', async ({ logs }) => {
  assert.equal(await matching(logs, '{ $.level = "error" }'), [0]);
  assert.equal(await matching(logs, '{ $.level != "error" }'), [1, 2]);
  assert.equal(await matching(logs, '{ $.level = w* }'), [2]);
  assert.equal(await matching(logs, '{ $.ip = 10.0.* }'), [2]);
  assert.equal(await matching(logs, '{ $.user.name = "bob" }'), [1]);
  assert.equal(await matching(logs, '{ $.latency > 500 }'), [0]);
  assert.equal(await matching(logs, '{ $.latency >= 500 }'), [0, 2]);
  assert.equal(await matching(logs, '{ $.latency < 500 }'), [1]);
  assert.equal(await matching(logs, '{ $.latency <= 40 }'), [1]);
  assert.equal(await matching(logs, '{ $.latency = 1200 }'), [0]);
  assert.equal(await matching(logs, '{ $.user.id = 8 }'), [1]);
  assert.equal(await matching(logs, '{ $.tags[0] = "db" }'), [0]);
  assert.equal(await matching(logs, '{ $.tags[1] = "slow" }'), [0]);
  assert.equal(await matching(logs, '{ $.level = %^(error|warn)$% }'), [0, 2]);
});

patterns('JSON patterns: IS NULL, IS TRUE/FALSE, = * (exists), NOT EXISTS, &&, || and parentheses', async ({ logs }) => {
  assert.equal(await matching(logs, '{ $.note IS NULL }'), [0]);
  assert.equal(await matching(logs, '{ $.ok IS TRUE }'), [1]);
  assert.equal(await matching(logs, '{ $.ok IS FALSE }'), [0]);
  assert.equal(await matching(logs, '{ $.ip = * }'), [2]);
  assert.equal(await matching(logs, '{ $.user.id NOT EXISTS }'), [2]);
  assert.equal(await matching(logs, '{ $.level = "error" && $.latency > 1000 }'), [0]);
  assert.equal(await matching(logs, '{ $.level = "info" || $.latency >= 500 }'), [0, 1, 2]);
  assert.equal(await matching(logs, '{ ($.level = "info" || $.level = "warn") && $.user.id NOT EXISTS }'), [2]);
  assert.equal(await matching(logs, '{ $.level = "info" || ($.level = "warn" && $.latency > 1000) }'), [1]);
});

patterns('space-delimited patterns name fields, skip with ..., and test conditions on them', async ({ logs }) => {
  assert.equal(await matching(logs, '[ip, identity, user, timestamp, request, status_code = 4*, bytes]'), [6]);
  assert.equal(await matching(logs, '[..., status_code = 5*, bytes > 1000]'), [8]);
  assert.equal(await matching(logs, '[ip, identity, user = jane, ...]'), [7]);
  assert.equal(await matching(logs, '[..., status_code != 200 && status_code != 404, bytes]'), [8]);
  assert.equal(await matching(logs, '[ip, identity, user, timestamp, request = "*POST*", ...]'), [8]);
  // Three fields and no ellipsis: only the three-word events match.
  assert.equal(await matching(logs, '[a, b, c]'), [4, 5]);
});

patterns('a malformed pattern is refused with InvalidParameterException, as AWS does', async ({ logs }) => {
  for (const bad of ['{ $.level = "error"', '{ $.level "error" }', '{ $.latency > "x" }', '{ level = "x" }', '[ip, user', '"unclosed', '{ $.a = 1 } trailing', '{ ($.a = 1 }']) {
    try {
      await matching(logs, bad);
      assert.unreachable(`accepted ${bad}`);
    } catch (error) {
      assert.is((error as Error).name, 'InvalidParameterException', bad);
      assert.is((error as Error).message, 'Invalid filter pattern', bad);
    }
  }
});

patterns.run();
