/**
 * `Custom::ApiGatewayAccountRole`: API Gateway writes execution and access logs only once the
 * account names a CloudWatch role. When none is set, this creates one (trusted by API Gateway,
 * with the AWS managed push-to-logs policy) and sets it on the account; given `RoleArn`
 * (`provider.logs.restApi.role`), it sets that role instead. A role already set is
 * left alone, and deleting the stack changes nothing: other APIs of the account rely on it.
 */
import { arnParts, respond, type CustomResourceEvent, type LambdaContext } from '../response';

export const ROLE_NAME = 'fwApiGatewayCloudWatchRole';

/** What the handler needs from API Gateway and IAM (tests pass fakes; Lambda's runtime ships the SDK). */
export interface Apis {
  /** The account's current CloudWatch role ARN, if any. */
  accountRoleArn(): Promise<string | undefined>;
  setAccountRoleArn(arn: string): Promise<void>;
  /** Creates the role unless it exists. */
  ensureRole(name: string, assumeRolePolicy: string): Promise<void>;
  attachedPolicies(roleName: string): Promise<string[]>;
  attachPolicy(roleName: string, policyArn: string): Promise<void>;
  sleep(ms: number): Promise<void>;
}

export function makeHandler(apis: Apis) {
  return async (event: CustomResourceEvent<Record<string, unknown>>, context: LambdaContext): Promise<void> => {
    await respond(event, context, 'ApiGatewayAccountCloudWatchRole', async () => {
      if (event.RequestType === 'Delete') return;
      if (await apis.accountRoleArn()) return;
      const given = event.ResourceProperties.RoleArn;
      if (typeof given === 'string' && given !== '') return setWithRetries(apis, given);
      const { partition, account } = arnParts(context.invokedFunctionArn);
      const trust = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: ['apigateway.amazonaws.com'] }, Action: ['sts:AssumeRole'] }] };
      await apis.ensureRole(ROLE_NAME, JSON.stringify(trust));
      // Built rather than read: the custom-resource role may create roles but not read them.
      const roleArn = `arn:${partition}:iam::${account}:role/${ROLE_NAME}`;
      const policy = `arn:${partition}:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs`;
      if (!(await apis.attachedPolicies(ROLE_NAME)).includes(policy)) await apis.attachPolicy(ROLE_NAME, policy);
      await setWithRetries(apis, roleArn);
    });
  };
}

/** A new role takes a few seconds to be usable by API Gateway. */
async function setWithRetries(apis: Apis, roleArn: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await apis.setAccountRoleArn(roleArn);
      return;
    } catch (error) {
      if (attempt >= 10 || (error as { name?: string }).name !== 'BadRequestException') throw error;
      await apis.sleep(3000);
    }
  }
}

/** The SDK v3 clients of Lambda's Node.js runtime, loaded on first use (fw itself does not depend on them). */
function sdkApis(): Apis {
  type Client = { send(command: unknown): Promise<any> };
  const cache = new Map<string, { client: Client; sdk: any }>();
  const load = (name: string, client: string) => {
    let loaded = cache.get(name);
    if (!loaded) {
      const sdk = require(name);
      loaded = { client: new sdk[client]({}) as Client, sdk };
      cache.set(name, loaded);
    }
    return loaded;
  };
  const apigw = () => load('@aws-sdk/client-api-gateway', 'APIGatewayClient');
  const iam = () => load('@aws-sdk/client-iam', 'IAMClient');
  return {
    async accountRoleArn() {
      const account = await apigw().client.send(new (apigw().sdk.GetAccountCommand)({}));
      return account.cloudwatchRoleArn || undefined;
    },
    async setAccountRoleArn(arn) {
      await apigw().client.send(
        new (apigw().sdk.UpdateAccountCommand)({ patchOperations: [{ op: 'replace', path: '/cloudwatchRoleArn', value: arn }] }),
      );
    },
    async ensureRole(name, assumeRolePolicy) {
      try {
        await iam().client.send(new (iam().sdk.CreateRoleCommand)({ RoleName: name, AssumeRolePolicyDocument: assumeRolePolicy }));
      } catch (error) {
        if ((error as { name?: string }).name !== 'EntityAlreadyExistsException') throw error;
      }
    },
    async attachedPolicies(roleName) {
      const listed = await iam().client.send(new (iam().sdk.ListAttachedRolePoliciesCommand)({ RoleName: roleName }));
      return (listed.AttachedPolicies ?? []).map((policy: { PolicyArn: string }) => policy.PolicyArn);
    },
    async attachPolicy(roleName, policyArn) {
      await iam().client.send(new (iam().sdk.AttachRolePolicyCommand)({ RoleName: roleName, PolicyArn: policyArn }));
    },
    sleep: ms => new Promise(resolve => setTimeout(resolve, ms)),
  };
}

export const handler = makeHandler(sdkApis());
