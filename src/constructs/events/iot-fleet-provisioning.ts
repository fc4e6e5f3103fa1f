import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import { ConfigError } from '../../errors';
import type { Json } from '../model';
import { CfnResource } from '../resource';
import type { FunctionConstruct } from '../function';
import { expecting, isArnOrIntrinsic, isEventObject, validateEvent } from './event-schema';
import { lambdaPermission } from './lambda-permission';

const iotFleetProvisioningSchema = isEventObject({
  templateBody: expecting('the provisioning template as an object', t.isRecord(t.isUnknown())),
  provisioningRoleArn: isArnOrIntrinsic('an IAM role ARN or a CloudFormation intrinsic'),
  templateName: t.isOptional(t.isString()),
  enabled: t.isOptional(t.isBoolean()),
});

/**
 * `iotFleetProvisioning` event: a fleet provisioning template (`{Fn}IotProvisioningTemplate`)
 * whose pre-provisioning hook is the function, and the permission IoT needs to call it.
 * One per function: both logical ids carry only the function's name.
 */
export class IotFleetProvisioningEvent extends Construct {
  static readonly type = 'iotFleetProvisioning';
  static readonly description = 'An AWS IoT fleet provisioning template hook';
  static readonly schema = iotFleetProvisioningSchema;
  private readonly path: string;

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const event = validateEvent(iotFleetProvisioningSchema, config, path);
    const earlier = fn.node.children.find(child => child instanceof IotFleetProvisioningEvent && child !== this) as IotFleetProvisioningEvent | undefined;
    if (earlier !== undefined) {
      // The reference keeps only the last template, silently.
      throw new ConfigError(`Invalid configuration in '${path}': a function can have only one iotFleetProvisioning event (another is at '${earlier.path}')`);
    }
    this.path = path;
    const permissionId = naming.iotProvisioningTemplatePermission(fn.key);

    const properties: Record<string, Json> = {
      Enabled: event.enabled !== false,
      PreProvisioningHook: { TargetArn: fn.targetArn },
      ProvisioningRoleArn: event.provisioningRoleArn,
      TemplateBody: JSON.stringify(event.templateBody),
    };
    if (event.templateName !== undefined) properties.TemplateName = event.templateName;
    new CfnResource(this, 'Template', {
      logicalId: naming.iotProvisioningTemplate(fn.key),
      type: 'AWS::IoT::ProvisioningTemplate',
      properties: () => properties,
      dependsOn: () => fn.dependsOnTarget([permissionId]),
    });
    lambdaPermission(this, 'Permission', fn, { logicalId: permissionId, principal: 'iot.amazonaws.com' });
  }
}
