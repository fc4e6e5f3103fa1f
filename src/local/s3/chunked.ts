import { AwsError } from '../protocol/errors';

/**
 * Decodes an `aws-chunked` body (what the SDK sends for a streamed upload with
 * a trailing checksum): `<hex size>[;chunk-signature=…]\r\n<bytes>\r\n` … `0\r\n<trailers>\r\n\r\n`.
 * Chunk signatures are checked, when credentials are required, by access/signature.ts.
 */
export function decodeAwsChunked(body: Buffer): { data: Buffer; trailers: Record<string, string> } {
  const chunks: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', offset);
    if (lineEnd === -1) throw new AwsError('IncompleteBody', 'The request body ended inside a chunk header');
    const size = parseInt(body.subarray(offset, lineEnd).toString('latin1').split(';')[0], 16);
    if (Number.isNaN(size)) throw new AwsError('InvalidRequest', 'Malformed aws-chunked body');
    offset = lineEnd + 2;
    if (size === 0) break;
    if (offset + size > body.length) throw new AwsError('IncompleteBody', 'The request body ended inside a chunk');
    chunks.push(body.subarray(offset, offset + size));
    offset += size + 2;
  }
  const trailers: Record<string, string> = {};
  for (const line of body.subarray(offset).toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { data: Buffer.concat(chunks), trailers };
}

export function isAwsChunked(headers: Record<string, string | string[] | undefined>): boolean {
  const encoding = String(headers['content-encoding'] ?? '');
  const sha = String(headers['x-amz-content-sha256'] ?? '');
  return encoding.split(',').some((part) => part.trim() === 'aws-chunked') || sha.startsWith('STREAMING-');
}
