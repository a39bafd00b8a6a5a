/**
 * The release dry run's publish-job half (scripts/release-dry-run.ts), on a prepared artifact instead of a build: the
 * extract steps of .github/workflows/release.yml, run as written, unpack exactly the library at the bumped version and
 * the npm jobs publish the library and the runtime once each; a broken extract step, or the runtime's tarball back in
 * dist/js (where every jsii job's `dist/js/*.tgz` would match two files), fails it.
 */
import { execFileSync } from 'child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { checkPublishJobs, LIBRARY, loadWorkflow, publishJobs, RUNTIME, Workflow } from '../../scripts/release-dry-run';

const WORKFLOW = resolve(__dirname, '..', '..', '.github', 'workflows', 'release.yml');
const VERSION = '1.2.3';
let tmp: string;

/** A package tarball as npm pack and jsii-pacmak write it: everything under package/. */
function tarball(file: string, name: string, extra: Record<string, string> = {}, version = VERSION): void {
  const src = mkdtempSync(join(tmp, 'pkg-'));
  mkdirSync(join(src, 'package'));
  writeFileSync(join(src, 'package', 'package.json'), JSON.stringify({ name, version }));
  for (const [f, text] of Object.entries(extra)) writeFileSync(join(src, 'package', f), text);
  mkdirSync(join(file, '..'), { recursive: true });
  execFileSync('tar', ['-czf', file, '-C', src, 'package']);
}

/** The release job's artifact (dist/) with the library in dist/js and the runtime where `runtimeDir` says. */
function artifact(runtimeDir = 'runtime'): string {
  const dist = mkdtempSync(join(tmp, 'dist-'));
  tarball(join(dist, 'js', `${LIBRARY}@${VERSION}.jsii.tgz`), LIBRARY, { '.jsii': '{}' });
  tarball(join(dist, runtimeDir, `${RUNTIME}-${VERSION}.tgz`), RUNTIME);
  writeFileSync(join(dist, 'version.txt'), VERSION);
  return dist;
}

function check(wf: Workflow, dist = artifact()) {
  return checkPublishJobs(wf, {
    artifact: dist,
    version: VERSION,
    workDir: mkdtempSync(join(tmp, 'jobs-')),
    checkout: (dir) => mkdirSync(dir, { recursive: true }),
    runPackageStep: () => false, // `npx projen package:<lang>` needs a build; scripts/release-dry-run.ts runs the npm one
  });
}

/** The workflow with one job's extract step's command replaced. */
function withExtract(job: string, run: string): Workflow {
  const wf = loadWorkflow(WORKFLOW);
  const step = wf.jobs[job].steps.find((s) => s.name === 'Extract build artifact')!;
  (step as { run?: string }).run = run;
  return wf;
}

beforeAll(() => { tmp = mkdtempSync(join(tmpdir(), 'release-dry-run-')); });
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

test('the generated workflow: every jsii job extracts the library at the bumped version; npm gets both packages', () => {
  const wf = loadWorkflow(WORKFLOW);
  expect(publishJobs(wf).sort()).toEqual(['release_golang', 'release_maven', 'release_npm', 'release_npm_runtime', 'release_nuget', 'release_pypi']);
  const results = check(wf);
  expect(Object.fromEntries(results.map((r) => [r.job, r.publishes]))).toEqual({
    release_npm: `npm: ${LIBRARY}@${VERSION}`,
    release_npm_runtime: `npm: ${RUNTIME}@${VERSION}`,
    release_maven: `maven: ${LIBRARY}@${VERSION}`,
    release_pypi: `pypi: ${LIBRARY}@${VERSION}`,
    release_nuget: `nuget: ${LIBRARY}@${VERSION}`,
    release_golang: `golang: ${LIBRARY}@${VERSION}`,
  });
});

test('a broken extract step fails, naming the job and the step', () => {
  // a glob over every dist folder: tar takes the second tarball for a member name ("Not found in archive")
  const wf = withExtract('release_maven', 'tar --strip-components=1 -xzvf dist/*/*.tgz -C .repo');
  expect(() => check(wf)).toThrow(/release_maven: step "Extract build artifact" .* failed with exit 2/s);
});

test('an extract step that unpacks the runtime instead of the library fails', () => {
  const wf = withExtract('release_pypi', 'tar --strip-components=1 -xzvf dist/runtime/*.tgz -C .repo');
  expect(() => check(wf)).toThrow(`release_pypi: "Extract build artifact" put ${RUNTIME}@${VERSION} in .repo, expected ${LIBRARY}@${VERSION}`);
});

test('the runtime packed into dist/js again (the layout before): the jsii jobs\' extract fails', () => {
  expect(() => check(loadWorkflow(WORKFLOW), artifact('js'))).toThrow(/release_npm: step "Extract build artifact" .* failed with exit 2/s);
});

test('a bump that missed the runtime fails', () => {
  const dist = artifact();
  tarball(join(dist, 'runtime', `${RUNTIME}-${VERSION}.tgz`), RUNTIME, {}, '0.0.0'); // over the bumped one
  expect(() => check(loadWorkflow(WORKFLOW), dist)).toThrow(`release_npm_runtime: would publish ${RUNTIME}@0.0.0, expected version ${VERSION}`);
});
