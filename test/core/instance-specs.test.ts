import { AcceleratorKind } from '../../src/core/instance-hardware';
import { InstanceSpecs } from '../../src/core/instance-specs';
import { compareInstanceSpecs, instanceSpecs, knownInstanceSpecs } from '../../src/private/instance-table';

describe('instanceSpecs', () => {
  test.each([
    // [type, vCPU, host GiB, accelerators, model, GiB each, NVMe]
    ['ml.g4dn.xlarge', 4, 16, 1, 'T4', 16, true],
    ['ml.g4dn.12xlarge', 48, 192, 4, 'T4', 16, true],
    ['ml.g5.2xlarge', 8, 32, 1, 'A10G', 24, true],
    ['ml.g5.12xlarge', 48, 192, 4, 'A10G', 24, true],
    ['ml.g5.48xlarge', 192, 768, 8, 'A10G', 24, true],
    ['ml.g6.xlarge', 4, 16, 1, 'L4', 24, true],
    ['ml.g6e.xlarge', 4, 32, 1, 'L40S', 48, true],
    ['ml.g6e.48xlarge', 192, 1536, 8, 'L40S', 48, true],
    ['ml.p3.2xlarge', 8, 61, 1, 'V100', 16, false],
    ['ml.p4d.24xlarge', 96, 1152, 8, 'A100', 40, true],
    ['ml.p4de.24xlarge', 96, 1152, 8, 'A100', 80, true],
    ['ml.p5.48xlarge', 192, 2048, 8, 'H100', 80, true],
    ['ml.p5e.48xlarge', 192, 2048, 8, 'H200', 141, true],
    ['ml.inf2.xlarge', 4, 16, 1, 'Inferentia2', 32, false],
    ['ml.inf2.48xlarge', 192, 768, 12, 'Inferentia2', 32, false],
    ['ml.trn1.32xlarge', 128, 512, 16, 'Trainium', 32, true],
  ])('%s: %i vCPU, %i GiB, %i x %s %i GiB, NVMe %s', (type, vcpus, gib, accelerators, model, each, nvme) => {
    const spec = instanceSpecs(type)!;
    expect(spec).toMatchObject({
      instanceType: type, vcpus, memoryMiB: gib * 1024, accelerators, acceleratorModel: model, acceleratorMemoryGiB: each, localNvme: nvme,
    });
    expect(spec.totalAcceleratorMemoryGiB).toBe(accelerators * each);
  });

  test.each([
    ['ml.t2.medium', 2, 4], ['ml.m5.xlarge', 4, 16], ['ml.c5.9xlarge', 36, 72], ['ml.r5.large', 2, 16],
    ['ml.m6i.32xlarge', 128, 512], ['ml.c6i.xlarge', 4, 8], ['ml.m7i.48xlarge', 192, 768],
  ])('%s is CPU only: %i vCPU, %i GiB', (type, vcpus, gib) => {
    expect(instanceSpecs(type)).toMatchObject({
      vcpus, memoryMiB: gib * 1024, accelerators: 0, acceleratorMemoryGiB: 0, totalAcceleratorMemoryGiB: 0,
    });
    expect(instanceSpecs(type)!.acceleratorKind).toBeUndefined();
  });

  test('accelerator kinds', () => {
    expect(instanceSpecs('ml.g5.xlarge')!.acceleratorKind).toBe(AcceleratorKind.NVIDIA_GPU);
    expect(instanceSpecs('ml.inf2.xlarge')!.acceleratorKind).toBe(AcceleratorKind.AWS_INFERENTIA);
    expect(instanceSpecs('ml.trn1.2xlarge')!.acceleratorKind).toBe(AcceleratorKind.AWS_TRAINIUM);
  });

  test('unknown types return undefined', () => {
    expect(instanceSpecs('ml.x99.huge')).toBeUndefined();
    expect(instanceSpecs('g5.2xlarge')).toBeUndefined();
    expect(InstanceSpecs.of('ml.nope.xlarge')).toBeUndefined();
  });

  test('the jsii class exposes the same table', () => {
    expect(InstanceSpecs.of('ml.g5.2xlarge')).toBe(instanceSpecs('ml.g5.2xlarge'));
    expect(InstanceSpecs.all().length).toBe(knownInstanceSpecs().length);
    expect(new Set(InstanceSpecs.all().map((s) => s.instanceType)).size).toBe(InstanceSpecs.all().length);
  });

  test('ordering: smallest accelerator memory first, then host memory, then name', () => {
    const sorted = ['ml.g6.2xlarge', 'ml.g5.12xlarge', 'ml.g5.2xlarge', 'ml.g5.xlarge', 'ml.m5.large']
      .map((t) => instanceSpecs(t)!).sort(compareInstanceSpecs).map((s) => s.instanceType);
    expect(sorted).toEqual(['ml.m5.large', 'ml.g5.xlarge', 'ml.g5.2xlarge', 'ml.g6.2xlarge', 'ml.g5.12xlarge']);
  });
});
