import { CloudError, ConfigError, show } from '../errors';

/**
 * How long fw waits on an AWS endpoint. The request time-out is for silence, not for the whole
 * request: it fires when no byte flows on the connection for that long, so a large upload that keeps
 * sending is never cut, while an endpoint that accepts the connection and never answers is.
 */
export interface AwsTimeouts {
  /** Seconds to establish the TCP (and TLS) connection. */
  connectSeconds: number;
  /** Seconds without any data flowing, either way, before a request is abandoned. */
  requestSeconds: number;
}

export const DEFAULT_TIMEOUTS: AwsTimeouts = { connectSeconds: 10, requestSeconds: 60 };

/**
 * A timed-out request gets one more attempt, after the SDK's standard backoff; a second time-out is
 * final. Six attempts (what fw allows throttled calls) would keep a user staring at a silent endpoint
 * for six minutes.
 */
export const TIMEOUT_ATTEMPTS = 2;

/** The time-outs from FW_AWS_CONNECT_TIMEOUT and FW_AWS_REQUEST_TIMEOUT (seconds), else the defaults. */
export function awsTimeouts(env: NodeJS.ProcessEnv = process.env): AwsTimeouts {
  return {
    connectSeconds: seconds(env, 'FW_AWS_CONNECT_TIMEOUT', DEFAULT_TIMEOUTS.connectSeconds),
    requestSeconds: seconds(env, 'FW_AWS_REQUEST_TIMEOUT', DEFAULT_TIMEOUTS.requestSeconds),
  };
}

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`Invalid environment variable ${name}: expected a number of seconds greater than 0, got ${show(text)}`);
  return value;
}

/** The client settings that apply the time-outs: connection and socket-idle limits of the SDK's Node.js HTTP handler. */
export function timeoutSettings(timeouts: AwsTimeouts): { requestHandler: { connectionTimeout: number; socketTimeout: number } } {
  return { requestHandler: { connectionTimeout: timeouts.connectSeconds * 1000, socketTimeout: timeouts.requestSeconds * 1000 } };
}

/**
 * An SDK client with fw's time-outs: `create` gets the HTTP handler settings to spread into the
 * client's config, and the client reports its second time-out on a call in one line.
 */
export function withTimeouts<Client extends { middlewareStack: unknown }>(create: (settings: ReturnType<typeof timeoutSettings>) => Client): Client {
  const timeouts = awsTimeouts();
  return reportTimeouts(create(timeoutSettings(timeouts)), timeouts);
}

interface Middleware {
  add(
    middleware: (next: (args: unknown) => Promise<unknown>, context: { clientName?: string; commandName?: string }) => (args: unknown) => Promise<unknown>,
    options: { step: 'deserialize'; name: string; priority: 'low' },
  ): void;
}

/**
 * Makes a client's second time-out on one call a one-line error naming the service, the operation
 * and the endpoint: `CloudFormation DescribeStacks at http://127.0.0.1:4566 did not answer within 60 s`.
 * It sits inside the SDK's retry loop (the deserialize step runs once per attempt), so the first
 * time-out is retried as the standard retry mode does, and the final error is not retried again.
 */
export function reportTimeouts<Client extends { middlewareStack: unknown }>(client: Client, timeouts: AwsTimeouts): Client {
  (client.middlewareStack as Middleware).add(
    (next, context) => async args => {
      try {
        return await next(args);
      } catch (error) {
        if ((error as Error)?.name !== 'TimeoutError') throw error;
        const counted = context as { fwTimeouts?: number };
        counted.fwTimeouts = (counted.fwTimeouts ?? 0) + 1;
        if (counted.fwTimeouts < TIMEOUT_ATTEMPTS) throw error;
        const operation = `${(context.clientName ?? 'AWS').replace(/Client$/, '')} ${(context.commandName ?? 'request').replace(/Command$/, '')}`;
        const where = endpointOf((args as { request?: RequestTarget }).request);
        const connecting = /establish a connection/.test((error as Error).message);
        throw new CloudError(
          connecting
            ? `${operation} at ${where} could not connect within ${timeouts.connectSeconds} s (${counted.fwTimeouts} attempts; FW_AWS_CONNECT_TIMEOUT sets the limit)`
            : `${operation} at ${where} did not answer within ${timeouts.requestSeconds} s (${counted.fwTimeouts} attempts; FW_AWS_REQUEST_TIMEOUT sets the limit)`,
        );
      }
    },
    { step: 'deserialize', name: 'fwReportTimeouts', priority: 'low' },
  );
  return client;
}

interface RequestTarget {
  protocol?: string;
  hostname?: string;
  port?: number;
}

const endpointOf = (request: RequestTarget | undefined) =>
  request?.hostname ? `${request.protocol ?? 'https:'}//${request.hostname}${request.port ? `:${request.port}` : ''}` : 'the endpoint';
