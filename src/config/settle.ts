import { ConfigError } from '../errors';

/** How long a JS/TS service file (or a `${file(x.js)}`) may take to produce its value: `FW_CONFIG_TIMEOUT` seconds, default 30. */
export function configTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.FW_CONFIG_TIMEOUT);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 30_000;
}

/**
 * Waits for what a JS/TS file exports or returns, and refuses to wait forever. A promise that
 * can never settle lets Node.js run out of work and exit 0 in silence: `beforeExit` catches
 * that moment. One that keeps the process busy (a timer, a socket) gets the timeout.
 */
export function settleConfig<T>(work: Promise<T> | T, shown: string, timeoutMs = configTimeoutMs()): Promise<T> {
  if (!isThenable(work)) return Promise.resolve(work);
  return new Promise<T>((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      process.off('beforeExit', neverSettles);
    };
    const fail = (why: string) => {
      stop();
      reject(new ConfigError(`Cannot load ${shown}: ${why}`));
    };
    const neverSettles = () => fail('its exported promise never settles (nothing is left running that could settle it)');
    const timer = setTimeout(() => fail(`its exported promise did not settle within ${timeoutMs / 1000} s (FW_CONFIG_TIMEOUT sets the limit in seconds)`), timeoutMs);
    // The timer alone must not keep the process alive: then `beforeExit` can see that nothing else does.
    timer.unref();
    process.once('beforeExit', neverSettles);
    work.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}

function isThenable<T>(value: Promise<T> | T): value is Promise<T> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}
