import { request } from 'node:http';
import { ConfigError } from '../errors';
import { localCredentials } from '../local/access/credentials';
import type { CredentialSources } from '../aws/credentials';
import { awsTarget, createClients, type AwsClients } from '../aws/clients';

export interface ConnectOptions {
  region: string;
  /** What picks the credentials on AWS or at `endpoint` (`--aws-profile`, the stage, `provider.profile`); `--local` needs none (the local cloud has its own). */
  credentials?: CredentialSources;
  /** `--local`: the embedded local cloud. */
  local?: boolean;
  /** `--endpoint-url` (or AWS_ENDPOINT_URL): any AWS-compatible endpoint. */
  endpoint?: string;
  /** Where the local cloud keeps its state (default ~/.fw/local or $FW_LOCAL_DATA). */
  localDataDir?: string;
  localPort?: number;
  /** Whether `fw local start` answers on the port, when the caller asked already. */
  localCloudRunning?: boolean;
  /** The keys to sign with for the local cloud (default: $FW_LOCAL_CREDENTIALS, else any). */
  localCredentials?: { accessKeyId: string; secretAccessKey: string };
}

export interface Connection {
  clients: AwsClients;
  /** Set when this command started the local cloud itself (it stops with the command). */
  startedLocalCloud?: string;
  /** With a local cloud started in this process: stops its running creates and updates (they roll back). */
  interrupt?(reason: string): Promise<import('../local/cloudformation/engine').StoppedOperation[]>;
  close(): Promise<void>;
}

export const DEFAULT_LOCAL_PORT = 4566;

/** The port `--local` looks for `fw local start` on, and starts its own local cloud on: $FW_LOCAL_PORT (0: a free one) or 4566. */
export function localPort(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.FW_LOCAL_PORT;
  if (value === undefined || value === '') return DEFAULT_LOCAL_PORT;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new ConfigError(`Invalid FW_LOCAL_PORT: expected a port number from 0 to 65535, got ${JSON.stringify(value)}`);
  return port;
}

/** Whether fw's local cloud (`fw local start`) answers on this port. */
export function localCloudAnswers(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const req = request({ host: '127.0.0.1', port, path: '/_fw/health', method: 'GET', timeout: 500 }, res => {
      res.resume();
      resolve(res.headers['x-fw-local'] !== undefined);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

/**
 * The port of the local cloud `--local` uses when one runs, in this order: the port given (the
 * request's, else $FW_LOCAL_PORT) when fw answers there; else the one `fw local start` recorded in
 * the data folder (its process alive and answering); else 4566 when fw answers there. Undefined
 * when none runs (the command then starts its own).
 */
export async function runningLocalCloudPort(given: { port?: number; dataDir?: string } = {}, env: NodeJS.ProcessEnv = process.env): Promise<number | undefined> {
  const answering = async (port: number) => (port !== 0 && (await localCloudAnswers(port)) ? port : undefined);
  const explicit = given.port ?? (env.FW_LOCAL_PORT ? localPort(env) : undefined);
  if (explicit !== undefined) return answering(explicit);
  const { recordedEndpoint } = require('../local/state/running-endpoint') as typeof import('../local/state/running-endpoint');
  const { localDataDir } = require('../local/state/data-dir') as typeof import('../local/state/data-dir');
  const recorded = recordedEndpoint(given.dataDir ?? localDataDir(undefined, env));
  return (recorded && (await answering(recorded.port))) ?? answering(DEFAULT_LOCAL_PORT);
}

const missingSources = (): never => {
  throw new Error('connect: the credential sources are required outside the local cloud');
};

/** `--local` and `--endpoint-url` name two different places: one line rather than one silently winning. */
export function checkOneTarget(local: unknown, endpoint: string | undefined): void {
  if (local && endpoint !== undefined) {
    throw new ConfigError(`--local and --endpoint-url ${endpoint} name two different clouds: give one (--local finds fw's local cloud by itself)`);
  }
}

/**
 * The clients for a command: AWS itself, an endpoint the user named, or the local
 * cloud — the running `fw local start` server when one answers, else one started
 * in this process for the duration of the command (state on disk either way).
 */
export async function connect(options: ConnectOptions): Promise<Connection> {
  const endpoint = options.endpoint ?? (options.local ? undefined : process.env.AWS_ENDPOINT_URL);
  if (!options.local) {
    return {
      clients: createClients(await awsTarget(options.region, endpoint, options.credentials ?? missingSources())),
      close: async () => undefined,
    };
  }
  checkOneTarget(options.local, options.endpoint);
  const fromEnvironment = localCredentials();
  const credentials = options.localCredentials ? { required: options.localCredentials, signWith: options.localCredentials } : fromEnvironment;
  const running = options.localCloudRunning ? options.localPort ?? localPort() : options.localCloudRunning === false ? undefined : await runningLocalCloudPort({ port: options.localPort, dataDir: options.localDataDir });
  const port = running ?? options.localPort ?? localPort();
  if (running !== undefined) {
    return {
      clients: createClients({ region: options.region, endpoint: `http://127.0.0.1:${port}`, credentials: credentials.signWith }),
      close: async () => undefined,
    };
  }
  const { startLocalCloud } = require('../local') as typeof import('../local');
  const { localDataDir } = require('../local/state/data-dir') as typeof import('../local/state/data-dir');
  const dataDir = options.localDataDir ?? localDataDir(undefined);
  // On the port `fw local start` uses by default, so the endpoints printed now are the ones it serves later.
  const { provisioningDelayFrom, PROVISIONING_DELAY_ENV } = require('../local/cloudformation/provisioning-clock') as typeof import('../local/cloudformation/provisioning-clock');
  const provisioningDelay = provisioningDelayFrom(process.env[PROVISIONING_DELAY_ENV], `$${PROVISIONING_DELAY_ENV}`);
  const start = (on: number) => startLocalCloud({ port: on, dataDir, quiet: true, credentials: credentials.required, provisioningDelay });
  const cloud = await start(port).catch(error => {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return start(0);
  });
  return {
    clients: createClients({ region: options.region, endpoint: cloud.url, credentials: credentials.signWith }),
    startedLocalCloud: cloud.url,
    interrupt: reason => cloud.interrupt(reason),
    close: () => cloud.stop(),
  };
}
