import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { configErrorOf, arnOf } from './helpers';

const iot = suite('iot event');

iot('creates a topic rule that invokes the function, and the permission for it', () => {
  const t = synth({ functions: { myIoT: { handler: 'h.main', events: [{ iot: { sql: "SELECT * FROM 'a'" } }] } } });
  assert.equal(t.Resources.MyIoTIotTopicRule1, {
    Type: 'AWS::IoT::TopicRule',
    Properties: {
      TopicRulePayload: { RuleDisabled: false, Sql: "SELECT * FROM 'a'", Actions: [{ Lambda: { FunctionArn: arnOf('MyIoT') } }] },
    },
  });
  assert.equal(t.Resources.MyIoTLambdaPermissionIotTopicRule1, {
    Type: 'AWS::Lambda::Permission',
    Properties: {
      FunctionName: arnOf('MyIoT'),
      Action: 'lambda:InvokeFunction',
      Principal: 'iot.amazonaws.com',
      SourceArn: {
        'Fn::Join': [
          '',
          ['arn:', { Ref: 'AWS::Partition' }, ':iot:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':rule/', { Ref: 'MyIoTIotTopicRule1' }],
        ],
      },
    },
  });
});

iot('names, describes, versions and disables rules as configured, numbering them per function', () => {
  const t = synth({
    functions: {
      myIoT: {
        handler: 'h.main',
        events: [
          { iot: { sql: 'SELECT 1', enabled: false } },
          { iot: { name: 'myRule', sql: 'SELECT 2', description: 'd', sqlVersion: 'beta' } },
        ],
      },
    },
  });
  assert.is((t.Resources.MyIoTIotTopicRule1.Properties as any).TopicRulePayload.RuleDisabled, true);
  assert.equal(t.Resources.MyIoTIotTopicRule2.Properties, {
    TopicRulePayload: {
      RuleDisabled: false,
      Sql: 'SELECT 2',
      Actions: [{ Lambda: { FunctionArn: arnOf('MyIoT') } }],
      Description: 'd',
      AwsIotSqlVersion: 'beta',
    },
    RuleName: 'myRule',
  });
});

iot('refuses a rule without SQL and an unknown SQL version', () => {
  const sql = configErrorOf(() => synth({ functions: { f: { handler: 'h.main', events: [{ iot: { name: 'x' } }] } } }));
  assert.is(sql, `Invalid configuration in 'functions.f.events[0].iot.sql': expected a string, got nothing`);
  const version = configErrorOf(() => synth({ functions: { f: { handler: 'h.main', events: [{ iot: { sql: 'SELECT 1', sqlVersion: '2020' } }] } } }));
  assert.match(version, `'functions.f.events[0].iot.sqlVersion': expected one of "2015-10-08", "2016-03-23", or "beta", got "2020"`);
});

iot.run();

const fleet = suite('iotFleetProvisioning event');

fleet('creates a provisioning template whose pre-provisioning hook is the function', () => {
  const t = synth({
    functions: {
      validate: {
        handler: 'h.main',
        events: [
          {
            iotFleetProvisioning: {
              templateName: 'Bulb',
              templateBody: { Parameters: { SerialNumber: { Type: 'String' } } },
              provisioningRoleArn: 'arn:aws:iam::1:role/provisioning',
              enabled: false,
            },
          },
        ],
      },
    },
  });
  assert.equal(t.Resources.ValidateIotProvisioningTemplate, {
    Type: 'AWS::IoT::ProvisioningTemplate',
    Properties: {
      Enabled: false,
      PreProvisioningHook: { TargetArn: arnOf('Validate') },
      ProvisioningRoleArn: 'arn:aws:iam::1:role/provisioning',
      TemplateBody: '{"Parameters":{"SerialNumber":{"Type":"String"}}}',
      TemplateName: 'Bulb',
    },
    DependsOn: ['ValidateLambdaPermissionIotProvisioningTemplate'],
  });
  assert.equal(t.Resources.ValidateLambdaPermissionIotProvisioningTemplate, {
    Type: 'AWS::Lambda::Permission',
    Properties: { FunctionName: arnOf('Validate'), Action: 'lambda:InvokeFunction', Principal: 'iot.amazonaws.com' },
  });
});

fleet('is enabled unless disabled, and accepts a role from an intrinsic', () => {
  const t = synth({
    functions: { v: { handler: 'h.main', events: [{ iotFleetProvisioning: { templateBody: {}, provisioningRoleArn: { 'Fn::GetAtt': ['Role', 'Arn'] } } }] } },
  });
  assert.equal(t.Resources.VIotProvisioningTemplate.Properties, {
    Enabled: true,
    PreProvisioningHook: { TargetArn: arnOf('V') },
    ProvisioningRoleArn: { 'Fn::GetAtt': ['Role', 'Arn'] },
    TemplateBody: '{}',
  });
});

fleet('refuses a second template on one function (the reference keeps only the last)', () => {
  const event = { iotFleetProvisioning: { templateBody: {}, provisioningRoleArn: 'arn:aws:iam::1:role/r' } };
  const message = configErrorOf(() => synth({ functions: { v: { handler: 'h.main', events: [event, event] } } }));
  assert.is(message, `Invalid configuration in 'functions.v.events[1].iotFleetProvisioning': a function can have only one iotFleetProvisioning event (another is at 'functions.v.events[0].iotFleetProvisioning')`);
});

fleet('refuses a template body that is not an object', () => {
  const message = configErrorOf(() =>
    synth({ functions: { v: { handler: 'h.main', events: [{ iotFleetProvisioning: { templateBody: '{}', provisioningRoleArn: 'arn:aws:iam::1:role/r' } }] } } }),
  );
  assert.is(message, `Invalid configuration in 'functions.v.events[0].iotFleetProvisioning.templateBody': expected the provisioning template as an object, got "{}"`);
});

fleet.run();
