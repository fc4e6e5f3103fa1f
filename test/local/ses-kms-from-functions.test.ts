import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { outputsOf, settle, signatureShaped, startTestCloud, zip, type TestCloud } from './helpers';

/**
 * What serverless apps do with SES and KMS: a function sends a confirmation email and seals a code,
 * with the SDK v3 clients Lambda's Node.js runtime provides (the function ships none) and no endpoint
 * configuration, to an identity, a key and an alias its own stack declares.
 */
const HANDLER = `
const { SESClient, SendEmailCommand } = require('@aws-sdk/client-ses');
const { KMSClient, EncryptCommand, DecryptCommand } = require('@aws-sdk/client-kms');
const ses = new SESClient({});
const kms = new KMSClient({});
exports.handler = async (event) => {
  const { MessageId } = await ses.send(new SendEmailCommand({
    Source: process.env.SENDER,
    Destination: { ToAddresses: [event.email] },
    Message: { Subject: { Data: 'Confirm your address' }, Body: { Text: { Data: 'Your code is ' + event.code } } },
  }));
  const sealed = await kms.send(new EncryptCommand({ KeyId: process.env.KEY, Plaintext: Buffer.from(event.code), EncryptionContext: { user: event.email } }));
  const opened = await kms.send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob, EncryptionContext: { user: event.email } }));
  return { sent: MessageId.length > 0, keyArn: sealed.KeyId, code: Buffer.from(opened.Plaintext).toString() };
};`;

const functions = suite<{ t: TestCloud; lines: string[] }>('functions send email through SES and seal secrets with KMS, declared by their stack');

functions.before(async (context) => {
  context.lines = [];
  context.t = await startTestCloud(undefined, { log: (line) => context.lines.push(line) });
});
functions.after(async ({ t }) => {
  await t.stop();
});

functions('a function with no SDK of its own sends through the local SES and encrypts with the stack’s key by its alias', async ({ t, lines }) => {
  await t.s3.send(new CreateBucketCommand({ Bucket: 'code' }));
  await t.s3.send(new PutObjectCommand({ Bucket: 'code', Key: 'signup.zip', Body: await zip({ 'handler.js': HANDLER }) }));
  const template = {
    Resources: {
      Sender: { Type: 'AWS::SES::EmailIdentity', Properties: { EmailIdentity: 'noreply@signup.test' } },
      Key: { Type: 'AWS::KMS::Key', Properties: { Description: 'signup codes' } },
      Alias: { Type: 'AWS::KMS::Alias', Properties: { AliasName: 'alias/signup', TargetKeyId: { Ref: 'Key' } } },
      Fn: {
        Type: 'AWS::Lambda::Function',
        Properties: {
          FunctionName: 'signup',
          Handler: 'handler.handler',
          Runtime: 'nodejs20.x',
          Role: 'r',
          Code: { S3Bucket: 'code', S3Key: 'signup.zip' },
          Environment: { Variables: { SENDER: { Ref: 'Sender' }, KEY: { Ref: 'Alias' } } },
        },
      },
    },
    Outputs: { KeyArn: { Value: { 'Fn::GetAtt': ['Key', 'Arn'] } } },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'signup', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(t.cfn, 'signup');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE', stack.StackStatusReason);
  const lambda = new LambdaClient({ ...t.config, maxAttempts: 1 });
  const answer = await lambda.send(new InvokeCommand({ FunctionName: 'signup', Payload: Buffer.from(JSON.stringify({ email: 'ann@example.test', code: '4711' })) }));
  lambda.destroy();
  assert.equal([answer.FunctionError, JSON.parse(Buffer.from(answer.Payload!).toString())], [undefined, { sent: true, keyArn: outputsOf(stack).KeyArn, code: '4711' }]);
  assert.ok(lines.includes('SES email from noreply@signup.test → ann@example.test: Confirm your address'), lines.join('\n'));
  const response = await fetch(`${t.cloud.url}/_fw/ses/messages?email=ann@example.test`, { headers: signatureShaped('ses') });
  const { messages } = (await response.json()) as { messages: { Body: { Text: string } }[] };
  assert.equal(messages.map((message) => message.Body), [{ Text: 'Your code is 4711' }]);
});

functions.run();
