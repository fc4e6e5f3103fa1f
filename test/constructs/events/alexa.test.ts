import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { configErrorOf, arnOf } from './helpers';

const alexaSkill = suite('alexaSkill event');

alexaSkill('lets each skill invoke the function, numbering the function’s skills from 1', () => {
  const t = synth({
    functions: { mySkill: { handler: 'h.main', events: [{ alexaSkill: 'amzn1.ask.skill.xx' }, { alexaSkill: { appId: 'amzn1.ask.skill.yy', enabled: false } }] } },
  });
  assert.equal(t.Resources.MySkillLambdaPermissionAlexaSkill1, {
    Type: 'AWS::Lambda::Permission',
    Properties: { FunctionName: arnOf('MySkill'), Action: 'lambda:InvokeFunction', Principal: 'alexa-appkit.amazon.com', EventSourceToken: 'amzn1.ask.skill.xx' },
  });
  assert.equal(t.Resources.MySkillLambdaPermissionAlexaSkill2, {
    Type: 'AWS::Lambda::Permission',
    Properties: {
      FunctionName: arnOf('MySkill'),
      Action: 'lambda:DisableInvokeFunction',
      Principal: 'alexa-appkit.amazon.com',
      EventSourceToken: 'amzn1.ask.skill.yy',
    },
  });
});

alexaSkill('counts only alexaSkill events', () => {
  const t = synth({ functions: { s: { handler: 'h.main', events: [{ alexaSmartHome: 'amzn1.a' }, { alexaSkill: 'amzn1.b' }] } } });
  assert.ok(t.Resources.SLambdaPermissionAlexaSkill1);
  assert.ok(t.Resources.SLambdaPermissionAlexaSmartHome1);
});

alexaSkill('refuses an event without an app id (it would let any skill invoke the function)', () => {
  const message = configErrorOf(() => synth({ functions: { s: { handler: 'h.main', events: [{ alexaSkill: { enabled: true } }] } } }));
  assert.is(message, `Invalid configuration in 'functions.s.events[0].alexaSkill.appId': expected an Alexa skill id like "amzn1.ask.skill.…", got nothing`);
  const wrong = configErrorOf(() => synth({ functions: { s: { handler: 'h.main', events: [{ alexaSkill: 'not a skill id' }] } } }));
  assert.is(wrong, `Invalid configuration in 'functions.s.events[0].alexaSkill': expected an Alexa skill id like "amzn1.ask.skill.…", got "not a skill id"`);
});

alexaSkill.run();

const alexaSmartHome = suite('alexaSmartHome event');

alexaSmartHome('lets each smart home skill invoke the function', () => {
  const t = synth({
    functions: { home: { handler: 'h.main', events: [{ alexaSmartHome: 'amzn1.ask.skill.xx' }, { alexaSmartHome: { appId: 'amzn1.ask.skill.yy', enabled: false } }] } },
  });
  assert.equal(t.Resources.HomeLambdaPermissionAlexaSmartHome1, {
    Type: 'AWS::Lambda::Permission',
    Properties: {
      FunctionName: arnOf('Home'),
      Action: 'lambda:InvokeFunction',
      Principal: 'alexa-connectedhome.amazon.com',
      EventSourceToken: 'amzn1.ask.skill.xx',
    },
  });
  assert.is((t.Resources.HomeLambdaPermissionAlexaSmartHome2.Properties as Record<string, unknown>).Action, 'lambda:DisableInvokeFunction');
});

alexaSmartHome('refuses an enabled flag that is not a boolean', () => {
  const message = configErrorOf(() => synth({ functions: { s: { handler: 'h.main', events: [{ alexaSmartHome: { appId: 'amzn1.a', enabled: 'no' } }] } } }));
  assert.is(message, `Invalid configuration in 'functions.s.events[0].alexaSmartHome.enabled': expected a boolean, got "no"`);
});

alexaSmartHome.run();
