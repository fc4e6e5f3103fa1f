import { Option } from 'clipanion';
import { GlobalCommand } from './global-command';

export class GenerateEventCommand extends GlobalCommand {
  static override paths = [['generate-event']];
  static override usage = GlobalCommand.Usage({
    description: 'Print a sample Lambda event of an AWS event source, as JSON',
    details: `
      Types: aws:alexaSkill, aws:alexaSmartHome, aws:apiGateway, aws:cloudWatch, aws:cloudWatchLog, aws:cognitoUserPool, aws:dynamo, aws:iot, aws:kinesis, aws:s3, aws:sns, aws:sqs, aws:websocket. --body is the message, request body or record data of apiGateway, cloudWatchLog, kinesis, sns, sqs and websocket; a JSON object set on the event for alexaSkill, alexaSmartHome, cloudWatch and cognitoUserPool (dynamo: on the record's dynamodb; iot: the whole message); aws:s3 takes none. Events the local cloud sends are built as it builds them.
    `,
    examples: [
      ['Print an SQS event', '$0 generate-event -t aws:sqs'],
      ['A Kinesis record whose data is a JSON document, saved for fw invoke', `$0 generate-event -t aws:kinesis -b '{"foo": "bar"}' > event.json`],
    ],
  });

  type = Option.String('--type,-t', { required: true, description: 'The event type, e.g. aws:sqs' });
  body = Option.String('--body,-b', { description: 'The message, request body or record data (see the details)' });

  async run(): Promise<number> {
    const { generateEvent, EVENT_TYPES } = require('../event-samples/samples') as typeof import('../event-samples/samples');
    const event = generateEvent(this.type, this.body);
    if (this.body !== undefined && EVENT_TYPES[this.type].use === 'none') this.context.stderr.write(`${this.type} has no body: --body is not used\n`);
    this.context.stdout.write(`${JSON.stringify(event)}\n`);
    return 0;
  }
}
