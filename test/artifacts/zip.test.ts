import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDeflateRaw, deflateRawSync, type DeflateRaw } from 'node:zlib';
import { DeflatePool, SyncDeflater } from '../../src/package/deflate';
import { hashBytes, sortEntries, writeZip, zipEntry, ZipWriter } from '../../src/artifacts/zip';
import { readZip, removeDir, tempDir } from '../package/helpers';

const zip = suite('zip writer');
let dir = '';
zip.before.each(() => {
  dir = tempDir();
});
zip.after.each(() => removeDir(dir));

zip('writes entries that read back with their names, contents and modes', () => {
  const file = join(dir, 'a.zip');
  const big = Buffer.from('hello world\n'.repeat(200));
  writeZip(file, sortEntries([zipEntry('bin/run', Buffer.from('#!/bin/sh\n'), true), zipEntry('a/big.txt', big, false), zipEntry('empty', Buffer.alloc(0), false)]));
  assert.equal(
    readZip(file).map((entry) => [entry.name, entry.mode.toString(8), entry.content.toString()]),
    [
      ['a/big.txt', '100644', big.toString()],
      ['bin/run', '100755', '#!/bin/sh\n'],
      ['empty', '100644', ''],
    ],
  );
});

zip('stamps every entry 1980-01-01 00:00 whatever the clock says', () => {
  const file = join(dir, 'a.zip');
  writeZip(file, [zipEntry('x', Buffer.from('x'), false)]);
  assert.equal(readZip(file).map((entry) => [entry.date, entry.time]), [[(1 << 5) | 1, 0]]);
});

zip('stores data that deflate would not shrink', () => {
  const entry = zipEntry('r', Buffer.from([1, 2, 3]), false);
  assert.is(entry.method, 0);
  assert.is(zipEntry('t', Buffer.from('a'.repeat(100)), false).method, 8);
});

zip('gives the same bytes for the same entries, and reports their sha256 as hex and base64', () => {
  const make = () => [zipEntry('b', Buffer.from('bee'), false), zipEntry('a', Buffer.from('ay'), false)];
  const first = writeZip(join(dir, '1.zip'), sortEntries(make()));
  const second = writeZip(join(dir, '2.zip'), sortEntries(make()));
  assert.equal(readFileSync(join(dir, '1.zip')), readFileSync(join(dir, '2.zip')));
  assert.equal(first, second);
  assert.equal(first, hashBytes(readFileSync(join(dir, '1.zip'))));
  assert.is(Buffer.from(first.codeSha256, 'base64').toString('hex'), first.sha256);
});

zip('sorts by byte order and refuses two entries with one name', () => {
  const sorted = sortEntries(['b', 'B', 'a/b', 'a', '_'].map((name) => zipEntry(name, Buffer.from(name), false)));
  assert.equal(sorted.map((entry) => entry.name), ['B', '_', 'a', 'a/b', 'b']);
  assert.throws(() => sortEntries([zipEntry('a', Buffer.from('1'), false), zipEntry('a', Buffer.from('2'), false)]), /a/);
});

zip('does not depend on file times (touch)', () => {
  const source = join(dir, 'f.txt');
  writeFileSync(source, 'same');
  const first = writeZip(join(dir, '1.zip'), [zipEntry('f.txt', readFileSync(source), false)]);
  utimesSync(source, new Date(2030, 1, 1), new Date(2030, 1, 1));
  const second = writeZip(join(dir, '2.zip'), [zipEntry('f.txt', readFileSync(source), false)]);
  assert.is(first.sha256, second.sha256);
});

zip.run();

const deflate = suite('DeflatePool');
deflate('gives exactly the bytes of deflateRawSync, file after file on reused contexts', async () => {
  const pool = new DeflatePool(2);
  const big = Buffer.from(Array.from({ length: 60_000 }, (_, i) => `line ${i * 7919 % 1000}\n`).join(''));
  const contents = [Buffer.from('a'), big, Buffer.from('hello '.repeat(100)), big.subarray(0, 1000), Buffer.from([0, 1, 2, 3])];
  try {
    const outputs = await Promise.all(
      [...contents, ...contents].map(async (content) => {
        const slot = await pool.acquire();
        try {
          return await slot.deflate(content);
        } finally {
          pool.release(slot);
        }
      }),
    );
    assert.equal(outputs.map((output) => output.toString('hex')), [...contents, ...contents].map((content) => deflateRawSync(content).toString('hex')));
  } finally {
    pool.close();
  }
});

const big = Buffer.from(Array.from({ length: 60_000 }, (_, i) => `line ${i * 7919 % 1000}\n`).join(''));
const random = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 2654435761) >>> 24));
const samples = [Buffer.from('a'), big, Buffer.from('hello '.repeat(100)), random, big.subarray(0, 1000), Buffer.from([0, 1, 2, 3])];
const expected = samples.map(content => deflateRawSync(content).toString('hex'));

deflate('SyncDeflater gives exactly the bytes of deflateRawSync on one reused context (output over its 64 KB buffer too)', () => {
  const deflater = new SyncDeflater();
  try {
    assert.equal([...samples, ...samples].map(content => deflater.deflate(content).toString('hex')), [...expected, ...expected]);
  } finally {
    deflater.close();
  }
});

deflate("SyncDeflater falls back to deflateRawSync when Node's zlib internals are not what it drives", () => {
  const without = new SyncDeflater(() => Object.assign(createDeflateRaw(), { _handle: undefined }) as unknown as DeflateRaw);
  assert.equal(samples.map(content => without.deflate(content).toString('hex')), expected);
  // Internals that changed shape (here: a write state the handle does not fill in): the first result shows it.
  const changed = new SyncDeflater(() => Object.assign(createDeflateRaw(), { _writeState: new Uint32Array(2) }) as unknown as DeflateRaw);
  assert.equal(samples.map(content => changed.deflate(content).toString('hex')), expected);
  without.close();
  changed.close();
});
deflate.run();

const order = suite('zip entry order');
order('writeZip sorts what it is given; the streaming writer refuses entries out of order', () => {
  const dir = tempDir();
  try {
    writeZip(join(dir, 'a.zip'), ['a/x.js', 'a-b.js'].map((name) => zipEntry(name, Buffer.from(name), false)));
    assert.equal(readZip(join(dir, 'a.zip')).map((entry) => entry.name), ['a-b.js', 'a/x.js']);
    const writer = new ZipWriter(join(dir, 'b.zip'));
    writer.add(zipEntry('b', Buffer.from('b'), false));
    assert.throws(() => writer.add(zipEntry('a', Buffer.from('a'), false)), /out of order/);
    writer.abort();
  } finally {
    removeDir(dir);
  }
});
order.run();
