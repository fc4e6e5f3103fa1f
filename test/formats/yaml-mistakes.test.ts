import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../src/errors';
import { parseYaml } from '../../src/formats/yaml';

/**
 * The commonest YAML mistakes in a service file. `v3` is where serverless@3.40.0 reports each
 * (`serverless print`, js-yaml's message and `(line:column)`), recorded from the reference;
 * fw must name the same line, except where `better` says why it points elsewhere.
 */
interface Mistake {
  name: string;
  text: string;
  v3: { message: string; line: number };
  /** fw's first line. */
  fw: string;
  better?: string;
}

const HEAD = 'service: app\nprovider:\n  name: aws\n';

const MISTAKES: Mistake[] = [
  {
    name: 'a key indented one space more than the one above it',
    text: `${HEAD}  runtime: nodejs20.x\n   region: us-east-1\nfunctions:\n  hello:\n    handler: h.hello\n`,
    v3: { message: 'bad indentation of a mapping entry', line: 5 },
    fw: 'serverless.yml:5:4: bad indentation of a mapping entry: "region" is indented deeper than "runtime", which already has a value (line them up, or give "runtime" no value on its own line)',
  },
  {
    name: 'a key after a list indented one space short of its siblings',
    text: `${HEAD}  runtime: nodejs20.x\nfunctions:\n  hello:\n    handler: h.hello\n    events:\n      - httpApi: GET /\n     timeout: 10\n`,
    v3: { message: 'bad indentation of a mapping entry', line: 10 },
    fw: 'serverless.yml:10:6: bad indentation of a mapping entry: "timeout" does not line up with the entries around it ("events" above is at column 5, this one at column 6)',
  },
  {
    name: 'a key indented one space less than its siblings',
    text: `${HEAD}  runtime: nodejs20.x\nfunctions:\n  hello:\n    handler: h.hello\n   events:\n      - httpApi: GET /\n`,
    v3: { message: 'bad indentation of a mapping entry', line: 8 },
    fw: 'serverless.yml:8:4: bad indentation of a mapping entry: "events" does not line up with the entries around it ("handler" above is at column 5, this one at column 4)',
  },
  {
    name: 'a value given, then keys nested under it',
    text: `${HEAD}  runtime: nodejs20.x\nfunctions:\n  hello: h.hello\n    events:\n      - httpApi: GET /\n`,
    v3: { message: 'bad indentation of a mapping entry', line: 7 },
    fw: 'serverless.yml:7:5: bad indentation of a mapping entry: "events" is indented deeper than "hello", which already has a value (line them up, or give "hello" no value on its own line)',
  },
  {
    name: 'a list item out of line with the item above',
    text: `${HEAD}functions:\n  hello:\n    handler: h.hello\n    events:\n      - httpApi: GET /a\n     - httpApi: GET /b\n`,
    v3: { message: 'bad indentation of a mapping entry', line: 9 },
    fw: 'serverless.yml:9:6: bad indentation of a list item: its "-" is at column 6, the item above it at column 7',
  },
  {
    name: 'a list item among the keys of a mapping',
    text: `${HEAD}  - runtime: nodejs20.x\n`,
    v3: { message: 'bad indentation of a mapping entry', line: 4 },
    fw: 'serverless.yml:4:3: a list item among the entries of a mapping: "name" above is a "key: value" entry, so this line cannot start with "-" (remove the "-", or put the list under a key of its own)',
  },
  {
    name: 'a colon missing after a key',
    text: `${HEAD}  runtime nodejs20.x\nfunctions:\n  hello:\n    handler: h.hello\n`,
    v3: { message: 'can not read an implicit mapping pair; a colon is missed', line: 4 },
    fw: 'serverless.yml:4:10: a colon is missing after "runtime": a line in a mapping is "key: value" (write "runtime: nodejs20.x")',
  },
  {
    name: 'a tab in the indentation',
    text: 'service: app\nprovider:\n\tname: aws\n  runtime: nodejs20.x\n',
    v3: { message: 'tab characters must not be used in indentation', line: 3 },
    fw: 'serverless.yml:3:1: tab characters must not be used in indentation: indent with spaces',
  },
  {
    name: 'a key given twice',
    text: `${HEAD}  runtime: nodejs20.x\n  runtime: nodejs18.x\nfunctions:\n  hello:\n    handler: h.hello\n`,
    v3: { message: 'duplicated mapping key', line: 5 },
    fw: 'serverless.yml:5:3: duplicated mapping key "runtime" (first set on line 4): a key may appear once in a mapping',
  },
  {
    name: 'a double quote never closed',
    text: `${HEAD}  stage: "dev\n  runtime: nodejs20.x\nfunctions:\n  hello:\n    handler: h.hello\n`,
    v3: { message: 'unexpected end of the stream within a double quoted scalar', line: 9 },
    fw: 'serverless.yml:4:10: the double-quoted string that starts here is never closed: add the closing " (to put a " inside it, write \\")',
    better: 'v3 points at the end of the file, where the parser gave up; the quote to close is on line 4',
  },
  {
    name: 'a single quote never closed',
    text: `${HEAD}  stage: 'dev\n  runtime: nodejs20.x\nfunctions:\n  hello:\n    handler: h.hello\n`,
    v3: { message: 'unexpected end of the stream within a single quoted scalar', line: 9 },
    fw: "serverless.yml:4:10: the single-quoted string that starts here is never closed: add the closing ' (to put a ' inside it, write '')",
    better: 'v3 points at the end of the file, where the parser gave up; the quote to close is on line 4',
  },
  {
    name: 'a [ list never closed',
    text: `${HEAD}  runtime: nodejs20.x\npackage:\n  patterns: [a, b\nfunctions:\n  hello:\n    handler: h.hello\n`,
    v3: { message: 'missed comma between flow collection entries', line: 7 },
    fw: 'serverless.yml:6:13: the list opened with "[" here is never closed: end it with "]" (a line that goes on must be indented deeper than its key)',
    better: 'v3 points at the next line and asks for a comma; the bracket to close is on line 6',
  },
  {
    name: 'a { mapping never closed',
    text: `${HEAD}  environment: { A: 1\nfunctions:\n  hello:\n    handler: h.hello\n`,
    v3: { message: 'missed comma between flow collection entries', line: 5 },
    fw: 'serverless.yml:4:16: the mapping opened with "{" here is never closed: end it with "}" (a line that goes on must be indented deeper than its key)',
    better: 'v3 points at the next line and asks for a comma; the brace to close is on line 4',
  },
];

