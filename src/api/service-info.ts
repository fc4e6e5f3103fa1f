import type { Stack } from '@aws-sdk/client-cloudformation';
import type { ServiceSummary } from '../deploy/summary';
import type { TemplateResource } from '../synth/template';
import type { LoadedService } from '../service/load';

/** A deployed service: what `fw info` prints, as data. */
export interface ServiceInfo {
  service: string;
  stage: string;
  region: string;
  stackName: string;
  /** The stack's status (`CREATE_COMPLETE`, `UPDATE_COMPLETE`, …). */
  status?: string;
  /** HTTP endpoints (`httpApi`, `http` events) and function URLs. */
  endpoints: Array<{ method?: string; url: string; function?: string }>;
  /** The stack's API keys and their values. */
  apiKeys: Array<{ name: string; value: string }>;
  /** Each function's key in the service file and its deployed name. */
  functions: Array<{ key: string; name: string }>;
  /** The stack's outputs, by key. */
  outputs: Record<string, string>;
  /** @internal What the commands print (src/deploy/summary.ts). */
  summary: ServiceSummary;
}

/** The summary of `loaded` deployed as `stack`. */
export function serviceInfo(
  loaded: LoadedService,
  stack: Stack | undefined,
  deployed?: ReadonlyMap<string, TemplateResource>,
  apiKeys: ServiceInfo['apiKeys'] = [],
): ServiceInfo {
  const { summarize } = require('../deploy/summary') as typeof import('../deploy/summary');
  const summary = { ...summarize(loaded, stack, deployed), ...(apiKeys.length > 0 ? { apiKeys } : {}) };
  const functionKeys = new Set(summary.functions.map(fn => fn.key));
  const endpoints = summary.endpoints.map(line => {
    // `GET - https://…/items` for a route, `hello: https://…` for a function URL.
    const route = /^(\S+) - (.+)$/.exec(line);
    if (route) return { method: route[1], url: route[2] };
    const separator = line.indexOf(': ');
    const key = line.slice(0, separator);
    return functionKeys.has(key) ? { function: key, url: line.slice(separator + 2) } : { url: line };
  });
  return {
    service: summary.service,
    stage: summary.stage,
    region: summary.region,
    stackName: summary.stack,
    status: summary.status,
    apiKeys,
    endpoints,
    functions: summary.functions,
    outputs: Object.fromEntries(summary.outputs.map(output => [output.key, output.value])),
    summary,
  };
}
