/**
 * `fw test`: Serverless v3's HTTP tests (`serverless.test.yml`, documented in v3's Dashboard
 * "Testing" guide), run against the deployed stage without the Dashboard. Each test sends one
 * request to the deployed API — `endpoint.path` (a concrete path such as `/items/1`) appended to the
 * API's URL, or the path of the function's first HTTP event — and checks the response's headers,
 * status and body, stopping at the first that differs, as v3 does.
 *
 * Where v3 fails, fw does what its guide says: `response.headers` is compared (v3 reads a field
 * its HTTP client does not have, so every such test fails), HTTP API (`httpApi`) endpoints are
 * served (v3 only knows the REST API's `ServiceEndpoint`), and a GET keeps no body (v3's client throws).
 */
import { ConfigError } from '../errors';

export const TEST_FILE = 'serverless.test.yml';

export interface HttpTest {
  name: string;
  endpoint: { function?: string; method?: string; path?: string };
  request: { headers?: Record<string, unknown>; body?: unknown; form?: Record<string, unknown> };
  /** `true`: any 2xx status. An object: what must match. Undefined: any response passes. */
  response?: true | { headers?: Record<string, unknown>; status?: number; body?: unknown };
}

/** Where a test's request goes. */
export interface TestRequestTarget {
  method: string;
  /** As the test or the function's event gives it (the summary line shows it). */
  path: string;
  url: string;
}

/** The deployed APIs: the REST API's URL (output `ServiceEndpoint`) and the HTTP API's (`HttpApiUrl`). */
export interface DeployedApis {
  rest?: string;
  http?: string;
}

export interface TestOutcome {
  test: HttpTest;
  target: TestRequestTarget;
  passed: boolean;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** The first check that failed, v3's `field`: expected and received. */
  failure?: { field: 'headers' | 'status' | 'body'; expected: unknown; received: unknown };
  /** The request could not be sent. */
  error?: string;
}

type FunctionEvents = Record<string, { events?: Array<Record<string, unknown>> } | null | undefined>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const show = (value: unknown) => JSON.stringify(value);

/** The tests of `serverless.test.yml`, checked: a mistake names the test's index and the value. */
export function parseHttpTests(spec: unknown): HttpTest[] {
  if (!Array.isArray(spec)) throw new ConfigError(`Invalid ${TEST_FILE}: expected a list of tests, got ${show(spec)}`);
  return spec.map((entry, index) => {
    const at = `${TEST_FILE}[${index}]`;
    if (!isObject(entry)) throw new ConfigError(`Invalid ${at}: expected a test object, got ${show(entry)}`);
    if (typeof entry.name !== 'string' || entry.name === '') throw new ConfigError(`Invalid ${at}.name: expected the test's name, got ${show(entry.name)}`);
    const endpoint = entry.endpoint;
    if (!isObject(endpoint) || (typeof endpoint.function !== 'string' && (typeof endpoint.method !== 'string' || typeof endpoint.path !== 'string'))) {
      throw new ConfigError(`Invalid ${at}.endpoint: expected { function } or { method, path }, got ${show(endpoint)}`);
    }
    for (const key of ['method', 'path'] as const) {
      if (endpoint[key] !== undefined && typeof endpoint[key] !== 'string') throw new ConfigError(`Invalid ${at}.endpoint.${key}: expected a string, got ${show(endpoint[key])}`);
    }
    const request = entry.request ?? {};
    if (!isObject(request)) throw new ConfigError(`Invalid ${at}.request: expected an object, got ${show(request)}`);
    for (const key of ['headers', 'form'] as const) {
      if (request[key] !== undefined && !isObject(request[key])) throw new ConfigError(`Invalid ${at}.request.${key}: expected an object, got ${show(request[key])}`);
    }
    const response = entry.response;
    if (response !== undefined && response !== null && typeof response !== 'boolean' && !isObject(response)) {
      throw new ConfigError(`Invalid ${at}.response: expected true or { status, headers, body }, got ${show(response)}`);
    }
    if (isObject(response) && response.status !== undefined && !Number.isInteger(response.status)) {
      throw new ConfigError(`Invalid ${at}.response.status: expected an HTTP status code, got ${show(response.status)}`);
    }
    if (isObject(response) && response.headers !== undefined && !isObject(response.headers)) {
      throw new ConfigError(`Invalid ${at}.response.headers: expected an object of header names and values, got ${show(response.headers)}`);
    }
    return {
      name: entry.name,
      endpoint: endpoint as HttpTest['endpoint'],
      request: { headers: request.headers as Record<string, unknown> | undefined, body: request.body, form: request.form as Record<string, unknown> | undefined },
      response: response === true ? true : isObject(response) ? { headers: response.headers as Record<string, unknown> | undefined, status: response.status as number | undefined, body: response.body } : undefined,
    };
  });
}

