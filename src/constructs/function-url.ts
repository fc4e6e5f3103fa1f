import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import { invalid } from '../errors';
import type { FunctionConfig, Json } from './model';
import { CfnOutput, CfnResource, getAtt } from './resource';
import type { FunctionConstruct } from './function';

type UrlConfig = NonNullable<FunctionConfig['url']>;

/** `url: true` (or with `cors`/`authorizer`): a Lambda function URL, its public permission and an Output. */
export class FunctionUrl extends Construct {
  constructor(scope: Construct, id: string, fn: FunctionConstruct, config: UrlConfig, path: string) {
    super(scope, id);
    const options = typeof config === 'object' ? config : {};
    if (options.authorizer !== undefined && options.authorizer !== 'aws_iam') {
      throw invalid(`${path}.authorizer`, '"aws_iam"', options.authorizer);
    }
    const authType = options.authorizer === 'aws_iam' ? 'AWS_IAM' : 'NONE';
    new CfnResource(this, 'Url', {
      logicalId: naming.lambdaUrl(fn.key),
      type: 'AWS::Lambda::Url',
      properties: () => {
        const properties: Record<string, Json> = { AuthType: authType, TargetFunctionArn: fn.targetArn };
        const cors = functionUrlCors(options.cors);
        if (cors !== undefined) properties.Cors = cors;
        // BUFFERED is Lambda's default; the reference writes only RESPONSE_STREAM.
        if (options.invokeMode !== undefined && options.invokeMode !== 'BUFFERED') properties.InvokeMode = options.invokeMode;
        return properties;
      },
      dependsOn: () => fn.targetAlias,
    });
    if (authType === 'NONE') {
      new CfnResource(this, 'Permission', {
        logicalId: naming.lambdaUrlPermission(fn.key),
        type: 'AWS::Lambda::Permission',
        properties: () => ({
          FunctionName: fn.targetArn,
          Action: 'lambda:InvokeFunctionUrl',
          Principal: '*',
          FunctionUrlAuthType: 'NONE',
        }),
        dependsOn: () => fn.targetAlias,
      });
    }
    new CfnOutput(this, 'Output', {
      key: naming.lambdaUrl(fn.key),
      description: 'Lambda Function URL',
      value: getAtt(naming.lambdaUrl(fn.key), 'FunctionUrl'),
    });
  }
}

function functionUrlCors(cors: unknown): Record<string, Json> | undefined {
  if (!cors) return undefined;
  const defaults: Record<string, Json> = {
    AllowHeaders: ['Content-Type', 'X-Amz-Date', 'Authorization', 'X-Api-Key', 'X-Amz-Security-Token', 'X-Amzn-Trace-Id'],
    AllowMethods: ['*'],
    AllowOrigins: ['*'],
  };
  if (cors === true) return defaults;
  const c = cors as Record<string, Json>;
  const result: Record<string, Json> = {};
  const pick = (from: string, to: string) => {
    if (c[from] === null) return;
    const value = c[from] ?? defaults[to];
    if (value !== undefined) result[to] = value;
  };
  pick('allowCredentials', 'AllowCredentials');
  pick('allowedHeaders', 'AllowHeaders');
  pick('allowedMethods', 'AllowMethods');
  pick('allowedOrigins', 'AllowOrigins');
  pick('exposedResponseHeaders', 'ExposeHeaders');
  pick('maxAge', 'MaxAge');
  return result;
}
