import type { Stack } from '@aws-sdk/client-cloudformation';
import { functionOf, type LoadedService } from '../package/load';
import * as naming from '../synth/naming';

export interface ServiceSummary {
  service: string;
  stage: string;
  region: string;
  stack: string;
  status?: string;
  endpoints: string[];
  functions: Array<{ key: string; name: string }>;
  outputs: Array<{ key: string; value: string }>;
}

const outputValue = (stack: Stack | undefined, key: string) => stack?.Outputs?.find(o => o.OutputKey === key)?.OutputValue;

/** Endpoints as a user calls them: `GET - https://…/users/{id}`, from the config's events and the stack's Outputs. */
export function summarize(loaded: LoadedService, stack: Stack | undefined): ServiceSummary {
  const endpoints: string[] = [];
  const httpApiUrl = outputValue(stack, 'HttpApiUrl');
  const restUrl = outputValue(stack, 'ServiceEndpoint');
  const functions: ServiceSummary['functions'] = [];
  for (const [key, fn] of Object.entries(loaded.config.functions ?? {})) {
    functions.push({ key, name: functionOf(loaded, key).physicalName });
    for (const event of fn.events ?? []) {
      const httpApi = event.httpApi as string | { method?: string; path?: string } | undefined;
      if (httpApi !== undefined && httpApiUrl) {
        if (httpApi === '*') endpoints.push(`ANY - ${httpApiUrl}`);
        else if (typeof httpApi === 'string') {
          const [method, path] = httpApi.split(/\s+/);
          endpoints.push(`${method.toUpperCase()} - ${httpApiUrl}${path}`);
        } else endpoints.push(`${(httpApi.method ?? 'ANY').toUpperCase()} - ${httpApiUrl}${httpApi.path ?? ''}`);
      }
      const http = event.http as string | { method?: string; path?: string } | undefined;
      if (http !== undefined && restUrl) {
        const [method, path] = typeof http === 'string' ? http.split(/\s+/) : [http.method ?? 'ANY', http.path ?? ''];
        endpoints.push(`${method.toUpperCase()} - ${restUrl}/${path.replace(/^\/+/, '')}`);
      }
    }
    const url = outputValue(stack, naming.lambdaUrl(key));
    if (url) endpoints.push(`${key}: ${url}`);
  }
  return {
    service: loaded.serviceName,
    stage: loaded.stage,
    region: loaded.region,
    stack: loaded.stackName,
    status: stack?.StackStatus,
    endpoints,
    functions,
    outputs: (stack?.Outputs ?? []).map(o => ({ key: o.OutputKey ?? '', value: o.OutputValue ?? '' })),
  };
}

export function formatSummary(summary: ServiceSummary, verbose: boolean): string {
  const lines = [
    `service: ${summary.service}`,
    `stage: ${summary.stage}`,
    `region: ${summary.region}`,
    `stack: ${summary.stack}${summary.status ? ` (${summary.status})` : ''}`,
  ];
  if (summary.endpoints.length > 0) lines.push('endpoints:', ...summary.endpoints.map(e => `  ${e}`));
  if (summary.functions.length > 0) lines.push('functions:', ...summary.functions.map(f => `  ${f.key}: ${f.name}`));
  if (verbose && summary.outputs.length > 0) lines.push('outputs:', ...summary.outputs.map(o => `  ${o.key}: ${o.value}`));
  return `${lines.join('\n')}\n`;
}
