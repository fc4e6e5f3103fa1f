/**
 * fw's local cloud as a part of your own program or test suite: `import { startLocalCloud } from 'fw-deploy/local'`.
 * `fw local start` is this function behind a command line. Loads nothing of the CLI, and nothing of
 * fw's deployer until `deploy` or `remove` is called.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeployRequest, DeployResult } from './deploy';
import type { RemoveResult } from './remove';
import type { ServiceRequest } from './request';
import type { LocalCredentials, RunningLocalCloud } from '../local/index';
import type { RuntimeOptions } from '../local/runtime/functions';
import { ANY_LOCAL_CREDENTIALS } from '../local/access/credentials';

export type { LocalCredentials } from '../local/index';

export interface LocalCloudOptions {
  /** The port to listen on; 0 (the default) picks a free one. `fw local start` uses 4566. */
  port?: number;
  /** Default 127.0.0.1. Anything but a loopback address makes the local cloud reachable from the network. */
  host?: string;
  /**
   * Where stacks, buckets, objects, tables, queues and functions persist. Default: a new temporary
   * folder, deleted by `stop()`. A folder you give is kept, and a later start on it finds everything again.
   */
  dataDir?: string;
  /** Print the cloud's diagnostics (`[fw local] …`) on stderr. Default false. */
  verbose?: boolean;
  /** Browser origins allowed to call the management APIs; `*` for any. Default none. */
  allowOrigins?: readonly string[];
  /** Require every request to be signed (SigV4) with this key and secret. Default: any signature of the right shape. */
  credentials?: LocalCredentials;
  /** Each resource create, update and delete takes this fraction of its typical AWS time (0.05: 5%). Default 0. */
  provisioningDelay?: number;
  /** Lambda's limits: `{ concurrencyLimit }` (invocations running at once, default 1,000 as on AWS) and `{ idleSeconds }` (an idle environment's life, default 120). */
  functions?: RuntimeOptions;
}

/** What an AWS SDK v3 client needs to talk to the local cloud: `new S3Client(cloud.clientConfig)`. */
export interface LocalClientConfig {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** S3 buckets in the path (`http://127.0.0.1:PORT/bucket/key`); other clients ignore it. */
  forcePathStyle: true;
}

export interface LocalCloud extends RunningLocalCloud {
  /** The folder the state is in. */
  dataDir: string;
  /** The region clients should name (the local cloud serves every region; stacks and resources are per region). */
  region: string;
  /** The keys to sign with: the required ones, or any (`local`/`local`). */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Endpoint, region, credentials and path-style addressing for SDK v3 clients. */
  clientConfig: LocalClientConfig;
  /** Environment variables that point the AWS CLI, boto3 and the SDKs of a child process at this cloud. */
  environment: Record<'AWS_ENDPOINT_URL' | 'AWS_REGION' | 'AWS_DEFAULT_REGION' | 'AWS_ACCESS_KEY_ID' | 'AWS_SECRET_ACCESS_KEY', string>;
  /**
   * `fw deploy` of a service folder (`cwd`, default the working directory) into this cloud: packages
   * it, deploys its stack and answers with its endpoints, functions and outputs.
   */
  deploy(request?: Omit<DeployRequest, 'local' | 'endpoint' | 'profile'>): Promise<DeployResult>;
  /** `fw remove` of a service folder deployed into this cloud. */
  remove(request?: ServiceRequest): Promise<RemoveResult>;
  /** Stops the server and the functions it runs; deletes the data folder when it made a temporary one. */
  stop(): Promise<void>;
}

const REGION = 'us-east-1';

/**
 * Starts fw's local cloud: every emulated AWS API on one port, on loopback, with state in a folder.
 *
 * ```ts
 * const cloud = await startLocalCloud();
 * const deployed = await cloud.deploy({ cwd: 'services/api', stage: 'test' });
 * const items = await fetch(`${deployed.endpoints[0]}/items`);
 * const s3 = new S3Client(cloud.clientConfig);
 * await cloud.stop();
 * ```
 */
export async function startLocalCloud(options: LocalCloudOptions = {}): Promise<LocalCloud> {
  const { startLocalCloud: startServer } = require('../local/index') as typeof import('../local/index');
  const temporary = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'fw-local-'));
  let running: RunningLocalCloud;
  try {
    running = await startServer({
      port: options.port ?? 0,
      host: options.host,
      dataDir,
      quiet: !options.verbose,
      allowOrigins: options.allowOrigins,
      credentials: options.credentials,
      provisioningDelay: options.provisioningDelay,
      functions: options.functions,
    });
  } catch (error) {
    if (temporary) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const credentials = options.credentials ? { accessKeyId: options.credentials.accessKeyId, secretAccessKey: options.credentials.secretAccessKey } : { ...ANY_LOCAL_CREDENTIALS };
  const target = { local: { port: running.port, dataDir }, localCloudRunning: true, localCredentials: credentials } as const;
  let stopped: Promise<void> | undefined;
  return {
    ...running,
    dataDir,
    region: REGION,
    credentials,
    clientConfig: { endpoint: running.url, region: REGION, credentials, forcePathStyle: true },
    environment: {
      AWS_ENDPOINT_URL: running.url,
      AWS_REGION: REGION,
      AWS_DEFAULT_REGION: REGION,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    deploy: (request = {}) => (require('./deploy') as typeof import('./deploy')).deploy({ ...request, ...target }),
    remove: (request = {}) => (require('./remove') as typeof import('./remove')).remove({ ...request, ...target }),
    stop() {
      stopped ??= running.stop().finally(() => {
        if (temporary) rmSync(dataDir, { recursive: true, force: true });
      });
      return stopped;
    },
  };
}
