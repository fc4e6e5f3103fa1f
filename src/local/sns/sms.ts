/**
 * SNS text-message settings: the account's SMS attributes (SetSMSAttributes / GetSMSAttributes)
 * and the numbers that opted out (CheckIfPhoneNumberIsOptedOut, ListPhoneNumbersOptedOut,
 * OptInPhoneNumber). Kept per region as one API-made record, so they persist as topics do. No
 * text is sent locally, so no number opts out by replying STOP: the list holds only numbers put in
 * the state file (`optedOut` of the record), and OptInPhoneNumber takes them out.
 */
import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';

const SMS_SETTINGS = 'AWS::SNS::SMSSettings';

/** The attributes SetSMSAttributes takes, with the values SNS checks. */
const SMS_ATTRIBUTES: Record<string, (value: string) => boolean> = {
  MonthlySpendLimit: (value) => /^\d+$/.test(value),
  DeliveryStatusIAMRole: (value) => value === '' || value.startsWith('arn:'),
  DeliveryStatusSuccessSamplingRate: (value) => /^\d+$/.test(value) && Number(value) <= 100,
  DefaultSenderID: (value) => /^(?=.*[A-Za-z])[A-Za-z0-9]{1,11}$/.test(value),
  DefaultSMSType: (value) => value === 'Promotional' || value === 'Transactional',
  UsageReportS3Bucket: (value) => /^[a-z0-9.-]{3,63}$/.test(value),
};

interface SmsSettings {
  attributes: Record<string, string>;
  optedOut: string[];
}

const invalid = (message: string) => new AwsError('InvalidParameter', `Invalid parameter: ${message}`);

function settings(cloud: LocalServices, region: string): SmsSettings {
  const record = cloud.apiResources.find(SMS_SETTINGS, region);
  const properties = record?.properties as Partial<SmsSettings> | undefined;
  return { attributes: { ...properties?.attributes }, optedOut: [...(properties?.optedOut ?? [])] };
}

function save(cloud: LocalServices, region: string, value: SmsSettings): void {
  const record = cloud.apiResources.find(SMS_SETTINGS, region);
  if (!record) {
    cloud.apiResources.add(region, SMS_SETTINGS, region, { ...value });
    return;
  }
  record.properties.attributes = value.attributes;
  record.properties.optedOut = value.optedOut;
  cloud.apiResources.changed(record);
}

function phoneNumber(value: string | undefined): string {
  if (value === undefined || !/^\+?[1-9]\d{1,14}$/.test(value)) throw invalid('PhoneNumber Reason: input incorrectly formatted');
  return value;
}

export function setSmsAttributes(cloud: LocalServices, region: string, attributes: Record<string, string>): void {
  for (const [name, value] of Object.entries(attributes)) {
    const valid = SMS_ATTRIBUTES[name];
    if (!valid) throw invalid(`${name} Reason: is not a valid attribute`);
    if (!valid(value)) throw invalid(`${name} Reason: ${value} is not a valid value`);
  }
  const current = settings(cloud, region);
  save(cloud, region, { ...current, attributes: { ...current.attributes, ...attributes } });
}

/** The attributes set so far, only the ones named when names are given. */
export function smsAttributes(cloud: LocalServices, region: string, names: string[]): Record<string, string> {
  const { attributes } = settings(cloud, region);
  return names.length === 0 ? attributes : Object.fromEntries(Object.entries(attributes).filter(([name]) => names.includes(name)));
}

export function isOptedOut(cloud: LocalServices, region: string, number: string | undefined): boolean {
  return settings(cloud, region).optedOut.includes(phoneNumber(number));
}

/** ListPhoneNumbersOptedOut pages of 100 numbers, as SNS returns them. */
export function optedOutNumbers(cloud: LocalServices, region: string, nextToken: string | undefined): { phoneNumbers: string[]; nextToken?: string } {
  const numbers = settings(cloud, region).optedOut;
  const start = nextToken ? Number(Buffer.from(nextToken, 'base64').toString()) : 0;
  if (!Number.isInteger(start) || start < 0) throw invalid('nextToken');
  const end = start + 100;
  return { phoneNumbers: numbers.slice(start, end), ...(end < numbers.length ? { nextToken: Buffer.from(String(end)).toString('base64') } : {}) };
}

export function optIn(cloud: LocalServices, region: string, number: string | undefined): void {
  const valid = phoneNumber(number);
  const current = settings(cloud, region);
  if (!current.optedOut.includes(valid)) return;
  save(cloud, region, { ...current, optedOut: current.optedOut.filter((candidate) => candidate !== valid) });
}

