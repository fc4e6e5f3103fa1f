import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = join(__dirname, '..', '..', '..');

function documents(): string[] {
  const docs: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.md')) docs.push(relative(ROOT, join(dir, entry.name)));
    }
  };
  walk(join(ROOT, 'docs'));
  return ['README.md', ...docs.sort()];
}

/** The text outside code blocks and code spans, where Markdown links live. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`]*`/g, '');
}

/** GitHub's anchors of a page's headings. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(readFileSync(join(ROOT, file), 'utf8').replace(/`([^`\n]*)`/g, '$1')).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = heading.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

const links = suite('README.md and docs/: links');

links('every link points to a file of the repository, and its anchor to a heading there', () => {
  const broken: string[] = [];
  for (const file of documents()) {
    const text = prose(readFileSync(join(ROOT, file), 'utf8'));
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) {
        broken.push(`${file}: ${target} points outside the repository`);
        continue;
      }
      const [path, anchor] = target.split('#');
      const resolved = path === '' ? file : relative(ROOT, join(ROOT, dirname(file), path));
      if (!existsSync(join(ROOT, resolved))) broken.push(`${file}: ${target}: no file ${resolved}`);
      else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) broken.push(`${file}: ${target}: no heading #${anchor} in ${resolved}`);
    }
  }
  assert.equal(broken, []);
});

links("no page's text names a web address outside this machine (code examples aside)", () => {
  const outside = documents().flatMap(file =>
    [...prose(readFileSync(join(ROOT, file), 'utf8')).matchAll(/https?:\/\/[^\s)`'"<>]+/g)]
      .map(match => match[0])
      .filter(url => !/^https?:\/\/(127\.0\.0\.1|localhost|\[::1\]|0\.0\.0\.0|[\w.-]*\.localhost|issuer\.example\.com)([:/]|$)/.test(url))
      .map(url => `${file}: ${url}`),
  );
  assert.equal(outside, []);
});

links('every guide and reference page is listed in docs/README.md', () => {
  const index = readFileSync(join(ROOT, 'docs', 'README.md'), 'utf8');
  const unlisted = documents().filter(file => file.startsWith('docs/') && file !== 'docs/README.md' && !index.includes(`](${relative('docs', file)})`));
  assert.equal(unlisted, []);
});

links('README.md fits a first read', () => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
  assert.ok(lines <= 300, `${lines} lines`);
});

links.run();
