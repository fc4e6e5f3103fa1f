/** CloudFormation's quotas for one stack, which the local cloud enforces too. */
export const LIMITS = {
  resources: 500,
  outputs: 200,
  parameters: 200,
  /** A template read from S3 (TemplateURL), in bytes. */
  templateBytes: 1_000_000,
} as const;

/** The size of a template as `fw package` writes it (pretty-printed JSON). */
export const templateBytes = (template: unknown) => Buffer.byteLength(JSON.stringify(template, null, 2));

/** The limits a template goes over, as phrases for a message; empty when it fits. */
export function limitsExceeded(template: { Resources: object; Outputs?: object; Parameters?: object }, text?: string): string[] {
  const over: string[] = [];
  const resources = Object.keys(template.Resources).length;
  const outputs = Object.keys(template.Outputs ?? {}).length;
  const parameters = Object.keys(template.Parameters ?? {}).length;
  if (resources > LIMITS.resources) over.push(`${resources} resources (limit ${LIMITS.resources})`);
  if (outputs > LIMITS.outputs) over.push(`${outputs} outputs (limit ${LIMITS.outputs})`);
  if (parameters > LIMITS.parameters) over.push(`${parameters} parameters (limit ${LIMITS.parameters})`);
  // Pretty-printing a large template costs time: only when the compact text is not clearly small enough.
  if (text === undefined && (over.length > 0 || JSON.stringify(template).length * 2 < LIMITS.templateBytes)) return over;
  // A character is at most three UTF-8 bytes: a text that short fits without counting them.
  if (text !== undefined && text.length * 3 <= LIMITS.templateBytes) return over;
  const bytes = text === undefined ? templateBytes(template) : Buffer.byteLength(text);
  if (bytes > LIMITS.templateBytes) over.push(`${bytes} bytes (limit ${LIMITS.templateBytes})`);
  return over;
}
