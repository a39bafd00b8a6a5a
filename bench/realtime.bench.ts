/**
 * RealtimeEndpoint against what it saves you from writing, side by side:
 * - cold import: our realtime module (an esbuild bundle of src/core + src/realtime into .bench-out/, aws-cdk-lib and
 *   constructs external) against requiring exactly the aws-cdk-lib modules that bundle imports, and nothing else; each in fresh
 *   child processes, alternated, timed inside the child (node start-up excluded);
 * - synth: 1, 10 and 50 autoscaled endpoints with RealtimeEndpoint against the same stacks written with raw L1s
 *   (role + policy, CfnModel, CfnEndpointConfig, CfnEndpoint, CfnScalableTarget, CfnScalingPolicy), interleaved in one
 *   process, each run a fresh App through `app.synth()`.
 */
import { execFileSync } from 'child_process';
import { mkdirSync } from 'fs';
import { dirname, join } from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { buildSync } from 'esbuild';
import { Bench, BenchRow, interleavedMs, median } from './harness';
import { ContainerImage, InstanceType, ModelData, ModelSource } from '../src/core';
import { RealtimeEndpoint } from '../src/realtime';

const ROOT = join(__dirname, '..');
const OURS_MODULE = join(ROOT, '.bench-out', 'realtime', 'index.js');
const COLD_RUNS = 7;
const SYNTH_RUNS = 5;
const ENV = { account: '123456789012', region: 'us-east-1' };
const REPO = 'huggingface-pytorch-tgi-inference';
const TAG = '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04';

/** Bundles our module and returns the aws-cdk-lib/constructs module paths it imports. */
function bundleOurs(): string[] {
  mkdirSync(dirname(OURS_MODULE), { recursive: true });
  // What a user of the realtime capability loads: the endpoint and the core model sources it takes.
  const result = buildSync({
    stdin: { contents: "export * from './src/core';\nexport * from './src/realtime';\n", resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: OURS_MODULE,
    logLevel: 'error',
    metafile: true,
    external: ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'],
  });
  // The metafile also lists erased type-only imports as external; keep the packages only.
  const imports = Object.values(result.metafile!.inputs)
    .flatMap((i) => i.imports.filter((x) => x.external && /^(aws-cdk-lib|constructs)(\/|$)/.test(x.path)).map((x) => x.path));
  return [...new Set(imports)].sort();
}

function childImportMs(modules: string[]): number {
  const script = `const t0 = process.hrtime.bigint();
${modules.map((m) => `require(${JSON.stringify(m)});`).join('\n')}
console.log(Number(process.hrtime.bigint() - t0) / 1e6);`;
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: ROOT }).trim());
}

/** N autoscaled endpoints with our construct. */
function synthOurs(n: number): void {
  const app = new App();
  const stack = new Stack(app, 'Ours', { env: ENV });
  const bucket = s3.Bucket.fromBucketName(stack, 'Artifacts', 'model-artifacts');
  for (let i = 0; i < n; i++) {
    new RealtimeEndpoint(stack, `Endpoint${i}`, {
      endpointName: `chat-${i}`,
      model: ModelSource.fromContainer(ContainerImage.fromDlc(REPO, TAG), { modelData: ModelData.fromBucket(bucket, `model-${i}/`) }),
      instanceType: InstanceType.ML_G5_2XLARGE,
      autoScaling: {},
    });
  }
  app.synth();
}

