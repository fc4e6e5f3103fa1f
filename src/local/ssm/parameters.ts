import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import { readJson, writeJsonAtomic } from '../state/files';

export interface Parameter {
  Name: string;
  Type: string;
  Value: string;
  Version: number;
  LastModifiedDate: number;
  DataType: string;
  /**
   * SecureString only: what AWS returns without WithDecryption, the KMS ciphertext
   * of the value. Here random bytes of about its size, drawn once per version, so
   * the value shows through no read that did not ask for it.
   */
  Ciphertext?: string;
  /** The labels LabelParameterVersion attached to this version (a label names one version of a parameter at a time). */
  Labels?: string[];
}

/** AWS's label rules: 100 characters at most, letters, digits, `.`, `-`, `_`, not starting with a digit, `aws` or `ssm`. */
const isValidLabel = (label: string) => label.length <= 100 && /^[A-Za-z0-9._-]+$/.test(label) && !/^([0-9]|aws|ssm)/i.test(label);

function opaqueCiphertext(value: string): string {
  return randomBytes(48 + Buffer.byteLength(value)).toString('base64');
}

/** SSM Parameter Store, for `${ssm:…}` variables and SSM-typed template parameters. */
export class ParameterStore {
  private readonly file: string;
  private readonly parameters: Record<string, Parameter>;
  /** Earlier versions of each parameter, oldest first (AWS keeps 100 versions, the current one included). */
  private readonly historyFile: string;
  private readonly earlier: Record<string, Parameter[]>;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'ssm.json');
    this.parameters = readJson<Record<string, Parameter>>(this.file, {});
    this.historyFile = join(dataDir, 'state', 'ssm-history.json');
    this.earlier = readJson<Record<string, Parameter[]>>(this.historyFile, {});
  }

  /** Every version of a parameter, oldest first; a parameter stored before history was kept has only its current one. */
  history(name: string): Parameter[] {
    const current = this.find(name);
    if (!current) return [];
    return [...(Object.hasOwn(this.earlier, name) ? this.earlier[name] : []), current];
  }

  /** One version of a parameter, or the error AWS gives when it is not kept. */
  version(name: string, version: number): Parameter {
    const found = this.history(name);
    if (found.length === 0) throw new AwsError('ParameterNotFound', `Parameter ${name} not found.`);
    const parameter = found.find((p) => p.Version === version);
    if (!parameter) throw new AwsError('ParameterVersionNotFound', `Systems Manager could not find version ${version} of ${name}. Verify the version and try again.`);
    return parameter;
  }

  /**
   * A `name`, `name:version` or `name:label` selector as GetParameter(s) read it: the version it names,
   * undefined when the parameter, version or label is not there.
   */
  select(selector: string): Parameter | undefined {
    const match = /^(.*):([^:/]+)$/.exec(selector);
    if (!match || this.find(selector)) return this.find(selector);
    const [, name, which] = match;
    const versions = this.history(name);
    return /^\d+$/.test(which) ? versions.find((p) => p.Version === Number(which)) : versions.find((p) => p.Labels?.includes(which));
  }

  /**
   * LabelParameterVersion: attaches the valid labels to a version (the latest when none is given),
   * moving each from the version that had it; the others come back as invalid, as in AWS.
   */
  label(name: string, version: number | undefined, labels: string[]): { version: number; invalid: string[] } {
    const target = this.version(name, version ?? this.get(name).Version);
    const valid = labels.filter(isValidLabel);
    const kept = new Set([...(target.Labels ?? []), ...valid]);
    if (kept.size > 10) throw new AwsError('ParameterVersionLabelLimitExceeded', 'A parameter version can have maximum 10 labels.Move one or more labels to another version and try again.');
    for (const other of this.history(name)) if (other !== target && other.Labels) other.Labels = other.Labels.filter((label) => !valid.includes(label));
    target.Labels = [...kept];
    this.saveVersions();
    return { version: target.Version, invalid: labels.filter((label) => !isValidLabel(label)) };
  }

  /** UnlabelParameterVersion: detaches the labels the version has; the others come back as invalid. */
  unlabel(name: string, version: number, labels: string[]): { removed: string[]; invalid: string[] } {
    const target = this.version(name, version);
    const removed = labels.filter((label) => target.Labels?.includes(label));
    target.Labels = (target.Labels ?? []).filter((label) => !removed.includes(label));
    this.saveVersions();
    return { removed, invalid: labels.filter((label) => !removed.includes(label)) };
  }

  private saveVersions(): void {
    writeJsonAtomic(this.file, this.parameters);
    writeJsonAtomic(this.historyFile, this.earlier);
  }

  value(name: string): string | undefined {
    return Object.hasOwn(this.parameters, name) ? this.parameters[name].Value : undefined;
  }

  get(name: string): Parameter {
    if (!Object.hasOwn(this.parameters, name)) throw new AwsError('ParameterNotFound', '', 400);
    return this.parameters[name];
  }

  find(name: string): Parameter | undefined {
    return Object.hasOwn(this.parameters, name) ? this.parameters[name] : undefined;
  }

  put(input: { Name: string; Value: string; Type?: string; Overwrite?: boolean; DataType?: string }): Parameter {
    const existing = this.find(input.Name);
    if (existing && !input.Overwrite) {
      throw new AwsError('ParameterAlreadyExists', 'The parameter already exists. To overwrite this value, set the overwrite option in the request to true.');
    }
    const parameter: Parameter = {
      Name: input.Name,
      Type: input.Type ?? existing?.Type ?? 'String',
      Value: input.Value,
      Version: (existing?.Version ?? 0) + 1,
      LastModifiedDate: Date.now() / 1000,
      DataType: input.DataType ?? 'text',
    };
    if (parameter.Type === 'SecureString') parameter.Ciphertext = opaqueCiphertext(parameter.Value);
    if (existing) {
      this.earlier[input.Name] = [...(this.earlier[input.Name] ?? []), existing].slice(-99);
      writeJsonAtomic(this.historyFile, this.earlier);
    }
    this.parameters[input.Name] = parameter;
    writeJsonAtomic(this.file, this.parameters);
    return parameter;
  }

  delete(name: string): void {
    this.get(name);
    delete this.parameters[name];
    writeJsonAtomic(this.file, this.parameters);
    if (Object.hasOwn(this.earlier, name)) {
      delete this.earlier[name];
      writeJsonAtomic(this.historyFile, this.earlier);
    }
  }

  /** The value a read returns: a SecureString's ciphertext unless decryption was asked for. */
  valueAsRead(parameter: Parameter, withDecryption: boolean): string {
    if (parameter.Type !== 'SecureString' || withDecryption) return parameter.Value;
    if (parameter.Ciphertext === undefined) {
      // Stored by an earlier version of fw, before SecureStrings kept one.
      parameter.Ciphertext = opaqueCiphertext(parameter.Value);
      writeJsonAtomic(this.file, this.parameters);
    }
    return parameter.Ciphertext;
  }

  /** Every parameter, current versions. */
  all(): Parameter[] {
    return Object.values(this.parameters);
  }

  byPath(path: string, recursive: boolean): Parameter[] {
    const prefix = path.endsWith('/') ? path : `${path}/`;
    return Object.values(this.parameters).filter((p) => p.Name.startsWith(prefix) && (recursive || !p.Name.slice(prefix.length).includes('/')));
  }
}
