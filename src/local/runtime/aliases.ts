/**
 * A function's aliases, kept on the function's record beside its published versions (as on AWS,
 * an alias lives as long as its function): a name pointing at `$LATEST` or a version number.
 */
export interface FunctionAlias {
  Name: string;
  FunctionVersion: string;
  Description: string;
  AliasArn: string;
  RevisionId: string;
  RoutingConfig?: { AdditionalVersionWeights?: Record<string, number> };
}

/** The function record's attribute listing its aliases (kept by a function's update, runtime/code.ts). */
export const ALIASES = 'fw:Aliases';

export function aliasesOf(fn: { attributes: Record<string, unknown> }): FunctionAlias[] {
  return (fn.attributes[ALIASES] as FunctionAlias[] | undefined) ?? [];
}

export function setAliases(fn: { attributes: Record<string, unknown> }, aliases: FunctionAlias[]): void {
  fn.attributes[ALIASES] = aliases;
}

/** The version a qualifier runs: an alias's version (one of its weighted versions, by weight), else the qualifier itself. */
export function versionOfQualifier(fn: { attributes: Record<string, unknown> }, qualifier: string): string {
  const alias = aliasesOf(fn).find((candidate) => candidate.Name === qualifier);
  if (!alias) return qualifier;
  let pick = Math.random();
  for (const [version, weight] of Object.entries(alias.RoutingConfig?.AdditionalVersionWeights ?? {})) {
    pick -= weight;
    if (pick < 0) return version;
  }
  return alias.FunctionVersion;
}
