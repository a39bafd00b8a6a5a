/**
 * What users of the two published packages get. The construct library (root, jsii) ships constructs and the bundled
 * handlers only: no CLI, no runtime subpaths, and no non-jsii runtime dependency (the runtime package is at most a
 * devDependency, for the handlers esbuild bundles). The runtime package (packages/runtime) exports `.` and `./mcp`,
 * ships the `cdk-sagemaker-mcp` CLI, and declares a semver range for every module it imports, so `npm i
 * cdk-sagemaker-mcp-runtime` is the whole install.
 */
import { readdirSync, readFileSync } from 'fs';
import { builtinModules } from 'module';
import { join } from 'path';

const root = join(__dirname, '..');
const runtimeDir = join(root, 'packages', 'runtime');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const runtimePkg = JSON.parse(readFileSync(join(runtimeDir, 'package.json'), 'utf8'));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
}

function thirdPartyImports(files: string[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)) {
      // `node:process` is a built-in; `@scope/pkg/sub` and `pkg/sub` belong to `@scope/pkg` and `pkg`.
      if (m[1].startsWith('node:') || m[1].startsWith('.')) continue;
      const name = m[1].split('/').slice(0, m[1].startsWith('@') ? 2 : 1).join('/');
      if (!builtinModules.includes(name)) names.add(name);
    }
  }
  return [...names].sort();
}

// The README's "## Install" section, up to the next section.
const installStart = readme.indexOf('\n## Install\n');
const installBlock = installStart < 0 ? '' : readme.slice(installStart, readme.indexOf('\n## ', installStart + 5));

describe('the construct library (cdk-sagemaker-mcp)', () => {
  test('ships no CLI and no runtime subpaths', () => {
    expect(pkg.bin).toBeUndefined();
    expect(Object.keys(pkg.exports ?? {}).filter((k) => k.startsWith('./runtime'))).toEqual([]);
    expect(pkg.typesVersions).toBeUndefined();
  });

  test('has the runtime package as a devDependency only (jsii accepts only jsii dependencies)', () => {
    expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
    expect(Object.keys(pkg.peerDependencies ?? {})).not.toContain('cdk-sagemaker-mcp-runtime');
    expect(pkg.devDependencies['cdk-sagemaker-mcp-runtime']).toBe(runtimePkg.version);
    expect(pkg.workspaces).toEqual(['packages/*']);
  });

  test('the constructs never import the runtime package (only the bundled *.lambda.ts handlers do)', () => {
    const constructFiles = sourceFiles(join(root, 'src')).filter((f) => !f.endsWith('.lambda.ts'));
    const imports = thirdPartyImports(constructFiles);
    expect(imports.filter((name) => name.startsWith('cdk-sagemaker-mcp-runtime') || name === 'zod')).toEqual([]);
  });
});

describe('the runtime package (cdk-sagemaker-mcp-runtime)', () => {
  test('exports the runtime and the MCP server factory, and ships the CLI', () => {
    expect(runtimePkg.name).toBe('cdk-sagemaker-mcp-runtime');
    // One subpath per capability folder besides these (packages/runtime/test/package-contents.test.ts holds them to the folders).
    expect(Object.keys(runtimePkg.exports)).toEqual(expect.arrayContaining(['.', './mcp', './internal/lambda', './cli', './package.json']));
    // The construct library's contract and handlers are internal subpaths, not capability ones.
    expect(Object.keys(runtimePkg.exports)).not.toEqual(expect.arrayContaining(['./contract']));
    expect(Object.keys(runtimePkg.exports)).not.toEqual(expect.arrayContaining(['./lambda']));
    expect(runtimePkg.bin).toEqual({ 'cdk-sagemaker-mcp': 'bin/cdk-sagemaker-mcp.js' });
  });

  test('declares a semver range in dependencies for every module it imports', () => {
    const imports = thirdPartyImports(sourceFiles(join(runtimeDir, 'src')));
    // A types-only package (`aws-lambda`) is declared as its DefinitelyTyped package, which the published .d.ts files need.
    const declared = (name: string) => name in (runtimePkg.dependencies ?? {}) || `@types/${name}` in (runtimePkg.dependencies ?? {});
    expect(imports.filter((name) => !declared(name))).toEqual([]);
    for (const [name, range] of Object.entries<string>(runtimePkg.dependencies)) {
      expect(`${name}@${range}`).toMatch(/@\^\d+\.\d+\.\d+$/);
    }
  });

  test('never imports aws-cdk-lib or constructs', () => {
    const imports = thirdPartyImports(sourceFiles(join(runtimeDir, 'src')));
    expect(imports.filter((name) => name === 'aws-cdk-lib' || name === 'constructs')).toEqual([]);
  });

  test('the README installs it with one line, no hand-picked client list', () => {
    expect(installBlock).toContain('npm i cdk-sagemaker-mcp-runtime');
    expect(installBlock).not.toMatch(/@aws-sdk\/client-/);
  });
});
