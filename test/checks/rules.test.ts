/**
 * One describe per rule: a compliant stack and non-compliant ones, each of raw L1 resources, evaluated in both
 * plugin mode and aspect mode (`expectRule` asserts the two modes agree).
 */
import {
  ASYNC_CONFIG, asyncScaleToZero, backlogAlarm, endpoint, endpointConfig, featureGroup, inferenceComponent, KEY_ARN,
  LMI_IMAGE, model, pipelineRule, productionRollout, realtimeScaling, ROLE_ARN, ROLLBACK_ALARMS, sageMakerRole, targetTracking, variantTarget,
} from './fixtures';
import { expectRule } from './util';

const GATED_URI = 's3://jumpstart-private-cache-prod-us-east-1/meta-textgeneration/meta-textgeneration-llama-3-8b-instruct/artifacts/inference-prepack/v1.0.0/';

describe('SMCP-RT1: realtime variants do not scale to zero', () => {
  test('Compliance: MinCapacity 1 on a realtime endpoint', () => {
    expectRule('SMCP-RT1', realtimeScaling(), []);
  });
  test('Compliance: MinCapacity 0 on an async endpoint', () => {
    expectRule('SMCP-RT1', asyncScaleToZero(), []);
  });
  test('Noncompliance: MinCapacity 0 on a realtime endpoint', () => {
    expectRule('SMCP-RT1', realtimeScaling({ Target: variantTarget(0) }), ['Target'], /realtime endpoint Endpoint scale to 0 .*set MinCapacity >= 1/);
  });
  test('Noncompliance: literal endpoint name in the resource id', () => {
    expectRule('SMCP-RT1', realtimeScaling({ Target: variantTarget(0, { ResourceId: 'endpoint/chat/variant/AllTraffic' }) }), ['Target']);
  });
  test('skips a resource id it cannot resolve', () => {
    expectRule('SMCP-RT1', realtimeScaling({ Target: variantTarget(0, { ResourceId: { 'Fn::ImportValue': 'EndpointId' } }) }), []);
  });
});

describe('SMCP-RT2: asymmetric cooldowns', () => {
  test('Compliance: ScaleOutCooldown 60 < ScaleInCooldown 300', () => {
    expectRule('SMCP-RT2', realtimeScaling(), []);
  });
  test('Noncompliance: symmetric cooldowns', () => {
    const found = expectRule('SMCP-RT2', realtimeScaling({ Policy: targetTracking({ ScaleOutCooldown: 300 }) }), ['Policy'], /ScaleOutCooldown 300 and ScaleInCooldown 300: set ScaleOutCooldown below/);
    expect(found[0].level).toBe('warning');
  });
  test('Noncompliance: cooldowns left to the defaults', () => {
    expectRule('SMCP-RT2', realtimeScaling({ Policy: targetTracking({ ScaleOutCooldown: undefined, ScaleInCooldown: undefined }) }), ['Policy'], /\(default\)/);
  });
});

describe('SMCP-RT3: invocations-per-instance target needs MinCapacity >= 1', () => {
  test('Compliance: MinCapacity 1', () => {
    expectRule('SMCP-RT3', realtimeScaling(), []);
  });
  test('Compliance: async endpoint tracking the backlog at MinCapacity 0', () => {
    expectRule('SMCP-RT3', asyncScaleToZero(), []);
  });
  test('Noncompliance: async endpoint tracking invocations per instance at MinCapacity 0', () => {
    expectRule('SMCP-RT3', asyncScaleToZero({ Policy: targetTracking() }), ['Target'], /MinCapacity 0 but policy Policy tracks SageMakerVariantInvocationsPerInstance/);
  });
});

describe('SMCP-AS1: async notifications and failure path', () => {
  test('Compliance: both topics and S3FailurePath', () => {
    expectRule('SMCP-AS1', asyncScaleToZero(), []);
  });
  test('Noncompliance: no error topic and no failure path', () => {
    const config = endpointConfig({}, { AsyncInferenceConfig: { OutputConfig: { S3OutputPath: 's3://results/out', NotificationConfig: { SuccessTopic: 'arn:aws:sns:us-east-1:123456789012:ok' } } } });
    expectRule('SMCP-AS1', asyncScaleToZero({ Config: config }), ['Config'], /NotificationConfig\.ErrorTopic, S3FailurePath/);
  });
  test('Noncompliance: no NotificationConfig at all', () => {
    const config = endpointConfig({}, { AsyncInferenceConfig: { OutputConfig: { S3OutputPath: 's3://results/out', S3FailurePath: 's3://results/failed' } } });
    expectRule('SMCP-AS1', asyncScaleToZero({ Config: config }), ['Config'], /SuccessTopic, NotificationConfig\.ErrorTopic:/);
  });
});

