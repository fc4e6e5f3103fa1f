import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for CloudFormation's pre-signed response URL, collecting what a custom
 * resource handler answers.
 */
export async function responseUrl(): Promise<{ url: string; bodies: any[]; close: () => void }> {
  const bodies: any[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', chunk => (text += chunk));
    req.on('end', () => {
      bodies.push(JSON.parse(text));
      res.end();
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/answer`, bodies, close: () => server.close() };
}
