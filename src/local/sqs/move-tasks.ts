/**
 * SQS message move tasks (dead-letter queue redrive): StartMessageMoveTask, ListMessageMoveTasks and
 * CancelMessageMoveTask, with the SQS API reference's shapes. A task moves the messages its source
 * (a queue some queue names as its dead-letter target) holds when it starts, back to the queue each
 * came from or to a DestinationArn: all at once, or MaxNumberOfMessagesPerSecond a second (then it
 * can be listed RUNNING and cancelled). Each move is journaled like any send and delete; the task
 * list itself is kept in memory, so a restart forgets finished tasks and stops running ones.
 */
import { randomUUID } from 'node:crypto';
import { AwsError } from '../protocol/errors';

/** What the tasks need of the queues. */
export interface MovableQueues<Q extends { arn: string }> {
  /** A queue by ARN, or undefined. */
  find(arn: string): Q | undefined;
  /** Whether some queue's RedrivePolicy names this one as its dead-letter target. */
  isDeadLetterQueue(queue: Q): boolean;
  /** The ids of the messages a queue holds now. */
  messageIds(queue: Q): string[];
  /** Moves one message (if still there) to `to`, or to the queue it was dead-lettered from; whether it moved. */
  move(from: Q, id: string, to: Q | undefined): boolean;
}

interface MoveTask {
  taskHandle: string;
  status: 'RUNNING' | 'COMPLETED' | 'CANCELLED' | 'FAILED';
  sourceArn: string;
  destinationArn?: string;
  rate?: number;
  toMove: string[];
  moved: number;
  startedAt: number;
  failureReason?: string;
  timer?: NodeJS.Timeout;
}

const notFound = () => new AwsError('ResourceNotFoundException', "One or more specified resources don't exist.");
const invalid = (message: string) => new AwsError('InvalidParameterValue', message);

export class MessageMoveTasks<Q extends { arn: string }> {
  /** Newest first. */
  private readonly tasks: MoveTask[] = [];

  constructor(private readonly queues: MovableQueues<Q>) {}

  start(input: Record<string, unknown>): { TaskHandle: string } {
    const sourceArn = String(input.SourceArn ?? '');
    const source = this.queues.find(sourceArn);
    if (!source) throw notFound();
    if (!this.queues.isDeadLetterQueue(source)) throw invalid('Source queue must be configured as a Dead Letter Queue.');
    const destinationArn = typeof input.DestinationArn === 'string' && input.DestinationArn !== '' ? input.DestinationArn : undefined;
    const destination = destinationArn === undefined ? undefined : this.queues.find(destinationArn);
    if (destinationArn !== undefined && !destination) throw notFound();
    const rate = input.MaxNumberOfMessagesPerSecond === undefined ? undefined : Number(input.MaxNumberOfMessagesPerSecond);
    if (rate !== undefined && (!Number.isInteger(rate) || rate < 1 || rate > 500)) throw invalid('Value for parameter MaxNumberOfMessagesPerSecond is invalid. Reason: Must be between 1 and 500.');
    if (this.tasks.some((task) => task.sourceArn === sourceArn && task.status === 'RUNNING')) {
      throw invalid('There is already a task running. Only one active task is allowed for a source queue arn at a given time.');
    }
    const taskHandle = Buffer.from(JSON.stringify({ taskId: randomUUID(), sourceArn })).toString('base64');
    const task: MoveTask = { taskHandle, status: 'RUNNING', sourceArn, destinationArn, rate, toMove: this.queues.messageIds(source), moved: 0, startedAt: Date.now() };
    this.tasks.unshift(task);
    this.step(task, source, destination);
    return { TaskHandle: taskHandle };
  }

  /** Moves the next messages (all, or a second's worth), then again a second later while any remain. */
  private step(task: MoveTask, source: Q, destination: Q | undefined): void {
    if (task.status !== 'RUNNING') return;
    const batch = task.toMove.splice(0, task.rate ?? task.toMove.length);
    for (const id of batch) if (this.queues.move(source, id, destination)) task.moved += 1;
    if (task.toMove.length === 0) {
      task.status = 'COMPLETED';
      return;
    }
    task.timer = setTimeout(() => this.step(task, source, destination), 1000);
    task.timer.unref();
  }

  list(input: Record<string, unknown>): { Results: Record<string, unknown>[] } {
    const sourceArn = String(input.SourceArn ?? '');
    if (!this.queues.find(sourceArn)) throw notFound();
    const max = input.MaxResults === undefined ? 1 : Number(input.MaxResults);
    if (!Number.isInteger(max) || max < 1 || max > 10) throw invalid('Value for parameter MaxResults is invalid. Reason: Must be between 1 and 10.');
    const results = this.tasks
      .filter((task) => task.sourceArn === sourceArn)
      .slice(0, max)
      .map((task) => ({
        // The handle is given only while a task runs: it is what CancelMessageMoveTask takes.
        ...(task.status === 'RUNNING' ? { TaskHandle: task.taskHandle } : {}),
        Status: task.status,
        SourceArn: task.sourceArn,
        ...(task.destinationArn !== undefined ? { DestinationArn: task.destinationArn } : {}),
        ...(task.rate !== undefined ? { MaxNumberOfMessagesPerSecond: task.rate } : {}),
        ApproximateNumberOfMessagesMoved: task.moved,
        ApproximateNumberOfMessagesToMove: task.moved + task.toMove.length,
        ...(task.failureReason !== undefined ? { FailureReason: task.failureReason } : {}),
        StartedTimestamp: task.startedAt,
      }));
    return { Results: results };
  }

  cancel(input: Record<string, unknown>): { ApproximateNumberOfMessagesMoved: number } {
    const task = this.tasks.find((candidate) => candidate.taskHandle === input.TaskHandle);
    if (!task) throw notFound();
    if (task.status !== 'RUNNING') throw invalid('Only active tasks can be cancelled.');
    clearTimeout(task.timer);
    task.status = 'CANCELLED';
    return { ApproximateNumberOfMessagesMoved: task.moved };
  }

  stop(): void {
    for (const task of this.tasks) clearTimeout(task.timer);
  }
}
