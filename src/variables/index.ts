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
}

export interface AwsAccess {
  /** An endpoint for every service (the local cloud, a test stub). */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

export async function resolveVariables(raw: Record<string, unknown>, context: ResolveContext): Promise<Record<string, unknown>> {
  return new Resolver(raw, context).resolveAll();
}
