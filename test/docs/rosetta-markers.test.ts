/**
 * How `npx projen rosetta:check` (test/docs/rosetta.ts) reads the examples; the check itself compiles them after
 * `compile` and runs in CI. These run in the default suite: the markers of every page parse, and each skip says why.
 */
import { readdirSync, readFileSync } from 'fs';
import { join, resolve } from 'path';
import { markdownExamples, repositoryPathsInDocs } from './rosetta';

const ROOT = resolve(__dirname, '..', '..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('rosetta markers', () => {
  test('a whole app compiles as it stands, a fragment inside the default fixture', () => {
    const md = ['# A', '```ts', 'const app = new App();', '```', '## B', '```ts', 'endpoint.grantInvoke(role);', '```', '```bash', 'x', '```'].join('\n');
    expect(markdownExamples('a.md', md).map((e) => [e.heading, e.line, e.fixture])).toEqual([['A', 2, undefined], ['B', 6, 'default']]);
  });

  test('skip needs a reason; a named fixture is used; the marker may sit above a consumer-test marker', () => {
    const md = ['<!-- rosetta: skip (Node.js only) -->', '<!-- consumer-test: typecheck (calls AWS) -->', '```ts', 'x', '```',
      '<!-- rosetta: fixture=mcp -->', '```ts', 'y', '```'].join('\n');
    expect(markdownExamples('a.md', md).map((e) => [e.skip, e.fixture])).toEqual([['Node.js only', 'default'], [undefined, 'mcp']]);
    expect(() => markdownExamples('a.md', '<!-- rosetta: skip -->\n```ts\nx\n```')).toThrow(/a\.md:1: rosetta marker 'skip'/);
    expect(() => markdownExamples('a.md', '<!-- rosetta skip (x) -->\n```ts\nx\n```')).toThrow(/a\.md:1: malformed rosetta marker/);
  });

  test.each(PAGES.map((p) => [p]))('%s: every marker parses', (page) => {
    expect(() => markdownExamples(page, readFileSync(join(ROOT, page), 'utf8'))).not.toThrow();
  });

  test('a docstring citing a repository path is found, a link to it on GitHub is not', () => {
    const assembly = {
      types: {
        'x.A': {
          fqn: 'x.A',
          docs: { summary: 'See docs/cost.md.', remarks: 'https://github.com/o/r/blob/main/docs/cost.md' },
          properties: [{ name: 'p', docs: { default: '- none (test/x.test.ts)' } }],
        },
      },
    };
    expect(repositoryPathsInDocs(assembly)).toEqual([
      'x.A (summary): cites docs/cost.md, a repository path', 'x.A.p (default): cites test/x.test.ts, a repository path',
    ]);
  });
});
