/** Each batch's pending lines, written as the process exits if its turn of the event loop never came. */
const unwritten = new Set<() => void>();
let exitHooked = false;

export interface BatchedLines {
  (line: string): void;
  /** Writes the lines waiting now (a start or a stop that is over has said everything). */
  flush(): void;
}

/**
 * The local cloud's diagnostics (`[fw local] GET /hello → 200`), written in one write per turn of
 * the event loop: under load a line per request written on its own was a system call per request,
 * a twentieth of the server's time. Lines keep their order and are written at the latest as the
 * process exits.
 */
export function batchedLines(prefix: string, write: (text: string) => void): BatchedLines {
  let pending = '';
  const flush = () => {
    unwritten.delete(flush);
    const text = pending;
    pending = '';
    if (text) write(text);
  };
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', () => unwritten.forEach((flushOne) => flushOne()));
  }
  const log = (line: string) => {
    if (!unwritten.has(flush)) {
      unwritten.add(flush);
      setImmediate(flush);
    }
    pending += `${prefix}${line}\n`;
  };
  return Object.assign(log, { flush });
}
