import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { InvocationMetrics } from '../../src/local/cloudwatch/invocation-metrics';

const metrics = suite<{ dataDir: string }>('the invocation samples CloudWatch metrics are computed from');

metrics.before.each((context) => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-invocation-metrics-'));
});

metrics.after.each((context) => {
  rmSync(context.dataDir, { recursive: true, force: true });
});

const sample = (timestamp: number) => ({ timestamp, functionName: 'hello', durationMs: 1, error: false, throttled: false });

metrics('the newest 100,000 samples count, however many were recorded, and a restart reads them back', ({ dataDir }) => {
  const recorded = new InvocationMetrics(dataDir);
  for (let timestamp = 0; timestamp < 200_005; timestamp++) recorded.record(sample(timestamp));
  const counted = recorded.between(0, Infinity);
  assert.equal([counted.length, counted[0].timestamp, counted.at(-1)!.timestamp], [100_000, 100_005, 200_004]);
  assert.equal(recorded.between(100_000, 100_010, 'hello').map((found) => found.timestamp), [100_005, 100_006, 100_007, 100_008, 100_009]);
  assert.equal(recorded.between(0, Infinity, 'other'), []);
  recorded.flush();
  const reread = new InvocationMetrics(dataDir);
  reread.record(sample(200_005));
  const afterRestart = reread.between(0, Infinity);
  assert.equal([afterRestart.length, afterRestart[0].timestamp, afterRestart.at(-1)!.timestamp], [100_000, 100_006, 200_005]);
});

metrics('the file keeps at most twice the samples counted: rewritten with the kept ones once it grows past that', ({ dataDir }) => {
  const recorded = new InvocationMetrics(dataDir);
  for (let timestamp = 0; timestamp < 450_000; timestamp++) {
    recorded.record({ ...sample(timestamp), functionName: timestamp % 2 ? 'odd' : 'even', error: timestamp % 3 === 0, throttled: timestamp % 5 === 0 });
    if (timestamp % 10_000 === 9_999) recorded.flush();
  }
  recorded.flush();
  const lines = readFileSync(join(dataDir, 'state', 'invocation-metrics.jsonl'), 'utf8').split('\n').filter(Boolean);
  assert.ok(lines.length <= 200_000, `${lines.length} lines`);
  assert.equal(JSON.parse(lines.at(-1)!), { timestamp: 449_999, functionName: 'odd', durationMs: 1, error: false, throttled: false });
  const reread = new InvocationMetrics(dataDir).between(0, Infinity);
  assert.equal([reread.length, reread[0].timestamp, reread.at(-1)!.timestamp], [100_000, 350_000, 449_999]);
  assert.equal(new InvocationMetrics(dataDir).between(449_985, 449_991, 'odd'), [449_985, 449_987, 449_989].map((timestamp) => ({ timestamp, functionName: 'odd', durationMs: 1, error: timestamp % 3 === 0, throttled: timestamp % 5 === 0 })));
});

metrics.run();
