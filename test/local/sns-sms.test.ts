import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CheckIfPhoneNumberIsOptedOutCommand, GetSMSAttributesCommand, ListPhoneNumbersOptedOutCommand, OptInPhoneNumberCommand, SetSMSAttributesCommand, SNSClient } from '@aws-sdk/client-sns';
import { failure, startTestCloud } from './helpers';

const sms = suite('local SNS text-message settings and opted-out numbers');

sms('SetSMSAttributes keeps the account settings GetSMSAttributes returns, across a restart', async () => {
  let t = await startTestCloud();
  let sns = new SNSClient({ ...t.config, maxAttempts: 1 });
  try {
    assert.equal((await sns.send(new GetSMSAttributesCommand({}))).attributes, {});
    await sns.send(new SetSMSAttributesCommand({ attributes: { DefaultSMSType: 'Transactional', DefaultSenderID: 'Shop', MonthlySpendLimit: '5' } }));
    await sns.send(new SetSMSAttributesCommand({ attributes: { MonthlySpendLimit: '10' } }));
    assert.equal((await sns.send(new GetSMSAttributesCommand({}))).attributes, { DefaultSMSType: 'Transactional', DefaultSenderID: 'Shop', MonthlySpendLimit: '10' });
    assert.equal((await sns.send(new GetSMSAttributesCommand({ attributes: ['DefaultSMSType'] }))).attributes, { DefaultSMSType: 'Transactional' });
    const badType = await failure(sns.send(new SetSMSAttributesCommand({ attributes: { DefaultSMSType: 'Urgent' } })));
    assert.equal([badType!.name, badType!.message], ['InvalidParameterException', 'Invalid parameter: DefaultSMSType Reason: Urgent is not a valid value']);
    const unknown = await failure(sns.send(new SetSMSAttributesCommand({ attributes: { Colour: 'blue' } })));
    assert.equal([unknown!.name, unknown!.message], ['InvalidParameterException', 'Invalid parameter: Colour Reason: is not a valid attribute']);
    sns.destroy();
    await t.stop({ keepData: true });
    t = await startTestCloud(t.dataDir);
    sns = new SNSClient({ ...t.config, maxAttempts: 1 });
    assert.equal((await sns.send(new GetSMSAttributesCommand({ attributes: ['MonthlySpendLimit'] }))).attributes, { MonthlySpendLimit: '10' });
  } finally {
    sns.destroy();
    await t.stop();
  }
});

sms('no number is opted out until one is in the state; OptInPhoneNumber takes it off the list', async () => {
  // No text leaves the local cloud, so none is answered STOP: the opted-out number is put in the state as SNS keeps it.
  const dataDir = mkdtempSync(join(tmpdir(), 'fw-local-'));
  mkdirSync(join(dataDir, 'state'));
  const settings = { logicalId: 'us-east-1', type: 'AWS::SNS::SMSSettings', physicalId: 'us-east-1', status: 'CREATE_COMPLETE', timestamp: new Date().toISOString(), properties: { attributes: {}, optedOut: ['+15555550100'] }, attributes: {}, emulated: true };
  writeFileSync(join(dataDir, 'state', 'api-resources.json'), JSON.stringify([{ region: 'us-east-1', record: settings }]));
  const t = await startTestCloud(dataDir);
  const sns = new SNSClient({ ...t.config, maxAttempts: 1 });
  try {
    const optedOut = async (phoneNumber: string) => (await sns.send(new CheckIfPhoneNumberIsOptedOutCommand({ phoneNumber }))).isOptedOut;
    assert.equal([await optedOut('+15555550100'), await optedOut('+15555550199')], [true, false]);
    assert.equal((await sns.send(new ListPhoneNumbersOptedOutCommand({}))).phoneNumbers, ['+15555550100']);
    await sns.send(new OptInPhoneNumberCommand({ phoneNumber: '+15555550100' }));
    assert.equal([await optedOut('+15555550100'), (await sns.send(new ListPhoneNumbersOptedOutCommand({}))).phoneNumbers], [false, []]);
    const malformed = await failure(sns.send(new CheckIfPhoneNumberIsOptedOutCommand({ phoneNumber: 'call me' })));
    assert.equal([malformed!.name, malformed!.message], ['InvalidParameterException', 'Invalid parameter: PhoneNumber Reason: input incorrectly formatted']);
  } finally {
    sns.destroy();
    await t.stop();
  }
});

sms.run();
