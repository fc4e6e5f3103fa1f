/**
 * Messages between the local cloud and a function's process: JSON lines, requests on stdin, replies
 * on fd 3. A successful result's value may follow its line's JSON after PAYLOAD_SEPARATOR, as the
 * JSON text the function's answer serializes to: the local cloud passes that text on (Invoke's
 * payload, the gateway's response) without parsing and serializing it again.
 */

export interface InvokeMessage {
  type: 'invoke';
  id: string;
  event: unknown;
  deadline: number;
  invokedFunctionArn: string;
  /** What the caller passed as the client context (Invoke's X-Amz-Client-Context, `invoke local --context`). */
  clientContext?: unknown;
}

export interface FunctionErrorPayload {
  errorType: string;
  errorMessage: string;
  trace?: string[];
  stackTrace?: string[];
}

/**
 * What a result says besides its value: `markers`, how many flush markers were written (see
 * FLUSH_MARKER); `maxRss`, the runtime process's own peak resident memory in kB (getrusage), which
 * spares the local cloud reading /proc after every invocation.
 */
interface ResultFields {
  type: 'result';
  id: string;
  markers?: number;
  maxRss?: number;
}

export type ReplyMessage =
  | { type: 'ready' }
  | (ResultFields & { ok: true; value?: unknown })
  | (ResultFields & { ok: false; error: FunctionErrorPayload })
  | { type: 'log'; id?: string; level: string; message: string };

/** Between a result's JSON and its value's JSON text on the same line: JSON.stringify escapes every control character, so neither contains it. */
export const PAYLOAD_SEPARATOR = '\u0001';

/**
 * Written to stdout and stderr after an invocation and before its result, so
 * the log holds everything the function printed before the result is returned.
 * A result's `markers` says how many were written (the Node.js runtime writes
 * one only to an output written to since the last invocation); without it, two.
 */
export const FLUSH_MARKER = '\u0000fw-flush ';

/**
 * Calls `onLine` with each line a stream carries (without its `\n`), the last one even without one.
 * What readline does, at a fraction of its cost per line: a message each way per invocation.
 */
export function readLines(input: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let partial = '';
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      const line = partial + chunk.slice(start, end);
      partial = '';
      start = end + 1;
      onLine(line);
    }
    partial += chunk.slice(start);
  });
  input.on('end', () => {
    if (partial) onLine(partial);
    partial = '';
  });
}
