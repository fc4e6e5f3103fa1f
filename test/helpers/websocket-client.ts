import WebSocket from 'ws';

/** A client connection whose messages are kept, to be waited for. */
export interface Client {
  socket: WebSocket;
  messages: string[];
  next(): Promise<string>;
  closed: Promise<{ code: number; reason: string }>;
}

export function connect(url: string): Promise<Client | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const messages: string[] = [];
    const waiting: ((message: string) => void)[] = [];
    socket.on('message', (data) => {
      const text = String(data);
      const waiter = waiting.shift();
      if (waiter) waiter(text);
      else messages.push(text);
    });
    const closed = new Promise<{ code: number; reason: string }>((done) => socket.on('close', (code, reason) => done({ code, reason: String(reason) })));
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += String(chunk)));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.on('error', (error) => reject(error));
    socket.on('open', () =>
      resolve({
        socket,
        messages,
        closed,
        next: () =>
          messages.length > 0
            ? Promise.resolve(messages.shift()!)
            : new Promise((done, fail) => {
                const timer = setTimeout(() => fail(new Error('no message within 5 s')), 5000);
                waiting.push((message) => {
                  clearTimeout(timer);
                  done(message);
                });
              }),
      }),
    );
  });
}

/** A connection the API accepted (a refusal is an error). */
export async function opened(url: string): Promise<Client> {
  const client = await connect(url);
  if (!('socket' in client)) throw new Error(`refused: ${client.status} ${client.body}`);
  return client;
}
