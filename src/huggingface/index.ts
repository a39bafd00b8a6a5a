export * from './hub-model';
