import type { AddressInfo } from 'node:net';
import { LocalCloud } from './cloud';
import type { StoppedOperation } from './cloudformation/engine';
import { LocalServer } from './server';

export interface StartOptions {
  /** 0 picks a free port. Default 4566. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Where stacks, buckets, objects and functions persist. */
  dataDir: string;
  /** No diagnostics on stderr. */
  quiet?: boolean;
}

export interface RunningLocalCloud {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Stops the stack creates and updates running (they roll back) and waits for every operation to end. */
  interrupt(reason: string): Promise<StoppedOperation[]>;
}

/** Starts the local cloud: every emulated AWS API on one port, state under dataDir. */
export async function startLocalCloud(options: StartOptions): Promise<RunningLocalCloud> {
  const host = options.host ?? '127.0.0.1';
  const cloud = new LocalCloud({
    dataDir: options.dataDir,
    log: options.quiet ? undefined : (line) => process.stderr.write(`[fw local] ${line}\n`),
  });
  const server = new LocalServer(cloud);
  await new Promise<void>((resolve, reject) => {
    server.http.once('error', reject);
    server.http.listen(options.port ?? 4566, host, () => {
      server.http.off('error', reject);
      resolve();
    });
  });
  const port = (server.http.address() as AddressInfo).port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;
  cloud.baseUrl = url;
  let stopped: Promise<void> | undefined;
  return {
    url,
    port,
    interrupt: (reason) => cloud.engine.interrupt(reason),
    stop() {
      stopped ??= (async () => {
        await new Promise<void>((resolve) => {
          server.http.close(() => resolve());
          server.http.closeAllConnections();
        });
        await cloud.close();
      })();
      return stopped;
    },
  };
}