describe('SMCP-AS2: async scale-to-zero needs a HasBacklogWithoutCapacity alarm', () => {
  test('Compliance: the documented scale-to-zero recipe (backlog target tracking + HasBacklogWithoutCapacity step policy)', () => {
    expectRule('SMCP-AS2', asyncScaleToZero(), []);
  });
  test('Compliance: MinCapacity 1 needs no alarm', () => {
    const resources = asyncScaleToZero({ Target: variantTarget(1) });
    delete resources.BacklogAlarm;
    expectRule('SMCP-AS2', resources, []);
  });
  test('Noncompliance: no alarm', () => {
    const resources = asyncScaleToZero();
    delete resources.BacklogAlarm;
    expectRule('SMCP-AS2', resources, ['Target'], /no HasBacklogWithoutCapacity alarm watches it/);
  });
  test('Noncompliance: alarm without actions', () => {
    expectRule('SMCP-AS2', asyncScaleToZero({ BacklogAlarm: backlogAlarm({ AlarmActions: [] }) }), ['Target'], /has no AlarmActions/);
  });
  test('Noncompliance: alarm on another endpoint', () => {
    const resources = asyncScaleToZero({ BacklogAlarm: backlogAlarm({ Dimensions: [{ Name: 'EndpointName', Value: { 'Fn::GetAtt': ['Other', 'EndpointName'] } }] }) });
    resources.Other = endpoint({ EndpointName: 'other' });
    expectRule('SMCP-AS2', resources, ['Target']);
  });
});

describe('SMCP-AS3: GPU LLM async concurrency', () => {
  const llm = (concurrency: number, instanceType = 'ml.g5.2xlarge') => asyncScaleToZero({
    Model: model({ PrimaryContainer: { Image: LMI_IMAGE } }),
    Config: endpointConfig({ InstanceType: instanceType }, {
      AsyncInferenceConfig: { ...ASYNC_CONFIG.AsyncInferenceConfig, ClientConfig: { MaxConcurrentInvocationsPerInstance: concurrency } },
    }),
  });
  test('Compliance: 2 concurrent invocations on a GPU LLM', () => {
    expectRule('SMCP-AS3', llm(2), []);
  });
  test('Compliance: 8 concurrent invocations on a CPU instance', () => {
    expectRule('SMCP-AS3', llm(8, 'ml.m5.xlarge'), []);
  });
  test('Noncompliance: 8 concurrent invocations on a GPU LLM', () => {
    const found = expectRule('SMCP-AS3', llm(8), ['Config'], /up to 8 concurrent invocations per ml\.g5\.2xlarge instance to LLM image .*djl-inference.*set MaxConcurrentInvocationsPerInstance to 1-2/);
    expect(found[0].level).toBe('warning');
  });
  test('Noncompliance: a TGI image whose account and region are tokens', () => {
    const image = { 'Fn::Join': ['', [{ Ref: 'AWS::AccountId' }, '.dkr.ecr.', { Ref: 'AWS::Region' }, '.amazonaws.com/huggingface-pytorch-tgi-inference:2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04']] };
    expectRule('SMCP-AS3', asyncScaleToZero({
      Model: model({ PrimaryContainer: { Image: image } }),
      Config: endpointConfig({ InstanceType: 'ml.g6.xlarge' }, { AsyncInferenceConfig: { ...ASYNC_CONFIG.AsyncInferenceConfig, ClientConfig: { MaxConcurrentInvocationsPerInstance: 4 } } }),
    }), ['Config']);
  });
});

