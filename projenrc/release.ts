/**
 * Getting the packages: both are packed by `npx projen package` (complete, or not at all) and released by one
 * workflow at one version; CI proves the release path without publishing (`release:dry-run`).
 */
import { awscdk, Component, github, javascript } from 'projen';

// The coordinates in each registry (README "Install" quotes them).
export const releaseOptions = {
  packageManager: javascript.NodePackageManager.NPM,
  publishToPypi: { distName: 'cdk-sagemaker-mcp', module: 'cdk_sagemaker_mcp' },
  publishToMaven: {
    javaPackage: 'io.github.cdksagemakermcp',
    mavenGroupId: 'io.github.cdk-sagemaker-mcp',
    mavenArtifactId: 'cdk-sagemaker-mcp',
  },
  publishToNuget: { dotNetNamespace: 'CdkSageMakerMcp', packageId: 'CdkSageMakerMcp' },
  publishToGo: { moduleName: 'github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp-go' },
} satisfies Partial<awscdk.AwsCdkConstructLibraryOptions>;

export function configureRelease(project: awscdk.AwsCdkConstructLibrary): void {
  // `npx projen package` builds what it packs, on a fresh clone too: the handler bundles (assets/, always rebuilt: a few
  // seconds), lib/ and .jsii (compiled when missing; `build` compiles them just before), and the runtime package. It
  // packs JavaScript only (Python/Java/.NET/Go need registries; the release workflow packages every language), names
  // the library's tarball as npm would (cdk-sagemaker-mcp-<version>.tgz, not jsii-pacmak's name@version.jsii.tgz), and
  // fails when a tarball lacks what it must carry (both: scripts/check-package.ts).
  const compileIfMissing = project.addTask('compile:if-missing', {
    description: 'Compile (jsii) when lib/index.js or .jsii is missing',
    condition: '! (test -f lib/index.js && test -f .jsii)',
  });
  compileIfMissing.spawn(project.compileTask);
  const runtimePackage = project.addTask('package:runtime', {
    description: 'Build and pack the runtime package (packages/runtime) into dist/runtime',
  });
  runtimePackage.spawn(project.tasks.tryFind('runtime:build')!);
  // In its own folder: every jsii publish job extracts `dist/js/*.tgz`, which must name one file.
  runtimePackage.exec('rm -rf dist/runtime && mkdir -p dist/runtime && npm pack --pack-destination dist/runtime -w packages/runtime');
  const packageTask = project.tasks.tryFind('package')!;
  packageTask.reset();
  packageTask.spawn(project.bundler.bundleTask);
  packageTask.spawn(compileIfMissing);
  packageTask.spawn(project.tasks.tryFind('package:js')!);
  packageTask.spawn(runtimePackage);
  packageTask.exec('ts-node --project scripts/tsconfig.json --transpile-only scripts/check-package.ts');

  // One version for both packages. projen's `bump` writes the release version into the root package.json and
  // dist/version.txt; scripts/release-version.ts then writes it into packages/runtime/package.json (whose version the MCP
  // server reports) and into the root's devDependency on the runtime; `unbump` puts 0.0.0 back in both.
  const releaseVersion = 'ts-node --project scripts/tsconfig.json --transpile-only scripts/release-version.ts';
  project.tasks.tryFind('bump')!.exec(releaseVersion);
  project.tasks.tryFind('unbump')!.exec(`${releaseVersion} --reset`);
  new RuntimePublishJob(project);

  // The release path without publishing: reads .github/workflows/release.yml and runs its install, release (bump, build,
  // package, unbump) and artifact-extract steps as written there, in a scratch clone (scripts/release-dry-run.ts).
  project.addDevDeps('yaml@^2.9.1'); // the dry run parses the workflow
  project.addTask('release:dry-run', {
    description: 'Run the release workflow\'s build, bump, package and extract steps (read from .github/workflows/release.yml) in a scratch clone; publishes nothing',
    exec: 'ts-node --project scripts/tsconfig.json --transpile-only scripts/release-dry-run.ts',
    receiveArgs: true,
  });
}

/**
 * The runtime's npm publish job: projen's own npm job (same trigger, permissions, artifact download and publib-npm
 * step), minus the steps that re-pack the jsii library, publishing the tarball in dist/runtime instead (publib-npm takes
 * the folder of tarballs as its argument, default dist/js: https://github.com/cdklabs/publib#npm). Derived after
 * projen's Release component has rendered its jobs (components pre-synthesize in the order they were added).
 */
class RuntimePublishJob extends Component {
  constructor(private readonly library: awscdk.AwsCdkConstructLibrary) {
    super(library);
  }

  public preSynthesize(): void {
    const workflow = this.library.github!.tryFindWorkflow('release')!;
    const npmJob = workflow.getJob('release_npm') as github.workflows.Job;
    // (The job's `tools` field, copied with it, sets up Node.js.)
    const keep = (s: github.workflows.JobStep) => ['Download build artifacts', 'Restore build artifact permissions', 'Release'].includes(s.name ?? '');
    const steps = npmJob.steps.filter(keep).map((s) => (s.name === 'Release' ? { ...s, run: `${s.run} 'dist/runtime'` } : s));
    if (steps.length !== 3) throw new Error(`release_npm no longer has the steps the runtime's job copies: ${npmJob.steps.map((s) => s.name ?? s.uses).join(', ')}`);
    workflow.addJobs({ release_npm_runtime: { ...npmJob, name: 'Publish cdk-sagemaker-mcp-runtime to npm', steps } });
    const gh = workflow.getJob('release_github') as github.workflows.Job;
    workflow.updateJob('release_github', { ...gh, needs: [...(gh.needs ?? []), 'release_npm_runtime'] });
  }
}
