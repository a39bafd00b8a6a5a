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
import { blockFileName, extractBlocks, headingAnchors, isTypeScript, localLinks } from './readme-blocks';
import { PipelineDefinition, TrainingPipeline } from '../../src/pipelines';
import { loadCliConfig } from 'cdk-sagemaker-mcp-runtime/cli';
import { sageMakerMcpToolNames } from 'cdk-sagemaker-mcp-runtime/mcp';

const ROOT = resolve(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const DOCS = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f));

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
