/**
 * `fw test`: Serverless v3's HTTP tests (`serverless.test.yml`, documented in v3's Dashboard
 * "Testing" guide), run against the deployed stage without the Dashboard: each test sends one
 * request to a function's HTTP endpoint and checks the status and body of the response.
 */
import { isDeepStrictEqual } from 'node:util';
import { ConfigError } from '../errors';

export const TEST_FILE = 'serverless.test.yml';

export interface HttpTest {
  name: string;
  endpoint: { function?: string; method?: string; path?: string };
  request: { headers?: Record<string, string>; body?: unknown; form?: Record<string, unknown> };
  /** Undefined: any response passes. */
  response?: { status?: number; body?: unknown };
}

/** An HTTP endpoint of the deployed service: the function it runs, its method and path, its URL. */
export interface HttpEndpoint {
  function: string;
  method: string;
  path: string;
  url: string;
}

export interface TestOutcome {
  test: HttpTest;
  method: string;
  passed: boolean;
  status?: number;
  /** Why it failed: the expected and received values, or the request's error. */
  details: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The tests of `serverless.test.yml`, checked: a mistake names the test's index and the value. */
export function parseHttpTests(spec: unknown): HttpTest[] {
  if (!Array.isArray(spec)) throw new ConfigError(`Invalid ${TEST_FILE}: expected a list of tests, got ${JSON.stringify(spec)}`);
  return spec.map((entry, index) => {
    const at = `${TEST_FILE}[${index}]`;
    if (!isObject(entry)) throw new ConfigError(`Invalid ${at}: expected a test object, got ${JSON.stringify(entry)}`);
    if (typeof entry.name !== 'string' || entry.name === '') throw new ConfigError(`Invalid ${at}.name: expected the test's name, got ${JSON.stringify(entry.name)}`);
    const endpoint = entry.endpoint;
    if (!isObject(endpoint) || (typeof endpoint.function !== 'string' && (typeof endpoint.method !== 'string' || typeof endpoint.path !== 'string'))) {
      throw new ConfigError(`Invalid ${at}.endpoint: expected { function } or { method, path }, got ${JSON.stringify(endpoint)}`);
    }
    const request = entry.request ?? {};
    if (!isObject(request)) throw new ConfigError(`Invalid ${at}.request: expected an object, got ${JSON.stringify(request)}`);
    if (request.headers !== undefined && !isObject(request.headers)) throw new ConfigError(`Invalid ${at}.request.headers: expected an object, got ${JSON.stringify(request.headers)}`);
    if (request.form !== undefined && !isObject(request.form)) throw new ConfigError(`Invalid ${at}.request.form: expected an object, got ${JSON.stringify(request.form)}`);
    const response = entry.response;
    if (response !== undefined && response !== true && response !== false && !isObject(response)) {
      throw new ConfigError(`Invalid ${at}.response: expected true or { status, body }, got ${JSON.stringify(response)}`);
    }
    if (isObject(response) && response.status !== undefined && !Number.isInteger(response.status)) {
      throw new ConfigError(`Invalid ${at}.response.status: expected an HTTP status code, got ${JSON.stringify(response.status)}`);
    }
    return {
      name: entry.name,
      endpoint: endpoint as HttpTest['endpoint'],
      request: { headers: request.headers as Record<string, string> | undefined, body: request.body, form: request.form as Record<string, unknown> | undefined },
      // `response: true` is `{ status: 200 }`, as v3's guide says.
      response: response === true ? { status: 200 } : isObject(response) ? { status: response.status as number | undefined, body: response.body } : undefined,
    };
  });
}

/** The endpoint a test calls: its function's only fixed one, or the one with its method and path. */
export function endpointFor(test: HttpTest, endpoints: HttpEndpoint[]): HttpEndpoint {
  const { function: fn, method, path } = test.endpoint;
  const samePath = (a: string, b: string) => a.replace(/^\/+|\/+$/g, '') === b.replace(/^\/+|\/+$/g, '');
  if (method !== undefined && path !== undefined) {
    const found = endpoints.find(endpoint => endpoint.method === method.toUpperCase() && samePath(endpoint.path, path) && (fn === undefined || endpoint.function === fn));
    if (!found) throw new ConfigError(`Test "${test.name}": the deployed service has no endpoint ${method.toUpperCase()} ${path}${fn ? ` for function ${fn}` : ''}`);
    return found;
  }
  const own = endpoints.filter(endpoint => endpoint.function === fn);
  if (own.length !== 1 || own[0].method === 'ANY' || own[0].path.includes('{')) {
    const listed = own.length === 0 ? 'none' : own.map(endpoint => `${endpoint.method} ${endpoint.path}`).join(', ');
    throw new ConfigError(`Test "${test.name}": endpoint.function "${fn}" needs exactly one HTTP endpoint with a fixed method and path (it has ${listed}): give endpoint.method and endpoint.path`);
  }
  return own[0];
}

/** Sends the test's request and checks the response. */
export async function runHttpTest(test: HttpTest, endpoint: HttpEndpoint): Promise<TestOutcome> {
  const url = new URL(endpoint.url);
  for (const [name, value] of Object.entries(test.request.form ?? {})) url.searchParams.append(name, String(value));
  const headers: Record<string, string> = { ...test.request.headers };
  let body: string | undefined;
  if (typeof test.request.body === 'string') body = test.request.body;
  else if (test.request.body !== undefined) {
    body = JSON.stringify(test.request.body);
    if (!Object.keys(headers).some(name => name.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  }
  const outcome = { test, method: endpoint.method };
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method: endpoint.method, headers, body: endpoint.method === 'GET' || endpoint.method === 'HEAD' ? undefined : body });
    text = await response.text();
  } catch (error) {
    return { ...outcome, passed: false, details: [`request to ${url.href} failed: ${(error as Error).message}`] };
  }
  const details: string[] = [];
  const expected = test.response;
  if (expected?.status !== undefined && response.status !== expected.status) details.push(`expected: status = ${expected.status}`, `received: status = ${response.status}`);
  if (expected?.body !== undefined && !bodyMatches(expected.body, text)) {
    details.push(`expected: body = ${display(expected.body)}`, `received: body = ${display(parsedOr(text))}`);
  }
  return { ...outcome, passed: details.length === 0, status: response.status, details };
}

