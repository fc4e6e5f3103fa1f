import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session } from 'node:http2';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What an HTTP/2 client sends first when it speaks HTTP/2 without TLS ("prior knowledge"). */
const PREFACE = Buffer.from('PRI');

/**
 * Lets the local cloud's HTTP/1.1 server answer HTTP/2 cleartext too, on the same port: the AWS SDK's
 * Kinesis client (and others with event streams) speaks HTTP/2 by default, to an `http://` endpoint
 * as well. Each new connection's first bytes decide: the HTTP/2 preface goes to an HTTP/2 server
 * whose requests reach the same handler (with `host` taken from `:authority`), anything else to the
 * HTTP/1.1 server as before.
 */
export function acceptHttp2Cleartext(server: Server, handle: (req: IncomingMessage, res: ServerResponse) => void): void {
  const http2 = createHttp2Server();
  const sessions = new Set<ServerHttp2Session>();
  http2.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  http2.on('request', (req: Http2ServerRequest, res: Http2ServerResponse) => {
    req.headers.host ??= req.headers[':authority'];
    handle(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  });
  const http1 = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  /** Connections that have sent nothing yet: neither server's time-outs cover them. */
  const undecided = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    undecided.add(socket);
    const silence = setTimeout(() => socket.destroy(), server.headersTimeout || 60_000);
    silence.unref();
    const settle = () => {
      clearTimeout(silence);
      undecided.delete(socket);
    };
    socket.once('close', settle);
    const decide = () => {
      const start = socket.read() as Buffer | null;
      if (start === null) return socket.once('readable', decide);
      socket.unshift(start);
      if (start.length < PREFACE.length && PREFACE.subarray(0, start.length).equals(start)) return socket.once('readable', decide);
      settle();
      socket.off('close', settle);
      if (start.subarray(0, PREFACE.length).equals(PREFACE)) http2.emit('connection', socket);
      else for (const listener of http1) listener.call(server, socket);
      return undefined;
    };
    socket.once('readable', decide);
  });
  // Stopping the server ends HTTP/2 sessions and silent connections too, which closeAllConnections() does not know of.
  const closeAll = server.closeAllConnections.bind(server);
  server.closeAllConnections = () => {
    closeAll();
    for (const session of sessions) session.destroy();
    for (const socket of undecided) socket.destroy();
  };
}
