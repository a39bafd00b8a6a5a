// The project, one module per concern (projenrc/*.ts): each exports its projen options, a configure function, or both.
import { awscdk } from 'projen';
import { bundlingOptions, configureBundling } from './projenrc/bundling';
import { configureCapacity } from './projenrc/capacity';
import { configureChecks } from './projenrc/checks';
import { ciOptions, configureCi } from './projenrc/ci';
import { configureDocs } from './projenrc/docs';
import { configureExamples } from './projenrc/examples';
import { configureLibrary, libraryOptions } from './projenrc/library';
import { configureOpenAi } from './projenrc/openai';
import { configurePrices } from './projenrc/prices';
import { configureRelease, releaseOptions } from './projenrc/release';
import { configureSurface } from './projenrc/surface';
import { configureTasks } from './projenrc/tasks';
import { configureTests, testOptions } from './projenrc/tests';
import { configureWorkspace } from './projenrc/workspace';
// capability modules (projenrc/<name>.ts) import above, in eslint's alphabetical order, with their call below

const project = new awscdk.AwsCdkConstructLibrary({
  ...libraryOptions, // package metadata, toolchain versions, Node and aws-cdk-lib floors
  ...bundlingOptions, // the Lambda handlers' esbuild bundles
  ...testOptions, // jest
  ...releaseOptions, // registries and their coordinates
  ...ciOptions, // GitHub's build workflow comes from projenrc/ci.ts
});

configureLibrary(project); // jsii compile, npm ignores, generated sources
configureWorkspace(project); // the runtime package (packages/runtime) and the test stand-ins (packages/test-stand-ins)
configureBundling(project);
configureTests(project); // test, test:slow, test:lib, test:node22, test:clients, test:consumer, typecheck
configureExamples(project); // demo, bench
configureChecks(project); // api:diff, docgen:check, pacmak:check, layout lint rules
configureRelease(project); // package, release workflow, release:dry-run
configureCi(project); // the gate: `ci` task, .ci/run, .github/workflows/build.yml (last: it runs the tasks above)

// capability modules: one call line each, here (configure<Name>(project);)
configurePrices(project); // prices:refresh and its scheduled workflow
configureOpenAi(project); // the OpenAI-compatible route's dev dependencies
configureTasks(project); // MCP Tasks: conformance suite and ext-tasks requester
configureDocs(project); // rosetta:check: every example compiled and translated
configureSurface(project); // runtime:api, runtime:api:check: the runtime package's API report
configureCapacity(project); // test:floor: template tests at aws-cdk-lib's peer floor

project.synth();
