import { availableParallelism } from 'node:os';
import { constants, createDeflateRaw, deflateRawSync, type DeflateRaw } from 'node:zlib';

/** What `deflateRawSync` itself drives inside a zlib stream object (Node's `_handle` and `_writeState`). */
interface ZlibHandle {
  writeSync(flush: number, input: Buffer, inOffset: number, inLength: number, output: Buffer, outOffset: number, outLength: number): void;
  reset(): void;
}

/**
 * Raw deflate of many small files on the main thread with one zlib context. `deflateRawSync`
 * builds a stream object and a zlib context per call, and the context's memory goes back only
 * when the garbage collector gets to the object: 300 handler files held about 6 MB, and the
 * set-up was most of each call's time. Here one context does every file, driven through the
 * same handle calls `deflateRawSync` makes and reset in between, so the bytes are the same.
 * Those calls are Node's internals: if they are missing, throw, or the first result differs
 * from `deflateRawSync`'s, this falls back to `deflateRawSync` for good.
 */
export class SyncDeflater {
  private engine: DeflateRaw | undefined;
  private handle: ZlibHandle | undefined;
  private state: Uint32Array | undefined;
  private output = Buffer.allocUnsafeSlow(64 << 10);
  private failure: Error | undefined;
  private verified = false;
  private disabled = false;

  /** `create`: the stream whose zlib context is reused (tests pass a stand-in). */
  constructor(private readonly create: () => DeflateRaw = () => createDeflateRaw({ level: constants.Z_DEFAULT_COMPRESSION })) {}

  deflate(content: Buffer): Buffer {
    if (!this.disabled) {
      try {
        const deflated = this.deflateReusing(content);
        if (this.verified) return deflated;
        const expected = deflateRawSync(content, { level: constants.Z_DEFAULT_COMPRESSION });
        this.verified = deflated.equals(expected);
        if (this.verified) return deflated;
      } catch {
        // fall through: deflateRawSync from now on
      }
      this.close();
      this.disabled = true;
    }
    return deflateRawSync(content, { level: constants.Z_DEFAULT_COMPRESSION });
  }

  private deflateReusing(content: Buffer): Buffer {
    if (!this.engine) {
      this.engine = this.create();
      this.engine.on('error', (error: Error) => {
        this.failure = error;
      });
      const internals = this.engine as unknown as { _handle?: ZlibHandle; _writeState?: Uint32Array };
      if (typeof internals._handle?.writeSync !== 'function' || typeof internals._handle.reset !== 'function' || !(internals._writeState instanceof Uint32Array)) {
        throw new Error('zlib internals differ');
      }
      this.handle = internals._handle;
      this.state = internals._writeState;
    }
    const handle = this.handle!;
    const state = this.state!;
    const chunks: Buffer[] = [];
    let inOffset = 0;
    let inLength = content.length;
    let produced = 0;
    for (;;) {
      handle.writeSync(constants.Z_FINISH, content, inOffset, inLength, this.output, 0, this.output.length);
      if (this.failure) throw this.failure;
      const outLeft = state[0];
      const inLeft = state[1];
      chunks.push(Buffer.from(this.output.subarray(0, this.output.length - outLeft)));
      produced += this.output.length - outLeft;
      // Deflate never more than about doubles its input (zlib's deflateBound): anything else means the internals changed.
      if (produced > 2 * content.length + 1024 || inLeft > inLength) throw new Error('zlib internals differ');
      if (outLeft !== 0) break;
      // Output buffer full: go on with what is left of the input.
      inOffset += inLength - inLeft;
      inLength = inLeft;
    }
    handle.reset();
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  }

  close(): void {
    this.engine?.close();
    this.engine = undefined;
  }
}

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
  /** Made on the first big file: most slots only lend their read buffer (small files deflate on the main thread). */
  private stream: DeflateRaw | undefined;
  private chunks: Buffer[] = [];
  private failure: Error | undefined;

  private zlib(): DeflateRaw {
    if (!this.stream) {
      this.stream = createDeflateRaw({ level: constants.Z_DEFAULT_COMPRESSION });
      this.stream.on('data', (chunk: Buffer) => this.chunks.push(chunk));
      this.stream.on('error', (error: Error) => {
        this.failure = error;
      });
    }
    return this.stream;
  }

  /** The deflated bytes of `content`; `content` must stay untouched until this resolves. */
  deflate(content: Buffer): Promise<Buffer> {
    const stream = this.zlib();
    return new Promise((resolve, reject) => {
      this.chunks = [];
      stream.write(content);
      stream.flush(constants.Z_FINISH, () => {
        if (this.failure) return reject(this.failure);
        // Output is pushed before the flush callback runs, and the stream flows: nothing may wait.
        if (stream.readableLength !== 0) return reject(new Error('zlib output was not delivered before its flush ended'));
        const output = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
        this.chunks = [];
        stream.reset();
        resolve(output);
      });
    });
  }

  close(): void {
    this.stream?.close();
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
