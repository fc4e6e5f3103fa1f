import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { colorsEnabled, style } from '../terminal/output';
import { serviceNameProblem } from './names';
import { nextSteps } from './next-steps';
import { PromptAborted, select, text, type Terminal } from '../terminal/prompt';
import { listTemplates, type Template } from './templates';
import { targetProblem, writeService } from './write';

export interface GuidedContext {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  cwd: string;
  /** Read for NO_COLOR / FORCE_COLOR; default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Exit code of a run the user cancelled with Ctrl-C, as a shell reports SIGINT. */
export const CANCELLED = 130;

/**
 * `fw` in a terminal: pick a template, a name and a folder, then write the service.
 * Nothing is written before the last answer, so Ctrl-C at any prompt leaves no trace.
 */
export async function guidedCreate(context: GuidedContext, templatesDir?: string): Promise<number> {
  const colors = colorsEnabled(context.stdout, context.env);
  const terminal: Terminal = { input: context.stdin, output: context.stdout, colors };
  const s = style(colors);
  const templates = listTemplates(templatesDir);
  context.stdout.write(`${s.bold('Create a new fw service')}\n\n`);
  try {
    const template = await select<Template>(
      terminal,
      'Template',
      templates.map((t) => ({ label: t.name, hint: t.description, value: t })),
    );
    const name = await text(terminal, 'Service name', {
      initial: 'my-service',
      validate: serviceNameProblem,
    });
    const folder = await text(terminal, 'Folder', {
      initial: name,
      validate: (value) => targetProblem(resolve(context.cwd, value), value),
    });
    const dir = resolve(context.cwd, folder);
    const files = writeService({ template, name, dir, shown: folder });
    context.stdout.write(`\n${s.green('✔')} Created ${s.bold(name)} from ${template.name} in ${folder} (${files.length} files)\n`);
    context.stdout.write(`\nNext:\n${nextSteps(dir, context.cwd).map((step) => `  ${s.cyan(step)}`).join('\n')}\n`);
    return 0;
  } catch (error) {
    if (error instanceof PromptAborted) {
      context.stderr.write('\nCancelled: nothing was written.\n');
      return CANCELLED;
    }
    throw error;
  }
}
