import { availableParallelism } from 'node:os';
import { constants, createDeflateRaw, type DeflateRaw } from 'node:zlib';

/**
 * Raw deflate on zlib's thread pool with reusable contexts. `deflateRawSync` builds a new
 * stream object and zlib context (~300 KB) per call: for 5,000 files that is tens of MB of
 * garbage and all of it on the main thread. Here a few contexts are reset (deflateReset)
 * between files and work in parallel while the main thread reads the next files. The bytes
 * are exactly those of `deflateRawSync(content)` (same zlib, same level, each file its own
 * complete stream).
 */
export class DeflateSlot {
  /** Read buffer owned by this slot while it is acquired. */
  scratch: Buffer = Buffer.allocUnsafeSlow(64 << 10);
  private readonly stream: DeflateRaw;
  private chunks: Buffer[] = [];
  private failure: Error | undefined;

  constructor() {
    this.stream = createDeflateRaw({ level: constants.Z_DEFAULT_COMPRESSION });
    this.stream.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.stream.on('error', (error: Error) => {
      this.failure = error;
    });
  }

  /** The deflated bytes of `content`; `content` must stay untouched until this resolves. */
  deflate(content: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.chunks = [];
      this.stream.write(content);
      this.stream.flush(constants.Z_FINISH, () => {
        if (this.failure) return reject(this.failure);
        // Output is pushed before the flush callback runs, and the stream flows: nothing may wait.
        if (this.stream.readableLength !== 0) return reject(new Error('zlib output was not delivered before its flush ended'));
        const output = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
        this.chunks = [];
        this.stream.reset();
        resolve(output);
      });
    });
  }

  close(): void {
    this.stream.close();
  }
}

/** A fixed set of slots, handed out in request order. */
export class DeflatePool {
  private readonly idle: DeflateSlot[] = [];
  private readonly waiting: Array<(slot: DeflateSlot) => void> = [];
  private readonly all: DeflateSlot[] = [];

  constructor(private readonly size = Math.max(1, Math.min(4, availableParallelism()))) {}

  acquire(): Promise<DeflateSlot> {
    const slot = this.idle.pop();
    if (slot) return Promise.resolve(slot);
    if (this.all.length < this.size) {
      const created = new DeflateSlot();
      this.all.push(created);
      return Promise.resolve(created);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(slot: DeflateSlot): void {
    const next = this.waiting.shift();
    if (next) next(slot);
    else this.idle.push(slot);
  }

  close(): void {
    for (const slot of this.all) slot.close();
    this.all.length = 0;
    this.idle.length = 0;
  }
}
