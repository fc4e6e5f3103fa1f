export type TemplateResource = Record<string, unknown>;

export interface Template {
  AWSTemplateFormatVersion: '2010-09-09';
  Description: string;
  Resources: Record<string, TemplateResource>;
  Outputs?: Record<string, Record<string, unknown>>;
  Conditions?: Record<string, unknown>;
  Mappings?: Record<string, unknown>;
  Parameters?: Record<string, unknown>;
}

export const DEFAULT_DESCRIPTION = 'The AWS CloudFormation template for this Serverless application';
