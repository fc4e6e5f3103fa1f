/** Logical ids of the `iot` event's topic rules and the `iotFleetProvisioning` event's template. */
import { normalizeName } from './normalize';

export const iotTopicRule = (fn: string, index: number) => `${normalizeName(fn)}IotTopicRule${index}`;
export const iotTopicRulePermission = (fn: string, index: number) => `${normalizeName(fn)}LambdaPermissionIotTopicRule${index}`;
export const iotProvisioningTemplate = (fn: string) => `${normalizeName(fn)}IotProvisioningTemplate`;
export const iotProvisioningTemplatePermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionIotProvisioningTemplate`;
