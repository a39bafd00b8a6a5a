/**
 * What the docs and source comments say about AWS services, against AWS's own pages:
 * - a streamed Lambda response is "not interrupted or stopped when the invoking client connection is broken", and the
 *   function is billed for its full duration
 *   (https://docs.aws.amazon.com/lambda/latest/dg/configuration-response-streaming.html): nothing here may say that a
 *   client that disconnects (goes away) cancels or stops the stream;
 * - SageMaker Model Monitor is no longer open to new customers (https://docs.aws.amazon.com/sagemaker/latest/dg/model-monitor.html):
 *   every passage that names it says so.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative } from 'path';

const ROOT = join(__dirname, '..', '..');

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : files(path, ext);
    return ext.test(name) ? [path] : [];
  });
}

const SOURCES = [
  ...files(join(ROOT, 'src'), /\.ts$/),
  ...files(join(ROOT, 'packages', 'runtime', 'src'), /\.ts$/),
  ...files(join(ROOT, 'docs'), /\.md$/),
  join(ROOT, 'README.md'),
  join(ROOT, 'packages', 'runtime', 'README.md'),
].map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

/** Paragraphs of Markdown, and comment blocks (with their `*` margins removed) of TypeScript. */
function passages(path: string, text: string): string[] {
  if (path.endsWith('.md')) return text.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, ' '));
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?:^[ \t]*\/\/.*\n?)+/gm)].map((m) => m[0].replace(/^\s*(\/\*\*?|\*\/?|\/\/)/gm, ' ').replace(/\s+/g, ' '));
}

test('nothing says a client that disconnects cancels or stops a streamed response', () => {
  const claims = SOURCES.flatMap(({ path, text }) => passages(path, text)
    .filter((p) => /(disconnect\w*|goes away|hangs up)[^.]*\b(cancel|stop|abort|end)s?\b/i.test(p) && !/not (be )?(interrupted|stopped)|does not (end|stop)|is not stopped/i.test(p))
    .map((p) => `${path}: ${p.trim().slice(0, 160)}`));
  expect(claims).toEqual([]);
});

test('every passage that names SageMaker Model Monitor says it is no longer open to new customers', () => {
  const mentions = SOURCES.flatMap(({ path, text }) => passages(path, text).filter((p) => /Model Monitor/.test(p)).map((p) => ({ path, p })));
  expect(mentions.length).toBeGreaterThan(0);
  expect(mentions.filter(({ p }) => !/no longer open to new customers/.test(p)).map(({ path, p }) => `${path}: ${p.trim().slice(0, 160)}`)).toEqual([]);
});
