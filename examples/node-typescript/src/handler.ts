/** The parts of an HTTP API request (payload format 2.0) this handler reads. */
export interface HttpRequest {
  rawPath: string;
  pathParameters?: Record<string, string | undefined>;
  queryStringParameters?: Record<string, string | undefined>;
}

export interface HttpResponse {
  statusCode: number;
  headers?: Record<string, string>;
  body: string;
}

export interface Greeting {
  greeting: string;
  path: string;
}

export const hello = async (event: HttpRequest): Promise<HttpResponse> => {
  const name = event.pathParameters?.name ?? 'world';
  const punctuation = event.queryStringParameters?.excited === 'true' ? '!' : '.';
  const body: Greeting = { greeting: `Hello, ${name}${punctuation}`, path: event.rawPath };
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
};
