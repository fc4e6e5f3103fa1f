import type { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import type { AwsTarget } from '../aws/clients';
import { streamFunctionLogs, type LogStream } from './logs';

/** StartLiveTail takes at most this many log groups per session: more functions, more sessions. */
export const GROUPS_PER_SESSION = 10;

export interface LiveTailOptions {
  /** The account the log groups are in (their ARNs need it); asked of STS when absent. */
  account?: string;
  /** How often the function list is checked for changes, and the fall-back's polling interval (default 500 ms). */
  intervalMs?: number;
  /** The Logs client (tests pass one for a fake endpoint); made from the target otherwise. */
  client?: CloudWatchLogsClient;
}

/** `arn:aws:logs:eu-west-1:123456789012:log-group:/aws/lambda/app-dev-hello` (aws-cn and aws-us-gov by region). */
export function logGroupArn(region: string, account: string, name: string): string {
  const partition = region.startsWith('cn-') ? 'aws-cn' : region.startsWith('us-gov-') ? 'aws-us-gov' : 'aws';
  return `arn:${partition}:logs:${region}:${account}:log-group:${name}`;
}

/** Whether an error from StartLiveTail means the endpoint does not serve it (an emulator), rather than a passing failure. */
function notServed(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  const status = $metadata?.httpStatusCode;
  return (
    status === 404 ||
    status === 501 ||
    /UnknownOperation|InvalidAction|NotImplemented|UnsupportedOperation/i.test(name ?? '') ||
    (error as { code?: string }).code === 'ENOTFOUND'
  );
}

/**
 * Prints what the functions log, each line prefixed by the function's key (`[users] …`), through
 * CloudWatch Logs Live Tail: one StartLiveTail session per 10 functions, started again when the
 * functions change or a session ends (they time out after 3 hours). Where the endpoint does not
 * serve StartLiveTail (the local cloud, other emulators), it says so once and polls
 * FilterLogEvents instead.
 */
export function tailFunctionLogs(
  target: AwsTarget,
  functions: () => Array<{ key: string; name: string }>,
  write: (text: string) => void,
  options: LiveTailOptions = {},
): LogStream {
  const { StartLiveTailCommand } = require('@aws-sdk/client-cloudwatch-logs') as typeof import('@aws-sdk/client-cloudwatch-logs');
  const intervalMs = options.intervalMs ?? 500;
  const since = Date.now();
  let client = options.client;
  const ownClient = !client;
  let stopped = false;
  let fallback: LogStream | undefined;
  let sessions: AbortController | undefined;
  let running = Promise.resolve();
  let current = '';
  let timer: NodeJS.Timeout | undefined;
  const warned = new Set<string>();
  const warn = (text: string) => {
    if (warned.has(text)) return;
    warned.add(text);
    write(`Warning: ${text}\n`);
  };

  const accountOf = async (): Promise<string> => {
    if (options.account) return options.account;
    const { STSClient, GetCallerIdentityCommand } = require('@aws-sdk/client-sts') as typeof import('@aws-sdk/client-sts');
    const { sdkConfig } = require('../aws/clients') as typeof import('../aws/clients');
    const sts = new STSClient(sdkConfig(target));
    try {
      return (await sts.send(new GetCallerIdentityCommand({}))).Account ?? '';
    } finally {
      sts.destroy();
    }
  };

  /** One session for up to 10 functions; ends when aborted, throws when it cannot start. */
  const session = async (group: Array<{ key: string; name: string }>, account: string, signal: AbortSignal): Promise<void> => {
    const keyOf = new Map<string, string>();
    for (const fn of group) {
      const name = `/aws/lambda/${fn.name}`;
      keyOf.set(name, fn.key);
      keyOf.set(logGroupArn(target.region, account, name), fn.key);
    }
    const response = await client!.send(new StartLiveTailCommand({ logGroupIdentifiers: group.map(fn => logGroupArn(target.region, account, `/aws/lambda/${fn.name}`)) }), {
      abortSignal: signal,
    });
    for await (const event of response.responseStream ?? []) {
      if (signal.aborted) return;
      for (const result of event.sessionUpdate?.sessionResults ?? []) {
        const group = result.logGroupIdentifier ?? '';
        const key = keyOf.get(group) ?? keyOf.get(group.slice(group.indexOf('log-group:') + 'log-group:'.length)) ?? group;
        write(`[${key}] ${(result.message ?? '').replace(/\n$/, '')}\n`);
      }
    }
  };

  const start = async (list: Array<{ key: string; name: string }>) => {
    sessions?.abort();
    await running;
    if (stopped || fallback || list.length === 0) return;
    const controller = new AbortController();
    sessions = controller;
    let account: string;
    try {
      account = await accountOf();
    } catch (error) {
      if (notServed(error)) return usePolling(error);
      return warn(`cannot find the account of the functions' log groups: ${(error as Error).message}; their logs are not shown`);
    }
    const groups: Array<Array<{ key: string; name: string }>> = [];
    for (let i = 0; i < list.length; i += GROUPS_PER_SESSION) groups.push(list.slice(i, i + GROUPS_PER_SESSION));
    running = Promise.all(
      groups.map(async group => {
        while (!controller.signal.aborted && !stopped) {
          try {
            await session(group, account, controller.signal);
          } catch (error) {
            if (controller.signal.aborted || stopped) return;
            if (notServed(error)) return usePolling(error);
            warn(`Live Tail of ${group.map(fn => fn.key).join(', ')}: ${(error as Error).name}: ${(error as Error).message}`);
            // Not straight away: a log group not created yet keeps failing until the next deploy.
            await new Promise(resolve => setTimeout(resolve, 5_000).unref());
          }
        }
      }),
    ).then(() => undefined);
  };

  const usePolling = (error: unknown) => {
    if (fallback || stopped) return;
    sessions?.abort();
    write(`Live Tail is not available at ${target.endpoint ?? 'this endpoint'} (${(error as Error).name}): reading the logs with FilterLogEvents every ${intervalMs} ms\n`);
    fallback = streamFunctionLogs(target, functions, write, since, intervalMs);
  };

  const check = () => {
    if (stopped || fallback) return;
    const list = functions();
    const signature = list.map(fn => `${fn.key}=${fn.name}`).join(',');
    if (signature !== current) {
      current = signature;
      if (!client) {
        const { logsClient } = require('../aws/clients') as typeof import('../aws/clients');
        client = logsClient(target);
      }
      void start(list);
    }
    timer = setTimeout(check, intervalMs);
  };
  check();

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      sessions?.abort();
      await running;
      await fallback?.stop();
      if (ownClient) client?.destroy();
    },
  };
}