/** The same N endpoints written by hand with L1s: what RealtimeEndpoint renders. */
function synthRaw(n: number): void {
  const app = new App();
  const stack = new Stack(app, 'Raw', { env: ENV });
  for (let i = 0; i < n; i++) {
    const role = new iam.CfnRole(stack, `Role${i}`, {
      assumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: 'sagemaker.amazonaws.com' }, Action: 'sts:AssumeRole' }],
      },
    });
    const policy = new iam.CfnPolicy(stack, `Policy${i}`, {
      policyName: `model-${i}`,
      roles: [role.ref],
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents', 'logs:DescribeLogStreams'], Resource: `arn:${stack.partition}:logs:${stack.region}:${stack.account}:log-group:/aws/sagemaker/*` },
          { Effect: 'Allow', Action: 'cloudwatch:PutMetricData', Resource: '*', Condition: { StringLike: { 'cloudwatch:namespace': ['/aws/sagemaker/*', 'AWS/SageMaker'] } } },
          { Effect: 'Allow', Action: ['ecr:BatchCheckLayerAvailability', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer'], Resource: `arn:${stack.partition}:ecr:${stack.region}:763104351884:repository/${REPO}` },
          { Effect: 'Allow', Action: 'ecr:GetAuthorizationToken', Resource: '*' },
          { Effect: 'Allow', Action: ['s3:GetObject*', 's3:GetBucket*', 's3:List*'], Resource: [`arn:${stack.partition}:s3:::model-artifacts`, `arn:${stack.partition}:s3:::model-artifacts/model-${i}/*`] },
        ],
      },
    });
    const model = new sagemaker.CfnModel(stack, `Model${i}`, {
      executionRoleArn: role.attrArn,
      primaryContainer: {
        image: `763104351884.dkr.ecr.us-east-1.amazonaws.com/${REPO}:${TAG}`,
        modelDataSource: { s3DataSource: { s3Uri: `s3://model-artifacts/model-${i}/`, s3DataType: 'S3Prefix', compressionType: 'None' } },
      },
    });
    model.addResourceDependency(policy);
    const config = new sagemaker.CfnEndpointConfig(stack, `Config${i}`, {
      productionVariants: [{ variantName: 'AllTraffic', modelName: model.attrModelName, instanceType: 'ml.g5.2xlarge', initialInstanceCount: 1, initialVariantWeight: 1 }],
    });
    const endpoint = new sagemaker.CfnEndpoint(stack, `Endpoint${i}`, { endpointName: `chat-${i}`, endpointConfigName: config.attrEndpointConfigName });
    endpoint.addResourceDependency(policy);
    const target = new appscaling.CfnScalableTarget(stack, `Target${i}`, {
      serviceNamespace: 'sagemaker',
      resourceId: `endpoint/chat-${i}/variant/AllTraffic`,
      scalableDimension: 'sagemaker:variant:DesiredInstanceCount',
      minCapacity: 1,
      maxCapacity: 8,
    });
    target.addResourceDependency(endpoint);
    new appscaling.CfnScalingPolicy(stack, `Policy${i}Scaling`, {
      policyName: 'AllTraffic-invocations-per-instance',
      policyType: 'TargetTrackingScaling',
      scalingTargetId: target.ref,
      targetTrackingScalingPolicyConfiguration: {
        targetValue: 70,
        scaleOutCooldown: 60,
        scaleInCooldown: 300,
        predefinedMetricSpecification: { predefinedMetricType: 'SageMakerVariantInvocationsPerInstance' },
      },
    });
  }
  app.synth();
}

export const bench: Bench = {
  title: 'RealtimeEndpoint: import and synth cost against raw aws-cdk-lib',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    const cdkModules = bundleOurs();
    const ours: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      ours.push(childImportMs([OURS_MODULE]));
      raw.push(childImportMs(cdkModules));
    }
    rows.push({
      name: 'cold import of the realtime module',
      ours: median(ours),
      baseline: median(raw),
      unit: 'ms',
      baselineLabel: `requiring only the ${cdkModules.length} aws-cdk-lib/constructs modules it uses`,
      note: `median of ${COLD_RUNS} fresh processes each; ${cdkModules.join(', ')}`,
    });
    for (const n of [1, 10, 50]) {
      const { a, b } = await interleavedMs(() => synthOurs(n), () => synthRaw(n), SYNTH_RUNS);
      rows.push({
        name: `synth ${n} autoscaled endpoint${n === 1 ? '' : 's'}`,
        ours: a,
        baseline: b,
        unit: 'ms',
        baselineLabel: 'raw L1 resources',
        note: `median of ${SYNTH_RUNS} interleaved runs`,
      });
    }
    return rows;
  },
};
