import { getHeapStatistics } from 'node:v8';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { releaseMemoryWhenIdle } from '../../src/local/idle-memory';

const usedMb = () => getHeapStatistics().used_heap_size / 1024 / 1024;

test('after a burst, a collection once the process is quiet, and another some quiet checks later (when V8 gives back the young generation it grew)', async () => {
  const collections: string[] = [];
  const stop = releaseMemoryWhenIdle({ checkMs: 100, collected: (why) => collections.push(why) });
  try {
    // A burst: short-lived objects, allocated fast for a while (the young generation grows to its largest).
    let allocated = 0;
    for (let round = 0; round < 400; round++) allocated += Array.from({ length: 20_000 }, (_, index) => ({ index, round })).length;
    assert.is(allocated, 8_000_000);
    const deadline = Date.now() + 10_000;
    while (collections.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(collections, ['grown', 'settled']);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(collections, ['grown', 'settled'], 'nothing more while the heap stays as it is');
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