describe('SMCP-JS1: gated JumpStart models accept the EULA', () => {
  const jumpStart = (accessConfig?: object) => ({
    Model: model({ PrimaryContainer: { Image: LMI_IMAGE, ModelDataSource: { S3DataSource: { S3Uri: GATED_URI, S3DataType: 'S3Prefix', CompressionType: 'None', ModelAccessConfig: accessConfig } } } }),
  });
  test('Compliance: AcceptEula true', () => {
    expectRule('SMCP-JS1', jumpStart({ AcceptEula: true }), []);
  });
  test('Compliance: an ungated JumpStart bucket', () => {
    expectRule('SMCP-JS1', { Model: model({ PrimaryContainer: { Image: LMI_IMAGE, ModelDataUrl: 's3://jumpstart-cache-prod-us-east-1/x/model.tar.gz' } }) }, []);
  });
  test('Noncompliance: no ModelAccessConfig', () => {
    expectRule('SMCP-JS1', jumpStart(), ['Model'], /without accepting the EULA: set ModelDataSource\.S3DataSource\.ModelAccessConfig\.AcceptEula to true/);
  });
  test('Noncompliance: gated artifacts through ModelDataUrl', () => {
    expectRule('SMCP-JS1', { Model: model({ PrimaryContainer: { Image: LMI_IMAGE, ModelDataUrl: `${GATED_URI}model.tar.gz` } }) }, ['Model'], /through ModelDataUrl/);
  });
});

describe('SMCP-IC1: inference-component endpoint configs', () => {
  const icEndpoint = (variant: object, props: object) => ({
    Model: model(),
    Config: endpointConfig({ ModelName: undefined, ManagedInstanceScaling: { Status: 'ENABLED', MinInstanceCount: 0, MaxInstanceCount: 2 }, ...variant }, props),
    Endpoint: endpoint(),
    Ic: inferenceComponent(),
  });
  test('Compliance: no ModelName, ExecutionRoleArn set', () => {
    expectRule('SMCP-IC1', icEndpoint({}, { ExecutionRoleArn: ROLE_ARN }), []);
  });
  test('Noncompliance: no ExecutionRoleArn', () => {
    expectRule('SMCP-IC1', icEndpoint({}, {}), ['Config'], /no ModelName on any variant .* but no ExecutionRoleArn/);
  });
  test('Noncompliance: a variant with ModelName on an endpoint hosting inference components', () => {
    expectRule('SMCP-IC1', icEndpoint({ ModelName: 'legacy' }, { ExecutionRoleArn: ROLE_ARN }), ['Config'], /variant\(s\) AllTraffic set ModelName: remove ModelName/);
  });
});

describe('SMCP-FS1: event-time feature type', () => {
  test('Compliance: String and Fractional', () => {
    expectRule('SMCP-FS1', { Fg: featureGroup() }, []);
    expectRule('SMCP-FS1', {
      Fg: featureGroup({ FeatureDefinitions: [{ FeatureName: 'customer_id', FeatureType: 'String' }, { FeatureName: 'event_time', FeatureType: 'Fractional' }] }),
    }, []);
  });
  test('Noncompliance: Integral event time', () => {
    expectRule('SMCP-FS1', {
      Fg: featureGroup({ FeatureDefinitions: [{ FeatureName: 'customer_id', FeatureType: 'String' }, { FeatureName: 'event_time', FeatureType: 'Integral' }] }),
    }, ['Fg'], /'event_time' \(Integral\) as its event time: declare it String/);
  });
});

describe('SMCP-FS2: Iceberg offline store', () => {
  test('Compliance: Iceberg, and no offline store', () => {
    expectRule('SMCP-FS2', { Fg: featureGroup() }, []);
    expectRule('SMCP-FS2', { Fg: featureGroup({ OfflineStoreConfig: undefined }) }, []);
  });
  test('Noncompliance: Glue table format, and the default', () => {
    const offline = (tableFormat?: string) => ({ S3StorageConfig: { S3Uri: 's3://features/offline', KmsKeyId: KEY_ARN }, TableFormat: tableFormat });
    const found = expectRule('SMCP-FS2', { Glue: featureGroup({ OfflineStoreConfig: offline('Glue') }), Unset: featureGroup({ OfflineStoreConfig: offline() }) },
      ['Glue', 'Unset'], /set OfflineStoreConfig\.TableFormat to 'Iceberg'/);
    expect(found.every((f) => f.level === 'warning')).toBe(true);
  });
});

