import { networkInterfaces } from 'node:os';
import type { AddressInfo } from 'node:net';
import { AccessGuard } from './access/guard';
import type { LocalCredentials } from './access/credentials';
import { WILDCARD_HOSTS, isLoopback, urlHost } from './access/hosts';
import { LocalCloud } from './cloud';
import { batchedLines } from './diagnostic-lines';
import type { RuntimeOptions } from './runtime/functions';
import type { StoppedOperation } from './cloudformation/engine';
import { LocalServer } from './server';
import { releaseMemoryWhenIdle } from './idle-memory';
import { bucketCorsAllows } from './s3/api';

export { CREDENTIALS_ENV, parseLocalCredentials, type LocalCredentials } from './access/credentials';
export { CONCURRENCY_LIMIT_ENV, concurrencyLimitFrom } from './runtime/concurrency';
export { IDLE_SECONDS_ENV, idleSecondsFrom } from './runtime/functions';

export interface StartOptions {
  /** 0 picks a free port. Default 4566. */
  port?: number;
  /** Default 127.0.0.1. Anything but a loopback address makes the local cloud reachable from the network. */
  host?: string;
  /** Where stacks, buckets, objects and functions persist. */
  dataDir: string;
  /** No diagnostics on stderr. */
  quiet?: boolean;
  /** Where diagnostics go instead of stderr (Cognito's confirmation codes among them). */
  log?: (line: string) => void;
  /** Browser origins allowed to call the management APIs; `*` for any. Default none. */
  allowOrigins?: readonly string[];
  /** Require every management request to be signed (SigV4) with this key and secret. Default: any signature. */
  credentials?: LocalCredentials;
  /**
   * Each resource create, update and delete takes this fraction of the typical AWS time for its type
   * (0.05: 5%), independent resources side by side as CloudFormation does. Default 0: no delay.
   */
  provisioningDelay?: number;
  /**
   * Lambda's execution model: the account's concurrency limit (default 1,000, as on AWS) and the
   * seconds an idle execution environment lives before it is retired (default 120).
   */
  functions?: RuntimeOptions;
}

export interface RunningLocalCloud {
  /** Where clients on this machine reach the server (a loopback URL when it listens on every interface). */
  url: string;
  port: number;
  /** The address it really listens on, as a URL: `http://0.0.0.0:4566` when bound to every interface. */
  boundUrl: string;
  /** True when the server is reachable from other machines (bound to something other than loopback). */
  exposed: boolean;
  /** With `exposed`, the URLs other machines may use (one per interface address). */
  networkUrls: string[];
  stop(): Promise<void>;
  /** Stops the stack creates and updates running (they roll back) and waits for every operation to end. */
  interrupt(reason: string): Promise<StoppedOperation[]>;
}

function interfaceUrls(port: number): string[] {
  const urls: string[] = [];
  for (const entries of Object.values(networkInterfaces())) {
    // Link-local IPv6 addresses need a zone id no URL carries.
    for (const entry of entries ?? []) if (!entry.internal && !/^fe80:/i.test(entry.address)) urls.push(`http://${urlHost(entry.address)}:${port}`);
  }
  return urls;
}

/** Starts the local cloud: every emulated AWS API on one port, state under dataDir. */
export async function startLocalCloud(options: StartOptions): Promise<RunningLocalCloud> {
  const host = options.host ?? '127.0.0.1';
  const printed = options.quiet || options.log ? undefined : batchedLines('[fw local] ', (text) => process.stderr.write(text));
  const log = options.log ?? printed;
  const cloud = new LocalCloud({
    dataDir: options.dataDir,
    log: options.log ?? log,
    credentials: options.credentials,
    provisioningDelay: options.provisioningDelay,
    functions: options.functions,
  });
  const access = new AccessGuard({
    boundAddress: host,
    allowOrigins: options.allowOrigins,
    credentials: options.credentials,
    s3CorsAllows: (address, origin, method) => bucketCorsAllows(cloud.s3, address, origin, method),
  });
  const server = new LocalServer(cloud, access);
  await new Promise<void>((resolve, reject) => {
    server.http.once('error', reject);
    server.http.listen(options.port ?? 4566, host, () => {
      server.http.off('error', reject);
      resolve();
    });
  });
  const bound = server.http.address() as AddressInfo;
  const port = bound.port;
  const wildcard = WILDCARD_HOSTS.has(bound.address);
  const exposed = !isLoopback(bound.address);
  // Bound to every interface, the loopback address reaches it too, and is what functions and outputs use.
  const url = `http://${wildcard ? '127.0.0.1' : urlHost(bound.address)}:${port}`;
  cloud.baseUrl = url;
  // Load balancer listeners get ports of their own on the same address.
  await cloud.loadBalancers.listen(host);
  cloud.started();
  const stopReleasingMemory = releaseMemoryWhenIdle();
  let stopped: Promise<void> | undefined;
  printed?.flush();
  return {
    url,
    port,
    interrupt: (reason) => cloud.engine.interrupt(reason),
    boundUrl: `http://${urlHost(bound.address)}:${port}`,
    exposed,
    networkUrls: !exposed ? [] : wildcard ? interfaceUrls(port) : [url],
    stop() {
      stopped ??= (async () => {
        stopReleasingMemory();
        await new Promise<void>((resolve) => {
          server.closeWebSockets();
          server.http.close(() => resolve());
          server.http.closeAllConnections();
        });
        await cloud.close();
        printed?.flush();
      })();
      return stopped;
    },
  };
}
