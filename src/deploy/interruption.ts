import type { AwsClients } from '../aws/clients';
import type { Connection } from './connect';
import { describeStack, isInProgress } from './stack';

/** How long Ctrl-C waits for the stack's status before saying what it knows. */
const STATUS_TIMEOUT_MS = 3000;

/**
 * What to tell the user after Ctrl-C during a deploy, and what to do first. With the local
 * cloud running inside the command, its running operation is stopped and rolled back (it
 * would die with the command); elsewhere CloudFormation goes on by itself. The message only
 * speaks of an operation when one was running.
 */
export async function interruptDeploy(stackName: string, connection: Connection): Promise<string> {
  if (connection.interrupt) {
    const stopped = await connection.interrupt('Stack operation cancelled: fw deploy was interrupted');
    const ours = stopped.find(operation => operation.stackName === stackName);
    if (ours) {
      const what = ours.action === 'UPDATE' ? 'update' : 'creation';
      const outcome = /_COMPLETE$/.test(ours.status) ? `rolled it back (${ours.status})` : `its rollback ended in ${ours.status}`;
      return `\nInterrupted. The local cloud stopped the ${what} of stack ${stackName} and ${outcome}; run "fw deploy" again.\n`;
    }
  }
  const status = await stackStatus(connection.clients, stackName);
  if (!connection.interrupt && isInProgress(status)) {
    return (
      `\nInterrupted. CloudFormation goes on with the operation on stack ${stackName} by itself; ` +
      `run "fw info" to see where it ends, or "fw deploy" again (it waits for the running update).\n`
    );
  }
  const where = status === undefined ? 'it does not exist' : status === 'unknown' ? 'its status could not be read' : `it is in ${status}`;
  return `\nInterrupted. No operation was running on stack ${stackName} (${where}).\n`;
}

async function stackStatus(clients: AwsClients, stackName: string): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>(resolve => (timer = setTimeout(() => resolve('unknown'), STATUS_TIMEOUT_MS)));
  const status = describeStack(clients, stackName).then(stack => (stack?.StackStatus === 'DELETE_COMPLETE' ? undefined : stack?.StackStatus), () => 'unknown');
  try {
    return await Promise.race([status, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
