import { Resolver } from './resolver';

/**
 * Resolves every `${source:address, fallback}` in the raw configuration
 * (issue 4). Sources live one per file under ./sources.
 */
export interface ResolveContext {
  /** The service folder (for `file(...)` and `.env`). */
  serviceDir: string;
  /** CLI options as `${opt:…}` sees them: stage, region, param (["k=v"]), … */
  options: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  /** One id per CLI run, for `${sls:instanceId}`. */
  instanceId: string;
  /** Where the AWS-backed sources (cf, s3, ssm, aws:accountId) send their calls; default: AWS itself. */
  aws?: AwsAccess;
  /**
   * The sources' answers by variable (`file(x.yml):a`), shared by the resolutions of one run: a
   * `${file(x.js)}` function runs once, as in v3, though plugins first see the configuration resolved
   * in part. `self:` is never kept.
   */
  answers?: Map<string, import('./source').Outcome>;
}

export interface AwsAccess {
  /** An endpoint for every service (the local cloud, a test stub). */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

export async function resolveVariables(raw: Record<string, unknown>, context: ResolveContext): Promise<Record<string, unknown>> {
  return new Resolver(raw, context).resolveAll();
}

/**
 * What Serverless v3 resolves before it constructs plugins: the variables of the `only` sources,
 * in `config` itself; the others, and those that fail, are left as written for the full resolution.
 */
export async function resolveAvailableInPlace(config: Record<string, unknown>, context: ResolveContext, only: readonly string[]): Promise<void> {
  await new Resolver(config, context, { inPlace: true, only: new Set(only) }).resolveAvailable();
}
