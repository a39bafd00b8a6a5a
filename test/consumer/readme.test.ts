/**
 * The README as a front page, checked offline and fast (the consumer-app test, `npx projen test:consumer`, installs the
 * packed library and synthesizes every block; this checks what can be checked without it): block markers, links,
 * the docs pages' first lines, and the sample files the README links to.
 */
import { readdirSync, readFileSync } from 'fs';
import { dirname, join, resolve } from 'path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { blockFileName, extractBlocks, fragmentModule, headingAnchors, isApp, isTypeScript, localLinks, withChecks } from './readme-blocks';
import { PipelineDefinition, TrainingPipeline } from '../../src/pipelines';
import { loadCliConfig } from 'cdk-sagemaker-mcp-runtime/cli';
import { sageMakerMcpToolNames } from 'cdk-sagemaker-mcp-runtime/mcp';

const ROOT = resolve(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const DOCS = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f));
const FIXTURE = readFileSync(join(__dirname, 'fragment.ts-fixture'), 'utf8');

describe('README.md', () => {
  test('the install line includes cdk-nag (the checks run with it)', () => {
    expect(README).toMatch(/^npm install cdk-sagemaker-mcp aws-cdk-lib constructs cdk-nag$/m);
  });

  test('keeps exactly the two quick-start commands, each after npm ci', () => {
    const quick = extractBlocks(README).find((b) => b.heading.startsWith('Quick start'));
    const commands = quick!.code.split('\n').filter((l) => l.trim() !== '').map((l) => l.replace(/\s+#.*$/, ''));
    expect(commands).toEqual(['npm ci && npx projen demo', 'npm ci && npx projen test']);
  });

  const ts = extractBlocks(README).filter(isTypeScript);

  test('has one TypeScript example per capability', () => {
    const headings = ts.map((b) => b.heading);
    for (const capability of ['Realtime', 'Async', 'JumpStart', 'Shared GPU', 'Feature Store', 'Training pipelines', 'MCP tool server', 'Checks']) {
      expect(headings.filter((h) => h.startsWith(capability))).toHaveLength(1);
    }
  });

  test.each(ts.map((b) => [blockFileName(b), b] as const))('block %s is self-contained', (_name, block) => {
    // Only package imports: the package does not ship examples/ or anything repo-relative.
    for (const m of block.code.matchAll(/from '([^']+)'/g)) expect(m[1]).not.toMatch(/^\.{1,2}\//);
    if (block.mode === 'synth' || block.mode === 'run') {
      // A block that is executed cannot rely on `declare const` (it would be undefined at run time)...
      expect(block.code).not.toMatch(/^declare /m);
      // ...and a synthesized one must be a complete CDK app.
      if (block.mode === 'synth') expect(block.code).toMatch(/new App\(/);
    }
  });

  test.each([['README.md'], ...DOCS.map((d) => [d])])('every local link of %s resolves (file and #anchor)', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const broken: string[] = [];
    for (const { line, target } of localLinks(text)) {
      const [path, anchor] = target.split('#');
      const resolved = path ? resolve(ROOT, dirname(file), path) : join(ROOT, file);
      let body: string;
      try {
        body = readFileSync(resolved, 'utf8');
      } catch {
        broken.push(`${file}:${line} ${target} (no such file)`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !headingAnchors(body).has(anchor)) broken.push(`${file}:${line} ${target} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });

  test('links every docs page', () => {
    for (const doc of DOCS) expect(README).toContain(`](${doc})`);
  });
});

describe('docs/*.md', () => {
  test.each(DOCS.map((d) => [d]))('%s starts with its title, a one-line summary and a link back to the README', (doc) => {
    const [title, blank, summary] = readFileSync(join(ROOT, doc), 'utf8').split('\n');
    expect(title).toMatch(/^# \S/);
    expect(blank).toBe('');
    expect(summary).toMatch(/\[cdk-sagemaker-mcp\]\(\.\.\/README\.md\)/);
  });
});

describe('the docs\' TypeScript blocks, as the consumer-app test runs them', () => {
  const blocks = DOCS.flatMap((file) => extractBlocks(readFileSync(join(ROOT, file), 'utf8')).filter(isTypeScript)
    .map((b) => [`${file}:${b.line}`, b] as const));

  test('every block is synthesized (a whole app, or a fragment in the fixture), run, type-checked or skipped with a reason', () => {
    const count = (mode: string) => blocks.filter(([, b]) => b.mode === mode).length;
    expect(count('synth') + count('run') + count('typecheck') + count('skip')).toBe(blocks.length);
    for (const [, b] of blocks) if (b.mode !== 'synth') expect(b.reason).toMatch(/\S/);
    // Most of the docs' examples build something: they are synthesized, not merely compiled.
    expect(count('synth')).toBeGreaterThan(blocks.length / 2);
  });

  test.each(blocks.filter(([, b]) => b.mode === 'synth' || b.mode === 'run'))('%s can be executed as it stands', (_where, block) => {
    // Top-level await and the runtime package's calls need a deployed endpoint: such a block is a runtime snippet (marked).
    expect(block.code).not.toMatch(/^(const .* = )?await /m);
    expect(block.code).not.toMatch(/from 'cdk-sagemaker-mcp-runtime/);
    for (const m of block.code.matchAll(/from '([^']+)'/g)) expect(m[1]).not.toMatch(/^\.{1,2}\//);
  });

  test.each(blocks.filter(([, b]) => b.mode === 'synth' && !isApp(b)))('fragment %s builds in the fixture', (_where, block) => {
    const module = fragmentModule(FIXTURE, block.code);
    expect(module).not.toMatch(/^declare /m);
    expect(module).toContain(block.code.split('\n').filter((l) => l.trim() && !/^(import |declare )/.test(l))[0]);
  });
});

describe('withChecks (a whole app with the checks of docs/checks.md)', () => {
  test('registers cdk-nag and SageMakerMcpChecks right after the app is made, the block\'s lines unchanged', () => {
    const block = ["import { App, Stack } from 'aws-cdk-lib';", '', 'const app = new App();', "new Stack(app, 'S');", 'app.synth();'].join('\n');
    const checked = withChecks(block);
    expect(checked).toContain(block.split('\n').slice(0, 3).join('\n'));
    expect(checked.split('\n').slice(-4)).toEqual([
      'const app = new App();',
      'ConsumerTestValidations.of(app).addPlugins(new ConsumerTestNag(app), new ConsumerTestChecks());',
      "new Stack(app, 'S');",
      'app.synth();',
    ]);
  });

  test('leaves a block that registers its own checks, or has no app, as it is', () => {
    const own = 'const app = new App();\nValidations.of(app).addPlugins(new AwsSolutionsChecks(app));';
    expect(withChecks(own)).toBe(own);
    expect(withChecks('const stack = new Stack();')).toBe('const stack = new Stack();');
  });

  test('every whole-app block of the README and docs gets the checks', () => {
    const apps = ['README.md', ...DOCS].flatMap((file) => extractBlocks(readFileSync(join(ROOT, file), 'utf8')).filter(isTypeScript)
      .map((b) => [`${file}:${b.line}`, b] as const)).filter(([, b]) => b.mode !== 'skip' && b.mode !== 'typecheck' && isApp(b));
    expect(apps.length).toBeGreaterThan(5);
    for (const [where, b] of apps) expect([where, /ConsumerTestNag|AwsSolutionsChecks/.test(withChecks(b.code))]).toEqual([where, true]);
  });
});

describe('fragmentModule (a fragment inside the consumer fixture)', () => {
  const fixture = [
    "import * as fixture_cdk from 'aws-cdk-lib';",
    'class Fragment {',
    '  constructor() {',
    '    const stack = this;',
    "    const bucket = fixture_s3.Bucket.fromBucketName(stack, 'B', 'b');",
    "    const endpoint = new Endpoint(stack, 'E', { bucket });",
    "    const unused = new Expensive(stack, 'X');",
    '    {',
    '      /// here',
    '    }',
    '  }',
    '}',
  ].join('\n');

  test('hoists imports, puts the statements at the here line, builds only the values named (and what they name)', () => {
    const module = fragmentModule(fixture, ["import { Duration } from 'aws-cdk-lib';", '', 'endpoint.grant(role); // a Duration'].join('\n'));
    expect(module.split('\n')[0]).toBe("import { Duration } from 'aws-cdk-lib';");
    expect(module).toMatch(/const stack = this;\n.*const bucket = .*\n.*const endpoint = .*\n\s*\{\n\nendpoint\.grant\(role\);/);
    expect(module).not.toContain('Expensive');
  });

  test('ignores names in comments, strings, property keys and members; the fragment\'s own names shadow the fixture\'s', () => {
    const module = fragmentModule(fixture, "const endpoint = make({ bucket: 'stack' }); // unused\nx.unused;");
    expect(module).not.toMatch(/const (stack|bucket|unused) = /);
    expect(module.match(/const endpoint = /g)).toHaveLength(1);
  });

  test('drops a declare of a value the fixture builds, refuses any other', () => {
    expect(fragmentModule(fixture, 'declare const bucket: s3.IBucket;\nbucket.grantRead(fn);')).toMatch(/^\s*const bucket = /m);
    expect(() => fragmentModule(fixture, 'declare function score(): object;\nscore();')).toThrow(/declare function score.*mark the block typecheck/);
    expect(() => fragmentModule('const a = 1;', 'a;')).toThrow(/no '\/\/\/ here' line/);
  });
});

describe('the sample files the README links to', () => {
  test('examples/mcp.json is a configuration the CLI accepts, with a tool of every kind', () => {
    const config = loadCliConfig(join(ROOT, 'examples', 'mcp.json'));
    expect(sageMakerMcpToolNames(config)).toEqual(expect.arrayContaining([
      'invoke_endpoint', 'describe_endpoint', 'start_async_inference', 'get_online_features', 'start_training',
    ]));
  });

  test('examples/pipeline-definition.json passes TrainingPipeline\'s checks with the parameters the README names', () => {
    const definition = PipelineDefinition.fromFile(join(ROOT, 'examples', 'pipeline-definition.json'));
    expect(definition.parameters.map((p) => p.name)).toEqual(['InputDataUri', 'MaxRounds']);
    const stack = new Stack(new App(), 'Training');
    new TrainingPipeline(stack, 'Churn', {
      pipelineName: 'churn-training',
      definition,
      role: iam.Role.fromRoleArn(stack, 'StepsRole', 'arn:aws:iam::123456789012:role/churn-training-steps'),
      trainingJobRole: { outputs: [{ bucket: s3.Bucket.fromBucketName(stack, 'Data', 'example-training-data'), prefix: 'churn/models/' }] },
    });
    // The sample's Training step runs as the role the construct creates (the placeholder is replaced by its ARN).
    const body = JSON.stringify(Template.fromStack(stack).findResources('AWS::SageMaker::Pipeline'));
    expect(body).not.toContain(TrainingPipeline.TRAINING_JOB_ROLE_ARN);
    expect(body).toMatch(/RoleArn[^{]*\{"Fn::GetAtt":\["ChurnTrainingJobRole[A-Z0-9]+","Arn"\]\}/);
  });
});

describe('extractBlocks (how the consumer-app test reads the README)', () => {
  test('reads the marker on the last non-blank line before a fence, and requires a reason', () => {
    const md = ['# A', '```ts', 'x', '```', '<!-- consumer-test: typecheck (calls AWS) -->', '', '```ts', 'y', '```'].join('\n');
    expect(extractBlocks(md).map((b) => [b.mode, b.reason, b.line])).toEqual([['synth', undefined, 2], ['typecheck', 'calls AWS', 7]]);
    expect(() => extractBlocks('<!-- consumer-test: skip -->\n```ts\nx\n```')).toThrow(/needs a reason/);
    expect(() => extractBlocks('<!-- consumer-test: maybe (x) -->\n```ts\nx\n```')).toThrow(/mode 'maybe'/);
    expect(() => extractBlocks('<!-- consumer-test skip (x) -->\n```ts\nx\n```')).toThrow(/malformed/);
  });

  test('headingAnchors follows GitHub (punctuation dropped, repeats numbered)', () => {
    expect([...headingAnchors('# Runtime (`cdk-sagemaker-mcp/runtime/mcp`)\n## Tools\n## Tools\n```\n# not a heading\n```')])
      .toEqual(['runtime-cdk-sagemaker-mcpruntimemcp', 'tools', 'tools-1']);
  });
});