describe('SMCP-PL1: pipeline status rules have dead-letter queues', () => {
  test('Compliance: DeadLetterConfig on the target', () => {
    expectRule('SMCP-PL1', { Rule: pipelineRule() }, []);
  });
  test('Compliance: a rule on other events', () => {
    expectRule('SMCP-PL1', { Rule: pipelineRule({ DeadLetterConfig: undefined }, { source: ['aws.s3'] }) }, []);
  });
  test('Noncompliance: no DeadLetterConfig', () => {
    expectRule('SMCP-PL1', { Rule: pipelineRule({ DeadLetterConfig: undefined }) }, ['Rule'], /target\(s\) Router without a DeadLetterConfig/);
  });
  test('Noncompliance: every aws.sagemaker event (no detail-type filter)', () => {
    expectRule('SMCP-PL1', { Rule: pipelineRule({ DeadLetterConfig: undefined }, { source: ['aws.sagemaker'] }) }, ['Rule']);
  });
});

describe('SMCP-PL2: pipeline status targets keep the correlation id', () => {
  test('Compliance: the whole event, $.detail, or a map of the description', () => {
    expectRule('SMCP-PL2', {
      Whole: pipelineRule(),
      Detail: pipelineRule({ InputPath: '$.detail' }),
      Mapped: pipelineRule({ InputTransformer: { InputPathsMap: { d: '$.detail.pipelineExecutionDescription', s: '$.detail.currentPipelineExecutionStatus' }, InputTemplate: '{"d": <d>, "s": <s>}' } }),
    }, []);
  });
  test('Noncompliance: a transformer without the description, a constant input, a narrow path', () => {
    expectRule('SMCP-PL2', {
      Mapped: pipelineRule({ InputTransformer: { InputPathsMap: { s: '$.detail.currentPipelineExecutionStatus' }, InputTemplate: '{"s": <s>}' } }),
      Constant: pipelineRule({ Input: '{"hello":"world"}' }),
      Narrow: pipelineRule({ InputPath: '$.detail.currentPipelineExecutionStatus' }),
    }, ['Constant', 'Mapped', 'Narrow'], /cannot read the correlation id in detail\.pipelineExecutionDescription/);
  });
});

describe('SMCP-IAM1: no AmazonSageMakerFullAccess on SageMaker roles', () => {
  test('Compliance: no managed policy; full access on a non-SageMaker role', () => {
    expectRule('SMCP-IAM1', {
      Role: sageMakerRole([]),
      Lambda: { ...sageMakerRole(['arn:aws:iam::aws:policy/AmazonSageMakerFullAccess']), Properties: { ...sageMakerRole([]).Properties, AssumeRolePolicyDocument: { Statement: [{ Effect: 'Allow', Action: 'sts:AssumeRole', Principal: { Service: 'lambda.amazonaws.com' } }] }, ManagedPolicyArns: ['arn:aws:iam::aws:policy/AmazonSageMakerFullAccess'] } },
    }, []);
  });
  test('Noncompliance: AmazonSageMakerFullAccess, partition-aware', () => {
    const arn = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::aws:policy/AmazonSageMakerFullAccess']] };
    expectRule('SMCP-IAM1', { Role: sageMakerRole([arn]) }, ['Role'], /remove it and grant only what the model needs/);
  });
});

describe('SMCP-SEC1: no secret resolved into a model\'s environment', () => {
  const secretRef = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: 'HubToken' }, ':SecretString:::}}']] };
  test('Compliance: plain environment values; a model read from S3', () => {
    expectRule('SMCP-SEC1', { Model: model({ PrimaryContainer: { Image: 'img', Environment: { HF_MODEL_ID: '/opt/ml/model' } } }) }, []);
  });
  test('Noncompliance: a Secrets Manager reference in the primary container, a container list and an inference component', () => {
    const found = expectRule('SMCP-SEC1', {
      Model: model({ PrimaryContainer: { Image: 'img', Environment: { HF_TOKEN: secretRef, HF_MODEL_ID: 'meta-llama/x' } } }),
      Pipeline: model({ PrimaryContainer: undefined, Containers: [{ Image: 'img', Environment: { KEY: '{{resolve:ssm-secure:/db/password:1}}' } }] }),
      Component: inferenceComponent({ Specification: { Container: { Image: 'img', Environment: { HF_TOKEN: secretRef } }, ComputeResourceRequirements: { MinMemoryRequiredInMb: 1024 } } }),
    }, ['Model', 'Pipeline', 'Component'], /resolves a secret into its container environment .*sagemaker:DescribeModel/);
    expect(found[0].message).toContain('(HF_TOKEN)');
    expect(found[0].level).toBe('warning');
  });
  test('Noncompliance: a reference in one Specifications entry of an inference component on an endpoint with instance pools', () => {
    const entry = (instanceType: string, environment: object) =>
      ({ InstanceType: instanceType, Container: { Image: 'img', Environment: environment }, ComputeResourceRequirements: { MinMemoryRequiredInMb: 1024 } });
    expectRule('SMCP-SEC1', {
      Component: inferenceComponent({
        Specification: undefined,
        Specifications: [entry('ml.g5.12xlarge', { HF_MODEL_ID: 'meta-llama/x' }), entry('ml.g6.12xlarge', { HF_TOKEN: secretRef })],
      }),
    }, ['Component'], /resolves a secret into its container environment \(HF_TOKEN\)/);
  });
});

