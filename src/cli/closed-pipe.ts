/**
 * `fw deploy --local | head -1`: once the reader has closed the pipe, what fw would still print
 * has nowhere to go. The command keeps working to its end (the deployment and its state are
 * saved, the local cloud stops cleanly) and its output stops quietly, as `cat | head` does.
 */
export function stopOutputAtClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    // Anything else than the reader going away is as unexpected as before.
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    stream.write = ((...args: unknown[]) => {
      const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
      if (callback) process.nextTick(callback);
      return true;
    }) as typeof stream.write;
  });
}
