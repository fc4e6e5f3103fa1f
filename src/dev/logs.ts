import type { AwsTarget } from '../aws/clients';

export interface LogStream {
  stop(): Promise<void>;
}

/**
 * Prints what the functions log, each line prefixed by the function's key (`[users] …`): polls
 * CloudWatch Logs' FilterLogEvents every `intervalMs` from `since` on. A function not invoked yet
 * has no log group; that is no error.
 */
export function streamFunctionLogs(
  target: AwsTarget,
  functions: () => Array<{ key: string; name: string }>,
  write: (text: string) => void,
  since = Date.now(),
  intervalMs = 500,
): LogStream {
  const { FilterLogEventsCommand } = require('@aws-sdk/client-cloudwatch-logs') as typeof import('@aws-sdk/client-cloudwatch-logs');
  const { logsClient } = require('../aws/clients') as typeof import('../aws/clients');
  const logs = logsClient(target);
  const seen = new Set<string>();
  const from = new Map<string, number>();
  const warned = new Set<string>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const readGroup = async (key: string, logGroupName: string) => {
    let nextToken: string | undefined;
    do {
      const page = await logs.send(new FilterLogEventsCommand({ logGroupName, startTime: from.get(logGroupName) ?? since, nextToken }));
      for (const event of page.events ?? []) {
        // Each read starts at the last timestamp seen (several events can share it): those seen are skipped.
        const id = `${event.logStreamName}|${event.timestamp}|${event.message}`;
        if (seen.has(id)) continue;
        seen.add(id);
        write(`[${key}] ${(event.message ?? '').replace(/\n$/, '')}\n`);
        from.set(logGroupName, Math.max(from.get(logGroupName) ?? since, event.timestamp ?? 0));
      }
      nextToken = page.nextToken;
    } while (nextToken && !stopped);
  };
  const poll = async () => {
    for (const { key, name } of functions()) {
      if (stopped) return;
      await readGroup(key, `/aws/lambda/${name}`).catch(error => {
        const problem = `${(error as Error).name}: ${(error as Error).message}`;
        if ((error as Error).name === 'ResourceNotFoundException' || warned.has(problem)) return;
        warned.add(problem);
        write(`Warning: cannot read the log of ${key}: ${problem}\n`);
      });
    }
  };
  let polling = Promise.resolve();
  const schedule = () => {
    timer = setTimeout(() => {
      polling = poll().finally(() => {
        if (!stopped) schedule();
      });
    }, intervalMs);
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await polling;
      logs.destroy();
    },
  };
}
