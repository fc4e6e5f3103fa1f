import { localCredentials } from '../local/access/credentials';
import { signedLocalFetch } from '../local/access/sign';
interface DeployReport {
  notEnforced?: unknown;
  loadBalancers?: { listener?: unknown; url?: unknown }[];
}

/**
 * After a deploy to fw's local cloud: the load balancer listeners and, as one warning block, the parts of the stack the local cloud
 * does not enforce or emulate. Nothing for AWS or another endpoint.
 */
export async function localDeployReport(endpoint: string | undefined, stackName: string): Promise<string> {
  if (!endpoint) return '';
  let report: DeployReport;
  try {
    const url = `${endpoint.replace(/\/+$/, '')}/_fw/deploy-report?stack=${encodeURIComponent(stackName)}`;
    const response = await signedLocalFetch(url, { signal: AbortSignal.timeout(3_000) }, localCredentials().signWith);
    if (!response.ok || !response.headers.has('x-fw-local')) return '';
    report = (await response.json()) as DeployReport;
  } catch {
    return '';
  }
  // The API keys are in the deploy's summary, read from API Gateway as on AWS.
  let text = '';
  const listeners = Array.isArray(report.loadBalancers) ? report.loadBalancers : [];
  if (listeners.length > 0) text += `load balancer listeners:\n${listeners.map(listener => `  ${String(listener.listener)}: ${String(listener.url)}\n`).join('')}`;
  const lines = Array.isArray(report.notEnforced) ? [...new Set(report.notEnforced.map(String))] : [];
  if (lines.length > 0) {
    text += `\nWarning: the local cloud does not enforce or emulate these parts of ${stackName} (they deploy, but do not behave as on AWS):\n`;
    text += lines.map(line => `  - ${line}\n`).join('');
  }
  return text;
}
