import type { Stack } from '@aws-sdk/client-cloudformation';
import { functionOf, type LoadedService } from '../service/load';
import * as naming from '../synth/naming';
import type { TemplateResource } from '../synth/template';

export interface ServiceSummary {
  service: string;
  stage: string;
  region: string;
  stack: string;
  status?: string;
  /** What the status means for what is listed, when the last operation did not end well. */
  statusNote?: string;
  /** API keys and their values (`fw info`), as `serverless info` lists them. */
  apiKeys?: Array<{ name: string; value: string }>;
  endpoints: string[];
  functions: Array<{ key: string; name: string }>;
  outputs: Array<{ key: string; value: string }>;
}

const outputValue = (stack: Stack | undefined, key: string) => stack?.Outputs?.find(o => o.OutputKey === key)?.OutputValue;

/**
 * Endpoints as a user calls them: `GET - https://…/users/{id}`, from the config's events and the stack's Outputs.
 * Given the resources deployed (`fw info`), only the functions and routes the stack really has are listed,
 * with the deployed names, plus deployed functions the service file no longer has.
 */
export function summarize(loaded: LoadedService, stack: Stack | undefined, deployed?: ReadonlyMap<string, TemplateResource>): ServiceSummary {
  const endpoints: string[] = [];
  const httpApiUrl = outputValue(stack, 'HttpApiUrl');
  const restUrl = outputValue(stack, 'ServiceEndpoint');
  const functions: ServiceSummary['functions'] = [];
  const isDeployed = (logicalId: string) => !deployed || deployed.has(logicalId);
  const listed = new Set<string>();
  for (const [key, fn] of Object.entries(loaded.config.functions ?? {})) {
    const logicalId = naming.lambdaFunction(key);
    if (!isDeployed(logicalId)) continue;
    listed.add(logicalId);
    functions.push({ key, name: deployedName(deployed?.get(logicalId)) ?? functionOf(loaded, key).physicalName });
    for (const event of fn.events ?? []) {
      const httpApi = event.httpApi as string | { method?: string; path?: string } | undefined;
      if (httpApi !== undefined && httpApiUrl) {
        const [method, path] = httpApi === '*' ? ['ANY', ''] : typeof httpApi === 'string' ? httpApi.split(/\s+/) : [httpApi.method ?? 'ANY', httpApi.path ?? ''];
        const route = httpApi === '*' ? '*' : `${method === 'ANY' ? '*' : method} ${path}`;
        if (isDeployed(naming.httpApiRoute(route))) endpoints.push(`${method.toUpperCase()} - ${httpApiUrl}${path}`);
      }
      const http = event.http as string | { method?: string; path?: string } | undefined;
      if (http !== undefined && restUrl) {
        const [method, path] = typeof http === 'string' ? http.split(/\s+/) : [http.method ?? 'ANY', http.path ?? ''];
        if (isDeployed(naming.restApiMethod(path, method))) endpoints.push(`${method.toUpperCase()} - ${restUrl}/${path.replace(/^\/+/, '')}`);
      }
    }
    const url = outputValue(stack, naming.lambdaUrl(key));
    if (url) endpoints.push(`${key}: ${url}`);
  }
  // A WebSocket API has one URL (`wss://…/<stage>`; `ws://…` from a local cloud), listed as Serverless Framework lists it.
  const websocketUrl = outputValue(stack, naming.websocketsEndpointOutput());
  if (websocketUrl) endpoints.push(websocketUrl);
  for (const [logicalId, resource] of deployed ?? []) {
    // Functions fw adds for custom resources are fw's, not the service's.
    if (resource.Type !== 'AWS::Lambda::Function' || listed.has(logicalId) || logicalId.startsWith('CustomDashresource')) continue;
    functions.push({ key: logicalId.replace(/LambdaFunction$/, ''), name: deployedName(resource) ?? logicalId });
  }
  const note = statusNote(stack?.StackStatus);
  return {
    service: loaded.serviceName,
    stage: loaded.stage,
    region: loaded.region,
    stack: loaded.stackName,
    status: stack?.StackStatus,
    ...(note ? { statusNote: note } : {}),
    endpoints,
    functions,
    outputs: (stack?.Outputs ?? []).map(o => ({ key: o.OutputKey ?? '', value: o.OutputValue ?? '' })),
  };
}

const deployedName = (resource: TemplateResource | undefined) => {
  const name = (resource?.Properties as { FunctionName?: unknown } | undefined)?.FunctionName;
  return typeof name === 'string' ? name : undefined;
};

/** What a status that is not a plain success says about the stack's content. */
function statusNote(status: string | undefined): string | undefined {
  if (!status) return undefined;
  if (status === 'ROLLBACK_COMPLETE') return 'the first deploy failed and was rolled back: nothing is deployed; run "fw remove" before deploying again';
  if (status === 'UPDATE_ROLLBACK_COMPLETE') return 'the last deploy failed and was rolled back: listed below is what was deployed before it';
  if (status.endsWith('_FAILED')) return `the last operation failed (${status}): resources may be partly changed; listed below is what the stack holds`;
  if (status.endsWith('_IN_PROGRESS')) return 'an operation is in progress: listed below is the stack as it stands now';
  return undefined;
}

export function formatSummary(summary: ServiceSummary, verbose: boolean): string {
  const lines = [
    `service: ${summary.service}`,
    `stage: ${summary.stage}`,
    `region: ${summary.region}`,
    `stack: ${summary.stack}${summary.status ? ` (${summary.status})` : ''}`,
  ];
  if (summary.statusNote) lines.push(`note: ${summary.statusNote}`);
  if (summary.apiKeys?.length) lines.push('api keys:', ...summary.apiKeys.map(key => `  ${key.name}: ${key.value}`));
  if (summary.endpoints.length > 0) lines.push('endpoints:', ...summary.endpoints.map(e => `  ${e}`));
  if (summary.functions.length > 0) lines.push('functions:', ...summary.functions.map(f => `  ${f.key}: ${f.name}`));
  if (verbose && summary.outputs.length > 0) lines.push('outputs:', ...summary.outputs.map(o => `  ${o.key}: ${o.value}`));
  return `${lines.join('\n')}\n`;
}
