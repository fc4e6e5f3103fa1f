import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../errors';

export interface AwsKeys {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** What Serverless v3 reads to pick the credentials of a command. */
export interface CredentialSources {
  /** `--aws-profile` */
  awsProfile?: string;
  /** The stage: `AWS_<STAGE>_PROFILE` and `AWS_<STAGE>_ACCESS_KEY_ID` are read with it upper-cased (`my-stage` → `AWS_MY-STAGE_PROFILE`). */
  stage: string;
  /** `provider.profile` */
  providerProfile?: string;
  env?: NodeJS.ProcessEnv;
}

/** The credentials a command uses, and where they came from in words the user set (never a secret). */
export type CredentialChoice =
  | { profile: string; from: string }
  | { keys: AwsKeys; from: string }
  /** Nothing named: the AWS SDK's own chain (the default profile, SSO, container or instance role). */
  | { from: typeof DEFAULT_CHAIN };

export const DEFAULT_CHAIN = "the AWS SDK's default chain";

/**
 * Serverless v3's precedence, highest first: `--aws-profile`; `AWS_<STAGE>_PROFILE`;
 * `AWS_<STAGE>_ACCESS_KEY_ID` + `AWS_<STAGE>_SECRET_ACCESS_KEY` (+ `AWS_<STAGE>_SESSION_TOKEN`);
 * `AWS_PROFILE`; `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`);
 * `provider.profile`; else the SDK's default chain. A key without its secret is ignored, as v3 does.
 */
export function chooseCredentials(sources: CredentialSources): CredentialChoice {
  const env = sources.env ?? process.env;
  const stage = stagePrefix(sources.stage);
  if (sources.awsProfile) return { profile: sources.awsProfile, from: `--aws-profile ${sources.awsProfile}` };
  const stageProfile = env[`${stage}PROFILE`];
  if (stageProfile) return { profile: stageProfile, from: `${stage}PROFILE=${stageProfile}` };
  const stageKeys = keysIn(env, stage);
  if (stageKeys) return { keys: stageKeys, from: `environment (${stage}ACCESS_KEY_ID)` };
  if (env.AWS_PROFILE) return { profile: env.AWS_PROFILE, from: `AWS_PROFILE=${env.AWS_PROFILE}` };
  const keys = keysIn(env, 'AWS_');
  if (keys) return { keys, from: 'environment (AWS_ACCESS_KEY_ID)' };
  if (sources.providerProfile) return { profile: sources.providerProfile, from: `provider.profile ${sources.providerProfile}` };
  return { from: DEFAULT_CHAIN };
}

/**
 * The profiles that must exist: v3 stops on a profile it cannot find wherever it was named
 * (`provider.profile`, `AWS_PROFILE`, `AWS_<STAGE>_PROFILE`), even when a source above it wins, so
 * a profile left in the service file never quietly gives way. `--aws-profile` names the one to use:
 * then only it is checked.
 */
export function namedProfiles(sources: CredentialSources): Array<{ profile: string; from: string }> {
  if (sources.awsProfile) return [{ profile: sources.awsProfile, from: '--aws-profile' }];
  const env = sources.env ?? process.env;
  const stage = stagePrefix(sources.stage);
  return [
    { profile: env[`${stage}PROFILE`], from: `${stage}PROFILE` },
    { profile: env.AWS_PROFILE, from: 'AWS_PROFILE' },
    { profile: sources.providerProfile, from: 'provider.profile' },
  ].filter((named): named is { profile: string; from: string } => Boolean(named.profile));
}

/** The credential sources of a loaded service: `--aws-profile`, its stage and `provider.profile`. */
export function credentialSourcesOf(loaded: { stage: string; config: { provider: { profile?: unknown } } }, awsProfile: string | undefined): CredentialSources {
  const providerProfile = loaded.config.provider.profile;
  return { awsProfile, stage: loaded.stage, providerProfile: typeof providerProfile === 'string' ? providerProfile : undefined };
}

const stagePrefix = (stage: string) => `AWS_${stage.toUpperCase()}_`;

function keysIn(env: NodeJS.ProcessEnv, prefix: string): AwsKeys | undefined {
  const accessKeyId = env[`${prefix}ACCESS_KEY_ID`];
  const secretAccessKey = env[`${prefix}SECRET_ACCESS_KEY`];
  if (!accessKeyId || !secretAccessKey) return undefined;
  const sessionToken = env[`${prefix}SESSION_TOKEN`];
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/** The shared files the AWS SDKs read: $AWS_SHARED_CREDENTIALS_FILE and $AWS_CONFIG_FILE, else ~/.aws/credentials and ~/.aws/config. */
export function sharedFiles(env: NodeJS.ProcessEnv = process.env): { credentials: string; config: string } {
  return {
    credentials: env.AWS_SHARED_CREDENTIALS_FILE || join(homedir(), '.aws', 'credentials'),
    config: env.AWS_CONFIG_FILE || join(homedir(), '.aws', 'config'),
  };
}

/** What SDK clients get as `credentials`: fixed keys, or a provider that loads (and caches) a profile's. */
export type ClientCredentials = AwsKeys | (() => Promise<AwsKeys & { expiration?: Date }>);

/** Resolved credentials: what to hand the SDK clients (none: the SDK's default chain) and where they came from. */
export interface ResolvedCredentials {
  credentials?: ClientCredentials;
  from: string;
}

const resolved = new Map<string, Promise<ResolvedCredentials>>();

/**
 * The credentials for the sources, once per process for the same sources (a profile's SSO token,
 * role assumption or credential_process runs once for every client of the command). A profile is
 * read with the SDK's INI provider (keys, `role_arn`, `credential_process`, SSO, web identity), from
 * the credentials and the config file. A named profile missing from both files is a ConfigError.
 */
export function resolveCredentials(sources: CredentialSources): Promise<ResolvedCredentials> {
  const env = sources.env ?? process.env;
  const choice = chooseCredentials(sources);
  const named = namedProfiles(sources);
  const files = sharedFiles(env);
  const key = JSON.stringify([choice, named, files]);
  let pending = resolved.get(key);
  if (!pending) {
    pending = resolveChoice(choice, named, files);
    resolved.set(key, pending);
    pending.catch(() => resolved.delete(key));
  }
  return pending;
}

async function resolveChoice(choice: CredentialChoice, named: Array<{ profile: string; from: string }>, files: { credentials: string; config: string }): Promise<ResolvedCredentials> {
  if (named.length > 0) {
    const known = await configuredProfiles(files);
    const missing = named.find(({ profile }) => !known.has(profile));
    if (missing) throw new ConfigError(`AWS profile "${missing.profile}" (${missing.from}) is not configured: no [${missing.profile}] in ${files.credentials} and no [profile ${missing.profile}] in ${files.config}`);
  }
  if ('keys' in choice) return { credentials: choice.keys, from: choice.from };
  if (!('profile' in choice)) return { from: choice.from };
  const { fromIni } = require('@aws-sdk/credential-provider-ini') as typeof import('@aws-sdk/credential-provider-ini');
  return { credentials: cached(fromIni({ profile: choice.profile, filepath: files.credentials, configFilepath: files.config })), from: choice.from };
}

/** The profiles of the two shared files (the config file's `[profile x]` as `x`). */
async function configuredProfiles(files: { credentials: string; config: string }): Promise<Set<string>> {
  const { parseKnownFiles } = require('@smithy/core/config') as { parseKnownFiles(init: { filepath?: string; configFilepath?: string }): Promise<Record<string, unknown>> };
  return new Set(Object.keys(await parseKnownFiles({ filepath: files.credentials, configFilepath: files.config })));
}

/** A provider whose answer is kept until five minutes before it expires. */
function cached(provider: () => Promise<AwsKeys & { expiration?: Date }>): () => Promise<AwsKeys & { expiration?: Date }> {
  let pending: Promise<AwsKeys & { expiration?: Date }> | undefined;
  let expiration: Date | undefined;
  return () => {
    if (pending && expiration && expiration.getTime() - Date.now() < 5 * 60_000) pending = undefined;
    if (!pending) {
      pending = provider().then(answer => {
        expiration = answer.expiration;
        return answer;
      });
      pending.catch(() => (pending = undefined));
    }
    return pending;
  };
}
