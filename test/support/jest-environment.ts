/**
 * The jest environment of every test file: Node's, plus two template-check engines kept warm per worker (each built
 * through its package's public API).
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
    // One plugin per worker, through its public constructor: it keeps its engine between templates (and rebuilds it
    // itself when a template brings a resource type the engine was not built for).
    validatePlugin ??= new cdk.CloudFormationValidatePlugin();
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
