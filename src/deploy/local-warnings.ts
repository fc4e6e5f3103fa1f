/**
 * After a deploy to fw's local cloud: the parts of the stack it does not enforce
 * or emulate, as one warning block (nothing for AWS or another endpoint).
 */
export async function notEnforcedWarning(endpoint: string | undefined, stackName: string): Promise<string> {
  if (!endpoint) return '';
  let items: unknown;
  try {
    const response = await fetch(`${endpoint.replace(/\/+$/, '')}/_fw/not-enforced?stack=${encodeURIComponent(stackName)}`, { signal: AbortSignal.timeout(3_000) });
    if (!response.ok || !response.headers.has('x-fw-local')) return '';
    items = ((await response.json()) as { items?: unknown }).items;
  } catch {
    return '';
  }
  const lines = Array.isArray(items) ? [...new Set(items.map(String))] : [];
  if (lines.length === 0) return '';
  return `\nWarning: the local cloud does not enforce or emulate these parts of ${stackName} (they deploy, but do not behave as on AWS):\n${lines.map(line => `  - ${line}\n`).join('')}`;
}
