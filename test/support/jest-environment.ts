/**
 * The jest environment of every test file: Node's, plus two template-check engines kept warm per worker.
 *
 * Why: jest gives each test file a fresh module registry, so each file paid again for what never changes between
 * files: aws-cdk-lib's CloudFormation validation engine (WebAssembly, ~2.4 s to initialise; it ran on every synth) and
 * the CloudFormation resource database of `@aws-cdk/aws-service-spec` (~0.5–1 s to load). Jest loads this module once
 * per worker with Node's own `require`, so what it holds outlives the test files: the worker initialises each engine
 * once and test/support/template-checks.ts reads them from `globalThis.__templateCheckEngines`.
 *
 * Synth-time validation is off in the tests' realm (`CDK_VALIDATION=false`, read by aws-cdk-lib's synthesis): it only
 * warns unless a feature flag makes it fail, and nothing reads those warnings; `templateProblems` runs the same engine
 * explicitly on every template a test checks and fails on its findings. A test that wants the CLI's synth (the integ
 * apps in test/security/control-tower.test.ts) deletes the variable. Child processes get the worker's own environment.
 */
import type { SpecDatabase } from '@aws-cdk/service-spec-types';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import type { CloudFormationValidatePlugin, IPolicyValidationContext, PolicyValidationPluginReport } from 'aws-cdk-lib';
import NodeEnvironment from 'jest-environment-node';

/** What test/support/template-checks.ts finds on `globalThis.__templateCheckEngines`. */
export interface TemplateCheckEngines {
  specDatabase(): SpecDatabase;
  /** `CloudFormationValidatePlugin.validate` on one warm engine. */
  cloudFormationValidate(context: IPolicyValidationContext): PolicyValidationPluginReport;
}

let specDatabase: SpecDatabase | undefined;
let validatePlugin: CloudFormationValidatePlugin | undefined;
let engineBuilt = false;

// Loaded on first use only: suites that never check a template (the runtime's) never pay for either.
const engines: TemplateCheckEngines = {
  specDatabase() {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    specDatabase ??= (require('@aws-cdk/aws-service-spec') as typeof import('@aws-cdk/aws-service-spec')).loadAwsServiceSpecSync();
    return specDatabase;
  },
  cloudFormationValidate(context) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const cdk = require('aws-cdk-lib') as typeof import('aws-cdk-lib');
    validatePlugin ??= (cdk.CloudFormationValidatePlugin as any)._singletonInstance() as CloudFormationValidatePlugin;
    // The plugin builds a new engine whenever a template has a resource type its engine was not built for, and builds
    // it for that template's types only (~0.2 s each, and ~1.3 s for the first, in aws-cdk-lib 2.276.0), so templates
    // of different shapes kept rebuilding it. Built once for every resource type of the CloudFormation database, the
    // engine serves any template: it then holds the rules of every type, and each rule only evaluates its own types.
    if (!engineBuilt) {
      const types = new Set(engines.specDatabase().all('resource').map((r) => r.cloudFormationType));
      (validatePlugin as any).initializeEngine(types);
      engineBuilt = true;
    }
    return validatePlugin.validate(context);
  },
};

export default class TestEnvironment extends NodeEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    this.global.__templateCheckEngines = engines;
    // The tests' `process.env` is jest's copy of the worker's: this does not reach child processes.
    const env = (this.global.process as NodeJS.Process).env;
    env.CDK_VALIDATION = 'false';
    // The AWS SDK warns once per module registry, so once per test file on Node 20 (40 times a run); the README
    // states the Node versions we support and `npx projen test:node22` runs the SDK suites on Node 22.
    env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  }
}
