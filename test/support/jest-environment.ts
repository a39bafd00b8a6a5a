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
 * The validation plugin builds its engine for the resource types of the template it checks and reuses it only for
 * templates whose types are a subset of those: checked as they come, each file's different stacks rebuilt it again
 * and again (0.3 to 1.5 s each). It is built here once for every resource type of the services the constructs use
 * (and again with the union when a template brings a type outside them): an engine built for more types checks a
 * template exactly as one built for its own types does (the plugin itself reuses a superset's engine). Not for every
 * type of the database: building costs ~5 ms per type.
 *
 * Synth-time validation is off in the tests' realm (`CDK_VALIDATION=false`, read by aws-cdk-lib's synthesis): it only
 * warns unless a feature flag makes it fail, and nothing reads those warnings; `templateProblems` runs the same engine
 * explicitly on every template a test checks and fails on its findings. A test that wants the CLI's synth (the integ
 * apps in test/security/control-tower.test.ts) deletes the variable. Child processes get the worker's own environment.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { SpecDatabase } from '@aws-cdk/service-spec-types';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import type { CloudFormationValidatePlugin, IPolicyValidationContext, PolicyValidationPluginReport } from 'aws-cdk-lib';
import NodeEnvironment from 'jest-environment-node';

/** What test/support/template-checks.ts finds on `globalThis.__templateCheckEngines`. */
export interface TemplateCheckEngines {
  specDatabase(): SpecDatabase;
  /** `CloudFormationValidatePlugin.validate` on one warm engine. */
  cloudFormationValidate(context: IPolicyValidationContext): PolicyValidationPluginReport;
  /** How many times the validation engine has been built in this worker. */
  engineBuilds(): number;
}

let specDatabase: SpecDatabase | undefined;
let validatePlugin: CloudFormationValidatePlugin | undefined;
/** The resource types the plugin's engine was last built for. */
const engineTypes = new Set<string>();
let builds = 0;
/** The services whose resource types the engine is first built for: those the constructs and the tests' stacks create. */
const SERVICES = /^AWS::(ApiGateway|ApplicationAutoScaling|Athena|BedrockAgentCore|CloudFormation|CloudWatch|Cognito|DynamoDB|EC2|ECR|Events|Glue|IAM|KMS|Lambda|Logs|S3|SNS|SQS|SSM|SageMaker|SecretsManager|StepFunctions|WAFv2)::/;

/** The resource types of the templates a validation context names. */
function resourceTypes(context: IPolicyValidationContext): Set<string> {
  const types = new Set<string>();
  for (const { templatePath } of context.stackTemplates) {
    const resources: Record<string, { Type?: unknown }> = JSON.parse(readFileSync(templatePath, 'utf8')).Resources ?? {};
    for (const r of Object.values(resources)) if (typeof r.Type === 'string') types.add(r.Type);
  }
  return types;
}

/** Has the plugin build its engine for `types`: it validates a template holding one resource of each (report unread). */
function buildEngineFor(plugin: CloudFormationValidatePlugin, types: Set<string>): void {
  const dir = mkdtempSync(join(tmpdir(), 'validate-engine-'));
  try {
    const templatePath = join(dir, 'template.json');
    writeFileSync(templatePath, JSON.stringify({ Resources: Object.fromEntries([...types].map((Type, i) => [`R${i}`, { Type }])) }));
    plugin.validate({ templatePaths: [templatePath], stackTemplates: [{ stackConstructPath: 'Engine', templatePath, accountId: undefined, region: undefined }] } as any);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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
    const types = resourceTypes(context);
    if ([...types].some((t) => !engineTypes.has(t))) {
      if (engineTypes.size === 0) {
        for (const r of engines.specDatabase().all('resource')) if (SERVICES.test(r.cloudFormationType)) engineTypes.add(r.cloudFormationType);
      }
      for (const t of types) engineTypes.add(t);
      buildEngineFor(validatePlugin, engineTypes);
      builds++;
    }
    return validatePlugin.validate(context);
  },
  engineBuilds: () => builds,
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
