import { Token } from 'aws-cdk-lib';

const INSTANCE_TYPE_PATTERN = /^ml\.[a-z0-9-]+\.[a-z0-9]+$/;

/**
 * A SageMaker hosting instance type, such as `ml.g5.2xlarge`.
 *
 * `InstanceType.of()` accepts any `ml.` type (new types appear faster than any library releases), and tokens.
 */
export class InstanceType {
  public static readonly ML_T2_MEDIUM = InstanceType.of('ml.t2.medium');
  public static readonly ML_M5_LARGE = InstanceType.of('ml.m5.large');
  public static readonly ML_M5_XLARGE = InstanceType.of('ml.m5.xlarge');
  public static readonly ML_M5_2XLARGE = InstanceType.of('ml.m5.2xlarge');
  public static readonly ML_C5_XLARGE = InstanceType.of('ml.c5.xlarge');
  public static readonly ML_C5_2XLARGE = InstanceType.of('ml.c5.2xlarge');
  public static readonly ML_G5_XLARGE = InstanceType.of('ml.g5.xlarge');
  public static readonly ML_G5_2XLARGE = InstanceType.of('ml.g5.2xlarge');
  public static readonly ML_G5_12XLARGE = InstanceType.of('ml.g5.12xlarge');
  public static readonly ML_G5_48XLARGE = InstanceType.of('ml.g5.48xlarge');
  public static readonly ML_G6_XLARGE = InstanceType.of('ml.g6.xlarge');
  public static readonly ML_G6E_XLARGE = InstanceType.of('ml.g6e.xlarge');
  public static readonly ML_P4D_24XLARGE = InstanceType.of('ml.p4d.24xlarge');
  public static readonly ML_P5_48XLARGE = InstanceType.of('ml.p5.48xlarge');
  public static readonly ML_INF2_XLARGE = InstanceType.of('ml.inf2.xlarge');

  /**
   * An instance type by name.
   *
   * @param name the SageMaker name, starting with `ml.` (e.g. `ml.g5.2xlarge`), or a token
   */
  public static of(name: string): InstanceType {
    if (!Token.isUnresolved(name) && !INSTANCE_TYPE_PATTERN.test(name)) {
      throw new Error(`instanceType: got '${name}', expected a SageMaker instance type starting with 'ml.' such as 'ml.g5.2xlarge'`);
    }
    return new InstanceType(name);
  }

  /** The instance type's name, e.g. `ml.g5.2xlarge`. */
  public readonly name: string;

  /**
   * The family, e.g. `g5` for `ml.g5.2xlarge`.
   *
   * @default - no value when the name is a token
   */
  public readonly family?: string;

  private constructor(name: string) {
    this.name = name;
    this.family = Token.isUnresolved(name) ? undefined : name.split('.')[1];
  }

  /** Whether the name is a token known only at deploy time. */
  public get isUnresolved(): boolean {
    return Token.isUnresolved(this.name);
  }

  /** The instance type's name. */
  public toString(): string {
    return this.name;
  }
}
