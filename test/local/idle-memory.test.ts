import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { releaseMemoryWhenIdle } from '../../src/local/idle-memory';

const usedMb = () => getHeapStatistics().used_heap_size / 1024 / 1024;

test('seconds after a burst of allocation, the young generation V8 grew for it is given back', async () => {
  const youngMb = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size / 1024 / 1024;
  const stop = releaseMemoryWhenIdle();
  try {
    // A burst: short-lived objects, allocated fast for a while (the young generation grows to its largest).
    let kept = 0;
    for (let round = 0; round < 400; round++) kept += Array.from({ length: 20_000 }, (_, index) => ({ index, round })).length;
    const grown = youngMb();
    assert.ok(kept === 8_000_000 && grown >= 8, `the burst grew the young generation to ${grown.toFixed(1)} MB`);
    const deadline = Date.now() + 12_000;
    while (youngMb() >= grown / 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(youngMb() < grown / 2, `young generation ${youngMb().toFixed(1)} MB, was ${grown.toFixed(1)} MB`);
  } finally {
    stop();
  }
});

test('a quiet process whose heap grew gets its garbage collected within seconds (V8 alone leaves it while nothing allocates)', async () => {
  const stop = releaseMemoryWhenIdle();
  try {
    // 60 MB that survives long enough to reach the old generation, then becomes garbage.
    let held: { index: number; text: string }[][] = [];
    for (let round = 0; round < 6; round++) held.push(Array.from({ length: 100_000 }, (_, index) => ({ index, text: `line ${index} of round ${round}` })));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const grown = usedMb();
    held = [];
    assert.ok(held.length === 0 && grown > 40, `the test grew the heap to ${grown.toFixed(0)} MB`);
    const deadline = Date.now() + 5_000;
    while (usedMb() > grown - 30 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(usedMb() < grown - 30, `heap used ${usedMb().toFixed(0)} MB, was ${grown.toFixed(0)} MB`);
  } finally {
    stop();
  }
});

test.run();