/** The method and path of an `http` or `httpApi` event (`'GET /items'`, `{ method, path }`, `'*'`). */
function eventRoute(config: unknown): { method: string; path: string } {
  if (config === '*') return { method: 'ANY', path: '/' };
  if (typeof config === 'string') {
    const [method, path = '/'] = config.trim().split(/\s+/);
    return { method: method === '*' ? 'ANY' : method, path };
  }
  const { method, path } = (config ?? {}) as { method?: string; path?: string };
  return { method: !method || method === '*' ? 'ANY' : method, path: path ?? '/' };
}

/** Whether a concrete path (`/items/1`) is one of a route's (`/items/{id}`, `/files/{proxy+}`). */
function routeMatches(route: string, path: string): boolean {
  const segments = (text: string) => text.replace(/^\/+|\/+$/g, '').split('/');
  const have = segments(route);
  const want = segments(path);
  for (let index = 0; index < have.length; index++) {
    if (/^\{.+\+\}$/.test(have[index])) return index === have.length - 1 && want.length > index;
    if (index >= want.length || (!/^\{.+\}$/.test(have[index]) && have[index] !== want[index])) return false;
  }
  return want.length === have.length;
}

/**
 * Where a test's request goes: `endpoint.method`/`endpoint.path` when given, else those of the
 * function's first `http`/`httpApi` event; the path appended to the URL of the API that serves it.
 */
export function testTarget(test: HttpTest, functions: FunctionEvents, apis: DeployedApis): TestRequestTarget {
  const fn = test.endpoint.function;
  let event: { type: 'http' | 'httpApi'; method: string; path: string } | undefined;
  if (fn !== undefined) {
    if (!(fn in functions)) throw new ConfigError(`Test "${test.name}": endpoint.function "${fn}" is not a function of the service`);
    for (const entry of functions[fn]?.events ?? []) {
      const type = 'http' in entry ? 'http' : 'httpApi' in entry ? 'httpApi' : undefined;
      if (type) {
        event = { type, ...eventRoute(entry[type]) };
        break;
      }
    }
    if (!event && (test.endpoint.method === undefined || test.endpoint.path === undefined)) {
      throw new ConfigError(`Test "${test.name}": function "${fn}" has no http or httpApi event: give endpoint.method and endpoint.path`);
    }
  }
  const method = (test.endpoint.method ?? event!.method).toUpperCase();
  const path = test.endpoint.path ?? event!.path;
  const type = event?.type ?? apiServing(path, functions, apis);
  const base = type === 'httpApi' ? apis.http : apis.rest;
  if (!base) {
    const output = type === 'httpApi' ? 'HttpApiUrl' : 'ServiceEndpoint';
    throw new ConfigError(`Test "${test.name}": the deployed stack has no ${type === 'httpApi' ? 'HTTP API' : 'REST API'} (no ${output} output): deploy the service first`);
  }
  const query = Object.entries(test.request.form ?? {})
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return { method, path, url: `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}${query ? `?${query}` : ''}` };
}

/** Which API serves a path given without a function: the one with a route matching it; the REST API when both or neither do. */
function apiServing(path: string, functions: FunctionEvents, apis: DeployedApis): 'http' | 'httpApi' {
  if (!apis.http) return 'http';
  if (!apis.rest) return 'httpApi';
  const served = (type: 'http' | 'httpApi') =>
    Object.values(functions).some((fn) => (fn?.events ?? []).some((entry) => type in entry && routeMatches(eventRoute(entry[type]).path, path)));
  return served('httpApi') && !served('http') ? 'httpApi' : 'http';
}