function messageOf(text: string): string {
  try {
    parseYaml(text, 'serverless.yml');
  } catch (error) {
    assert.instance(error, ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a syntax error');
}

const mistakes = suite('YAML mistakes, in plain words at the line to fix');

for (const mistake of MISTAKES) {
  mistakes(`${mistake.name}: ${mistake.better ? 'the line to fix (on purpose not v3\'s)' : "v3's line"}, said plainly`, () => {
    const [first, ...frame] = messageOf(mistake.text).split('\n');
    assert.is(first, `Cannot parse ${mistake.fw}`);
    const line = Number(/^serverless\.yml:(\d+):/.exec(mistake.fw)![1]);
    if (!mistake.better) assert.is(line, mistake.v3.line, `v3 reports line ${mistake.v3.line}`);
    else assert.is.not(line, mistake.v3.line);
    // The frame: up to two lines before, the line marked with a caret under the column, up to two after.
    const marked = frame.findIndex((text) => text.startsWith('> '));
    assert.ok(marked >= 0 && marked <= 2, frame.join('\n'));
    assert.match(frame[marked], new RegExp(`^> ${line} \\| `));
    assert.match(frame[marked + 1], /^ +\| *\^$/);
    assert.ok(frame.length - marked - 2 <= 2);
  });
}

mistakes('the frame shows the two lines before and after the line to fix', () => {
  assert.is(
    messageOf(MISTAKES[0].text),
    [
      `Cannot parse ${MISTAKES[0].fw}`,
      '  3 |   name: aws',
      '  4 |   runtime: nodejs20.x',
      '> 5 |    region: us-east-1',
      '    |    ^',
      '  6 | functions:',
      '  7 |   hello:',
    ].join('\n'),
  );
});

mistakes('a tab shows as an arrow in the frame, and a long line is cut around the column', () => {
  assert.is(messageOf(MISTAKES[7].text).split('\n').find((line) => line.startsWith('> ')), '> 3 | →name: aws');
  const long = messageOf(`service: app\nprovider:\n  name: aws\n  tags: { a: "${'x'.repeat(300)}\n`).split('\n');
  assert.ok(long.slice(1).every((line) => line.length <= 120), long.join('\n'));
});

mistakes.run();
