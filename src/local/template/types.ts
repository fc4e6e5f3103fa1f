/** A CloudFormation template after parsing, before any intrinsic is resolved. */
export interface Template {
  AWSTemplateFormatVersion?: string;
  Description?: string;
  Parameters?: Record<string, ParameterDeclaration>;
  Mappings?: Record<string, Record<string, Record<string, unknown>>>;
  Conditions?: Record<string, unknown>;
  Resources: Record<string, ResourceDeclaration>;
  Outputs?: Record<string, OutputDeclaration>;
  [section: string]: unknown;
}

export interface ParameterDeclaration {
  Type: string;
  Default?: unknown;
  AllowedValues?: unknown[];
  NoEcho?: boolean | string;
  Description?: string;
}

export interface ResourceDeclaration {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string | string[];
  Condition?: string;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  Metadata?: unknown;
}

export interface OutputDeclaration {
  Value: unknown;
  Description?: string;
  Condition?: string;
  Export?: { Name: unknown };
}

export const PSEUDO_PARAMETERS = [
  'AWS::AccountId',
  'AWS::NotificationARNs',
  'AWS::NoValue',
  'AWS::Partition',
  'AWS::Region',
  'AWS::StackId',
  'AWS::StackName',
  'AWS::URLSuffix',
] as const;
