import type { Writable } from 'node:stream';

/**
 * The one progress line of a long step (packaging, upload, a stack operation), on stderr as v3 has it,
 * so stdout keeps only results.
 *
 * In a terminal it is a spinner line rewritten in place. Piped, or with CI set, it is plain text: a
 * step's first line once it has run a second, then at most one line every few seconds, and its last
 * state when it ends; never a cursor control code. Colour settings (NO_COLOR, FORCE_COLOR) do not
 * change it: they are about colour only. Writes stop, without an error, once the stream is closed
 * (`fw deploy 2>&1 | head -1`).
 *
 * Self-contained (Node.js only) so any command, and any lower layer, can use it.
 */
export interface Progress {
  /** The step's state now, e.g. `Packaging: 1,200/3,000 files, 4/100 zips`; shown at the pace the mode allows. */
  update(line: string): void;
  /** A line that stays (a result, a warning), written to the lines stream: the progress line makes way for it. */
  line(text: string): void;
  /** Ends the step: clears the line in a terminal, writes its last state when piped; `update` may start another. */
  done(): void;
}

export type ProgressMode = 'live' | 'plain';

export interface ProgressOptions {
  env?: NodeJS.ProcessEnv;
  /** Where `line` writes (stdout); default the progress stream itself. */
  lines?: Writable;
  /** Piped: the least time between two plain lines of one step (default 3 s, or $FW_PROGRESS_INTERVAL_MS); a step shows after min(1 s, this). */
  intervalMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 80;
const CLEAR_LINE = '\r\u001b[2K';

const truthy = (value: string | undefined) => value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';

/** In place in an interactive terminal; plain lines when piped, in CI, or on a terminal that cannot move the cursor. */
export function progressMode(stream: Writable, env: NodeJS.ProcessEnv = process.env): ProgressMode {
  const tty = Boolean((stream as { isTTY?: boolean }).isTTY);
  return tty && !truthy(env.CI) && env.TERM !== 'dumb' ? 'live' : 'plain';
}

/** A writer that goes quiet once its stream is closed or failed (EPIPE), instead of throwing or crashing. */
function guardedWriter(stream: Writable): (text: string) => void {
  let closed = false;
  const guarded = stream as Writable & { fwProgressGuard?: () => boolean };
  if (!guarded.fwProgressGuard && typeof stream.on === 'function') {
    let failed = false;
    stream.on('error', () => {
      failed = true;
    });
    guarded.fwProgressGuard = () => failed;
  }
  return text => {
    if (closed || guarded.fwProgressGuard?.() || stream.destroyed || stream.writableEnded) {
      closed = true;
      return;
    }
    try {
      stream.write(text);
    } catch {
      closed = true;
    }
  };
}

export function createProgress(stream: Writable, options: ProgressOptions = {}): Progress {
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  const mode = progressMode(stream, env);
  const fromEnv = Number(env.FW_PROGRESS_INTERVAL_MS);
  const interval = options.intervalMs ?? (env.FW_PROGRESS_INTERVAL_MS && Number.isFinite(fromEnv) && fromEnv >= 0 ? fromEnv : 3000);
  const firstAfter = Math.min(1000, interval);
  const write = guardedWriter(stream);
  const writeLine = options.lines && options.lines !== stream ? guardedWriter(options.lines) : write;

  if (mode === 'plain') {
    let step = '';
    let startedAt = 0;
    let latest = '';
    let printed = '';
    let printedAt = -Infinity;
    const finish = () => {
      if (printed && latest !== printed) write(`${latest}\n`);
      step = latest = printed = '';
    };
    return {
      update(line) {
        const label = stepOf(line);
        const t = now();
        if (label !== step) {
          finish();
          step = label;
          startedAt = t;
          printedAt = -Infinity;
        }
        latest = line;
        if (line === printed || t - startedAt < firstAfter || t - printedAt < interval) return;
        printed = line;
        printedAt = t;
        write(`${line}\n`);
      },
      line(text) {
        finish();
        writeLine(`${text}\n`);
      },
      done: finish,
    };
  }

  let shown = '';
  let current = '';
  let frame = 0;
  let drawnAt = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  const draw = () => {
    frame = (frame + 1) % FRAMES.length;
    drawnAt = now();
    shown = `${FRAMES[frame]} ${current}`;
    write(`${CLEAR_LINE}${shown}`);
  };
  const clear = () => {
    if (shown) write(CLEAR_LINE);
    shown = '';
  };
  const done = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    current = '';
    clear();
  };
  return {
    update(line) {
      current = line;
      if (!timer) {
        // Keeps the spinner turning while the step waits (a stack operation); never keeps the process alive.
        timer = setInterval(draw, FRAME_MS);
        timer.unref();
      }
      if (now() - drawnAt >= FRAME_MS || !shown) draw();
    },
    // A lasting line ends the step it reports on: a stale state is not redrawn under it (the next update shows the line again).
    line(text) {
      done();
      writeLine(`${text}\n`);
    },
    done,
  };
}

/** The step a line belongs to: its words before the first colon or digit (`Uploading: 3 of 53 MB` → `Uploading`). */
function stepOf(line: string): string {
  return /^[^:\d(]*/.exec(line)![0].trim();
}

/** `812 B`, `4.2 kB`, `53.1 MB` */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