describe('SMCP-KMS1: endpoint configs encrypt storage volumes', () => {
  test('Compliance: KmsKeyId set; configs with any NVMe variant, and serverless configs, exempt', () => {
    expectRule('SMCP-KMS1', {
      Model: model(),
      Config: endpointConfig(),
      Nvme: endpointConfig({ InstanceType: 'ml.g5.12xlarge' }, { KmsKeyId: undefined }),
      P4: endpointConfig({ InstanceType: 'ml.p4d.24xlarge' }, { KmsKeyId: undefined }),
      // CreateEndpointConfig fails with a KmsKeyId when ANY variant has NVMe instance storage.
      Mixed: endpointConfig({}, {
        KmsKeyId: undefined,
        ProductionVariants: [
          { VariantName: 'Cpu', ModelName: { 'Fn::GetAtt': ['Model', 'ModelName'] }, InstanceType: 'ml.m5.large', InitialInstanceCount: 1 },
          { VariantName: 'Gpu', ModelName: { 'Fn::GetAtt': ['Model', 'ModelName'] }, InstanceType: 'ml.g5.xlarge', InitialInstanceCount: 1 },
        ],
      }),
      Serverless: endpointConfig(
        { InstanceType: undefined, InitialInstanceCount: undefined, ServerlessConfig: { MemorySizeInMB: 2048, MaxConcurrency: 5 } },
        { KmsKeyId: undefined },
      ),
    }, []);
  });
  test('Noncompliance: an EBS-backed instance type without KmsKeyId', () => {
    expectRule('SMCP-KMS1', { Model: model(), Config: endpointConfig({ InstanceType: 'ml.inf2.xlarge' }, { KmsKeyId: undefined }) },
      ['Config'], /no KmsKeyId although variant\(s\) AllTraffic \(ml\.inf2\.xlarge\)/);
  });
  test('Noncompliance: EBS-backed variants beside a serverless one, without KmsKeyId', () => {
    expectRule('SMCP-KMS1', {
      Model: model(),
      Config: endpointConfig({}, {
        KmsKeyId: undefined,
        ProductionVariants: [
          { VariantName: 'Cpu', ModelName: { 'Fn::GetAtt': ['Model', 'ModelName'] }, InstanceType: 'ml.m5.large', InitialInstanceCount: 1 },
          { VariantName: 'Sls', ModelName: { 'Fn::GetAtt': ['Model', 'ModelName'] }, ServerlessConfig: { MemorySizeInMB: 2048, MaxConcurrency: 5 } },
        ],
      }),
    }, ['Config'], /no KmsKeyId although variant\(s\) Cpu \(ml\.m5\.large\) attach/);
  });
});

describe('SMCP-KMS2 / SMCP-KMS3: feature store encryption', () => {
  test('Compliance: both stores with KMS keys; online store disabled', () => {
    expectRule('SMCP-KMS2', { Fg: featureGroup(), Off: featureGroup({ OnlineStoreConfig: { EnableOnlineStore: false } }) }, []);
    expectRule('SMCP-KMS3', { Fg: featureGroup() }, []);
  });
  test('Noncompliance: online store without SecurityConfig.KmsKeyId', () => {
    expectRule('SMCP-KMS2', { Fg: featureGroup({ OnlineStoreConfig: { EnableOnlineStore: true } }) }, ['Fg'], /OnlineStoreConfig\.SecurityConfig\.KmsKeyId/);
  });
  test('Noncompliance: offline store without S3StorageConfig.KmsKeyId', () => {
    expectRule('SMCP-KMS3', { Fg: featureGroup({ OfflineStoreConfig: { S3StorageConfig: { S3Uri: 's3://features/offline' }, TableFormat: 'Iceberg' } }) },
      ['Fg'], /OfflineStoreConfig\.S3StorageConfig\.KmsKeyId/);
  });
});

