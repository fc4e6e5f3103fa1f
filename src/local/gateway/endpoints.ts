/**
 * Where AWS endpoints answer locally. A stack's outputs keep the real AWS form
 * (`https://abc123.execute-api.us-east-1.amazonaws.com/dev`), so the template
 * engine stays faithful and state does not depend on the port; they are
 * rewritten to the local server's URL whenever they are shown.
 */
export const EXECUTE_API_PREFIX = '/_fw/execute-api/';
export const LAMBDA_URL_PREFIX = '/_fw/lambda-url/';

export function localizeEndpoints(text: string, baseUrl: string): string {
  return text
    .replace(/https:\/\/([a-z0-9]+)\.execute-api\.[a-z0-9-]+\.amazonaws\.com/g, (_, id: string) => `${baseUrl}${EXECUTE_API_PREFIX}${id}`)
    // WebSocket APIs are served on the same port: wss:// becomes ws://.
    .replace(/wss:\/\/([a-z0-9]+)\.execute-api\.[a-z0-9-]+\.amazonaws\.com/g, (_, id: string) => `${baseUrl.replace(/^http/, 'ws')}${EXECUTE_API_PREFIX}${id}`)
    .replace(/https:\/\/([a-z0-9]+)\.lambda-url\.[a-z0-9-]+\.on\.aws/g, (_, id: string) => `${baseUrl}${LAMBDA_URL_PREFIX}${id}`)
    // SQS clients send to the host of the QueueUrl they are given, whatever their endpoint says.
    .replace(/https:\/\/sqs\.[a-z0-9-]+\.amazonaws\.com\/(\d{12})\//g, (_, account: string) => `${baseUrl}/${account}/`);
}
