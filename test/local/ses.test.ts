import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand, DeleteStackCommand } from '@aws-sdk/client-cloudformation';
import {
  CreateConfigurationSetCommand,
  CreateTemplateCommand,
  DeleteIdentityCommand,
  DeleteTemplateCommand,
  GetIdentityVerificationAttributesCommand,
  GetSendQuotaCommand,
  GetTemplateCommand,
  ListIdentitiesCommand,
  ListTemplatesCommand,
  SendBulkTemplatedEmailCommand,
  SendEmailCommand,
  SendRawEmailCommand,
  SendTemplatedEmailCommand,
  SESClient,
  VerifyDomainIdentityCommand,
  VerifyEmailIdentityCommand,
} from '@aws-sdk/client-ses';
import {
  CreateEmailIdentityCommand,
  CreateEmailTemplateCommand,
  DeleteEmailIdentityCommand,
  GetAccountCommand,
  GetEmailIdentityCommand,
  ListEmailIdentitiesCommand,
  SendBulkEmailCommand,
  SendEmailCommand as SendEmailV2Command,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { failure, outputsOf, settle, signatureShaped, startTestCloud, type TestCloud } from './helpers';

const REPO = join(__dirname, '..', '..', '..');
const { runtimeSdkV2 } = require(join(REPO, 'scripts', 'public-apps.js')) as { runtimeSdkV2(): string };

const MESSAGE_ID = /^[0-9a-f]{16}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-000000$/;

type Context = TestCloud & { ses: SESClient; v2: SESv2Client; lines: string[] };
const ses = suite<Context>('the local SES answers as AWS does and keeps what it sends');

ses.before.each(async (context) => {
  context.lines = [];
  Object.assign(context, await startTestCloud(undefined, { quiet: false, log: (line) => context.lines.push(line) }));
  context.ses = new SESClient({ ...context.config, maxAttempts: 1 });
  context.v2 = new SESv2Client({ ...context.config, maxAttempts: 1 });
});
ses.after.each(async (context) => {
  context.ses.destroy();
  context.v2.destroy();
  await context.stop();
});

/** An SDK failure as [name, message, status]. */
async function refusal(call: Promise<unknown>): Promise<[string, string, number | undefined]> {
  const error = await failure(call);
  if (!error) throw new Error('the call succeeded');
  return [error.name, error.message, error.$metadata?.httpStatusCode];
}

/** What GET /_fw/ses/messages lists, without the fields that vary. */
async function kept(t: TestCloud, query = ''): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${t.cloud.url}/_fw/ses/messages${query}`, { headers: signatureShaped('ses') });
  assert.is(response.status, 200);
  const { messages } = (await response.json()) as { messages: Record<string, unknown>[] };
  return messages.map(({ MessageId, Timestamp, ...rest }) => {
    assert.match(String(MessageId), MESSAGE_ID);
    assert.ok(!Number.isNaN(Date.parse(String(Timestamp))));
    return rest;
  });
}

ses('sending from an unverified address is MessageRejected as in the sandbox; VerifyEmailIdentity verifies at once and the message is kept and logged', async (t) => {
  const send = () =>
    t.ses.send(new SendEmailCommand({ Source: 'Shop <orders@shop.test>', Destination: { ToAddresses: ['ann@example.test'], BccAddresses: ['audit@shop.test'] }, Message: { Subject: { Data: 'Your order' }, Body: { Text: { Data: 'Thanks!' }, Html: { Data: '<p>Thanks!</p>' } } } }));
  assert.equal(await refusal(send()), ['MessageRejected', 'Email address is not verified. The following identities failed the check in region US-EAST-1: Shop <orders@shop.test>', 400]);
  await t.ses.send(new VerifyEmailIdentityCommand({ EmailAddress: 'orders@shop.test' }));
  assert.equal((await t.ses.send(new GetIdentityVerificationAttributesCommand({ Identities: ['orders@shop.test', 'nobody@shop.test'] }))).VerificationAttributes, { 'orders@shop.test': { VerificationStatus: 'Success' } });
  const { MessageId } = await send();
  assert.match(MessageId!, MESSAGE_ID);
  assert.equal(await kept(t), [
    {
      Region: 'us-east-1',
      Operation: 'SendEmail',
      Source: 'Shop <orders@shop.test>',
      Destination: { ToAddresses: ['ann@example.test'], CcAddresses: [], BccAddresses: ['audit@shop.test'] },
      Subject: 'Your order',
      Body: { Text: 'Thanks!', Html: '<p>Thanks!</p>' },
    },
  ]);
  assert.equal(t.lines.filter((line) => line.startsWith('SES')), ['SES email from Shop <orders@shop.test> → ann@example.test, audit@shop.test: Your order']);
  // One readable file per message in the data folder.
  const files = readdirSync(join(t.dataDir, 'ses'));
  assert.equal(files, [`${MessageId}.json`]);
  assert.is(JSON.parse(readFileSync(join(t.dataDir, 'ses', files[0]), 'utf8')).Subject, 'Your order');
  // Another region has its own identities.
  const west = new SESClient({ ...t.config, region: 'eu-west-1', maxAttempts: 1 });
  assert.equal(await refusal(west.send(new SendEmailCommand({ Source: 'orders@shop.test', Destination: { ToAddresses: ['a@b.test'] }, Message: { Subject: { Data: 's' }, Body: { Text: { Data: 'b' } } } }))), [
    'MessageRejected',
    'Email address is not verified. The following identities failed the check in region EU-WEST-1: orders@shop.test',
    400,
  ]);
  west.destroy();
  assert.equal(await t.ses.send(new GetSendQuotaCommand({})).then(({ Max24HourSend, MaxSendRate, SentLast24Hours }) => ({ Max24HourSend, MaxSendRate, SentLast24Hours })), { Max24HourSend: 200, MaxSendRate: 1, SentLast24Hours: 1 });
});

ses('a verified domain sends from any of its addresses; identities are listed by type and deleted', async (t) => {
  const { VerificationToken } = await t.ses.send(new VerifyDomainIdentityCommand({ Domain: 'shop.test' }));
  assert.match(VerificationToken!, /^[A-Za-z0-9+/]{44}$/);
  await t.ses.send(new VerifyEmailIdentityCommand({ EmailAddress: 'me@example.test' }));
  assert.equal((await t.ses.send(new ListIdentitiesCommand({}))).Identities, ['shop.test', 'me@example.test']);
  assert.equal((await t.ses.send(new ListIdentitiesCommand({ IdentityType: 'EmailAddress' }))).Identities, ['me@example.test']);
  const first = await t.ses.send(new ListIdentitiesCommand({ MaxItems: 1 }));
  assert.equal([first.Identities, (await t.ses.send(new ListIdentitiesCommand({ MaxItems: 1, NextToken: first.NextToken }))).Identities], [['shop.test'], ['me@example.test']]);
  assert.equal((await t.ses.send(new GetIdentityVerificationAttributesCommand({ Identities: ['shop.test'] }))).VerificationAttributes, { 'shop.test': { VerificationStatus: 'Success', VerificationToken } });
  const raw = ['From: "Billing" <billing@shop.test>', 'To: ann@example.test, "Bob, Jr." <bob@example.test>', 'Subject: =?UTF-8?B?w4lsw6lnYW50?= invoice', 'MIME-Version: 1.0', 'Content-Type: text/plain', '', 'Invoice attached.'].join('\r\n');
  const { MessageId } = await t.ses.send(new SendRawEmailCommand({ RawMessage: { Data: Buffer.from(raw) } }));
  assert.match(MessageId!, MESSAGE_ID);
  assert.equal(await kept(t, '?email=bob@example.test'), [
    {
      Region: 'us-east-1',
      Operation: 'SendRawEmail',
      Source: '"Billing" <billing@shop.test>',
      Destination: { ToAddresses: ['ann@example.test', '"Bob, Jr." <bob@example.test>'], CcAddresses: [], BccAddresses: [] },
      Subject: 'Élégant invoice',
      RawData: raw,
    },
  ]);
  assert.equal(await kept(t, '?email=nobody@example.test'), []);
  await t.ses.send(new DeleteIdentityCommand({ Identity: 'shop.test' }));
  assert.equal(await refusal(t.ses.send(new SendRawEmailCommand({ RawMessage: { Data: Buffer.from(raw) } }))), [
    'MessageRejected',
    'Email address is not verified. The following identities failed the check in region US-EAST-1: "Billing" <billing@shop.test>',
    400,
  ]);
  assert.equal(await refusal(t.ses.send(new SendEmailCommand({ Source: 'me@example.test', Destination: {}, Message: { Subject: { Data: 's' }, Body: { Text: { Data: 'b' } } } }))), ['InvalidParameterValue', "Missing required header 'To'.", 400]);
});

ses('templates are created, read, listed, rendered by SendTemplatedEmail and deleted, with SES errors for missing and duplicate ones', async (t) => {
  await t.ses.send(new VerifyEmailIdentityCommand({ EmailAddress: 'hello@shop.test' }));
  const template = { TemplateName: 'welcome', SubjectPart: 'Welcome, {{name}}!', TextPart: 'Hi {{name}}, your plan is {{plan.tier}}.', HtmlPart: '<h1>Hi {{name}}</h1>{{{footer}}}' };
  await t.ses.send(new CreateTemplateCommand({ Template: template }));
  assert.equal(await refusal(t.ses.send(new CreateTemplateCommand({ Template: template }))), ['AlreadyExistsException', 'Template welcome already exists.', 400]);
  assert.equal((await t.ses.send(new GetTemplateCommand({ TemplateName: 'welcome' }))).Template, template);
  const listed = await t.ses.send(new ListTemplatesCommand({}));
  assert.equal(listed.TemplatesMetadata!.map(({ Name, CreatedTimestamp }) => [Name, CreatedTimestamp instanceof Date]), [['welcome', true]]);
  const data = JSON.stringify({ name: 'Ann <3', plan: { tier: 'gold' }, footer: '<hr>' });
  await t.ses.send(new SendTemplatedEmailCommand({ Source: 'hello@shop.test', Destination: { ToAddresses: ['ann@example.test'] }, Template: 'welcome', TemplateData: data }));
  assert.equal(await kept(t), [
    {
      Region: 'us-east-1',
      Operation: 'SendTemplatedEmail',
      Source: 'hello@shop.test',
      Destination: { ToAddresses: ['ann@example.test'], CcAddresses: [], BccAddresses: [] },
      Subject: 'Welcome, Ann <3!',
      Template: 'welcome',
      TemplateData: data,
      Body: { Text: 'Hi Ann <3, your plan is gold.', Html: '<h1>Hi Ann &#x3C;3</h1><hr>' },
    },
  ]);
  // A variable the data lacks: accepted with a message id, as SES does, and kept as a rendering failure.
  await t.ses.send(new SendTemplatedEmailCommand({ Source: 'hello@shop.test', Destination: { ToAddresses: ['bob@example.test'] }, Template: 'welcome', TemplateData: '{"plan":{"tier":"free"},"footer":""}' }));
  assert.is(t.lines.at(-1), "SES email from hello@shop.test → bob@example.test: Welcome, ! (not delivered: Attribute 'name' is not present in the rendering data.)");
  assert.equal(await refusal(t.ses.send(new SendTemplatedEmailCommand({ Source: 'hello@shop.test', Destination: { ToAddresses: ['a@b.test'] }, Template: 'nope', TemplateData: '{}' }))), ['TemplateDoesNotExistException', 'Template nope does not exist.', 400]);
  assert.equal(await refusal(t.ses.send(new SendEmailCommand({ Source: 'hello@shop.test', Destination: { ToAddresses: ['a@b.test'] }, ConfigurationSetName: 'missing', Message: { Subject: { Data: 's' }, Body: { Text: { Data: 'b' } } } }))), [
    'ConfigurationSetDoesNotExistException',
    'Configuration set <missing> does not exist.',
    400,
  ]);
  await t.ses.send(new CreateConfigurationSetCommand({ ConfigurationSet: { Name: 'tracked' } }));
  await t.ses.send(new SendEmailCommand({ Source: 'hello@shop.test', Destination: { ToAddresses: ['a@b.test'] }, ConfigurationSetName: 'tracked', Message: { Subject: { Data: 's' }, Body: { Text: { Data: 'b' } } } }));
  await t.ses.send(new DeleteTemplateCommand({ TemplateName: 'welcome' }));
  assert.equal(await refusal(t.ses.send(new GetTemplateCommand({ TemplateName: 'welcome' }))), ['TemplateDoesNotExistException', 'Template welcome does not exist.', 400]);
});

ses('bulk sends (v1 SendBulkTemplatedEmail, v2 SendBulkEmail) render each destination with its replacement data over the default', async (t) => {
  await t.ses.send(new VerifyEmailIdentityCommand({ EmailAddress: 'news@shop.test' }));
  await t.ses.send(new CreateTemplateCommand({ Template: { TemplateName: 'digest', SubjectPart: '{{greeting}}, {{name}}', TextPart: 'x' } }));
  const v1 = await t.ses.send(
    new SendBulkTemplatedEmailCommand({
      Source: 'news@shop.test',
      Template: 'digest',
      DefaultTemplateData: '{"greeting":"Hello","name":"reader"}',
      Destinations: [{ Destination: { ToAddresses: ['ann@example.test'] }, ReplacementTemplateData: '{"name":"Ann"}' }, { Destination: { ToAddresses: ['bob@example.test', 'cy@example.test'] } }],
    }),
  );
  assert.equal(v1.Status!.map(({ Status, MessageId }) => [Status, MESSAGE_ID.test(MessageId!)]), [['Success', true], ['Success', true]]);
  const v2 = await t.v2.send(
    new SendBulkEmailCommand({
      FromEmailAddress: 'news@shop.test',
      DefaultContent: { Template: { TemplateName: 'digest', TemplateData: '{"greeting":"Hi","name":"you"}' } },
      BulkEmailEntries: [{ Destination: { ToAddresses: ['dee@example.test'] }, ReplacementEmailContent: { ReplacementTemplate: { ReplacementTemplateData: '{"name":"Dee"}' } } }],
    }),
  );
  assert.equal(v2.BulkEmailEntryResults!.map(({ Status }) => Status), ['SUCCESS']);
  assert.equal(t.lines.filter((line) => line.startsWith('SES')), [
    'SES email from news@shop.test → ann@example.test: Hello, Ann',
    'SES email from news@shop.test → bob@example.test, cy@example.test: Hello, reader',
    'SES email from news@shop.test → dee@example.test: Hi, Dee',
  ]);
  assert.equal(await refusal(t.ses.send(new SendBulkTemplatedEmailCommand({ Source: 'news@shop.test', Template: 'nope', DefaultTemplateData: '{}', Destinations: [{ Destination: { ToAddresses: ['a@b.test'] } }] }))), [
    'TemplateDoesNotExistException',
    'Template nope does not exist.',
    400,
  ]);
});

ses('SES v2: identities made, read, listed and deleted; SendEmail with Simple, Raw and Template content; NotFoundException and MessageRejected', async (t) => {
  assert.equal(await t.v2.send(new CreateEmailIdentityCommand({ EmailIdentity: 'team@shop.test' })).then(({ IdentityType, VerifiedForSendingStatus }) => ({ IdentityType, VerifiedForSendingStatus })), { IdentityType: 'EMAIL_ADDRESS', VerifiedForSendingStatus: true });
  const domain = await t.v2.send(new CreateEmailIdentityCommand({ EmailIdentity: 'mail.shop.test' }));
  assert.equal([domain.IdentityType, domain.DkimAttributes!.Status, domain.DkimAttributes!.Tokens!.length], ['DOMAIN', 'SUCCESS', 3]);
  assert.equal(await refusal(t.v2.send(new CreateEmailIdentityCommand({ EmailIdentity: 'team@shop.test' }))), ['AlreadyExistsException', 'Email identity team@shop.test already exist.', 400]);
  const got = await t.v2.send(new GetEmailIdentityCommand({ EmailIdentity: 'team@shop.test' }));
  assert.equal([got.IdentityType, got.VerifiedForSendingStatus, got.VerificationStatus], ['EMAIL_ADDRESS', true, 'SUCCESS']);
  assert.equal((await t.v2.send(new ListEmailIdentitiesCommand({}))).EmailIdentities, [
    { IdentityType: 'EMAIL_ADDRESS', IdentityName: 'team@shop.test', SendingEnabled: true, VerificationStatus: 'SUCCESS' },
    { IdentityType: 'DOMAIN', IdentityName: 'mail.shop.test', SendingEnabled: true, VerificationStatus: 'SUCCESS' },
  ]);
  // v1 and v2 share identities, as on AWS.
  assert.equal((await t.ses.send(new ListIdentitiesCommand({}))).Identities, ['team@shop.test', 'mail.shop.test']);
  const to = { ToAddresses: ['ann@example.test'] };
  await t.v2.send(new SendEmailV2Command({ FromEmailAddress: 'team@shop.test', Destination: to, Content: { Simple: { Subject: { Data: 'Simple' }, Body: { Text: { Data: 'plain' } } } } }));
  await t.v2.send(new SendEmailV2Command({ Content: { Raw: { Data: Buffer.from('From: news@mail.shop.test\r\nTo: ann@example.test\r\nSubject: Raw\r\n\r\nbody') } } }));
  await t.v2.send(new CreateEmailTemplateCommand({ TemplateName: 'reset', TemplateContent: { Subject: 'Reset for {{user}}', Text: 'Code {{code}}' } }));
  await t.v2.send(new SendEmailV2Command({ FromEmailAddress: 'team@shop.test', Destination: to, Content: { Template: { TemplateName: 'reset', TemplateData: '{"user":"ann","code":"1234"}' } } }));
  await t.v2.send(new SendEmailV2Command({ FromEmailAddress: 'team@shop.test', Destination: to, Content: { Template: { TemplateContent: { Subject: 'Inline {{x}}' }, TemplateData: '{"x":"yes"}' } } }));
  assert.equal(t.lines.filter((line) => line.startsWith('SES')), [
    'SES email from team@shop.test → ann@example.test: Simple',
    'SES email from news@mail.shop.test → ann@example.test: Raw',
    'SES email from team@shop.test → ann@example.test: Reset for ann',
    'SES email from team@shop.test → ann@example.test: Inline yes',
  ]);
  assert.equal((await kept(t)).map((message) => [message.Operation, message.Body]), [
    ['v2 SendEmail', { Text: 'plain' }],
    ['v2 SendEmail', undefined],
    ['v2 SendEmail', { Text: 'Code 1234' }],
    ['v2 SendEmail', {}],
  ]);
  assert.equal(await refusal(t.v2.send(new SendEmailV2Command({ FromEmailAddress: 'team@shop.test', Destination: to, Content: { Template: { TemplateName: 'nope', TemplateData: '{}' } } }))), ['NotFoundException', 'Template nope does not exist.', 404]);
  assert.equal(await refusal(t.v2.send(new SendEmailV2Command({ FromEmailAddress: 'x@other.test', Destination: to, Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 'b' } } } } }))), [
    'MessageRejected',
    'Email address is not verified. The following identities failed the check in region US-EAST-1: x@other.test',
    400,
  ]);
  assert.equal((await t.v2.send(new GetAccountCommand({}))).SendQuota, { Max24HourSend: 200, MaxSendRate: 1, SentLast24Hours: 4 });
  await t.v2.send(new DeleteEmailIdentityCommand({ EmailIdentity: 'team@shop.test' }));
  assert.equal(await refusal(t.v2.send(new GetEmailIdentityCommand({ EmailIdentity: 'team@shop.test' }))), ['NotFoundException', 'Email identity team@shop.test does not exist.', 404]);
});

ses('malformed SES v2 bodies are 400s in the REST-JSON error shape, never a 500', async (t) => {
  await t.v2.send(new CreateEmailIdentityCommand({ EmailIdentity: 'team@shop.test' }));
  const answers: string[] = [];
  for (const [path, body] of [
    ['outbound-emails', 'null'],
    ['outbound-emails', '[]'],
    ['outbound-emails', '{"Content":1}'],
    ['outbound-emails', '{"FromEmailAddress":"team@shop.test","Content":{"Simple":{"Subject":{"Data":1}}}}'],
    ['outbound-emails', '{"FromEmailAddress":"team@shop.test","Destination":{"ToAddresses":"x"},"Content":{"Simple":{"Subject":{"Data":"s"}}}}'],
    ['outbound-emails', '{"FromEmailAddress":7,"Content":{"Raw":{"Data":"eA=="}}}'],
    ['outbound-emails', '{"Content":{"Template":{"TemplateName":["x"]}},"FromEmailAddress":"team@shop.test"}'],
    ['outbound-emails', '{"Content":{"Raw":{"Data":"eA=="}},"EmailTags":[null]}'],
    ['identities', '{"EmailIdentity":5}'],
    ['identities', '{"EmailIdentity":"a@b.test","Tags":{"k":"v"}}'],
    ['templates', '{"TemplateName":"t","TemplateContent":"x"}'],
  ]) {
    const response = await fetch(`${t.cloud.url}/v2/email/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...signatureShaped('ses') }, body });
    answers.push(`${response.status} ${response.headers.get('x-amzn-errortype')}`);
  }
  assert.equal(answers, [
    '400 SerializationException',
    '400 SerializationException',
    '400 BadRequestException',
    '400 BadRequestException',
    '400 BadRequestException',
    '400 BadRequestException',
    '400 BadRequestException',
    '400 BadRequestException',
    '400 BadRequestException',
    '400 BadRequestException',
    '400 BadRequestException',
  ]);
});

