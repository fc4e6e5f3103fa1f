import { createHash } from 'node:crypto';
import * as zlib from 'node:zlib';
import { AwsError } from '../protocol/errors';
import { header, type LocalRequest } from '../http';

/** A reflected CRC-32 over a polynomial, one table lookup a byte. */
function crc32Over(polynomial: number): (data: Buffer) => number {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? polynomial ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return (data) => {
    let crc = 0xffffffff;
    for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
    return (crc ^ 0xffffffff) >>> 0;
  };
}

const crc32 = (zlib as { crc32?: (data: Buffer) => number }).crc32 ?? crc32Over(0xedb88320);
const crc32c = crc32Over(0x82f63b78);

const bigEndian = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value >>> 0);
  return bytes.toString('base64');
};

/** The additional checksums S3 checks, by the name in `x-amz-checksum-<name>` and what its messages call them. */
const ALGORITHMS: Record<string, { label: string; compute?: (data: Buffer) => string }> = {
  crc32: { label: 'CRC32', compute: (data) => bigEndian(crc32(data)) },
  crc32c: { label: 'CRC32C', compute: (data) => bigEndian(crc32c(data)) },
  sha1: { label: 'SHA1', compute: (data) => createHash('sha1').update(data).digest('base64') },
  sha256: { label: 'SHA256', compute: (data) => createHash('sha256').update(data).digest('base64') },
  // Kept and answered back as sent: its 64-bit CRC is not computed here.
  crc64nvme: { label: 'CRC64NVME' },
};

export type Checksum = { header: string; value: string };

/**
 * The checksum an upload carries (a header, or the trailer of an aws-chunked body, as SDK v3 sends
 * CRC32 by default), checked against the bytes as S3 does: BadDigest when they differ.
 */
export function uploadChecksum(request: LocalRequest, data: Buffer, trailers: Record<string, string>): Checksum | undefined {
  for (const [name, algorithm] of Object.entries(ALGORITHMS)) {
    const headerName = `x-amz-checksum-${name}`;
    const value = header(request, headerName) ?? trailers[headerName];
    if (value === undefined) continue;
    const computed = algorithm.compute?.(data);
    if (computed !== undefined && computed !== value) {
      if (Buffer.from(value, 'base64').toString('base64') !== value || Buffer.from(value, 'base64').length !== Buffer.from(computed, 'base64').length) {
        throw new AwsError('InvalidRequest', `Value for ${headerName} header is invalid.`, 400);
      }
      throw new AwsError('BadDigest', `The ${algorithm.label} you specified did not match the calculated checksum.`, 400);
    }
    return { header: headerName, value };
  }
  // Asked for by algorithm alone (no value sent): S3 computes it.
  const asked = header(request, 'x-amz-sdk-checksum-algorithm') ?? header(request, 'x-amz-checksum-algorithm');
  const algorithm = asked === undefined ? undefined : ALGORITHMS[asked.toLowerCase()];
  if (asked !== undefined && !algorithm) throw new AwsError('InvalidRequest', 'Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32, CRC32C, CRC64NVME, SHA1, SHA256]', 400);
  const computed = algorithm?.compute?.(data);
  return computed === undefined ? undefined : { header: `x-amz-checksum-${asked!.toLowerCase()}`, value: computed };
}

/** The checksum headers of a whole-object read, when the client asked for them (`x-amz-checksum-mode: ENABLED`). */
export function checksumHeaders(request: LocalRequest, checksum: Checksum | undefined): Record<string, string> {
  if (!checksum || header(request, 'x-amz-checksum-mode') !== 'ENABLED') return {};
  return { [checksum.header]: checksum.value, 'x-amz-checksum-type': 'FULL_OBJECT' };
}
