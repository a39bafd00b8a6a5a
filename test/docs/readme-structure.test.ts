/**
 * The README is a front page for users: its first screen (everything above the contributor quick start) has the pitch,
 * the picture, the install and a first app; each capability gets one short example and a link, and the detail lives in
 * docs/. Checked by structure, not by size.
 */
import { readFileSync } from 'fs';
import { join, resolve } from 'path';
import { extractBlocks, isTypeScript } from '../consumer/readme-blocks';

const ROOT = resolve(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The README's `## ` sections, in order, each with its text up to the next one. */
function sections(markdown: string): Array<{ title: string; body: string }> {
  return markdown.split(/\n(?=## )/).slice(1).map((s) => ({ title: s.split('\n')[0].replace(/^## /, ''), body: s }));
}

export function firstScreen(markdown: string): string {
  const end = markdown.indexOf('\n## Quick start');
  if (end < 0) throw new Error('README.md has no "## Quick start" section');
  return markdown.slice(0, end);
}

describe('README.md, first screen', () => {
  const screen = firstScreen(README);
  const titles = sections(screen).map((s) => s.title);

  test('has the pitch, the picture, Install and a first app, in that order', () => {
    expect(screen).toMatch(/^# cdk-sagemaker-mcp\n\n\*\*[^\n]+\*\*/);
    const picture = screen.indexOf('](docs/architecture.svg)');
    expect(picture).toBeGreaterThan(0);
    expect(titles).toEqual(['Install', 'A first app']);
    expect(picture).toBeLessThan(screen.indexOf('\n## Install'));
  });

  test('its first app is one complete CDK app of about 20 lines', () => {
    const apps = extractBlocks(screen).filter(isTypeScript);
    expect(apps).toHaveLength(1);
    expect(apps[0].code).toMatch(/new App\(\)/);
    expect(apps[0].code).toMatch(/from 'cdk-sagemaker-mcp'/);
    expect(apps[0].code.trimEnd().split('\n').length).toBeLessThanOrEqual(25);
  });

  test('holds no contributor commands (they come after it)', () => {
    expect(screen).not.toMatch(/npx projen|npm ci/);
    expect(README.indexOf('\n## Quick start')).toBeGreaterThan(README.indexOf('\n## A first app'));
  });
});

describe('README.md, examples', () => {
  const examples = sections(README).find((s) => s.title.startsWith('Examples'))!;
  const capabilities = examples.body.split(/\n(?=### )/).slice(1);

  test.each(capabilities.map((c) => [c.split('\n')[0], c] as const))('%s: at most one example, short prose, a link to docs/', (_title, body) => {
    const blocks = extractBlocks(body);
    expect(blocks.filter(isTypeScript).length).toBeLessThanOrEqual(1);
    // Prose outside code blocks and markers: a few lines; the detail lives in the linked page.
    const prose = body.replace(/```[\s\S]*?```/g, '').split('\n').slice(1)
      .filter((l) => l.trim() !== '' && !l.startsWith('<!--') && !l.startsWith('#### '));
    expect(prose.length).toBeLessThanOrEqual(10);
    expect(body.split('\n')[0]).toMatch(/\]\(docs\/[a-z-]+\.md(#[a-z0-9-]+)?\)/);
  });
});
