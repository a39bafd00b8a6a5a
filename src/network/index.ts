export * from './sagemaker-vpc-endpoints';
