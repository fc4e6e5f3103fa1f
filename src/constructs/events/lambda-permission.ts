import type { Construct } from 'constructs';
import type { FunctionConstruct } from '../function';
import type { Json } from '../model';
import { CfnResource } from '../resource';

export interface PermissionProps {
  logicalId: string;
  principal: Json;
  /** Which resource of the service may invoke it; none where the principal alone says (IoT provisioning hooks). */
  sourceArn?: () => Json;
  sourceAccount?: Json;
  /** v3 writes the alias permissions wait for as a list for some events (ALB, CloudWatch Logs), as a string for the others. */
  aliasAsList?: boolean;
}

/** `AWS::Lambda::Permission` letting a service invoke the function. */
export function lambdaPermission(scope: Construct, id: string, fn: FunctionConstruct, props: PermissionProps): CfnResource {
  return new CfnResource(scope, id, {
    logicalId: props.logicalId,
    type: 'AWS::Lambda::Permission',
    properties: () => {
      const properties: Record<string, Json> = {
        FunctionName: fn.targetArn,
        Action: 'lambda:InvokeFunction',
        Principal: props.principal,
      };
      if (props.sourceArn !== undefined) properties.SourceArn = props.sourceArn();
      if (props.sourceAccount !== undefined) properties.SourceAccount = props.sourceAccount;
      return properties;
    },
    dependsOn: () => (fn.targetAlias === undefined ? undefined : props.aliasAsList ? [fn.targetAlias] : fn.targetAlias),
  });
}
