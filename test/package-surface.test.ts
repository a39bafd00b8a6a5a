/**
 * What a user of the published package gets: the subpaths it exports, the files it ships, and an install line in the
 * README for every third-party module the runtime subpaths load (they are devDependencies: jsii only accepts
 * jsii-enabled dependencies).
 */
import { readdirSync, readFileSync } from 'fs';
import { builtinModules } from 'module';
import { join } from 'path';

const root = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
}

function thirdPartyImports(files: string[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(/from '((?:@[\w.-]+\/)?[\w.-]+)[^']*'/g)) {
      const name = m[1].replace(/^node:/, '');
      if (!name.startsWith('.') && !builtinModules.includes(name)) names.add(name);
    }
  }
  return [...names].sort();
}

// The README's "## Install" section, up to the next section.
const installStart = readme.indexOf('\n## Install\n');
const installBlock = installStart < 0 ? '' : readme.slice(installStart, readme.indexOf('\n## ', installStart + 5));

describe('the published package', () => {
  test('exports the jsii entry point and both runtime subpaths', () => {
    expect(Object.keys(pkg.exports)).toEqual(expect.arrayContaining(['.', './runtime', './runtime/mcp', './.jsii', './package.json']));
    expect(pkg.bin).toEqual({ 'cdk-sagemaker-mcp': 'bin/cdk-sagemaker-mcp' });
  });

  test('the README says how to install every module the runtime loads', () => {
    const runtime = sourceFiles(join(root, 'src', 'runtime')).filter((f) => !f.endsWith('cli.ts'));
    const missing = thirdPartyImports(runtime).filter((name) => !installBlock.includes(name));
    expect(missing).toEqual([]);
  });

  test('the runtime never imports aws-cdk-lib or constructs', () => {
    const imports = thirdPartyImports(sourceFiles(join(root, 'src', 'runtime')));
    expect(imports.filter((name) => name === 'aws-cdk-lib' || name === 'constructs')).toEqual([]);
  });
});
