export * from './image-options';
