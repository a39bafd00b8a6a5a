import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { ContainerImage, ImageProcessor } from '../../src';

function bindIn(region: string | undefined, image: ContainerImage) {
  const stack = new Stack(new App(), 'S', region ? { env: { region, account: '111122223333' } } : {});
  const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
  const { imageUri } = image.bind(stack, role);
  return { stack, imageUri: stack.resolve(imageUri), template: () => Template.fromStack(stack) };
}

describe('ContainerImage catalog entry points', () => {
  test('TGI by alias in a concrete region: literal URI and a pull grant scoped to the repository', () => {
    const { imageUri, template } = bindIn('eu-central-2', ContainerImage.huggingfaceTgi({ version: '3.3' }));
    expect(imageUri).toBe('380420809688.dkr.ecr.eu-central-2.amazonaws.com/huggingface-pytorch-tgi-inference:2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04');
    template().hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          {
            Action: ['ecr:BatchCheckLayerAvailability', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer'],
            Effect: 'Allow',
            Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ecr:eu-central-2:380420809688:repository/huggingface-pytorch-tgi-inference']] },
          },
          { Action: 'ecr:GetAuthorizationToken', Effect: 'Allow', Resource: '*' },
        ],
      },
    });
  });

  test('each entry point composes its image', () => {
    const at = (image: ContainerImage) => bindIn('us-east-1', image).imageUri;
    expect(at(ContainerImage.huggingfaceTei({ version: '1.8' }))).toMatch(/\/tei:2\.0\.1-tei1\.8\.2-gpu-py310-cu122-ubuntu22\.04$/);
    expect(at(ContainerImage.huggingfaceTei({ version: '1.8', processor: ImageProcessor.CPU }))).toMatch(/\/tei-cpu:2\.0\.1-tei1\.8\.2-cpu-py310-ubuntu22\.04$/);
    expect(at(ContainerImage.vllm({ version: '0.21' }))).toMatch(/\/huggingface-vllm:0\.21\.0-transformers5\.8\.1-gpu-py312-cu130-ubuntu22\.04$/);
    expect(at(ContainerImage.djlLmi({ version: 'latest' }))).toMatch(/\/djl-inference:0\.36\.0-lmi27\.0\.0-cu130$/);
    expect(at(ContainerImage.huggingface({ version: '4.51', processor: ImageProcessor.CPU })))
      .toMatch(/\/huggingface-pytorch-inference:2\.6\.0-transformers4\.51-cpu-py312-ubuntu22\.04$/);
    expect(at(ContainerImage.huggingface({ version: '4.26.0', tensorflowVersion: '2.11' })))
      .toMatch(/\/huggingface-tensorflow-inference:2\.11-transformers4\.26\.0-gpu-py39-cu112-ubuntu20\.04$/);
    expect(at(ContainerImage.xgboost('1.7-1'))).toBe('683313688378.dkr.ecr.us-east-1.amazonaws.com/sagemaker-xgboost:1.7-1');
    expect(at(ContainerImage.sklearn('1.2-1'))).toBe('683313688378.dkr.ecr.us-east-1.amazonaws.com/sagemaker-scikit-learn:1.2-1-cpu-py3');
    expect(at(ContainerImage.pytorch({ version: '2.6.0', processor: ImageProcessor.GPU }))).toMatch(/\/pytorch-inference:2\.6\.0-gpu-py312$/);
    expect(at(ContainerImage.pytorch({ version: '1.5.0', processor: ImageProcessor.CPU, pythonVersion: 'py3' }))).toMatch(/\/pytorch-inference:1\.5\.0-cpu-py3$/);
    expect(at(ContainerImage.tensorflow({ version: '2.19', processor: ImageProcessor.CPU }))).toMatch(/\/tensorflow-inference:2\.19-cpu$/);
  });

  test('China and ISO regions use their partition domain', () => {
    expect(bindIn('cn-northwest-1', ContainerImage.djlLmi({ version: '0.36.0' })).imageUri).toMatch(/^727897471807\.dkr\.ecr\.cn-northwest-1\.amazonaws\.com\.cn\//);
    expect(bindIn('us-isob-east-1', ContainerImage.djlLmi({ version: '0.36.0' })).imageUri).toMatch(/\.dkr\.ecr\.us-isob-east-1\.sc2s\.sgov\.gov\//);
  });

  test('a region token resolves through one mapping of the image\'s regions to account and domain', () => {
    const { stack, imageUri, template } = bindIn(undefined, ContainerImage.huggingfaceTgi({ version: '3.3.6' }));
    ContainerImage.huggingfaceTgi({ version: '3.3.4' }).bind(stack, new iam.Role(stack, 'R2', { assumedBy: new iam.AccountRootPrincipal() }));
    const mappings = template().toJSON().Mappings;
    const ids = Object.keys(mappings);
    expect(ids).toHaveLength(1);
    expect(mappings[ids[0]]['cn-north-1']).toEqual({ account: '727897471807', domain: 'amazonaws.com.cn' });
    expect(mappings[ids[0]]['us-east-1']).toEqual({ account: '763104351884', domain: 'amazonaws.com' });
    expect(JSON.stringify(imageUri)).toContain(`"Fn::FindInMap":["${ids[0]}",{"Ref":"AWS::Region"},"account"]`);
    expect(JSON.stringify(imageUri)).toContain(`"Fn::FindInMap":["${ids[0]}",{"Ref":"AWS::Region"},"domain"]`);
  });

  test('errors name the option, the value and what exists', () => {
    expect(() => ContainerImage.huggingfaceTgi({ version: '9.9' })).toThrow(/ContainerImage.huggingfaceTgi.*\n.*version: got '9\.9', expected one of .*3\.3\.6.*3\.3/);
    expect(() => ContainerImage.pytorch({ version: '1.5.0', processor: ImageProcessor.CPU }))
      .toThrow(/pythonVersion: got 'nothing', expected one of the Python versions of pytorch 1\.5\.0: py3, py36/);
    expect(() => ContainerImage.huggingface({ version: '4.10.2' }))
      .toThrow(/pytorchVersion: got 'nothing', expected one of the base frameworks of transformers 4\.10\.2: pytorch1\.8, pytorch1\.9, tensorflow2\.4/);
    expect(() => ContainerImage.huggingface({ version: '4.26', pytorchVersion: '1.13', tensorflowVersion: '2.11' }))
      .toThrow(/tensorflowVersion: got '2\.11', expected nothing when pytorchVersion is set/);
    expect(() => bindIn('eusc-de-east-1', ContainerImage.huggingfaceTgi({ version: '0.6.0' })))
      .toThrow(/ContainerImage.huggingfaceTgi: region 'eusc-de-east-1' \(the stack's region\) has no huggingface-pytorch-tgi-inference:2\.0\.0-tgi0\.6\.0-gpu-py39-cu118-ubuntu20\.04 image; expected one of the regions it is published in: af-south-1, .*us-west-2$/);
  });

  test('fromDlc keeps working', () => {
    expect(bindIn('us-east-1', ContainerImage.fromDlc('djl-inference', '0.29.0-lmi11.0.0-cu124')).imageUri)
      .toBe('763104351884.dkr.ecr.us-east-1.amazonaws.com/djl-inference:0.29.0-lmi11.0.0-cu124');
  });
});
