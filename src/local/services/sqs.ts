import { createHash, randomUUID } from 'node:crypto';
import { AwsError } from '../aws/errors';
import type { LocalCloud } from '../cloud';
import { localizeEndpoints } from '../gateway/endpoints';
import { jsonResponse, type LocalResponse } from '../http';

interface Message {
  MessageId: string;
  ReceiptHandle: string;
  Body: string;
  MD5OfBody: string;
  Attributes: Record<string, string>;
}

const JSON_10 = 'application/x-amz-json-1.0';

/**
 * SQS (JSON 1.0): a message sent to a queue that an event source mapping reads
 * invokes that function at once; other messages wait, in memory, for ReceiveMessage.
 */
export class SqsApi {
  private readonly waiting = new Map<string, Message[]>();

  constructor(private readonly cloud: LocalCloud) {}

  /** A queue by URL (AWS's form or this server's: only `/<account>/<name>` counts), name or ARN. */
  private queue(url: unknown) {
    const path = typeof url === 'string' ? /^https?:\/\/[^/]+(\/\d{12}\/[^/]+)$/.exec(url)?.[1] : undefined;
    const found = this.cloud
      .resources('AWS::SQS::Queue')
      .find(({ record }) => record.physicalId === url || record.attributes.QueueName === url || record.attributes.Arn === url || (path !== undefined && record.physicalId.endsWith(path)));
    if (!found) throw new AwsError('AWS.SimpleQueueService.NonExistentQueue', 'The specified queue does not exist.');
    return found;
  }

  handle(operation: string, input: Record<string, unknown>): LocalResponse {
    switch (operation) {
      case 'GetQueueUrl':
        return jsonResponse({ QueueUrl: localizeEndpoints(this.queue(input.QueueName).record.physicalId, this.cloud.baseUrl) }, 200, JSON_10);
      case 'ListQueues':
        return jsonResponse({ QueueUrls: this.cloud.resources('AWS::SQS::Queue').map(({ record }) => localizeEndpoints(record.physicalId, this.cloud.baseUrl)) }, 200, JSON_10);
      case 'SendMessage':
        return jsonResponse(this.send(input.QueueUrl, String(input.MessageBody ?? '')), 200, JSON_10);
      case 'ReceiveMessage': {
        const { record } = this.queue(input.QueueUrl);
        const messages = this.waiting.get(record.physicalId) ?? [];
        const taken = messages.splice(0, Math.min(Number(input.MaxNumberOfMessages ?? 1), 10));
        return jsonResponse(taken.length ? { Messages: taken } : {}, 200, JSON_10);
      }
      case 'DeleteMessage':
        this.queue(input.QueueUrl);
        return jsonResponse({}, 200, JSON_10);
      default:
        throw new AwsError('UnsupportedOperation', `The local cloud does not implement SQS ${operation}`);
    }
  }

  private send(url: unknown, body: string): Record<string, unknown> {
    const { stack, record } = this.queue(url);
    const message: Message = {
      MessageId: randomUUID(),
      ReceiptHandle: randomUUID(),
      Body: body,
      MD5OfBody: createHash('md5').update(body).digest('hex'),
      Attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: this.cloud.accountId, ApproximateFirstReceiveTimestamp: String(Date.now()) },
    };
    const queueArn = String(record.attributes.Arn);
    const mapping = this.cloud
      .resources('AWS::Lambda::EventSourceMapping')
      .find(({ record: candidate }) => candidate.properties.EventSourceArn === queueArn && candidate.properties.Enabled !== false && candidate.properties.Enabled !== 'false');
    if (mapping) {
      this.cloud.functions.invokeAsync(String(mapping.record.properties.FunctionName), {
        Records: [
          {
            messageId: message.MessageId,
            receiptHandle: message.ReceiptHandle,
            body,
            attributes: message.Attributes,
            messageAttributes: {},
            md5OfBody: message.MD5OfBody,
            eventSource: 'aws:sqs',
            eventSourceARN: queueArn,
            awsRegion: stack.region,
          },
        ],
      });
    } else {
      const queue = this.waiting.get(record.physicalId) ?? [];
      queue.push(message);
      this.waiting.set(record.physicalId, queue);
    }
    return { MessageId: message.MessageId, MD5OfMessageBody: message.MD5OfBody };
  }
}