describe('SMCP-MM1: multi-model endpoints meet what AWS requires', () => {
  const TRITON = '785573368785.dkr.ecr.us-east-1.amazonaws.com/sagemaker-tritonserver:24.09-py3';
  const mme = (container: object = {}, variant: object = {}) => ({
    Model: model({ PrimaryContainer: { Image: 'SKLEARN', Mode: 'MultiModel', ModelDataUrl: 's3://models/churn/', ...container } }),
    Config: endpointConfig(variant),
  });
  test('Compliance: scikit-learn over a prefix on a CPU instance', () => {
    expectRule('SMCP-MM1', mme({ Image: '683313688378.dkr.ecr.us-east-1.amazonaws.com/sagemaker-scikit-learn:1.2-1-cpu-py3' }), []);
  });
  test('Compliance: Triton on a listed GPU type', () => {
    expectRule('SMCP-MM1', mme({ Image: TRITON }, { InstanceType: 'ml.g5.2xlarge' }), []);
  });
  test('Compliance: an LLM image in single-model mode is not this rule\'s concern', () => {
    expectRule('SMCP-MM1', { Model: model({ PrimaryContainer: { Image: LMI_IMAGE } }), Config: endpointConfig({ InstanceType: 'ml.g6.12xlarge' }) }, []);
  });
  test('Noncompliance: no ModelDataUrl', () => {
    expectRule('SMCP-MM1', mme({ ModelDataUrl: undefined }), ['Model'], /MultiModel without ModelDataUrl: set it to the S3 prefix/);
  });
  test('Noncompliance: one archive instead of a prefix', () => {
    expectRule('SMCP-MM1', mme({ ModelDataUrl: 's3://models/churn/model.tar.gz' }), ['Model'], /ModelDataUrl s3:\/\/models\/churn\/model\.tar\.gz, one archive/);
  });
  test('Noncompliance: an LLM serving image', () => {
    expectRule('SMCP-MM1', mme({ Image: LMI_IMAGE }), ['Model'], /LLM serving image .*djl-inference.*not among the containers that support multi-model endpoints/);
  });
  test('Noncompliance: a GPU instance without Triton', () => {
    expectRule('SMCP-MM1', mme({}, { InstanceType: 'ml.g5.2xlarge' }), ['Config'], /GPU multi-model endpoints need the SageMaker Triton Inference Server image/);
  });
  test('Noncompliance: Triton on a GPU type the support page does not list', () => {
    expectRule('SMCP-MM1', mme({ Image: TRITON }, { InstanceType: 'ml.g6.xlarge' }), ['Config'], /ml\.g6\.xlarge, not one of the GPU types multi-model endpoints support/);
  });
  test('Noncompliance: an Inferentia instance', () => {
    expectRule('SMCP-MM1', mme({}, { InstanceType: 'ml.inf2.xlarge' }), ['Config'], /not Inferentia or Trainium/);
  });
  test('Noncompliance: a serverless variant', () => {
    expectRule('SMCP-MM1', mme({}, { InstanceType: undefined, InitialInstanceCount: undefined, ServerlessConfig: { MemorySizeInMB: 2048, MaxConcurrency: 5 } }), ['Config'],
      /Serverless Inference does not support multi-model endpoints/);
  });
});

