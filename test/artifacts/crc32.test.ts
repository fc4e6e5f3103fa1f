import { randomBytes } from 'node:crypto';
import * as zlib from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { crc32, tableCrc32 } from '../../src/artifacts/crc32';

const crc = suite('crc32');

// zlib.crc32's values for these bytes (Node.js 20.20).
const samples = [
  Buffer.from('hello world\n'.repeat(200)),
  Buffer.from([0]),
  Buffer.from(Array.from({ length: 4097 }, (_, i) => (i * 31 + 7) & 255)),
  Buffer.alloc(1000, 0xff),
];
const zlibValues = [0xad121804, 0xd202ef8d, 0x7538d5a2, 0xe0533230];

crc('the table form gives the standard check value, zero for no bytes, and zlib\'s values', () => {
  assert.equal([tableCrc32(Buffer.from('123456789')), tableCrc32(Buffer.alloc(0))], [0xcbf43926, 0]);
  assert.equal(samples.map((sample) => tableCrc32(sample)), zlibValues);
});

crc('the exported crc32 gives zlib\'s values on any Node.js release', () => {
  assert.equal(samples.map((sample) => crc32(sample)), zlibValues);
});

crc('the table form agrees with zlib.crc32 on random bytes where Node.js has it', () => {
  const zlibCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
  if (zlibCrc32 === undefined) return; // before Node.js 20.15: the fixed values above are the check
  const random = [randomBytes(7), randomBytes(65536)];
  assert.equal(random.map((bytes) => tableCrc32(bytes)), random.map((bytes) => zlibCrc32(bytes)));
});

crc.run();
