/** A service file with `count` functions, each answering one HTTP API route and one REST path. */
export function manyFunctions(count: number, options: { extra?: string; provider?: string; names?: (i: number) => string } = {}): string {
  const name = options.names ?? ((i: number) => `fn${i}`);
  const functions = Array.from({ length: count }, (_, i) => `  ${name(i)}:
    handler: handler.main
    events:
      - httpApi: 'GET /h/${name(i)}'
      - http: GET r/${name(i)}
`).join('');
  return `service: big
provider:
  name: aws
  runtime: nodejs20.x
${options.provider ?? ''}functions:
${functions}${options.extra ?? ''}`;
}

export const HANDLER = `exports.main = async (event) => ({ statusCode: 200, body: JSON.stringify({ path: event.rawPath ?? event.path }) });\n`;