function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A string is the exact text; anything else is JSON the response holds: an object's keys compared one by one, the rest whole. */
function bodyMatches(expected: unknown, text: string): boolean {
  if (typeof expected === 'string') return text === expected;
  const received = parsedOr(text);
  if (isObject(expected)) return isObject(received) && Object.entries(expected).every(([key, value]) => isDeepStrictEqual(received[key], value));
  return isDeepStrictEqual(received, expected);
}

const display = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value, null, 2).replace(/\n/g, '\n       '));

/** v3's report: a summary line per test, the details of each failure, the counts. */
export function formatOutcomes(outcomes: TestOutcome[]): string {
  const lines = ['Test Results:', '', '  Summary --------------------------------------------------', ''];
  for (const outcome of outcomes) lines.push(`  ${outcome.passed ? 'passed' : 'failed'} - ${outcome.method} ${outcome.test.endpoint.function ?? outcome.test.endpoint.path} - ${outcome.test.name}`);
  const failed = outcomes.filter(outcome => !outcome.passed);
  if (failed.length > 0) {
    lines.push('', '  Details --------------------------------------------------', '');
    failed.forEach((outcome, index) => {
      lines.push(`  ${index + 1}) Failed - ${outcome.test.name}`);
      if (outcome.status !== undefined) lines.push(`     status: ${outcome.status}`);
      for (const detail of outcome.details) lines.push(`     ${detail}`);
      lines.push('');
    });
  } else lines.push('');
  lines.push(`Test Summary: ${outcomes.length - failed.length} passed, ${failed.length} failed`);
  return `${lines.join('\n')}\n`;
}

/** The functions' `http` and `httpApi` endpoints at the deployed APIs' URLs (the stack's `ServiceEndpoint` and `HttpApiUrl` outputs). */
export function httpEndpoints(functions: Record<string, { events?: Array<Record<string, unknown>> }>, outputs: Record<string, string>): HttpEndpoint[] {
  const endpoints: HttpEndpoint[] = [];
  for (const [key, fn] of Object.entries(functions)) {
    for (const event of fn.events ?? []) {
      for (const [type, base] of [['http', outputs.ServiceEndpoint], ['httpApi', outputs.HttpApiUrl]] as const) {
        const config = event[type] as string | { method?: string; path?: string } | undefined;
        if (config === undefined || !base) continue;
        const [method, path] = config === '*' ? ['ANY', '/'] : typeof config === 'string' ? config.split(/\s+/) : [config.method ?? 'ANY', config.path ?? '/'];
        const upper = method === '*' ? 'ANY' : method.toUpperCase();
        const relative = path.replace(/^\/+/, '');
        endpoints.push({ function: key, method: upper, path: `/${relative}`, url: `${base.replace(/\/+$/, '')}/${relative}` });
      }
    }
  }
  return endpoints;
}