ses('aws-sdk v2 (AWS.SES, the query protocol) verifies, sends and reads templates; identities and messages survive a restart', async (t) => {
  process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
  const AWS = require(join(runtimeSdkV2(), 'aws-sdk')) as {
    SES: new (options: Record<string, unknown>) => Record<string, (params: Record<string, unknown>) => { promise(): Promise<Record<string, unknown>> }>;
  };
  const client = new AWS.SES({ endpoint: t.cloud.url, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, maxRetries: 0 });
  await client.verifyEmailIdentity({ EmailAddress: 'v2@shop.test' }).promise();
  const { MessageId } = await client.sendEmail({ Source: 'v2@shop.test', Destination: { ToAddresses: ['ann@example.test'] }, Message: { Subject: { Data: 'From v2' }, Body: { Text: { Data: 'hi' } } } }).promise();
  assert.match(String(MessageId), MESSAGE_ID);
  await client.createTemplate({ Template: { TemplateName: 'v2', SubjectPart: 'S {{a}}', TextPart: 'T' } }).promise();
  assert.equal((await client.getTemplate({ TemplateName: 'v2' }).promise()).Template, { TemplateName: 'v2', SubjectPart: 'S {{a}}', TextPart: 'T' });
  assert.equal((await client.getIdentityVerificationAttributes({ Identities: ['v2@shop.test'] }).promise()).VerificationAttributes, { 'v2@shop.test': { VerificationStatus: 'Success' } });
  const error = await failure(client.sendEmail({ Source: 'no@shop.test', Destination: { ToAddresses: ['a@b.test'] }, Message: { Subject: { Data: 's' }, Body: { Text: { Data: 'b' } } } }).promise());
  assert.equal([(error as Error & { code?: string }).code, error!.message], ['MessageRejected', 'Email address is not verified. The following identities failed the check in region US-EAST-1: no@shop.test']);
  await t.cloud.stop();
  const again = await startTestCloud(t.dataDir);
  const restarted = new SESClient({ ...again.config, maxAttempts: 1 });
  assert.equal((await restarted.send(new ListIdentitiesCommand({}))).Identities, ['v2@shop.test']);
  assert.equal((await kept(again)).map((message) => message.Subject), ['From v2']);
  restarted.destroy();
  await again.stop({ keepData: true });
});

