import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFw } from '../helpers/cli';

/** A 3-service application: a queue, an API given the queue's URL as a param, and an independent topic. */
export const QUEUE_SERVICE = `service: compose-queue
provider:
  name: aws
  runtime: nodejs20.x
resources:
  Resources:
    JobsQueue:
      Type: AWS::SQS::Queue
  Outputs:
    QueueUrl:
      Value: { Ref: JobsQueue }
`;

export const API_SERVICE = `service: compose-api
provider:
  name: aws
  runtime: nodejs20.x
  environment:
    QUEUE_URL: \${param:queueUrl}
functions:
  queue:
    handler: handler.queue
    events:
      - httpApi: GET /queue
`;

export const API_HANDLER = `exports.queue = async () => ({ statusCode: 200, body: JSON.stringify({ queueUrl: process.env.QUEUE_URL }) });\n`;

export const TOPIC_SERVICE = (name: string) => `service: compose-topic
provider:
  name: aws
  runtime: nodejs20.x
resources:
  Resources:
    Alerts:
      Type: AWS::SNS::Topic
      Properties:
        TopicName: ${name}
`;

export const COMPOSE_FILE = `services:
  queue:
    path: queue
  api:
    path: api
    params:
      queueUrl: \${queue.QueueUrl}
  topic:
    path: topic
`;

export function writeApplication(dir: string, compose = COMPOSE_FILE): void {
  for (const [folder, files] of Object.entries({
    queue: { 'fw.yml': QUEUE_SERVICE },
    api: { 'fw.yml': API_SERVICE, 'handler.js': API_HANDLER },
    topic: { 'fw.yml': TOPIC_SERVICE('alerts') },
  })) {
    mkdirSync(join(dir, folder), { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, folder, name), text);
  }
  writeFileSync(join(dir, 'fw-compose.yml'), compose);
}

/** The summary lines of a run (`queue  deployed (1.2 s)`), durations left out. */
export const outcomes = (stdout: string) =>
  stdout.split('\n').filter(line => /^\S+ {2,}\w/.test(line)).map(line => line.replace(/ \(\d+\.\d s\)/, '').replace(/ {2,}/, ' '));

/** fw's CLI in `cwd`, in plain text (uvu sets FORCE_COLOR). */
export const fw = (args: string[], cwd: string) => runFw(args, cwd, { NO_COLOR: '1' });

