/** The Feature Store type of a feature (CloudFormation `FeatureDefinitions[].FeatureType`). */
export enum FeatureType {
  /** UTF-8 text. Also the only event-time type an Iceberg offline store accepts. */
  STRING = 'String',
  /** Signed 64-bit integer. */
  INTEGRAL = 'Integral',
  /** 64-bit floating point. An event time of this type is seconds since the Unix epoch. */
  FRACTIONAL = 'Fractional',
}

/**
 * A typed feature definition of a feature group.
 *
 * @example
 * import { Feature } from 'cdk-sagemaker-mcp';
 *
 * const userId = Feature.text('user_id');
 * const toolCalls = Feature.integral('tool_calls_last_7d');
 */
export class Feature {
  /**
   * A `String` (UTF-8 text) feature. Named `text` rather than `string`, which is a reserved word in C# and Go.
   */
  public static text(name: string): Feature {
    return new Feature(name, FeatureType.STRING);
  }

  /** An `Integral` (signed 64-bit integer) feature. */
  public static integral(name: string): Feature {
    return new Feature(name, FeatureType.INTEGRAL);
  }

  /** A `Fractional` (64-bit floating point) feature. */
  public static fractional(name: string): Feature {
    return new Feature(name, FeatureType.FRACTIONAL);
  }

  /** A feature of the given type. */
  public static of(name: string, type: FeatureType): Feature {
    return new Feature(name, type);
  }

  private constructor(
    /** The feature name. */
    public readonly name: string,
    /** The feature type. */
    public readonly type: FeatureType,
  ) {}
}
