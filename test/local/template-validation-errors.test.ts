import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand, UpdateStackCommand, ValidateTemplateCommand } from '@aws-sdk/client-cloudformation';
import { settle, startTestCloud, type TestCloud } from './helpers';

const validation = suite<TestCloud>('CloudFormation refuses malformed templates with the messages AWS gives (ValidateTemplate, CreateStack, UpdateStack)');

const group = (properties: Record<string, unknown> = {}) => ({ Type: 'AWS::Logs::LogGroup', Properties: properties });
const template = (sections: Record<string, unknown>) => JSON.stringify(sections);

const CASES: [string, string, string][] = [
  ['an unknown Ref target', template({ Resources: { Logs: group({ LogGroupName: { Ref: 'Missing' } }) } }), 'Template format error: Unresolved resource dependencies [Missing] in the Resources block of the template'],
  ['an unknown Fn::GetAtt target', template({ Resources: { Logs: group({ LogGroupName: { 'Fn::GetAtt': ['Nowhere', 'Arn'] } }) } }), 'Template format error: Unresolved resource dependencies [Nowhere] in the Resources block of the template'],
  ['Fn::GetAtt with neither a list nor Name.Attribute', template({ Resources: { Logs: group({ LogGroupName: { 'Fn::GetAtt': { Name: 'x' } } }) } }), 'Template error: every Fn::GetAtt object requires two non-empty parameters'],
  ['Fn::GetAtt with one item', template({ Resources: { Logs: group({ LogGroupName: { 'Fn::GetAtt': ['Logs'] } }) } }), 'Template error: every Fn::GetAtt object requires two non-empty parameters'],
  ['Fn::Join with three items', template({ Resources: { Logs: group({ LogGroupName: { 'Fn::Join': ['-', ['a'], 'b'] } }) } }), 'Template error: every Fn::Join object requires two parameters, (1) a string delimiter and (2) a list of strings to be joined or a function that returns a list of strings (such as Fn::GetAZs) to be joined.'],
  ['Fn::Join of a string', template({ Resources: { Logs: group({ LogGroupName: { 'Fn::Join': ['-', 'ab'] } }) } }), 'Template error: every Fn::Join object requires two parameters, (1) a string delimiter and (2) a list of strings to be joined or a function that returns a list of strings (such as Fn::GetAZs) to be joined.'],
  ['Fn::Select with one item', template({ Resources: { Logs: group({ LogGroupName: { 'Fn::Select': [0] } }) } }), 'Template error: Fn::Select requires a list argument with two elements: an integer index and a list'],
  ['Ref of a list', template({ Resources: { Logs: group({ LogGroupName: { Ref: ['a'] } }) } }), 'Template format error: Every Ref object must have a single String value.'],
  ['an unknown Fn:: function in Outputs', template({ Resources: { Logs: group() }, Outputs: { Out: { Value: { 'Fn::Upper': 'a' } } } }), 'Template error: Encountered unsupported function: Fn::Upper Supported functions are: [Fn::Base64, Fn::GetAtt, Fn::GetAZs, Fn::ImportValue, Fn::Join, Fn::Split, Fn::FindInMap, Fn::Select, Ref, Fn::Equals, Fn::If, Fn::Not, Condition, Fn::And, Fn::Or, Fn::Contains, Fn::EachMemberEquals, Fn::EachMemberIn, Fn::ValueOf, Fn::ValueOfAll, Fn::RefAll, Fn::Sub, Fn::Cidr]'],
  ['an unknown top-level section', template({ Resources: { Logs: group() }, Resource: {} }), 'Template format error: Invalid template property or properties [Resource]'],
  ['no Resources', template({ Outputs: { Out: { Value: 'x' } } }), 'Template format error: At least one Resources member must be defined.'],
];

validation.before(async (context) => {
  Object.assign(context, await startTestCloud());
  await context.cfn.send(new CreateStackCommand({ StackName: 'kept', TemplateBody: template({ Resources: { Logs: group() } }) }));
  await settle(context.cfn, 'kept');
});

validation.after(async (context) => {
  await context.stop();
});

async function refusal(send: () => Promise<unknown>): Promise<string> {
  try {
    await send();
  } catch (error) {
    assert.is((error as Error).name, 'ValidationError');
    return (error as Error).message;
  }
  throw new Error('accepted');
}

for (const [what, body, message] of CASES) {
  validation(`${what}: ValidateTemplate, CreateStack and UpdateStack answer "${message.slice(0, 60)}…"`, async ({ cfn }) => {
    assert.is(await refusal(() => cfn.send(new ValidateTemplateCommand({ TemplateBody: body }))), message);
    assert.is(await refusal(() => cfn.send(new CreateStackCommand({ StackName: 'refused', TemplateBody: body }))), message);
    assert.is(await refusal(() => cfn.send(new UpdateStackCommand({ StackName: 'kept', TemplateBody: body }))), message);
  });
}

validation('well-formed intrinsics pass ValidateTemplate', async ({ cfn }) => {
  const body = template({
    Parameters: { Stage: { Type: 'String', Default: 'dev' } },
    Resources: {
      Logs: group({ LogGroupName: { 'Fn::Join': ['-', [{ Ref: 'Stage' }, { 'Fn::Select': [0, { 'Fn::Split': [',', 'a,b'] }] }, { 'Fn::Sub': ['${X}', { X: 'y' }] }]] } }),
    },
    Outputs: { Arn: { Value: { 'Fn::GetAtt': 'Logs.Arn' } }, Name: { Value: { 'Fn::Join': ['', { 'Fn::GetAZs': '' }] } } },
  });
  const answer = await cfn.send(new ValidateTemplateCommand({ TemplateBody: body }));
  assert.equal(answer.Parameters?.map((parameter) => parameter.ParameterKey), ['Stage']);
});

validation.run();