describe('SMCP-RO1: production endpoints and inference components set a rollout strategy', () => {
  test('Compliance: a 2-instance endpoint with a canary rollout', () => {
    expectRule('SMCP-RO1', productionRollout(), []);
  });
  test('Compliance: a 1-instance endpoint without a rollout is not production', () => {
    expectRule('SMCP-RO1', productionRollout({ Config: endpointConfig(), Endpoint: endpoint() }), []);
  });
  test('Compliance: an inference component with 2 copies and a rolling update', () => {
    const rolling = { RollingUpdatePolicy: { MaximumBatchSize: { Type: 'COPY_COUNT', Value: 1 }, WaitIntervalInSeconds: 300 }, ...ROLLBACK_ALARMS };
    expectRule('SMCP-RO1', { ...productionRollout(), Component: inferenceComponent({ RuntimeConfig: { CopyCount: 2 }, DeploymentConfig: rolling }) }, []);
  });
  test('Noncompliance: a 2-instance endpoint without DeploymentConfig', () => {
    const found = expectRule('SMCP-RO1', productionRollout({ Endpoint: endpoint() }), ['Endpoint'],
      /Endpoint Endpoint is production \(variant AllTraffic starts with 2 instances\) but has no rollout strategy: .*acknowledge SMCP-RO1/);
    expect(found[0].level).toBe('warning');
  });
  test('Noncompliance: a 1-instance endpoint autoscaled to 4, with rollback alarms but no update policy', () => {
    expectRule('SMCP-RO1', realtimeScaling({ Endpoint: endpoint({ DeploymentConfig: ROLLBACK_ALARMS }) }), ['Endpoint'],
      /scalable target Target scales it up to 4 instances/);
  });
  test('Noncompliance: an inference component with 3 copies and no DeploymentConfig', () => {
    expectRule('SMCP-RO1', { ...productionRollout(), Component: inferenceComponent({ RuntimeConfig: { CopyCount: 3 } }) }, ['Component'],
      /Inference component Component is production \(it runs 3 copies\)/);
  });
});

describe('SMCP-LC1: a production endpoint serving a model package version sets a rollout strategy', () => {
  const fromPackage = model({ PrimaryContainer: undefined, Containers: [{ ModelPackageName: { Ref: 'ApprovedModelPackageArn' } }] });
  test('Compliance: a 2-instance endpoint from a package with a canary rollout', () => {
    expectRule('SMCP-LC1', productionRollout({ Model: fromPackage }), []);
  });
  test('Compliance: a 2-instance endpoint without a rollout whose model is an image (SMCP-RO1\'s finding, not this rule\'s)', () => {
    expectRule('SMCP-LC1', productionRollout({ Endpoint: endpoint() }), []);
  });
  test('Compliance: a 1-instance endpoint from a package is not production', () => {
    expectRule('SMCP-LC1', productionRollout({ Model: fromPackage, Config: endpointConfig(), Endpoint: endpoint() }), []);
  });
  test('Noncompliance: a 2-instance endpoint from a package without DeploymentConfig is an error', () => {
    const found = expectRule('SMCP-LC1', productionRollout({ Model: fromPackage, Endpoint: endpoint() }), ['Endpoint'],
      /Endpoint Endpoint is production \(variant AllTraffic starts with 2 instances\) and serves a model package version, so an approval changes its model/);
    expect(found[0].level).toBe('error');
  });
});

describe('SMCP-RO2: the rollout of a production endpoint names rollback alarms', () => {
  test('Compliance: a canary with a latency alarm', () => {
    expectRule('SMCP-RO2', productionRollout(), []);
  });
  test('Compliance: no rollout at all is SMCP-RO1\'s finding, not this rule\'s', () => {
    expectRule('SMCP-RO2', productionRollout({ Endpoint: endpoint() }), []);
  });
  test('Noncompliance: a canary without AutoRollbackConfiguration', () => {
    const found = expectRule('SMCP-RO2', productionRollout({ Endpoint: endpoint({ DeploymentConfig: { BlueGreenUpdatePolicy: { TrafficRoutingConfiguration: { Type: 'ALL_AT_ONCE' } } } }) }),
      ['Endpoint'], /has a rollout, but no rollback alarms: its baking periods watch nothing/);
    expect(found[0].level).toBe('warning');
  });
  test('Noncompliance: an empty alarm list', () => {
    expectRule('SMCP-RO2', productionRollout({ Endpoint: endpoint({ DeploymentConfig: { RollingUpdatePolicy: { MaximumBatchSize: { Type: 'INSTANCE_COUNT', Value: 1 }, WaitIntervalInSeconds: 0 }, AutoRollbackConfiguration: { Alarms: [] } } }) }),
      ['Endpoint']);
  });
});