/** v3's comparison: every key an expected object names (recursively), arrays item by item with the same length, the rest `===`. */
export function subsetEquals(expected: unknown, received: unknown): boolean {
  if (typeof expected === 'object' && expected !== null) {
    if (typeof received !== 'object' || received === null) return false;
    if (Array.isArray(expected)) {
      return Array.isArray(received) && expected.length === received.length && expected.every((item, index) => subsetEquals(item, received[index]));
    }
    return Object.entries(expected).every(([key, value]) => subsetEquals(value, (received as Record<string, unknown>)[key]));
  }
  return expected === received;
}

/** Sends the test's request and checks the response: headers, then status, then body (the first difference fails it). */
export async function runHttpTest(test: HttpTest, target: TestRequestTarget): Promise<TestOutcome> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (typeof test.request.body === 'string') body = test.request.body;
  else if (test.request.body) {
    body = JSON.stringify(test.request.body);
    headers['Content-Type'] = 'application/json';
  }
  for (const [name, value] of Object.entries(test.request.headers ?? {})) headers[name] = String(value);
  let response: Response;
  let text: string;
  try {
    const bodyless = target.method === 'GET' || target.method === 'HEAD';
    response = await fetch(target.url, { method: target.method, headers, body: bodyless ? undefined : body });
    text = await response.text();
  } catch (error) {
    return { test, target, passed: false, error: `request to ${target.url} failed: ${(error as Error).message}` };
  }
  const received = Object.fromEntries(response.headers);
  const outcome = { test, target, status: response.status, headers: received, body: text };
  const fail = (field: 'headers' | 'status' | 'body', expected: unknown, got: unknown): TestOutcome => ({ ...outcome, passed: false, failure: { field, expected, received: got } });
  const expected = test.response;
  if (expected === true) return response.ok ? { ...outcome, passed: true } : fail('status', 200, response.status);
  if (expected === undefined) return { ...outcome, passed: true };
  if (expected.headers) {
    // Header names are case-insensitive; the values are compared as text.
    const wanted = Object.fromEntries(Object.entries(expected.headers).map(([name, value]) => [name.toLowerCase(), String(value)]));
    if (!subsetEquals(wanted, received)) return fail('headers', expected.headers, received);
  }
  if (expected.status && response.status !== expected.status) return fail('status', expected.status, response.status);
  if (expected.body) {
    if (typeof expected.body === 'string') {
      if (text !== expected.body) return fail('body', expected.body, text);
    } else {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return fail('body', expected.body, text);
      }
      if (!subsetEquals(expected.body, json)) return fail('body', expected.body, json);
    }
  }
  return { ...outcome, passed: true };
}

const indented = (value: unknown) => (typeof value === 'object' && value !== null ? JSON.stringify(value, null, 2).replace(/\n/g, '\n      ') : String(value));

/** v3's report: `passed|failed - METHOD path - name` per test, the details of each failure, the counts. */
export function formatOutcomes(outcomes: TestOutcome[]): string {
  const lines = ['Test Results:', '', 'Summary --------------------------------------------------', ''];
  for (const { passed, target, test } of outcomes) lines.push(`${passed ? 'passed' : 'failed'} - ${target.method} ${target.path} - ${test.name}`);
  lines.push('');
  const failed = outcomes.filter((outcome) => !outcome.passed);
  if (failed.length > 0) {
    lines.push('Details --------------------------------------------------', '');
    failed.forEach((outcome, index) => {
      lines.push(`   ${index + 1}) Failed -  ${outcome.test.name}`);
      if (outcome.error) {
        lines.push(`      ${outcome.error}`, '');
        return;
      }
      lines.push(`      status: ${outcome.status}`, '      headers:');
      for (const [name, value] of Object.entries(outcome.headers ?? {})) lines.push(`        ${name}: ${value}`);
      lines.push(`      body: ${outcome.body}`, '');
      const { field, expected, received } = outcome.failure!;
      lines.push(`      expected: ${field} = ${indented(expected)}`, `      received: ${field} = ${indented(received)}`, '');
    });
  }
  lines.push(`Test Summary: ${outcomes.length - failed.length} passed, ${failed.length} failed`);
  return `${lines.join('\n')}\n`;
}
