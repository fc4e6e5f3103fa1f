import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { AdminConfirmSignUpCommand, CognitoIdentityProviderClient, InitiateAuthCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { runFw } from '../helpers/cli';
import { outputsOf, startTestCloud, type TestCloud } from './helpers';

const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };

/** A service as people write it: the pool and its client in `resources`, the APIs protected by them. */
const SERVICE = `service: members
frameworkVersion: '3'
provider:
  name: aws
  runtime: nodejs20.x
  httpApi:
    authorizers:
      pool:
        type: jwt
        identitySource: $request.header.Authorization
        issuerUrl:
          Fn::Join: ['', ['https://cognito-idp.', { Ref: 'AWS::Region' }, '.amazonaws.com/', { Ref: UserPool }]]
        audience:
          - Ref: UserPoolClient
functions:
  api:
    handler: handler.api
    events:
      - httpApi:
          method: GET
          path: /profile
          authorizer:
            name: pool
      - http:
          method: get
          path: profile
          authorizer:
            name: pool
            type: COGNITO_USER_POOLS
            arn:
              Fn::GetAtt: [UserPool, Arn]
resources:
  Resources:
    UserPool:
      Type: AWS::Cognito::UserPool
      Properties:
        UserPoolName: members-dev
        UsernameAttributes: [email]
        AutoVerifiedAttributes: [email]
    UserPoolClient:
      Type: AWS::Cognito::UserPoolClient
      Properties:
        UserPoolId: { Ref: UserPool }
        ExplicitAuthFlows: [ALLOW_USER_PASSWORD_AUTH, ALLOW_REFRESH_TOKEN_AUTH]
  Outputs:
    UserPoolId: { Value: { Ref: UserPool } }
    UserPoolClientId: { Value: { Ref: UserPoolClient } }
`;

interface Context {
  t: TestCloud;
  work: string;
  deploy: { code: number; stdout: string; stderr: string };
  outputs: Record<string, string>;
}

const members = suite<Context>('serverless.yml with a Cognito user pool protecting its APIs, deployed to the local cloud');

members.before(async (context) => {
  context.work = mkdtempSync(join(tmpdir(), 'fw-members-'));
  context.t = await startTestCloud(join(context.work, 'cloud'));
  const dir = join(context.work, 'service');
  mkdirSync(dir);
  writeFileSync(join(dir, 'serverless.yml'), SERVICE);
  writeFileSync(join(dir, 'handler.js'), `exports.api = async (event) => ({ statusCode: 200, body: JSON.stringify(event.requestContext.authorizer) });`);
  context.deploy = await runFw(['deploy', '--endpoint-url', context.t.cloud.url], dir, ENV);
  const stack = (await context.t.cfn.send(new DescribeStacksCommand({ StackName: 'members-dev' }))).Stacks![0];
  context.outputs = outputsOf(stack);
});

members.after(async (context) => {
  await context.t.stop({ keepData: true });
  rmSync(context.work, { recursive: true, force: true });
});

members('a user signed up with their email reaches both APIs with their token; without one they are refused', async ({ t, deploy, outputs }) => {
  assert.is(deploy.code, 0, deploy.stderr);
  assert.not.match(deploy.stdout, /not enforced/);
  const client = new CognitoIdentityProviderClient({ ...t.config, maxAttempts: 1 });
  try {
    const { UserSub } = await client.send(new SignUpCommand({ ClientId: outputs.UserPoolClientId, Username: 'hana@example.com', Password: 'Secret-Passw0rd!' }));
    await client.send(new AdminConfirmSignUpCommand({ UserPoolId: outputs.UserPoolId, Username: 'hana@example.com' }));
    const { AuthenticationResult } = await client.send(
      new InitiateAuthCommand({ ClientId: outputs.UserPoolClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'hana@example.com', PASSWORD: 'Secret-Passw0rd!' } }),
    );
    const token = AuthenticationResult!.IdToken!;
    const rest = await fetch(`${outputs.ServiceEndpoint}/profile`, { headers: { authorization: token } });
    const restClaims = ((await rest.json()) as { claims: Record<string, string> }).claims;
    // With the email as user name, Cognito's user name is the user's sub.
    assert.equal([rest.status, restClaims.sub, restClaims['cognito:username'], restClaims.email, restClaims.email_verified], [200, UserSub, UserSub, 'hana@example.com', 'true']);
    const http = await fetch(`${outputs.HttpApiUrl}/profile`, { headers: { authorization: `Bearer ${token}` } });
    const httpClaims = ((await http.json()) as { jwt: { claims: Record<string, string> } }).jwt.claims;
    assert.equal([http.status, httpClaims.sub, httpClaims.aud], [200, UserSub, outputs.UserPoolClientId]);
    assert.equal([(await fetch(`${outputs.ServiceEndpoint}/profile`)).status, (await fetch(`${outputs.HttpApiUrl}/profile`)).status], [401, 401]);
  } finally {
    client.destroy();
  }
});

members.run();
