/**
 * Contract for the variable resolver (owned by the configuration work, issue 4).
 * Resolves every `${source:address, fallback}` in the raw configuration.
 */
export interface ResolveContext {
  /** The service folder (for `file(...)` and `.env`). */
  serviceDir: string;
  /** CLI options as `${opt:…}` sees them: stage, region, param (["k=v"]), … */
  options: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  /** One id per CLI run, for `${sls:instanceId}`. */
  instanceId: string;
}

// Placeholder until the resolver lands: returns the configuration unchanged.
export async function resolveVariables(raw: Record<string, unknown>, _context: ResolveContext): Promise<Record<string, unknown>> {
  return raw;
}
