import { mkdtempSync, rmSync } from 'node:fs';
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

metrics.run();