ses('a stack makes AWS::SES::EmailIdentity, Template and ConfigurationSet (Ref and DKIM attributes as CloudFormation returns them) and removes them', async (t) => {
  const template = {
    Resources: {
      Sender: { Type: 'AWS::SES::EmailIdentity', Properties: { EmailIdentity: 'noreply@app.test' } },
      Domain: { Type: 'AWS::SES::EmailIdentity', Properties: { EmailIdentity: 'app.test' } },
      Welcome: { Type: 'AWS::SES::Template', Properties: { Template: { TemplateName: 'stack-welcome', SubjectPart: 'Hello {{name}}', TextPart: 'Welcome' } } },
      Unnamed: { Type: 'AWS::SES::Template', Properties: { Template: { SubjectPart: 'x' } } },
      Tracking: { Type: 'AWS::SES::ConfigurationSet', Properties: { Name: 'stack-tracking' } },
    },
    Outputs: {
      Sender: { Value: { Ref: 'Sender' } },
      Welcome: { Value: { Ref: 'Welcome' } },
      Unnamed: { Value: { Ref: 'Unnamed' } },
      Tracking: { Value: { Ref: 'Tracking' } },
      DkimName: { Value: { 'Fn::GetAtt': ['Domain', 'DkimDNSTokenName1'] } },
      DkimValue: { Value: { 'Fn::GetAtt': ['Domain', 'DkimDNSTokenValue1'] } },
    },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'mail', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(t.cfn, 'mail');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE', stack.StackStatusReason);
  const outputs = outputsOf(stack);
  assert.equal([outputs.Sender, outputs.Welcome, outputs.Tracking], ['noreply@app.test', 'stack-welcome', 'stack-tracking']);
  assert.match(outputs.Unnamed, /^mail-Unnamed-[A-Z0-9]{13}$/);
  const token = outputs.DkimName.split('._domainkey.')[0];
  assert.equal([outputs.DkimName, outputs.DkimValue], [`${token}._domainkey.app.test`, `${token}.dkim.amazonses.com`]);
  await t.ses.send(new SendTemplatedEmailCommand({ Source: 'noreply@app.test', Destination: { ToAddresses: ['ann@example.test'] }, Template: 'stack-welcome', TemplateData: '{"name":"Ann"}', ConfigurationSetName: 'stack-tracking' }));
  assert.is(t.lines.filter((line) => line.startsWith('SES')).at(-1), 'SES email from noreply@app.test → ann@example.test: Hello Ann');
  await t.cfn.send(new DeleteStackCommand({ StackName: 'mail' }));
  assert.is((await settle(t.cfn, stack.StackId!)).StackStatus, 'DELETE_COMPLETE');
  assert.equal((await t.ses.send(new ListIdentitiesCommand({}))).Identities, []);
  assert.equal((await t.ses.send(new ListTemplatesCommand({}))).TemplatesMetadata, []);
});

ses.run();
