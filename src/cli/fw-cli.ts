import { Cli, Command, type BaseContext, type CommandClass } from 'clipanion';
import { closest } from '../synth/suggest';
import { colorsEnabled, style } from '../terminal/output';
import { overview } from './help';

type Usage = { usage: string; options: Array<{ definition: string; description: string; required: boolean }> };

/**
 * Option values are shown by name (`--stage <stage>`), not by clipanion's index (`--stage,-s #0`).
 * The name is the option's long name, so it reads the same in the command list and in its help.
 */
export function namePlaceholders(usage: string): string {
  return usage.replace(/(--([A-Za-z][\w-]*)(?:,-{1,2}[\w-]+)*)((?: #\d+)+)/g, (_, names: string, long: string, indexes: string) =>
    `${names}${indexes.replace(/ #\d+/g, ` <${long}>`)}`,
  );
}

const HELP_FLAGS = new Set(['--help', '-h']);

/**
 * clipanion's Cli with fw's help and errors: placeholders by name, help for a command group
 * (`fw local --help`), `fw help <command>`, and one line with a "did you mean" for a mistyped
 * command or option instead of clipanion's numbered candidate list. Errors go to stderr.
 */
export class FwCli<Context extends BaseContext = BaseContext> extends Cli<Context> {
  private readonly commands: CommandClass<Context>[] = [];

  override register(commandClass: CommandClass<Context>): void {
    this.commands.push(commandClass);
    super.register(commandClass);
  }

  protected override getUsageByIndex(n: number, opts?: { detailed?: boolean; inlineOptions?: boolean }): Usage {
    const usage = super.getUsageByIndex(n, opts) as Usage;
    return { usage: namePlaceholders(usage.usage), options: usage.options.map(option => ({ ...option, definition: namePlaceholders(option.definition) })) };
  }

  /** Without a command (`fw --help`, `fw help`, `fw` outside a terminal): the grouped overview of ./help.ts. */
  override usage(command: Parameters<Cli<Context>['usage']>[0] = null, opts?: Parameters<Cli<Context>['usage']>[1]): string {
    if (command !== null) return super.usage(command, opts);
    const commands = this.definitions().map(definition => ({ path: definition.path.replace(/^\S+ ?/, ''), description: definition.description ?? '' }));
    return overview(this.binaryVersion ?? '', commands, style(opts?.colored ?? this.enableColors ?? false));
  }

  override async run(input: Command<Context> | string[], userContext?: unknown): Promise<number> {
    if (!Array.isArray(input)) return super.run(input, userContext as never);
    const context = { ...Cli.defaultContext, ...(userContext as Partial<Context> | undefined) } as Context;
    const args = this.helpWords(input);
    const group = this.group(args);
    if (group) {
      const wantsHelp = args.some(arg => HELP_FLAGS.has(arg));
      (wantsHelp ? context.stdout : context.stderr).write(this.groupHelp(group, wantsHelp, context));
      return wantsHelp ? 0 : 1;
    }
    let command: Command<Context>;
    try {
      command = this.process(args, context);
    } catch (error) {
      const err = style(colorsEnabled(context.stderr, context.env));
      context.stderr.write(`${err.red('Error:')} ${this.explain(error, args)}\n`);
      return 1;
    }
    return super.run(command, userContext as never);
  }

  /** `fw help deploy function` is `fw deploy function --help`; `fw help` is `fw --help`. */
  private helpWords(input: string[]): string[] {
    if (input[0] !== 'help' || this.paths().some(path => path[0] === 'help')) return input;
    return [...input.slice(1), '--help'];
  }

  /** The registered command paths, longest first. */
  private paths(): string[][] {
    const paths = this.commands.flatMap(command => command.paths ?? []).filter(path => path.length > 0);
    return paths.sort((a, b) => b.length - a.length);
  }

  private words(input: string[]): string[] {
    const words: string[] = [];
    for (const arg of input) {
      if (arg.startsWith('-')) break;
      words.push(arg);
    }
    return words;
  }

  /** The words of a command group (`local`) when the input names a group and no command in it. */
  private group(input: string[]): string[] | undefined {
    const words = this.words(input);
    if (words.length === 0) return undefined;
    const paths = this.paths();
    if (paths.some(path => path.length <= words.length && path.every((word, i) => words[i] === word))) return undefined;
    for (let length = words.length; length > 0; length--) {
      const prefix = words.slice(0, length);
      if (paths.some(path => path.length > length && prefix.every((word, i) => path[i] === word))) return length === words.length ? prefix : undefined;
    }
    return undefined;
  }

  private groupHelp(group: string[], wantsHelp: boolean, context: Context): string {
    const colored = colorsEnabled(wantsHelp ? context.stdout : context.stderr, context.env);
    const format = style(colored);
    const members = this.commands.filter(command => command.paths?.some(path => path.length > group.length && group.every((word, i) => path[i] === word)));
    const name = `${this.binaryName} ${group.join(' ')}`;
    const lines = members.map(command => {
      const { usage } = this.getUsageByRegistration(command, { detailed: true });
      return `  ${format.bold(usage)}\n    ${command.usage?.description ?? ''}\n`;
    });
    const head = wantsHelp ? `Commands of ${name}:\n\n` : `${format.red('Error:')} "${name}" needs one of its commands:\n\n`;
    return `${head}${lines.join('\n')}\nRun "${name} <command> --help" for a command's options.\n`;
  }

  /** One line for a command line clipanion could not match: what was wrong and what was probably meant. */
  private explain(error: unknown, input: string[]): string {
    const message = error instanceof Error ? error.message : String(error);
    if (!(error instanceof Error) || error.name !== 'UnknownSyntaxError') return message.split('\n')[0];
    const words = this.words(input);
    const path = this.paths().find(candidate => candidate.length <= words.length && candidate.every((word, i) => words[i] === word));
    if (words.length === 0) {
      const meant = closest(input[0] ?? '', ['--help', '--version']);
      return `Unknown option "${input[0]}".${meant ? ` Did you mean "${meant}"?` : ''} Run "${this.binaryName} --help" to see the commands.`;
    }
    if (!path) {
      const typed = words.join(' ');
      const commands = this.paths().map(candidate => candidate.join(' '));
      const meant = closest(words.slice(0, 2).join(' '), commands) ?? closest(words[0] ?? typed, commands);
      return `Unknown command "${typed}".${meant ? ` Did you mean "${this.binaryName} ${meant}"?` : ''} Run "${this.binaryName} --help" to see the commands.`;
    }
    const command = this.commands.find(candidate => candidate.paths?.some(p => p.join(' ') === path.join(' ')));
    const name = `${this.binaryName} ${path.join(' ')}`;
    const more = `Run "${name} --help" for its options.`;
    const options = command ? this.optionNames(command) : [];
    const unknownOption = /Unsupported option name \("([^"]+)"\)/.exec(message)?.[1];
    if (unknownOption) {
      const meant = closest(unknownOption.replace(/=.*$/, ''), options);
      return `Unknown option "${unknownOption}" for "${name}".${meant ? ` Did you mean "${meant}"?` : ''} ${more}`;
    }
    const extra = /Extraneous positional argument \("([^"]*)"\)/.exec(message)?.[1];
    if (extra !== undefined) return `Unexpected argument "${extra}" for "${name}". ${more}`;
    const missing = command ? this.missingRequired(command, input) : [];
    if (missing.length > 0) return `"${name}" needs ${missing.join(' and ')}. ${more}`;
    const reasons = (error as { candidates?: Array<{ reason: string | null }> }).candidates ?? [];
    const valueless = reasons.map(candidate => /Not enough arguments to option ([^\s]+?)\.?$/.exec(candidate.reason ?? '')?.[1]).find(Boolean);
    if (valueless) return `Option "${valueless}" of "${name}" needs a value. ${more}`;
    const reason = reasons.find(candidate => candidate.reason)?.reason;
    return `${reason ?? 'The arguments do not match the command'}: ${input.join(' ')}. ${more}`;
  }

  private optionNames(command: CommandClass<Context>): string[] {
    const { options } = this.getUsageByRegistration(command, { detailed: true, inlineOptions: false }) as Usage;
    const { usage } = this.getUsageByRegistration(command, { detailed: true }) as Usage;
    const definitions = [...options.map(option => option.definition), ...usage.split(/[[\]<>]/)];
    return [...new Set(definitions.flatMap(definition => definition.split(/[\s,]/).filter(word => word.startsWith('--'))))];
  }

  /** The required options (shown `<--function,-f <function>>` in the usage) the input does not give. */
  private missingRequired(command: CommandClass<Context>, input: string[]): string[] {
    const { usage } = this.getUsageByRegistration(command, { detailed: true }) as Usage;
    const required = [...usage.matchAll(/<(--[^>]*?(?: <[^>]+>)?)>(?=\s|$)/g)].map(match => match[1]);
    return required
      .filter(definition => !definition.split(' ')[0].split(',').some(name => input.some(arg => arg === name || arg.startsWith(`${name}=`))))
      .map(definition => definition.replace(/^(--[\w-]+)(?:,-{1,2}[\w-]+)*/, '$1'));
  }
}
