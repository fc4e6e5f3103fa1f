import type { Connection } from '../deploy/connect';
import type { Reporter } from '../deploy/deploy';
import type { LoadedService } from '../service/load';

/** Which service, and the options the commands take for it (`--stage`, `--region`, `--config`, `--param`). */
export interface ServiceRequest {
  /** The service folder (default: the working directory). */
  cwd?: string;
  stage?: string;
  region?: string;
  /** The service file, relative to `cwd` (default: fw.yml, fw.yaml, fw.json, then serverless.*). */
  config?: string;
  /** `${param:…}` values, as `key=value`. */
  params?: string[];
  /** Any other option `${opt:…}` and plugins read, as the CLI would pass it (`{ 'aws-profile': 'x' }`). */
  options?: Record<string, unknown>;
}

/** Where the stack goes: AWS, another endpoint, or fw's local cloud. */
export interface CloudRequest extends ServiceRequest {
  /**
   * fw's embedded local cloud: the one `fw local start` serves on `port` (default 4566) when it
   * answers, else one started for the duration of the call, keeping its state in `dataDir`
   * (default ~/.fw/local or $FW_LOCAL_DATA).
   */
  local?: boolean | { port?: number; dataDir?: string };
  /** Any AWS-compatible endpoint (default: $AWS_ENDPOINT_URL, else AWS). */
  endpoint?: string;
  /** A profile from ~/.aws/config and ~/.aws/credentials, as `--aws-profile` (above AWS_PROFILE and `provider.profile`). */
  profile?: string;
  /** Progress: lines, the in-place progress line, stack events. Default: silent. */
  reporter?: Partial<Reporter>;
  /** What plugins print (default: nothing). */
  write?: (text: string) => void;
  /** @internal Whether the CLI found `fw local start` answering already. */
  localCloudRunning?: boolean;
  /** @internal The keys a local cloud started by `fw-deploy/local` takes (default: $FW_LOCAL_CREDENTIALS, else any). */
  localCredentials?: { accessKeyId: string; secretAccessKey: string };
}

/** The options as the commands' code reads them (`${opt:…}`, plugins). */
export function optionsOf(request: ServiceRequest): Record<string, unknown> {
  const options: Record<string, unknown> = { ...request.options };
  if (request.stage !== undefined) options.stage = request.stage;
  if (request.region !== undefined) options.region = request.region;
  if (request.config !== undefined) options.config = request.config;
  if (request.params !== undefined) options.param = request.params;
  return options;
}

export const cwdOf = (request: ServiceRequest): string => request.cwd ?? process.cwd();

/** A reporter that passes what it is given on and drops the rest. */
export function reporterOf(request: CloudRequest): Reporter {
  const { info, progress, event, detail } = request.reporter ?? {};
  return { info: info ?? (() => undefined), progress: progress ?? (() => undefined), event: event ?? (() => undefined), detail: detail ?? (() => undefined) };
}

/** The clients for the request's target, with the credentials Serverless v3 picks (the request's profile as `--aws-profile`). */
export async function connectFor(loaded: LoadedService, request: CloudRequest): Promise<Connection> {
  const { connect } = require('../deploy/connect') as typeof import('../deploy/connect');
  const { credentialSourcesOf } = require('../aws/credentials') as typeof import('../aws/credentials');
  const local = typeof request.local === 'object' ? request.local : undefined;
  return connect({
    region: loaded.region,
    credentials: credentialSourcesOf(loaded, request.profile),
    local: Boolean(request.local),
    endpoint: request.endpoint,
    localPort: local?.port,
    localDataDir: local?.dataDir,
    localCloudRunning: request.localCloudRunning,
    localCredentials: request.localCredentials,
  });
}

/**
 * Runs `work` with AWS_ENDPOINT_URL pointing where the stack goes (the request's endpoint, or the
 * running `fw local start` for `local`), so `${ssm:…}`, `${cf:…}` and `${s3:…}` read from there,
 * as the commands do; the environment is restored afterwards. `work` gets the request with
 * `localCloudRunning` answered.
 */
export async function atEndpoint<R extends CloudRequest, T>(request: R, work: (request: R) => Promise<T>): Promise<T> {
  let endpoint = request.endpoint;
  let resolved = request;
  if (request.local) {
    const { checkOneTarget, runningLocalCloudPort } = require('../deploy/connect') as typeof import('../deploy/connect');
    checkOneTarget(request.local, endpoint);
    const given = typeof request.local === 'object' ? request.local : {};
    const port = request.localCloudRunning === false ? undefined : request.localCloudRunning ? given.port : await runningLocalCloudPort(given);
    resolved = port === undefined ? { ...request, localCloudRunning: false } : { ...request, local: { ...given, port }, localCloudRunning: true };
    if (port !== undefined) endpoint = `http://127.0.0.1:${port}`;
  }
  if (endpoint === undefined) return work(resolved);
  const previous = { AWS_ENDPOINT_URL: process.env.AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY };
  process.env.AWS_ENDPOINT_URL = endpoint;
  if (request.localCredentials) {
    process.env.AWS_ACCESS_KEY_ID = request.localCredentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = request.localCredentials.secretAccessKey;
  } else if (request.local) {
    // The local cloud takes any credentials; the SDK wants some.
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  }
  try {
    return await work(resolved);
  } finally {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
